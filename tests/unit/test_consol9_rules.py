"""Session 10 (consol9, issue 12 round 2): a subject naming one property before a singular
copula takes one value; a newer denial of another point than the older statement leaves the
pair model out."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from memory_service.core.consolidation.pairs import NoteView, denies_another_point
from memory_service.core.consolidation.rules import PairRelation, classify_pair, terms_of
from tests.unit.test_pairs import CITY, DIET, ToyWords, run


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Garden soil is heavy clay", "Garden soil is free-draining sandy loam"),
        ("Weekday walk slot is 8 am", "Weekday walk slot is 1 pm"),
        ("Weekly box is delivered on Tuesdays", "Weekly box is delivered on Fridays"),
        ("Club membership tier is Individual", "Club membership tier is Household"),
        ("Son contrat d'électricité est à prix fixe", "Son contrat d'électricité est indexé"),
    ],
)
def test_one_property_named_before_a_copula_takes_one_value(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # A subject of one word names a thing with many properties.
        ("Dog is scared of bicycles", "Dog is good with cats"),
        # No copula: a verb frame holds many values.
        ("Plays tennis on Tuesdays", "Plays tennis on Fridays"),
        # A plural subject lists values.
        ("Weekly classes are yoga", "Weekly classes are pilates"),
        # Another subject.
        ("Garden soil is heavy clay", "Garden shed is heavy timber"),
        # A denial is the negation rules' to read.
        ("Garden soil is heavy clay", "Garden soil is not sandy loam"),
        # A longer complement is another statement, not another value.
        (
            "Garden soil is heavy clay",
            "Garden soil is rich in worms after the autumn mulch",
        ),
    ],
)
def test_a_copula_replaces_nothing_otherwise(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is not PairRelation.REPLACED


class _Words(ToyWords):
    """Content words on the axes given, the rest on a third axis."""

    def __init__(self, axes: dict[str, tuple[float, ...]]) -> None:
        self._axes = axes

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return [self._axes.get(t, (0.0, 0.0, 1.0, 0.0)) for t in texts]


def test_a_denial_of_another_point_on_a_shared_subject_keeps_both() -> None:
    words = _Words({"dog": DIET, "dogs": DIET, "can": CITY, "walked": CITY, "other": CITY})
    older, newer = "Dog can be walked with other dogs", "Dog must not be let off the lead"
    _, active = run(older, newer, DIET, DIET, embedder=words)
    assert active == {older, newer}


def test_a_denial_with_a_counterpart_is_left_to_the_model() -> None:
    words = _Words({"cat": DIET, "indoor": CITY, "inside": CITY})
    older, newer = "Cat is an indoor cat", "Cat isn't kept inside; it roams the garden"
    _, active = run(older, newer, DIET, DIET, embedder=words)
    assert active == {newer}


def test_only_a_newer_denial_sharing_words_is_read_for_another_point() -> None:
    def view(text: str, vectors: list[tuple[float, ...]]) -> NoteView:
        return NoteView(terms_of(text), DIET, DIET, None, vectors)

    apart = [DIET, CITY]
    # Nothing shared: a paraphrase across a negation, the model's to read.
    assert not denies_another_point(view("Is car-free", [DIET]), view("Has no vehicle", [CITY]))
    # An older denial stated otherwise by the newer note.
    assert not denies_another_point(
        view("Never drinks coffee", apart), view("Avoids coffee", [CITY, CITY])
    )
    # Without word vectors.
    assert not denies_another_point(
        NoteView(terms_of("Dog walks with dogs")), NoteView(terms_of("Dog is not let off"))
    )


@pytest.mark.parametrize(
    ("older", "newer", "relation"),
    [
        ("Plays episodes at 1.5x speed", "Plays episodes at 2x speed", PairRelation.REPLACED),
        ("Runs 5km every morning", "Runs 10km every morning", PairRelation.REPLACED),
        # Letters before the digits are a name, not a number and its unit.
        ("Listens to mp3 files", "Listens to mp4 files", PairRelation.SAME_FRAME),
        # A year against a letter is still a date.
        ("Visited Japan in 2019", "Visited Japan in 2023", PairRelation.SAME_FRAME),
    ],
)
def test_a_number_against_its_unit_is_another_quantity(
    older: str, newer: str, relation: PairRelation
) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is relation


@pytest.mark.parametrize(
    ("older", "newer", "relation"),
    [
        # "only" marks the value the only one; it is no content word of the statement denied.
        ("Shoots in RAW", "Never shoots RAW, only JPEG", PairRelation.NEGATED),
        # It still marks an exclusive value replacing the older one.
        ("Reads books on a Kindle", "Only reads paper books", PairRelation.REPLACED),
    ],
)
def test_an_exclusive_word_is_a_marker_not_content(
    older: str, newer: str, relation: PairRelation
) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is relation


def test_a_denial_marking_the_change_itself_is_left_to_the_model() -> None:
    # Session 15: "no longer" / "anymore" / "ne ... plus" say the older state ended, in the
    # newer note's own words (blind18 s064, blind15 p065/p066, blind20 b20-071).
    def view(text: str, vectors: list[tuple[float, ...]]) -> NoteView:
        return NoteView(terms_of(text), DIET, DIET, None, vectors)

    older = view("Responds to night calls", [CITY, DIET, DIET])
    assert denies_another_point(older, view("Does not take night calls", [DIET, DIET, DIET]))
    assert not denies_another_point(older, view("No longer takes night calls", [DIET, DIET, DIET]))
