"""Score judgment-corpus files with a judgment model file, before anyone trains on them.

    python tools/score_judgment.py FILE.jsonl [FILE.jsonl ...] [--model PATH] [--misses]

Prints, per file, the table of ``tools/train_guards.py``'s ``report`` (per reason precision and
recall, per language recall, durable notes refused or held) for all its notes and for the notes
new to the corpus (not equal to a note of ``data/judgment/corpus`` or of an evaluation set). This
is how a new writer's file is scored at first sight (``data/judgment/first_sight/``). With
``--misses`` it also prints the notes each reason missed and the durable notes refused or held,
with their scores: a developer's tool, for a file nobody has trained on yet.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_guards import (  # noqa: E402
    CORPUS,
    LABELS,
    Row,
    eval_keys,
    linear_predictor,
    note_key,
    report,
)

from memory_service.core.judgment.model import JudgmentModel, checked, default_model  # noqa: E402


def file_rows(path: Path) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        text = str(item["text"]).strip()
        labels = frozenset(label for label in item.get("labels", []) if label in LABELS)
        rows.append(Row(text, str(item.get("lang", "?")), labels, path.stem, text))
    return rows


def known_keys(excluding: Path) -> frozenset[str]:
    keys = set(eval_keys())
    for path in CORPUS.glob("*.jsonl"):
        if path.resolve() == excluding.resolve():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                keys.add(note_key(str(json.loads(line)["text"])))
    return frozenset(keys)


def load_model(path: Path | None) -> JudgmentModel:
    if path is None:
        return default_model()
    document = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    return checked(JudgmentModel.from_document(document))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    model = load_model(args.model)
    predict = linear_predictor(model)
    print(
        "model thresholds:",
        {k: (v.refuse, v.confirm) for k, v in sorted(model.thresholds.items())},
    )
    for path in args.files:
        rows = file_rows(path)
        known = known_keys(path)
        new = [r for r in rows if note_key(r.text) not in known]
        print("\n".join(report(f"{path.stem}, all notes", rows, predict)))
        print("\n".join(report(f"{path.stem}, notes new to the corpus", new, predict)))
        if not args.misses:
            continue
        for row in rows:
            decision = predict(row)
            found = decision.refused | decision.held
            scores = model.scores(row.text)
            shown = " ".join(f"{label[:4]}={scores[label]:.2f}" for label in LABELS)
            for label in sorted(row.labels - found):
                print(f"MISS {label} [{row.lang}] {shown} | {row.text}")
            if not row.labels and found:
                kind = "REFUSED" if decision.refused else "HELD"
                print(f"{kind} {','.join(sorted(found))} [{row.lang}] {shown} | {row.text}")


if __name__ == "__main__":
    main()
