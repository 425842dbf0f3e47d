"""A pet named right after its noun, without commas, is no person (names5)."""

from memory_service.core.privacy.name_lookalikes import reads_as_lookalike


def _span(text: str, name: str) -> tuple[int, int]:
    start = text.index(name)
    return start, start + len(name)


def test_pet_noun_then_name_then_verb() -> None:
    for text, name in (
        ("La chienne Lucette est épileptique, sous phénobarbital.", "Lucette"),
        ("Kater Helmut hat eine Schilddrüsenüberfunktion.", "Helmut"),
        ("Il gatto Briciola è diabetico.", "Briciola"),
    ):
        assert reads_as_lookalike(text, *_span(text, name))


def test_relative_clause_and_relation_stay_people() -> None:
    for text, name in (
        ("The dog Anna walks is old.", "Anna"),
        ("My neighbour Anna is away.", "Anna"),
    ):
        assert not reads_as_lookalike(text, *_span(text, name))
