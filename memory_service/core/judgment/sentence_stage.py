"""A second stage for guesses: the sentence encoder asked about the notes the word model leaves
undecided (session 14).

The judgment model (:mod:`.model`) reads words and character grams; a new writer's guess put in
words it never saw ("Ça ressemble à un membre d'équipage", "Mutmaßlich ein Selbstständiger")
scores low. For a note whose speculative score falls in the band from ``low`` up to the model's
refuse threshold, a logistic regression over ``[logit(score), e5 vector]`` decides whether it is
held for the user's confirmation, in place of the model's hold threshold. Above the band the note
is refused as before; below it nothing is asked. Only ``speculative``: on the other reasons the
stage stopped more durable notes of the seen eval sets than it caught
(``data/judgment/session14_e5/README.md``).

Trained on the out-of-fold scores of five writer folds of the judgment corpus (scripts in
``data/judgment/session14_e5``), its threshold set so that it stops no more durable notes in
the band than the model alone did. The weights ship beside this module
(``sentence_stage.json.gz``); the encoder is loaded on the first note that reaches the band.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from memory_service.core.judgment.model import JudgmentModel, ModelFileError, default_model
from memory_service.core.model_files import read_model_document
from memory_service.core.sentences import (
    DIMENSIONS,
    ENCODER_NAME,
    SentenceEncoderError,
    default_sentence_encoder,
)

STAGE_FILE = "sentence_stage.json.gz"
FORMAT_VERSION = 1

Encode = Callable[[str], Sequence[float]]

_log = logging.getLogger(__name__)


def model_key(model: JudgmentModel) -> str:
    """What the stage records of the judgment model whose scores it was trained on: a stage
    reads that model's score, so a retrained model needs a retrained stage."""
    metadata = model.metadata
    t = model.thresholds["speculative"]
    return f"{metadata.get('features')}:{metadata.get('train_notes')}:{t.refuse}:{t.confirm}"


def encode_with_default(text: str) -> Sequence[float]:
    """One text's vector from the process's sentence encoder (loaded on first use)."""
    return default_sentence_encoder().encode([text])[0]


def logit(p: float) -> float:
    """A probability as the logit a stage reads (clipped away from 0 and 1)."""
    clipped = min(max(p, 1e-6), 1.0 - 1e-6)
    return math.log(clipped / (1.0 - clipped))


def sigmoid(z: float) -> float:
    """A stage's logit as a probability (clipped so that ``exp`` cannot overflow)."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True)
class SentenceStage:
    """``label``'s second stage: ``low`` starts the band, ``weights`` are the logit's weight then
    one per vector dimension, a note is stopped at ``threshold`` or above."""

    label: str
    low: float
    weights: tuple[float, ...]
    bias: float
    threshold: float
    # :func:`model_key` of the judgment model it reads ("" in a stage built by hand).
    model: str = ""
    encode: Encode = encode_with_default

    def reaches(self, score: float, refuse: float) -> bool:
        """Whether a note scored ``score`` is the stage's to decide."""
        return self.low <= score < refuse

    def probability(self, score: float, text: str) -> float:
        vector = self.encode(text)
        if len(vector) != len(self.weights) - 1:
            raise ModelFileError("the sentence stage and the encoder disagree on dimensions")
        z = self.bias + self.weights[0] * logit(score)
        z += sum(w * x for w, x in zip(self.weights[1:], vector, strict=True))
        return sigmoid(z)

    def stops(self, score: float, text: str) -> bool:
        """Whether the note is held. Fails closed: when the encoder cannot be loaded the note
        is held (one question to the user), never saved unread and never an error."""
        try:
            return self.probability(score, text) >= self.threshold
        except SentenceEncoderError:
            _log.warning("sentence encoder unavailable: a guess in the band is held")
            return True

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> SentenceStage:
        if document.get("format") != FORMAT_VERSION:
            raise ModelFileError("unknown sentence stage file format")
        if document.get("encoder") != ENCODER_NAME:
            raise ModelFileError("the sentence stage was trained on another encoder: retrain it")
        try:
            stage = cls(
                label=str(document["label"]),
                low=float(document["low"]),
                weights=tuple(float(x) for x in document["weights"]),
                bias=float(document["bias"]),
                threshold=float(document["threshold"]),
                model=str(document["model"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError("malformed sentence stage file") from exc
        if len(stage.weights) != DIMENSIONS + 1:
            raise ModelFileError("the sentence stage has the wrong number of weights")
        return stage

    def to_document(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "encoder": ENCODER_NAME,
            "label": self.label,
            "low": self.low,
            "weights": list(self.weights),
            "bias": self.bias,
            "threshold": self.threshold,
            "model": self.model,
        }


@cache
def default_sentence_stage() -> SentenceStage:
    """The stage shipped with the package, read once per process (the encoder is not loaded
    until a note reaches the band). A :class:`ModelFileError` at start if it was trained on
    another judgment model's scores: retrain it (``data/judgment/session14_e5``)."""
    document = read_model_document(__package__, STAGE_FILE, ModelFileError, "sentence stage")
    return checked(SentenceStage.from_document(document), default_model())


def checked(stage: SentenceStage, model: JudgmentModel) -> SentenceStage:
    """``stage`` if it was trained on ``model``'s scores, else a :class:`ModelFileError`."""
    if stage.model != model_key(model):
        raise ModelFileError("the sentence stage was trained on another judgment model: retrain it")
    return stage
