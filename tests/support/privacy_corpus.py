"""Generated notes for the privacy guards: identifiers and secrets in their surface forms,
and durable notes that only look dangerous, in EN/FR/ES/DE/IT.

Values come from Faker in many locales (cards, IBANs, national ids, phones, e-mails, plates,
passports, IPs, MACs, coordinates, passwords) and from the ``mnemonic`` word lists (seed
phrases); templates and surface forms (spaced, dotted, fullwidth, zero-width, spelled-out
digits, "dot"/"at" e-mails, lower case, split across text and keywords) are written here.
Benign notes carry versions, seat and flight numbers, prices, quantities with units, product
models, years and recurring times.

Each row has the evaluation-set format of :mod:`memory_service.evaluation` (``text``,
``keywords``, ``expect_status``, ``expect_reasons``, ``lang``, ``note``), with ``note``
naming the template family and surface form, so a report can say which form leaks.

``generate(count, seed)``: a fixed seed is a regression set, a new one an honest run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from faker import Faker
from mnemonic import Mnemonic

LANGUAGES = ("en", "fr", "es", "de", "it")
LOCALES = {
    "en": ("en_US", "en_GB", "en_IE", "en_CA", "en_AU", "en_IN"),
    "fr": ("fr_FR", "fr_CA", "fr_CH", "fr_BE"),
    "es": ("es_ES", "es_MX", "es_AR", "es_CO"),
    "de": ("de_DE", "de_AT", "de_CH"),
    "it": ("it_IT", "it_CH"),
}
# Identifier values also come from locales whose language the note is not written in.
FOREIGN_LOCALES = ("nl_NL", "pt_BR", "pt_PT", "pl_PL", "sv_SE", "da_DK", "fi_FI", "cs_CZ")
MNEMONIC_LANGUAGES = {"en": "english", "fr": "french", "es": "spanish", "it": "italian"}

SPELLED = {
    "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
    "fr": ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"],
    "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"],
    "de": ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"],
    "it": ["zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"],
}
EMAIL_WORDS = {
    "en": [(" at ", " dot "), ("(at)", "(dot)"), ("[at]", "[dot]"), ("%40", ".")],
    "fr": [(" arobase ", " point "), ("(at)", "(point)"), ("\uff20", ".")],
    "es": [(" arroba ", " punto "), ("[arroba]", "[punto]")],
    "de": [(" at ", " Punkt "), ("(at)", "(Punkt)"), ("%40", ".")],
    "it": [(" chiocciola ", " punto "), ("(at)", "(punto)")],
}

# Leak templates: {v} is the value. The cue words are the language's own.
IDENTIFIER_TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "card": ("Please charge my card, number is {v}", "Card on file: {v}", "Use {v} for hotels"),
        "iban": ("Refunds go to {v}", "Salary account {v}", "IBAN {v} for transfers"),
        "national_id": ("SSN is {v}", "Tax id {v}", "ID number {v} on the form"),
        "phone": ("Phone is {v}", "Call him on {v}", "Prefers texts to {v}"),
        "email": ("{v} is the preferred address", "Send receipts to {v}"),
        "plate": ("Car plate {v}", "Parks the van, registration {v}"),
        "passport": ("Passport number {v}", "Travels on passport {v}"),
        "ip": ("Home router is {v}", "Connects from {v}"),
        "mac": ("Laptop MAC is {v}", "Whitelisted device {v}"),
        "gps": ("Lives at {v}", "Cabin is at {v}"),
        "loyalty": ("Frequent flyer number {v}", "Loyalty number {v}", "Member number {v}"),
    },
    "fr": {
        "card": ("Sa carte bancaire : {v}", "Payer avec la carte {v}"),
        "iban": ("Virements sur {v}", "IBAN {v} pour les remboursements"),
        "national_id": ("Numéro de sécurité sociale {v}", "Numéro fiscal {v}"),
        "phone": ("Son téléphone est le {v}", "Joignable au {v}"),
        "email": ("Adresse préférée : {v}", "Envoyer les factures à {v}"),
        "plate": ("Plaque d'immatriculation {v}", "Immatriculation {v}"),
        "passport": ("Numéro de passeport {v}",),
        "ip": ("Sa box a l'adresse {v}",),
        "mac": ("Adresse MAC du portable : {v}",),
        "gps": ("Habite aux coordonnées {v}",),
        "loyalty": ("Numéro de carte de fidélité {v}", "Numéro client {v}"),
    },
    "es": {
        "card": ("Su tarjeta es {v}", "Cobrar en la tarjeta {v}"),
        "iban": ("Transferencias a {v}", "Cuenta IBAN {v}"),
        "national_id": ("DNI {v}", "Número de seguridad social {v}"),
        "phone": ("Su teléfono es {v}", "Llamar al {v}"),
        "email": ("Correo preferido: {v}", "Enviar facturas a {v}"),
        "plate": ("Matrícula {v}",),
        "passport": ("Número de pasaporte {v}",),
        "ip": ("Su router tiene la IP {v}",),
        "mac": ("MAC del portátil {v}",),
        "gps": ("Vive en {v}",),
        "loyalty": ("Número de socio {v}", "Número de cliente {v}"),
    },
    "de": {
        "card": ("Kreditkarte {v}", "Bitte die Karte {v} belasten"),
        "iban": ("Überweisungen an {v}", "Konto {v} für Erstattungen"),
        "national_id": ("Steuer-ID {v}", "Sozialversicherungsnummer {v}"),
        "phone": ("Telefon ist {v}", "Erreichbar unter {v}"),
        "email": ("Bevorzugte Adresse: {v}", "Rechnungen an {v}"),
        "plate": ("Kennzeichen {v}",),
        "passport": ("Reisepassnummer {v}",),
        "ip": ("Router hat die IP {v}",),
        "mac": ("MAC-Adresse des Laptops {v}",),
        "gps": ("Wohnt bei {v}",),
        "loyalty": ("Kundennummer {v}", "Mitgliedsnummer {v}"),
    },
    "it": {
        "card": ("Carta di credito {v}", "Addebitare sulla carta {v}"),
        "iban": ("Bonifici su {v}", "IBAN {v} per i rimborsi"),
        "national_id": ("Codice fiscale {v}", "Numero di tessera sanitaria {v}"),
        "phone": ("Il suo telefono è {v}", "Chiamare il {v}"),
        "email": ("Indirizzo preferito: {v}", "Mandare le fatture a {v}"),
        "plate": ("Targa {v}",),
        "passport": ("Numero di passaporto {v}",),
        "ip": ("Il router ha l'IP {v}",),
        "mac": ("MAC del portatile {v}",),
        "gps": ("Abita a {v}",),
        "loyalty": ("Numero cliente {v}", "Numero di tessera {v}"),
    },
}
SECRET_TEMPLATES: dict[str, tuple[str, ...]] = {
    "en": (
        "Password for the office VPN is {v}",
        "PIN for the debit card is {p}",
        "The gate code is {p}",
        "Wi-Fi password: {v}",
        "pw = {w}",
        "Login is {u} / {v}",
        "Alarm code {p}",
        "Security answer: {w}",
        "Seed phrase: {m}",
        "Backup of the wallet words {m}",
    ),
    "fr": (
        "Le mot de passe du VPN est {v}",
        "Code PIN de la carte : {p}",
        "Le code de la porte est {p}",
        "Clé wifi : {v}",
        "mdp = {w}",
        "Identifiants : {u} / {v}",
        "Phrase de récupération : {m}",
    ),
    "es": (
        "La contraseña del portal es {v}",
        "El PIN de la tarjeta es {p}",
        "Código de la puerta: {p}",
        "Clave wifi {v}",
        "Usuario {u} / {v}",
        "Frase semilla: {m}",
    ),
    "de": (
        "Das Passwort für das VPN lautet {v}",
        "Die PIN der Karte ist {p}",
        "Türcode {p}",
        "WLAN-Schlüssel: {v}",
        "Kennwort = {w}",
        "Benutzername {u} / {v}",
    ),
    "it": (
        "La password della VPN è {v}",
        "Il PIN della carta è {p}",
        "Il codice del cancello è {p}",
        "Chiave wifi: {v}",
        "Nome utente {u} / {v}",
        "Frase di recupero: {m}",
    ),
}
BENIGN_TEMPLATES: dict[str, tuple[str, ...]] = {
    "en": (
        "Always books seat {seat} on long flights.",
        "Usually flies {flight} to Frankfurt on Mondays.",
        "Prefers Python {version} for new services.",
        "Budget is around {price} per trip.",
        "Runs {km}km every Sunday.",
        "Uses a {model} headset for calls.",
        "Has collected {points} points with the airline.",
        "Weekly review every Friday at {time}.",
        "Worked in Madrid {years}, prefers remote work.",
        "Prefers token-based auth over passwords.",
        "Keeps the seed phrase of the wallet offline.",
        "Wants the PIN reset through the app, never by phone.",
        "Buys {count} copies of the catalogue every year.",
    ),
    "fr": (
        "Réserve toujours le siège {seat} sur les longs vols.",
        "Prend souvent le vol {flight} le lundi.",
        "Préfère Python {version} pour les nouveaux projets.",
        "Budget d'environ {price} par voyage.",
        "Court {km}km tous les dimanches.",
        "Utilise un casque {model} pour les appels.",
        "Réunion chaque vendredi à {time}.",
        "Préfère l'authentification par jeton aux mots de passe.",
    ),
    "es": (
        "Siempre reserva el asiento {seat} en vuelos largos.",
        "Suele tomar el vuelo {flight} los lunes.",
        "Prefiere Python {version} para proyectos nuevos.",
        "Presupuesto de unos {price} por viaje.",
        "Corre {km}km todos los domingos.",
        "Usa unos auriculares {model} para las llamadas.",
        "Reunión cada viernes a las {time}.",
    ),
    "de": (
        "Bucht immer Sitzplatz {seat} auf Langstrecken.",
        "Fliegt montags meistens mit {flight}.",
        "Bevorzugt Python {version} für neue Projekte.",
        "Budget von etwa {price} pro Reise.",
        "Läuft jeden Sonntag {km}km.",
        "Nutzt ein {model} Headset für Anrufe.",
        "Besprechung jeden Freitag um {time}.",
    ),
    "it": (
        "Prenota sempre il posto {seat} sui voli lunghi.",
        "Prende di solito il volo {flight} il lunedì.",
        "Preferisce Python {version} per i nuovi progetti.",
        "Budget di circa {price} a viaggio.",
        "Corre {km}km ogni domenica.",
        "Usa cuffie {model} per le chiamate.",
        "Riunione ogni venerdì alle {time}.",
    ),
}
MODELS = ("WH-1000XM5", "RTX 4090", "XPS 13", "A7 III", "QC45", "SM-G991B", "iPhone 15", "MX3")
ZERO_WIDTH = ("\u200b", "\u200c", "\u2060")


@dataclass(frozen=True)
class _Value:
    kind: str
    text: str
    digits_only: bool


def seeded_fakers(rng: random.Random) -> Callable[[str], Faker]:
    """One Faker per locale, made on first use and seeded from ``rng``: a generator's rows
    depend on its seed alone."""
    fakers: dict[str, Faker] = {}

    def faker(locale: str) -> Faker:
        if locale not in fakers:
            fakers[locale] = Faker(locale)
            fakers[locale].seed_instance(rng.randrange(2**32))
        return fakers[locale]

    return faker


def generate(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` rows, about 45 % identifiers, 25 % secrets, 30 % benign, every language."""
    rng = random.Random(seed)
    faker = seeded_fakers(rng)

    rows = []
    makers: tuple[
        tuple[float, Callable[[random.Random, str, Callable[[str], Faker]], dict[str, Any]]], ...
    ] = (
        (0.45, _identifier_row),
        (0.25, _secret_row),
        (0.30, _benign_row),
    )
    for _ in range(count):
        lang = rng.choice(LANGUAGES)
        roll, total = rng.random(), 0.0
        for share, make in makers:
            total += share
            if roll <= total:
                rows.append(make(rng, lang, faker))
                break
        else:
            rows.append(_benign_row(rng, lang, faker))
    return rows


