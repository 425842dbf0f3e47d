"""The privacy guards' decision on every note of the names corpora, compared with another tree's.

    .venv/bin/python -m benchmarks.names_corpora OUT.tsv [--against BEFORE.tsv] [FILE ...]

Runs :func:`memory_service.core.privacy.guard.check_privacy` (with the NER detector) on every
note of ``data/names/corpus/*.jsonl`` (or the files given: a new corpus is scored here at
first sight, before it is copied in) and writes one line per note: file, line, label (``pii``
or ``ok``), the reasons found, the text. Prints per file the ``pii`` notes accepted (not
refused as ``pii``) and the ``ok`` notes refused (any privacy reason); with ``--against``
(the same file written by another tree) also each note whose decision changed. The corpora
in ``data/names/corpus`` train the name model: their figures are tuned.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from benchmarks.privacy_decisions import Decisions, compare, write_decisions

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "data" / "names" / "corpus"


def write(out: Path, files: list[Path]) -> None:
    write_decisions(out, files, lambda row: str(row.get("label", "")))


def summary(name: str, decisions: Decisions) -> str:
    per_file: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for (file, _), (label, got, _) in decisions.items():
        counts = per_file[file]
        if label == "pii":
            counts[0] += "pii" not in got.split(",")
            counts[1] += 1
        else:
            counts[2] += bool(got)
            counts[3] += 1
    lines = [f"{name}:"]
    totals = [0, 0, 0, 0]
    for file, counts in sorted(per_file.items()):
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        lines.append(
            f"  {file}: pii accepted {counts[0]}/{counts[1]}; ok refused {counts[2]}/{counts[3]}"
        )
    lines.append(f"  all: pii accepted {totals[0]}/{totals[1]}; ok refused {totals[2]}/{totals[3]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("files", type=Path, nargs="*")
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    write(args.out, args.files or sorted(CORPUS.glob("*.jsonl")))
    compare(args.out, args.against, summary)


if __name__ == "__main__":
    main()
