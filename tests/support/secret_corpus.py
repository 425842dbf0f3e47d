"""Generated secrets by class: templates x values x languages (EN/FR/ES/DE/IT), with benign
notes that use the same cue words and hold no secret.

Classes (``note`` of each row is ``<class>/<lang>``):

- ``answer``: the answer to a security question, the question named in the language's
  words, the answer after ":", "is", a dash or nothing;
- ``recovery_codes``: backup, recovery or 2FA codes, groups of letters and digits after a cue;
- ``passphrase``: several words after a passphrase cue, quoted or not;
- ``seed``: 12 or 24 words of the language's BIP-39 list (``mnemonic``), after a cue or alone;
- ``spelled_pin``: a PIN or a door code written in words ("four seven one two");
- ``card_code``: a card's verification code (3 digits) after its cue;
- ``lock``: a code that opens or disarms something ("the gate opens with 4821");
- ``credential``: a password or PIN after a credential word with any punctuation between.

Values are made here from a seeded :class:`random.Random`; seed words come from the
``mnemonic`` wheel's lists. A fixed seed is a regression set, a new one an honest run.
"""

from __future__ import annotations

import random
import string
from typing import Any

from mnemonic import Mnemonic

from tests.support.privacy_corpus import eval_row

LANGUAGES = ("en", "fr", "es", "de", "it")
BIP39 = {"en": "english", "fr": "french", "es": "spanish", "it": "italian", "de": "english"}
DIGITS = {
    "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
    "fr": ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"],
    "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"],
    "de": ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"],
    "it": ["zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"],
}
# Separators people put between a credential word and its value.
MARKERS = (": ", " = ", " - ", " \u2013 ", " \u2192 ", " -> ", " | ", " ", ": \u00ab", ' "')
ANSWER_WORDS = (
    "Biscuit", "Quimper", "Fufi", "Rex", "Kowalski", "Bella", "Toledo", "Moustache", "Stella",
    "Pippo", "Lindenhof", "blue", "St. Mary's",
)  # fmt: skip
PASS_WORDS = (
    "gravel otter sings at noon", "correct horse battery staple", "purple monkey dishwasher",
    "le chat dort sur le toit", "el perro come pan", "der Hund bellt laut", "la luna è blu",
)  # fmt: skip

TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "answer": {
        "en": (
            "Security question (first pet) answer{m}{a}",
            "Answer to the security question{m}{a}",
            "Security answer for the bank{m}{a}",
            "Memorable word for online banking{m}{a}",
            "The answer to 'name of first pet' is {a}",
            "Secret question: city of birth, answer{m}{a}",
        ),
        "fr": (
            "Réponse à la question secrète (ville natale du père){m}{a}",
            "Question de sécurité : premier animal, réponse{m}{a}",
            "Réponse de sécurité de la banque{m}{a}",
        ),
        "es": (
            "Respuesta a la pregunta de seguridad{m}{a}",
            "Pregunta secreta (primera mascota), respuesta{m}{a}",
            "La respuesta de seguridad del banco es {a}",
        ),
        "de": (
            "Antwort auf die Sicherheitsfrage{m}{a}",
            "Sicherheitsfrage (erstes Haustier), Antwort{m}{a}",
            "Die Antwort auf die Sicherheitsfrage lautet {a}",
        ),
        "it": (
            "Risposta alla domanda di sicurezza{m}{a} (nome del primo cane)",
            "Domanda segreta: città natale, risposta{m}{a}",
            "La risposta di sicurezza della banca è {a}",
        ),
    },
    "recovery_codes": {
        "en": ("Backup codes{m}{c}", "2FA recovery codes for GitHub {c}", "MFA codes: {c}"),
        "fr": ("Codes de secours{m}{c}", "Codes de récupération 2FA : {c}"),
        "es": ("Códigos de respaldo{m}{c}", "Códigos de recuperación: {c}"),
        "de": ("Wiederherstellungscodes{m}{c}", "Backup-Codes für das Konto: {c}"),
        "it": ("Codici di backup{m}{c}", "Codici di recupero 2FA: {c}"),
    },
    "passphrase": {
        "en": ("The vault passphrase is '{p}'.", "Passphrase{m}{p}", "KeePass passphrase: {p}"),
        "fr": ("Phrase secrète du coffre : « {p} »", "La phrase de passe est '{p}'"),
        "es": ("Frase de contraseña: '{p}'", "La frase secreta es «{p}»"),
        "de": ("Passphrase für den Tresor: '{p}'", "Die Passphrase lautet „{p}“"),
        "it": ("Passphrase del portachiavi: '{p}'", "La frase segreta è '{p}'"),
    },
    "seed": {
        "en": ("Seed phrase{m}{s}", "Wallet recovery words: {s}", "{s}"),
        "fr": ("Phrase de récupération{m}{s}", "Mots du portefeuille : {s}"),
        "es": ("Frase semilla{m}{s}", "Palabras de recuperación: {s}"),
        "de": ("Seed-Phrase{m}{s}", "Wiederherstellungsphrase: {s}"),
        "it": ("Frase di recupero{m}{s}", "Parole del portafoglio: {s}"),
    },
    "spelled_pin": {
        "en": ("PIN is {w}", "The door code is {w}", "Alarm code{m}{w}"),
        "fr": ("Le code de la porte est {w}", "Code PIN{m}{w}"),
        "es": ("El PIN es {w}", "Código de la alarma{m}{w}"),
        "de": ("Die PIN ist {w}", "Türcode{m}{w}"),
        "it": ("Il PIN è {w}", "Codice del cancello{m}{w}"),
    },
    "card_code": {
        "en": ("Card CVV{m}{k}", "CVC is {k}", "Card security code{m}{k}"),
        "fr": ("Cryptogramme visuel{m}{k}",),
        "es": ("Código CVV{m}{k}",),
        "de": ("Kartenprüfnummer{m}{k}",),
        "it": ("Codice CVV{m}{k}",),
    },
    "lock": {
        "en": ("The number to disarm the alarm is {d}", "Gate opens with {d}"),
        "fr": ("L'alarme se désactive avec {d}", "Le portail s'ouvre avec {d}"),
        "es": ("La alarma se desactiva con {d}", "La puerta se abre con {d}"),
        "de": ("Die Alarmanlage wird mit {d} deaktiviert", "Das Tor öffnet man mit {d}"),
        "it": ("Il cancello si apre con {d}", "L'allarme si disattiva con {d}"),
    },
    "credential": {
        "en": ("Password{m}{v}", "Wi-Fi password for the cabin{m}{v}", "PIN{m}{d}"),
        "fr": ("Mot de passe du VPN{m}{v}", "Code PIN{m}{d}", "Clé wifi{m}{v}"),
        "es": ("Contraseña del portal{m}{v}", "PIN de la tarjeta{m}{d}", "Clave wifi{m}{v}"),
        "de": ("Passwort{m}{v}", "Kennwort fürs Banking{m}{v}", "Geheimzahl{m}{d}"),
        "it": ("Password della posta{m}{v}", "PIN del bancomat{m}{d}", "Chiave wifi{m}{v}"),
    },
}

