"""Secrets by class, generated: templates x values x languages (:mod:`tests.support.secret_corpus`).

Security-question answers, backup and recovery codes, passphrases, BIP-39 seed words, PINs
written in words and values after a credential word with any punctuation, in EN/FR/ES/DE/IT,
and benign notes with the same cue words. The NER detector is left out (the secret guards
do not use it), so this runs in seconds. A fixed seed is the regression set; a new seed
(``generate(count, seed)``) is an honest run.
"""

from __future__ import annotations

from collections import Counter

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.model import ReasonCode
from memory_service.core.privacy.guard import check_privacy
from tests.support.no_ner import NoNer
from tests.support.secret_corpus import TEMPLATES, generate

SEED = 20261201
NOTES = 400


@pytest.fixture(scope="module")
def library() -> LibraryIdentifierDetector:
    return LibraryIdentifierDetector()


# Recall per class at the fixed seed. Below 1 only for passphrases: a phrase straight after
# the cue with no ":" or "is" and a stop word in it ("Passphrase gravel otter sings at noon")
# cannot be told from a note about the phrase ("Passphrase kept in the safe") and passes.
MIN_RECALL = {"passphrase": 0.95}


def test_generated_secrets_are_refused_as_secrets(library: LibraryIdentifierDetector) -> None:
    missed: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for row in generate(NOTES, SEED):
        if row["expect_status"] != "rejected":
            continue
        kind = row["note"].split("/")[0]
        seen[kind] += 1
        codes = {r.code for r in check_privacy(row["text"], pii=NoNer(), identifiers=library)}
        if ReasonCode.SECRET not in codes:
            missed[kind] += 1
    assert set(seen) == set(TEMPLATES)
    recall = {kind: 1 - missed[kind] / seen[kind] for kind in seen}
    assert {k: r for k, r in recall.items() if r < MIN_RECALL.get(k, 1.0)} == {}


def test_benign_notes_with_the_same_cue_words_are_kept(library: LibraryIdentifierDetector) -> None:
    refused = [
        row["text"]
        for row in generate(0, SEED)
        if check_privacy(row["text"], pii=NoNer(), identifiers=library)
    ]
    assert refused == []


@pytest.mark.parametrize(
    "text",
    [
        "Security question (first pet) answer: Biscuit",
        "Risposta alla domanda di sicurezza: Fufi (nome del primo cane)",
        "Wiederherstellungscodes: K7PQ-22XM, 9RTD-41LB",
        "Torcode Tiefgarage 1904",
        "PIN bancomat 7719",
        "clave wifi casa perroazul99",
        "The vault passphrase is 'gravel otter sings at noon'.",
        "Passwort \u2013 Birke!2022",
        "Antwort auf die Sicherheitsfrage Rex",
    ],
)
def test_the_seen_leaks_are_secrets(text: str, library: LibraryIdentifierDetector) -> None:
    codes = {r.code for r in check_privacy(text, pii=NoNer(), identifiers=library)}
    assert ReasonCode.SECRET in codes


@pytest.mark.parametrize(
    "text",
    [
        "Gave me the recovery words of his wallet: lampe fusil brume cactus ortie sable motte"
        " gravier.",
        "Las palabras de respaldo: perro nube lima barco hilo sopa tren pino.",
        "Security q (name of first school): Lindenhof.",
        "Domanda di sicurezza, primo gatto: Pallino.",
    ],
)
def test_a_word_run_after_a_colon_and_a_one_word_answer_are_secrets(text: str) -> None:
    reasons = check_privacy(text, pii=NoNer(), identifiers=LibraryIdentifierDetector())
    assert ReasonCode.SECRET in {reason.code for reason in reasons}


@pytest.mark.parametrize(
    "text",
    [
        "First car: Volvo, still misses it.",
        "Likes: hiking, cycling, chess, baking, pottery, yoga, climbing and surfing.",
        "Security question set up on the banking app last week.",
        "Sicherheitsfrage: Name des ersten Haustiers.",
    ],
)
def test_a_list_or_a_fact_after_a_colon_is_no_secret(text: str) -> None:
    assert not check_privacy(text, pii=NoNer(), identifiers=LibraryIdentifierDetector())


@pytest.mark.parametrize(
    "text",
    [
        # Keyed digits in a sentence naming a credential or a lock, far from its cue and
        # shaped like a year once joined (holdout7a, seen).
        "Codice del cancello del box dove tiene la moto: 1 9 7 3",
        "The garage door opens with the code his building manager set, 2 0 1 9.",
        "PIN de la tarjeta del trabajo, por si acaso: 4-4-7-1",
    ],
)
def test_digits_keyed_one_by_one_near_a_credential_or_a_lock_are_a_code(text: str) -> None:
    reasons = check_privacy(text, pii=NoNer(), identifiers=LibraryIdentifierDetector())
    assert ReasonCode.SECRET in {reason.code for reason in reasons}


@pytest.mark.parametrize(
    "text",
    [
        "Prefers seats 1 2 3 4 on the bus.",
        "Rates the door 4 5 on a scale of five, a code of conduct fan.",
        "Keeps the alarm off on weekends.",
    ],
)
def test_keyed_digits_without_a_credential_or_a_lock_are_no_code(text: str) -> None:
    reasons = check_privacy(text, pii=NoNer(), identifiers=LibraryIdentifierDetector())
    assert ReasonCode.SECRET not in {reason.code for reason in reasons}


@pytest.mark.parametrize(
    "text",
    [
        # A password's shape split from its cue (holdout7a/7b, seen): letters and digits with
        # a rule symbol inside the word.
        "Wi-Fi at the holiday flat: network BlueFig, key sunflower!Harbour42",
        "wifi at the rental: Harbour5G / seagull!77",
        "Hat für das Gäste-WLAN immer noch Tanne$1987 eingerichtet.",
    ],
)
def test_a_word_with_letters_digits_and_a_rule_symbol_is_a_password(text: str) -> None:
    reasons = check_privacy(text, pii=NoNer(), identifiers=LibraryIdentifierDetector())
    assert ReasonCode.SECRET in {reason.code for reason in reasons}


@pytest.mark.parametrize(
    "text",
    [
        "Won 2 games in a row last season!",
        "Loves Blink-182 and Sum 41!",
        "Books room#12 at the coworking space.",
        "Pays 5$ a month for the 2GB plan.",
    ],
)
def test_exclamations_prices_and_room_numbers_are_no_password(text: str) -> None:
    reasons = check_privacy(text, pii=NoNer(), identifiers=LibraryIdentifierDetector())
    assert ReasonCode.SECRET not in {reason.code for reason in reasons}
