"""A second reading for the privacy backstop: the sentence encoder asked about the notes the
word model finds suspicious (session 15, issue 10).

The backstop (:mod:`.learned`) reads words and character grams; a new writer's leak put in
words it never saw (a password told without its word, a private name in an odd position, an
address told indirectly) scores below its threshold. For a note whose highest backstop score
reaches ``low``, one logistic regression per label over ``[logit(pii score), logit(secret
score), e5 vector of the normalised note]`` decides the refusal. Below ``low`` nothing is asked
(the encoder costs ~24 ms a note; most durable notes score far below it).

Trained and its thresholds chosen on the seen evaluation sets, held out by folds of whole sets
(each set was written by another writer; ``tools/train_privacy_stage.py``,
``data/privacy/REPORT.md``). The weights ship beside this module (``sentence_backstop.json.gz``)
with the key of the backstop model whose scores they read: a retrained backstop needs a
retrained stage. When the encoder cannot be loaded, today's backstop decides alone (its own
thresholds), for the process's life; the failure is logged without the note.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from memory_service.core.judgment.model import JudgmentModel, ModelFileError
from memory_service.core.judgment.sentence_stage import (
    Encode,
    encode_with_default,
    logit,
    sigmoid,
)
from memory_service.core.sentences import DIMENSIONS, ENCODER_NAME, SentenceEncoderError

STAGE_FILE = "sentence_backstop.json.gz"
FORMAT_VERSION = 1
LABELS = ("pii", "secret")

_log = logging.getLogger(__name__)


class LabelScores(Protocol):
    """The backstop's score per label (:class:`~memory_service.core.judgment.model.Scores`)."""

    def __getitem__(self, label: str, /) -> float: ...


def model_key(model: JudgmentModel) -> str:
    """What the stage records of the backstop model whose scores it reads."""
    metadata = model.metadata
    thresholds = ":".join(str(model.thresholds[label].refuse) for label in LABELS)
    return f"{metadata.get('features')}:{metadata.get('train_notes')}:{thresholds}"


@dataclass(frozen=True)
class SentenceBackstop:
    """Per label (``LABELS`` order): ``weights`` (the two logits' weights, then one per vector
    dimension), ``bias`` and ``thresholds``; a note is asked when its highest backstop score
    reaches ``low``."""

    low: float
    weights: tuple[tuple[float, ...], ...]
    bias: tuple[float, ...]
    thresholds: tuple[float, ...]
    # :func:`model_key` of the backstop model it reads ("" in a stage built by hand).
    model: str = ""
    encode: Encode = encode_with_default

    def reaches(self, scores: LabelScores) -> bool:
        """Whether a note with these backstop scores is the stage's to decide."""
        return max(scores[label] for label in LABELS) >= self.low

    def probabilities(self, scores: LabelScores, note: str) -> tuple[float, ...]:
        vector = self.encode(note)
        if len(vector) != DIMENSIONS:
            raise ModelFileError("the sentence backstop and the encoder disagree on dimensions")
        logits = [logit(scores[label]) for label in LABELS]
        out = []
        for weights, bias in zip(self.weights, self.bias, strict=True):
            z = bias + sum(w * x for w, x in zip(weights[: len(LABELS)], logits, strict=True))
            z += sum(w * x for w, x in zip(weights[len(LABELS) :], vector, strict=True))
            out.append(sigmoid(z))
        return tuple(out)

    def findings(self, scores: LabelScores, note: str) -> frozenset[str] | None:
        """The labels the stage finds in a note it reaches; ``None`` when the encoder cannot
        be used (the caller keeps today's backstop's decision)."""
        try:
            found = self.probabilities(scores, note)
        except (SentenceEncoderError, ValueError, RuntimeError, OSError):
            # Never the note: only that the stage is out of use.
            _log.warning("sentence encoder unavailable: the privacy backstop decides alone")
            return None
        return frozenset(
            label for label, p, t in zip(LABELS, found, self.thresholds, strict=True) if p >= t
        )

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> SentenceBackstop:
        if not isinstance(document, Mapping) or document.get("format") != FORMAT_VERSION:
            raise ModelFileError("unknown sentence backstop file format")
        if document.get("encoder") != ENCODER_NAME:
            raise ModelFileError("the sentence backstop was trained on another encoder: retrain it")
        try:
            stage = cls(
                low=float(document["low"]),
                weights=tuple(tuple(float(x) for x in row) for row in document["weights"]),
                bias=tuple(float(x) for x in document["bias"]),
                thresholds=tuple(float(x) for x in document["thresholds"]),
                model=str(document["model"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError("malformed sentence backstop file") from exc
        sizes = {len(row) for row in stage.weights}
        if sizes != {len(LABELS) + DIMENSIONS} or len(stage.weights) != len(LABELS):
            raise ModelFileError("the sentence backstop has the wrong number of weights")
        if len(stage.bias) != len(LABELS) or len(stage.thresholds) != len(LABELS):
            raise ModelFileError("malformed sentence backstop file")
        return stage

    def to_document(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "encoder": ENCODER_NAME,
            "low": self.low,
            "weights": [list(row) for row in self.weights],
            "bias": list(self.bias),
            "thresholds": list(self.thresholds),
            "model": self.model,
        }


def checked_stage(stage: SentenceBackstop, model: JudgmentModel) -> SentenceBackstop:
    """``stage`` if it was trained on ``model``'s scores, else a :class:`ModelFileError`."""
    if stage.model != model_key(model):
        raise ModelFileError("the sentence backstop was trained on another backstop: retrain it")
    return stage
