"""A learned relation between two notes, for the rules path (no LLM).

"Is vegetarian" / "Doesn't eat meat", "Lives in Paris" / "Settled in Lyon last spring",
"Wants short answers" / "Prefers concise responses": the word rules (:mod:`.rules`) see no
shared frame or marker, so without a judge both stay. :class:`PairModel` reads an older and
a newer note the way the rules cannot, from features the plan mostly has already:

- the static embedding's two views of each note (the plan's ``vectors`` of the whole text
  and ``meanings`` of its content words): their cosines, and for the first ``dims``
  dimensions of the content vectors ``|a - b|`` and ``a * b``;
- the rules' lexical view (:class:`.rules.NoteTerms`): overlap of content words and
  character trigrams, negation flip, numbers (and years) and named values on one side or differing,
  change, removal and additive markers, hedges, someone else as the subject, length ratio;
- the slot model's probabilities for each note (:mod:`.slots`): how much the two notes
  agree on a slot, and on a single-valued one;
- word alignment: each content word's best cosine with a content word of the other note
  ("rail" / "trains"), their mean and minimum (the vectors of the words of the few notes the
  model is asked about, from the same embedder).

It returns a probability for each of ``unrelated``, ``same``, ``refines`` and ``conflict``.
In the product all three related verdicts end with the newer note holding the fact (a merge
keeps the newer wording, a refinement or a conflict supersedes the older), so the plan acts
on ``P(related) = 1 - P(unrelated)`` against the model's ``threshold``, chosen by
``tools/train_pairs.py`` for precision: a pair wrongly called related loses a true fact (the
worst failure), one wrongly called unrelated keeps a stale one beside the newer. The most
probable related label names the decision (a merge for ``same`` and ``refines``, a
supersession for ``conflict``). A guess meeting a statement is read at a lower bar
(``hypothesis_threshold``): the statement holds whichever way they relate, and a guess lost
costs less than a stated fact.

The model is a small multilayer perceptron (or, with no hidden layer, a logistic
regression) over standardised features, trained by ``tools/train_pairs.py`` and shipped
beside this module (``pairs_model.json.gz``); the forward pass is plain Python, a few
thousand multiplications per pair. A model trained on other features is refused at load
(:func:`fingerprint`).
"""

from __future__ import annotations

import hashlib
import json
import math
import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from memory_service.core.consolidation.rules import (
    NoteTerms,
    content_text,
    dice,
    jaccard,
    stem_word,
    terms_of,
)
from memory_service.core.model_files import decode_model_document

# A year is a date, not a quantity: "Visited Japan in 2019" / "in 2023" are two events.
_YEAR = re.compile(r"(?:19|20)\d\d")

MODEL_FILE = "pairs_model.json.gz"
FORMAT_VERSION = 2
UNRELATED = "unrelated"
LABELS = (UNRELATED, "same", "refines", "conflict")
# Scalar features, in order (the vector blocks follow).
SCALAR_FEATURES = (
    "cos_text",
    "cos_content",
    "jaccard_content",
    "jaccard_topic",
    "dice_trigrams",
    "shared_topic",
    "only_older",
    "only_newer",
    "older_in_newer",
    "newer_in_older",
    "squashed_equal",
    "negation_flip",
    "both_negated",
    "numbers_differ",
    "numbers_one_side",
    "years_differ",
    "names_differ",
    "names_shared",
    "third_party_either",
    "third_party_mismatch",
    "newer_replacement",
    "newer_removal",
    "newer_removes_older",
    "newer_additive",
    "hedged_either",
    "length_ratio",
    "slot_agreement",
    "slot_single_agreement",
    "slot_none_either",
    # Word alignment: each content word's best cosine with a content word of the other
    # note ("rail" / "trains", "hispanophone" / "espagnol"), over both notes.
    "align_mean",
    "align_min",
    "align_min_older",
    "align_min_newer",
    "align_unmatched",
)
# A content word whose best match in the other note is below this has no counterpart.
UNMATCHED_COSINE = 0.35
# Two notes the slot model puts, each at least this sure, in two different slots are about
# two things ("Préfère les hôtels aux locations" / "Préfère voyager en train plutôt qu'en
# avion": accommodation / travel mode), whatever their shared frame.
SLOT_DIFFER_BAR = 0.7


