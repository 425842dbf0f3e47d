"""The sentence shapes the judgment model reads beside its words (core/judgment/shapes.py)."""

from __future__ import annotations

import pytest

from memory_service.core.judgment.features import features, fingerprint
from memory_service.core.judgment.model import JudgmentModel, ModelFileError, Thresholds, checked
from memory_service.core.judgment.shapes import (
    shape_classes,
    shape_features,
    shapes_fingerprint,
)


@pytest.mark.parametrize(
    ("shape", "notes"),
    [
        (
            "arrow",
            [
                "Buys nappies every week -> has a baby.",
                "Couches taille 4 chaque semaine → bébé à la maison.",
                "Katzenstreu bei jedem Einkauf = Katzenbesitzerin.",
            ],
        ),
        (
            "consequence",
            [
                "Bestellt um 3 Uhr nachts, arbeitet also nachts.",
                "Croquettes en sac de 12 kg tous les mois, donc un grand chien.",
                "Pide siempre XL, por tanto lleva equipo deportivo.",
                "Ogni settembre va in Giappone, quindi ha la polizza annuale.",
            ],
        ),
        (
            "source_first",
            [
                "Vu le montant des pourboires, client aisé.",
                "From the typing style, an older user.",
                "Anhand des Warenkorbs: Läufer.",
            ],
        ),
        (
            "evidence_then",
            ["Tips 30% on every ride. Well-off.", "Nunca compra carne -> vegetariana"],
        ),
        (
            "stated",
            [
                "Said they have a Great Dane.",
                "A dit qu'elle court trois fois par semaine.",
                "Dijo que corre tres veces por semana.",
                "Hat uns erzählt, dass sie ein Baby hat.",
                "Grundschullehrerin \u2013 hat sie im Chat erwähnt.",
                "Trabaja de noche en una panadería, según él mismo.",
                "Travaille de nuit à l'hôpital, selon ses propres mots.",
                "« J'emmène mes enfants à l'école tous les matins. »",
                '"Hago surf todos los domingos", escribió en su perfil.',
            ],
        ),
    ],
)
def test_shapes_in_five_languages(shape: str, notes: list[str]) -> None:
    for note in notes:
        assert shape in shape_classes(note), note


@pytest.mark.parametrize(
    "note",
    [
        "Said hello.",
        "Travels with a folding bicycle.",
        "Goes to the gym every Tuesday at 7am",
        "Der Kunde wohnt in Köln seit 2010.",
        'User said "ok cool".',
    ],
)
def test_plain_notes_have_no_inference_or_source_shape(note: str) -> None:
    assert not shape_classes(note) & {"arrow", "consequence", "source_first", "stated"}


@pytest.mark.parametrize(
    "note",
    [
        "Vegetarian, so no meat in meal suggestions.",
        "Works night shifts, so calls are best after 2pm.",
        "Ahora trabaja desde casa, así que prefiere las entregas por la mañana.",
    ],
)
def test_a_fact_and_its_use_is_not_a_conclusion_about_the_person(note: str) -> None:
    found = shape_classes(note)
    assert "then_action" in found
    assert not found & {"then_attr", "evidence_then"}


def test_a_conclusion_about_the_person_after_the_evidence() -> None:
    for note in ("Buys nappies every week -> has a baby.", "Tips 30% on every ride. Well-off."):
        assert {"then_attr", "evidence_then"} <= shape_classes(note)


def test_shape_features_pair_each_shape_with_the_cue_classes() -> None:
    found = shape_features("Buys nappies every week -> has a baby.")
    assert {"sh:arrow", "sh:evidence_then", "shx:arrow+habit"} <= found
    assert not found & features("Buys nappies every week -> has a baby.")


def _model(metadata: dict[str, object]) -> JudgmentModel:
    labels = ("speculative",)
    weights = {"sh:arrow": (4.0,)}
    return JudgmentModel(labels, weights, [-2.0], {"speculative": Thresholds(0.5, 0.5)}, metadata)


def test_only_a_model_trained_with_the_shapes_reads_them() -> None:
    note = "Buys nappies every week -> has a baby."
    with_shapes = _model({"features": fingerprint(), "shapes": shapes_fingerprint()})
    without = _model({"features": fingerprint()})
    assert with_shapes.scores(note)["speculative"] > 0.5 > without.scores(note)["speculative"]
    assert checked(with_shapes) is with_shapes
    assert checked(without) is without


def test_a_model_trained_on_other_shapes_fails_at_start() -> None:
    stale = _model({"features": fingerprint(), "shapes": "0" * 16})
    with pytest.raises(ModelFileError):
        checked(stale)
