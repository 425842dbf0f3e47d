"""The judgment model: one logistic regression per reason over :func:`.features.features`.

The weights ship inside the package (``judgment/model.json.gz``, written by
``tools/train_guards.py``) and are read once. Scoring a note is a few hundred dictionary
look-ups, well under a millisecond, with no dependency outside the standard library.

A model file holds, per reason, a weight for each feature seen in training, a bias, and two
thresholds chosen on the dev split: at or above ``refuse`` the note is refused for that
reason; between ``confirm`` and ``refuse`` it is held for the user's confirmation (speculation and
passing states, where a user's "yes, that is true and lasting" settles it; and, since session
13, a narrow band below the instruction threshold, so an order scored just short of it is
looked at rather than saved unasked; noise is never held, it is refused or kept).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from memory_service.core.judgment.features import features, fingerprint
from memory_service.core.judgment.shapes import shape_features, shapes_fingerprint
from memory_service.core.judgment.subjects import subject_features, subjects_fingerprint
from memory_service.core.model_files import read_model_document

MODEL_FILE = "model.json.gz"
FORMAT_VERSION = 1


class ModelFileError(ValueError):
    """The shipped model file is missing or malformed: raised at start, never per note."""


@dataclass(frozen=True)
class Thresholds:
    refuse: float
    # Equal to ``refuse`` when the reason is never held for confirmation.
    confirm: float


@dataclass(frozen=True)
class Scores:
    """Probability per reason for one note."""

    values: Mapping[str, float]

    def __getitem__(self, label: str) -> float:
        return self.values[label]


class JudgmentModel:
    """Scores a note's text for each reason."""

    def __init__(
        self,
        labels: Sequence[str],
        weights: Mapping[str, Sequence[float]],
        bias: Sequence[float],
        thresholds: Mapping[str, Thresholds],
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        if len(bias) != len(labels) or set(thresholds) != set(labels):
            raise ModelFileError("labels, bias and thresholds disagree")
        self.labels = tuple(labels)
        self._weights = weights
        self._bias = tuple(bias)
        self.thresholds = dict(thresholds)
        self.metadata = dict(metadata or {})
        # A model trained with the sentence shapes (:mod:`.shapes`) records their fingerprint;
        # the special-categories model, which shares this scorer, is trained without them.
        self.shapes = "shapes" in self.metadata
        # Likewise who an obligation binds (:mod:`.subjects`).
        self.subjects = "subjects" in self.metadata

    def features(self, text: str) -> frozenset[str]:
        """What this model reads of a note: :func:`.features.features`, and the shapes and the
        bound subjects if it was trained with them."""
        found = features(text)
        if self.shapes:
            found |= shape_features(text)
        if self.subjects:
            found |= subject_features(text)
        return found

    def scores(self, text: str) -> Scores:
        found = [self._weights[f] for f in self.features(text) if f in self._weights]
        scale = 1.0 / math.sqrt(len(found)) if found else 0.0
        values = {}
        for index, label in enumerate(self.labels):
            z = self._bias[index] + scale * sum(row[index] for row in found)
            values[label] = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
        return Scores(values)

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> JudgmentModel:
        if document.get("format") != FORMAT_VERSION:
            raise ModelFileError("unknown model file format")
        try:
            labels = [str(label) for label in document["labels"]]
            weights = {str(k): tuple(float(x) for x in v) for k, v in document["weights"].items()}
            bias = [float(x) for x in document["bias"]]
            thresholds = {
                label: Thresholds(float(t["refuse"]), float(t["confirm"]))
                for label, t in document["thresholds"].items()
            }
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelFileError("malformed model file") from exc
        if any(len(row) != len(labels) for row in weights.values()):
            raise ModelFileError("a weight row has the wrong length")
        return cls(labels, weights, bias, thresholds, document.get("metadata"))

    def to_document(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "labels": list(self.labels),
            "bias": list(self._bias),
            "thresholds": {
                label: {"refuse": t.refuse, "confirm": t.confirm}
                for label, t in self.thresholds.items()
            },
            "metadata": self.metadata,
            "weights": {k: list(v) for k, v in self._weights.items()},
        }


@cache
def default_model() -> JudgmentModel:
    """The model shipped with the package, read once per process."""
    document = read_model_document(__package__, MODEL_FILE, ModelFileError, "judgment")
    return checked(JudgmentModel.from_document(document))


def checked(model: JudgmentModel) -> JudgmentModel:
    """The shipped ``model`` if it was trained on today's :func:`.features.features`; a
    :class:`ModelFileError` (at start) if it was trained on others: retrain it
    (``tools/train_guards.py``, ``tools/train_sensitive.py``)."""
    if (
        model.metadata.get("features") != fingerprint()
        or (model.shapes and model.metadata["shapes"] != shapes_fingerprint())
        or (model.subjects and model.metadata["subjects"] != subjects_fingerprint())
    ):
        raise ModelFileError("the model file was trained on other features: retrain it")
    return model
