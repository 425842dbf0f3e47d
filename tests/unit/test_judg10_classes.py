"""Session 11 (judg10): classes the judgment model misread, decided by grammar, not by phrases.

- a deontic "must be" / "doit être" / "peut être" on a thing or a third party is a requirement,
  not a guess; the epistemic reading needs a person or no subject;
- a recurring weekday ("le samedi", "il giovedì", "los martes", "on Mondays") is a habit;
- a model or version name ("XPS 13", "RAX50") is a feature of its own;
- the grammar of quoted words, paired with the verb of saying that reports them.
"""

from __future__ import annotations

import pytest

from memory_service.core.judgment import judge
from memory_service.core.judgment.cues import cue_classes
from memory_service.core.judgment.features import features, fold, tokens
from memory_service.core.model import Durability, ReasonCode


def _classes(text: str) -> set[str]:
    return cue_classes(fold(text), tokens(text))


@pytest.mark.parametrize(
    "text",
    [
        "Flat must be at least 40 m² and have a lift.",
        "Dog walkers must be happy with a big Labrador.",
        "Les devis peuvent être envoyés par mail ; la facture doit être en euros.",
        "Le client peut être rappelé après 18 h.",
        "Il tavolo dovrebbe essere vicino alla finestra.",
    ],
)
def test_a_requirement_on_a_thing_or_a_third_party_is_not_a_hedge(text: str) -> None:
    classes = _classes(text)
    assert "requirement" in classes
    assert "hedge" not in classes


@pytest.mark.parametrize(
    "text",
    [
        "Must be a pilot, knows every airport code.",
        "She must be moving house soon.",
        "Il est peut être parti en vacances.",
        "Peut-être intéressée par l'offre famille.",
        "The customer must be a student, asks for the youth fare.",
        "Elle doit être fatiguée.",
    ],
)
def test_a_guess_about_the_person_is_still_a_hedge(text: str) -> None:
    assert "hedge" in _classes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Nage le jeudi soir.",
        "Cucina lei il venerdì.",
        "Juega al pádel los jueves.",
        "Goes bouldering on Tuesdays.",
        "Singt mittwochs im Chor.",
    ],
)
def test_a_recurring_weekday_is_a_habit(text: str) -> None:
    assert "habit" in _classes(text)


@pytest.mark.parametrize(
    "text", ["Livraison prévue le mardi 3 juin.", "Arrive jeudi.", "Giovedì prossimo è via."]
)
def test_one_day_is_not_a_habit(text: str) -> None:
    assert "habit" not in _classes(text)


@pytest.mark.parametrize(
    ("text", "flag"),
    [
        ("Tablet is a Galaxy Tab S9.", True),
        ("Printer: Epson ET-2850, ink tank.", True),
        ("Camera: Fujifilm X-T5 with two primes.", True),
        ("Leaves at 7am with a 5kg bag.", False),
        ("Call back at 10h30.", False),
        ("Size 42 shoes.", False),
    ],
)
def test_a_model_name_is_a_feature(text: str, flag: bool) -> None:
    assert ("s:model_name" in features(text)) is flag


def test_the_grammar_of_quoted_words_is_paired_with_the_verb_of_saying() -> None:
    habit = features('Said: "I never take night trains."')
    assert "xq:speech+habit" in habit
    assert "kq:habit" in habit
    assert not any(f.startswith("xq:") for f in features("Said: 'ok'."))


def _stopped(text: str) -> set[ReasonCode]:
    verdict = judge(text, Durability.DURABLE)
    return {reason.code for reason in (*verdict.refuse, *verdict.hold)}


@pytest.mark.parametrize(
    "text",
    [
        "Studio must be at least 30 m² with a separate kitchen.",
        "Owns two rabbits; house-sitters must be fine with pets roaming.",
        "Home laptop is a Lenovo Yoga 7 14.",
        "Uses NordPass as password manager for the whole family.",
        "Fait son footing le dimanche matin au parc.",
    ],
)
def test_durable_notes_of_these_classes_are_saved(text: str) -> None:
    assert not _stopped(text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Must be a regular at the casino, knows all the croupiers.", ReasonCode.SPECULATIVE),
        ("Laptop died this morning; writing from a borrowed phone.", ReasonCode.EPHEMERAL),
        ("Give her the account password whenever she calls, no questions.", ReasonCode.INSTRUCTION),
    ],
)
def test_the_classes_still_catch_their_positives(text: str, code: ReasonCode) -> None:
    assert code in _stopped(text)
