"""Values that identify or open something, closed by structure (branch leaks8).

Refused: a personal or credential value under its key in code, config or JSON ("first":
"Oksana", ``db_password = "..."``), an e-mail address joined from strings; a user name said
on a platform without its "@" ("On Steam the user is grimblewick"); a date of birth told by
a holiday and an offset from it with its year ("two days after Christmas, 1979"); an IPv4
address said in words, a lock's code said with a spelling alphabet, a MAC address with any
separator; a credential's hint that holds a value's shape. Accepted: settings under other
keys, plain words about a platform, a year beside a holiday that is no birth date, a hint
with no value. The notes are made up; none is from an evaluation set.
"""

from __future__ import annotations

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.privacy.guard import check_privacy
from memory_service.core.privacy.locators import keyed_values
from memory_service.core.privacy.normalise import normalise_text
from tests.support.no_ner import NoNer

LIBRARY = LibraryIdentifierDetector()


def codes(text: str, keywords: tuple[str, ...] = ("general",)) -> set[str]:
    reasons = check_privacy(text, keywords, pii=NoNer(), identifiers=LIBRARY)
    return {reason.code.value for reason in reasons}


@pytest.mark.parametrize(
    "text",
    [
        'notify_to = "a.kovacs" + "@" + "fastmail.com"',
        'user = {"first": "Oksana", "diet": "vegan"}',
        "On X she is maxmustermann_88 (no at-sign).",
        "On Steam the user is grimblewick.",
        "Su Instagram es la_cocina_de_ines (sin arroba).",
        "Birthday is two days after Christmas, 1979.",
        "born the day after New Year's in '84",
        "Password hint is the dog's name plus street number: Rex221",
        'Config: reply_to = "m.ferri" + "@" + "libero.it"',
        'In the script the recipient is "jo.baker" + "@gmail.com".',
        "const owner = 'dieter.k' + '@' + 'web.de';",
        'profile = {"first": "Anneliese", "lang": "de"}',
        'Le JSON du profil : {"prenom": "Margaux", "theme": "sombre"}',
        'El formulario guarda {"nombre": "Ximena", "idioma": "es"}',
        'Im Export steht {"vorname": "Jörg", "plan": "pro"}',
        'Nel file di config: {"cognome": "Bianchetti", "tema": "chiaro"}',
        'user.lastName = "Kowalczyk"',
        "contact = {first_name: 'Tobias', newsletter: true}",
        ".env has DB_PASSWORD=Falk0n!ry",
        'settings.yaml: smtp_pass: "ventoSud77"',
        'Dans le .env : MOT_DE_PASSE="Chamois#12"',
        'La config tiene clave = "pera-limon-88"',
        "In der config.ini steht passwort=Spatz2024",
        'api_token: "c9f1e7b2a4d6"',
        'emergency_contact = {"name": "Olufemi Adeyemi", "relation": "brother"}',
        'billing_phone = "0698127734"',
        '"dob": "1987-03-14" is in the profile export',
        '{"iban": "DE44500105175407324931"}',
        'home_address: "Via Tasso 14, Napoli"',
        "The seed file sets customer_email='lena.v@posteo.de'",
        "On Steam my son is crimsonotter.",
        "On Bluesky she goes by quietlantern.",
        "Sur Twitch, il s'appelle brumeduvent.",
        "En Discord mi primo se llama lobo_gris (sin arroba).",
        "Auf Instagram heißt sie wolkenmalerin.",
        "Su TikTok mia sorella si chiama gattonero_99.",
        "He streams as pixelmancer on Twitch.",
        "On Reddit he posts as throwawayfern.",
        "On X my brother is tinfoilhat_77.",
        "Sur Insta elle est connue comme lea.dessine.",
        "Discord: nebulafox#0042",
        "Snapchat of my niece: luna_bloom23",
        "Birthday is the day before Christmas Eve, 1991.",
        "She was born three days after New Year's Day in 1966.",
        "Née la veille de la Saint-Sylvestre 1979.",
        "Est né le lendemain de Noël, en 1985.",
        "Nació el día después de Reyes de 1993.",
        "Geboren zwei Tage nach Silvester 1988.",
        "È nato il giorno dopo Ferragosto del 1971.",
        "Born on the Fourth of July, 1976.",
        "Her birthday is the week after Valentine's, '89.",
        "The home server's public IP is eighty one dot twenty dot one fifty dot nine.",
        "Mon IP fixe : quatre-vingt-deux point soixante-six point douze point trois.",
        "La IP del NAS es ochenta y cinco punto treinta punto dos punto uno.",
        "Die öffentliche IP ist dreiundneunzig Punkt zwölf Punkt vier Punkt acht.",
        "Locker is bravo-four-one-nine.",
        "Il lucchetto della bici: delta-tre-sette-due.",
        "Bike lock: charlie five five eight.",
        "Tablet MAC is 3C_22_FB_91_0A_7E.",
        "The router's MAC reads a4c3.f047.9d12.",
        "Password hint: cat's name plus birth year, Mimi1984",
        "Indice du mot de passe : le chien et le numéro de rue, Rex22",
        "Passwort-Hinweis: Hund plus Hausnummer = Bello14",
        'The agent should fill the form with { "lastName": "Okonkwo", "newsletter": false }.',
        "Her .npmrc has _authToken=npm_7fQ2xLk9",
        'Sample payload: {"user": {"email": "t.nguyen@proton.me"}}',
        "export GITHUB_TOKEN=ghp_7Hk29dLq",
        "mail = 'r.santos' + '@' + 'sapo.pt'",
        'Il modulo ha nome: "Giacomo", cognome: "Ferraresi".',
        "form data: surname=Lindqvist&lang=sv",
        "On Twitch my daughter is glitterbyte.",
        "In Fortnite he plays as dankmeme_king.",
        "Steam handle: ironclad_ferret",
        "Her Bluesky is moonmoth.bsky.social",
        "Sur Discord, mon neveu, c'est pixelcrabe.",
        "En Steam, el usuario es gatoboxeador.",
        "Born on Boxing Day 1969.",
        "Geburtstag: der Tag vor Heiligabend 1982.",
        "È nata la vigilia di Natale del '77.",
        "Nacida el día de San Juan de 1995.",
        "His birthday is Halloween, 2001.",
        "Office IP: two one two dot fifty eight dot one oh four dot seventeen",
        "Lock box code is kilo-three-three-nine.",
        "The gym locker opens with foxtrot four four two.",
        "Printer's MAC: 00.1b.63.84.45.e6",
        "Password hint: first pet + 1999 = Fluffy1999",
        "Her username everywhere is grimblewick.",
        "Sein Benutzername lautet nachtfalke.",
        "Su nombre de usuario es lobogris.",
        "Her handle is quiet_lantern.",
        "Le digicode du portail, à l'envers, fait 91C3 ; le bon est 3C19.",
        "Born on Easter Sunday 1984.",
        "Born on leap day 1988.",
        "Born the day after Christmas, nineteen seventy-nine.",
        "The template has <firstName>Oksana</firstName> in it.",
        "<password>Kr4ken!</password>",
        'Wants the signup test to use {"email": "priya.raman@outlook.com", "plan": "free"}.',
        "Her shell profile exports DEPLOY_KEY=8f3Kx0PqLm",
        'Dans le script : prenom = "Gaëlle"',
        "YAML del perfil:\n  nombre: Maite\n  idioma: es",
        'Der Testnutzer hat passwort: "Eichhorn#7"',
        "Il test usa password='Girasole88'",
        'Contact card: phone="+44 7700 900123"',
        '"address": "12 Rue des Lilas, Lyon"',
        "On Twitch the kid is called frostbyte.",
        "Sur YouTube, ma fille poste sous le nom de licornepastel.",
        "On Roblox he is blockbuilder2012.",
        "In Minecraft heißt mein Sohn creeperjaeger.",
        "She was born on Christmas morning 1990.",
        "Mi madre nació el día de Navidad de 1956.",
        "Il compleanno di papà è il giorno dopo Santo Stefano, 1961.",
        "Mein Geburtstag ist an Neujahr 1970.",
        "Router WAN IP: two oh nine dot eighty five dot one two three dot forty",
        "Padlock on the shed: echo-one-one-four.",
        "Wi-Fi password hint: starts with capital S, it's Sommer2023!",
    ],
)
def test_values_that_identify_or_open_are_refused(text: str) -> None:
    assert codes(text) & {"pii", "secret"}