# --- identifiers -----------------------------------------------------------------------


def _identifier_row(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> dict[str, Any]:
    kind = rng.choice(tuple(IDENTIFIER_TEMPLATES[lang]))
    locale = (
        rng.choice(LOCALES[lang] + FOREIGN_LOCALES)
        if kind in ("iban", "national_id")
        else (rng.choice(LOCALES[lang]))
    )
    value = _identifier_value(kind, faker(locale), rng)
    form, surface = _surface(value, rng, lang)
    template = rng.choice(IDENTIFIER_TEMPLATES[lang][kind])
    text, keywords = template.replace("{v}", surface), []
    if form == "plain" and value.digits_only and rng.random() < 0.25:
        half = len(surface) // 2
        while half < len(surface) and surface[half].isdigit() and surface[half - 1].isdigit():
            half += 1
        text, keywords, form = (
            template.replace("{v}", surface[:half].strip()),
            [surface[half:].strip()],
            "split_across_keywords",
        )
    return eval_row(text, keywords, lang, "rejected", ["pii"], f"{kind}/{form}")


def _identifier_value(kind: str, fake: Faker, rng: random.Random) -> _Value:
    if kind == "card":
        return _Value(kind, fake.credit_card_number(), True)
    if kind == "iban":
        return _Value(kind, fake.iban(), False)
    if kind == "national_id":
        for method in ("ssn", "nif", "vat_id"):
            if hasattr(fake, method):
                return _Value(kind, str(getattr(fake, method)()), False)
    if kind == "phone":
        return _Value(kind, fake.phone_number(), True)
    if kind == "email":
        return _Value(kind, fake.email(), False)
    if kind == "plate":
        return _Value(kind, fake.license_plate(), False)
    if kind == "passport":
        return _Value(kind, fake.passport_number(), False)
    if kind == "ip":
        return _Value(kind, fake.ipv4_public(), False)
    if kind == "mac":
        return _Value(kind, fake.mac_address(), False)
    if kind == "gps":
        return _Value(kind, f"{fake.latitude():.5f}, {fake.longitude():.5f}", False)
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(8, 12)))
    prefix = rng.choice(("", "", "BA", "AF", "LH"))
    return _Value(kind, prefix + digits, not prefix)


