"""English "-y" nouns and their "-ic" adjectives and "-ies" plurals share a stem, so a
reordered wording is one fact (session 8, blind7 e104)."""

from __future__ import annotations

import pytest

from memory_service.core.consolidation.rules import PairRelation, _stem, classify_pair, terms_of


def test_noun_adjective_and_plural_share_a_stem() -> None:
    assert _stem("allergic") == _stem("allergy") == _stem("allergies")
    assert _stem("puppies") == _stem("puppy")
    # Short words keep their ending: "music" is no "mus-y", "busy" is not "bus".
    assert _stem("music") == "music"
    assert _stem("busy") != _stem("bus")


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Allergic to penicillin", "Penicillin allergy"),
        ("Has a nut allergy", "Is allergic to nuts"),
    ],
)
def test_reordered_wording_is_a_near_duplicate(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.NEAR


def test_another_allergen_stays_apart() -> None:
    relation = classify_pair(terms_of("Allergic to penicillin"), terms_of("Peanut allergy"))
    assert relation not in (PairRelation.NEAR, PairRelation.EXACT, PairRelation.CLOSE)


def test_a_short_y_verb_and_its_ies_and_ied_forms_share_a_stem() -> None:
    # Session 15 (blind21 c21-065): "Flies night missions" / "Does not fly at night".
    assert _stem("flies") == _stem("fly") == "fly"
    assert _stem("tried") == _stem("try") == _stem("tries")
    assert _stem("studied") == _stem("study") == _stem("studies")
    # Not a "-y" word: "skis" stays "ski", "dies" stays "die".
    assert _stem("skis") == "ski" and _stem("dies") == "die"