class PairModelError(ValueError):
    """The shipped pair model file is missing or malformed: raised at start, never per pair."""


@dataclass(frozen=True)
class NoteView:
    """What the features need of one note: its lexical terms, its two vectors (unit length,
    None without an embedder), the slot model's probabilities (None without a vector) and
    the vectors of its content words (:func:`content_words`, unit length, in order; None
    without an embedder)."""

    terms: NoteTerms
    vector: Sequence[float] | None = None
    meaning: Sequence[float] | None = None
    slots: Mapping[str, float] | None = None
    words: Sequence[Sequence[float]] | None = None
    # The slot model's scope words of the note (:meth:`.slots.SlotModel.scope`).
    scope: frozenset[str] | None = None
    # The sentence encoder's vector of the whole text (:mod:`.sentences`, unit length; None
    # when the model reads no sentence features or no encoder ran).
    sentence: Sequence[float] | None = None


def content_words(text: str) -> list[str]:
    """The words whose vectors :class:`NoteView` holds: those of :func:`content_text`."""
    return content_text(text).split()


def _alignment(
    older: Sequence[Sequence[float]] | None, newer: Sequence[Sequence[float]] | None
) -> list[float]:
    """For each content word, its best cosine with a word of the other note: their mean and
    minimum over both notes, the minimum of each side, the share below
    :data:`UNMATCHED_COSINE`. All zero when a side has no word."""
    if not older or not newer:
        return [0.0] * 5
    sims = [[_cosine(a, b) for b in newer] for a in older]
    best_older = [max(row) for row in sims]
    best_newer = [max(column) for column in zip(*sims, strict=True)]
    both = best_older + best_newer
    return [
        sum(both) / len(both),
        min(both),
        min(best_older),
        min(best_newer),
        sum(x < UNMATCHED_COSINE for x in both) / len(both),
    ]


@dataclass(frozen=True)
class PairVerdict:
    """The model's reading of one pair: the most probable related label and P(related)."""

    label: str
    related: float
    probabilities: Mapping[str, float]


def _cosine(a: Sequence[float] | None, b: Sequence[float] | None) -> float:
    if a is None or b is None or len(a) != len(b):
        return 0.0
    return float(sum(map(operator.mul, a, b)))


def _prefix(vector: Sequence[float] | None, dims: int) -> list[float]:
    if vector is None or len(vector) < dims:
        return [0.0] * dims
    prefix = list(vector[:dims])
    norm = math.sqrt(sum(x * x for x in prefix)) or 1.0
    return [x / norm for x in prefix]


def _slot_agreement(
    a: Mapping[str, float] | None, b: Mapping[str, float] | None, single: frozenset[str]
) -> tuple[float, float, float]:
    """Probability that both notes fill one slot (any, and a single-valued one), and the
    larger of the two notes' probability of no slot."""
    if a is None or b is None:
        return 0.0, 0.0, 1.0
    shared = [(k, a[k] * b.get(k, 0.0)) for k in a if k != "none"]
    return (
        sum(p for _, p in shared),
        sum(p for k, p in shared if k in single),
        max(a.get("none", 0.0), b.get("none", 0.0)),
    )


