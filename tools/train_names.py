"""Train the name model: is a name-like span a private person or a public name?

    python tools/train_names.py [--seed 17] [--out PATH]

Reads every ``data/names/corpus/*.jsonl`` (hand-written: ``text``, ``lang``, ``spans`` with
``span`` and ``kind``, ``label``; the file name is the writer) and the notes
``tools/names_corpus.py`` generates for the seed (Faker names of 30 locales in everyday
contexts, public names in theirs). One example per marked span: ``private_person`` against
every other kind (public figure, brand, place, work, fictional). Splits by a hash of the
group (a generated template, else the text) and the seed into train (70 %), dev (15 %) and
test (15 %); fits a logistic regression on
:func:`memory_service.core.privacy.name_model.span_features` (regularisation chosen on
leave-one-writer-out scores of train + dev, :func:`choose_c`); chooses the threshold on
out-of-fold scores so that at most 1 private span in 200 is kept; prints dev and test figures
per source; writes
``memory_service/core/privacy/name_model.json.gz``. The test split is read only to report.
Deterministic for a given seed and corpus. Needs the ``train`` extra (scikit-learn).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from names_corpus import generated_rows  # noqa: E402

from memory_service.adapters.names_dictionary import RARE, load_first_names  # noqa: E402
from memory_service.core.lexicons import DEFAULT_LEXICONS, fold  # noqa: E402
from memory_service.core.privacy.name_model import (  # noqa: E402
    FEATURES,
    MODEL_FILE,
    NameModel,
    name_unit,
    span_features,
)
from memory_service.core.privacy.names import person_cue_before  # noqa: E402

CORPUS = ROOT / "data" / "names" / "corpus"
OUT = ROOT / "memory_service" / "core" / "privacy" / MODEL_FILE
PRIVATE = "private_person"
PUBLIC_KINDS = frozenset({"public_figure", "brand", "place", "work", "fictional"})
# At most this share of the private spans may score at or above the threshold: half the
# target (1 in 100), a margin for an estimate read on ~700 spans (at 1 % the shipped model kept
# "Le dossier est géré par Ozanne Kerbrat", a regression test, at 0.949 against 0.948).
LEAK_BUDGET = 0.005
MIN_DF = 2
C_GRID = (0.25, 0.5, 1.0, 2.0, 4.0)
GENERATED = "generated"
FOLDS = 5
# The regularisation is chosen where the threshold sits: the share of private spans a model
# lets through stays under this (the standardised partial AUC up to it).
MAX_PRIVATE_KEPT = 0.05


@dataclass(frozen=True)
class Example:
    text: str
    start: int
    end: int
    public: bool
    source: str
    group: str
    lang: str


def examples_of(row: dict[str, object], source: str) -> list[Example]:
    text = str(row["text"])
    found = []
    spans = row.get("spans") or []
    assert isinstance(spans, list)
    for item in spans:
        span, kind = str(item.get("span", "")), str(item.get("kind", ""))
        if kind != PRIVATE and kind not in PUBLIC_KINDS:
            continue
        start = text.find(span) if span else -1
        if start < 0:
            continue
        unit = name_unit(text, start, start + len(span))
        if kind == PRIVATE and person_cue_before(text[: unit[0]]):
            continue  # a cue decides it at run time, never the model
        group = str(row.get("group", text))
        lang = str(row.get("lang", "?"))
        found.append(Example(text, *unit, kind != PRIVATE, source, group, lang))
    return found


def load_examples(seed: int) -> list[Example]:
    examples = []
    for row in generated_rows(seed):
        examples += examples_of(row, GENERATED)
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                examples += examples_of(json.loads(line), path.stem)
    return examples


def split_of(group: str, seed: int) -> str:
    bucket = int(hashlib.sha256(f"{seed}:{group}".encode()).hexdigest(), 16) % 100
    return "train" if bucket < 70 else "dev" if bucket < 85 else "test"


class Featurizer:
    def __init__(self, given: frozenset[str], rare: frozenset[str]) -> None:
        self.given, self.rare = given, rare
        self.index: dict[str, int] = {}

    def features(self, example: Example) -> set[str]:
        return set(span_features(example.text, example.start, example.end, self.given, self.rare))

    def learn(self, examples: Sequence[Example]) -> None:
        counts: dict[str, int] = {}
        for example in examples:
            for feature in self.features(example):
                counts[feature] = counts.get(feature, 0) + 1
        kept = sorted(f for f, n in counts.items() if n >= MIN_DF)
        self.index = {f: i for i, f in enumerate(kept)}

    def matrix(self, examples: Sequence[Example]) -> csr_matrix:
        data, indices, indptr = [], [], [0]
        for example in examples:
            found = sorted({self.index[f] for f in self.features(example) if f in self.index})
            indices.extend(found)
            data.extend([1.0] * len(found))
            indptr.append(len(indices))
        return csr_matrix((data, indices, indptr), shape=(len(examples), len(self.index)))


def fold_of(group: str, seed: int) -> int:
    return int(hashlib.sha256(f"fold:{seed}:{group}".encode()).hexdigest(), 16) % FOLDS


def train_model(
    examples: Sequence[Example], c: float, seed: int, given: frozenset[str], rare: frozenset[str]
) -> NameModel:
    """A logistic regression on ``examples`` (features seen at least twice among them)."""
    featurizer = Featurizer(given, rare)
    featurizer.learn(examples)
    regression = LogisticRegression(
        C=c, solver="liblinear", class_weight="balanced", random_state=seed, max_iter=2000
    ).fit(featurizer.matrix(examples), np.array([e.public for e in examples]).astype(int))
    weights = {
        f: round(float(regression.coef_[0][i]), 4)
        for f, i in featurizer.index.items()
        if round(float(regression.coef_[0][i]), 4) != 0.0
    }
    return NameModel(weights, round(float(regression.intercept_[0]), 4), 0.5, given, rare)


def oof_threshold(
    seen: Sequence[Example], c: float, seed: int, given: frozenset[str], rare: frozenset[str]
) -> float:
    """The leak-budget threshold on out-of-fold scores: each group scored by a model fitted
    without it."""
    oof = np.zeros(len(seen))
    folds = np.array([fold_of(e.group, seed) for e in seen])
    for k in range(FOLDS):
        inside = [e for e, f in zip(seen, folds, strict=True) if f != k]
        model = train_model(inside, c, seed, given, rare)
        for i in (int(index) for index in np.flatnonzero(folds == k)):
            oof[i] = model.public_score(seen[i].text, seen[i].start, seen[i].end)
    return leak_threshold(oof, np.array([e.public for e in seen]))


def writer_scores(
    seen: Sequence[Example], c: float, seed: int, given: frozenset[str], rare: frozenset[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Each hand-written span scored by a model fitted without its writer's corpus (the
    generated notes always in training): the public labels and the scores."""
    writers = sorted({e.source for e in seen} - {GENERATED})
    chosen = [e for e in seen if e.source != GENERATED]
    scores = np.zeros(len(chosen))
    for writer in writers:
        model = train_model([e for e in seen if e.source != writer], c, seed, given, rare)
        for i, example in enumerate(chosen):
            if example.source == writer:
                scores[i] = model.public_score(example.text, example.start, example.end)
    return np.array([e.public for e in chosen]), scores


