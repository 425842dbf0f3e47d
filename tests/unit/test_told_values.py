"""Values said aloud or told apart, read by their structure (session 7, issue 10).

Each leak is one of a class: numbers said in full, two-digit pairs, radio alphabets, Roman
numerals, digits one at a time, a cue and its value in two sentences, key boxes, a password
told by its parts or by its recipe, a security answer told as a fact, a value concluded after
"so", a number's noun with its complement, part of a number, an address said in words, a
handle spelled symbol by symbol. The look-alikes share the words and must pass. No NER.
"""

from __future__ import annotations

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.privacy.guard import check_privacy
from memory_service.core.privacy.normalise import normalise_text
from tests.support.no_ner import NoNer


@pytest.fixture(scope="module")
def library() -> LibraryIdentifierDetector:
    return LibraryIdentifierDetector()


def codes(
    text: str, library: LibraryIdentifierDetector, keywords: tuple[str, ...] = ()
) -> set[str]:
    return {
        reason.code.value
        for reason in check_privacy(text, keywords, pii=NoNer(), identifiers=library)
    }


@pytest.mark.parametrize(
    ("spoken", "read"),
    [
        ("trois cent vingt-et-un", "321"),
        ("siete millones cuatrocientos mil ciento doce", "7400112"),
        ("einhundertdreiundzwanzig", "123"),
        ("neunzehnhundertzweiundsechzig", "1962"),
        ("millenovecentottantasette", "1987"),
        ("one hundred and twelve", "112"),
        ("quatre-vingt-dix-neuf", "99"),
        ("soixante et onze", "71"),
        ("four one five", "4 1 5"),
        ("nineteen eighty-seven", "19 87"),
        ("Door code ninety-five eighty-five", "Door code 95 85"),
        ("Hotel Kilo, then niner four four two zero", "HK94420"),
        ("B as in Bravo, K as in Kilo, 7, 9", "BK79"),
        ("Alarm code: IV VIII II I", "Alarm code: 4 8 2 1"),
        ("first 4, second 8, third 2, fourth 1", "first 4 8 2 1"),
        ("quattro volte il sette", "7777"),
        ("AB, trois cent vingt-et-un, CD", "AB-321-CD"),
        ("arroba, luego chef, guion bajo, malagueño", "@chef_malagueno"),
        # look-alikes stay words
        ("Has two kids", "Has two kids"),
        ("undue influence", "undue influence"),
        ("Rocky II, III and IV", "Rocky II, III and IV"),
        ("Milano, Roma, Napoli", "Milano, Roma, Napoli"),
        ("Has 2 kids, 1 dog, 3 cats and 4 fish", "Has 2 kids, 1 dog, 3 cats and 4 fish"),
        ("más de un millón en cartera", "mas de un millon en cartera"),
    ],
)
def test_the_normaliser_reads_values_said_aloud(spoken: str, read: str) -> None:
    assert normalise_text(spoken) == read


@pytest.mark.parametrize(
    "text",
    [
        "Le code de la porte est vingt-deux quarante-trois",
        "Il codice del cancello è quarantotto ventuno",
        "Door code seven two ninety-nine",
        "Passwort: Anton Berta sieben sieben Theodor",
        "Alarm code: IV VIII II I",
        "La alarma de la tienda se desactiva con el código en números romanos: MMXV.",
        "Gate code, digit by digit: 4, then 8, then 2, then 1",
        "The gate has a keypad. It's 4821.",
        "Zur Alarmanlage im Laden. Monat%376, dann AUS.",
        "Wi-Fi at the cabin? 250230, on the router.",
        "Cassetta delle chiavi: 4821",
        "Coffre de l'hôtel : 1341",
        "Le Masterlock de la salle : 0657",
        "Logs in to the benefits portal with capital B, then 'irch', then 2022.",
        "Entra nel registro elettronico con il soprannome del figlio e l'anno della comunione.",
        "Her first pet was called Biscuit",
        "Para «ciudad donde nacieron sus padres» siempre contesta Cáceres.",
        "Le code du garage, c'est le numéro de la maison répété, donc trente-huit trente-huit.",
        "Las palabras de recuperación del monedero empiezan por «tigre, ancla, nube».",
        "Il garage condominiale si apre col tastierino: quattro volte il sette.",
        "Le boîtier à clés du gîte s'ouvre avec soixante-et-onze, puis dix-neuf.",
        "Door code for the building: user repeated it: star, six, eight, one, hash.",
        "Le wifi de la maison : le nom du chien, Pistache, suivi de deux mille vingt et un.",
    ],
)
def test_secrets_told_are_refused(text: str, library: LibraryIdentifierDetector) -> None:
    assert "secret" in codes(text, library)


@pytest.mark.parametrize(
    "text",
    [
        "Numéro de sinistre 9694-50",
        "Mieternummer 145488",
        "Tenant ref 1111-60",
        "Número de socio del club (el de la tarjeta naranja): ochocientos doce, cuarenta y cinco.",
        "The card on file: the last four are nine nine one two.",
        "Su DNI termina en cuatro cuatro cero uno zeta.",
        "Lives above the bakery, flat C, seventeen Harbour Row.",
        "Wohnt im grünen Haus Nummer sieben, gleich hinter der Kirche in der Lindenstraße.",
        "Apartado de correos de la asociación: el trescientos cuatro, en Zaragoza.",
        "Sa plaque d'immatriculation : AB, trois cent vingt-et-un, CD.",
        "Auf Instagram heißt sie at zeichen, backstube, unterstrich, hamburg.",
        "Mastodon account is on the fosstodon server, name is 'quietbyte'.",
        "Née un vingt-neuf février, en quatre-vingt-huit, elle le fête rarement.",
        "Cumple años el veinte de enero; nació en el ochenta y cinco.",
        "Cabin location for deliveries: forty-six point two north, eleven point four east.",
        "Standort der Almhütte: siebenundvierzig Komma drei Nord, elf Komma eins Ost.",
    ],
)
def test_identifiers_told_are_refused(text: str, library: LibraryIdentifierDetector) -> None:
    assert "pii" in codes(text, library)


