"""Candidate recall: is the paraphrased, refined or contradicted memory among a note's candidates?

For every pair a scenario file marks ``same``, ``refines`` or ``conflict`` (its ``judge``
table: an older and a newer note), the older note is filed among distractors (every
durable note of the guards' evaluation sets, tests/eval/*.jsonl, about 500 texts of
the same kind: preferences, habits, circumstances), and the newer note looks up its
candidates the way consolidation does (the core's candidate index: the 8 best by shared
terms, the 4 nearest by meaning, every memory of its single-valued attribute). Reported
per source of candidates and per embedding size: how many of the older notes were found.

    python -m benchmarks.consolidation_recall [SCENARIO_FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memory_service.adapters.static_embedding import WordLlamaEmbedder
from memory_service.core.consolidation import candidate_terms
from memory_service.core.consolidation.plan import (
    MAX_CANDIDATES_PER_NOTE,
    VECTOR_CANDIDATES_PER_NOTE,
    _CandidateIndex,
)
from memory_service.core.model import Attribute, Cardinality, Memory
from tests.factories import make_memory

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCENARIOS = ROOT / "tests" / "scenarios" / "consolidation.jsonl"
DISTRACTOR_SETS = sorted((ROOT / "tests" / "eval").glob("*.jsonl"))
RELATED = {"same", "refines", "conflict"}


def distractors() -> list[str]:
    texts = []
    for path in DISTRACTOR_SETS:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if (
                row.get("expect_status") == "saved"
                and row.get("durability", "durable") == "durable"
            ):
                texts.append(row["text"])
    return sorted(set(texts))


def pairs(path: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(older note, newer note) for every related pair, with their attributes."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        notes = {n["text"]: n for session in row["sessions"] for n in session}
        for older, newer, verdict in row.get("judge", []):
            if verdict in RELATED and older in notes and newer in notes:
                found.append((notes[older], notes[newer]))
    return found


def _memory(note: dict[str, Any], *, with_attribute: bool) -> Memory:
    attribute = note.get("attribute") if with_attribute else None
    return make_memory(
        note["text"],
        keywords=tuple(note.get("keywords", ())),
        attribute=(
            Attribute(attribute["key"], Cardinality(attribute["cardinality"]))
            if attribute
            else None
        ),
    )


def recall(
    related: Sequence[tuple[dict[str, Any], dict[str, Any]]],
    noise: Sequence[str],
    embedder: WordLlamaEmbedder | None,
    *,
    with_attribute: bool,
    terms: bool = True,
) -> int:
    noise_memories = [make_memory(text) for text in noise]
    noise_vectors = embedder.embed(noise) if embedder is not None else []
    hits = 0
    for older_note, newer_note in related:
        older = _memory(older_note, with_attribute=with_attribute)
        newer = _memory(newer_note, with_attribute=with_attribute)
        index = _CandidateIndex()
        vectors = embedder.embed([older.text, newer.text]) if embedder is not None else []
        for i, memory in enumerate([*noise_memories, older]):
            vector = None
            if embedder is not None:
                vector = vectors[0] if memory is older else noise_vectors[i]
            index.add(memory, candidate_terms(memory) if terms else frozenset(), vector)
        query_terms = candidate_terms(newer) if terms else frozenset()
        found = index.candidates(newer, query_terms, vectors[1] if vectors else None)
        hits += older.id in found
    return hits


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="?", type=Path, default=DEFAULT_SCENARIOS)
    args = parser.parse_args(argv)
    related = pairs(args.scenarios)
    noise = distractors()
    out = sys.stdout.write
    out(
        f"{len(related)} related pairs among {len(noise)} distractors; candidates per note: "
        f"{MAX_CANDIDATES_PER_NOTE} by terms + {VECTOR_CANDIDATES_PER_NOTE} by meaning\n\n"
    )
    out("| candidates | attributes | found |\n|---|---|---:|\n")
    rows: list[tuple[str, WordLlamaEmbedder | None, bool]] = [("terms only", None, True)]
    for dims in (64, 128, 256):
        loaded = WordLlamaEmbedder.load(dims)
        rows += [(f"meaning only, wordllama {dims}d", loaded, False)]
        rows += [(f"terms + meaning, wordllama {dims}d", loaded, True)]
    for label, embedder, terms in rows:
        for with_attribute in (False, True):
            hits = recall(related, noise, embedder, with_attribute=with_attribute, terms=terms)
            out(
                f"| {label} | {'sent' if with_attribute else 'none'} "
                f"| {hits}/{len(related)} ({hits / len(related):.0%}) |\n"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
