"""names8: the name classes leaks_e (seen) still let through, closed by structure, and their
look-alikes that must still pass. Fresh, made-up examples in EN/FR/ES/DE/IT (none from an
evaluation set).

1. a kinship or role word, then a given name no dictionary holds, before a verb that is also
   a noun of works ("Daughter Aroha plays football");
2. a name in a script without capitals (CJK, Arabic, Hebrew, Devanagari) after a person
   cue, or after a preposition of company; Cyrillic and Greek have capitals and were read;
3. a name as a quoted tag, a signature after a sign-off, a booking under a name;
4. a given name only in the keywords while the text speaks of someone ("with her");
5. a public figure followed through their works said after "and" ("Admire Victor Hugo et lit
   ses romans"); a figure without such evidence ("Admires Marie Curie") stays refused.
"""

from __future__ import annotations

import pytest

from memory_service.adapters.presidio_pii import PresidioPiiDetector
from tests.support.presidio import refused_as_pii, shared_detector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return shared_detector()


_pii = refused_as_pii


PEOPLE = [
    # 1. kinship or role word, then an unknown given name, then a verb
    "Daughter Aroha plays football on Saturdays, keep mornings free.",
    "Nephew Tamati starts school in February, so school runs change.",
    "Colleague Siobhan covers Fridays, so no meetings then.",
    "Granddaughter Ngaio loves dinosaur books as gifts.",
    "Stepson Kauri needs a booster seat in rental cars.",
    "Cousin Rangi plays rugby every Easter weekend.",
    "Son Tavita starts school in March.",
    "Sa fille Maëlle joue au handball le mercredi.",
    "Son neveu Ewenn commence la crèche en septembre.",
    "Cousine Anouk vient tous les étés.",
    "Su hijo Iker entrena los martes, así que nada de reuniones.",
    "Su sobrina Ainhoa viene a comer los domingos.",
    "Prima Xiomara llega en agosto.",
    "Ihre Tochter Lieselotte spielt Geige am Donnerstag.",
    "Sein Neffe Jannik fängt im August die Lehre an.",
    "Tochter Frieda hat Montags Ballett.",
    "Sua figlia Ginevra fa danza il lunedì.",
    "Suo nipote Brando gioca a calcio il sabato.",
    "Figlia Ludovica ha danza il martedì.",
    # 2. other scripts after a cue, or after a preposition of company
    "Mother-in-law 田中 likes green tea when she visits.",
    "Her husband أحمد prefers aisle seats.",
    "Brother-in-law \u05d9\u05d5\u05e1\u05d9 is vegetarian, book accordingly.",  # Hebrew
    "Neighbour प्रिया waters the plants when the user travels.",
    "Su compañero de trabajo 王伟 comparte coche los lunes.",
    "Prefers to call colleague Дмитрий before noon.",
    "Buys souvenirs for her friend Νίκος when travelling.",
    "Sa belle-mère Светлана vient à Noël.",
    "Ihr Kollege Андрей übernimmt die Freitage.",
    "Il suo amico Γιώργος porta il vino alle cene.",
    "Dinner with 田中 every second Friday.",
    "Déjeune avec 김민준 le jeudi.",
    "Weekend plans vary. 田中 likes hiking, so keep Sundays open.",
    "ラーメン is the usual Friday lunch.",  # fail closed: a caseless subject before a verb
    # 3. tags, signatures, bookings
    "Keeps the work calendar tagged 'Noah' for the school runs.",
    "Emails are signed 'Best, Giulia' and should stay that way.",
    "Signs off emails with 'Cheers, Tavita'.",
    "Books tables under 'Hendricks, party of 4' at most restaurants.",
    "Makes every restaurant reservation in the name of Okafor.",
    "Réserve toujours au nom de Kerhervé pour les restaurants.",
    "Reserva siempre a nombre de Etxeberria en los restaurantes.",
    "Reserviert Tische immer auf den Namen Wischnewski.",
    "Prenota sempre a nome di Scarpellini al ristorante.",
    "Réserve toujours sous le nom Kerhervé.",
    "Reserva mesa bajo el nombre de Etxeberria.",
    "Reserviert immer unter dem Namen Wischnewski.",
    "Prenota sotto il nome di Scarpellini.",
    "Books a table for 4 under Okafor.",
    # a name as a value under a name's key in code or data
    'Prefill the form with {"first": "Tavita", "diet": "vegan"}.',
    "Config has last_name = 'Wischnewski' for the invoices.",
    'Le profil contient "prenom": "Maëlle".',
    'Ajustes: {"name": "Giulia", "tema": "oscuro"}.',
    "Firma los correos con 'Un abrazo, Iker'.",
    "Unterschreibt Mails mit 'Viele Grüße, Jannik'.",
    "Signe ses mails « Cordialement, Maëlle ».",
    # 5. a full name and someone's works, but met, not followed; no works named
    "Had coffee with Anna Berg and read her poems.",
    "Trifft sich mit Jonas Keller und hört seine Lieder.",
]

