"""The slot a note fills when the agent sent no attribute: a learned classifier.

"Drives a Golf" and "Drives a Tesla Model 3", "Uses Excel for budgeting" and "Manages
accounts with a budgeting app" share no change marker and little wording, yet each pair
holds one value of one single-valued slot (``car``, ``budget_tool``): the newer wins, as it
does when the agent sends the attribute. :class:`SlotModel` maps a note to one of a closed
set of common slots, each with its cardinality, or to nothing when it is unsure.

It is a multinomial logistic regression over two views of the note, trained by
``tools/train_slots.py`` on ``data/slots/corpus/`` (EN/FR notes labelled with their slot,
value and scope) and shipped beside this module (``slots_model.json.gz``):

- the vector of the note's content words (:func:`.rules.content_text`) from the
  :class:`~.embedding.Embedder` port (the plan's ``meanings``, computed anyway), its first
  ``vector_dims`` dimensions scaled back to unit length (the embedding is trained
  Matryoshka-style, so a prefix is a model); the content words cover twice the slot notes
  the whole text does at the same precision (``data/slots/REPORT.md``);
- :func:`text_features`: folded words and the character 4-grams inside them, which carry a
  slot across inflections and the two languages ("<voi", "oitu" of "voiture").

A prediction counts only at or above the model's ``threshold`` (chosen on the dev split for
precision: a wrong slot shared by two notes supersedes a true fact). The core imports no
adapter: without a vector (no embedder, or vectors of another model) nothing is inferred.

**Scope.** One slot can hold a value per context ("window seat on long flights", "aisle on
short ones"; "works from home on Mondays", "from the office on Wednesdays"): two notes of one
slot in different scopes are two facts, and superseding one of them is the worse error.
:meth:`SlotModel.same_scope` lets two notes supersede by slot only when neither is
*scoped*, by a second learned head (a logistic regression over :func:`text_features`,
trained on the corpus's ``scope`` field: does the note qualify its value with a context?),
or when both name the same scope words (:meth:`SlotModel.scope`: the words the corpus
writers used as qualifiers, as folded 5-letter prefixes, shipped in the model file).
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
from typing import Any

from memory_service.core.lexicons import fold
from memory_service.core.model import Cardinality
from memory_service.core.model_files import read_model_document

MODEL_FILE = "slots_model.json.gz"
FORMAT_VERSION = 1
NONE = "none"
_WORD = re.compile(r"[^\W\d_]+")
# The value head's words: letters or digits ("Model 3", "iPhone 15").
_TOKEN = re.compile(r"[^\W_]+")
_CHAR_N = 4
# A scope word is compared by its first letters: "weekend" / "weekends", "flight" / "flights".
SCOPE_PREFIX = 5


class SlotModelError(ValueError):
    """The shipped slot model file is missing or malformed: raised at start, never per note."""


@dataclass(frozen=True)
class Slot:
    """A confidently inferred slot of one note."""

    key: str
    cardinality: Cardinality
    probability: float


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text.replace("\u2019", "'")).lower())


def text_features(text: str) -> set[str]:
    """Folded words (``w:``) and the character 4-grams inside each padded word (``c:``)."""
    found: set[str] = set()
    for word in _words(text):
        found.add(f"w:{word}")
        padded = f"<{word}>"
        found.update(
            f"c:{padded[i : i + _CHAR_N]}" for i in range(max(1, len(padded) - _CHAR_N + 1))
        )
    return found


def scope_form(word: str) -> str:
    return fold(word).lower()[:SCOPE_PREFIX]


def fingerprint() -> str:
    """Names the feature function, so a model trained on other features is refused."""
    probe = sorted(text_features("Conduit une voiture électrique, drives to work"))
    return hashlib.sha256(json.dumps([_CHAR_N, SCOPE_PREFIX, probe]).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Scoped:
    """The scope head: the probability that a note qualifies its value with a context."""

    weights: Mapping[str, float]
    bias: float
    threshold: float

    def probability(self, text: str) -> float:
        found = [self.weights[f] for f in text_features(text) if f in self.weights]
        z = self.bias + (sum(found) / math.sqrt(len(found)) if found else 0.0)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def probable(self, text: str) -> bool:
        return self.probability(text) >= self.threshold


@dataclass(frozen=True)
class Values:
    """The value head: which words of a note state its slot's value ("Tesla Model 3" in
    "Drives a Tesla Model 3", "Lyon" in "Habite à Lyon"), a logistic regression over
    :func:`value_features` of each word, trained on the corpus's ``value`` field."""

    weights: Mapping[str, float]
    bias: float
    threshold: float

    def probabilities(self, text: str) -> list[tuple[str, float]]:
        """Each folded word of ``text`` with its probability of being part of the value."""
        out = []
        for word, features in value_features(text):
            found = [self.weights[f] for f in features if f in self.weights]
            z = self.bias + (sum(found) / math.sqrt(len(found)) if found else 0.0)
            out.append((word, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        return out

    def words(self, text: str) -> frozenset[str]:
        """The folded words of ``text`` read as its value; empty when none is sure."""
        return frozenset(w for w, p in self.probabilities(text) if p >= self.threshold)


def value_features(text: str) -> list[tuple[str, set[str]]]:
    """Each folded word of ``text`` with its features: its own :func:`text_features`, its
    neighbours (``l:``, ``r:``), and its shape (capitalised inside the note, digits, first)."""
    tokens = _TOKEN.findall(fold(text.replace("\u2019", "'")))
    words = [t.lower() for t in tokens]
    out = []
    for i, (token, word) in enumerate(zip(tokens, words, strict=True)):
        features = text_features(word) if word.isalpha() else {f"w:{word}"}
        features.add(f"l:{words[i - 1]}" if i else "l:<")
        features.add(f"r:{words[i + 1]}" if i + 1 < len(words) else "r:>")
        if i == 0:
            features.add("s:first")
        elif token[0].isupper():
            features.add("s:capital")
        if any(c.isdigit() for c in token):
            features.add("s:digit")
        out.append((word, features))
    return out


class SlotModel:
    """Scores a note (text and vector) for each slot."""

    def __init__(
        self,
        labels: Sequence[str],
        cardinality: Mapping[str, Cardinality],
        text_weights: Mapping[str, Sequence[float]],
        vector_weights: Sequence[Sequence[float]],
        bias: Sequence[float],
        threshold: float,
        scope_words: frozenset[str],
        scoped: Scoped,
        metadata: Mapping[str, Any] | None = None,
        values: Values | None = None,
    ) -> None:
        if len(bias) != len(labels) or NONE not in labels:
            raise SlotModelError("labels and bias disagree")
        if set(cardinality) != set(labels) - {NONE}:
            raise SlotModelError("every slot needs a cardinality")
        rows = [*text_weights.values(), *vector_weights]
        if any(len(row) != len(labels) for row in rows):
            raise SlotModelError("a weight row has the wrong length")
        self.labels = tuple(labels)
        self.cardinality = dict(cardinality)
        self._text = text_weights
        self._vector = tuple(tuple(row) for row in vector_weights)
        # The same weights by label, for one C-speed dot product per label.
        self._by_label = tuple(zip(*self._vector, strict=True)) or tuple(() for _ in labels)
        self._bias = tuple(bias)
        self.threshold = threshold
        self.scope_words = scope_words
        self.scoped = scoped
        self.metadata = dict(metadata or {})
        self.values = values

    @property
    def vector_dims(self) -> int:
        return len(self._vector)

    def probabilities(self, text: str, vector: Sequence[float]) -> dict[str, float]:
        """Probability per label (``none`` included) for a note and its vector."""
        found = [self._text[f] for f in text_features(text) if f in self._text]
        scale = 1.0 / math.sqrt(len(found)) if found else 0.0
        text_part = [scale * sum(col) for col in zip(*found, strict=True)] if found else None
        prefix = vector[: self.vector_dims]
        norm = math.sqrt(sum(x * x for x in prefix)) or 1.0
        z = [
            bias + sum(map(operator.mul, prefix, row)) / norm
            for bias, row in zip(self._bias, self._by_label, strict=True)
        ]
        if text_part is not None:
            z = [a + b for a, b in zip(z, text_part, strict=True)]
        top = max(z)
        exp = [math.exp(v - top) for v in z]
        total = sum(exp)
        return {label: e / total for label, e in zip(self.labels, exp, strict=True)}

    def infer(self, text: str, vector: Sequence[float] | None) -> Slot | None:
        """The note's slot when the model is sure enough, else None (also without a vector
        of at least :attr:`vector_dims` dimensions)."""
        if vector is None or len(vector) < self.vector_dims:
            return None
        probabilities = self.probabilities(text, vector)
        label, probability = max(probabilities.items(), key=lambda item: item[1])
        if label == NONE or probability < self.threshold:
            return None
        return Slot(label, self.cardinality[label], probability)

    def scope(self, text: str) -> frozenset[str]:
        """The note's scope qualifiers ("weekends", "long flights", "au travail"), as
        folded word prefixes; empty for a note that holds everywhere."""
        return frozenset(form for form in map(scope_form, _words(text)) if form in self.scope_words)

    def same_scope(self, a: str, b: str) -> bool:
        """Two notes hold their values in one context: neither is scoped, or both name the
        same scope words."""
        scope = self.scope(a)
        if scope:
            return scope == self.scope(b)
        return not self.scope(b) and not self.scoped.probable(a) and not self.scoped.probable(b)

    def values_differ(self, a: str, b: str) -> bool:
        """Two notes of one slot state two values: each has words the value head reads as
        its value, and they are not the same words ("Drives a Golf" / "Drives a Tesla").
        Without a sure value on either side (a paraphrase: "the Portuguese capital"), or with
        the same one ("Lives in Leeds" / "Based in Leeds"), they do not; a model file without
        a value head lets every pair through (the first model's behaviour)."""
        if self.values is None:
            return True
        value_a, value_b = self.values.words(a), self.values.words(b)
        return bool(value_a) and bool(value_b) and value_a != value_b

    def one_fact(self, a: str, b: str) -> bool:
        """Two notes of one single-valued slot are two values of one fact, the newer
        superseding the older: same scope (:meth:`same_scope`), different values
        (:meth:`values_differ`)."""
        return self.same_scope(a, b) and self.values_differ(a, b)

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> SlotModel:
        if document.get("format") != FORMAT_VERSION:
            raise SlotModelError("unknown slot model file format")
        try:
            labels = [str(label) for label in document["labels"]]
            cardinality = {str(k): Cardinality(v) for k, v in document["cardinality"].items()}
            text = {str(k): tuple(float(x) for x in v) for k, v in document["text"].items()}
            vector = [tuple(float(x) for x in row) for row in document["vector"]]
            bias = [float(x) for x in document["bias"]]
            threshold = float(document["threshold"])
            scope_words = frozenset(str(w) for w in document["scope_words"])
            scoped = Scoped(
                {str(k): float(v) for k, v in document["scoped"]["weights"].items()},
                float(document["scoped"]["bias"]),
                float(document["scoped"]["threshold"]),
            )
            head = document.get("values")
            values = (
                Values(
                    {str(k): float(v) for k, v in head["weights"].items()},
                    float(head["bias"]),
                    float(head["threshold"]),
                )
                if head is not None
                else None
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SlotModelError("malformed slot model file") from exc
        return cls(
            labels,
            cardinality,
            text,
            vector,
            bias,
            threshold,
            scope_words,
            scoped,
            document.get("metadata"),
            values,
        )

    def to_document(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "labels": list(self.labels),
            "cardinality": {k: v.value for k, v in self.cardinality.items()},
            "bias": list(self._bias),
            "threshold": self.threshold,
            "scope_words": sorted(self.scope_words),
            "scoped": {
                "bias": self.scoped.bias,
                "threshold": self.scoped.threshold,
                "weights": dict(self.scoped.weights),
            },
            "metadata": self.metadata,
            "vector": [list(row) for row in self._vector],
            "text": {k: list(v) for k, v in self._text.items()},
        }
        if self.values is not None:
            document["values"] = {
                "bias": self.values.bias,
                "threshold": self.values.threshold,
                "weights": dict(self.values.weights),
            }
        return document


@cache
def default_slot_model() -> SlotModel:
    """The model shipped with the package, read once per process."""
    document = read_model_document(__package__, MODEL_FILE, SlotModelError, "slot")
    model = SlotModel.from_document(document)
    if model.metadata.get("features") != fingerprint():
        raise SlotModelError("the slot model file was trained on other features: retrain it")
    return model
