"""The special categories' sentence stage (core/privacy/sensitive_stage.py): it decides only the
notes the structure leaves alone whose model score falls in its band, and holds when the
encoder cannot be loaded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from memory_service.core.judgment.model import ModelFileError
from memory_service.core.judgment.sentence_stage import SentenceStage
from memory_service.core.privacy.sensitive import (
    SensitiveCategory,
    learned_model,
    learned_stage,
    model_view,
    sensitive_categories,
)
from memory_service.core.privacy.sensitive_stage import SensitiveStage, checked, model_key
from memory_service.core.sentences import DIMENSIONS, SentenceEncoderError

# Held by the shipped model on its words alone (score in the shipped band), nothing structural.
ORDINARY_HELD_BY_WORDS = "Sings in the tenor section"


def _flat(text: str) -> Sequence[float]:
    return (0.0,) * DIMENSIONS


def _no_encoder(text: str) -> Sequence[float]:
    raise SentenceEncoderError("cannot be loaded")


def _stage(bias: float, low: float = 0.0, high: float = 1.01) -> SensitiveStage:
    """A stage that reads nothing but its bias: it always holds (bias > 0) or never does."""
    stage = SentenceStage(
        label="sensitive",
        low=low,
        weights=(0.0,) * (DIMENSIONS + 1),
        bias=bias,
        threshold=0.5,
        model=model_key(learned_model()),
        encode=_flat,
    )
    return SensitiveStage(stage, high, clear=0.5)


def _score(text: str) -> float:
    model = learned_model()
    return model.hold_score(model.scorer.scores(model_view(text)))


CLEARS, HOLDS = _stage(-10.0), _stage(10.0)


def test_the_stage_decides_a_note_in_its_band() -> None:
    assert sensitive_categories(ORDINARY_HELD_BY_WORDS, stage=HOLDS)
    assert sensitive_categories(ORDINARY_HELD_BY_WORDS, stage=CLEARS) == frozenset()


def test_the_stage_may_hold_what_the_model_alone_would_not() -> None:
    text = "Collects vintage postcards."
    assert _score(text) < learned_model().scorer.thresholds["sensitive"].refuse
    assert sensitive_categories(text, stage=CLEARS) == frozenset()
    assert sensitive_categories(text, stage=HOLDS)


def test_the_structure_holds_whatever_the_stage_says() -> None:
    assert sensitive_categories("Allergic to peanuts", stage=CLEARS) == {SensitiveCategory.HEALTH}
    assert sensitive_categories("Is a practising Catholic", stage=CLEARS)


def test_a_score_above_the_band_is_held_by_the_model() -> None:
    assert _score(ORDINARY_HELD_BY_WORDS) > 0.4
    above = _stage(-10.0, low=0.0, high=0.4)
    assert sensitive_categories(ORDINARY_HELD_BY_WORDS, stage=above)


def test_a_score_below_the_band_is_not_asked() -> None:
    text = "Prefers aisle seats on long flights."
    below = replace(HOLDS, stage=replace(HOLDS.stage, low=0.99))
    assert sensitive_categories(text, stage=below) == frozenset()


def test_an_encoder_that_cannot_load_holds_the_note() -> None:
    broken = replace(CLEARS, stage=replace(CLEARS.stage, encode=_no_encoder))
    assert broken.holds(0.5, ORDINARY_HELD_BY_WORDS, refuse=0.4)
    assert broken.holds(0.2, ORDINARY_HELD_BY_WORDS, refuse=0.4)
    assert sensitive_categories(ORDINARY_HELD_BY_WORDS, stage=broken)


def test_the_shipped_stage_reads_the_shipped_model() -> None:
    stage = learned_stage()
    assert stage.stage.label == "sensitive"
    assert stage.stage.low < stage.high
    assert checked(stage, learned_model()) is stage


def test_a_stage_of_another_model_is_refused_at_start() -> None:
    other = replace(CLEARS, stage=replace(CLEARS.stage, model="another:model:0.5"))
    with pytest.raises(ModelFileError):
        checked(other, learned_model())


def test_the_file_round_trips_and_refuses_an_empty_band() -> None:
    document = HOLDS.to_document()
    read = SensitiveStage.from_document(document)
    assert (read.high, read.clear, read.stage.low, read.stage.bias) == (HOLDS.high, 0.5, 0.0, 10.0)
    with pytest.raises(ModelFileError):
        SensitiveStage.from_document({**document, "high": 0.0})
    with pytest.raises(ModelFileError):
        SensitiveStage.from_document({**document, "label": "speculative"})
    with pytest.raises(ModelFileError):
        SensitiveStage.from_document({k: v for k, v in document.items() if k != "high"})
    with pytest.raises(ModelFileError):
        SensitiveStage.from_document({**document, "clear": 0.9})  # clears more easily than it holds


def test_releasing_a_hold_takes_more_than_adding_one() -> None:
    """A probability between ``clear`` and ``threshold`` keeps what the model holds and adds
    nothing it would not."""
    middle = SensitiveStage(replace(HOLDS.stage, bias=0.0, threshold=0.6), 1.01, clear=0.4)
    assert middle.holds(0.5, "any note", refuse=0.45)
    assert not middle.holds(0.3, "any note", refuse=0.45)


@pytest.mark.parametrize(
    "text",
    [
        "Sings in the tenor section",
        "Throws the ball with their left",
        "Has an induction cooktop",
        "Adhère à la Ligue pour la protection des oiseaux depuis 2015",
    ],
)
def test_the_shipped_stage_clears_ordinary_notes_the_words_held(text: str) -> None:
    """Seen notes (the consolidation suites): the figures are in data/sensitive/session15_e5."""
    assert sensitive_categories(text, stage=CLEARS) == frozenset()  # in the band
    assert sensitive_categories(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "Takes sertraline every morning.",
        "Syndiqué à la CGT depuis vingt ans.",
        "Porta un apparecchio acustico.",
    ],
)
def test_the_shipped_stage_keeps_holding_special_categories(text: str) -> None:
    assert sensitive_categories(text)
