"""Generated notes for the value guards: the surface forms :mod:`tests.support.privacy_corpus`
does not write, and benign look-alikes of the same shapes, in EN/FR/ES/DE/IT.

Leak families (``note`` of each row is ``<family>/<form>``):

- ``gamer_tag``: a tag with its discriminator ("Shadowfox#4821"), a SteamID64, a
  ``STEAM_0:1:…`` id, a friend code, a PSN or Xbox id after its cue;
- ``student_number``: a student or matriculation number, with and without a cue;
- ``wallet``: a Bitcoin address (base58check or bech32, valid checksum) or an Ethereum address;
- ``backup_codes``: 2FA backup or recovery codes in groups;
- ``lock_combo``: a locker, padlock or bike-lock combination (3 to 4 digits, or "12-34-56");
- ``wifi_key``: a Wi-Fi key of any shape (hex, grouped, digits, a word with digits);
- ``one_time_code``: a verification or one-time code of 6 digits, grouped or not;
- ``contract_number``: an insurance policy, customer or contract number, no cue word;
- ``birth_words``: a date of birth with the year (and the day) written in words;
- ``student_hall``: a room in a named hall of residence;
- ``phone_words``: a phone number written in two-digit words (FR/DE/IT/ES) or digits words;
- ``email_plus``: an e-mail with a plus tag, plain or obfuscated;
- ``vat``: a VAT number (Faker's, checksummed for most countries) plain or spaced;
- ``plate``: a licence plate of FR/DE/IT/ES/UK/US formats without a cue word.

Benign rows (``benign/<family>``) hold device models, versions, prices, quantities, seats,
flight and train numbers, course codes, game titles with numbers, ratings, shoe and clothes
sizes, times, dates of recurring habits, ticket numbers and the same cue words without a value.

Values are made here from a seeded :class:`random.Random` and Faker; wallet checksums are
computed here (hashlib), independently of the guards. A fixed seed is a regression set, a new
seed an honest run.
"""

from __future__ import annotations

import hashlib
import random
import string
from collections.abc import Callable
from typing import Any

from faker import Faker

from tests.support.privacy_corpus import (
    LOCALES,
    SPELLED,
    Maker,
    generate_rows,
)

# --- numbers in words -------------------------------------------------------------------

_UNITS_WORDS = {lang: words for lang, words in SPELLED.items()}
_TEENS = {
    "en": ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
           "seventeen", "eighteen", "nineteen"],
    "fr": ["dix", "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept",
           "dix-huit", "dix-neuf"],
    "es": ["diez", "once", "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete",
           "dieciocho", "diecinueve"],
    "de": ["zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn",
           "achtzehn", "neunzehn"],
    "it": ["dieci", "undici", "dodici", "tredici", "quattordici", "quindici", "sedici",
           "diciassette", "diciotto", "diciannove"],
}  # fmt: skip
_TENS = {
    "en": ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"],
    "fr": ["", "", "vingt", "trente", "quarante", "cinquante", "soixante", "soixante",
           "quatre-vingt", "quatre-vingt"],
    "es": ["", "", "veinte", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta",
           "ochenta", "noventa"],
    "de": ["", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig",
           "achtzig", "neunzig"],
    "it": ["", "", "venti", "trenta", "quaranta", "cinquanta", "sessanta", "settanta",
           "ottanta", "novanta"],
}  # fmt: skip


def number_words(value: int, lang: str) -> str:
    """0 to 99 in words, as people write them in ``lang``."""
    units, teens, tens = _UNITS_WORDS[lang], _TEENS[lang], _TENS[lang]
    if value < 10:
        return units[value]
    if value < 20:
        return teens[value - 10]
    ten, unit = divmod(value, 10)
    if lang == "fr":
        if ten in (7, 9):
            rest = teens[unit]
            joiner = " et " if ten == 7 and unit == 1 else "-"
            return f"{tens[ten]}{joiner}{rest}"
        if unit == 0:
            return tens[ten] + ("s" if ten == 8 else "")
        return f"{tens[ten]}{' et ' if unit == 1 and ten != 8 else '-'}{units[unit]}"
    if unit == 0:
        return tens[ten]
    if lang == "en":
        return f"{tens[ten]}-{units[unit]}"
    if lang == "es":
        if ten == 2:
            return "veinti" + {"uno": "uno", "dos": "dós", "tres": "trés", "seis": "séis"}.get(
                units[unit], units[unit]
            )
        return f"{tens[ten]} y {units[unit]}"
    if lang == "de":
        unit_word = "ein" if unit == 1 else units[unit]
        return f"{unit_word}und{tens[ten]}"
    # it: the vowel of the ten drops before "uno" and "otto"
    stem = tens[ten][:-1] if units[unit] in ("uno", "otto") else tens[ten]
    return stem + ("tré" if unit == 3 else units[unit])


def year_words(year: int, lang: str) -> str:
    """A year of the 20th or 21st century in words."""
    century, rest = divmod(year, 100)
    rest_words = number_words(rest, lang) if rest else ""
    if lang == "en":
        if century == 20:
            return "two thousand" + (f" and {rest_words}" if rest else "")
        return f"{_TEENS['en'][century - 10]} {rest_words or 'hundred'}".strip()
    if lang == "fr":
        head = "mille neuf cent" if century == 19 else "deux mille"
        return f"{head} {rest_words}".strip()
    if lang == "es":
        head = "mil novecientos" if century == 19 else "dos mil"
        return f"{head} {rest_words}".strip()
    if lang == "de":
        head = "neunzehnhundert" if century == 19 else "zweitausend"
        return head + rest_words
    head = "millenovecento" if century == 19 else "duemila"
    if rest_words.startswith(("o", "u")) and century == 19:
        head = head[:-1]
    return head + rest_words


MONTHS = {
    "en": ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"],
    "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
           "septembre", "octobre", "novembre", "décembre"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"],
    "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
           "September", "Oktober", "November", "Dezember"],
    "it": ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
           "settembre", "ottobre", "novembre", "dicembre"],
}  # fmt: skip
_EN_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
                "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
                "twentieth"]  # fmt: skip

# --- wallets (checksums computed here, from the specifications) ---------------------------

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def base58check(payload: bytes) -> str:
    checksum = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    data = payload + checksum
    number = int.from_bytes(data, "big")
    out = ""
    while number:
        number, digit = divmod(number, 58)
        out = _B58[digit] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def _bech32_polymod(values: list[int]) -> int:
    generator = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for value in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            chk ^= generator[i] if (top >> i) & 1 else 0
    return chk


def bech32_address(program: bytes, hrp: str = "bc") -> str:
    """A segwit v0 address (BIP-173)."""
    bits, acc, data = 0, 0, [0]
    for byte in program:
        acc = (acc << 8) | byte
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((acc >> bits) & 31)
    if bits:
        data.append((acc << (5 - bits)) & 31)
    expanded = [ord(ch) >> 5 for ch in hrp] + [0] + [ord(ch) & 31 for ch in hrp]
    polymod = _bech32_polymod(expanded + data + [0] * 6) ^ 1
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_BECH32[d] for d in data + checksum)


