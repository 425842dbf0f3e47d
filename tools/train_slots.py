"""Train the slot model: which common single- or multi-valued slot a note fills, or none.

    python tools/train_slots.py [--seed 7] [--dims 256] [--precision 0.9] [--out PATH]

Reads every ``data/slots/corpus/*.jsonl`` (one note per line: ``text``, ``lang``, ``slot`` (a
key or null), ``cardinality``, ``value``, ``scope``), splits it deterministically by a hash
of the seed and the note's slot and folded value (its paraphrases and translations fall on
one side; a note without a slot by its text) into train (70 %), dev (15 %) and test (15 %).
Compares, on dev, four classifiers over the note's text and its static embedding (the
``wordllama`` vectors the service computes anyway):

- ``text``: logistic regression over :func:`~memory_service.core.consolidation.slots.text_features`;
- ``vector``: logistic regression over the embedding;
- ``text+vector``: logistic regression over both (the shipped form);
- ``centroid``: nearest class centroid of the embedding (cosine, softmax over 20 x cosine).

and ships the best by dev macro figures (accuracy, and the coverage of slot notes at the
precision asked, ``--precision``): ``memory_service/core/consolidation/slots_model.json.gz``,
with the threshold reaching that precision on dev and the scope words learned from the
train split's ``scope`` fields. The test split is read only to report. Needs the ``train``
extra (scikit-learn) and the ``wordllama`` wheel. Deterministic for a given seed and corpus.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix, hstack
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory_service.adapters.static_embedding import WordLlamaEmbedder  # noqa: E402
from memory_service.core.consolidation.rules import content_text  # noqa: E402
from memory_service.core.consolidation.slots import (  # noqa: E402
    NONE,
    Scoped,
    SlotModel,
    fingerprint,
    scope_form,
    text_features,
    value_features,
)
from memory_service.core.lexicons import DEFAULT_LEXICONS, fold  # noqa: E402
from memory_service.core.model import Cardinality  # noqa: E402

CORPUS = ROOT / "data" / "slots" / "corpus"
# The second wave's corpora (slots_c EN, slots_d FR), read with ``--with-pending`` only.
PENDING = ROOT / "data" / "slots" / "pending"
# The scenario suites: with ``--with-pending``, a corpus note whose text one of them holds is
# never trained on (a writer's "Lives in Leeds" or "Smokes" is also a scenario's note).
SCENARIOS = ROOT / "tests" / "scenarios"
OUT = ROOT / "memory_service" / "core" / "consolidation" / "slots_model.json.gz"
MIN_DF = 2
C_GRID = (4.0, 32.0, 256.0)
# How much the embedding block weighs against the text block in the joint model.
VECTOR_SCALE_GRID = (3.0, 10.0)
# A word is a scope word when at least this share of the train notes holding it have it in
# their scope ("weekends", "flights"), not in their value or wording ("work" in "Cycles to
# work" is a value's frame, in "Drinks tea at work" a scope).
SCOPE_SHARE = 0.5
DECIMALS = 3
# The scope head's threshold: the share of scoped dev notes it must catch. A scoped note
# missed can supersede a fact of another context (collateral); an unscoped note read as
# scoped only keeps an update from superseding (a missed update, the lesser error).
SCOPE_RECALL = 0.8
# Train notes whose value appears in their text are copied with other train values of the
# same slot in its place ("Owns a Volvo estate" -> "Owns a Fiat Panda estate"): the model
# learns the slot's frame, not the few values a writer happened to pick.
AUGMENT_COPIES = 3


# The writers named some slots differently; one key per slot (the first writer's, mostly).
ALIASES = {
    "airline_loyalty": "airline_preferred",
    "bank_app": "bank",
    "book_genres": "reading_genre_liked",
    "code_editor": "main_editor",
    "computer_os": "operating_system",
    "favourite_cuisines": "cuisine_liked",
    "food_dislikes": "food_disliked",
    "gaming_platforms": "game_platform",
    "holiday_destination_type": "travel_destination_liked",
    "hotel_type": "accommodation_preference",
    "instruments": "instrument_played",
    "job_role": "job_title",
    "luggage_habit": "luggage_preference",
    "music_genres": "music_genre_liked",
    "partner_status": "relationship_status",
    "pets": "pet",
    "preferred_channel": "contact_channel",
    "spoken_languages": "languages_spoken",
    "sports": "sport_played",
    "tone_preference": "formality",
    "video_streaming_services": "streaming_service",
    "web_browser": "browser",
    "work_mode": "work_location_mode",
    "working_hours": "work_schedule",
    "workout_time": "exercise_time",
    # The third and fourth writers' (slots_c, slots_d); "main" language and tea go to the
    # multi-valued slots they overlap, a gym schedule is when the user exercises.
    "contact_time": "best_contact_time",
    "gaming_platform": "game_platform",
    "gym_schedule": "exercise_time",
    "hotel_preference": "accommodation_preference",
    "music_streaming": "music_streaming_service",
    "programming_language_main": "programming_language_used",
    "reading_genre": "reading_genre_liked",
    "tea_preference": "tea_type_liked",
    "tone_formality": "formality",
    "tv_genre": "tv_genres",
    "video_streaming": "streaming_service",
    "plant_care": "houseplants",
    "work_hours": "work_schedule",
}
# A key two writers used for two slots: slots_c's home_service_provider is broadband and
# energy, slots_d's the cleaning service ("Passe par Wecasa pour le ménage").
SOURCE_ALIASES = {"slots_d": {"home_service_provider": "home_cleaning"}}


@dataclass(frozen=True)
class Row:
    text: str
    lang: str
    slot: str
    cardinality: str | None
    value: str
    scope: str
    source: str


def _same_text(text: str) -> str:
    return fold(text).lower().strip(" .!?\"'«»")


def scenario_texts(root: Path) -> frozenset[str]:
    """Every note text of the scenario suites under ``root``, folded."""
    texts: set[str] = set()
    for path in sorted(root.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                for session in json.loads(line)["sessions"]:
                    texts.update(_same_text(str(note["text"])) for note in session)
    return frozenset(texts)


def load_rows(paths: Iterable[Path], excluded: frozenset[str] = frozenset()) -> list[Row]:
    """The corpus notes, slots under one key each, but those whose text is ``excluded``."""
    rows = []
    for path in sorted(paths):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            raw = json.loads(line)
            if _same_text(str(raw["text"])) in excluded:
                continue
            slot = raw.get("slot") or NONE
            slot = SOURCE_ALIASES.get(path.stem, {}).get(slot, slot)
            slot = ALIASES.get(slot, slot)
            rows.append(
                Row(
                    text=str(raw["text"]),
                    lang=str(raw.get("lang", "")),
                    slot=str(slot),
                    cardinality=raw.get("cardinality") if slot != NONE else None,
                    value=str(raw.get("value") or ""),
                    scope=str(raw.get("scope") or ""),
                    source=path.stem,
                )
            )
    return rows


def split_of(row: Row, seed: int) -> str:
    group = f"{row.slot}|{fold(row.value).lower()}" if row.slot != NONE else row.text
    bucket = int(hashlib.sha256(f"{seed}:{group}".encode()).hexdigest(), 16) % 100
    return "train" if bucket < 70 else "dev" if bucket < 85 else "test"


def augmented(rows: Sequence[Row], seed: int, copies: int) -> list[Row]:
    """``rows`` and, per note stating its value verbatim, ``copies`` notes with another
    value of its slot from ``rows`` (deterministic for the seed)."""
    values: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        stated = row.slot != NONE and row.value and row.value.lower() in row.text.lower()
        if stated and row.value not in values[row.slot]:
            values[row.slot].append(row.value)
    rng = random.Random(seed)
    out = list(rows)
    for row in rows:
        others = [v for v in values.get(row.slot, ()) if v.lower() != row.value.lower()]
        if row.slot == NONE or not row.value or row.value.lower() not in row.text.lower():
            continue
        start = row.text.lower().index(row.value.lower())
        for value in rng.sample(others, min(copies, len(others))):
            text = row.text[:start] + value + row.text[start + len(row.value) :]
            out.append(Row(text, row.lang, row.slot, row.cardinality, value, row.scope, row.source))
    return out


def cardinalities(rows: Sequence[Row]) -> dict[str, Cardinality]:
    """Each slot's cardinality; ``multi`` when the writers disagree (a multi-valued slot
    never supersedes, the safe side)."""
    votes: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if row.slot != NONE and row.cardinality:
            votes[row.slot].add(row.cardinality)
    return {
        slot: Cardinality.SINGLE if seen == {"single"} else Cardinality.MULTI
        for slot, seen in votes.items()
    }


def scope_words(rows: Sequence[Row]) -> frozenset[str]:
    stop = {scope_form(w) for w in DEFAULT_LEXICONS.stopwords}
    in_scope: Counter[str] = Counter()
    anywhere: Counter[str] = Counter()
    # A word some note holds as its value ("short" answers, works from "home") is a value
    # there: as a scope word it would keep two values of that slot apart.
    values = {scope_form(w) for row in rows for w in row.value.replace("'", " ").split()}
    for row in rows:
        words = {scope_form(w) for w in row.text.replace("'", " ").split() if w.isalpha()}
        scoped = {scope_form(w) for w in row.scope.replace("'", " ").split() if w.isalpha()}
        anywhere.update(words)
        in_scope.update(words & scoped)
    return frozenset(
        w
        for w, n in in_scope.items()
        if len(w) >= 3 and w not in stop and w not in values and n / anywhere[w] >= SCOPE_SHARE
    )


class Featurizer:
    def __init__(self, rows: Sequence[Row]) -> None:
        counts = Counter(f for row in rows for f in text_features(row.text))
        kept = sorted(f for f, n in counts.items() if n >= MIN_DF)
        self.index = {f: i for i, f in enumerate(kept)}

    def matrix(self, rows: Sequence[Row]) -> csr_matrix:
        data, indices, indptr = [], [], [0]
        for row in rows:
            found = sorted(self.index[f] for f in text_features(row.text) if f in self.index)
            scale = 1.0 / np.sqrt(len(found)) if found else 0.0
            indices.extend(found)
            data.extend([scale] * len(found))
            indptr.append(len(indices))
        return csr_matrix((data, indices, indptr), shape=(len(rows), len(self.index)))


Scorer = Callable[[str], np.ndarray]  # split name -> class probabilities


@dataclass
class Candidate:
    name: str
    labels: list[str]
    score: Scorer
    shipped: SlotModel | None = None


def _probabilities(model: LogisticRegression, inputs: dict[str, Any], split: str) -> np.ndarray:
    """``model``'s class probabilities for one split of ``inputs`` (a Candidate's scorer)."""
    return np.asarray(model.predict_proba(inputs[split]))


def vectors_of(rows: Sequence[Row], embedder: WordLlamaEmbedder, dims: int) -> np.ndarray:
    """The embedding of each note's content words, as the plan has it (its ``meanings``):
    on dev, 8.5 % of slot notes covered at precision 0.91, against 4.8 % with the whole text."""
    matrix = embedder.embed_array([content_text(row.text) for row in rows])[:, :dims]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


def evaluate(
    labels: Sequence[str], probs: np.ndarray, rows: Sequence[Row], threshold: float
) -> tuple[float, float, float, float]:
    """Accuracy (argmax, ``none`` included), and at ``threshold``: the share of slot notes
    given their slot (coverage), the precision of the slots given, and the share of
    no-slot notes given a slot."""
    best = probs.argmax(axis=1)
    top = probs.max(axis=1)
    predicted = [
        labels[i] if labels[i] != NONE and p >= threshold else NONE
        for i, p in zip(best, top, strict=True)
    ]
    argmax = [labels[i] for i in best]
    accuracy = float(np.mean([a == r.slot for a, r in zip(argmax, rows, strict=True)]))
    given = [(p, r.slot) for p, r in zip(predicted, rows, strict=True) if p != NONE]
    precision = float(np.mean([p == s for p, s in given])) if given else 1.0
    slotted = [r for r in rows if r.slot != NONE]
    coverage = (
        float(
            np.mean([p == r.slot for p, r in zip(predicted, rows, strict=True) if r.slot != NONE])
        )
        if slotted
        else 0.0
    )
    none_rows = [p for p, r in zip(predicted, rows, strict=True) if r.slot == NONE]
    false_slot = float(np.mean([p != NONE for p in none_rows])) if none_rows else 0.0
    return accuracy, coverage, precision, false_slot


def threshold_for(
    labels: Sequence[str], probs: np.ndarray, rows: Sequence[Row], precision: float
) -> float:
    """The lowest threshold whose accepted predictions reach ``precision`` on these rows."""
    for threshold in np.arange(0.30, 1.0, 0.01):
        if evaluate(labels, probs, rows, float(threshold))[2] >= precision:
            return round(float(threshold), 2)
    return 0.99


def fit_lr(x: csr_matrix | np.ndarray, y: Sequence[str], c: float, seed: int) -> LogisticRegression:
    model = LogisticRegression(C=c, max_iter=3000, random_state=seed)
    model.fit(x, y)
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--precision", type=float, default=0.9)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--augment", type=int, default=AUGMENT_COPIES)
    parser.add_argument(
        "--value-head",
        action="store_true",
        help="ship a value head: two notes of one slot supersede only when their values differ",
    )
    parser.add_argument(
        "--with-pending",
        action="store_true",
        help="also train on data/slots/pending (scenario texts left out) with the value check",
    )
    args = parser.parse_args()

    paths = sorted(CORPUS.glob("*.jsonl"))
    excluded: frozenset[str] = frozenset()
    if args.with_pending:
        paths += sorted(PENDING.glob("*.jsonl"))
        excluded = scenario_texts(SCENARIOS)
    rows = load_rows(paths, excluded)
    if excluded:
        print(f"left out {len(load_rows(paths)) - len(rows)} notes whose text a scenario holds")
    parts: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        parts[split_of(row, args.seed)].append(row)
    train, dev, test = (
        augmented(parts["train"], args.seed, args.augment),
        parts["dev"],
        parts["test"],
    )
    corpus_hash = hashlib.sha256(b"".join(p.read_bytes() for p in paths)).hexdigest()[:16]
    print(
        f"corpus {len(rows)} notes ({corpus_hash}), {len({r.slot for r in rows}) - 1} slots; "
        f"train {len(train)} dev {len(dev)} test {len(test)}"
    )
    card = cardinalities(rows)
    embedder = WordLlamaEmbedder.load()
    featurizer = Featurizer(train)
    xt = {
        name: featurizer.matrix(part)
        for name, part in (("train", train), ("dev", dev), ("test", test))
    }
    xv = {
        name: vectors_of(part, embedder, args.dims)
        for name, part in (("train", train), ("dev", dev), ("test", test))
    }
    by_split = {"train": train, "dev": dev, "test": test}
    y_train = [r.slot for r in train]

    candidates: list[Candidate] = []
    for c in C_GRID:
        m = fit_lr(xt["train"], y_train, c, args.seed)
        candidates.append(
            Candidate(f"text C={c}", list(m.classes_), partial(_probabilities, m, xt))
        )
        m = fit_lr(xv["train"], y_train, c, args.seed)
        candidates.append(
            Candidate(f"vector C={c}", list(m.classes_), partial(_probabilities, m, xv))
        )
        for scale in VECTOR_SCALE_GRID:
            joint = {s: hstack([xt[s], csr_matrix(xv[s] * scale)]).tocsr() for s in by_split}
            m = fit_lr(joint["train"], y_train, c, args.seed)
            candidates.append(
                Candidate(
                    f"text+vector C={c} scale={scale}",
                    list(m.classes_),
                    partial(_probabilities, m, joint),
                    shipped=_as_model(m, featurizer, scale, args.dims, card),
                )
            )
    centroid_labels = sorted({r.slot for r in train})
    centroids = np.stack(
        [
            xv["train"][[i for i, r in enumerate(train) if r.slot == lab]].mean(axis=0)
            for lab in centroid_labels
        ]
    )
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)

    def centroid_scores(s: str) -> np.ndarray:
        z = 20.0 * xv[s] @ centroids.T
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return np.asarray(e / e.sum(axis=1, keepdims=True))

    candidates.append(Candidate("centroid", centroid_labels, centroid_scores))

    print(
        f"\n{'model':34} {'split':5} {'acc':>6} {'cover':>6} {'prec':>6} {'none->slot':>10}"
        "  threshold"
    )
    best: tuple[float, Candidate, float] | None = None
    for cand in candidates:
        probs = cand.score("dev")
        threshold = threshold_for(cand.labels, probs, dev, args.precision)
        acc, cov, prec, false_slot = evaluate(cand.labels, probs, dev, threshold)
        print(
            f"{cand.name:34} dev   {acc:6.3f} {cov:6.3f} {prec:6.3f} {false_slot:10.3f}"
            f"  {threshold:.2f}"
        )
        # Coverage at the precision asked; a model that cannot reach it on dev is shipped only
        # when none can, the most precise then.
        merit = cov + 0.01 * acc if prec >= args.precision else prec - 1.0
        if cand.shipped is not None and (best is None or merit > best[0]):
            best = (merit, cand, threshold)
    assert best is not None
    _, chosen, threshold = best
    print(
        f"\nshipped: {chosen.name}, threshold {threshold:.2f} (dev precision >= {args.precision})"
    )
    for cand in candidates:
        if (
            cand is chosen
            or cand.name == "centroid"
            or cand.name.startswith(("text C=4", "vector C=4"))
        ):
            probs = cand.score("test")
            t = threshold_for(cand.labels, cand.score("dev"), dev, args.precision)
            acc, cov, prec, false_slot = evaluate(cand.labels, probs, test, t)
            print(
                f"{cand.name:34} test  {acc:6.3f} {cov:6.3f} {prec:6.3f} {false_slot:10.3f}"
                f"  {t:.2f}"
            )
    assert chosen.shipped is not None
    scopes = scope_words(train)
    model = chosen.shipped
    document = model.to_document()
    document["threshold"] = threshold
    document["scope_words"] = sorted(scopes)
    document["scoped"] = _scope_head(featurizer, xt, by_split, args.seed)
    document["metadata"] = {
        "features": fingerprint(),
        "seed": args.seed,
        "chosen": chosen.name,
        "corpus": corpus_hash,
        "train_notes": len(train),
        "dev_notes": len(dev),
        "test_notes": len(test),
        "embedding": f"wordllama-l2-supercat prefix {args.dims}",
    }
    if args.value_head:
        document["values"] = _value_head(by_split, args.seed)
    shipped = SlotModel.from_document(document)
    check = np.array(
        [
            [shipped.probabilities(r.text, v.tolist())[lab] for lab in shipped.labels]
            for r, v in zip(test, xv["test"], strict=True)
        ]
    )
    acc, cov, prec, false_slot = evaluate(list(shipped.labels), check, test, threshold)
    print(
        f"{'shipped file (pure Python)':34} test  {acc:6.3f} {cov:6.3f} {prec:6.3f}"
        f" {false_slot:10.3f}  {threshold:.2f}"
    )
    per_lang = {
        lang: evaluate(
            list(shipped.labels),
            check[[i for i, r in enumerate(test) if r.lang == lang]],
            [r for r in test if r.lang == lang],
            threshold,
        )
        for lang in sorted({r.lang for r in test})
    }
    for lang, (acc, cov, prec, false_slot) in per_lang.items():
        print(f"{'  ' + lang:34} test  {acc:6.3f} {cov:6.3f} {prec:6.3f} {false_slot:10.3f}")
    print(f"scope words ({len(scopes)}): {' '.join(sorted(scopes))}")
    _scope_report(shipped, test)
    for split in ("dev", "test"):
        _pair_report(shipped, by_split[split], xv[split], split)
    payload = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    args.out.write_bytes(gzip.compress(payload.encode("utf-8"), mtime=0))
    shown = args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out
    print(f"wrote {shown} ({args.out.stat().st_size} bytes)")


def _scope_head(
    featurizer: Featurizer,
    x: dict[str, csr_matrix],
    rows: dict[str, list[Row]],
    seed: int,
) -> dict[str, object]:
    """A logistic regression over the text features: does the note qualify its value with a
    context (a non-empty ``scope``)? Regularisation by dev average precision; the threshold
    catches :data:`SCOPE_RECALL` of the scoped dev notes."""
    truth = {s: np.array([bool(r.scope) for r in part]) for s, part in rows.items()}
    best = None
    for c in C_GRID:
        m = LogisticRegression(C=c, max_iter=3000, random_state=seed, class_weight="balanced")
        m.fit(x["train"], truth["train"])
        p = m.predict_proba(x["dev"])[:, 1]
        order = np.argsort(-p)
        hits = np.cumsum(truth["dev"][order])
        ap = float(
            np.sum(hits / np.arange(1, len(p) + 1) * truth["dev"][order])
            / max(1, truth["dev"].sum())
        )
        if best is None or ap > best[0]:
            best = (ap, c, m, p)
    assert best is not None
    ap, c, m, p = best
    scoped_scores = np.sort(p[truth["dev"]])[::-1]
    threshold = float(scoped_scores[max(0, int(np.ceil(SCOPE_RECALL * len(scoped_scores))) - 1)])
    threshold = round(threshold - 1e-4, 4)
    for split in ("dev", "test"):
        q = m.predict_proba(x[split])[:, 1] >= threshold
        t = truth[split]
        print(
            f"scope head C={c} {split}: scoped notes caught {int((q & t).sum())}/{int(t.sum())}, "
            f"unscoped notes read as scoped {int((q & ~t).sum())}/{int((~t).sum())}"
            f" (dev AP {ap:.3f})"
        )
    return _binary_head(m, featurizer.index, threshold)


def _value_words(text: str) -> list[str]:
    return [word for word, _ in value_features(text)]


def _value_tokens(rows: Sequence[Row]) -> tuple[list[set[str]], list[bool]]:
    """Each word of the slot notes that state their value in words of the note (others, a
    paraphrase, say nothing of where the value is), with its features and whether it is
    part of the value."""
    features: list[set[str]] = []
    labels: list[bool] = []
    for row in rows:
        value = set(_value_words(row.value))
        if row.slot == NONE or not value & set(_value_words(row.text)):
            continue
        for word, found in value_features(row.text):
            features.append(found)
            labels.append(word in value)
    return features, labels


def _value_head(rows: dict[str, list[Row]], seed: int) -> dict[str, object]:
    """A logistic regression over :func:`value_features`: is this word of the note part of
    its value? Regularisation and threshold by dev F1 over the words of the notes that
    state their value."""
    tokens = {split: _value_tokens(part) for split, part in rows.items()}
    counts = Counter(f for found in tokens["train"][0] for f in found)
    index = {f: i for i, f in enumerate(sorted(f for f, n in counts.items() if n >= MIN_DF))}

    def matrix(found_rows: list[set[str]]) -> csr_matrix:
        data, indices, indptr = [], [], [0]
        for found in found_rows:
            kept = sorted(index[f] for f in found if f in index)
            indices.extend(kept)
            data.extend([1.0 / np.sqrt(len(kept)) if kept else 0.0] * len(kept))
            indptr.append(len(indices))
        return csr_matrix((data, indices, indptr), shape=(len(found_rows), len(index)))

    x = {split: matrix(found) for split, (found, _) in tokens.items()}
    y = {split: np.array(labels) for split, (_, labels) in tokens.items()}
    best = None
    for c in C_GRID:
        m = LogisticRegression(C=c, max_iter=3000, random_state=seed)
        m.fit(x["train"], y["train"])
        p = m.predict_proba(x["dev"])[:, 1]
        for threshold in np.arange(0.2, 0.91, 0.05):
            f1 = _f1(p >= threshold, y["dev"])
            if best is None or f1 > best[0]:
                best = (f1, c, round(float(threshold), 2), m)
    assert best is not None
    _, c, threshold, m = best
    for split in ("dev", "test"):
        q = m.predict_proba(x[split])[:, 1] >= threshold
        t = y[split]
        print(
            f"value head C={c} threshold {threshold:.2f} {split}: value words found "
            f"{int((q & t).sum())}/{int(t.sum())}, other words read as value "
            f"{int((q & ~t).sum())}/{int((~t).sum())} (F1 {_f1(q, t):.3f})"
        )
    return _binary_head(m, index, threshold)


def _binary_head(
    m: LogisticRegression, index: Mapping[str, int], threshold: float
) -> dict[str, object]:
    """A binary logistic head as the model file keeps it: bias, threshold, and the weights
    that round to something at :data:`DECIMALS`."""
    weights = {
        f: round(float(m.coef_[0, i]), DECIMALS)
        for f, i in index.items()
        if abs(m.coef_[0, i]) >= 10**-DECIMALS
    }
    return {
        "bias": round(float(m.intercept_[0]), DECIMALS),
        "threshold": threshold,
        "weights": weights,
    }


def _f1(predicted: np.ndarray, truth: np.ndarray) -> float:
    hits = float((predicted & truth).sum())
    return 2 * hits / max(1.0, float(predicted.sum() + truth.sum()))


def _pair_report(model: SlotModel, rows: Sequence[Row], vectors: np.ndarray, split: str) -> None:
    """What the plan would do with two notes of the split the model puts, each sure enough,
    in one single-valued slot: supersede by slot and scope, and with the value check too.
    A pair is right when both notes are of that slot, in one scope, with two values;
    harmful when either is of another slot (or none) or the scopes differ (the newer would
    supersede a fact that must survive); neutral when it restates one value."""
    inferred: dict[str, list[Row]] = defaultdict(list)
    for row, vector in zip(rows, vectors, strict=True):
        slot = model.infer(row.text, vector.tolist())
        if slot is not None and slot.cardinality is Cardinality.SINGLE:
            inferred[slot.key].append(row)
    counts: dict[str, Counter[str]] = {"slot+scope": Counter(), "+value check": Counter()}
    for key, group in inferred.items():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if a.slot != key or b.slot != key or fold(a.scope) != fold(b.scope):
                    truth = "harmful"
                elif fold(a.value).lower() == fold(b.value).lower():
                    truth = "neutral"
                else:
                    truth = "right"
                if model.same_scope(a.text, b.text):
                    counts["slot+scope"][truth] += 1
                    if model.values_differ(a.text, b.text):
                        counts["+value check"][truth] += 1
    for name, found in counts.items():
        decided = found["right"] + found["harmful"]
        print(
            f"pairs {split} {name:12}: right {found['right']} harmful {found['harmful']} "
            f"neutral {found['neutral']} (precision {found['right'] / max(1, decided):.3f})"
        )


def _scope_report(model: SlotModel, rows: Sequence[Row]) -> None:
    """On pairs of test notes of one single-valued slot with different values: how often the
    scope check keeps apart two labelled scopes, and lets two equal ones supersede."""
    apart = kept_apart = same = let_through = 0
    by_slot: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        if row.slot != NONE and model.cardinality.get(row.slot) is Cardinality.SINGLE:
            by_slot[row.slot].append(row)
    for group in by_slot.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if fold(a.value).lower() == fold(b.value).lower():
                    continue
                equal = model.same_scope(a.text, b.text)
                if fold(a.scope).lower() != fold(b.scope).lower():
                    apart += 1
                    kept_apart += not equal
                else:
                    same += 1
                    let_through += equal
    print(
        f"scope check on test pairs of one single slot, two values: different scopes kept apart "
        f"{kept_apart}/{apart}, same scope let through {let_through}/{same}"
    )


def _as_model(
    m: LogisticRegression,
    featurizer: Featurizer,
    scale: float,
    dims: int,
    card: dict[str, Cardinality],
) -> SlotModel:
    labels = [str(c) for c in m.classes_]
    coef = m.coef_
    n_text = len(featurizer.index)
    text = {
        f: [round(float(x), DECIMALS) for x in coef[:, i]]
        for f, i in featurizer.index.items()
        if np.abs(coef[:, i]).max() >= 10**-DECIMALS
    }
    vector = [[round(float(x) * scale, DECIMALS) for x in coef[:, n_text + d]] for d in range(dims)]
    bias = [round(float(x), DECIMALS) for x in m.intercept_]
    return SlotModel(
        labels,
        {lab: card[lab] for lab in labels if lab != NONE},
        text,
        vector,
        bias,
        0.5,
        frozenset(),
        Scoped({}, 0.0, 1.0),
    )


if __name__ == "__main__":
    main()
