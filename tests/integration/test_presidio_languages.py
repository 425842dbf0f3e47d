"""The PII detector on the five claimed languages, with both real spaCy models (loaded once)."""

from __future__ import annotations

import pytest

from memory_service.adapters.language_detection import NGramLanguageDetector
from memory_service.adapters.presidio_pii import PresidioPiiDetector
from tests.support.presidio import shared_detector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return shared_detector()


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Prefers aisle seats on long flights.", "en"),
        ("Préfère les fenêtres côté couloir.", "fr"),
        ("Prefiere volar con Iberia y pide asiento de pasillo.", "es"),
        ("Möchte Rechnungen per E-Mail statt per Post erhalten.", "de"),
        ("Vuole le fatture via email, mai su carta.", "it"),
    ],
)
def test_notes_are_routed_by_their_language(text: str, language: str) -> None:
    assert NGramLanguageDetector().language_of(text) == language


@pytest.mark.parametrize(
    "text",
    [
        "I want to add Edvard Petrussen as a beneficiary",
        "User: Ágnes Földesy",
        "Mrs. Alvarez prefers calls in the morning.",
        "My neighbour priya keeps the spare key.",
        "Le dossier est géré par Ozanne Kerbrat.",
        "Mme Dupont reçoit les colis.",
        "Las reservas las gestiona su cuñada Remedios.",
        "Termine bitte mit Frau Oberhauser abstimmen.",
        "Seine Tochter Wiebke bringt die Unterlagen vorbei.",
        "Le consegne le ritira la signora Pellegatti.",
        "Il conto è a nome di Ludovica Tresoldi.",
    ],
)
def test_people_are_found_in_every_language(detector: PresidioPiiDetector, text: str) -> None:
    assert "PERSON" in detector.entity_types(text)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Wohnt in der Hauptstraße 5, 10115 Berlin", "STREET_ADDRESS"),
        ("Livrer au 12 rue des Lilas.", "STREET_ADDRESS"),
        ("Enviar a Calle Mayor 3.", "STREET_ADDRESS"),
        ("Spedire in Via Roma 10.", "STREET_ADDRESS"),
        ("Please return to Unit 4719 Box 7394 DPO AP 70942", "POSTAL_BOX"),
    ],
)
def test_addresses_are_found_in_every_language(
    detector: PresidioPiiDetector, text: str, kind: str
) -> None:
    assert kind in detector.entity_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Fährt im Winter lieber mit der Bahn als mit dem Auto.",
        "Bestellt Druckerpapier immer im Großpack und zahlt per Rechnung.",
        "Das Team verwendet Jira für alle Aufgaben und Confluence für Notizen.",
        "Holds a brokerage account with Charles Schwab.",
        "Invests in ETFs through Charles Schwab, no crypto at all.",
        "Books hotels via Marriott Bonvoy, Gold Elite tier.",
        "Reads Agatha Christie on every holiday.",
        "Drinks Jack Daniel's with cola.",
        "Wears Tommy Hilfiger shirts to work.",
        "Checking account at Wells Fargo, prefers wire transfers.",
        "Runs Linux Mint on the old laptop.",
        "Only buys the vegan Dr. Martens line when shopping for boots.",
        "Préfère les fenêtres côté couloir.",
        "Tiene Linux Mint instalado en el ordenador de casa.",
        "Vive a Bologna e va in ufficio in bicicletta.",
    ],
)
def test_brands_german_nouns_and_places_are_not_people(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert detector.entity_types(text) == frozenset()
