"""Session 14: the pair model's sentence vectors are encoded in one call per plan, for the
memories of the pairs the rules leave to it, and never for a pair it will not read."""

from __future__ import annotations

from memory_service.core.model import Attribute, Cardinality
from tests.unit.test_consol13_sentences import CountingEncoder, sentence_model
from tests.unit.test_consolidation import _active_texts, make_global, make_note, plan
from tests.unit.test_pairs import CITY, DIET, TOY_WORDS


def test_two_notes_left_to_the_model_make_one_encoder_call() -> None:
    old = make_global("Is teetotal")
    first, second = make_note("Never drinks alcohol"), make_note("Cannot swim")
    far = (0.0, 0.0, 1.0, 0.0)  # the two notes apart too: the rules merge neither pair
    vectors = {old.id: CITY, first.id: DIET, second.id: far}
    encoder = CountingEncoder()
    result = plan(
        [first, second],
        [old],
        vectors=vectors,
        meanings=vectors,
        pairs=sentence_model(),
        embedder=TOY_WORDS,
        sentences=encoder,
    )
    assert len(encoder.calls) == 1
    assert sorted(encoder.calls[0]) == ["Cannot swim", "Is teetotal", "Never drinks alcohol"]
    assert _active_texts(result, [old, first, second]) == {"Never drinks alcohol", "Cannot swim"}


def test_a_pair_the_model_never_reads_is_not_encoded() -> None:
    # Two attributes of different keys settle the pair: nothing is encoded.
    old = make_global("Is teetotal", attribute=Attribute("diet", Cardinality.SINGLE))
    note = make_note("Never drinks alcohol", attribute=Attribute("hobby", Cardinality.SINGLE))
    vectors = {old.id: CITY, note.id: DIET}
    encoder = CountingEncoder()
    result = plan(
        [note],
        [old],
        vectors=vectors,
        meanings=vectors,
        pairs=sentence_model(),
        embedder=TOY_WORDS,
        sentences=encoder,
    )
    assert encoder.calls == []
    assert _active_texts(result, [old, note]) == {"Is teetotal", "Never drinks alcohol"}
