"""Compare judgment feature sets writer by writer: leave one writer out, and the seen sets.

    python tools/compare_guards.py [--shapes] [--writers w20,w21] [--without w21] [--out FILE]
    python tools/compare_guards.py --score MODEL.json.gz [MODEL.json.gz ...] [--without w19,...]

For each writer of ``data/judgment/corpus``, trains the linear model without that writer's notes
(its train and test groups; dev of the others picks the thresholds, as ``train_guards.py`` does)
and scores the writer's notes as the service judges them; then trains once on every writer's
train split and scores the test split and every ``tests/eval`` set (seen). The regularisation is
the shipped model's per reason (``metadata["C"]``), so both feature sets train once per reason.
Prints and writes (``--out``, JSON) per writer and set: recall per reason (found / notes) and the
durable notes refused and held. ``--shapes`` adds the sentence shapes (:mod:`.shapes`).

``--score`` trains nothing: it scores model files side by side (``-`` is the shipped one) on the
same rows: the test split of the corpus (and of each writer apart, so a new writer's test notes
are seen apart from the older ones), every seen ``tests/eval`` set (``leaks`` too) and their total.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_guards import (  # noqa: E402
    CORPUS,
    LABELS,
    Predictor,
    Row,
    eval_set_rows,
    linear_predictor,
    load_rows,
    note_features,
    report,
    reported_seen_sets,
    sensitive_rows,
    split_of,
    train_linear,
)

from memory_service.core.judgment.model import JudgmentModel, checked, default_model  # noqa: E402


def tally(rows: Sequence[Row], predict: Predictor) -> dict[str, list[int]]:
    """``reason: [found, notes]`` per reason, ``refused``/``held``: ``[count, durable notes]``."""
    out = {label: [0, 0] for label in LABELS}
    out["refused"], out["held"] = [0, 0], [0, 0]
    for row in rows:
        decision = predict(row)
        stopped = decision.refused | decision.held
        for label in row.labels:
            out[label][1] += 1
            out[label][0] += label in stopped
        if not row.labels:
            out["refused"][1] += 1
            out["held"][1] += 1
            out["refused"][0] += bool(decision.refused)
            out["held"][0] += bool(decision.held) and not decision.refused
    return out


def line(name: str, figures: dict[str, list[int]]) -> str:
    parts = [f"{k[:5]} {a}/{b}" for k, (a, b) in figures.items()]
    return f"{name:28} " + "  ".join(parts)


def load_model(path: str) -> JudgmentModel:
    """A model file (``-``: the shipped one)."""
    if path == "-":
        return default_model()
    document = json.loads(gzip.decompress(Path(path).read_bytes()).decode("utf-8"))
    return checked(JudgmentModel.from_document(document))


def added(total: dict[str, list[int]], figures: dict[str, list[int]]) -> None:
    for key, (found, notes) in figures.items():
        total.setdefault(key, [0, 0])
        total[key][0] += found
        total[key][1] += notes


def score_models(paths: Sequence[str], rows: Sequence[Row], seed: int) -> dict[str, object]:
    """Each model of ``paths`` on the same rows: the test split, by writer and whole, every
    reported eval set and their sum (``tally`` per model and row set)."""
    predictors = {path: linear_predictor(load_model(path)) for path in paths}
    test = [r for r in rows if split_of(r.group, seed) == "test"]
    sets: dict[str, Sequence[Row]] = {"test split": test}
    for writer in sorted({r.writer for r in test}):
        sets[f"test {writer}"] = [r for r in test if r.writer == writer]
    for seen in reported_seen_sets():
        sets[f"seen {seen.stem}"] = eval_set_rows(seen)
    results: dict[str, dict[str, dict[str, list[int]]]] = {}
    totals: dict[str, dict[str, list[int]]] = {path: {} for path in paths}
    for name, chosen in sets.items():
        results[name] = {}
        for path, predict in predictors.items():
            results[name][path] = tally(chosen, predict)
            if name.startswith("seen "):
                added(totals[path], results[name][path])
            print(line(f"{name} [{path}]", results[name][path]), flush=True)
    for path in paths:
        print(line(f"seen sets total [{path}]", totals[path]), flush=True)
    # Per language (the targets are per language): the test split and all seen sets together.
    seen_rows = [row for name, chosen in sets.items() if name.startswith("seen ") for row in chosen]
    for path, predict in predictors.items():
        print("\n".join(report(f"test split [{path}]", test, predict)))
        print("\n".join(report(f"seen sets together [{path}]", seen_rows, predict)))
    return {"sets": results, "seen total": totals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shapes", action="store_true")
    parser.add_argument(
        "--subjects", action="store_true", help="(the shipped model's choice if it does)"
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--writers", default="")
    parser.add_argument("--no-sets", action="store_true")
    parser.add_argument("--without", default="", help="writers left out of everything: w19,w20")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--score", nargs="+", default=None, help="model files ('-': shipped)")
    args = parser.parse_args()
    without = {w for w in args.without.split(",") if w}
    if args.score:
        rows = load_rows(p for p in CORPUS.glob("*.jsonl") if p.stem.split("_")[0] not in without)
        scored = score_models(args.score, rows, args.seed)
        if args.out:
            args.out.write_text(json.dumps(scored, indent=1), encoding="utf-8")
        return
    cache: dict[str, frozenset[str]] = {}
    subjects = args.subjects or default_model().subjects
    compute = note_features(args.shapes, subjects)

    def cached(text: str) -> frozenset[str]:
        found = cache.get(text)
        if found is None:
            found = cache[text] = compute(text)
        return found

    chosen_c = default_model().metadata["C"]
    rows = load_rows(p for p in CORPUS.glob("*.jsonl") if p.stem.split("_")[0] not in without)
    special = [r for r in sensitive_rows() if split_of(r.group, args.seed) == "train"]
    results: dict[str, dict[str, list[int]]] = {}
    writers = sorted({r.writer for r in rows})
    if args.writers:
        writers = [w for w in writers if w.split("_")[0] in args.writers.split(",")]
    for writer in writers:
        held = [r for r in rows if r.writer == writer]
        rest = [r for r in rows if r.writer != writer]
        train = [r for r in rest if split_of(r.group, args.seed) != "dev"] + special
        dev = [r for r in rest if split_of(r.group, args.seed) == "dev"]
        model = train_linear(
            train, dev, args.seed, chosen_c, args.shapes, cached, subjects=subjects
        )
        results[f"lowo {writer}"] = tally(held, linear_predictor(model))
        print(line(f"lowo {writer}", results[f"lowo {writer}"]), flush=True)
    if not args.no_sets:
        train = [r for r in rows if split_of(r.group, args.seed) == "train"] + special
        dev = [r for r in rows if split_of(r.group, args.seed) == "dev"]
        model = train_linear(
            train, dev, args.seed, chosen_c, args.shapes, cached, subjects=subjects
        )
        predict = linear_predictor(model)
        test = [r for r in rows if split_of(r.group, args.seed) == "test"]
        results["test split"] = tally(test, predict)
        print(line("test split", results["test split"]), flush=True)
        for path in reported_seen_sets():
            results[f"seen {path.stem}"] = tally(eval_set_rows(path), predict)
            print(line(f"seen {path.stem}", results[f"seen {path.stem}"]), flush=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
