"""Classes of values the guards refuse by structure, each with fresh examples in the five
languages (none is the text of an evaluation set): codes keyed digit by digit, a credential
word with a complement before its value, an answer after an aside, a code that opens
something, numbers dictated in pairs, dates of birth, e-mail addresses spelled after "at".
Each class also has look-alikes that must pass."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.identifiers import identifier_types
from memory_service.core.privacy.normalise import normalise, normalise_text
from memory_service.core.privacy.secrets import keyed_digits_joined, lock_code, secret_kinds


def _secrets(text: str) -> frozenset[str]:
    return secret_kinds(normalise(text).note)


def _identifiers(text: str) -> frozenset[str]:
    return identifier_types(normalise(text).note)


@pytest.mark.parametrize(
    "text",
    [
        # keyed digits after a cue, any separator
        "Bike lock combination: 2 7 7 0",
        "Le digicode de l'immeuble : 3-9-0-1",
        "El PIN del móvil es 8.8.1.4",
        "Zugangscode zum Keller: 5 0 6 2",
        "Il PIN della SIM è 1-2-9-3",
        # a complement between the cue and its value, no "is" or ":"
        "PIN for the fuel card 4418",
        "Code PIN du téléphone pro 7730",
        "PIN de la tarjeta de crédito 9051",
        "PIN für die Kreditkarte 6617",
        "PIN del telefono aziendale 2284",
        # an answer after an aside
        "Security answer (favourite teacher) is Hartley.",
        "Réponse secrète (premier animal) : Filou.",
        "Respuesta de seguridad (colegio): Cervantes.",
        "Geburtsname der Mutter: Kowalczyk.",
        "Cognome da ragazza della nonna: Ferraro.",
        # a code that opens something, whatever the verb
        "The back gate unlocks with 6 0 1 9 after ten.",
        "Le portail s'ouvre avec 5512.",
        "La puerta del garaje se abre con 7291.",
        "Das Tor öffnet man mit 4 4 0 8.",
        "La cassaforte si apre con 93051.",
    ],
)
def test_a_code_or_answer_after_its_cue_is_a_secret(text: str) -> None:
    assert _secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "The PIN of the card changed in 2021.",
        "Security answer is required for password resets.",
        "The alarm company visits with 2 technicians every year.",
        "Gate 12 boards with 1500 passengers.",
        "Plays a 4-3-3 formation in the five-a-side team.",
        "The door opens at 0830 every weekday.",
        "PIN reset takes 3 days at the bank.",
        "Le portail a été repeint en 2019.",
    ],
)
def test_a_number_near_a_cue_that_is_not_its_value_passes(text: str) -> None:
    assert not _secrets(text)


def test_keyed_digits_are_joined_but_dates_and_scores_are_not() -> None:
    assert keyed_digits_joined("code 9-3-7-1 then") == "code 9371 then"
    assert keyed_digits_joined("on 12.03.2024") == "on 12.03.2024"
    assert keyed_digits_joined("won 3-1") == "won 3-1"
    assert not lock_code("the door was painted with 2 coats")


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("Tel : zéro un, quarante-cinq, soixante-dix-sept, quatre-vingt-dix, vingt et un", 10),
        ("Móvil seis tres nueve, setenta y dos, veintidós, catorce", 9),
        ("Nummer null sieben eins, neunundfünfzig, zweiunddreißig, elf", 9),
        ("Numero tre due otto, sessantasei, quarantuno, diciannove", 9),
        ("Cell is five one two, forty-four, eighty-one, thirteen", 9),
    ],
)
def test_numbers_dictated_in_pairs_become_digits_and_an_identifier(text: str, digits: int) -> None:
    normalised = normalise_text(text)
    assert sum(ch.isdigit() for ch in normalised) == digits
    assert _identifiers(text)


@pytest.mark.parametrize(
    "text",
    [
        "Has two kids and three cats.",
        "Runs twenty or thirty minutes a day.",
        "Quiere veinte o treinta páginas como máximo.",
        "Trinkt zwei, drei Tassen Kaffee am Tag.",
    ],
)
def test_a_few_number_words_stay_words(text: str) -> None:
    assert not any(ch.isdigit() for ch in normalise_text(text))


@pytest.mark.parametrize(
    "text",
    [
        "Was born 30 November 1969 in Cork.",
        "D.O.B. 04/04/1993",
        "Née le 9 février 1958.",
        "Fecha de nacimiento: 17 de agosto de 1961.",
        "geb. 03.05.1977 in Linz",
        "Nato il 12 dicembre 1980 a Lecce.",
    ],
)
def test_a_full_date_after_a_birth_word_is_a_date_of_birth(text: str) -> None:
    assert "DATE_OF_BIRTH" in _identifiers(text)


@pytest.mark.parametrize(
    "text",
    [
        "Born in 1969 and raised in Cork.",
        "Birthday party every 14 February at the pub.",
        "Nata a Lecce, vive a Milano dal 2004.",
        "Moved on 12/03/2020 to a bigger flat.",
    ],
)
def test_a_year_alone_or_a_date_without_a_birth_word_is_not_one(text: str) -> None:
    assert "DATE_OF_BIRTH" not in _identifiers(text)


def test_an_address_spelled_after_an_english_at_is_still_read() -> None:
    assert "EMAIL_ADDRESS" in _identifiers("Write to her at r.osei at proton dot me please")
    assert "EMAIL_ADDRESS" not in _identifiers("Meets at the cafe at noon")


@pytest.mark.parametrize(
    "text",
    [
        "Deposit of 1 500 000 for the warehouse.",
        "Plafond de 2.400.000 pour le projet.",
        "Raised 750,000 in the seed round.",
        "Request id 0b6f3c1e-52d4-4a7e-b1c9-8e2f0d7a6c45 failed twice.",
        "Job ran at timestamp 1698765432 and again later.",
        "Runs a Renault Clio Hybrid 145 daily; model code E-Tech5.",
        "Drives a Kia Niro Hybrid2 lease.",
    ],
)
def test_round_quantities_uuids_timestamps_and_worded_models_are_harmless(text: str) -> None:
    assert not _identifiers(text)
    assert not _secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Call 410 262 478 500 after six.",
        "IBAN GB 40 NE OI 95 44 55 50 51 35 71 for refunds",
        "Token 0b6f3c1e-52d4-4a7e-b1c9-8e2f0d7a6c45 for the API.",
        "Member code AB1234567CD at the gym.",
    ],
)
def test_look_alikes_of_harmless_shapes_are_still_refused(text: str) -> None:
    assert _identifiers(text) or _secrets(text)


def test_a_version_after_its_noun_is_not_tried_as_a_national_id() -> None:
    from memory_service.core.privacy.identifiers import candidate_codes

    assert candidate_codes(normalise("Office build 16.0.14332 crashes").note) == ()


@pytest.mark.parametrize(
    "text",
    [
        "Reg. LB19 XKT for the car park",  # a UK plate: "LB" before the digits is no unit
        "Nació el 2 de mayo de 1990.",  # the Spanish birth verb
        "Nací el 14/02/1985",
    ],
)
def test_plates_and_birth_verbs_are_identifiers(text: str) -> None:
    assert _identifiers(text)


@pytest.mark.parametrize(
    "text",
    [
        "Möchte Tarife ohne 24-Monats-Bindung.",  # words joined by hyphens to a number
        "Keeps the home phone number since 1998.",  # a year after "since", not a number
        "Commit 3f9c2ab fixed the bug she reported.",  # a thing's hash
        "Se mudó a Madrid el 2 de mayo de 1990.",  # a date with no birth word
        "Costs 1040 CHF a month.",  # a currency after the digits
    ],
)
def test_hyphenated_words_harmless_years_and_hashes_are_not_identifiers(text: str) -> None:
    assert _identifiers(text) == frozenset()
