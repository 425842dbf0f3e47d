"""names6: a pet or a thing named, and a public figure's works, are no person; the private
people in the same positions still are. Fresh examples (none from an evaluation set)."""

from __future__ import annotations

import pytest

from memory_service.adapters.presidio_pii import PresidioPiiDetector
from tests.support.presidio import shared_detector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return shared_detector()


@pytest.mark.parametrize(
    "text",
    [
        # the naming verb's head is an animal: the NER model and the cue pattern agree
        "The hamster is called Noodle.",
        "Le lapin s'appelle Caramel.",
        "A spaniel named Waffles lives with them.",
        "Our dachshund is called Pickle and hates the rain.",
        "Has a tabby named Sushi.",
    ],
)
def test_pets_named_are_not_people(detector: PresidioPiiDetector, text: str) -> None:
    assert not detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "A man named Barnaby Quist called about the boiler.",
        "The plumber is called Oskar Lind.",
        "The dog sitter is called Wren Hadley.",
        "Le chien de ma voisine Maëlle s'appelle Caramel.",
        "The cat is called Mochi, like my niece Mochi Tan.",
    ],
)
def test_people_named_stay_people(detector: PresidioPiiDetector, text: str) -> None:
    assert "PERSON" in detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        # a full name heading or modifying a work noun, or a work noun's creator after "de"
        "Loves Tove Jansson's illustrations and Tove Jansson's novels.",
        "Cooks from Yotam Ottolenghi's recipes on Sundays.",
        "Watches every Serena Williams documentary and Serena Williams's old matches.",
        "Enjoys Jacques Brel concerts on vinyl.",
        "Aime les chroniques et les sketchs de Muriel Robin.",
        "Wants a Wes Anderson-style poster for the hall.",
        "Likes blues, especially Etta James and Muddy Waters.",
        "Écoute du rap, notamment Orelsan.",
    ],
)
def test_public_figures_works_are_not_people(detector: PresidioPiiDetector, text: str) -> None:
    assert not detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Keeps her aunt Greta Lindqvist's paintings in the hall.",
        "Picks up Ottilie Brenner's kids on Fridays.",
        "Ottilie Brenner's card is in the drawer.",
        "Goes to all of his son Teodor's matches.",
        "Rock climbing: Ilse Vandermeer belays on Tuesdays.",
        "Likes jazz, especially with Ilse Vandermeer on piano.",
    ],
)
def test_relatives_and_their_things_stay_people(detector: PresidioPiiDetector, text: str) -> None:
    assert "PERSON" in detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        # a common given name that is also a product's name, right after a person cue
        "My son Hugo starts school in September.",
        "Sa fille Alexa a peur du noir.",
        # where a neighbour lives between the relationship word and a lower-case name
        "Le voisin du dessus, jean-baptiste, garde le double des clés.",
        "The neighbour across the hall, priya, feeds the cat.",
    ],
)
def test_names_after_cues_in_product_and_lower_case_shapes(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert "PERSON" in detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Her daughter's name is maren; she turns seven in June.",
        "Wife, oluwaseun, handles the school runs.",
        "La responsable de paie, sandrine, valide les congés.",
    ],
)
def test_lower_case_names_after_name_is_and_in_apposition(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert "PERSON" in detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "My husband, however, books the flights.",
        "Her sister, too, is vegetarian.",
        "Su marido, claramente, prefiere el pasillo.",
    ],
)
def test_adverbs_in_apposition_are_not_names(detector: PresidioPiiDetector, text: str) -> None:
    assert not detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Su hija, creo, empezará la universidad pronto.",
        "call mensile il primo mercoledì, ore 15",
        "es amigo del gerente, así que no paga la matrícula",
        "Stasera niente allenamento: cena fuori.",
        "Déduit des achats : aime la randonnée",
    ],
)
def test_words_shaped_like_lower_case_names_are_not(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert not detector.entity_types(text)
