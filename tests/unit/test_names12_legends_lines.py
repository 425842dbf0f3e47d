"""names12: an ancestor a family legend claims, and a maker's product line after a formula or
range noun or worn in the plural (holdout16's durable false refusals)."""

from __future__ import annotations

from memory_service.core.privacy.brands import (
    legend_figure,
    product_line_named,
    reads_as_brand,
)


def _span(text: str, name: str) -> tuple[int, int]:
    start = text.index(name)
    return start, start + len(name)


def test_a_legendary_ancestor_to_verify_is_a_historical_figure() -> None:
    for text, name in (
        (
            "Wants to verify the family story that they descend from Robert the Bruce.",
            "Robert the Bruce",
        ),
        (
            "Une légende familiale la rattache à Jean de La Fontaine ; veut la faire vérifier.",
            "Jean de La Fontaine",
        ),
        (
            "Will prüfen lassen, ob die Familienüberlieferung einer Verwandtschaft mit Martin "
            "Luther stimmt.",
            "Martin Luther",
        ),
        (
            "Vuole verificare la leggenda di famiglia che li lega a Giuseppe Verdi.",
            "Giuseppe Verdi",
        ),
    ):
        assert legend_figure(text, *_span(text, name)), text
        assert reads_as_brand(text, *_span(text, name)), text


def test_a_relative_or_a_legend_without_checking_stays_a_person() -> None:
    for text, name in (
        ("Family story says we descend from my uncle John Smith; verify.", "John Smith"),
        ("Wants to verify the family story that my uncle John Smith told.", "John Smith"),
        ("The family story says they descend from John Smith.", "John Smith"),  # no checking
        ("Wants to verify that they descend from John Smith.", "John Smith"),  # no legend
        ("Wants to verify the family story; descends from John Smith's line.", "John Smith"),
    ):
        assert not legend_figure(text, *_span(text, name)), text


def test_a_product_line_after_a_formula_or_range_noun_or_worn_in_the_plural() -> None:
    for text, name in (
        ("Colour formula is Wella Koleston 7/1 with 6% developer.", "Wella Koleston"),
        (
            "Balayage tous les trois mois, et gamme Kérastase Blond Absolu à la maison.",
            "Kérastase Blond Absolu",
        ),
        (
            "Porte des Ray-Ban Clubmaster écaille ; veut rester sur cette forme.",
            "Ray-Ban Clubmaster",
        ),
    ):
        assert product_line_named(text, *_span(text, name)), text


def test_a_single_word_a_possessive_or_a_relative_after_a_range_noun_stays_a_person() -> None:
    for text, name in (
        ("Colour formula is Anna's, ask her.", "Anna"),
        ("Range: Anna Meyer's own mix.", "Anna Meyer"),
        ("Porte des Lunettes comme sa voisine.", "Lunettes"),
        ("Formula is Anna Meyer, sa voisine, qui la prépare.", "Anna Meyer"),
        ("Porte Anna Meyer dans ses bras.", "Anna Meyer"),  # no plural article: a person
    ):
        assert not product_line_named(text, *_span(text, name)), text
