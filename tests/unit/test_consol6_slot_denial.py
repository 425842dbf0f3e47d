"""Session 9 (consol6, issue 12): a denial of a whole slot in its own words ("Has no pets")
meets a value the slot model puts in it ("Adopted a rescue dog"): the newer one wins."""

from __future__ import annotations

import pytest

from memory_service.adapters.static_embedding import WordLlamaEmbedder
from memory_service.core.consolidation import content_text
from memory_service.core.model import Memory
from tests.unit.test_consolidation import _active_texts, make_global, make_note, plan


@pytest.fixture(scope="module")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder.load()


def _plan_texts(embedder: WordLlamaEmbedder, older: Memory, newer: Memory) -> set[str]:
    memories = [older, newer]
    ids = [m.id for m in memories]
    vectors = dict(zip(ids, embedder.embed([m.text for m in memories]), strict=True))
    contents = [content_text(m.text) for m in memories]
    meanings = dict(zip(ids, embedder.embed(contents), strict=True))
    result = plan([newer], [older], vectors=vectors, meanings=meanings, embedder=embedder)
    return _active_texts(result, memories)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Has no pets.", "Adopted a rescue dog."),
        ("Has a cat.", "Has no pets."),
    ],
)
def test_a_denied_slot_and_a_value_in_it_keep_the_newer(
    embedder: WordLlamaEmbedder, older: str, newer: str
) -> None:
    assert _plan_texts(embedder, make_global(older), make_note(newer)) == {newer}


def test_a_denial_of_something_else_keeps_both(embedder: WordLlamaEmbedder) -> None:
    older, newer = make_global("Has no car."), make_note("Adopted a rescue dog.")
    assert _plan_texts(embedder, older, newer) == {"Has no car.", "Adopted a rescue dog."}
