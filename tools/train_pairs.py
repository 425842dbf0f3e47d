"""Train the pair model: is a newer note the same fact as an older one, a refinement, a
conflict, or unrelated?

    python tools/train_pairs.py [--seed 7] [--precision 0.945] [--hypothesis-precision 0.875]
        [--out PATH] [--exclude SOURCE ...] [--report] [--candidate NAME] [--score FILE ...]

Rows (older text, newer text, label), each with a *source* (the unit a figure is held out by):

- the seen scenario suites (``SUITES``): in each scenario, every pair of notes older first;
  its label is the hand-made ``judge`` table's verdict (the table the scenario runner derives
  from ``expect`` where a suite has none), ``unrelated`` for a pair it does not list (exact
  repeats are left out: the rules merge them). Source: the suite's file stem.
- the pair corpora ``data/pairs/corpus/*.jsonl`` (``a`` older, ``b`` newer, ``label``),
  written by agents who never read the code. Source: the file stem (one writer each).

Features: :func:`memory_service.core.consolidation.pairs.pair_features` over the shipped
static embedding (``wordllama``, the service's own vectors) and slot model.

Model selection and the threshold use **leave-one-source-out** predictions: for each source,
a model trained on all the other sources predicts its rows. Candidates (logistic regression
at a few C, a one-hidden-layer perceptron) and vector prefixes (``DIMS_GRID``) are compared by
the recall of related pairs at the precision asked (``--precision``) over the pooled
held-out predictions of the pairs the plan asks the model about (the rules leave them
unsettled, ``UNSETTLED``, and no veto applies: :meth:`Featurizer.vetoed`; it trains on all);
the threshold is the lowest reaching that precision on them, and the bar for a guess meeting
a statement the lowest reaching ``--hypothesis-precision``. ``--score FILE`` scores a new
corpus with an existing model before any training on it (its first sight). The
shipped model is then trained on every row (minus ``--exclude``: the sources a figure must
hold out, e.g. ``consolidation_blind4 pairs_k pairs_l`` to run that suite on a model that
never saw it; the default is :data:`HELD_BACK`, which a given list replaces).
``--report`` prints per source, held out, precision and recall at the threshold. Needs the
``train`` extra (scikit-learn) and the ``wordllama`` wheel. Deterministic for a given seed
and data.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory_service.adapters.static_embedding import WordLlamaEmbedder  # noqa: E402
from memory_service.core.consolidation.pairs import (  # noqa: E402
    LABELS,
    UNRELATED,
    NoteView,
    PairModel,
    content_words,
    fingerprint,
    load_pair_model,
    pair_features,
    scope_differs,
    slot_scopes_differ,
    slots_differ,
)
from memory_service.core.consolidation.rules import (  # noqa: E402
    PairRelation,
    classify_pair,
    content_text,
    terms_of,
)
from memory_service.core.consolidation.slots import default_slot_model  # noqa: E402
from memory_service.core.model import Cardinality  # noqa: E402
from memory_service.core.sentences import DIMENSIONS as SENTENCE_SIZE  # noqa: E402
from memory_service.core.sentences import default_sentence_encoder  # noqa: E402
from memory_service.core.text import normalize_text  # noqa: E402
from tests.scenarios.consolidation import load as load_scenarios  # noqa: E402

SCENARIOS = ROOT / "tests" / "scenarios"
# The seen suites, in this order: the hand-written ones, then the blind ones once their first
# sight was recorded (blind14..18 joined in session 14).
SUITES = (
    *(SCENARIOS / f"consolidation{name}.jsonl" for name in ("", "_meaning", "_heldback")),
    *(SCENARIOS / "blind" / f"consolidation_blind{n}.jsonl" for n in ("", *range(2, 19))),
)
CORPUS = ROOT / "data" / "pairs" / "corpus"
OUT = ROOT / "memory_service" / "core" / "consolidation" / "pairs_model.json.gz"
DIMS_GRID = (0, 16)
LR_C_GRID = (0.1,)
# The perceptron's L2 penalty (sklearn's alpha); the vector blocks overfit it below 3.
MLP_ALPHA_GRID = (0.3, 1.0, 3.0, 10.0)
HIDDEN = 32
# A guess meeting a statement: the statement holds either way, and a guess wrongly dropped
# costs less than a stated fact, so its threshold asks a lower precision of the same
# held-out predictions (every unsettled pair: the corpora name no source).
HYPOTHESIS_PRECISION = 0.875
# Precision asked of the threshold for two statements (pooled held-out predictions). 0.925
# lost facts on two seen suites held out (heldback 3.5 %, blind4 2.8 % of the memories that
# must survive); 0.965 kept every seen suite at most 2 %: chosen after those figures. With
# pairs_f/g and blind6 (session 8) it gives a threshold of 0.895, and held out loses "Has a
# sister" to "Has a brother" (heldback 2/57) and a window seat on overnight flights to an aisle
# seat on short hops (blind4 3/178); 0.975 (threshold 0.918) kept heldback at 1/57 but not
# blind4 (3/178), lost one fact on blind6 held out (0 -> 1/165) and 18 scenarios of the 889.
# Session 11 (blind7..11 and pairs_h/i/j in the rows): 0.945 (threshold 0.866) puts 24 more
# seen scenarios right on the rules path than the start model and loses no more facts
# (collateral 11 -> 10 of 2110); a model that never saw blind10/11 keeps their collateral
# (1, 0) at 0.866 but loses 3 and 3 at 0.925 (threshold 0.823), which buys 27 more seen
# scenarios (trained on): not taken. The held-out curve is printed by --report.
# Session 12 (blind12/13 and pairs_k/l in the rows): with pairs_k/l, 0.935 gains one
# scenario on each of blind12/13 held out, but a model that never saw blind10..13 loses 2
# more facts on blind11 at 0.935 (threshold 0.840; collateral 1 -> 3): 0.945 kept.
PRECISION = 0.945
# Corpora read (their rows are in the data digest and get held-out figures) but left out of
# training by default (``--exclude`` replaces this list). pairs_k/l (session 12) raise
# P(related) of unrelated suite pairs: with them a model that never saw blind10..13 loses
# blind11 k063 held out (collateral 0 -> 1), and the model on every row loses "Has a
# sister" / "Has a brother" (heldback): data/pairs/REPORT.md, session 12.
HELD_BACK = ("pairs_k", "pairs_l")
DECIMALS = 4
# The precision targets ``--report`` prints the threshold and recall of (the curve the
# ``--precision`` default was chosen on).
PRECISION_CURVE = (0.98, 0.975, 0.965, 0.955, 0.945, 0.935, 0.925)
# What the rules leave to a judge: the pairs the plan asks this model about.
UNSETTLED = frozenset({PairRelation.RELATED, PairRelation.SAME_FRAME, PairRelation.UNRELATED})


@dataclass(frozen=True)
class Row:
    older: str
    newer: str
    label: str
    source: str
    # One note is a guess (``model_inferred``), the other a statement.
    guess_meets_fact: bool = False
    # A session-only note is dropped before any pair is read: the plan never asks.
    session_only: bool = False


def suite_rows(path: Path) -> list[Row]:
    """Every pair of a scenario's notes, older first, labelled by its judge table (the
    hand-made one, else the one the scenario runner derives from ``expect``)."""
    rows = []
    for scenario in load_scenarios([path]):
        notes = [note for session in scenario.sessions for note in session]
        for i, older in enumerate(notes):
            for newer in notes[i + 1 :]:
                a, b = older["text"], newer["text"]
                if normalize_text(a) == normalize_text(b):
                    continue
                label = scenario.judge.get(frozenset((a, b)), UNRELATED)
                mixed = _is_guess(older) != _is_guess(newer)
                session = "session" in (older.get("durability"), newer.get("durability"))
                rows.append(Row(a, b, label, path.stem, mixed, session))
    return rows


def _is_guess(note: dict[str, Any]) -> bool:
    return note.get("source") == "model_inferred"


def corpus_rows(path: Path) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        if item.get("label") in LABELS and item.get("a") and item.get("b"):
            rows.append(Row(str(item["a"]), str(item["b"]), str(item["label"]), path.stem))
    return rows


def load_rows() -> list[Row]:
    rows = [row for path in SUITES for row in suite_rows(path)]
    for path in sorted(CORPUS.glob("*.jsonl")):
        rows += corpus_rows(path)
    return rows


class Featurizer:
    """Feature rows of pairs, over the shipped embedding and slot model, cached per text."""

    def __init__(self, dims: int, sentence_dims: int | None = None) -> None:
        self._embedder = WordLlamaEmbedder.load()
        self.sentence_dims = sentence_dims
        self._sentences: dict[str, tuple[float, ...]] = {}
        self._slots = default_slot_model()
        self.single = frozenset(
            k for k, v in self._slots.cardinality.items() if v is Cardinality.SINGLE
        )
        self.dims = dims
        self.vector_size = self._embedder.dimensions
        self._views: dict[str, NoteView] = {}

    def encode_sentences(self, texts: Sequence[str], batch: int = 64) -> None:
        """The sentence vectors of the texts, encoded by batches (only with
        ``sentence_dims``)."""
        if self.sentence_dims is None:
            return
        encoder = default_sentence_encoder()
        todo = sorted({t for t in texts if t not in self._sentences})
        for start in range(0, len(todo), batch):
            chunk = todo[start : start + batch]
            self._sentences.update(zip(chunk, encoder.encode(chunk), strict=True))

    def load_sentences(self, path: Path) -> None:
        cached = json.loads(path.read_text(encoding="utf-8"))
        self._sentences.update((t, tuple(v)) for t, v in cached.items())

    def save_sentences(self, path: Path) -> None:
        path.write_text(json.dumps(self._sentences), encoding="utf-8")

    def view(self, text: str) -> NoteView:
        if text not in self._views:
            vector, meaning = self._embedder.embed([text, content_text(text)])
            words = content_words(text)
            if self.sentence_dims is not None:
                self.encode_sentences([text])
            self._views[text] = NoteView(
                terms_of(text),
                vector,
                meaning,
                self._slots.probabilities(text, meaning),
                self._embedder.embed(words) if words else [],
                self._slots.scope(text),
                self._sentences.get(text),
            )
        return self._views[text]

    def unsettled(self, row: Row) -> bool:
        """The rules leave the pair to a judge (or to this model): the pairs it will see."""
        older, newer = self.view(row.older), self.view(row.newer)
        meaning = float(np.dot(older.meaning, newer.meaning))  # type: ignore[arg-type]
        return classify_pair(older.terms, newer.terms, meaning) in UNSETTLED

    def vetoed(self, row: Row) -> bool:
        """The plan never asks the model about the pair: different scopes
        (:func:`scope_differs`) or slots (:func:`slots_differ`), an additive newer note,
        someone else as the subject, a session-only note."""
        older_view, newer_view = self.view(row.older), self.view(row.newer)
        older, newer = older_view.terms, newer_view.terms
        return (
            slots_differ(older_view.slots, newer_view.slots)
            or slot_scopes_differ(older_view, newer_view)
            or row.session_only
            or newer.additive
            or older.third_party
            or newer.third_party
            or scope_differs(older, newer)
        )

    def matrix(self, rows: Sequence[Row], dims: int) -> np.ndarray:
        return np.array(
            [
                pair_features(
                    self.view(r.older),
                    self.view(r.newer),
                    dims=dims,
                    single_slots=self.single,
                    sentence_dims=self.sentence_dims,
                )
                for r in rows
            ],
            dtype=np.float64,
        )


@dataclass(frozen=True)
class Candidate:
    name: str
    dims: int
    kind: str
    c: float

    def fit(self, x: np.ndarray, y: np.ndarray, seed: int) -> tuple[Any, np.ndarray, np.ndarray]:
        mean = x.mean(axis=0)
        scale = x.std(axis=0)
        scale[scale < 1e-6] = 1.0
        z = (x - mean) / scale
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            if self.kind == "lr":
                model: Any = LogisticRegression(C=self.c, max_iter=2000, random_state=seed)
            else:
                model = MLPClassifier(
                    hidden_layer_sizes=(HIDDEN,),
                    alpha=self.c,
                    max_iter=600,
                    random_state=seed,
                )
            model.fit(z, y)
        return model, mean, scale

    def layers(self, model: Any) -> list[tuple[list[list[float]], list[float]]]:
        """The fitted weights as :class:`PairModel` layers, the output in ``LABELS`` order."""
        order = [list(model.classes_).index(label) for label in LABELS]
        if self.kind == "lr":
            w = model.coef_[order].T
            return [(_rounded(w), _rounded(model.intercept_[order]))]
        (w1, w2), (b1, b2) = model.coefs_, model.intercepts_
        return [(_rounded(w1), _rounded(b1)), (_rounded(w2[:, order]), _rounded(b2[order]))]


def _rounded(array: np.ndarray) -> Any:
    return np.round(array, DECIMALS).tolist()


def _related_probability(model: Any, z: np.ndarray) -> np.ndarray:
    classes = list(model.classes_)
    probabilities: np.ndarray = model.predict_proba(z)
    return 1.0 - probabilities[:, classes.index(UNRELATED)]


def held_out(
    candidate: Candidate,
    x: np.ndarray,
    y: np.ndarray,
    sources: np.ndarray,
    seed: int,
    train: np.ndarray | None = None,
) -> np.ndarray:
    """P(related) of every row, by a model trained on the other sources (and only on the
    rows of ``train``, when given)."""
    out = np.zeros(len(y))
    allowed = np.ones(len(y), dtype=bool) if train is None else train
    for source in sorted(set(sources)):
        test = sources == source
        model, mean, scale = candidate.fit(x[~test & allowed], y[~test & allowed], seed)
        out[test] = _related_probability(model, (x[test] - mean) / scale)
    return out


def threshold_for(p: np.ndarray, related: np.ndarray, precision: float) -> float:
    """The lowest threshold whose predictions of related reach ``precision``."""
    best = 1.0
    for t in sorted(set(np.round(p, 3)), reverse=True):
        chosen = p >= t
        if chosen.sum() and related[chosen].mean() >= precision:
            best = float(t)
    return max(best, 0.5)


def figures(p: np.ndarray, related: np.ndarray, threshold: float) -> tuple[float, float, int]:
    chosen = p >= threshold
    precision = float(related[chosen].mean()) if chosen.sum() else 1.0
    recall = float(chosen[related].mean()) if related.sum() else 0.0
    return precision, recall, int((chosen & ~related).sum())


def first_sight(paths: Sequence[Path], model_path: Path) -> None:
    """A new corpus scored by an existing model before any training on it: per label, the
    share called related, and precision / recall of related at the model's threshold on the
    pairs the plan would ask (and on every pair)."""
    model = load_pair_model(model_path.read_bytes())
    featurizer = Featurizer(model.dims, model.sentence_dims)
    print(
        f"model {model_path.name}: {model.metadata.get('candidate')}, data "
        f"{model.metadata.get('data')}, threshold {model.threshold}"
    )
    for path in paths:
        rows = corpus_rows(path)
        p = np.array(
            [
                model.verdict(featurizer.view(r.older), featurizer.view(r.newer)).related
                for r in rows
            ]
        )
        related = np.array([r.label != UNRELATED for r in rows])
        asked = np.array([featurizer.unsettled(r) and not featurizer.vetoed(r) for r in rows])
        print(
            f"{path.name}: {len(rows)} pairs, "
            + " ".join(f"{k}={sum(r.label == k for r in rows)}" for k in LABELS)
        )
        for name, mask in (("asked by the plan", asked), ("every pair", np.ones_like(asked))):
            precision, recall, false = figures(p[mask], related[mask], model.threshold)
            print(
                f"  {name:<18} {mask.sum():>4} pairs: precision {precision:.3f}  recall "
                f"{recall:.3f}  unrelated called related {false}/{int((~related[mask]).sum())}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--precision", type=float, default=PRECISION)
    parser.add_argument(
        "--hypothesis-precision",
        type=float,
        default=HYPOTHESIS_PRECISION,
        help="precision asked of the threshold for a guess meeting a statement",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--exclude",
        nargs="*",
        default=list(HELD_BACK),
        help=f"sources left out of training (default: {' '.join(HELD_BACK)})",
    )
    parser.add_argument("--report", action="store_true", help="held-out figures per source")
    parser.add_argument(
        "--sentence-dims",
        type=int,
        default=None,
        choices=range(SENTENCE_SIZE + 1),
        metavar=f"0..{SENTENCE_SIZE}",
        help="read the sentence encoder's vectors too (.sentences): their cosine, and |a-b|, "
        "a*b of this many leading dimensions (0: the cosine alone; absent: none, as shipped)",
    )
    parser.add_argument(
        "--sentence-cache",
        type=Path,
        help="a JSON file of sentence vectors by text, read and written (reruns skip encoding)",
    )
    parser.add_argument("--candidate", help="skip selection: train this candidate by name")
    parser.add_argument(
        "--score",
        nargs="+",
        type=Path,
        help="no training: score these pair files (corpus format) with the model at --out",
    )
    args = parser.parse_args()
    if args.score:
        first_sight(args.score, args.out)
        return

    rows = load_rows()
    digest = hashlib.sha256(
        json.dumps([(r.older, r.newer, r.label, r.source) for r in rows]).encode()
    ).hexdigest()[:16]
    print(f"{len(rows)} pairs ({digest}); by source and label:")
    for source, count in sorted(Counter(r.source for r in rows).items()):
        labels = Counter(r.label for r in rows if r.source == source)
        print(f"  {source:<28} {count:>5}  " + " ".join(f"{k}={labels[k]}" for k in LABELS))

    featurizer = Featurizer(max(DIMS_GRID), args.sentence_dims)
    if args.sentence_cache and args.sentence_cache.exists():
        featurizer.load_sentences(args.sentence_cache)
    featurizer.encode_sentences([t for r in rows for t in (r.older, r.newer)])
    if args.sentence_cache and args.sentence_dims is not None:
        featurizer.save_sentences(args.sentence_cache)
    y = np.array([r.label for r in rows])
    sources = np.array([r.source for r in rows])
    related = y != UNRELATED
    unsettled = np.array([featurizer.unsettled(r) for r in rows])
    # What the plan asks the model: unsettled pairs it does not veto (scope, someone else,
    # a session-only note). Selection, threshold and figures are on these alone.
    asked = unsettled & ~np.array([featurizer.vetoed(r) for r in rows])
    print(
        f"unsettled by the rules: {unsettled.sum()} pairs; asked of the model (no veto): "
        f"{asked.sum()}, {(asked & related).sum()} of them related"
    )
    candidates = [
        Candidate(f"{kind} {'C' if kind == 'lr' else 'alpha'}={c} dims={dims}", dims, kind, c)
        for dims in DIMS_GRID
        for kind, grid in (("lr", LR_C_GRID), ("mlp", MLP_ALPHA_GRID))
        for c in grid
    ]
    if args.candidate:
        candidates = [c for c in candidates if c.name == args.candidate]
    matrices = {dims: featurizer.matrix(rows, dims) for dims in {c.dims for c in candidates}}

    # Selection and threshold: leave-one-source-out predictions over every source.
    print(
        f"\nleave-one-source-out, on the pairs the plan asks, related at "
        f"precision >= {args.precision}:"
    )
    # Rows of the excluded sources take no part in training, nor in the choice of model or
    # threshold.
    keep = ~np.isin(sources, args.exclude)
    chosen = asked & keep
    scored = []
    for candidate in candidates:
        p = held_out(candidate, matrices[candidate.dims], y, sources, args.seed, keep)
        threshold = threshold_for(p[chosen], related[chosen], args.precision)
        precision, recall, false = figures(p[chosen], related[chosen], threshold)
        scored.append((recall, -len(candidate.name), candidate, p, threshold))
        print(
            f"  {candidate.name:<26} threshold {threshold:.3f}  precision {precision:.3f}  "
            f"recall {recall:.3f}  unrelated called related {false}"
        )
    _, _, best, p, threshold = max(scored, key=lambda s: (s[0], s[1]))
    guess_threshold = min(
        threshold_for(p[chosen], related[chosen], args.hypothesis_precision), threshold
    )
    print(
        f"\nchosen: {best.name}, threshold {threshold:.3f}, "
        f"guess meeting a statement {guess_threshold:.3f}"
    )
    mixed = np.array([r.guess_meets_fact for r in rows]) & chosen
    for t in (threshold, guess_threshold):
        precision, recall, false = figures(p[mixed], related[mixed], t)
        print(
            f"  guess/statement pairs of the suites ({mixed.sum()}, {related[mixed].sum()} "
            f"related), held out at {t:.3f}: precision {precision:.3f} recall {recall:.3f} "
            f"unrelated called related {false}"
        )
    if args.report:
        print("the threshold against the precision asked (held out, pairs asked):")
        for target in PRECISION_CURVE:
            t = threshold_for(p[chosen], related[chosen], target)
            precision, recall, false = figures(p[chosen], related[chosen], t)
            print(
                f"  precision >= {target:.3f}: threshold {t:.3f}  precision {precision:.3f}  "
                f"recall {recall:.3f}  unrelated called related {false}"
            )
        print("held out per source (a model trained on the other sources), pairs asked:")
        for source in sorted(set(sources)):
            mask = (sources == source) & asked
            for name, t in (("", threshold), ("guess bar ", guess_threshold)):
                precision, recall, false = figures(p[mask], related[mask], t)
                print(
                    f"  {source:<24} {name:<10} precision {precision:.3f}  recall "
                    f"{recall:.3f}  unrelated called related "
                    f"{false}/{int((~related[mask]).sum())}"
                )

    x = matrices[best.dims]
    model, mean, scale = best.fit(x[keep], y[keep], args.seed)
    pair_model = PairModel(
        labels=LABELS,
        dims=best.dims,
        mean=_rounded(mean),
        scale=_rounded(scale),
        layers=best.layers(model),
        threshold=round(threshold, 3),
        hypothesis_threshold=round(guess_threshold, 3),
        vector_size=featurizer.vector_size,
        single_slots=featurizer.single,
        sentence_dims=args.sentence_dims,
        metadata={
            "features": fingerprint(best.dims, args.sentence_dims),
            "candidate": best.name,
            "data": digest,
            "excluded": sorted(args.exclude),
            "precision_target": args.precision,
            "hypothesis_precision_target": args.hypothesis_precision,
            "seed": args.seed,
        },
    )
    document = json.dumps(pair_model.to_document(), sort_keys=True, separators=(",", ":"))
    args.out.write_bytes(gzip.compress(document.encode("utf-8"), mtime=0))
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes), trained on {keep.sum()} pairs")


if __name__ == "__main__":
    main()
