"""A second stage for the pair model: the sentence encoder asked about the pairs it leans
towards calling related (session 16, issue 12).

The pair model (:mod:`.pairs`) reads static word vectors and the rules' lexical view:
"Doesn't drink alcohol" / "Is teetotal" or "Makes only raw-milk cheeses" / "Never pasteurises
the milk she turns into cheese" share no word and little of their averaged vectors, so it scores
them below its bar; and a look-alike second value it scores high ("Dislikes smoky Lapsang" /
"Can't stand floral jasmine tea") costs a true fact. Fed to the model as one more feature, the
sentence encoder's cosine gained scenarios held out but lost a fact, and the plan encoded
every memory the model was asked about (session 14, ``data/pairs/REPORT.md``).

The stage reads only the pairs whose ``P(related)`` by the pair model reaches ``low``: for
them, and only them, the plan encodes the two texts (once per memory and plan, in one call),
and a logistic regression over ``[logit P(related), cosine of the two sentence vectors, one
note a guess]`` decides in place of the model's thresholds, either way: it may call a pair
the model left below its bar related, or keep both notes of a pair the model would have
merged. Below ``low`` (under both of the model's thresholds) nothing is encoded and the pair
stays unrelated, as before. It is trained by ``tools/train_pair_stage.py`` on pairs the
shipped pair model never saw, so its input is the score the model gives a new writer's pair.

Fail closed: a pair in the band whose sentence vectors are missing (no encoder, or one of
another name than the stage was trained on) is left unrelated, both notes kept.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# What the stage reads, in the order of ``weights``.
STAGE_FEATURES = ("logit_related", "sentence_cosine", "guess_meets_fact")
_EPSILON = 1e-6


class PairStageError(ValueError):
    """The stage in the pair model file is malformed: raised at load, never per pair."""


@dataclass(frozen=True)
class PairStage:
    """``low`` starts the band; a pair in it is related when the stage's probability reaches
    ``threshold`` (``hypothesis_threshold`` when one note is a guess and the other a
    statement); ``encoder`` names the sentence encoder whose cosines it was trained on."""

    low: float
    weights: tuple[float, ...]
    bias: float
    threshold: float
    hypothesis_threshold: float
    encoder: str

    def __post_init__(self) -> None:
        if len(self.weights) != len(STAGE_FEATURES):
            raise PairStageError("the stage's weights do not match its features")
        if not all(0.0 < x <= 1.0 for x in (self.low, self.threshold, self.hypothesis_threshold)):
            raise PairStageError("the stage's band and thresholds must be in (0, 1]")
        if not self.encoder:
            raise PairStageError("the stage names no sentence encoder")

    def reaches(self, related: float) -> bool:
        """Whether the pair model's ``P(related)`` puts the pair in the stage's band."""
        return related >= self.low

    def probability(self, related: float, cosine: float, guess_meets_fact: bool) -> float:
        clipped = min(max(related, _EPSILON), 1.0 - _EPSILON)
        inputs = (math.log(clipped / (1.0 - clipped)), cosine, float(guess_meets_fact))
        z = self.bias + sum(w * x for w, x in zip(self.weights, inputs, strict=True))
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0

    def bar(self, guess_meets_fact: bool) -> float:
        return self.hypothesis_threshold if guess_meets_fact else self.threshold

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> PairStage:
        try:
            return cls(
                low=float(document["low"]),
                weights=tuple(float(w) for w in document["weights"]),
                bias=float(document["bias"]),
                threshold=float(document["threshold"]),
                hypothesis_threshold=float(document["hypothesis_threshold"]),
                encoder=str(document["encoder"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PairStageError("malformed pair stage") from exc

    def to_document(self) -> dict[str, Any]:
        return {
            "low": self.low,
            "weights": list(self.weights),
            "bias": self.bias,
            "threshold": self.threshold,
            "hypothesis_threshold": self.hypothesis_threshold,
            "encoder": self.encoder,
            "features": list(STAGE_FEATURES),
        }
