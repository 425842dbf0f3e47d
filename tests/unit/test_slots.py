"""The slot model: what it infers, and how the plan uses it when the agent sends no attribute."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import pytest

from memory_service.adapters.static_embedding import WordLlamaEmbedder
from memory_service.core.consolidation import DecisionReason, MergePlan, Verdict
from memory_service.core.consolidation.rules import content_text
from memory_service.core.consolidation.slots import (
    NONE,
    Scoped,
    SlotModel,
    SlotModelError,
    Values,
    default_slot_model,
    fingerprint,
    text_features,
    value_features,
)
from memory_service.core.model import Attribute, Cardinality, Source
from tests.unit.test_consolidation import (
    NOW,
    ScriptedJudge,
    _active_texts,
    make_global,
    make_note,
    plan,
)

# A two-dimensional toy: the first axis is "car", the second "cuisine"; text says nothing
# except the word "weekends", which the scope head reads as a context.
CAR = (1.0, 0.0)
FOOD = (0.0, 1.0)
BLUR = (math.sqrt(0.5), math.sqrt(0.5))


# A toy value head: a word capitalised inside the note, or a digit, is the value.
VALUES = Values({"s:capital": 8.0, "s:digit": 8.0}, -2.0, 0.5)


def toy_model(
    *,
    threshold: float = 0.8,
    car: Cardinality = Cardinality.SINGLE,
    values: Values | None = None,
) -> SlotModel:
    return SlotModel(
        labels=[NONE, "car", "cuisine"],
        cardinality={"car": car, "cuisine": Cardinality.MULTI},
        text_weights={},
        vector_weights=[(-4.0, 4.0, -4.0), (-4.0, -4.0, 4.0)],
        bias=(0.0, 0.0, 0.0),
        threshold=threshold,
        scope_words=frozenset({"weeke", "weekd"}),
        scoped=Scoped({"w:weekends": 10.0}, -5.0, 0.5),
        values=values,
    )


def run(
    older: str,
    newer: str,
    older_vector: tuple[float, ...],
    newer_vector: tuple[float, ...],
    *,
    model: SlotModel | None = None,
    older_changes: Mapping[str, Any] | None = None,
    newer_changes: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> tuple[MergePlan, set[str]]:
    """An older global and a newer note with these vectors, planned with ``model``."""
    old = make_global(older, **(older_changes or {}))
    note = make_note(newer, **(newer_changes or {}))
    vectors = {old.id: older_vector, note.id: newer_vector}
    result = plan(
        [note], [old], vectors=vectors, meanings=vectors, slots=model or toy_model(), **kwargs
    )
    return result, _active_texts(result, [old, note])


def test_two_notes_of_one_inferred_single_slot_supersede_the_older() -> None:
    result, active = run("Drives a Golf", "Drives a Tesla Model 3", CAR, CAR)
    assert active == {"Drives a Tesla Model 3"}
    assert DecisionReason.INFERRED_SLOT in [d.reason for d in result.decisions]


@pytest.mark.parametrize(
    ("older_vector", "newer_vector", "model"),
    [
        (CAR, FOOD, toy_model()),  # two slots
        (FOOD, FOOD, toy_model()),  # a multi-valued slot keeps its values
        (CAR, BLUR, toy_model()),  # the newer note is not sure enough
        (CAR, CAR, toy_model(car=Cardinality.MULTI)),
    ],
)
def test_without_one_confident_single_slot_both_stay(
    older_vector: tuple[float, ...], newer_vector: tuple[float, ...], model: SlotModel
) -> None:
    _, active = run(
        "Drives a Golf", "Drives a Tesla Model 3", older_vector, newer_vector, model=model
    )
    assert active == {"Drives a Golf", "Drives a Tesla Model 3"}


def test_a_scoped_note_never_supersedes_by_slot() -> None:
    _, active = run("Drives a Golf", "Drives a Tesla on weekends", CAR, CAR)
    assert active == {"Drives a Golf", "Drives a Tesla on weekends"}


def test_a_note_about_someone_else_never_supersedes_by_slot() -> None:
    _, active = run("Drives a Golf", "Sister drives a Tesla", CAR, CAR)
    assert active == {"Drives a Golf", "Sister drives a Tesla"}


def test_two_notes_naming_the_same_scope_supersede_and_different_scopes_do_not() -> None:
    model = toy_model()
    assert model.same_scope("Drives a Golf on weekends", "Drives a Tesla on weekends")
    assert not model.same_scope("Drives a Golf on weekdays", "Drives a Tesla on weekends")
    assert not model.same_scope("Drives a Golf", "Drives a Tesla on weekends")
    assert model.same_scope("Drives a Golf", "Drives a Tesla")


def test_no_vector_no_inference() -> None:
    model = toy_model()
    assert model.infer("Drives a Golf", None) is None
    assert model.infer("Drives a Golf", (1.0,)) is None  # fewer dimensions than trained on
    slot = model.infer("Drives a Golf", CAR)
    assert slot is not None and (slot.key, slot.cardinality) == ("car", Cardinality.SINGLE)


def test_the_judges_verdict_overrides_the_inferred_slot() -> None:
    judge = ScriptedJudge(lambda pair: Verdict.UNRELATED)
    _, active = run("Drives a Golf", "Drives a Tesla Model 3", CAR, CAR, judge=judge)
    assert judge.calls
    assert active == {"Drives a Golf", "Drives a Tesla Model 3"}


def test_a_guess_never_supersedes_a_stated_fact_by_inferred_slot() -> None:
    _, active = run(
        "Drives a Golf",
        "Probably drives a Tesla",
        CAR,
        CAR,
        newer_changes={"source": Source.MODEL_INFERRED},
    )
    assert active == {"Drives a Golf"}


def test_an_agent_attribute_meets_an_inferred_slot_of_the_same_key() -> None:
    _, active = run(
        "Drives a Golf",
        "Drives a Tesla Model 3",
        CAR,
        CAR,
        older_changes={
            "attribute": Attribute("car", Cardinality.SINGLE),
            "updated_at": NOW - timedelta(days=3),
        },
    )
    assert active == {"Drives a Tesla Model 3"}


@pytest.mark.parametrize(
    ("older", "newer", "superseded"),
    [
        ("Drives a Golf", "Drives a Tesla Model 3", True),  # two values
        ("Drives a Golf", "Has a Golf", False),  # one value restated
        ("Drives a Golf", "Drives a car", False),  # no sure value on one side
    ],
)
def test_with_a_value_head_two_notes_of_one_slot_supersede_only_when_their_values_differ(
    older: str, newer: str, superseded: bool
) -> None:
    result, active = run(older, newer, CAR, CAR, model=toy_model(values=VALUES))
    assert (active == {newer}) is superseded
    assert (DecisionReason.INFERRED_SLOT in [d.reason for d in result.decisions]) is superseded


def test_the_value_head_reads_the_values_words() -> None:
    model = toy_model(values=VALUES)
    assert VALUES.words("Drives a Tesla Model 3") == {"tesla", "model", "3"}
    assert model.values_differ("Drives a Golf", "Drives a Tesla")
    assert not model.values_differ("Drives a Golf", "Owns a Golf")
    assert not model.values_differ("Drives a Golf", "Drives a car")
    assert model.one_fact("Drives a Golf", "Drives a Tesla")
    assert not model.one_fact("Drives a Golf", "Drives a Tesla on weekends")
    # A model file without a value head lets every pair of one scope through, as before.
    assert toy_model().values_differ("Drives a Golf", "Drives a car")


def test_value_features_read_shape_and_neighbours() -> None:
    (first, _), (word, features) = value_features("Conduit une Zoé")[::2]
    (digit, shape) = value_features("une Zoé 2")[2]
    assert (first, word, digit) == ("conduit", "zoe", "2")
    assert {"w:zoe", "l:une", "r:>", "s:capital"} <= features
    assert {"s:digit", "l:zoe", "r:>"} <= shape


def test_the_model_file_round_trips_and_a_malformed_one_is_refused() -> None:
    model = toy_model()
    again = SlotModel.from_document(model.to_document())
    assert again.probabilities("Drives a Golf", CAR) == model.probabilities("Drives a Golf", CAR)
    document = model.to_document()
    del document["scoped"]
    with pytest.raises(SlotModelError):
        SlotModel.from_document(document)
    with pytest.raises(SlotModelError):
        SlotModel.from_document({**model.to_document(), "format": 99})
    assert "values" not in model.to_document()
    valued = toy_model(values=VALUES)
    again = SlotModel.from_document(valued.to_document())
    assert again.values == VALUES
    with pytest.raises(SlotModelError):
        SlotModel.from_document({**valued.to_document(), "values": {"bias": 0.0}})


def test_text_features_fold_accents_and_read_character_grams() -> None:
    assert {"w:voiture", "c:<voi", "c:ure>"} <= text_features("Sa Voiture")
    assert "w:electrique" in text_features("électrique")


@pytest.fixture(scope="module")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder.load()


def test_the_shipped_model_matches_todays_features() -> None:
    model = default_slot_model()
    assert model.metadata["features"] == fingerprint()
    assert NONE in model.labels and model.vector_dims == 256
    assert 0.5 <= model.threshold < 1.0


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Uses an iPhone", "Switched to an Android phone"),
        ("Works as an accountant", "Retrained and now teaches maths"),
        ("Drives a Golf", "Drives a Tesla Model 3"),
        ("Uses Excel for budgeting", "Manages accounts with a budgeting app"),
    ],
)
def test_the_shipped_model_puts_an_update_in_one_single_slot(
    embedder: WordLlamaEmbedder, older: str, newer: str
) -> None:
    model = default_slot_model()
    vectors = embedder.embed([content_text(older), content_text(newer)])
    a, b = (model.infer(t, v) for t, v in zip((older, newer), vectors, strict=True))
    assert a is not None and b is not None
    assert a.key == b.key and a.cardinality is Cardinality.SINGLE


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Prefers window seats on long flights", "Prefers aisle seats on short flights"),
        ("Works from home on Mondays", "Works from the office on Wednesdays"),
    ],
)
def test_the_shipped_scope_check_keeps_two_contexts_apart(a: str, b: str) -> None:
    assert not default_slot_model().same_scope(a, b)
