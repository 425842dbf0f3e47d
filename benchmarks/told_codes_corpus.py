"""Generated notes for the told-code classes of session 9's sets (branch leaks7), with look-alikes.

Families (the note's ``note`` field is ``family/form``, never printed with its text unless
``--misses`` asks for the synthetic misses):

- ``told_code``: digits a few words after a credential's cue or a lock's noun, the cue
  alone or ending a compound, with "is", ":" or a change of value ("changé en");
- ``keyed_at_entry``: digits keyed one by one, or listed with commas and keypad keys, in
  the clause of a way in;
- ``told_email``: an e-mail address spelled with spaces, or told by its provider;
- ``told_parts``: a customer number or a plate told in parts with "then";
- ``benign/...``: dimensions, hexadecimal error codes, oil grades and tyre sizes, a maker's
  model after an article, a year after a change, a postal code.

Run through ``python -m benchmarks.privacy_guards --corpus codes --seed N``.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Any

from faker import Faker

from tests.support.privacy_corpus import Maker, generate_rows


def _digits(rng: random.Random, low: int = 4, high: int = 8) -> str:
    value = "".join(rng.choice(string.digits) for _ in range(rng.randint(low, high)))
    while value[:2] in ("19", "20") and len(value) == 4:
        value = "".join(rng.choice(string.digits) for _ in range(4))
    return value


_CUES = {
    "en": ["alarm", "gate code", "door PIN", "Locker-PIN", "SIM PIN", "safe"],
    "fr": ["code PIN", "digicode", "code de l'alarme", "code du portail", "Boîte-PIN"],
    "es": ["PIN", "código de la alarma", "clave del portal", "código de la caja fuerte"],
    "de": ["Tresor-PIN", "Alarmcode", "Torcode", "Briefkasten-PIN", "SIM-PIN"],
    "it": ["PIN", "codice dell'allarme", "codice del cancello", "codice della cassaforte"],
}
_TOLD = {
    "en": ["The {cue} is {v}.", "{cue} for the lake house is {v}, don't share it.",
           "The {cue} was changed to {v} last week.", "{cue}: {v}."],
    "fr": ["Le {cue} est {v}.", "Le {cue} de la maison a été changé en {v}.", "{cue} : {v}."],
    "es": ["El {cue} es {v}.", "El {cue} de la casa se ha cambiado a {v}.", "{cue}: {v}."],
    "de": ["Der {cue} ist {v}.", "{cue} vom Ferienhaus lautet {v}.", "{cue}: {v}."],
    "it": ["Il {cue} è {v}.", "Il {cue} di casa è stato cambiato in {v}.", "{cue}: {v}."],
}  # fmt: skip


def _told_code(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    template = rng.choice(_TOLD[lang])
    cue = rng.choice(_CUES[lang])
    text = template.format(cue=cue, v=_digits(rng))
    return text[0].upper() + text[1:], f"told_code/{lang}"


_ENTRIES = {
    "en": ["Side entrance: {k}, then push.", "Back entrance keypad: {k}."],
    "fr": ["Entrée de service : {k}, puis pousser.", "Digicode de l'entrée : {k}."],
    "es": ["Portero automático: {k}.", "Entrada trasera: {k}, luego empujar."],
    "de": ["Hintereingang: {k}, dann drücken.", "Tastenfeld am Eingang: {k}."],
    "it": ["Ingresso laterale: {k}, poi spingere.", "Citofono: {k}."],
}
_KEYS = {"en": ("hash", "star"), "fr": ("dièse", "étoile"), "es": ("almohadilla", "asterisco"),
         "de": ("Raute", "Stern"), "it": ("cancelletto", "asterisco")}  # fmt: skip


def _keyed_at_entry(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    digits = list(_digits(rng, 4, 6))
    if rng.random() < 0.5:
        keyed, form = " ".join(digits), "spaced"
    else:
        keyed, form = ", ".join([*digits, rng.choice(_KEYS[lang])]), "listed"
    return rng.choice(_ENTRIES[lang]).format(k=keyed), f"keyed_at_entry/{form}"


_PROVIDERS = ("gmail", "outlook", "hotmail", "yahoo", "gmx", "libero", "icloud")


def _told_email(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    person = faker(lang)
    first, last = person.first_name().lower(), person.last_name().lower()
    first = "".join(ch for ch in first if ch.isascii() and ch.isalpha()) or "ana"
    last = "".join(ch for ch in last if ch.isascii() and ch.isalpha()) or "ruiz"
    provider = rng.choice(_PROVIDERS)
    form = rng.choice(("spaced", "provider"))
    if form == "spaced":
        value = f"{' '.join(first)} . {' '.join(last)} @ {provider} . com"
    else:
        value = f"{first} underscore {last[0]} {rng.randint(1970, 2005)} at {provider}"
    return f"Contact e-mail: {value}.", f"told_email/{form}"


def _told_parts(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    letters = "".join(rng.choice(string.ascii_uppercase) for _ in range(2))
    if rng.random() < 0.5:
        text = (
            f"Customer number is {letters}, then {_digits(rng, 4, 4)}, then {_digits(rng, 2, 4)}."
        )
        return text, "told_parts/customer"
    tail = "".join(rng.choice(string.ascii_uppercase) for _ in range(3))
    return f"Car plate is {letters}, then {rng.randint(10, 99)}, then {tail}.", "told_parts/plate"


LEAKS: dict[str, tuple[str, Maker]] = {
    "told_code": ("secret", _told_code),
    "keyed_at_entry": ("secret", _keyed_at_entry),
    "told_email": ("pii", _told_email),
    "told_parts": ("pii", _told_parts),
}

_BENIGN = {
    "dimensions": [
        "Wants a mattress {a}x{b} for the guest room.", "Screen runs at {a}0x{b}0.",
        "Bookcase is {a}x{c}x{b} cm.", "Cerca un tappeto {a}x{b}.", "Sucht ein Bett {a}x{b}.",
    ],
    "hex_code": ["Keeps getting error 0x8007{h} on updates.",
                 "Code d'erreur 0x{h}00 au démarrage."],
    "vehicle_spec": ["Car takes {o} oil and {t} tyres.", "Le van prend de l'huile {o}.",
                     "Neue Reifen {t} bestellt."],
    "maker_model": ["Owns a Samsung QN{s}Q{m}D TV.", "Has a Bosch WGG{s}4A0 washer.",
                    "Hat einen Miele G{m}{s}SC Geschirrspüler.", "Ha un LG OLED{s}C{c} in sala."],
    "year_changed": ["Le digicode a été changé en {y}.", "The alarm was installed in {y}."],
    "postal": ["Code postal {p}, livraison le matin.", "Zip code {p} for the shop."],
}  # fmt: skip


def _benign(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    family = rng.choice(tuple(_BENIGN))
    text = rng.choice(_BENIGN[family]).format(
        a=rng.choice((80, 90, 120, 140, 160, 180, 344)),
        b=rng.choice((190, 200, 202, 144)),
        c=rng.choice((28, 35, 60, 75)),
        s=rng.choice((43, 55, 65, 75, 24)),
        m=rng.choice((60, 70, 80, 73)),
        h=rng.choice(("0005", "0422", "3fff", "00a1")),
        o=rng.choice(("5W-30", "0W-20", "10W40", "5W40")),
        t=rng.choice(("205/55 R16", "225/45 R17", "195/65R15")),
        y=rng.choice((2014, 2018, 2021, 2023)),
        p=rng.choice(("69003", "75011", "90210", "13001")),
    )
    return text, f"benign/{family}"


def generate(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` rows, about 60 % leaks (every family alike), 40 % benign, every language."""
    return generate_rows(count, seed, LEAKS, _benign)
