"""The sentence stage of the privacy backstop (``core/privacy/sentence_backstop.py``): it decides
the notes in its band and only those, a broken encoder leaves the backstop's thresholds to
decide, and a malformed or mismatched file fails at load.

Every note here is invented for these tests (none is an evaluation set's)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from memory_service.core.judgment.model import ModelFileError
from memory_service.core.privacy.learned import LearnedPrivacy, default_privacy_model
from memory_service.core.privacy.normalise import normalise
from memory_service.core.privacy.sentence_backstop import (
    LABELS,
    SentenceBackstop,
    model_key,
)
from memory_service.core.sentences import DIMENSIONS, SentenceEncoderError

WIDTH = len(LABELS) + DIMENSIONS


class Encoder:
    """Counts its calls; returns a fixed unit vector or raises."""

    def __init__(self, fail: bool = False) -> None:
        self.calls = 0
        self.fail = fail

    def __call__(self, text: str) -> Sequence[float]:
        self.calls += 1
        if self.fail:
            raise SentenceEncoderError("no engine")
        return [1.0] + [0.0] * (DIMENSIONS - 1)


def _stage(encoder: Encoder, *, refuse: bool, low: float = 0.3) -> SentenceBackstop:
    """A stage whose answer is fixed by its bias: every note it is asked about is refused as
    ``pii`` (``refuse``) or cleared."""
    scorer = default_privacy_model().scorer
    return SentenceBackstop(
        low=low,
        weights=((0.0,) * WIDTH, (0.0,) * WIDTH),
        bias=(30.0 if refuse else -30.0, -30.0),
        thresholds=(0.5, 0.5),
        model=model_key(scorer),
        encode=encoder,
    )


def _model(stage: SentenceBackstop) -> LearnedPrivacy:
    return LearnedPrivacy(default_privacy_model().scorer, stage)


def _note(text: str) -> str:
    return normalise(text).note


# Scored by the shipped backstop: one over its pii threshold, one in the band under it, one
# far below the band (checked in the tests, so a retrained model fails here, not silently).
OVER = _note("Room number 4021 for the meeting")
IN_BAND = _note("Preferred contact method is email, not phone.")
BELOW = _note("Prefers window seats on short flights.")


def _scores(note: str) -> dict[str, float]:
    scores = default_privacy_model().scorer.scores(note)
    return {label: scores[label] for label in LABELS}


def test_the_shipped_stage_loads_with_the_shipped_backstop() -> None:
    model = default_privacy_model()
    assert model.stage is not None
    assert model.stage.model == model_key(model.scorer)
    assert len(model.stage.weights) == len(LABELS)
    assert all(len(row) == WIDTH for row in model.stage.weights)
    assert 0.0 < model.stage.low < min(t.refuse for t in model.scorer.thresholds.values())


def test_in_its_band_the_stage_decides_both_ways() -> None:
    thresholds = default_privacy_model().scorer.thresholds
    assert _scores(OVER)["pii"] >= thresholds["pii"].refuse
    assert 0.3 <= _scores(IN_BAND)["pii"] < thresholds["pii"].refuse
    clearing, refusing = Encoder(), Encoder()
    assert _model(_stage(clearing, refuse=False)).findings(OVER) == frozenset()
    assert _model(_stage(refusing, refuse=True)).findings(IN_BAND) == {"pii"}
    assert clearing.calls == refusing.calls == 1


def test_below_its_band_the_encoder_is_not_asked() -> None:
    assert max(_scores(BELOW).values()) < 0.3
    encoder = Encoder()
    model = _model(_stage(encoder, refuse=True))
    assert model.findings(BELOW) == frozenset()
    assert model.findings(_note("Sure")) == frozenset()  # under MIN_WORDS: nothing read
    assert encoder.calls == 0 and model.asked == 0


def test_a_broken_encoder_leaves_the_thresholds_to_decide_for_good() -> None:
    encoder = Encoder(fail=True)
    model = _model(_stage(encoder, refuse=False))
    # The stage would clear it; without an encoder the backstop's threshold refuses it.
    assert model.findings(OVER) == {"pii"}
    assert model.findings(IN_BAND) == frozenset()
    assert model.stage is None and encoder.calls == 1


def test_the_encoders_dimensions_must_match() -> None:
    stage = _stage(Encoder(), refuse=True)
    short = replace(stage, encode=lambda text: [0.0] * 3)
    # Treated as an unusable encoder: today's thresholds decide.
    assert _model(short).findings(IN_BAND) == frozenset()


def test_a_document_round_trips() -> None:
    stage = _stage(Encoder(), refuse=True)
    again = SentenceBackstop.from_document(stage.to_document())
    assert (again.low, again.weights, again.bias, again.thresholds, again.model) == (
        stage.low,
        stage.weights,
        stage.bias,
        stage.thresholds,
        stage.model,
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"format": 2},
        {"encoder": "another-encoder"},
        {"weights": [[0.0] * WIDTH]},
        {"weights": [[0.0] * (WIDTH - 1)] * 2},
        {"bias": [0.0]},
        {"thresholds": "high"},
        {"low": None},
    ],
)
def test_a_malformed_document_fails_at_load(changes: dict[str, Any]) -> None:
    document = {**_stage(Encoder(), refuse=True).to_document(), **changes}
    with pytest.raises(ModelFileError):
        SentenceBackstop.from_document(document)


def test_a_stage_trained_on_another_backstop_fails_at_load() -> None:
    stage = replace(_stage(Encoder(), refuse=True), model="another:model")
    with pytest.raises(ModelFileError, match="another backstop"):
        _model(stage)


def test_the_shipped_stage_clears_a_look_alike_the_backstop_refused() -> None:
    # Real encoder: a room booked for a meeting, refused by the word model's pii threshold.
    model = default_privacy_model()
    assert _scores(OVER)["pii"] >= model.scorer.thresholds["pii"].refuse
    assert model.findings(OVER) == frozenset()