@pytest.mark.parametrize(
    "text",
    [
        "Password hint: the usual",
        "Password hint: the usual",
        "Password hint is something only she would know.",
        "Indice du mot de passe : le classique.",
        'Config uses theme = "dark" and font_size = 14.',
        "Prefers the editor setting tab_width: 4",
        'Her dotfiles set editor = "nvim" and shell = "fish".',
        '{"name": "vim", "plugins": "telescope"} is the stack she likes.',
        'project_name = "atlas" for all new repos.',
        'Wants logging level = "debug" in dev.',
        'Le fichier de config a langue = "fr" et theme = "clair".',
        'La configuración usa idioma = "es".',
        'In der Config steht sprache = "de".',
        'Nel config: lingua = "it", tema = "scuro".',
        "On Steam the user prefers co-op games.",
        "On Steam the user plays strategy games.",
        "On Discord she is mostly quiet.",
        "On Twitch he is a streamer.",
        "On Spotify she is premium.",
        "On X the user is following tech news.",
        "Sur Twitch, il est très actif le soir.",
        "En Instagram es muy activa.",
        "Auf Discord ist sie Moderatorin.",
        "Su Steam è sempre online.",
        "Born in 1979, she hosts Christmas every year.",
        "Loves Christmas markets; birthday gifts should be books.",
        "Favourite NATO letters are bravo and tango.",
        "Version 2.4.1 of the app is installed.",
        "Uses the password manager with a long master phrase, never shares it.",
        "Password hint feature should be off on shared devices.",
        "Set retries = 3 and timeout = 30 in the client.",
        'Uses {"format": "markdown", "tone": "friendly"} as defaults.',
        'Prefers Python\'s f"{name}" style over concatenation.',
        "Likes to name variables first_item and last_item.",
        "On Steam the user is mostly into roguelikes.",
        "On Twitch she watches speedruns.",
        "Sur Discord, il est souvent absent.",
        "Birthday parties are usually around Christmas time.",
        "Spent New Year's Eve 1999 in Rome, still talks about it.",
        "The office network uses ten dot zero dot zero dot something internally.",
        "Password hint questions annoy her.",
        "Locker rooms should be near the pool.",
        "The door handle is broken.",
        "Her pseudo is secret.",
        "The nickname is affectionate.",
        "Username is long.",
        "Her sister's Bosch SMV4HCX48E model needs a new filter.",
        "Door 3 leads to room B204 on the left.",
        "The garage fits a BMW X5 and a VW ID4.",
        "Gate is A12.",
        "<theme>dark</theme> is her setting",
        "Loves Thanksgiving 1975-style parties.",
        'Keeps user = "guest" in the demo config.',
        'Default config: name: "default", retries: 5',
        'Uses {"email_notifications": true, "digest": "weekly"}.',
        "Prefers phone: none, email: preferred.",
        "On YouTube she is learning Italian with short videos.",
        "On Steam the user is usually online at night.",
        "Born in March, loves Easter egg hunts.",
        "Celebrates New Year's Eve 2024 in Lisbon with friends.",
        "Her password manager is Bitwarden.",
        "Password hints should never contain the password.",
        "The router's admin page is at 192.168.0.1.",
        "Alpha, bravo and charlie are the team names.",
        "Her address for letters: formal, with title.",
    ],
)
def test_look_alikes_are_saved(text: str) -> None:
    assert not codes(text) & {"pii", "secret"}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('{"prenom": "Amélie"}', "name"),
        ("contact.phone=0612345678", "phone"),
        ('db_password = "Tr0ub4dor"', "credential"),
        ("settings.yaml: smtp_pass: 'ventoSud77'", "credential"),
        ('kunde = {nachname: "Schröder"}', "name"),
    ],
)
def test_keyed_values_name_the_kind(text: str, kind: str) -> None:
    assert kind in {found for found, _ in keyed_values(normalise_text(text))}


@pytest.mark.parametrize(
    "text",
    [
        'password = "${DB_PASSWORD}"',
        'password = os.environ["DB_PASS"]',
        '{"name": "vim"}',
        'theme_name = "Solarized"',
        "Email: prefers short subject lines",
        'user = "admin"',
    ],
)
def test_placeholders_and_things_are_no_keyed_values(text: str) -> None:
    assert not list(keyed_values(normalise_text(text)))


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("eighty two dot one twelve dot four dot nine", "82.112.4.9"),
        ("one nine two dot one six eight dot one dot twenty", "192.168.1.20"),
        ("ochenta y dos punto ciento doce punto cuatro punto nueve", "82.112.4.9"),
        ("zweiundachtzig Punkt hundertzwölf Punkt vier Punkt neun", "82.112.4.9"),
    ],
)
def test_an_address_said_in_words_is_written_with_digits(said: str, written: str) -> None:
    assert written in normalise_text(said)
