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
import json
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "data" / "names" / "corpus"
Decisions = dict[tuple[str, str], tuple[str, str, str]]


def write(out: Path, files: list[Path]) -> None:
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
                reasons = check_privacy(row["text"], pii=pii, identifiers=library)
                got = ",".join(sorted({reason.code.value for reason in reasons}))
                text = " ".join(row["text"].split())
                sink.write(f"{path.name}\t{number}\t{row.get('label', '')}\t{got}\t{text}\n")


def load(path: Path) -> Decisions:
    decisions: Decisions = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t", 4)
        if len(parts) == 5:
            decisions[(parts[0], parts[1])] = (parts[2], parts[3], parts[4])
    return decisions


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
    after = load(args.out)
    if args.against is None:
        print(summary("this tree", after))
        return
    before = load(args.against)
    print(summary("before", before))
    print(summary("after", after))
    for key, (label, got, text) in after.items():
        if key in before and before[key][1] != got:
            change = f"{before[key][1] or '-'} -> {got or '-'}"
            print(f"{key[0]}:{key[1]} {label}: {change} | {text[:150]}")


if __name__ == "__main__":
    main()
