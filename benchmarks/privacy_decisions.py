"""The privacy guards' decision on every seen note, compared with another tree's.

    .venv/bin/python -m benchmarks.privacy_decisions OUT.tsv [--against BEFORE.tsv]

Runs :func:`memory_service.core.privacy.guard.check_privacy` (with the NER detector) on every
row of ``tests/eval/*.jsonl`` and ``data/judgment/corpus/*.jsonl`` and writes one line per
row: set, line, the privacy reasons expected (``other`` for a row refused for another reason),
the reasons found, the text. With ``--against`` (the same file written by another tree, e.g.
``PYTHONPATH=DIR`` on a ``git archive`` of the previous commit) it prints, for both, the PII
and secret notes accepted, the secret recall and the notes without labels refused as pii or
secret, then each row whose decision changed. Every set here is seen: the figures are tuned.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PRIVACY = frozenset({"pii", "secret"})
Decisions = dict[tuple[str, str], tuple[str, str, str]]


def expected(row: dict[str, Any]) -> str:
    if "labels" in row:
        labels = {str(label) for label in row["labels"] or []}
        return ",".join(sorted(labels & PRIVACY)) or ("other" if labels else "")
    reasons = {str(reason) for reason in row.get("expect_reasons") or []}
    found = ",".join(sorted(reasons & PRIVACY))
    return found or ("other" if row.get("expect_status") != "saved" else "")


def write(out: Path) -> None:
    files = sorted((ROOT / "tests" / "eval").glob("*.jsonl"))
    files += sorted((ROOT / "data" / "judgment" / "corpus").glob("*.jsonl"))
    write_decisions(out, files, expected)


def write_decisions(
    out: Path, files: list[Path], label_of: Callable[[dict[str, Any]], str]
) -> None:
    """One line per note of ``files``: file, line, ``label_of(row)``, reasons found, text."""
    from memory_service.adapters.identifier_library import LibraryIdentifierDetector
    from memory_service.bootstrap import load_pii_detector
    from memory_service.core.privacy.guard import check_privacy

    pii = load_pii_detector("en_core_web_sm")
    library = LibraryIdentifierDetector()
    with out.open("w", encoding="utf-8") as sink:
        for path in files:
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                row = json.loads(line) if line.strip() else None
                if not isinstance(row, dict) or not isinstance(row.get("text"), str):
                    continue
                keywords = tuple(k for k in row.get("keywords", []) if isinstance(k, str))
                reasons = check_privacy(row["text"][:1120], keywords, pii=pii, identifiers=library)
                got = ",".join(sorted({reason.code.value for reason in reasons}))
                text = " ".join(row["text"].split())
                sink.write(f"{path.name}\t{number}\t{label_of(row)}\t{got}\t{text}\n")


def load(path: Path) -> Decisions:
    decisions: Decisions = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t", 4)
        if len(parts) == 5:
            decisions[(parts[0], parts[1])] = (parts[2], parts[3], parts[4])
    return decisions


def summary(name: str, decisions: Decisions) -> str:
    values = decisions.values()
    positive = [(e, g) for e, g, _ in values if e not in ("", "other")]
    secrets = [(e, g) for e, g in positive if "secret" in e]
    clean = [g for e, g, _ in values if e == ""]
    return (
        f"{name}: pii/secret accepted {sum(not g for _, g in positive)}/{len(positive)}; "
        f"secret recall {sum('secret' in g for _, g in secrets)}/{len(secrets)}; "
        f"no-label notes refused {sum(bool(g) for g in clean)}/{len(clean)}"
    )


def compare(out: Path, against: Path | None, summarise: Callable[[str, Decisions], str]) -> None:
    """Print the summary of ``out`` or, with ``against``, of both and every decision changed."""
    after = load(out)
    if against is None:
        print(summarise("this tree", after))
        return
    before = load(against)
    print(summarise("before", before))
    print(summarise("after", after))
    for key, (wanted, got, text) in after.items():
        if key in before and before[key][1] != got:
            change = f"{before[key][1] or '-'} -> {got or '-'}"
            print(f"{key[0]}:{key[1]} expected {wanted or '-'}: {change} | {text[:150]}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    write(args.out)
    compare(args.out, args.against, summary)


if __name__ == "__main__":
    main()