def pair_features(
    older: NoteView,
    newer: NoteView,
    *,
    dims: int,
    single_slots: frozenset[str] = frozenset(),
    sentence_dims: int | None = None,
) -> list[float]:
    """The feature row of an older and a newer note: :data:`SCALAR_FEATURES`, then
    ``|a - b|`` and ``a * b`` of the first ``dims`` dimensions of the content vectors; with
    ``sentence_dims`` (not None), the cosine of the two sentence vectors
    (:attr:`NoteView.sentence`), then ``|a - b|`` and ``a * b`` of their first
    ``sentence_dims`` dimensions (0: the cosine alone)."""
    o, n = older.terms, newer.terms
    shared_topic = o.topic & n.topic
    longer = max(len(o.content), len(n.content)) or 1
    agreement, single_agreement, none_either = _slot_agreement(
        older.slots, newer.slots, single_slots
    )
    scalars = [
        _cosine(older.vector, newer.vector),
        _cosine(older.meaning, newer.meaning),
        jaccard(o.content, n.content),
        jaccard(o.topic, n.topic),
        dice(o.trigrams, n.trigrams),
        min(len(shared_topic), 4) / 4,
        min(len(o.content - n.content), 6) / 6,
        min(len(n.content - o.content), 6) / 6,
        float(bool(o.content) and o.content <= n.content),
        float(bool(n.content) and n.content <= o.content),
        float(o.squashed == n.squashed),
        float(o.negated != n.negated),
        float(o.negated and n.negated),
        float(bool(o.numbers) and bool(n.numbers) and o.numbers != n.numbers),
        float(bool(o.numbers) != bool(n.numbers)),
        float(any(_YEAR.fullmatch(x) for x in o.numbers ^ n.numbers)),
        float(bool(o.names) and bool(n.names) and o.names != n.names),
        float(bool(o.names & n.names)),
        float(o.third_party or n.third_party),
        float(o.third_party != n.third_party),
        float(n.replacement),
        float(n.removal),
        float(bool(n.removed) and n.removed <= o.content),
        float(n.additive),
        float(o.hedged or n.hedged),
        min(len(o.content), len(n.content)) / longer,
        agreement,
        single_agreement,
        none_either,
        *_alignment(older.words, newer.words),
    ]
    a, b = _prefix(older.meaning, dims), _prefix(newer.meaning, dims)
    row = [
        *scalars,
        *(abs(x - y) for x, y in zip(a, b, strict=True)),
        *(x * y for x, y in zip(a, b, strict=True)),
    ]
    if sentence_dims is not None:
        c, d = _head(older.sentence, sentence_dims), _head(newer.sentence, sentence_dims)
        row += [
            _cosine(older.sentence, newer.sentence),
            *(abs(x - y) for x, y in zip(c, d, strict=True)),
            *(x * y for x, y in zip(c, d, strict=True)),
        ]
    return row


def _head(vector: Sequence[float] | None, dims: int) -> list[float]:
    """The first ``dims`` components as they are (zeros when the vector is shorter)."""
    if vector is None or len(vector) < dims:
        return [0.0] * dims
    return [float(x) for x in vector[:dims]]


def feature_width(dims: int, sentence_dims: int | None = None) -> int:
    """The length of a feature row."""
    sentence = 0 if sentence_dims is None else 1 + 2 * sentence_dims
    return len(SCALAR_FEATURES) + 2 * dims + sentence


def denies_another_point(older: NoteView, newer: NoteView) -> bool:
    """The newer note denies what the older one states only in part of their words: they
    share some (a subject, a frame), each says something the other does not, and nothing the
    older says outside the shared words has a counterpart in what the newer says outside them
    (no pair of those content words reaches :data:`UNMATCHED_COSINE`). The denial is of
    another point: "Dog can be walked with other dogs" / "Dog must not be let off the lead"
    share "dog" (walked / lead: 0.08). A flip of the same statement keeps a counterpart ("Cat
    is an indoor cat" / "Cat isn't kept inside; it roams the garden": indoor / inside 0.49)
    or nothing of its own ("Holds a valid US visa" / "Does not have a US visa"). As for
    :func:`scope_differs`, only a newer denial of an older statement: an older denial the
    newer note states otherwise ("Ne boit jamais de café" / "Évite complètement le café") is
    the model's to read, and so is a denial marking the change itself ("no longer",
    "anymore", "ne ... plus"): it says the older state ended, in its own words ("Responds to
    night calls" / "No longer takes night calls"). Without word vectors: False."""
    if not newer.terms.negated or older.terms.negated or newer.terms.removal:
        return False
    older_words = _own_word_vectors(older, newer)
    newer_words = _own_word_vectors(newer, older)
    if not older_words or not newer_words or older.words is None:
        return False
    if len(older_words) == len(older.words):
        return False  # nothing shared: a paraphrase across a negation, the model's to read
    return not any(_cosine(a, b) >= UNMATCHED_COSINE for a in older_words for b in newer_words)


