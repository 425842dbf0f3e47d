"""names9: the name classes leaks_f (seen) still let through, closed by structure, and the
brand, pet, street and figure look-alikes refused on holdout14a/14b and leaks_f. Fresh,
made-up examples (none from an evaluation set).

Leaks: a booking under a relative's name, then the name in lower case; a role, "is", then a
known given name in lower case or a word of a script without capitals; a kinship word said as
a title of address ("Aunt", "Nonna", "Tía"), quoted or not; a possessive, a closeness
adjective, then a role ("his old mate"); a name set off by a role in apposition ("Kofi, a
colleague,"); a German street in one word, words for its number, then postcode and town.

Look-alikes: a maker's name before its goods ("socks", "gowns", "roses", "battery"), in the
possessive with a model number or joined by "&"; goods as a favourite; a kind of goods then
"especially"; pets listed after their plural noun; a pet's name with a title after a naming
verb; a street type after a word of route; a maker before a German-looking model name.
"""

from __future__ import annotations

import pytest

from memory_service.adapters.presidio_pii import PresidioPiiDetector
from tests.support.presidio import refused_as_pii, shared_detector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return shared_detector()


_pii = refused_as_pii


PEOPLE = [
    # a booking under a relative's or a role's name, the name in lower case
    "Reserves the cabin under her sister-in-law's name, agnes holmberg.",
    "Orders the groceries under his flatmate's name, tobias.",
    # a role, "is", a known given name in lower case or a caseless word
    "Running partner is kate, they meet at the lake at seven.",
    "Squash partner is 李娜; they play every Tuesday.",
    "Business partner is greta and she keeps the books.",
    # a kinship word as a title of address
    "Writes letters to Uncle Thorvald every spring.",
    "Spends August with Tía Remedios in the village.",
    "Calls his grandfather 'Nonno Ugo' and visits on Sundays.",
    "Bakes with Grandma Wilhelmina at Christmas.",
    # a possessive, a closeness adjective, a role
    "Goes fishing with her old pal Dunky on weekends.",
    "Lends tools to his best mate Shazza.",
    # a name set off by a role in apposition
    "Yaw, a neighbour, waters the plants in July.",
    "Ottilie (my colleague) swaps shifts with the user.",
    "Afua, her cousin, picks the kids up on Wednesdays.",
]

PLACES = [
    "Wohnt in der Lindenstraße siebzehn, 10115 Berlin.",
    "Zieht in die Gartenweg zwölf, 50667 Köln.",
]

LOOKALIKES = [
    "Buys Vivienne Westwood socks for birthdays.",
    "Wants Jenny Packham gowns for the bridesmaids.",
    "Plants Peter Beales roses along the fence.",
    "Compares a Tesla Powerwall 2 with an Enphase battery.",
    "Wears Levi's 511 jeans, waist 30.",
    "Treats himself to Ben & Jerry's cookie dough ice cream.",
    "Favourite beer is Timothy Taylor's Landlord.",
    "Likes Kenyan coffees, especially Kiambu.",
    "Keeps two guinea pigs, Biscuit and Pudding.",
    "Budgie is called Captain Fluff.",
    "Enjoys cycling along Mulholland Drive and down Sunset Boulevard.",
    "Hikes with Black Diamond trekking poles.",
    "Kauft Lowa-Wanderschuhe Größe 42.",
]

STILL_REFUSED = [
    # a person's things said with a count, not a model number
    "Borrows Laura's 2 jackets for the trip.",
    # a street one lives or grew up on stays a private place
    "Grew up on Rosalind Road near the old mill.",
    # a kinship title before a brand fails closed
    "Uncle Ben's rice is a staple.",
]


@pytest.mark.parametrize("text", PEOPLE)
def test_people_are_refused(detector: PresidioPiiDetector, text: str) -> None:
    assert _pii(detector, text)


@pytest.mark.parametrize("text", PLACES)
def test_streets_with_a_number_in_words_are_refused(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert _pii(detector, text)


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalikes_pass(detector: PresidioPiiDetector, text: str) -> None:
    assert not _pii(detector, text)


@pytest.mark.parametrize("text", STILL_REFUSED)
def test_fail_closed_lines(detector: PresidioPiiDetector, text: str) -> None:
    assert _pii(detector, text)
