"""names11: a landmark's own address, a Japanese block address, lower-case names after a role."""

from __future__ import annotations

from memory_service.core.privacy.addresses import address_kinds
from memory_service.core.privacy.name_cues import cued_name_types
from memory_service.core.privacy.name_lookalikes import reads_as_lookalike
from memory_service.core.privacy.names import NameFinder


def test_a_landmark_before_its_address_holds_no_one_s_door() -> None:
    for text in (
        "Loves the Sherlock Holmes Museum at 221B Baker Street.",
        "Wants to tour the White House at 1600 Pennsylvania Avenue one day.",
        "Le encanta la Casa Batlló, en Passeig de Gràcia 43, y la visita cada vez.",
        "Favourite landmark is the Eiffel Tower, Champ de Mars, 5 Avenue Anatole France.",
        "Wants to live in Marylebone, near the Sherlock Holmes Museum at 221B Baker Street.",
    ):
        assert not address_kinds(text), text


def test_a_home_named_like_a_landmark_or_a_second_address_is_still_an_address() -> None:
    for text in (
        "Lives at the Rose House, 5 Mill Lane.",
        "Send it to the White House at 12 Mill Lane.",
        "Stays at Villa Rosa, 12 Mill Lane.",
        "Loves the British Museum; lives at 5 Mill Lane.",
        "Loves the British Museum at 5 Mill Lane and lives at 7 Mill Lane.",
        "Lives at 221B Baker Street.",
    ):
        assert address_kinds(text), text


def test_a_japanese_block_address_is_an_address() -> None:
    assert address_kinds("Home for dog walks: 2-14-7 Kitazawa, Setagaya-ku, apt 301, Tokyo.")
    assert address_kinds("Office: 3-5 Nishiki, Naka-ku, Nagoya")
    assert not address_kinds("Scored 2-1-0 Arsenal, Kick-off at 3")


def test_a_street_s_name_between_its_number_and_type_is_no_person() -> None:
    text = "Loves 221B Baker Street."
    start = text.index("Baker")
    assert reads_as_lookalike(text, start, start + len("Baker"))


def _found(text: str) -> list[str]:
    finder = NameFinder(first_names=frozenset(), common_words=frozenset({"the", "in", "up"}))
    return [text[span.start : span.end] for span in finder.lower_case_after_relation(text)]


def test_lower_case_words_between_a_role_and_its_verb_are_a_name() -> None:
    assert _found("His roommate nguyen thi thu collects his parcels.") == ["nguyen thi thu"]
    assert _found("His partner ngozi picks up the cargo bike.") == ["ngozi"]
    assert _found("Spare key is with the neighbour aunty bisi in flat 2.") == ["bisi"]


def test_adverbs_and_verbs_after_a_role_are_no_name() -> None:
    for text in (
        "His partner often picks up the kids.",
        "Her partner usually works from home.",
        "His roommate also collects his parcels.",
        "Her aunty in Leeds sends cards.",
    ):
        assert not _found(text), text


def test_a_giver_after_a_gift_is_a_person() -> None:
    assert cued_name_types("Got the Michael Kors wallet as a gift from Sander.") == {"PERSON"}
    assert cued_name_types("Un cadeau de la part de Chloé.") == {"PERSON"}
    assert not cued_name_types("Has a gift card from Amazon.")
    assert not cued_name_types("Un cadeau de Noël.")
