"""The NER model's people that are products or brands by the sentence's structure, and the
phone pattern's matches that are prices: fresh examples (none from an evaluation set)."""

from __future__ import annotations

import pytest

from memory_service.adapters.presidio_pii import PresidioPiiDetector
from tests.support.presidio import shared_detector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return shared_detector()


@pytest.mark.parametrize(
    "text",
    [
        "Drives a 2018 Mazda CX5 Signature to work.",
        "Owns a Nissan Leaf Tekna and a Yamaha MT07.",
        "Team uses Asana Business for planning.",
        "Is a supporter of Aston Villa and goes to home games.",
        "Lit Leïla Slimani et Maylis de Kerangal.",
        "Lee a Elena Poniatowska y a Juan Rulfo.",
        "Legge Natalia Ginzburg ed Alberto Moravia.",
        "Collects first pressings of Nina Simone.",
        "Budget de 420 000 € pour la maison.",
        "Bebe Marqués de Riscal en las cenas.",
    ],
)
def test_products_brands_works_and_prices_are_not_people(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert not detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Meets Jane Whitfield every Tuesday.",
        "Mi bebé Lucía duerme mal.",
        "Call me on 0612 345 678.",
        "Lee cuentos a su nieta Rosa Montero.",
    ],
)
def test_people_and_phones_stay_personal_data(detector: PresidioPiiDetector, text: str) -> None:
    assert detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Paga los hoteles con su Mastercard Black.",
        "Uses the Visa Signature for car hire insurance.",
        "Hat eine Visa Gold von der Sparkasse.",
    ],
)
def test_a_card_network_and_its_tier_are_a_card_product_not_a_person(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert "PERSON" not in detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ordered a Hyundai Ioniq 5 Max Comfort for the family.",
        "Ora lavora da casa il venerdì.",
    ],
)
def test_a_trim_after_a_model_number_and_a_sentence_adverb_are_not_people(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert "PERSON" not in detector.entity_types(text)


def test_a_name_after_a_model_number_without_a_capitalised_word_before_it_is_a_person(
    detector: PresidioPiiDetector,
) -> None:
    assert "PERSON" in detector.entity_types("Room 5: Max Comfort checks in on Monday.")


def test_a_build_number_after_its_word_is_no_ip_address(detector: PresidioPiiDetector) -> None:
    # Presidio's own IP recognizer reads the four dotted groups; the version word decides.
    assert "IP_ADDRESS" not in detector.entity_types("Runs the booking app at build 7.3.0.212.")
    assert "IP_ADDRESS" in detector.entity_types("Her router answers on 84.122.31.7 from outside.")