@pytest.mark.parametrize(
    "text",
    [
        "Walks twenty, thirty minutes a day.",
        "Born in nineteen eighty-seven, in Leeds.",
        "Favourite films: Rocky II, III and IV.",
        "Her dog is called Biscuit.",
        "Her first car was a Volvo.",
        "Logs in with Google and Face ID.",
        "Se connecte avec FranceConnect et son téléphone.",
        "Writes DeSouza with a capital S.",
        "Writes 'Many thanks' in every email",
        'Says "I\'m probably the worst at DIY" and wants a professional.',
        "Prefers a key safe to hiding keys under the mat.",
        "Room number 4021 for the meeting",
        "Numéro de chambre 4021",
        "Number of steps 10000 a day",
        "Her contract ends in 2026.",
        "Begins with 10 minutes of stretching.",
        "Takes bus number 12 down Oxford Street.",
        'Watches "Critical Role" on Twitch every Thursday.',
        'Plays "Portal 2" on Steam with her brother.',
        "Quizás tenga más de un millón en cartera.",
        "Gym member since 2019.",
        "Goes to the gym two times a week.",
        "Birthday on 3 March; in 15 years she retires.",
        "Press 1, 2, 3 then hash to skip the menu.",
        "Hat die PIN der Karte geändert. Fährt 23 km zur Arbeit.",
        "Ha cambiato la password del wifi. Usa Kotlin 1.9.22 a casa.",
        "Is at the gate right now waiting for BA2490 to board.",
        "Lives 46.2 km north of the city, 11.4 km east of the lake.",
        "Rated the film four point five out of five.",
        # a year, then a maker whose two words are spelling-alphabet words: no spelled code
        "Drives his 1965 Alfa Romeo Giulia Sprint to the office",
        "Prende il Frecciarossa 9515 Milano-Roma il lunedì.",
    ],
)
def test_look_alikes_pass(text: str, library: LibraryIdentifierDetector) -> None:
    assert not codes(text, library) & {"pii", "secret"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # an identity document named before its number (leaks_b, session 7)
        ("carta d'identità CA12345AB scansionata al check-in", "pii"),
        ("ID card CA12345AB scanned at check-in", "pii"),
        # "cód." / "cod.": the shorthand of a code noun in notes taken on the phone
        ("cód. alarma 2580 + tecla OFF; inquilina lo sabe", "secret"),
        # a security question whose aside names it, then its answer after the colon
        ("Sicherheitsfrage (Geburtsort Mutter): Bad Kreuznach", "secret"),
        ("pregunta seguridad (colegio): 'San Ignacio' confirmada", "secret"),
    ],
)
def test_crm_shorthand_values_are_refused(
    text: str, reason: str, library: LibraryIdentifierDetector
) -> None:
    assert reason in codes(text, library)


@pytest.mark.parametrize(
    "text",
    [
        "Prefers the ID card over the passport for domestic flights",
        "Has an Italian carta d'identità, renewed in 2031",
        "cod. promo non applicabile su tariffa non rimborsabile",
        "Sicherheitsfrage: Name des ersten Haustiers",
    ],
)
def test_crm_shorthand_look_alikes_pass(text: str, library: LibraryIdentifierDetector) -> None:
    assert not codes(text, library) & {"pii", "secret"}


@pytest.mark.parametrize(
    "text",
    [
        # holdout9 first sight (seen): a password made to a rule, with no word announcing it
        "To get into the Pixieset account, use Tulips!Harbour88.",
        "Para entrar a la app de facturación usa Tango#Palermo77.",
        "Contraseña de la sede electrónica del ayuntamiento: Girasol.2024",
        "In die Kita-App kommt sie mit Schneeflocke_2019!",
    ],
)
def test_a_composed_password_is_a_secret_without_its_cue(
    text: str, library: LibraryIdentifierDetector
) -> None:
    assert "secret" in codes(text, library)


@pytest.mark.parametrize(
    "text",
    [
        "Uses Python3.12 and Node.js daily",
        "Fan of Blink-182 and AC/DC",
        "Works at Booking.com since 2019",
        "Reads about Web3.0 and Industry4.0 trends",
    ],
)
def test_versions_and_names_with_symbols_are_no_composed_password(
    text: str, library: LibraryIdentifierDetector
) -> None:
    assert "secret" not in codes(text, library)


def test_key_groups_after_a_cue_and_its_complement_are_a_secret(
    library: LibraryIdentifierDetector,
) -> None:
    # holdout9a first sight (seen): the cue's complement stood between it and its colon
    text = "App password for the tutoring account's mail sync: qwmz hpta lrke vbno."
    assert "secret" in codes(text, library)
    assert "secret" not in codes("Password for the family account: see the shared vault", library)
