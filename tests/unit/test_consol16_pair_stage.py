"""Session 16: the pair model's sentence stage decides the pairs the model scores in its band
(either way), encodes only their memories, in one call per plan, and keeps both notes when it
has no sentence vectors."""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import replace

import pytest

from memory_service.core.consolidation import plan as plan_module
from memory_service.core.consolidation.pair_stage import PairStage, PairStageError
from memory_service.core.consolidation.pairs import (
    PairModel,
    PairModelError,
    default_pair_model,
    load_pair_model,
)
from memory_service.core.sentences import SentenceEncoderError
from tests.unit.test_consol13_sentences import CountingEncoder
from tests.unit.test_consolidation import _active_texts, make_global, make_note, plan
from tests.unit.test_pairs import CITY, DIET, TOY_WORDS, toy_model

# Content vectors the toy model scores at P(related) ~0.27: in the band, under its bar (0.8).
ANGLE = (0.45, math.sqrt(1 - 0.45**2), 0.0, 0.0)


def staged(*, low: float = 0.2, encoder: str = CountingEncoder.model) -> PairModel:
    """The toy model (content cosine) with a stage reading the sentence cosine alone:
    related from a sentence cosine of ~0.64 (P 0.8)."""
    model = toy_model()
    stage = PairStage(
        low=low,
        weights=(0.0, 10.0, 0.0),
        bias=-5.0,
        threshold=0.8,
        hypothesis_threshold=0.8,
        encoder=encoder,
    )
    return PairModel.from_document({**model.to_document(), "sentence_stage": stage.to_document()})


def run(
    older: str,
    newer: str,
    older_meaning: tuple[float, ...],
    newer_meaning: tuple[float, ...],
    model: PairModel,
    encoder: CountingEncoder | None,
) -> set[str]:
    old, note = make_global(older), make_note(newer)
    vectors = {old.id: older_meaning, note.id: newer_meaning}
    result = plan(
        [note],
        [old],
        vectors=vectors,
        meanings=vectors,
        pairs=model,
        embedder=TOY_WORDS,
        sentences=encoder,
    )
    return _active_texts(result, [old, note])


def test_a_pair_under_the_models_bar_is_related_by_its_sentences() -> None:
    both = {"Is teetotal", "Never drinks alcohol"}
    assert run("Is teetotal", "Never drinks alcohol", ANGLE, DIET, toy_model(), None) == both
    encoder = CountingEncoder()
    kept = run("Is teetotal", "Never drinks alcohol", ANGLE, DIET, staged(), encoder)
    assert kept == {"Never drinks alcohol"}
    assert encoder.calls == [["Is teetotal", "Never drinks alcohol"]]


def test_a_pair_over_the_models_bar_keeps_both_when_the_sentences_differ() -> None:
    # The toy model merges any two notes of one content vector; the stage reads the texts.
    assert run("Is teetotal", "Cannot swim", DIET, DIET, toy_model(), None) == {"Cannot swim"}
    kept = run("Is teetotal", "Cannot swim", DIET, DIET, staged(), CountingEncoder())
    assert kept == {"Is teetotal", "Cannot swim"}


def test_below_the_band_nothing_is_encoded() -> None:
    encoder = CountingEncoder()
    kept = run("Is teetotal", "Never drinks alcohol", DIET, CITY, staged(), encoder)
    assert kept == {"Is teetotal", "Never drinks alcohol"}
    assert encoder.calls == []


def test_only_the_pairs_in_the_band_are_encoded_in_one_call() -> None:
    old = make_global("Is teetotal")
    first, second = make_note("Never drinks alcohol"), make_note("Lives in Lyon")
    # "Lives in Lyon" is far from both (under the band); the first note is in it.
    vectors = {old.id: ANGLE, first.id: DIET, second.id: (0.0, 0.0, 1.0, 0.0)}
    encoder = CountingEncoder()
    result = plan(
        [first, second],
        [old],
        vectors=vectors,
        meanings=vectors,
        pairs=staged(),
        embedder=TOY_WORDS,
        sentences=encoder,
    )
    assert encoder.calls == [["Is teetotal", "Never drinks alcohol"]]
    assert _active_texts(result, [old, first, second]) == {"Never drinks alcohol", "Lives in Lyon"}


def test_an_encoder_of_another_name_keeps_both() -> None:
    model = staged(encoder="another-encoder")
    kept = run("Is teetotal", "Never drinks alcohol", DIET, DIET, model, CountingEncoder())
    assert kept == {"Is teetotal", "Never drinks alcohol"}


def test_an_encoder_that_cannot_load_keeps_both(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> CountingEncoder:
        raise SentenceEncoderError("not installed")

    monkeypatch.setattr(plan_module, "default_sentence_encoder", missing)
    kept = run("Is teetotal", "Never drinks alcohol", DIET, DIET, staged(), None)
    assert kept == {"Is teetotal", "Never drinks alcohol"}


def test_the_stage_survives_the_file_and_a_malformed_one_is_refused() -> None:
    model = staged()
    data = gzip.compress(json.dumps(model.to_document()).encode())
    assert load_pair_model(data).stage == model.stage
    document = model.to_document()
    with pytest.raises(PairModelError):
        PairModel.from_document({**document, "sentence_stage": {"low": 0.2}})
    # A band starting above the guess's bar would leave pairs the model relates undecided.
    with pytest.raises(PairModelError):
        staged(low=0.9)
    with pytest.raises(PairStageError):
        replace(model.stage, weights=(1.0,))  # type: ignore[arg-type]


def test_the_stage_probability_reads_logit_cosine_and_guess() -> None:
    stage = PairStage(0.3, (1.0, 2.0, -1.0), -1.0, 0.5, 0.4, "e5")
    assert stage.probability(0.5, 0.5, False) == pytest.approx(0.5)
    assert stage.probability(0.5, 0.5, True) == pytest.approx(1 / (1 + math.e))
    assert stage.reaches(0.3) and not stage.reaches(0.29)
    assert stage.bar(True) == 0.4 and stage.bar(False) == 0.5


def test_the_shipped_model_carries_its_stage() -> None:
    stage = default_pair_model().stage
    assert stage is not None
    assert stage.low <= default_pair_model().hypothesis_threshold