def choose_c(
    seen: Sequence[Example], seed: int, given: frozenset[str], rare: frozenset[str]
) -> tuple[float, dict[float, float]]:
    """The regularisation of ``C_GRID`` whose leave-one-writer-out scores best rank public
    names above private ones where at most ``MAX_PRIVATE_KEPT`` of the private spans are kept
    (the first of equals). Average precision on a dev split of the same writers chose the
    least regularised models, which kept more of those writers' private look-alikes than of a
    new writer's (names_i at first sight: 7/189 private spans let through at C 2, 3 at C 1)."""
    found = {}
    for c in C_GRID:
        public, scores = writer_scores(seen, c, seed, given, rare)
        found[c] = float(roc_auc_score(public, scores, max_fpr=MAX_PRIVATE_KEPT))
    return max(C_GRID, key=lambda c: round(found[c], 4)), found


def by_writer(
    examples: Sequence[Example], c: float, seed: int, given: frozenset[str], rare: frozenset[str]
) -> None:
    """Each hand-written corpus scored by a model (and a threshold) made without it: the
    closest to a blind set."""
    for writer in sorted({e.source for e in examples} - {GENERATED}):
        rest = [e for e in examples if e.source != writer]
        threshold = oof_threshold(rest, c, seed, given, rare)
        fitted = train_model(rest, c, seed, given, rare)
        model = NameModel(fitted.weights, fitted.bias, threshold, given, rare)
        print(f"{writer} left out (threshold {threshold:.4f}):")
        print(figures(model, [e for e in examples if e.source == writer]))