def _surface(value: _Value, rng: random.Random, lang: str) -> tuple[str, str]:
    """The value as people write it: plain, or one of the obfuscated forms that fits."""
    text = value.text
    forms: list[tuple[str, Callable[[], str]]] = [("plain", lambda: text)]
    compact = "".join(ch for ch in text if ch.isalnum())
    if value.kind == "email":
        at, dot = rng.choice(EMAIL_WORDS[lang])
        forms.append(("spelled_email", lambda: text.replace("@", at).replace(".", dot)))
        forms.append(("fullwidth", lambda: _fullwidth(text)))
    if value.digits_only or value.kind in ("iban", "loyalty"):
        forms.append(("spaced", lambda: " ".join(_chunks(compact, rng.choice((2, 3, 4))))))
        forms.append(("dotted", lambda: ".".join(_chunks(compact, 4))))
        forms.append(("fullwidth", lambda: _fullwidth(text)))
        forms.append(("zero_width", lambda: rng.choice(ZERO_WIDTH).join(_chunks(compact, 4))))
    if value.kind == "iban":
        forms.append(("lower_case", lambda: " ".join(_chunks(compact.lower(), 4))))
    if value.kind == "phone" and compact.isdigit():
        words = SPELLED[lang]
        forms.append(("spelled_digits", lambda: " ".join(words[int(d)] for d in compact)))
    name, make = rng.choice(forms)
    return name, make()


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


