"""The name model: a name-like span is kept as public only when its context says so."""

from __future__ import annotations

import pytest

from memory_service.adapters.names_dictionary import RARE, load_first_names
from memory_service.core.privacy.name_model import (
    NameModel,
    NameModelError,
    load_name_model,
    name_unit,
)

MODEL = load_name_model(load_first_names(), load_first_names(max_frequency=RARE))


def _public(text: str, span: str) -> bool:
    start = text.index(span)
    return MODEL.is_public(text, start, start + len(span))


def test_the_unit_is_the_whole_capitalised_run_on_its_line() -> None:
    text = "Pays with a Chase Sapphire Reserve card.\nkeywords"
    start = text.index("Chase")
    assert text[slice(*name_unit(text, start, start + len("Chase Sapphire")))] == (
        "Chase Sapphire Reserve"
    )
    text = "Tiene la tarjeta Visa Platinum de su banco."
    start = text.index("Visa")
    assert text[slice(*name_unit(text, start, len(text) - 1))] == "Visa Platinum"


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Had lunch with Tomasz Wierzbicki on Friday.", "Tomasz Wierzbicki"),
        ("Send the signed contract to Aurélie Fontaine before noon.", "Aurélie Fontaine"),
        ("Der Vertrag läuft auf Dragana Petrović.", "Dragana Petrović"),
    ],
)
def test_a_private_person_in_an_everyday_context_is_not_kept(text: str, span: str) -> None:
    assert not _public(text, span)


def test_the_context_decides_not_the_name() -> None:
    # The same span: a fan of an author is kept, lunch with a person is not.
    assert MODEL.public_score("Big Ingrid Solberg fan.", 4, 18) > MODEL.public_score(
        "Had lunch with Ingrid Solberg.", 15, 29
    )


def test_a_model_trained_on_other_features_is_refused() -> None:
    document = MODEL.to_document()
    document["metadata"] = {**document["metadata"], "features": "other"}
    with pytest.raises(NameModelError):
        NameModel.from_document(document)


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Is a big fan of Rajata's lasagne.", "Rajata"),
        ("Follows Mary Berry's recipes for baking.", "Mary Berry"),
    ],
)
def test_a_possessive_before_a_noun_is_never_cleared(text: str, span: str) -> None:
    """A person's thing and a public figure's work read the same: fail closed."""
    start = text.index(span)
    assert MODEL.public_score(text, start, start + len(span)) == 0.0


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Watches Anna Meyer, her neighbour, on Tuesdays.", "Anna Meyer"),
        ("Lit Julie Martin (sa voisine) le soir.", "Julie Martin"),
        ("Escucha a Lucía Gómez, su prima, cada domingo.", "Lucía"),
    ],
)
def test_a_relationship_word_in_apposition_is_never_cleared(text: str, span: str) -> None:
    start = text.index(span)
    assert MODEL.public_score(text, start, start + len(span)) == 0.0
