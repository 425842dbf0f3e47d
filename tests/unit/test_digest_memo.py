"""The memo of identifier checks and token counts keeps digests, never the texts."""

from __future__ import annotations

from memory_service.adapters.digest_memo import DigestMemo
from memory_service.adapters.identifier_library import LibraryIdentifierDetector


def test_a_value_is_computed_once_and_no_text_is_kept() -> None:
    calls: list[str] = []

    def length(text: str) -> int:
        calls.append(text)
        return len(text)

    memo: DigestMemo[int] = DigestMemo(8)
    assert memo("DE89 3704 0044 0532 0130 00", length) == 27
    assert memo("DE89 3704 0044 0532 0130 00", length) == 27
    assert calls == ["DE89 3704 0044 0532 0130 00"]
    held = repr(vars(memo))
    assert "3704" not in held and "DE89" not in held


def test_the_oldest_entries_go_past_the_size() -> None:
    memo: DigestMemo[int] = DigestMemo(2)
    for text in ("a", "b", "c"):
        memo(text, len)
    recomputed: list[str] = []
    memo("a", lambda text: recomputed.append(text) or 1)
    assert recomputed == ["a"]


def test_the_identifier_library_keeps_no_candidate_value() -> None:
    detector = LibraryIdentifierDetector()
    code = "7501011234567"  # a candidate taken from a note
    detector.identifier_types(f"id {code}", [code])
    assert code not in repr(vars(detector._national_ids))
