"""A given name standing alone is a person; a brand, a place, a noun or a month is not."""

from __future__ import annotations

import pytest

from memory_service.adapters.names_dictionary import RARE, load_first_names
from memory_service.core.privacy.bare_names import PERSON, BareNameFinder, build_finder
from memory_service.core.privacy.brands import reads_as_brand

FINDER = BareNameFinder(
    first_names=frozenset({"laura", "ignacy", "dorota", "stig", "rose", "paul", "heinz"}),
    common_words=frozenset({"the", "may"}),
    products=frozenset({"Alexa"}),
    public=reads_as_brand,
)


@pytest.mark.parametrize(
    "text",
    [
        "Laura is the one who books the dentist.",
        "Laura, please call back tomorrow.",
        "Laura's school closes at four.",
        "Laura and Dorota share the car.",
        "The parcel goes to the office of Ignacy on the first floor.",
        "Lent the ladder to him and Stig last week.",
        "Waiting for Paul-Heinz to send the invoice.",
    ],
)
def test_a_known_first_name_alone_is_a_person(text: str) -> None:
    assert FINDER.person_types(text) == {PERSON}


@pytest.mark.parametrize(
    "text",
    [
        "Rose gardens are her favourite place to walk.",  # sentence start, no subject verb
        "Bought the Rose edition of the planner.",  # after a determiner
        "Bought a smart thermostat, a Tado.",  # not a (frequent) first name
        "Asks Alexa for the weather every morning.",  # a product name
        "Stig Larsen Books is the shop she prefers.",  # a capitalised run: the pair rule's
        "Has 2 Laura planters on the balcony.",  # after a number: a model
        "Takes the night train to Laura every summer.",  # after a place preposition
    ],
)
def test_a_name_shaped_word_in_another_role_is_not_a_person(text: str) -> None:
    assert FINDER.person_types(text) == frozenset()


def test_outside_english_a_name_inside_a_sentence_needs_a_verb_or_a_comma() -> None:
    # A capitalised word after a lowercase noun is a model in French ("la caméra Laura").
    assert FINDER.person_types("Il a une caméra Laura dans le salon.") == frozenset()
    assert FINDER.person_types("Je pense que Laura est partie.") == {PERSON}


def test_a_brand_structure_wins_over_a_lone_name() -> None:
    assert FINDER.person_types("Always shops at Laura's on Fridays.") == frozenset()
    assert FINDER.person_types("Borrowed Laura's bike for the weekend.") == {PERSON}


def test_the_real_dictionary_reads_names_from_many_countries() -> None:
    bare_name_types = build_finder(
        load_first_names(min_frequency=RARE + 1), reads_as_brand
    ).person_types
    assert bare_name_types("Why is Jorunn always late to the stand-up?") == {PERSON}
    assert bare_name_types("Tomasz, can you send the slides?") == {PERSON}
    assert bare_name_types("Prefers the window seat on trains to Florence.") == frozenset()
    assert bare_name_types("Speaks fluent German and some Dutch.") == frozenset()
    assert bare_name_types("Mag im Sommer ein Zimmer mit Balkon.") == frozenset()
    assert bare_name_types("Works from home on Tue-Thu, in the office Mon and Fri.") == frozenset()
    assert bare_name_types("Calendar set to the Europe/Paris time zone.") == frozenset()
    assert bare_name_types("Usual route Paris\u2013Nice, window seat.") == frozenset()
    assert bare_name_types("Uses Sydney SYD as the home airport.") == frozenset()


def test_a_name_pair_before_a_verb_and_its_particle_is_a_person() -> None:
    # The names module reads "points" as a product noun ("Marriott points").
    assert FINDER.person_types("As Laura Kowalska points out, the lid leaks.") == {PERSON}
    assert FINDER.person_types("Earns Laura Ashley points on every purchase.") == frozenset()


def test_the_core_imports_no_adapter() -> None:
    """The names dictionary reaches the core through the PII adapter, not by an import."""
    import ast
    from pathlib import Path

    import memory_service.core

    core = Path(memory_service.core.__file__).parent
    imports = []
    for path in core.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imports.append(node.module)
            elif isinstance(node, ast.Import):
                imports += [alias.name for alias in node.names]
    assert [name for name in imports if name.startswith("memory_service.adapters")] == []


def test_a_lower_case_given_name_in_apposition_after_a_relation_is_a_person() -> None:
    # session 14: "il cugino dell'utente, davide, gestisce" leaked (the name has no capital)
    assert FINDER.person_types("il cugino della cliente, dorota, ritira i pacchi.") == {PERSON}
    assert FINDER.person_types("Her flatmate, stig, pays the gas bill.") == {PERSON}
    # a lower-case word there that is no given name, or a common word, is none
    assert FINDER.person_types("Her flatmate, however, pays the gas bill.") == frozenset()
    assert FINDER.person_types("Her flatmate, may, pays the gas bill.") == frozenset()