def wallet(rng: random.Random) -> str:
    kind = rng.randrange(4)
    body = bytes(rng.randrange(256) for _ in range(20))
    if kind == 0:
        return base58check(b"\x00" + body)
    if kind == 1:
        return base58check(b"\x05" + body)
    if kind == 2:
        return bech32_address(body)
    return "0x" + body.hex()


# --- leak families ------------------------------------------------------------------------


def _digits(rng: random.Random, count: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(count))


def _alnum(rng: random.Random, count: int, alphabet: str = string.ascii_uppercase) -> str:
    return "".join(rng.choice(alphabet + string.digits) for _ in range(count))


def _gamer_tag(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    fake = faker(rng.choice(LOCALES[lang]))
    nick = fake.user_name().replace("_", "").replace(".", "").capitalize()[:12]
    forms = {
        "discord": f"{nick}#{_digits(rng, 4)}",
        "battlenet": f"{nick}#{_digits(rng, 5)}",
        "steam64": "7656119" + _digits(rng, 10),
        "steam_id": f"STEAM_0:{rng.randint(0, 1)}:{rng.randint(10**6, 10**8)}",
        "friend_code": _digits(rng, rng.choice((8, 9))),
        "switch": f"SW-{_digits(rng, 4)}-{_digits(rng, 4)}-{_digits(rng, 4)}",
    }
    form = rng.choice(tuple(forms))
    value = forms[form]
    templates = {
        "en": ("Add me on Discord: {v}", "My Battle.net tag is {v}", "Steam: {v}",
               "Plays with friends as {v} most evenings", "Friend code {v}"),
        "fr": ("Mon pseudo Discord : {v}", "Ajoute-moi sur Steam, {v}", "Code ami {v}",
               "Joue le soir sous {v}"),
        "es": ("Mi usuario de Discord es {v}", "Agrégame en Steam: {v}", "Código de amigo {v}"),
        "de": ("Discord-Name {v}", "Auf Steam bin ich {v}", "Freundescode {v}"),
        "it": ("Il mio tag Discord è {v}", "Su Steam sono {v}", "Codice amico {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"gamer_tag/{form}"


def _student_number(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    forms = {
        "digits7": _digits(rng, 7),
        "digits8": _digits(rng, 8),
        "letter_digits": rng.choice("sSuUab") + _digits(rng, 7),
        "year_dash": f"{rng.randint(2015, 2025)}-{_digits(rng, 5)}",
        "dotted": f"{_digits(rng, 3)}.{_digits(rng, 3)}.{_digits(rng, 2)}",
    }
    form = rng.choice(tuple(forms))
    templates = {
        "en": ("Student number {v}", "Enrolled at the university under {v}",
               "Student ID: {v}", "Library card for campus is {v}"),
        "fr": ("Numéro étudiant {v}", "Inscrite à la fac sous le numéro {v}",
               "Carte étudiante {v}"),
        "es": ("Número de matrícula {v}", "Su expediente de la universidad es {v}",
               "Carnet universitario {v}"),
        "de": ("Matrikelnummer {v}", "Immatrikuliert unter {v}", "Matr.-Nr. {v}"),
        "it": ("Numero di matricola {v}", "Iscritta all'università con matricola {v}",
               "Libretto universitario {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=forms[form]), f"student_number/{form}"


def _wallet(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    value = wallet(rng)
    form = "eth" if value.startswith("0x") else ("bech32" if value.startswith("bc1") else "base58")
    templates = {
        "en": ("Send the refund in BTC to {v}", "Donations go to {v}", "Wallet {v}",
               "{v} is where the payouts go"),
        "fr": ("Envoyer les bitcoins à {v}", "Son portefeuille : {v}"),
        "es": ("Mandar los pagos a {v}", "Su monedero es {v}"),
        "de": ("Auszahlungen an {v}", "Seine Wallet-Adresse lautet {v}"),
        "it": ("Mandare i pagamenti a {v}", "Il suo portafoglio è {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"wallet/{form}"


def _backup_codes(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    lower = string.ascii_lowercase
    forms = {
        "digit_pairs": ", ".join(f"{_digits(rng, 4)} {_digits(rng, 4)}" for _ in range(3)),
        "hex_dash": " ".join(
            f"{_alnum(rng, 5, 'abcdef')}-{_alnum(rng, 5, 'abcdef')}" for _ in range(2)
        ),
        "letters_dash": "-".join("".join(rng.choice(lower) for _ in range(4)) for _ in range(3)),
        "digits8": " ".join(_digits(rng, 8) for _ in range(rng.randint(1, 3))),
    }
    form = rng.choice(tuple(forms))
    templates = {
        "en": ("2FA backup codes: {v}", "Recovery codes for GitHub {v}",
               "Kept the backup codes {v} in the drawer"),
        "fr": ("Codes de secours 2FA : {v}", "Codes de récupération {v}"),
        "es": ("Códigos de respaldo: {v}", "Códigos de recuperación {v}"),
        "de": ("Backup-Codes: {v}", "Wiederherstellungscodes {v}"),
        "it": ("Codici di backup: {v}", "Codici di recupero {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=forms[form]), f"backup_codes/{form}"


def _lock_combo(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    forms = {
        "three": _digits(rng, 3),
        "four": _digits(rng, 4),
        "dashed_pairs": "-".join(f"{rng.randint(0, 39):02d}" for _ in range(3)),
        "keyed": "-".join(_digits(rng, 1) for _ in range(4)),
    }
    form = rng.choice(tuple(forms))
    templates = {
        "en": ("Bike lock combo {v}", "Gym locker combination is {v}",
               "The padlock on the shed opens at {v}", "Locker 214, combination {v}"),
        "fr": ("Combinaison du cadenas du vélo : {v}", "Le cadenas du casier s'ouvre avec {v}",
               "Code du cadenas {v}"),
        "es": ("Combinación del candado de la bici: {v}", "El candado de la taquilla es {v}"),
        "de": ("Zahlenschloss vom Fahrrad: {v}", "Spindcode {v}", "Kombination vom Spind {v}"),
        "it": ("Combinazione del lucchetto della bici: {v}",
               "Il lucchetto dell'armadietto si apre con {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=forms[form]), f"lock_combo/{form}"


def _wifi_key(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    fake = faker(rng.choice(LOCALES[lang]))
    forms = {
        "hex": _alnum(rng, rng.choice((10, 16, 26)), "abcdef").lower(),
        "grouped": "-".join(_alnum(rng, 4) for _ in range(4)),
        "fritzbox": " ".join(_digits(rng, 4) for _ in range(5)),
        "word_digits": fake.word().lower() + _digits(rng, rng.randint(2, 4)),
        "words": "".join(word.capitalize() for word in fake.words(3)),
    }
    form = rng.choice(tuple(forms))
    templates = {
        "en": ("Wi-Fi key {v}", "Home wifi network Livebox-{n}, key {v}", "WPA2 key: {v}",
               "The guest wifi is {v}"),
        "fr": ("Clé WPA de la box : {v}", "Le wifi de la maison c'est {v}", "Clé wifi {v}"),
        "es": ("La clave del wifi es {v}", "Contraseña WPA {v}", "Wifi de casa: {v}"),
        "de": ("WLAN-Schlüssel {v}", "Das WLAN-Passwort ist {v}", "WPA-Key: {v}"),
        "it": ("Chiave WPA del router: {v}", "La password del wifi è {v}", "Wifi di casa {v}"),
    }  # fmt: skip
    text = rng.choice(templates[lang]).format(v=forms[form], n=_alnum(rng, 4))
    return text, f"wifi_key/{form}"


def _one_time_code(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    code = _digits(rng, 6)
    forms = {"plain": code, "grouped": f"{code[:3]} {code[3:]}", "dashed": f"{code[:3]}-{code[3:]}"}
    form = rng.choice(tuple(forms))
    templates = {
        "en": ("Verification code {v}", "The OTP from the bank was {v}",
               "Login code sent by SMS: {v}"),
        "fr": ("Code de vérification {v}", "Le code reçu par SMS est {v}"),
        "es": ("Código de verificación {v}", "El código del SMS es {v}"),
        "de": ("Bestätigungscode {v}", "Der SMS-Code lautet {v}"),
        "it": ("Codice di verifica {v}", "Il codice OTP è {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=forms[form]), f"one_time_code/{form}"


def _contract_number(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    forms = {
        "letters_digits": f"{_alnum(rng, 2, string.ascii_uppercase)[:2]}-"
        f"{_digits(rng, 4)}-{_digits(rng, 5)}",
        "slash": f"{_digits(rng, 3)}/{_digits(rng, 6)}",
        "dotted": f"{_digits(rng, 2)}.{_digits(rng, 3)}.{_digits(rng, 3)}",
        "mixed": "".join(rng.choice((string.ascii_uppercase, string.digits))[0] for _ in range(2))
        + _alnum(rng, 7),
    }
    form = rng.choice(tuple(forms))
    brand = rng.choice(("AXA", "Allianz", "Generali", "MAIF", "Mapfre", "HUK", "Zurich"))
    templates = {
        "en": ("Home insurance with {b}, contract {v}", "{b} covers the car under {v}"),
        "fr": ("Assurance habitation {b}, contrat {v}", "Chez {b} sous la référence {v}"),
        "es": ("Seguro de hogar con {b}, póliza {v}", "{b} cubre el coche con {v}"),
        "de": ("Hausrat bei {b}, Vertrag {v}", "Bei {b} unter {v} versichert"),
        "it": ("Assicurazione casa con {b}, contratto {v}", "{b} copre l'auto con {v}"),
    }  # fmt: skip
    text = rng.choice(templates[lang]).format(v=forms[form], b=brand)
    return text, f"contract_number/{form}"


def _birth_words(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    day, month, year = rng.randint(1, 28), rng.randrange(12), rng.randint(1940, 2012)
    form = rng.choice(("year_words", "all_words"))
    month_word = MONTHS[lang][month]
    day_text = str(day)
    if form == "all_words":
        day_text = _EN_ORDINALS[day - 1] if lang == "en" and day <= 20 else number_words(day, lang)
    year_text = year_words(year, lang)
    templates = {
        "en": ("Born on the {d} of {m}, {y}", "She was born {m} {d}, {y}",
               "Date of birth: {d} {m} {y}"),
        "fr": ("Née le {d} {m} {y}", "Date de naissance : {d} {m} {y}"),
        "es": ("Nació el {d} de {m} de {y}", "Fecha de nacimiento: {d} de {m} de {y}"),
        "de": ("Geboren am {d}. {m} {y}", "Geburtsdatum {d}. {m} {y}"),
        "it": ("Nata il {d} {m} {y}", "Data di nascita: {d} {m} {y}"),
    }  # fmt: skip
    template = rng.choice(templates[lang])
    if lang == "de" and form == "all_words":
        template = template.replace("{d}.", "{d}")
    text = template.format(d=day_text, m=month_word, y=year_text)
    return text, f"birth_words/{form}"


def _student_hall(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    fake = faker(rng.choice(LOCALES[lang]))
    name = fake.last_name()
    room, block = rng.randint(1, 640), rng.choice("ABCDEFGH")
    templates = {
        "en": ("Lives in {n} Hall, Block {b}, room {r}", "Room {r}, {n} House halls of residence",
               "Flat {b}{r} in {n} Court student village"),
        "fr": ("Résidence universitaire {n}, bâtiment {b}, chambre {r}",
               "Loge à la cité U {n}, chambre {r}"),
        "es": ("Vive en la residencia de estudiantes {n}, habitación {r}",
               "Colegio mayor {n}, habitación {b}{r}"),
        "de": ("Wohnt im Studentenwohnheim {n}, Haus {b}, Zimmer {r}",
               "Wohnheim {n}, Zimmer {b}{r}"),
        "it": ("Abita alla residenza universitaria {n}, stanza {r}",
               "Collegio {n}, blocco {b}, camera {r}"),
    }  # fmt: skip
    text = rng.choice(templates[lang]).format(n=name, b=block, r=room)
    return text, "student_hall/room"


_PHONE_PREFIX = {"en": "07", "fr": "06", "es": "6", "de": "0151", "it": "3"}


def _phone_words(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    form = rng.choice(("pairs", "digits_grouped"))
    if form == "pairs":
        groups = [0, rng.choice((6, 7))] if lang == "fr" else [rng.randint(10, 99)]
        groups += [rng.randint(10, 99) for _ in range(4)]
        words = [number_words(group, lang) for group in groups]
        if lang == "fr":
            words = [f"{words[0]} {words[1]}", *words[2:]]
        value = ", ".join(words) if rng.random() < 0.5 else " ".join(words)
    else:
        digits = _PHONE_PREFIX[lang] + _digits(rng, 10 - len(_PHONE_PREFIX[lang]))
        chunks = [digits[i : i + 3] for i in range(0, len(digits), 3)]
        value = ", ".join(" ".join(SPELLED[lang][int(d)] for d in chunk) for chunk in chunks)
    templates = {
        "en": ("Phone is {v}", "Call her on {v}"),
        "fr": ("Son portable : {v}", "Appeler le {v}"),
        "es": ("Su móvil es el {v}", "Llamar al {v}"),
        "de": ("Handy {v}", "Erreichbar unter {v}"),
        "it": ("Il cellulare è {v}", "Chiamare il {v}"),
    }
    return rng.choice(templates[lang]).format(v=value), f"phone_words/{form}"


def _email_plus(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    fake = faker(rng.choice(LOCALES[lang]))
    local, domain = fake.email().split("@")
    tag = rng.choice(("news", "shop", "bank", "2024", "amazon", "tax"))
    address = f"{local}+{tag}@{domain}"
    form = rng.choice(("plain", "words", "upper"))
    if form == "words":
        at, dot = {"en": (" at ", " dot "), "fr": (" arobase ", " point "),
                   "es": (" arroba ", " punto "), "de": (" at ", " Punkt "),
                   "it": (" chiocciola ", " punto ")}[lang]  # fmt: skip
        address = address.replace("@", at).replace(".", dot)
    elif form == "upper":
        address = address.upper()
    templates = {
        "en": ("Newsletters to {v}", "Use {v} for shopping sites"),
        "fr": ("Les newsletters vont à {v}",),
        "es": ("Boletines a {v}",),
        "de": ("Newsletter an {v}",),
        "it": ("Newsletter a {v}",),
    }
    return rng.choice(templates[lang]).format(v=address), f"email_plus/{form}"


_VAT_LOCALES = ("fr_FR", "de_DE", "it_IT", "es_ES", "nl_NL", "pl_PL", "pt_PT", "de_AT", "nl_BE",
                "fi_FI",
                "cs_CZ", "el_GR", "hu_HU", "sv_SE", "fr_CH")  # fmt: skip


def _vat(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    value = str(faker(rng.choice(_VAT_LOCALES)).vat_id()).replace(" ", "")
    form = rng.choice(("plain", "spaced", "no_country"))
    if form == "spaced":
        value = f"{value[:2]} " + " ".join(value[i : i + 3] for i in range(2, len(value), 3))
    elif form == "no_country":
        value = value[2:]
    templates = {
        "en": ("Invoices to the company, VAT {v}", "Her business is registered as {v}"),
        "fr": ("Facturer la société, TVA {v}", "Numéro de TVA {v}"),
        "es": ("Facturar a la empresa, IVA {v}", "NIF-IVA {v}"),
        "de": ("Rechnung an die Firma, USt-IdNr. {v}", "Ihre Firma: {v}"),
        "it": ("Fatturare alla ditta, partita IVA {v}", "P.IVA {v}"),
    }
    return rng.choice(templates[lang]).format(v=value), f"vat/{form}"


_PLATE_LOCALES = ("fr_FR", "de_DE", "it_IT", "es_ES", "en_GB", "en_US")


def _plate(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    locale = rng.choice(_PLATE_LOCALES)
    value = faker(locale).license_plate()
    form = locale.split("_")[1].lower()
    if rng.random() < 0.3:
        value, form = value.lower(), form + "_lower"
    templates = {
        "en": ("Drives the grey {v} to work", "The van {v} is hers",
               "Parked {v} in space 12"),
        "fr": ("Roule avec la Clio {v}", "Sa voiture, {v}, est au garage"),
        "es": ("Conduce el coche {v}", "Aparca el {v} en la plaza 12"),
        "de": ("Fährt den Golf {v}", "Sein Auto, {v}, steht in der Garage"),
        "it": ("Guida la Panda {v}", "La sua auto {v} è in garage"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"plate/{form}"


# --- values said aloud: number words, spelling alphabets, parts, sentences apart ------------

# The radio alphabets people spell with: NATO (any language), the German DIN 5009 names, the
# Italian city names and "B as in Bravo".
NATO = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
        "sierra", "tango", "uniform", "victor", "whiskey", "x-ray", "yankee", "zulu")  # fmt: skip
_DIN = ("Anton", "Berta", "Cäsar", "Dora", "Emil", "Friedrich", "Gustav", "Heinrich", "Ida",
        "Julius", "Kaufmann", "Ludwig", "Martha", "Nordpol", "Otto", "Paula", "Quelle",
        "Richard", "Samuel", "Theodor", "Ulrich", "Viktor", "Wilhelm", "Xanthippe", "Ypsilon",
        "Zacharias")  # fmt: skip
_ITALIAN_CITIES = ("Ancona", "Bologna", "Como", "Domodossola", "Empoli", "Firenze", "Genova",
                   "Hotel", "Imola", "Jolly", "Kappa", "Livorno", "Milano", "Napoli", "Otranto",
                   "Palermo", "Quarto", "Roma", "Savona", "Torino", "Udine", "Venezia",
                   "Washington", "Xeres", "York", "Zara")  # fmt: skip
_AS_IN = {"en": "as in", "fr": "comme", "es": "de", "de": "wie", "it": "come"}


def _spelled_value(rng: random.Random, lang: str) -> tuple[str, str]:
    """A short password of letters and digits, spelled the way it is said on the phone."""
    value = [rng.choice(string.ascii_uppercase) for _ in range(rng.randint(2, 4))]
    value += [rng.choice(string.digits) for _ in range(rng.randint(2, 3))]
    rng.shuffle(value)
    form = rng.choice(("nato", "local", "as_in"))
    words = []
    for ch in value:
        if ch.isdigit():
            words.append(SPELLED[lang][int(ch)])
        elif form == "nato":
            words.append(NATO[ord(ch) - 65])
        elif form == "local":
            table = _DIN if lang == "de" else _ITALIAN_CITIES if lang == "it" else NATO
            words.append(table[ord(ch) - 65])
        else:
            word = (_DIN if lang == "de" else _ITALIAN_CITIES if lang == "it" else NATO)[
                ord(ch) - 65
            ]
            words.append(f"{ch} {_AS_IN[lang]} {word.capitalize()}")
    joiner = ", " if form == "as_in" or rng.random() < 0.4 else " "
    return joiner.join(words), form


def _spelling_alphabet(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    value, form = _spelled_value(rng, lang)
    templates = {
        "en": ("Wi-Fi key, spelled out: {v}", "Spelled the router password for me: {v}",
               "Alarm reset code is {v}"),
        "fr": ("Clé wifi épelée : {v}", "Le mot de passe, lettre par lettre : {v}"),
        "es": ("La clave del wifi deletreada: {v}", "Contraseña letra a letra: {v}"),
        "de": ("WLAN-Schlüssel buchstabiert: {v}", "Passwort zum Mitschreiben: {v}"),
        "it": ("La password del wifi, lettera per lettera: {v}", "Chiave del router: {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"spelling_alphabet/{form}"


def _code_number_words(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    """A 4-digit code said as two numbers of two digits ("forty-eight twenty-one")."""
    first, second = rng.randint(10, 99), rng.randint(10, 99)
    form = rng.choice(("pairs", "pairs_comma", "digit_then_pair"))
    if form == "digit_then_pair":
        value = " ".join(
            (number_words(first // 10, lang), number_words(first % 10, lang),
             number_words(second, lang))
        )  # fmt: skip
    else:
        joiner = ", " if form == "pairs_comma" else " "
        value = joiner.join((number_words(first, lang), number_words(second, lang)))
    templates = {
        "en": ("The alarm code is {v}", "Door code {v}", "PIN for the card: {v}"),
        "fr": ("Le digicode, c'est {v}", "Code de l'alarme : {v}", "Son code de carte est {v}"),
        "es": ("El código del portal es {v}", "PIN de la tarjeta: {v}"),
        "de": ("Der Torcode ist {v}", "Alarmanlage: Code {v}", "Die PIN der Karte lautet {v}"),
        "it": ("Il codice del cancello è {v}", "PIN del bancomat: {v}", "Codice allarme {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"code_number_words/{form}"


_ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "IX"}


def _roman_code(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    digits = [rng.randint(1, 9) for _ in range(4)]
    form = rng.choice(("spaced", "dashed", "dotted"))
    joiner = {"spaced": " ", "dashed": "-", "dotted": "."}[form]
    value = joiner.join(_ROMAN[d] for d in digits)
    templates = {
        "en": ("Alarm code in Roman numerals: {v}", "The safe opens with {v}"),
        "fr": ("Code de l'alarme en chiffres romains : {v}", "Le coffre s'ouvre avec {v}"),
        "es": ("Código de la alarma en números romanos: {v}",),
        "de": ("Alarmcode in römischen Ziffern: {v}",),
        "it": ("Codice dell'allarme in numeri romani: {v}",),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"roman_code/{form}"


def _ordinal_digits(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    """A code given digit by digit, each after its place or "then"."""
    d = [str(rng.randint(0, 9)) for _ in range(4)]
    form = rng.choice(("then", "places"))
    if form == "then":
        then = {"en": "then", "fr": "puis", "es": "luego", "de": "dann", "it": "poi"}[lang]
        value = f"{d[0]}, {then} {d[1]}, {then} {d[2]}, {then} {d[3]}"
    else:
        places = {
            "en": ("first", "second", "third", "fourth"),
            "fr": ("premier", "deuxième", "troisième", "quatrième"),
            "es": ("primero", "segundo", "tercero", "cuarto"),
            "de": ("erste", "zweite", "dritte", "vierte"),
            "it": ("primo", "secondo", "terzo", "quarto"),
        }[lang]
        value = ", ".join(f"{place} {digit}" for place, digit in zip(places, d, strict=True))
    templates = {
        "en": ("Gate code, digit by digit: {v}", "For the shop alarm press {v}"),
        "fr": ("Code du portail, chiffre par chiffre : {v}", "Pour l'alarme, taper {v}"),
        "es": ("Código del portal, cifra a cifra: {v}", "Para la alarma, marcar {v}"),
        "de": ("Torcode Ziffer für Ziffer: {v}", "Für die Alarmanlage tippen: {v}"),
        "it": ("Codice del cancello, cifra per cifra: {v}", "Per l'allarme digitare {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"ordinal_digits/{form}"


def _password_value(rng: random.Random, faker: Faker) -> str:
    word = faker.word().capitalize()
    return rng.choice((f"{word}!{rng.randint(10, 2029)}", f"{word.lower()}{_digits(rng, 2)}",
                       f"{word}{rng.choice('#$%&')}{_digits(rng, 3)}", _digits(rng, 4),
                       _digits(rng, 6)))  # fmt: skip


def _split_sentences(
    rng: random.Random, lang: str, faker: Callable[[str], Faker]
) -> tuple[str, str]:
    """The credential named in one sentence, its value in the next."""
    fake = faker(rng.choice(LOCALES[lang]))
    form = rng.choice(("code", "password"))
    value = _digits(rng, rng.choice((4, 5, 6))) if form == "code" else _password_value(rng, fake)
    templates = {
        "en": ("The gate has a keypad. The code is the same as last year: {v}.",
               "About the shop alarm. Disarm: {v}.", "She uses one PIN everywhere. It's {v}.",
               "The door code changed. New one: {v}", "Wi-Fi at the cabin? {v}, on the router.",
               "Asked me to keep the login for the NAS. {v} it is."),
        "fr": ("Le portail a un clavier. C'est le {v}.", "Pour l'alarme du magasin. {v}, puis OFF.",
               "Un seul code pour tout. Le {v}.", "Le digicode a changé. Nouveau : {v}",
               "Le wifi du chalet ? {v}, au dos de la box."),
        "es": ("El portal tiene teclado. Es el {v}.", "La alarma de la tienda. Se quita con {v}.",
               "Usa el mismo PIN para todo. Es el {v}.",
               "Cambió el código de la puerta. Nuevo: {v}",
               "¿El wifi de la casa? {v}, en el router."),
        "de": ("Das Hoftor hat ein Tastenfeld. Es ist die {v}.",
               "Zur Alarmanlage im Laden. {v}, dann AUS.", "Eine PIN für alles. Die {v}.",
               "Der Türcode hat sich geändert. Neu: {v}",
               "WLAN in der Hütte? {v}, steht am Router."),
        "it": ("Il cancello ha una tastiera. È il {v}.", "Allarme del negozio. Si spegne con {v}.",
               "Un solo PIN per tutto. Il {v}.", "Il codice della porta è cambiato. Nuovo: {v}",
               "Il wifi della baita? {v}, sul router."),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"split_sentences/{form}"


def _key_safe(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    form = rng.choice(("key_box", "room_safe", "brand_lock"))
    value = _digits(rng, rng.choice((4, 4, 5, 6)))
    templates = {
        "key_box": {
            "en": ("Key safe by the front door: {v}", "Lockbox at the cabin opens on {v}",
                   "Keybox code {v}"),
            "fr": ("Boîte à clés de la location : {v}", "La boîte à clés s'ouvre avec {v}"),
            "es": ("Caja de llaves del piso: {v}", "Cajetín de las llaves: {v}"),
            "de": ("Schlüsselkasten an der Ferienwohnung: {v}", "Schlüsseltresor {v}"),
            "it": ("Cassetta delle chiavi: {v}", "Cassetta portachiavi all'ingresso: {v}"),
        },
        "room_safe": {
            "en": ("Hotel room safe: {v}", "Safe in the wardrobe is {v}"),
            "fr": ("Coffre-fort de la chambre : {v}", "Coffre de l'hôtel : {v}"),
            "es": ("Caja fuerte de la habitación: {v}",),
            "de": ("Zimmersafe: {v}", "Der Safe im Schrank: {v}"),
            "it": ("Cassaforte della camera: {v}",),
        },
        "brand_lock": {
            "en": ("Masterlock at the gym: {v}", "The Abus on the shed is {v}"),
            "fr": ("Le Masterlock de la salle : {v}",),
            "es": ("El Masterlock del gimnasio: {v}",),
            "de": ("Das Abus am Schuppen: {v}",),
            "it": ("Il Masterlock della palestra: {v}",),
        },
    }  # fmt: skip
    return rng.choice(templates[form][lang]).format(v=value), f"key_safe/{form}"


def _described_password(
    rng: random.Random, lang: str, faker: Callable[[str], Faker]
) -> tuple[str, str]:
    """A password told by its parts: "a capital B, then irch, then 2022"."""
    word = faker(rng.choice(LOCALES[lang])).word().lower()
    while len(word) < 4:
        word += rng.choice(string.ascii_lowercase)
    year = rng.randint(1990, 2025)
    head, tail = word[0].upper(), word[1:]
    form = rng.choice(("capital_first", "parts"))
    capital = {"en": "capital {h}", "fr": "{h} majuscule", "es": "{h} mayúscula",
               "de": "großes {h}", "it": "{h} maiuscola"}[lang].format(h=head)  # fmt: skip
    then = {"en": "then", "fr": "puis", "es": "luego", "de": "dann", "it": "poi"}[lang]
    if form == "capital_first":
        value = f"{capital}, {then} {tail}, {then} {year}"
    else:
        value = f"{capital}, {tail}, {year}{rng.choice(('', ' and !', ' et !', ''))}"
    templates = {
        "en": ("Her bank login: {v}", "The laptop password goes {v}"),
        "fr": ("Le mot de passe de la banque : {v}", "Pour l'ordi : {v}"),
        "es": ("La contraseña del banco: {v}", "Para el portátil: {v}"),
        "de": ("Das Bankpasswort: {v}", "Fürs Notebook: {v}"),
        "it": ("La password della banca: {v}", "Per il portatile: {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=value), f"described_password/{form}"


_PET_NAMES = ("Biscuit", "Filou", "Toby", "Bello", "Fufi", "Rex", "Minou", "Pelusa", "Luna",
              "Snowy", "Maya", "Pippo", "Nala", "Rocky", "Cannelle", "Bimba")  # fmt: skip


def _security_fact(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    """The answer to a classic security question told as a fact: the question's subject
    ("first pet", "the street she grew up on") and its answer, the word "security" seldom
    said. A street or a city alone is not personal data: only the question's form is."""
    fake = faker(rng.choice(LOCALES[lang]))
    form = rng.choice(("first_pet", "childhood_street", "parents_city"))
    value = {
        "first_pet": rng.choice(_PET_NAMES),
        "childhood_street": fake.street_name(),
        "parents_city": fake.city(),
    }[form]
    templates: dict[str, dict[str, tuple[str, ...]]] = {
        "first_pet": {
            "en": ("Her first pet was called {v}", "First pet: a cat named {v}"),
            "fr": ("Son premier animal s'appelait {v}", "Premier animal de compagnie : {v}"),
            "es": ("Su primera mascota se llamaba {v}", "Primera mascota: {v}"),
            "de": ("Ihr erstes Haustier hieß {v}", "Erstes Haustier: {v}"),
            "it": ("Il suo primo animale si chiamava {v}", "Primo animale domestico: {v}"),
        },
        "childhood_street": {
            "en": ("The street she grew up on: {v}", "Childhood street (bank question): {v}"),
            "fr": ("Rue de son enfance : {v}",),
            "es": ("Calle de su infancia: {v}",),
            "de": ("Straße ihrer Kindheit: {v}",),
            "it": ("Via della sua infanzia: {v}",),
        },
        "parents_city": {
            "en": ("City where his parents met: {v}", "Answer for 'city your parents met': {v}"),
            "fr": ("Ville où ses parents se sont rencontrés : {v}",),
            "es": ("Ciudad donde se conocieron sus padres: {v}",),
            "de": ("Stadt, in der sich seine Eltern kennenlernten: {v}",),
            "it": ("Città dove si sono conosciuti i genitori: {v}",),
        },
    }  # fmt: skip
    return rng.choice(templates[form][lang]).format(v=value), f"security_fact/{form}"


def _member_number(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    """A policy, claim, tenant or member number after its cue, in the shapes offices print."""
    forms = {
        "dashed_short": f"{_digits(rng, 4)}-{_digits(rng, 2)}",
        "prefixed": f"{rng.choice(('CLM', 'POL', 'TEN', 'MB', 'SIN', 'VN'))}-"
        f"{rng.randint(2018, 2025)}-{_digits(rng, 6)}",
        "letter_suffix": f"{_digits(rng, 6)}/{rng.choice(string.ascii_uppercase)}",
        "spaced": f"{_digits(rng, 2)} {_digits(rng, 3)} {_digits(rng, 3)}",
        "digits": _digits(rng, rng.choice((6, 7, 9))),
    }
    form = rng.choice(tuple(forms))
    templates = {
        "en": ("Policy number {v}", "Claim no. {v} with the insurer", "Tenant ref {v}",
               "Member number at the gym: {v}"),
        "fr": ("Numéro de sinistre {v}", "N° adhérent mutuelle {v}", "Référence locataire {v}",
               "Numéro de police {v}"),
        "es": ("Número de póliza {v}", "Número de siniestro {v}", "Nº de socio {v}",
               "Referencia de inquilino {v}"),
        "de": ("Versicherungsschein-Nr. {v}", "Schadennummer {v}", "Mieternummer {v}",
               "Mitgliedsnummer {v}"),
        "it": ("Numero di polizza {v}", "Numero sinistro {v}", "Tessera socio n. {v}",
               "Codice inquilino {v}"),
    }  # fmt: skip
    return rng.choice(templates[lang]).format(v=forms[form]), f"member_number/{form}"


LEAKS: dict[str, tuple[str, Maker]] = {
    "gamer_tag": ("pii", _gamer_tag),
    "student_number": ("pii", _student_number),
    "wallet": ("pii", _wallet),
    "backup_codes": ("secret", _backup_codes),
    "lock_combo": ("secret", _lock_combo),
    "wifi_key": ("secret", _wifi_key),
    "one_time_code": ("secret", _one_time_code),
    "contract_number": ("pii", _contract_number),
    "birth_words": ("pii", _birth_words),
    "student_hall": ("pii", _student_hall),
    "phone_words": ("pii", _phone_words),
    "email_plus": ("pii", _email_plus),
    "vat": ("pii", _vat),
    "plate": ("pii", _plate),
    "spelling_alphabet": ("secret", _spelling_alphabet),
    "code_number_words": ("secret", _code_number_words),
    "roman_code": ("secret", _roman_code),
    "ordinal_digits": ("secret", _ordinal_digits),
    "split_sentences": ("secret", _split_sentences),
    "key_safe": ("secret", _key_safe),
    "described_password": ("secret", _described_password),
    "security_fact": ("secret", _security_fact),
    "member_number": ("pii", _member_number),
}

# --- benign look-alikes -------------------------------------------------------------------

DEVICES = (
    "Galaxy S23 Ultra", "iPhone 15 Pro Max", "ThinkPad X1 Carbon Gen 11", "SM-S918B",
    "Pixel 8a", "RTX 4070 Ti", "MacBook Air M2", "Sony A7R IV", "Garmin Forerunner 965",
    "DJI Mini 4 Pro", "Kindle Paperwhite 11", "Dell U2723QE", "Fairphone 5", "Xiaomi 13T",
    "PS5", "Xbox Series X", "Nintendo Switch OLED", "Canon EOS R6 Mark II", "WH-1000XM4",
    "Surface Pro 9", "Bosch Serie 6 WAU28T40", "Roborock S8", "Brompton C Line",
)  # fmt: skip
VERSIONS = (
    "Ubuntu 22.04", "Node 20.11.1", "iOS 17.4.1", "Windows 11 23H2", "Java 21", "Python 3.12",
    "PostgreSQL 16.2", "Debian 12", "Android 14", "macOS 14.3", "Kotlin 1.9.22", "Rust 1.76",
)  # fmt: skip
GAMES = (
    "FIFA 24", "Final Fantasy VII", "Halo 3", "Fallout 76", "Battlefield 2042",
    "Cyberpunk 2077", "Diablo IV", "Age of Empires II", "Left 4 Dead 2", "Forza Horizon 5",
    "Mario Kart 8", "Resident Evil 4", "Hades II", "Civilization VI", "Portal 2", "NBA 2K24",
)  # fmt: skip
COURSES = ("CS101", "MATH 2301", "INF-1100", "ECON 101", "BIO 210", "PHYS 2A", "LING 120")


def _benign(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    device, version, game = rng.choice(DEVICES), rng.choice(VERSIONS), rng.choice(GAMES)
    course = rng.choice(COURSES)
    time = f"{rng.randint(6, 21)}:{rng.choice(('00', '15', '30', '45'))}"
    hhmm = f"{rng.randint(6, 21)}h{rng.choice(('', '15', '30', '45'))}"
    price = rng.choice((f"${rng.randint(10, 2999)}.99", f"{rng.randint(10, 2999)},90 €",
                        f"EUR {rng.randint(5, 900)}",
                        f"£{rng.randint(1, 9)},{rng.randint(100, 999)}",
                        f"{rng.randint(1, 9)}.{rng.randint(100, 999)},00 €"))  # fmt: skip
    seat = f"{rng.randint(1, 45)}{rng.choice('ABCDEFK')}"
    flight = rng.choice(("LH 1234", "EZY8921", "FR 3456", "U2 4567", "AF1680", "IB3171",
                         "BA 117", "KL1002", "VY 6211", "W6 2345"))  # fmt: skip
    train = rng.choice(("ICE 578", "TGV 6201", "Frecciarossa 9541", "AVE 03063", "RE 4"))
    rating = rng.choice(("4.5/5", "9/10", "5 stars", "8.7/10", "3.5 out of 5"))
    elo = rng.randint(900, 2400)
    shoe = rng.choice(("EU 42", "US 9.5", "UK 8", "43", "38.5", "EU 44 2/3"))
    day = rng.randint(1, 28)
    ticket = rng.randint(100, 99999)
    color = "#" + "".join(rng.choice("0123456789ABCDEF") for _ in range(6))
    room = rng.randint(100, 999)
    # Label codes (branch leaks6): a requisition or an exam code glossed in parentheses, a
    # model after a maker's name written as one word, a build number, a video mode; the
    # letters and digits are drawn at random, the gloss is Faker's job title.
    capitals = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(2, 4)))
    req = f"{capitals}-{rng.randint(1000, 9999)}"
    cert = (
        "".join(rng.choice(string.ascii_uppercase) for _ in range(3))
        + f"-{rng.choice(string.ascii_uppercase)}0{rng.randint(1, 9)}"
    )
    role = faker(rng.choice(LOCALES[lang])).job().replace("(", "").replace(")", "")
    maker = rng.choice(("DeWalt", "KitchenAid", "SodaStream", "GoPro", "LaCie", "PlayStation",
                        "Miele-Trockner", "Bosch-Bohrmaschine", "De'Longhi-Maschine"))  # fmt: skip
    model = "".join(rng.choice(string.ascii_uppercase) for _ in range(3)) + (
        f"{rng.choice(('', ' ', '-'))}{rng.randint(100, 999)}"
    )
    build = (
        f"{rng.randint(0, 12)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}.{rng.randint(100, 99999)}"
    )
    video = f"{rng.choice((720, 1080, 1440, 2160))}p{rng.choice(('', '30', '60', '120'))}"
    families: dict[str, dict[str, tuple[str, ...]]] = {
        "label_code": {
            "en": ("Applying for {req} ({role}); wants updates on that one only.",
                   "Holds the {cert} certification and wants roles that use it.",
                   "Has a {maker} {model} at home, fine for the technician to use.",
                   "Is on the beta, build {build}, and reports crashes.",
                   "Streams on Twitch at {video}."),
            "fr": ("Vise le poste {req} ({role}) et veut être tenu informé.",
                   "A passé la certification ({cert}) l'an dernier.",
                   "A un {maker} {model} à la maison.", "Joue à la bêta {build}."),
            "es": ("Aplica a la vacante {req} ({role}) y quiere feedback por escrito.",
                   "Tiene la certificación ({cert}) desde 2022.",
                   "Tiene un {maker} {model} en casa.", "Graba partidas a {video}."),
            "de": ("Bewirbt sich auf die Stelle {req} ({role}).",
                   "Hat einen {maker} {model} in der Wohnung.",
                   "Testet die Beta {build} und meldet Abstürze."),
            "it": ("Si candida per la posizione {req} ({role}) e vuole aggiornamenti.",
                   "Ha un {maker} {model} in casa.", "Ha la certificazione {cert} dal 2021."),
        },
        "device": {
            "en": ("Uses a {device} for photos.", "Wants a {device} for Christmas."),
            "fr": ("Utilise un {device} au quotidien.",),
            "es": ("Usa un {device} para trabajar.",),
            "de": ("Nutzt ein {device} im Alltag.",),
            "it": ("Usa un {device} per lavoro.",),
        },
        "version": {
            "en": ("Runs {version} on the home server.",),
            "fr": ("Le serveur de la maison tourne sous {version}.",),
            "es": ("El servidor de casa usa {version}.",),
            "de": ("Der Heimserver läuft mit {version}.",),
            "it": ("Il server di casa usa {version}.",),
        },
        "game": {
            "en": ("Plays {game} with friends on Fridays.", "Favourite game: {game}."),
            "fr": ("Joue à {game} le vendredi soir.",),
            "es": ("Juega a {game} los viernes.",),
            "de": ("Spielt freitags {game}.",),
            "it": ("Gioca a {game} il venerdì.",),
        },
        "course": {
            "en": ("Teaches {course} on Tuesdays.", "Is a TA for {course} this term."),
            "fr": ("Suit le cours {course} le mardi.",),
            "es": ("Da la asignatura {course} los martes.",),
            "de": ("Besucht dienstags den Kurs {course}.",),
            "it": ("Segue il corso {course} il martedì.",),
        },
        "price": {
            "en": ("Spent {price} on the new bike.", "Monthly budget for food is {price}."),
            "fr": ("A payé {price} le nouveau vélo.",),
            "es": ("Pagó {price} por la bici nueva.",),
            "de": ("Hat {price} für das neue Rad bezahlt.",),
            "it": ("Ha speso {price} per la bici nuova.",),
        },
        "seat_flight": {
            "en": ("Always asks for seat {seat} on {flight}.",
                   "Commutes on the {train} at {time}."),
            "fr": ("Prend le {train} de {hhmm} le lundi.",
                   "Vol {flight}, siège {seat} de préférence."),
            "es": ("Toma el {train} de las {time}.", "Prefiere el asiento {seat} del {flight}."),
            "de": ("Nimmt montags den {train} um {time}.", "Fliegt mit {flight}, Platz {seat}."),
            "it": ("Prende il {train} delle {time}.", "Sul volo {flight} vuole il posto {seat}."),
        },
        "rating": {
            "en": ("Rated the hotel {rating}.", "Chess rating around {elo} Elo."),
            "fr": ("A noté le restaurant {rating}.", "Classement Elo autour de {elo}."),
            "es": ("Puntuó el hotel con {rating}.",),
            "de": ("Hat das Hotel mit {rating} bewertet.", "Elo-Zahl etwa {elo}."),
            "it": ("Ha dato {rating} all'albergo.",),
        },
        "size": {
            "en": ("Shoe size {shoe}.", "Wears size {shoe} running shoes."),
            "fr": ("Pointure {shoe}.",),
            "es": ("Calza un {shoe}.",),
            "de": ("Schuhgröße {shoe}.",),
            "it": ("Porta il {shoe} di scarpe.",),
        },
        "habit": {
            "en": ("Pays the rent on the {day}th of every month.", "Gym at {time} on weekdays.",
                   "Calls her mother every Sunday at {time}."),
            "fr": ("Paie le loyer le {day} de chaque mois.", "Sport tous les jours à {hhmm}."),
            "es": ("Paga el alquiler el día {day} de cada mes.", "Gimnasio a las {time}."),
            "de": ("Zahlt die Miete am {day}. jedes Monats.", "Joggt werktags um {time}."),
            "it": ("Paga l'affitto il {day} di ogni mese.", "Palestra alle {time} ogni giorno."),
        },
        "ticket": {
            "en": ("Tracks the bug in ticket #{ticket}.", "Likes the accent colour {color}."),
            "fr": ("Suit le ticket #{ticket} pour ce bug.",),
            "es": ("Sigue el ticket #{ticket}.",),
            "de": ("Verfolgt das Ticket #{ticket}.",),
            "it": ("Segue il ticket #{ticket}.",),
        },
        "room": {
            "en": ("Team meeting in room {room} on Mondays.",),
            "fr": ("Réunion d'équipe en salle {room} le lundi.",),
            "es": ("Reunión en la sala {room} los lunes.",),
            "de": ("Teamrunde montags in Raum {room}.",),
            "it": ("Riunione in sala {room} il lunedì.",),
        },
        "said_aloud": {
            "en": ("Her dog is called {pet}.", "Plays golf at the hotel in Lima.",
                   "Favourite films: Rocky II, III and IV.", "Walks twenty, thirty minutes a day.",
                   "Password rules at work: one capital letter and twelve characters.",
                   "Met her partner in {city}.", "Born in nineteen eighty-seven, in Leeds."),
            "fr": ("Son chien s'appelle {pet}.", "Marche vingt, trente minutes par jour.",
                   "Ses films préférés : Rocky II, III et IV.", "A rencontré son mari à {city}."),
            "es": ("Su perro se llama {pet}.", "Camina veinte, treinta minutos al día.",
                   "Juega al golf en el hotel de Lima.", "Conoció a su pareja en {city}."),
            "de": ("Ihr Hund heißt {pet}.", "Läuft zwanzig, dreißig Minuten am Tag.",
                   "Lieblingsfilme: Rocky II, III und IV.",
                   "Hat ihren Mann in {city} kennengelernt."),
            "it": ("Il suo cane si chiama {pet}.", "Cammina venti, trenta minuti al giorno.",
                   "Film preferiti: Rocky II, III e IV.", "Ha conosciuto il marito a {city}."),
        },
        "cue_then_number": {
            "en": ("Changed the Wi-Fi password last week. Runs {version} at home.",
                   "Forgot her PIN once. Now pays by phone, about {day} times a month.",
                   "Prefers a key safe to hiding keys under the mat. Rents the flat out"
                   " {day} weeks a year.",
                   "Door code changes every month. Office on floor {day}."),
            "fr": ("Préfère une boîte à clés plutôt qu'un voisin. Loue l'appartement"
                   " {day} semaines par an.",
                   "A changé le mot de passe du wifi. Utilise {version} à la maison."),
            "es": ("Prefiere una caja de llaves a dejar la llave al vecino. Alquila el piso"
                   " {day} semanas.",
                   "Cambió la contraseña del wifi. Usa {version} en casa."),
            "de": ("Der Türcode ändert sich monatlich. Büro im Stock {day}.",
                   "Hat die PIN der Karte geändert. Fährt {day} km zur Arbeit."),
            "it": ("Ha cambiato la password del wifi. Usa {version} a casa.",
                   "Preferisce la cassetta delle chiavi al vicino. Affitta la casa"
                   " {day} settimane l'anno."),
        },
        "membership": {
            "en": ("Policy renewal every March with Allianz.", "Gym member since {year}.",
                   "Claims with her insurer take about {day} days."),
            "fr": ("Adhérente de la mutuelle depuis {year}.",
                   "Renouvelle son contrat d'assurance en mars."),
            "es": ("Socia del gimnasio desde {year}.", "Renueva la póliza cada marzo."),
            "de": ("Mitglied im Sportverein seit {year}.", "Verlängert die Police jeden März."),
            "it": ("Socia della palestra dal {year}.", "Rinnova la polizza ogni marzo."),
        },
        "cue_no_value": {
            "en": ("Prefers a bike lock with a key, not a combination.",
                   "Keeps 2FA backup codes in a password manager.",
                   "Wants one-time codes by app, not SMS.", "Her Discord server is for book clubs.",
                   "The guest Wi-Fi at the office is slow."),
            "fr": ("Préfère un cadenas à clé plutôt qu'à code.",
                   "Garde ses codes de secours dans un gestionnaire de mots de passe."),
            "es": ("Prefiere un candado de llave y no de combinación.",
                   "Guarda los códigos de respaldo en un gestor de contraseñas."),
            "de": ("Bevorzugt ein Schloss mit Schlüssel statt Zahlenschloss.",
                   "Bewahrt die Backup-Codes im Passwortmanager auf."),
            "it": ("Preferisce un lucchetto a chiave invece che a combinazione.",
                   "Tiene i codici di backup in un gestore di password."),
        },
    }  # fmt: skip
    family = rng.choice(tuple(families))
    template = rng.choice(families[family][lang])
    text = template.format(
        device=device, version=version, game=game, course=course, time=time, hhmm=hhmm,
        price=price, seat=seat, flight=flight, train=train, rating=rating, elo=elo, shoe=shoe,
        day=day, ticket=ticket, color=color, room=room, pet=rng.choice(_PET_NAMES),
        city=faker(rng.choice(LOCALES[lang])).city(), year=rng.randint(1995, 2024),
        req=req, cert=cert, role=role, maker=maker, model=model, build=build, video=video,
    )  # fmt: skip
    return text, f"benign/{family}"


def generate(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` rows, about 60 % leaks (every family alike), 40 % benign, every language."""
    return generate_rows(count, seed, LEAKS, _benign)
