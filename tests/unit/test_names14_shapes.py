"""names14: public names read as private people, decided by the name's structure: a maker's
model code in the name's run, a breed before an animal's noun, a breed's cross named, and the
admirer's or reader's noun before a full name (holdout20/leaks_l durable false refusals)."""

from __future__ import annotations

from memory_service.core.privacy.brands import (
    admired_figure,
    model_coded,
    product_line_named,
    reads_as_brand,
)
from memory_service.core.privacy.name_context import thing_named
from memory_service.core.privacy.name_lookalikes import breed_before_animal


def _span(text: str, name: str) -> tuple[int, int]:
    start = text.index(name)
    return start, start + len(name)


def test_a_model_code_in_the_name_run_is_a_product() -> None:
    for text, name in (
        ("Observes with a Sky-Watcher Skyliner 200P Dobsonian from the garden.", "Sky-Watcher"),
        ("Wants a Celestron Evolution 8HD next winter.", "Celestron Evolution"),
        ("Owns Bose QC45 headphones and wants spare ear pads.", "Bose"),
        ("Il cliente usa una Fujifilm X100V per le foto di viaggio.", "Fujifilm"),
    ):
        assert model_coded(text, *_span(text, name)), text
        assert reads_as_brand(text, *_span(text, name)), text
        assert product_line_named(text, *_span(text, name)), text


def test_a_number_a_time_or_a_cue_keeps_the_person() -> None:
    for text, name in (
        ("Call Anna Weber 5pm tomorrow about the keys.", "Anna Weber"),
        ("Visit Anna Weber 31 days after the move.", "Anna Weber"),
        ("Meeting Jonas Berg 2nd of May at the office.", "Jonas Berg"),
        ("Her neighbour Anna Weber X5 driver, parks outside.", "Anna Weber"),
        ("Prints Jonas Berg's A4 forms every week.", "Jonas Berg"),
        ("Jonas Berg T4, his brother, lends the van.", "Jonas Berg"),
    ):
        assert not model_coded(text, *_span(text, name)), text


def test_a_breed_before_an_animal_noun_is_no_person() -> None:
    for text, name in (
        ("Has a young Cavalier King Charles spaniel in puppy class.", "Cavalier King Charles"),
        ("Two Jack Russell terriers, both reactive on the lead.", "Jack Russell"),
    ):
        assert breed_before_animal(text, _span(text, name)[1]), text
        assert reads_as_brand(text, *_span(text, name)), text


def test_an_animal_that_is_also_a_verb_or_a_name_keeps_the_person() -> None:
    for text, name in (
        ("Anna Weber pet-sits when we travel.", "Anna Weber"),
        ("Anna Weber pet sits when we travel.", "Anna Weber"),
        ("Jonas Berg fish on Sundays with us.", "Jonas Berg"),
        ("Anna Weber's dog barks at night.", "Anna Weber"),
        ("Talked to Jonas Berg Cat about the lease.", "Jonas Berg"),
    ):
        assert not breed_before_animal(text, _span(text, name)[1]), text
    text = "Her neighbour Anna Weber spaniel breeder, sells puppies."
    assert not reads_as_brand(text, *_span(text, "Anna Weber"))


def test_a_breed_cross_called_is_the_pet() -> None:
    text = "The dog is a collie cross called Pepper; pulls on the lead."
    assert thing_named(text, *_span(text, "Pepper"))
    text = "Works with a colleague called Pepper Lindqvist."
    assert not thing_named(text, *_span(text, "Pepper"))


def test_the_admirer_or_reader_noun_before_a_full_name() -> None:
    for text, name in (
        ("Grande admiratrice de Marie Curie ; aime les biographies de scientifiques.", "Marie"),
        ("Grand lecteur d'Albert Camus ; veut les rééditions en poche.", "Albert Camus"),
        ("È una grande estimatrice di Gae Aulenti e chiede dei pezzi originali.", "Gae Aulenti"),
        ("Admira muchísimo a Rafa Nadal y ve todos sus partidos.", "Rafa Nadal"),
        ("Admira a Rafa Nadal y a Carlos Alcaraz, y ve sus partidos.", "Carlos Alcaraz"),
    ):
        assert admired_figure(text, *_span(text, name)), text


def test_the_admirer_noun_still_refuses_a_relation_or_a_platform() -> None:
    for text, name in (
        ("Grand admirateur de Julie Martin, sa voisine, et de ses gâteaux.", "Julie Martin"),
        ("Grande lectrice de Julie Martin sur Instagram, veut ses recettes.", "Julie Martin"),
        ("Grand admirateur de Paul Girard.", "Paul Girard"),
    ):
        assert not reads_as_brand(text, *_span(text, name)), text


def test_a_name_then_the_favourite_public_role() -> None:
    from memory_service.core.privacy.brands import favourite_after

    text = "Rory McIlroy is their favourite golfer; watches every major."
    assert favourite_after(text, *_span(text, "Rory McIlroy"))
    assert reads_as_brand(text, *_span(text, "Rory McIlroy"))
    for text, name in (
        ("Anna Weber is their favourite teacher at the school.", "Anna Weber"),
        ("Says Anna Weber is their favourite golfer at the club.", "Anna Weber"),
        ("Anna Weber, his cousin, is their favourite golfer.", "Anna Weber"),
    ):
        assert not reads_as_brand(text, *_span(text, name)), text


def test_a_possessive_before_an_animal_or_a_postcode_keeps_the_person() -> None:
    text = "Walks Anna Weber's dog on Tuesdays."
    assert not reads_as_brand(text, *_span(text, "Anna Weber's"))
    text = "Send the parcel to Anna Weber BS6 7PL."
    assert not model_coded(text, *_span(text, "Anna Weber"))


def test_a_ratio_or_a_rating_in_the_run_is_a_model_but_not_a_date_or_a_file_number() -> None:
    for text, name in (
        ("Observes with a Dobson Sky-Watcher 150/750 from the balcony.", "Dobson Sky-Watcher"),
        ("Quote for Jinko Tiger Neo 440 Wp panels on the garage.", "Jinko Tiger"),
    ):
        assert model_coded(text, *_span(text, name)), text
    for text, name in (
        ("Call Anna Weber 12/05/2024 about the lease.", "Anna Weber"),
        ("Call Anna Weber 120/2024 about the lease.", "Anna Weber"),
        ("Sent Anna Weber 2 GB of photos.", "Anna Weber"),
        ("Paid Anna Weber 430 EUR for the sofa.", "Anna Weber"),
    ):
        assert not model_coded(text, *_span(text, name)), text


def test_the_faithful_reader_before_a_full_name() -> None:
    text = "Lectrice fidèle de Pierre Lemaitre ; la prévenir des nouveautés polar."
    assert admired_figure(text, *_span(text, "Pierre Lemaitre"))
    text = "Lectrice fidèle de Julie Martin, sa voisine, qui écrit des polars."
    assert not reads_as_brand(text, *_span(text, "Julie Martin"))