def _own_word_vectors(view: NoteView, other: NoteView) -> list[Sequence[float]] | None:
    """The vectors of the note's content words whose stem the other note's content words
    lack (None without word vectors, or when they do not match the note's words)."""
    words, other_words = _words_of(view), _words_of(other)
    if view.words is None or words is None or other_words is None:
        return None
    if len(words) != len(view.words):
        return None
    shared = {stem_word(w, french=view.terms.french) for w in words} & {
        stem_word(w, french=other.terms.french) for w in other_words
    }
    return [
        vector
        for word, vector in zip(words, view.words, strict=True)
        if stem_word(word, french=view.terms.french) not in shared
    ]


def _words_of(view: NoteView) -> list[str] | None:
    return content_words(view.terms.normalized) if view.words is not None else None


def _years(terms: NoteTerms) -> frozenset[str]:
    return frozenset(x for x in terms.numbers if _YEAR.fullmatch(x))


def _parts(words: frozenset[str]) -> frozenset[str]:
    """Content words with compounds split: "long-haul" and "short-haul" share "haul"."""
    return frozenset(part for word in words for part in word.split("-") if part)


def scope_differs(older: NoteTerms, newer: NoteTerms) -> bool:
    """The two notes speak of different scopes, so the newer cannot deny or restate the older.

    - A newer negated note denies an older affirmed one on a shared word only when all its
      content words are in the older: "Does not use Jira" denies "Uses Jira at work", but
      "Does not use Jira for personal projects" (a qualifier the older lacks) or "Has no
      credit card" after "Has a debit card" (another value) is about something else. Exempt:
      a newer note whose negation qualifies an affirmed statement ("Uses Flask, not Django",
      "Likes coffee black, no sugar"), one that marks the change itself ("no longer",
      "anymore"), and one sharing no word with the older (a paraphrase across a negation:
      "Is car-free" / "Doesn't have a vehicle"), which the model reads on its own.
    - Two notes dated by different years are two events ("Visited Japan in 2019" / "in 2023"):
      a dated past event holds no single value to replace or restate.
    """
    years_older, years_newer = _years(older), _years(newer)
    if years_older and years_newer and years_older != years_newer:
        return True
    if not newer.negated or newer.leading or older.negated or newer.replacement or newer.removal:
        return False
    shares = bool(_parts(older.content) & _parts(newer.content))
    return shares and not newer.content <= older.content


def _top_slot(slots: Mapping[str, float]) -> tuple[str, float]:
    return max(((k, p) for k, p in slots.items() if k != "none"), key=lambda kp: kp[1])


def slots_differ(
    older: Mapping[str, float] | None,
    newer: Mapping[str, float] | None,
    bar: float = SLOT_DIFFER_BAR,
) -> bool:
    """The slot model puts the two notes, each at ``bar`` or above, in different slots."""
    if not older or not newer or len(older) < 2 or len(newer) < 2:
        return False
    (a, pa), (b, pb) = _top_slot(older), _top_slot(newer)
    return a != b and min(pa, pb) >= bar


def slot_scopes_differ(older: NoteView, newer: NoteView, bar: float = SLOT_DIFFER_BAR) -> bool:
    """The slot model puts both notes, each at ``bar`` or above, in one slot, and they name
    different scope words: two values of one slot in two contexts ("window seat on overnight
    flights" / "aisle seat on daytime hops")."""
    a, b = older.slots, newer.slots
    if not a or not b or len(a) < 2 or len(b) < 2 or older.scope is None or newer.scope is None:
        return False
    (ka, pa), (kb, pb) = _top_slot(a), _top_slot(b)
    return ka == kb and min(pa, pb) >= bar and older.scope != newer.scope


def fingerprint(dims: int, sentence_dims: int | None = None) -> str:
    """Names the feature function, so a model trained on other features is refused."""
    older = NoteView(
        terms_of("Lives in Paris with 2 cats"),
        (1.0, 0.0),
        (0.6, 0.8),
        {"none": 1},
        ((1.0, 0.0), (0.6, 0.8), (0.0, 1.0)),
    )
    newer = NoteView(
        terms_of("Doesn't live in Paris anymore"), (0.0, 1.0), (0.8, 0.6), None, ((0.8, 0.6),)
    )
    probe = pair_features(older, newer, dims=2)
    parts: list[Any] = [SCALAR_FEATURES, LABELS, dims, [round(x, 6) for x in probe]]
    if sentence_dims is not None:
        # Without sentence features the payload is that of the models before them.
        older = NoteView(older.terms, sentence=(0.6, 0.8, 0.0))
        newer = NoteView(newer.terms, sentence=(0.0, 0.6, 0.8))
        sentence = pair_features(older, newer, dims=0, sentence_dims=3)
        parts += [sentence_dims, [round(x, 6) for x in sentence[-7:]]]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class _Layer:
    # weights[i][j]: input i to unit j.
    weights: tuple[tuple[float, ...], ...]
    bias: tuple[float, ...]

    def forward(self, inputs: Sequence[float]) -> list[float]:
        out = list(self.bias)
        for x, row in zip(inputs, self.weights, strict=True):
            if x:
                for j, w in enumerate(row):
                    out[j] += x * w
        return out


