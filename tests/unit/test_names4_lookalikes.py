"""Spans shaped like a name that the sentence's structure shows are something else."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.brands import reads_as_brand
from memory_service.core.privacy.names import FUNCTION_WORDS, NameFinder


def _span(text: str, span: str) -> tuple[int, int]:
    start = text.index(span)
    return start, start + len(span)


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Yr 4 parent; after-school club Thu", "Thu"),
        ("parent volunteers Fri mornings in library", "Fri"),
        ("service every Oct, tenant ok w/ mornings", "Oct"),
        ("Open Mo-Fr 9-17", "Mo-Fr"),
        ("tier Silver; cust wants upgrade bids", "Silver"),
        ("Marriott Bonvoy Titanium since 2021.", "Marriott Bonvoy Titanium"),
        ("Membre du programme Hertz Gold.", "Hertz Gold"),
        ("card: Visa Debit, contactless on", "Visa Debit"),
        ("chaudière Saunier Duval ; entretien en octobre", "Saunier Duval"),
        ("Veut assurer ses sacs Louis Vuitton dans le contrat habitation.", "Louis Vuitton"),
        ("Il cane, Ettore, va dal veterinario giovedì.", "Ettore"),
        ("logement près de la place Stanislas, tram ligne 1", "Stanislas"),
    ],
)
def test_lookalikes_are_no_person(text: str, span: str) -> None:
    assert reads_as_brand(text, *_span(text, span))


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Call Jan on Thursday about the lease.", "Jan"),
        ("Sam picks up the kids on Fridays.", "Sam"),
        ("Met Anna Gold at the gym.", "Anna Gold"),
        ("Kept the bag Anna bought in Rome.", "Anna"),
        ("Lent the car to Anna Meyer last week.", "Anna Meyer"),
        ("Mo called about the invoice.", "Mo"),
        ("Il figlio, Ettore, va a scuola.", "Ettore"),
    ],
)
def test_people_stay_people(text: str, span: str) -> None:
    assert not reads_as_brand(text, *_span(text, span))


_FINDER = NameFinder(
    first_names=frozenset(
        {"bruno", "tiene", "fa", "slim", "nikolai", "paolo", "lambert", "keys", "priya", "mattia"}
        | {"ok", "ravi"}
    ),
    common_words=FUNCTION_WORDS,
)


@pytest.mark.parametrize(
    "text",
    [
        "Der Hund heißt Bruno und frisst nur Nassfutter.",
        "Works for a company called Perhaps Studio.",
        "Su hijo tiene clase de matemáticas los lunes.",
        "La figlia fa lezione di inglese ogni sabato.",
        "Shirts: size M slim fit.",
        "Uses a Logitech MX Keys keyboard.",
        "Bitte mit „Frau Dr.“ anschreiben.",
        "Préfère une prof femme pour sa fille.",
        "boiler serviced every Oct, tenant ok w/ mornings",
    ],
)
def test_no_name_after_these_cues(text: str) -> None:
    assert not list(_FINDER.after_cues(text))


@pytest.mark.parametrize(
    "text",
    [
        "Neuer Kollege im Team heißt Nikolai Sokolov.",
        "Il figlio fa catechismo con don Paolo.",
        "Voisin du dessus, m. lambert, a les clés.",
        "Il coinquilino mattia non lava mai i piatti.",
        "The agency called Priya yesterday.",
        "Works closely with a colleague called ravi on the Berlin account.",
    ],
)
def test_names_after_cues_stay(text: str) -> None:
    assert list(_FINDER.after_cues(text)) or list(_FINDER.first_name_pairs(text))


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Named the cat after Walter White.", "Walter White"),
        ("Il gatto si chiama come Dylan Dog.", "Dylan Dog"),
        ("Dressed up as Leslie Knope last Halloween.", "Leslie Knope"),
        ("Works for a company called Perhaps Studio.", "Perhaps Studio"),
        ("Plays bass in a band called Larkin Rats.", "Larkin Rats"),
        ("Programme Miles & More niveau Frequent Traveller.", "Frequent Traveller"),
    ],
)
def test_characters_things_and_levels(text: str, span: str) -> None:
    assert reads_as_brand(text, *_span(text, span))


def test_a_person_met_after_work_stays_a_person() -> None:
    text = "Met Walter White after work."
    assert not reads_as_brand(text, *_span(text, "Walter White"))
