"""French partitive 'du' before a name: a brand, not a person (names5)."""

from memory_service.core.privacy.brands import reads_as_brand


def _brand(text: str, name: str) -> bool:
    start = text.index(name)
    return reads_as_brand(text, start, start + len(name))


def test_partitive_names_a_brand() -> None:
    assert _brand("Offre du Hermès, porte du Louis Vuitton.", "Hermès")
    assert _brand("Offre du Hermès, porte du Louis Vuitton.", "Louis Vuitton")
    assert _brand("Ne porte que du Hermès pour les foulards", "Hermès")


def test_particle_after_a_given_name_is_no_partitive() -> None:
    assert not _brand("Sa voisine Claire du Pont arrose les plantes.", "Pont")
