"""A second stage for the special categories: the sentence encoder asked about the notes the
learned model holds, or nearly holds, on words alone (session 15).

The word/char-gram model (:mod:`.sensitive_model`) holds ordinary notes whose words it learnt
from sensitive ones: "Sings in the tenor section" (a *section*, a voice), "Member of the
Tillmoor Bird Club" (a *member*, as of a party or a union), "Has a CCS adapter" (*has* a
thing, as one has a condition). For a note the structure leaves alone (:func:`.sensitive.
structural_categories` finds nothing) and whose hold score falls in ``[low, high)``, a logistic
regression over ``[logit(score), e5 vector]`` (the judgment stage's
:class:`~memory_service.core.judgment.sentence_stage.SentenceStage`, label ``sensitive``)
decides whether the note is held, in place of the model's hold threshold. Below ``low`` nothing
is asked and the note is not held; at ``high`` and above the model holds it as before; a note
the structure names is held whatever either model says.

Trained on the out-of-fold hold scores of five writer folds of the special-categories corpus
(scripts in ``data/sensitive/session15_e5``). Two thresholds, both from grouped cross-validation
over the folds: releasing a note the model holds may cost at most 5 % of the sensitive notes
the model held in the band (``clear``); holding a note the model would not (``threshold``) is
set so that the stage holds as many sensitive notes of the band as the model alone did. Fails
closed: an encoder that cannot be loaded holds the note. The weights ship beside this module
(``sensitive_stage.json.gz``), checked at start against the model whose scores they read.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from memory_service.core.judgment.model import ModelFileError
from memory_service.core.judgment.sentence_stage import SentenceStage
from memory_service.core.model_files import read_model_document
from memory_service.core.privacy.sensitive_model import ANY, SensitiveModel
from memory_service.core.sentences import SentenceEncoderError

STAGE_FILE = "sensitive_stage.json.gz"

_log = logging.getLogger(__name__)


def model_key(model: SensitiveModel) -> str:
    """What the stage records of the model whose hold scores it reads: a retrained model needs
    a retrained stage."""
    metadata = model.scorer.metadata
    hold = model.scorer.thresholds[ANY].refuse
    return f"{metadata.get('features')}:{metadata.get('train_notes')}:{hold}"


@dataclass(frozen=True)
class SensitiveStage:
    """``stage`` decides the notes scored from its ``low`` up to ``high`` (exclusive): a note
    the model would hold stays held at a probability of ``clear`` or above, a note it would not
    is held at the stage's ``threshold`` or above (``clear <= threshold``: releasing a hold
    takes more than adding one)."""

    stage: SentenceStage
    high: float
    clear: float

    def reaches(self, score: float) -> bool:
        """Whether a note the structure leaves alone, scored ``score``, is the stage's to decide."""
        return self.stage.low <= score < self.high

    def holds(self, score: float, text: str, refuse: float) -> bool:
        """Whether the note is held; ``refuse`` is the model's own hold threshold. Fails closed:
        when the encoder cannot be loaded the note is held (one question to the user), never
        saved unread and never an error."""
        try:
            probability = self.stage.probability(score, text)
        except SentenceEncoderError:
            _log.warning(
                "sentence encoder unavailable: a note in the special-categories band is held"
            )
            return True
        return probability >= (self.clear if score >= refuse else self.stage.threshold)

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> SensitiveStage:
        stage = SentenceStage.from_document(document)
        if stage.label != ANY:
            raise ModelFileError(f"the special-categories stage must decide {ANY!r}")
        try:
            high, clear = float(document["high"]), float(document["clear"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError("malformed special-categories stage file") from exc
        if not stage.low < high:
            raise ModelFileError("the special-categories stage's band is empty")
        if not clear <= stage.threshold:
            raise ModelFileError("the special-categories stage clears more easily than it holds")
        return cls(stage, high, clear)

    def to_document(self) -> dict[str, Any]:
        return {**self.stage.to_document(), "high": self.high, "clear": self.clear}


def checked(stage: SensitiveStage, model: SensitiveModel) -> SensitiveStage:
    """``stage`` if it was trained on ``model``'s scores, else a :class:`ModelFileError`."""
    if stage.stage.model != model_key(model):
        raise ModelFileError(
            "the special-categories stage was trained on another model's scores: retrain it"
        )
    return stage


@cache
def default_sensitive_stage(model: SensitiveModel) -> SensitiveStage:
    """The stage shipped with the package for the shipped ``model``, read once per process (the
    encoder is not loaded until a note reaches the band); a :class:`ModelFileError` at start if
    the file is missing, malformed or trained on another model's scores."""
    document = read_model_document(
        __package__, STAGE_FILE, ModelFileError, "special-categories stage"
    )
    return checked(SensitiveStage.from_document(document), model)
