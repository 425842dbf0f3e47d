"""names11: the role a name plays in its clause (issue 10's durable false refusals)."""

from __future__ import annotations

from memory_service.core.privacy.brands import admired_figure, consumed_title, reads_as_brand
from memory_service.core.privacy.name_lookalikes import reads_as_lookalike


def _span(text: str, name: str) -> tuple[int, int]:
    start = text.index(name)
    return start, start + len(name)


def test_a_full_name_admired_first_in_its_clause_is_a_public_figure() -> None:
    for text, name in (
        ("Admires Marie Curie and enjoys books about women in science.", "Marie Curie"),
        ("Ama Leonardo da Vinci e va a vedere il Cenacolo.", "Leonardo da Vinci"),
        ("Admire Jacques Anquetil et roule sur un cadre Peugeot.", "Jacques Anquetil"),
        ("El cliente es muy aficionado a Rafa Nadal y prefiere el tenis.", "Rafa Nadal"),
        ("Ist Fan von Helene Fischer und möchte Konzerttermine.", "Helene Fischer"),
        ("Picked the theme because she loves Miles Davis.", "Miles Davis"),
        ("Bewundert Franziska van Almsick, schwimmt Kraul.", "Franziska"),
        ("Follows Adrian Bowyer's RepRap project closely.", "Adrian Bowyer's"),
    ):
        assert reads_as_brand(text, *_span(text, name)), text


def test_an_admired_name_with_a_relation_a_platform_or_a_thing_stays_a_person() -> None:
    for text, name in (
        ("Admires her coach Ana Pérez.", "Ana Pérez"),
        ("Admires Ana Pérez, her neighbour.", "Ana Pérez"),
        ("Follows Nguyen Thi Lan on Twitch and YouTube.", "Nguyen Thi Lan"),
        ("Loves Ana Pérez's cooking.", "Ana Pérez's"),
        ("Admires Ana Pérez who lives next door.", "Ana Pérez"),
        ("Admires Chiara-Maria and her drawings.", "Chiara-Maria"),
        ("Had lunch with Marie Curie and loves it.", "Marie Curie"),
    ):
        assert not reads_as_brand(text, *_span(text, name)), text


def test_an_author_after_a_work_and_by_is_public() -> None:
    text = "Favourite song is '867-5309/Jenny' by Tommy Tutone."
    assert reads_as_brand(text, *_span(text, "Tommy Tutone"))
    text = "Sings in a choir led by Dagny Thorsen."
    assert not reads_as_brand(text, *_span(text, "Dagny Thorsen"))


def test_whom_a_thing_is_named_after_is_public() -> None:
    for text, name in (
        ("Her dog is called Frida, after Frida Kahlo.", "Frida Kahlo"),
        ("Favourite pizza is the Margherita, named after Queen Margherita.", "Queen Margherita"),
    ):
        assert reads_as_lookalike(text, *_span(text, name)), text
    for text, name in (
        ("The cat stays with us, after Ana Pérez left.", "Ana Pérez"),
        ("Her son is called Leo, after Leo Hansen.", "Leo Hansen"),
    ):
        assert not reads_as_lookalike(text, *_span(text, name)), text


def test_a_doctor_title_after_drinking_or_wearing_is_a_brand() -> None:
    assert consumed_title("Drinks Dr ")
    assert consumed_title("Isst nach dem Training gern Dr. ")
    assert not consumed_title("Eats lunch with Dr ")
    assert not consumed_title("Sees Dr ")


def test_a_public_role_with_its_modifier_and_pet_food_read_as_brand() -> None:
    text = "Favourite book series is Harry Potter; enjoys related trivia."
    assert reads_as_brand(text, *_span(text, "Harry Potter"))
    text = "Favourite tennis partner is Ana Pérez."
    assert not reads_as_brand(text, *_span(text, "Ana Pérez"))
    text = "Feeds Royal Canin Medium Adult kibble."
    assert reads_as_brand(text, *_span(text, "Royal Canin Medium Adult"))


def test_the_before_a_full_name_is_a_thing_but_not_a_family() -> None:
    text = "At the Marriott Marquis always asks for room 1204."
    assert reads_as_brand(text, *_span(text, "Marriott Marquis"))
    text = "Visits the Anna Meyer family on Sundays."
    assert not reads_as_brand(text, *_span(text, "Anna Meyer"))


def test_a_plural_subject_a_list_and_a_lower_case_complement_keep_the_role() -> None:
    text = "Les enfants adorent Astérix et Gaston Lagaffe : thème idéal."
    assert reads_as_brand(text, *_span(text, "Gaston Lagaffe"))
    text = "Reads Agatha Christie and loves Hercule Poirot in example sentences."
    assert reads_as_brand(text, *_span(text, "Hercule Poirot"))
    text = "Abita a Bologna, zona Santo Stefano."
    assert reads_as_brand(text, *_span(text, "Santo Stefano"))
    text = "Admires Ana Pérez at the gym."
    assert not reads_as_brand(text, *_span(text, "Ana Pérez"))


def test_a_firm_joined_by_an_ampersand_reaches_its_context() -> None:
    text = "Favourite ice cream is Ben & Jerry's Cherry Garcia."
    assert reads_as_brand(text, *_span(text, "Cherry Garcia"))
    text = "Had dinner with Tom & Anna Meyer."
    assert not reads_as_brand(text, *_span(text, "Anna Meyer"))


def test_mere_liking_is_no_role() -> None:
    text = "Likes Tommy Hilfiger."
    assert not reads_as_brand(text, *_span(text, "Tommy Hilfiger"))


def test_the_role_and_the_name_alone_cannot_tell_a_figure_from_a_friend() -> None:
    for text, name in (
        ("Muy fan de Nerea Etxeberria.", "Nerea Etxeberria"),
        ("Großer Fan von Hans-Peter Lindqvist.", "Hans-Peter Lindqvist"),
        ("Admires Marie Curie.", "Marie Curie"),
    ):
        assert not admired_figure(text, *_span(text, name)), text


def test_the_before_a_full_name_then_a_lower_case_noun_is_a_person_s_thing() -> None:
    text = "The Ivan Golubev version recorded for the label sold a million copies."
    assert not reads_as_brand(text, *_span(text, "Ivan Golubev"))
