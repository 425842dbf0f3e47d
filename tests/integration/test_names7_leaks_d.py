"""names7: leaks_d's name and address classes, closed by structure; the durable notes next to
them still pass. Fresh, made-up examples (none from an evaluation set)."""

from __future__ import annotations

import pytest

from memory_service.adapters.presidio_pii import PresidioPiiDetector
from memory_service.core.privacy.birthdates import birthdate_kinds
from tests.support.presidio import shared_detector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return shared_detector()


@pytest.mark.parametrize(
    "text",
    [
        # a subject's possessive before a kinship word: any known given name, any case
        "Customer's daughter is lena; add her to the booking.",
        "Client's son is oskar, he starts school in May.",
        # the note says the value was typed in lower case
        "Escribe siempre lucía ferrer, en minúsculas, en las facturas.",
        "Signs as tomas (lowercase, no accent) on every form.",
        "Écrit hélène martin, en minuscules, sur les colis.",
        # a name's part after its label, spelled or not
        "Sie nannte ihren Vornamen k-a-t-r-i-n und Nachname Albrecht.",
        "Spelled his first name b-e-n-j-i for the badge.",
        "Apellido Quintanilla, como su padre.",
        "Cognome Ravagnani sul campanello.",
        # a nickname and its full form
        "Il vicino, per tutti Gigi (Luigi), ritira i pacchi.",
        "Her aunt goes by Peggy (Margaret) at church.",
        # directions to a door: a street with its abbreviated type and the house's number
        "Turn right after the school onto Linden Rd; it is the green door, number 48.",
        "From the lights follow Cedar Blvd; theirs is number 7, next to the bakery.",
        "Wohnt im Ahornweg, Hausnummer siebzehn, gleich neben der Schule.",
        # "called" after a thing's preposition is no naming of the thing
        "Met a woman at the bar called Ingrid Solberg.",
        # letters apart after a spelling word, a relationship word before it
        "Her brother, spelled t o m a s in the forms, picks her up.",
    ],
)
def test_leak_classes_are_refused(detector: PresidioPiiDetector, text: str) -> None:
    assert detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Son chat s'appelle Grisou, un chartreux de 3 ans.",
        "Son vélo est rouge et il le range au garage.",
        "Prefers everything in lower case in the exported reports.",
        "Surname field must be in capitals on the visa form.",
        "Takes Route 9 to work every morning.",
        "Lives on Maple Ave, near the library.",
    ],
)
def test_neighbours_are_not_refused(detector: PresidioPiiDetector, text: str) -> None:
    assert not detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        # a work's character, fictional by the noun
        "Re-watching the show for the character Tessaly Varn.",
        "Mag die Romanfigur Jorin Falkenberg am liebsten.",
        # a full name in the possessive before a published kind, titles between
        "Is halfway through Brannock Ide's Winter Harbour novels.",
        # pets: "pet" and the animal before, a title-like word between; the animal as a
        # name's first word at a sentence's start
        "Pet tortoise Sir Plodsworth sleeps through the winter.",
        "Pony Biscuit is kept at the farm down the road.",
        "The rabbit is called Lord Fluffington.",
        "Adopted a two-year-old tabby called Marmalade.",
        # a brand named after its kind, then a focusing word and its line; an event attended
        "Favourite airline is Finnair, especially Finnair Plus lounges.",
        "Hotel chain: Marlowe, mostly Marlowe Grand.",
        "Attends RustConf Europe every autumn.",
        # a room or fare type
        "Books the Superior Twin room type whenever it is available.",
        # a private-able work after a verb of taking in a public work
        "Loves Idris Vantongeren's etchings.",
    ],
)
def test_durable_works_pets_and_types_pass(detector: PresidioPiiDetector, text: str) -> None:
    assert not detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        # owning, collecting or keeping: a private maker's works read the same (fail closed)
        "Collects Marit Oosterbeek's paintings.",
        "Keeps Martin Oosterbeek's photos on the fridge.",
        "Attends Maria Lopez's yoga class.",
        # "Cat" is a given name too: no pet head
        "Cat Jensen is picking up the keys.",
    ],
)
def test_private_makers_still_refused(detector: PresidioPiiDetector, text: str) -> None:
    assert detector.entity_types(text)


def test_a_day_of_fixed_date_and_its_year_is_a_birthdate() -> None:
    assert birthdate_kinds("Was born on Valentine's Day 1991, says the intake form.")
    assert birthdate_kinds("Nata a Ferragosto del 1978.")
    assert not birthdate_kinds("Was born around Christmas; plans a trip in 2027.")
    assert not birthdate_kinds("Loves Christmas markets; went in 2019.")


def test_dictionary_names_with_accents_are_found_folded() -> None:
    from memory_service.adapters.names_dictionary import load_first_names

    names = load_first_names()
    # the core folds before it looks a word up: the folded form must be there too
    assert {"ayse", "ozlem", "ayşe"} <= names


def test_an_accented_given_name_in_lower_case_after_a_cue(detector: PresidioPiiDetector) -> None:
    assert detector.entity_types("kollegin gülşen übernimmt die schicht")