# --- secrets ---------------------------------------------------------------------------


def _secret_row(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> dict[str, Any]:
    fake = faker(rng.choice(LOCALES[lang]))
    template = rng.choice(SECRET_TEMPLATES[lang])
    words = Mnemonic(MNEMONIC_LANGUAGES.get(lang, "english")).generate(rng.choice((128, 256)))
    text = template.format(
        v=fake.password(length=rng.randint(8, 14)),
        p="".join(rng.choice("0123456789") for _ in range(rng.randint(4, 6))),
        w="".join(fake.words(3)).lower(),
        u=fake.user_name(),
        m=words,
    )
    form = "plain"
    if rng.random() < 0.2 and "{p}" in template:
        text, form = _fullwidth_digits(text), "fullwidth"
    return eval_row(text[:280], [], lang, "rejected", ["secret"], f"secret/{form}")


def _fullwidth_digits(text: str) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if ch.isdigit() else ch for ch in text)


# --- benign look-alikes ------------------------------------------------------------------


def _benign_row(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> dict[str, Any]:
    template = rng.choice(BENIGN_TEMPLATES[lang])
    currency = rng.choice(("€", "$", "£", " EUR", " CHF"))
    text = template.format(
        seat=f"{rng.randint(1, 45)}{rng.choice('ABCDEFK')}",
        flight=f"{rng.choice(('AF', 'LH', 'BA', 'IB', 'AZ', 'U2', 'KL'))}{rng.randint(10, 9999)}",
        version=f"3.{rng.randint(8, 13)}.{rng.randint(0, 12)}",
        price=f"{rng.randint(50, 5000)}{currency}",
        km=rng.randint(3, 42),
        model=rng.choice(MODELS),
        points=rng.randint(1000, 250000),
        time=f"{rng.randint(7, 19)}:{rng.choice(('00', '15', '30', '45'))}",
        years=f"{rng.randint(2005, 2015)}-{rng.randint(2016, 2024)}",
        count=rng.randint(2, 40),
    )
    return eval_row(text, [], lang, "saved", [], "benign")


def eval_row(
    text: str, keywords: list[str], lang: str, status: str, reasons: list[str], note: str
) -> dict[str, Any]:
    """One line of a ``memory-service eval`` set (a durable note the user stated)."""
    return {
        "text": text,
        "keywords": keywords,
        "durability": "durable",
        "source": "user_stated",
        "expect_status": status,
        "expect_reasons": reasons,
        "lang": lang,
        "note": note,
    }


def iter_generated(count: int, seed: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """(row number, row), like :func:`memory_service.evaluation.load_rows`."""
    yield from enumerate(generate(count, seed), start=1)


Maker = Callable[[random.Random, str, Callable[[str], Faker]], tuple[str, str]]
"""A family of a value corpus: (rng, language, fakers by locale) -> (text, note)."""


def generate_rows(
    count: int, seed: int, leaks: dict[str, tuple[str, Maker]], benign: Maker
) -> list[dict[str, Any]]:
    """``count`` rows of a value corpus: about 60 % made by ``leaks`` (every family alike,
    labelled with its reason), 40 % by ``benign`` (saved), every language."""
    rng = random.Random(seed)
    faker = seeded_fakers(rng)
    rows = []
    for _ in range(count):
        lang = rng.choice(LANGUAGES)
        if rng.random() < 0.6:
            reason, make = leaks[rng.choice(tuple(leaks))]
            text, note = make(rng, lang, faker)
            rows.append(eval_row(text, [], lang, "rejected", [reason], note))
        else:
            text, note = benign(rng, lang, faker)
            rows.append(eval_row(text, [], lang, "saved", [], note))
    return rows
