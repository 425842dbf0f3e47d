"""A family named by its surname and where it lives from the user (names5)."""

from memory_service.core.privacy.names import NameFinder


def _finder() -> NameFinder:
    return NameFinder(first_names=frozenset({"anna"}), common_words=frozenset({"the"}))


def test_family_next_door() -> None:
    finder = _finder()
    for text in (
        "The Hoffmanns next door look after the dog.",
        "Les Lefèvre d'à côté arrosent ses plantes.",
        "Die Müllers von gegenüber haben den Zweitschlüssel.",
        "Los García del tercero le riegan las plantas.",
        "I Bianchi del piano di sopra tengono le chiavi.",
    ):
        assert any(span.cue for span in finder.families(text)), text


def test_shop_next_door_is_no_family() -> None:
    assert not list(_finder().families("Buys coffee at the Starbucks next door."))
