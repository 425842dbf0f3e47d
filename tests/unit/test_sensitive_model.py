"""The learned half of the special-categories detector: loads, decides, holds what lists miss."""

from __future__ import annotations

import gzip
import json
from importlib import resources

import pytest

from memory_service.core.judgment.features import fingerprint
from memory_service.core.judgment.model import JudgmentModel, ModelFileError, Thresholds
from memory_service.core.model import ReasonCode
from memory_service.core.privacy.sensitive import (
    SensitiveCategory,
    check_sensitive,
    model_view,
    sensitive_categories,
    structural_categories,
)
from memory_service.core.privacy.sensitive_model import (
    ANY,
    SensitiveModel,
    default_sensitive_model,
)

VALUES = frozenset(c.value for c in SensitiveCategory)


def _tiny(hold: float = 0.6) -> SensitiveModel:
    labels = (ANY, "health", "union_membership")
    weights = {
        "w:insulin": (4.0, 4.0, -2.0),
        "w:cgt": (4.0, -2.0, 4.0),
        "w:shoes": (-4.0, -4.0, -4.0),
    }
    thresholds = {
        ANY: Thresholds(hold, hold),
        "health": Thresholds(0.9, 0.9),
        "union_membership": Thresholds(0.9, 0.9),
    }
    return SensitiveModel(JudgmentModel(labels, weights, (0.0, 0.0, 0.0), thresholds), VALUES)


def test_the_shipped_model_loads_once_and_names_only_known_categories() -> None:
    model = default_sensitive_model(VALUES)

    assert model is default_sensitive_model(VALUES)
    assert model.scorer.labels[0] == ANY
    assert set(model.scorer.labels[1:]) <= VALUES


def test_a_model_naming_an_unknown_category_or_without_the_hold_label_is_refused() -> None:
    scorer = _tiny().scorer

    with pytest.raises(ModelFileError):
        SensitiveModel(scorer, frozenset({"health"}))
    reordered = JudgmentModel(scorer.labels[::-1], {}, (0.0, 0.0, 0.0), dict(scorer.thresholds))
    with pytest.raises(ModelFileError):
        SensitiveModel(reordered, VALUES)


def test_the_model_holds_by_its_threshold_and_names_the_best_category() -> None:
    model = _tiny()

    assert model.categories("Takes insulin") == {"health"}
    assert model.categories("Joined the CGT") == {"union_membership"}
    assert model.categories("Buys shoes") == frozenset()
    # Below the hold threshold nothing is named, whatever the categories score.
    assert _tiny(hold=0.999).categories("Takes insulin") == frozenset()


def test_structure_or_model_either_one_holds_the_note() -> None:
    model = _tiny()

    assert sensitive_categories("Takes insulin", model) == {SensitiveCategory.HEALTH}
    assert sensitive_categories("Is a practising Catholic", model) == {SensitiveCategory.RELIGION}


def test_a_reason_from_the_model_names_categories_never_words() -> None:
    [reason] = check_sensitive("Takes sertraline every morning.")

    assert reason.code is ReasonCode.SENSITIVE
    assert set(reason.detail.split(", ")) <= VALUES


# --- notes no list names (written for this test, in none of the training files) -------------