# Notes that use the same cue words and hold no secret: they must be saved.
BENIGN: dict[str, tuple[str, ...]] = {
    "en": (
        "Prefers security questions to be disabled on every account.",
        "Keeps the backup codes printed in the home safe.",
        "Wants 2FA codes by SMS, never by email.",
        "Uses a passphrase of at least five words for the password manager.",
        "Door code changes every 30 days at the office.",
        "PIN changed in 2021 after the card was stolen.",
        "Prefers a 6-digit PIN on the phone.",
        "Keeps the seed phrase of the wallet offline.",
        "Wi-Fi key for the 5GHz network is in the drawer.",
        "Never wants the password sent in a chat.",
        "Prefers cards without a CVV check for small payments.",
        "The alarm is armed every night at 2300.",
    ),
    "fr": (
        "Préfère désactiver les questions de sécurité.",
        "Garde les codes de secours dans le coffre.",
        "Le code de la porte change tous les mois.",
        "Veut un code PIN à 6 chiffres.",
    ),
    "es": (
        "Prefiere desactivar las preguntas de seguridad.",
        "Guarda los códigos de respaldo en la caja fuerte.",
        "Cambia la contraseña cada 90 días.",
        "Quiere un PIN de 6 dígitos.",
    ),
    "de": (
        "Möchte keine Sicherheitsfragen bei der Bank.",
        "Bewahrt die Wiederherstellungscodes im Tresor auf.",
        "Ändert das Passwort alle 90 Tage.",
        "Will eine sechsstellige PIN.",
    ),
    "it": (
        "Preferisce disattivare le domande di sicurezza.",
        "Tiene i codici di backup nella cassaforte.",
        "Cambia la password ogni 90 giorni.",
        "Vuole un PIN di 6 cifre.",
    ),
}


def _code(rng: random.Random) -> str:
    alphabet = string.ascii_uppercase + string.digits
    while True:
        part = "".join(rng.choice(alphabet) for _ in range(4))
        if sum(ch.isdigit() for ch in part) >= 1:
            break
    shape = rng.choice(("digits", "mixed", "lower"))
    if shape == "digits":
        return f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"
    second = "".join(rng.choice(alphabet) for _ in range(4))
    code = f"{part}-{second}"
    return code.lower() if shape == "lower" else code


def _password(rng: random.Random) -> str:
    word = rng.choice(("Birke", "Gato", "Lapin", "Sunflower", "Gabbiano", "perroazul", "Harbour"))
    shape = rng.choice(("word_digits", "symbol", "mixed"))
    if shape == "word_digits":
        return f"{word}{rng.randint(10, 2099)}"
    if shape == "symbol":
        return f"{word}{rng.choice('!#_&$')}{rng.randint(1, 99)}"
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(10))


def _close(marker: str) -> str:
    return {": «": " »", ' "': '"'}.get(marker, "")


def secret_row(rng: random.Random, kind: str, lang: str) -> dict[str, Any]:
    template = rng.choice(TEMPLATES[kind][lang])
    marker = rng.choice(MARKERS)
    pin = "".join(rng.choice(string.digits) for _ in range(rng.randint(4, 6)))
    words = Mnemonic(BIP39[lang]).generate(rng.choice((128, 256)))
    values = {
        "m": marker,
        "a": rng.choice(ANSWER_WORDS) + _close(marker),
        "c": ", ".join(_code(rng) for _ in range(rng.randint(1, 4))) + _close(marker),
        "p": rng.choice(PASS_WORDS) + _close(marker),
        "s": words + _close(marker),
        "w": " ".join(DIGITS[lang][int(d)] for d in pin) + _close(marker),
        "v": _password(rng) + _close(marker),
        "d": pin + _close(marker),
        "k": pin[:3] + _close(marker),
    }
    if "{m}" not in template:
        values = {key: value.removesuffix(_close(marker)) for key, value in values.items()}
    text = template.format(**values)
    return eval_row(text[:280], [], lang, "rejected", ["secret"], f"{kind}/{lang}")


def generate(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` secret rows spread over the classes and languages, then every benign note."""
    rng = random.Random(seed)
    rows = [
        secret_row(rng, rng.choice(tuple(TEMPLATES)), rng.choice(LANGUAGES)) for _ in range(count)
    ]
    for lang, texts in BENIGN.items():
        rows += [eval_row(text[:280], [], lang, "saved", [], f"benign/{lang}") for text in texts]
    return rows