def leak_threshold(scores: np.ndarray, public: np.ndarray) -> float:
    """The lowest threshold keeping at most ``LEAK_BUDGET`` of the private spans."""
    private = np.sort(scores[~public])[::-1]
    allowed = int(np.floor(LEAK_BUDGET * len(private)))
    if len(private) == 0:
        return 0.5
    return float(np.nextafter(private[allowed], 1.0))


def figures(model: NameModel, examples: Sequence[Example]) -> str:
    lines = []
    for source in [*sorted({e.source for e in examples}), "all"]:
        chosen = [e for e in examples if source in ("all", e.source)]
        private = [e for e in chosen if not e.public]
        public = [e for e in chosen if e.public]
        leaked = sum(model.is_public(e.text, e.start, e.end) for e in private)
        kept = sum(model.is_public(e.text, e.start, e.end) for e in public)
        lines.append(
            f"  {source:<16} private kept (leak) {leaked:>3}/{len(private):<4}"
            f" public kept {kept:>4}/{len(public):<4}"
            f" ({100 * kept / max(1, len(public)):.1f} %)"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--show", action="store_true", help="print the dev mistakes")
    parser.add_argument(
        "--by-writer", action="store_true", help="also score each writer left out of training"
    )
    args = parser.parse_args()
    # The same dictionary the PII adapter hands the model at run time.
    given = load_first_names() | {fold(name).lower() for name in DEFAULT_LEXICONS.first_names}
    rare = load_first_names(max_frequency=RARE)
    examples = load_examples(args.seed)
    splits: dict[str, list[Example]] = {"train": [], "dev": [], "test": []}
    for example in examples:
        splits[split_of(example.group, args.seed)].append(example)
    # The regularisation: each writer's spans scored by a model that never saw that writer.
    chosen_c, by_c = choose_c(splits["train"] + splits["dev"], args.seed, given, rare)
    print(
        "leave-one-writer-out partial AUC (private kept <= 5 %): "
        + ", ".join(f"C {c} {auc:.4f}" for c, auc in by_c.items())
    )
    # The threshold: out-of-fold scores over train + dev (each group scored by a model that
    # never saw it), so the 1 % of private spans it may keep is read on ~700 of them, not on
    # the ~185 of dev alone. The shipped model is then fitted on train + dev.
    seen = splits["train"] + splits["dev"]
    threshold = oof_threshold(seen, chosen_c, args.seed, given, rare)
    final = train_model(seen, chosen_c, args.seed, given, rare)
    metadata: dict[str, object] = {
        "features": FEATURES,
        "seed": args.seed,
        "C": chosen_c,
        "C_from": f"leave-one-writer-out partial AUC, private kept <= {MAX_PRIVATE_KEPT}",
        "train_spans": len(seen),
        "threshold_from": f"{FOLDS}-fold out-of-fold scores on train + dev",
        "leak_budget": LEAK_BUDGET,
        "sources": sorted({e.source for e in examples}),
    }
    model = NameModel(final.weights, final.bias, threshold, given, rare, metadata)
    print(f"spans: {len(examples)}; C {chosen_c}; threshold {threshold:.4f}")
    for name in ("dev", "test"):
        seen_how = "trained on, threshold chosen on" if name == "dev" else "never looked at"
        print(f"{name} ({seen_how}):")
        print(figures(model, splits[name]))
    if args.by_writer:
        by_writer(examples, chosen_c, args.seed, given, rare)
    if args.show:
        for e in splits["dev"]:
            score = model.public_score(e.text, e.start, e.end)
            if (score >= threshold) != e.public:
                print(f"  {'LEAK' if not e.public else 'refused'} {score:.3f} {e.text!r}")
    document = model.to_document()
    args.out.write_bytes(
        gzip.compress(json.dumps(document, ensure_ascii=False).encode("utf-8"), mtime=0)
    )
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(model.weights)} weights)")


if __name__ == "__main__":
    main()