# A drug, a party or a union by its name: what a list would have to name one by one.
UNSEEN_SENSITIVE = [
    "Takes levothyroxine first thing every day.",
    "Had a kidney transplant two years ago.",
    "Se pone insulina antes de cenar.",
    "Nimmt jeden Morgen Antidepressiva.",
    "Prend du lithium depuis des années.",
    "Prende la metformina a pranzo.",
    "Member of the Unite union at work.",
    "Adhérent à la CFDT depuis 2010.",
    "Votes for the Liberal Democrats.",
    "Vota a Sumar desde siempre.",
    "Is HIV positive and on treatment.",
    "Went to prison for burglary in his twenties.",
]
# Plain notes of the same domains: a chosen diet, a job, a topic, a brand.
UNSEEN_ORDINARY = [
    "Prefers oat milk in coffee.",
    "Works as a nurse on night shifts.",
    "Reads the Financial Times every morning.",
    "Shops at the pharmacy near the station.",
    "Prend le métro ligne 4 tous les jours.",
    "Le gusta el cine de autor.",
    "Fährt jeden Sommer an die Ostsee.",
    "Compra sempre scarpe Geox.",
    "Likes political thrillers on TV.",
    "Follows the union budget news for work.",
    "Goes running three times a week.",
    "Wears size M shirts.",
]
# Measured on the shipped model: 10/12 unseen sensitive notes held (the structure alone 5/12),
# 0/12 ordinary notes held. The floors leave room for a retraining, none for a broken model.
MIN_RECALL_UNSEEN = 0.6
MAX_ORDINARY_HELD_UNSEEN = 1


def test_most_unseen_sensitive_notes_are_held() -> None:
    held = [text for text in UNSEEN_SENSITIVE if sensitive_categories(text)]

    assert len(held) / len(UNSEEN_SENSITIVE) >= MIN_RECALL_UNSEEN, set(UNSEEN_SENSITIVE) - set(held)


def test_the_model_keeps_unseen_ordinary_notes() -> None:
    held = [text for text in UNSEEN_ORDINARY if sensitive_categories(text)]

    assert len(held) <= MAX_ORDINARY_HELD_UNSEEN, held


def test_the_structure_alone_stays_available_for_the_training_script() -> None:
    assert structural_categories("Ist vorbestraft.") == {SensitiveCategory.CRIMINAL_RECORD}
    # a drug with no INN stem (levothyroxine now reads by its stem -thyroxine)
    assert structural_categories("Takes lithium first thing every day.") == frozenset()


def test_a_brand_is_left_out_of_what_the_model_reads_and_the_rest_is_kept() -> None:
    assert "Dior" not in model_view("Wears Christian Dior fragrances.")
    assert model_view("Long-time Green Party supporter") == "Long-time Green Party supporter"
    assert model_view("Ist Mitglied der IG Metall.") == "Ist Mitglied der IG Metall."


@pytest.mark.parametrize("text", ["", " ", "🙂🙂", "A" * 5000, "Ä B C D " * 500, "\x00\n\t"])
def test_any_text_gets_an_answer(text: str) -> None:
    assert isinstance(check_sensitive(text, ["", "ÉÉ"]), list)


def test_the_shipped_sensitive_model_was_trained_on_todays_features() -> None:
    # Both models read judgment's features: a change there must retrain this one too.
    document = json.loads(
        gzip.decompress(
            resources.files("memory_service.core.privacy")
            .joinpath("sensitive_model.json.gz")
            .read_bytes()
        )
    )
    assert document["metadata"]["features"] == fingerprint()


@pytest.mark.parametrize(
    "text",
    [
        "Lit Patrick Modiano et Marie Darrieussecq.",  # the model reads "  et  ."
        "Liest Bernhard Schlink und Uwe Timm.",
        "Goes to the gym every Tuesday and Thursday at 6 pm, so no calls then.",
        "Va a la piscina los lunes y miércoles a las 8.",
        "Lässt alle fünf Wochen die Spitzen schneiden.",
    ],
)
def test_grooming_sport_and_reading_routines_are_not_held(text: str) -> None:
    # Training notes of these classes (data/sensitive/helper/routines_ordinary.jsonl), and a note
    # the brand reader leaves as glue only ("  et  .") is not read by the model.
    assert sensitive_categories(text) == frozenset()


def test_the_model_abstains_when_only_glue_is_left_after_the_brands() -> None:
    held_model = _tiny(hold=0.0)  # holds every note it reads

    assert sensitive_categories("Lit Patrick Modiano et Marie Darrieussecq.", held_model) == set()
    assert sensitive_categories("Reads crime novels.", held_model) != set()