class PairModel:
    """Probabilities of the pair labels for an older and a newer note."""

    def __init__(
        self,
        *,
        labels: Sequence[str],
        dims: int,
        mean: Sequence[float],
        scale: Sequence[float],
        layers: Sequence[tuple[Sequence[Sequence[float]], Sequence[float]]],
        threshold: float,
        vector_size: int,
        single_slots: frozenset[str] = frozenset(),
        metadata: Mapping[str, Any] | None = None,
        hypothesis_threshold: float | None = None,
        sentence_dims: int | None = None,
    ) -> None:
        if tuple(labels) != LABELS:
            raise PairModelError(f"labels must be {LABELS}")
        if sentence_dims is not None and sentence_dims < 0:
            raise PairModelError("the sentence prefix cannot be negative")
        width = feature_width(dims, sentence_dims)
        if len(mean) != width or len(scale) != width or any(s <= 0 for s in scale):
            raise PairModelError("feature standardisation has the wrong width")
        if not layers:
            raise PairModelError("the model has no layer")
        built = []
        for weights, bias in layers:
            if len(weights) != width or any(len(row) != len(bias) for row in weights):
                raise PairModelError("a layer's weights do not match its inputs")
            built.append(_Layer(tuple(tuple(map(float, r)) for r in weights), tuple(bias)))
            width = len(bias)
        if width != len(LABELS):
            raise PairModelError("the last layer must score every label")
        if hypothesis_threshold is None:
            hypothesis_threshold = threshold
        if not (0.0 < threshold <= 1.0 and 0.0 < hypothesis_threshold <= threshold):
            raise PairModelError("the thresholds must be in (0, 1], the guess's at most the other")
        if vector_size < dims:
            raise PairModelError("the vectors are shorter than the prefix the model reads")
        self.labels = tuple(labels)
        self.dims = dims
        self._mean = tuple(mean)
        self._scale = tuple(scale)
        self._layers = tuple(built)
        self.threshold = threshold
        # A guess meeting a statement: losing the guess costs little, so a lower bar.
        self.hypothesis_threshold = hypothesis_threshold
        # The embedding's width at training: vectors of another width (another model or
        # prefix) give other cosines, and the model is not asked about them.
        self.vector_size = vector_size
        self.single_slots = single_slots
        self.metadata = dict(metadata or {})
        # The sentence encoder's dimensions the model reads beside the cosine (0: the cosine
        # alone; None: no sentence feature, and the plan encodes nothing for it).
        self.sentence_dims = sentence_dims

    def reads(self, view: NoteView) -> bool:
        """The note's two vectors and its word vectors are of the width the model was
        trained on (a note without content words has none)."""
        words = view.words
        return (
            words is not None
            and all(len(w) == self.vector_size for w in words)
            and all(
                v is not None and len(v) == self.vector_size for v in (view.vector, view.meaning)
            )
            and (
                self.sentence_dims is None
                or (view.sentence is not None and len(view.sentence) >= max(self.sentence_dims, 1))
            )
        )

    def features(self, older: NoteView, newer: NoteView) -> list[float]:
        return pair_features(
            older,
            newer,
            dims=self.dims,
            single_slots=self.single_slots,
            sentence_dims=self.sentence_dims,
        )

    def probabilities_of(self, row: Sequence[float]) -> dict[str, float]:
        """Probability per label of one feature row."""
        h = [(x - m) / s for x, m, s in zip(row, self._mean, self._scale, strict=True)]
        for layer in self._layers[:-1]:
            h = [max(0.0, v) for v in layer.forward(h)]
        z = self._layers[-1].forward(h)
        top = max(z)
        exp = [math.exp(v - top) for v in z]
        total = sum(exp)
        return {label: e / total for label, e in zip(self.labels, exp, strict=True)}

    def verdict(self, older: NoteView, newer: NoteView) -> PairVerdict:
        probabilities = self.probabilities_of(self.features(older, newer))
        label = max(self.labels[1:], key=lambda k: probabilities[k])
        return PairVerdict(label, 1.0 - probabilities[UNRELATED], probabilities)

    def related(
        self, older: NoteView, newer: NoteView, *, guess_meets_fact: bool = False
    ) -> PairVerdict | None:
        """The verdict when the model is sure enough the two notes hold one fact, else None
        (also when it cannot read both notes' vectors, see :meth:`reads`, and when the notes
        are about different scopes, see :func:`scope_differs`, or in two different slots,
        see :func:`slots_differ`, or the newer adds a value).

        ``guess_meets_fact``: one note is a hypothesis, the other a statement. The statement
        holds either way (it restates, refines or contradicts the guess), and a guess lost
        costs less than a stated fact, so the bar is :attr:`hypothesis_threshold`, chosen by
        ``tools/train_pairs.py`` at a lower precision."""
        if not (self.reads(older) and self.reads(newer)):
            return None
        if slots_differ(older.slots, newer.slots) or slot_scopes_differ(older, newer):
            return None
        if denies_another_point(older, newer):
            return None
        if scope_differs(older.terms, newer.terms) or newer.terms.additive:
            # A newer note saying "also" / "aussi" adds a second value ("A aussi un lapin"):
            # it replaces nothing, as for the rules.
            return None
        verdict = self.verdict(older, newer)
        bar = self.hypothesis_threshold if guess_meets_fact else self.threshold
        return verdict if verdict.related >= bar else None

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> PairModel:
        if document.get("format") != FORMAT_VERSION:
            raise PairModelError("unknown pair model file format")
        try:
            return cls(
                labels=[str(label) for label in document["labels"]],
                dims=int(document["dims"]),
                mean=[float(x) for x in document["mean"]],
                scale=[float(x) for x in document["scale"]],
                layers=[
                    ([[float(x) for x in row] for row in w], [float(x) for x in b])
                    for w, b in document["layers"]
                ],
                threshold=float(document["threshold"]),
                hypothesis_threshold=float(
                    document.get("hypothesis_threshold", document["threshold"])
                ),
                vector_size=int(document["vector_size"]),
                single_slots=frozenset(str(s) for s in document.get("single_slots", ())),
                metadata=document.get("metadata"),
                sentence_dims=_optional_int(document.get("sentence_dims")),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PairModelError("malformed pair model file") from exc

    def to_document(self) -> dict[str, Any]:
        document = {
            "format": FORMAT_VERSION,
            "labels": list(self.labels),
            "dims": self.dims,
            "threshold": self.threshold,
            "hypothesis_threshold": self.hypothesis_threshold,
            "vector_size": self.vector_size,
            "single_slots": sorted(self.single_slots),
            "metadata": self.metadata,
            "mean": list(self._mean),
            "scale": list(self._scale),
            "layers": [
                [[list(row) for row in layer.weights], list(layer.bias)] for layer in self._layers
            ],
        }
        if self.sentence_dims is not None:
            # Written only when read: a model without sentence features keeps its bytes.
            document["sentence_dims"] = self.sentence_dims
        return document


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def load_pair_model(data: bytes) -> PairModel:
    """A model from the bytes of a ``.json.gz`` file, checked against this feature code."""
    document = decode_model_document(data, PairModelError, "pair")
    model = PairModel.from_document(document)
    if model.metadata.get("features") != fingerprint(model.dims, model.sentence_dims):
        raise PairModelError("the pair model file was trained on other features: retrain it")
    return model


@cache
def default_pair_model() -> PairModel:
    """The model shipped with the package, read once per process."""
    resource = resources.files(__package__).joinpath(MODEL_FILE)
    try:
        data = resource.read_bytes()
    except OSError as exc:
        raise PairModelError("the pair model file cannot be read") from exc
    return load_pair_model(data)