KEYWORD_PEOPLE = [
    ("Prefers window seats when travelling with her.", ("travel", "maria")),
    ("Goes hiking every month with him.", ("hiking", "tomasz")),
    ("Cena con ella los viernes en sitios tranquilos.", ("comida", "carla")),
]

PASS = [
    # words of other scripts as food or vocabulary
    "Loves ramen (ラーメン) and tries a new shop every month.",
    "Is learning the word 'спасибо' and other Russian basics.",
    "Prefers the menu written in Japanese, e.g. 寿司 and 天ぷら.",
    "Apprend le mot 'שלום' pour son voyage.",
    "Likes matcha from Kyoto, especially 抹茶 lattes.",
    "Practises writing नमस्ते in Devanagari every evening.",
    "Has a kanji tattoo 愛 and likes calligraphy.",
    # brands, products, pets, days and months
    "Uses Charles Schwab for the brokerage account.",
    "Drinks Jack Daniel's on special occasions.",
    "Prefers meetings on Monday and Friday mornings.",
    "Birthday month is August, likes cake.",
    "Feeds the cat Biscuit twice a day.",
    "Their dog Pepper needs a walk at 7.",
    "Le chat Minou dort sur le canapé.",
    "Il cane Briciola mangia crocchette.",
    "Der Hund Bello braucht Auslauf.",
    "El perro Canela duerme en el sofá.",
    "Prefers Tesla Model 3 rentals.",
    "Listens to Taylor Swift albums while working.",
    "Reads Agatha Christie novels on holiday.",
    "Likes Marvel films, especially Iron Man.",
    # a figure and their works after "and"
    "Admire Victor Hugo et lit ses romans le soir.",
    "Sigue a Rafa Nadal y pide alertas de sus partidos.",
    "Bewundert Albert Einstein und liest seine Bücher.",
    "Ammira Alessandro Manzoni e rilegge i suoi romanzi.",
    "Reads Jo Nesbø and all his thrillers on holiday.",
    # a kinship word without a name; a tag that is a category
    "Colleague meetings are on Fridays.",
    "Son and daughter both play football.",
    "Daughter starts school in September.",
    "Son iPhone est cassé depuis lundi.",
    # keys that name no one
    'Backup job is {"name": "nightly-backup", "cron": "daily"}.',
    'Morning routine as JSON: {"first": "coffee", "then": "emails"}.',
    "Keeps the calendar tagged 'Work' separate from the family one.",
    "Books tables under 20 euros a head when possible.",
]

# Refused on purpose (fail closed): a capitalised value under a bare "name" key is read as a
# person's name by the one reader of keyed values (core/privacy/locators.py keyed_values),
# whatever the value; a preset and a person cannot be told apart there.
FAIL_CLOSED = [
    "Sets name='Dark Mode' as the theme preset.",
]

KEYWORD_PASS = [
    ("Prefers window seats when travelling.", ("travel", "maria")),
    ("Prefers window seats when travelling with her.", ("travel", "window")),
    ("Carla's favourite seat is by the window; book it with her.", ("travel", "carla")),
]


@pytest.mark.parametrize("text", PEOPLE)
def test_a_person_named_by_structure_is_refused(detector: PresidioPiiDetector, text: str) -> None:
    assert _pii(detector, text)


@pytest.mark.parametrize(("text", "keywords"), KEYWORD_PEOPLE)
def test_a_name_only_in_the_keywords_of_a_note_about_someone(
    detector: PresidioPiiDetector, text: str, keywords: tuple[str, ...]
) -> None:
    assert _pii(detector, text, keywords)


@pytest.mark.parametrize("text", PASS)
def test_a_look_alike_passes(detector: PresidioPiiDetector, text: str) -> None:
    assert not _pii(detector, text)


@pytest.mark.parametrize("text", FAIL_CLOSED)
def test_a_capitalised_value_under_a_bare_name_key_is_refused(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert _pii(detector, text)


@pytest.mark.parametrize(("text", "keywords"), KEYWORD_PASS)
def test_keywords_without_a_hidden_person_pass(
    detector: PresidioPiiDetector, text: str, keywords: tuple[str, ...]
) -> None:
    # the third line is refused or not by the text alone ("Carla's" is in it); only the
    # keyword rule is tested here: it must not add a name the text already says
    if "Carla" in text:
        assert _pii(detector, text, keywords) == _pii(detector, text)
    else:
        assert not _pii(detector, text, keywords)


def test_an_admired_figure_passes_only_with_the_role_and_no_private_mark(
    detector: PresidioPiiDetector,
) -> None:
    # Session 8 refused every admired full name ("admires" alone cannot tell a scientist from
    # a neighbour). Session 11 (names11) decided by the name's role instead: a full name right
    # after a verb of admiring, with more said after it and nothing marking a private person,
    # reads as a public figure. The cost, accepted for the 5 % durable target: "Admires Ana
    # Pérez and ..." about a private person passes; no blind writer has phrased one so.
    assert not _pii(detector, "Admires Ada Lovelace and collects old calculators.")
    # What still fails closed: a relation word before the name.
    assert _pii(detector, "Admires her colleague Ada Lovelace and collects old calculators.")
