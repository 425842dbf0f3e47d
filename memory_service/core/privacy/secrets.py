"""Secrets in a note: known key and token formats, a value after a credential word, random strings.

Fails closed: any value after a credential word in EN/FR/ES/DE/IT ("PIN for the debit card
is 7351", "pw = correcthorsebatterystaple", "Das Passwort für das VPN lautet Birke!2022",
"Login is jsmith / hunter2") is a secret, whatever it looks like, unless it is plainly a
word about the credential rather than the credential ("Password is required", "PIN has 4
digits"). A value may be told instead of written: a quoted token in the sentence of a
password's word ("mdp de la box : elle garde 'Soleil2019'"), digits after a long complement
of a PIN ("The PIN for the card of the gym by the old station is 6603"), or what the value
is made of, a personal item after "is" and a determiner ("His PIN is the day and month of
his wedding"). The formats and the shape of a value are language-agnostic; the cue words are
data (:mod:`memory_service.core.privacy.vocabulary` and ``core/lexicons``). Only the kinds
found leave this module, never the matched text.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold
from memory_service.core.privacy.identifiers import harmless_number_at, is_uuid, product_label
from memory_service.core.privacy.locators import CREDENTIAL, keyed_values
from memory_service.core.privacy.recipes import (
    concluded_value,
    login_recipe,
    roman_code,
    security_answer_told,
    seed_words_begun,
    spelled_by_parts,
)
from memory_service.core.privacy.vocabulary import (
    ACCESS_NOUNS,
    ANSWER_CUES,
    ANSWER_WORDS,
    ASSIGNMENT_WORDS,
    CARD_CODE_CUES,
    CODE_FOLLOWERS,
    CODE_INSTRUMENTS,
    CODE_OPENERS,
    COMBINATION_WORDS,
    COMPLEMENT_PREPOSITIONS,
    CREDENTIAL_CUES,
    DIGIT_WORDS,
    ENTRY_VERBS,
    HARMLESS_NUMBER_NOUNS,
    KEYPAD_DEVICES,
    LOCK_NOUNS,
    NOT_CREDENTIAL,
    NUMBER_COMPOUNDS,
    OPENING_VERBS,
    PADLOCK_NOUNS,
    PASSPHRASE_CUES,
    PASSWORD_CONTINUATIONS,
    PUNCTUATION_MARKERS,
    SECURITY_QUESTION_CUES,
    TEEN_WORDS,
    TENS_WORDS,
    THEN_WORDS,
    UNITS,
)

_SECRET_FORMATS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("PRIVATE_KEY", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----")),
    (
        "CONNECTION_STRING",
        re.compile(r"\b[a-z][a-z0-9+.-]{1,30}://[^\s:/@]+:[^\s@/]+@[^\s]+", re.I),
    ),
    (
        "WEBHOOK_URL",
        re.compile(
            r"hooks\.slack\.com/(?:services|workflows)/\S+|discord(?:app)?\.com/api/webhooks/\S+",
            re.I,
        ),
    ),
    (
        "API_KEY",
        re.compile(
            r"\b(?:sk-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_-]{16,}"
            r"|(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}"
            r"|(?:AKIA|ASIA)[A-Z0-9]{16}"
            r"|AIza[0-9A-Za-z_-]{20,}"
            r"|glpat-[A-Za-z0-9_-]{16,}"
            r"|hf_[A-Za-z0-9]{20,}"
            r"|npm_[A-Za-z0-9]{36}"
            r"|pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}"
            r"|SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"
            r"|SK[0-9a-fA-F]{32}"
            r"|\d{8,10}:AA[0-9A-Za-z_-]{32,33})"
        ),
    ),
    (
        "ACCESS_TOKEN",
        re.compile(
            r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
            r"|xox[abposr]-[A-Za-z0-9-]{10,}"
            r"|eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,})"
            r"|\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*",
            re.I,
        ),
    ),
)
# 20 characters or more; a sentence's full stop after a token is not part of it
_TOKEN_CANDIDATE = re.compile(r"[A-Za-z0-9+/=_.-]{19,}[A-Za-z0-9+/=_-]")
MIN_TOKEN_ENTROPY_BITS = 3.5
# How many content words after a credential cue ("password", "identifiants", "login") a
# password-like token still counts: "login for the NAS is admin / X" puts two between them.
CREDENTIAL_WINDOW_WORDS = 4
MIN_PASSWORD_CHARS = 6
# A word in capitalised parts, with an acronym at the end: "MacBook", "iPhone", "KeePassXC",
# "PostgreSQL", "OpenAI". Letters in any other mix of cases are typed at random ("ThNzieHHfd").
_CAMEL_CASE = re.compile(r"[a-z]?(?:[A-Z][a-z]+)?(?:[A-Z][a-z]{2,})*[A-Z]{0,4}")
MAX_PASSWORD_CHARS = 64
_CREDENTIAL_WINDOW_CHARS = CREDENTIAL_WINDOW_WORDS * (MAX_PASSWORD_CHARS + 1)
# Quotes, brackets and sentence punctuation around a word are not part of a password; "!",
# "#" or "?" are kept, since passwords end with them ("Quai2Seine!").
_WORD_EDGES = "\"'()[]{}<>,;:.\u201c\u201d\u00ab\u00bb"
_OPEN_QUOTES = "\"'\u00ab\u201e\u201c\u2018\u2039"
_CLOSE_QUOTES = "\"'\u00bb\u201c\u201d\u2018\u2019\u203a"


def secret_kinds(
    folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS, *, plain_words: bool = True
) -> frozenset[str]:
    """Kinds of secret in the text: known key formats, 'password is …' cues, random tokens;
    the cue rules also read the note as one sentence (:func:`across_sentences`).

    ``plain_words=False`` when the text ends with the note's keywords joined by spaces: a
    keyword is a label, so one plain word after a password word or an answer cue is no
    value there ("mot de passe" then "appli"); the text alone is read with them."""
    kinds = set(_secret_kinds(folded_text, lexicons, plain_words=plain_words))
    merged = across_sentences(folded_text)
    if merged != folded_text:
        # One plain word is read in its own sentence only: "...gestore di password.
        # Sicurezza" joined is no "password sicurezza".
        kinds |= _cued_kinds(merged, lexicons, plain_words=False)
        if _value_in_next_sentence(folded_text, lexicons):
            kinds.add("PASSCODE")
    return frozenset(kinds)


# A sentence's end between two sentences of a note.
_SENTENCE_BREAK = re.compile(r"(?<=[^\s.!?;])\s?[.!?;]+\s+(?=\S)")


def across_sentences(folded_text: str) -> str:
    """The note as one sentence when a credential or a lock is named before a sentence ends:
    people name it in one sentence and give its value in the next ("The gate has a keypad.
    It's 4821.", "She uses one PIN everywhere. It's 7351."); otherwise the text itself."""
    breaks = [match.start() for match in _SENTENCE_BREAK.finditer(folded_text)]
    if not breaks:
        return folded_text
    head = folded_text[: breaks[-1]]
    if not (_CUE.search(head) or _LOCK_OR_NETWORK.search(head)):
        return folded_text
    return _SENTENCE_BREAK.sub(" ", folded_text)


def _cued_kinds(folded_text: str, lexicons: Lexicons, *, plain_words: bool) -> frozenset[str]:
    """The kinds the cue rules find (a value after a credential word, a lock's code)."""
    kinds = set()
    keyed = keyed_digits_joined(folded_text)
    if (
        _credential_after_cue(folded_text, lexicons)
        or any(
            value_after_credential_word(view, lexicons, plain_words=plain_words)
            for view in _views(keyed)
        )
        or opened_with_password(folded_text)
    ):
        kinds.add("PASSWORD")
    if (
        lock_code(keyed)
        or keyed_code_near_cue(folded_text)
        or combination(folded_text)
        or counted_digits(folded_text)
        or entered_code(keyed, lexicons)
    ):
        kinds.add("PASSCODE")
    return frozenset(kinds)


def _value_in_next_sentence(folded_text: str, lexicons: Lexicons) -> bool:
    """A code a few words after a lock, a network or a credential word, in the sentence
    after the one that names it ("The gate has a keypad. It's 4821."): the window of words
    runs over the sentence's end, and the value must lie beyond it."""
    keyed = keyed_digits_joined(folded_text)
    for pattern in (_LOCK_OR_NETWORK, _CUE):
        for thing in pattern.finditer(keyed):
            end = _SENTENCE_BREAK.search(keyed, thing.end())
            if end is None or _names_something_else(keyed, thing):
                continue
            rest = keyed[thing.end() : end.start()] + " " + keyed[end.end() :]
            if _lock_value(rest, lexicons, after=end.start() - thing.end()):
                return True
    return False


_YEAR_WORDS = frozenset({"year", "annee", "ano", "jahr", "anno"})
_DOTTED_NUMBER = re.compile(r"v?\d{1,4}(?:[./]\d{1,4}){1,3}", re.I)


def _lock_value(rest: str, lexicons: Lexicons, after: int = 0) -> bool:
    """A code a few words after the thing it opens, in the note read as one sentence: code-
    shaped, not after a harmless noun or a month, not a quantity with its unit."""
    clause = _clause(rest)
    products = _folded_products(lexicons.product_names)
    for token, start in _window_tokens(clause, lexicons):
        if start < after or not token or not _code_shaped(token) or token.lower() in products:
            continue
        if _DOTTED_NUMBER.fullmatch(token):
            continue  # a version or a date ("Kotlin 1.9.22", "12.03.2024")
        previous = re.findall(r"[a-z]+", clause[:start].lower())
        harmless = bool(previous) and (
            previous[-1] in _HARMLESS_BEFORE or previous[-1] in lexicons.months
        )
        if harmless and (_YEAR_SHAPE.fullmatch(token) or previous[-1] not in _YEAR_WORDS):
            continue  # "in 2019", "flight 4471"; not "the same as last year: 7791"
        following = re.match(r"\s*([a-z%]+)", clause[start + len(token) :], re.I)
        if token.isdigit() and following and following.group(1).lower() in _UNITS:
            continue
        return True
    return False


# Across sentences, a code a few words after the thing it opens is its code ("Zur
# Alarmanlage im Laden. Monat%376, dann AUS.", "Wi-Fi at the cabin? 250230, on the router.").
_LOCK_OR_NETWORK = re.compile(
    rf"(?<![\w-])(?:{'|'.join(LOCK_NOUNS)}|wi-?fi|wlan|ssid)(?![\w-])", re.I
)


# Secrets told in prose (issue 10, round 3), in the sentence of a network, a lock or a
# phrase's noun: a lower-case run of joined words ending in digits ("Wi-Fi 'Hollyhock' uses
# primrosehill1996", "la cle de la box est la phrase lesgirafesdansent7"), a quoted run of
# words after "phrase" ("master phrase is 'correct horse purple teapot'"); and keys pressed in
# turn on a door's keypad ("Intercom: press 42, then star-nine-nine-one").
_PROSE_CUE = re.compile(
    rf"(?<![\w-])(?:{'|'.join(LOCK_NOUNS)}|wi-?fi|wlan|ssid|box|router|routeur|reseau|network"
    r"|red|netz|rete|(?:pass|master|secret|key|recovery)\s*phrase|phrase|frase|cle|clave)(?![\w-])",
    re.I,
)
_JOINED_WORDS_DIGITS = re.compile(r"(?<![\w@.'/-])[a-z]{8,}\d{1,4}(?![\w@/-]|\.\w)")
_QUOTED_WORDS_AFTER_PHRASE = re.compile(
    r"(?i:phrase|frase|satz)\b[^'\"\n]{0,30}['\"\u2018\u201c\u00ab]\s*[a-z]+(?:\s+[a-z]+){2,}\s*"
    r"['\"\u2019\u201d\u00bb]"
)
_PRESS = re.compile(
    r"(?<![\w])(?:press(?:es)?|push(?:es)?|dial|punch(?:es)?|key in|tapez?|composez?|appuyez"
    r"|pulsa|marca|druck\w*|premi|digita)\s+(?:the\s+)?\d"
)
_DOOR = re.compile(
    rf"(?<![\w-])(?:{KEYPAD_DEVICES}|door|gate|buzz\w*|porte|portail|puerta|portal|tur|tor"
    r"|porta|cancello)(?![\w-])",
    re.I,
)
_PRESSED_MIN_DIGITS = 4


def _told_in_prose(folded_text: str) -> bool:
    for sentence in re.finditer(r"[^.!?;\n]+", folded_text):
        part = sentence.group()
        if not _PROSE_CUE.search(part):
            continue
        if _JOINED_WORDS_DIGITS.search(part) or _QUOTED_WORDS_AFTER_PHRASE.search(part):
            return True
    return False


def _pressed_code(folded_text: str) -> bool:
    for sentence in re.finditer(r"[^.!?;\n]+", folded_text):
        part = sentence.group()
        press = _PRESS.search(part)
        if press and _DOOR.search(part):
            digits = sum(ch.isdigit() for ch in part[press.start() :])
            if digits >= _PRESSED_MIN_DIGITS:
                return True
    return False


# A value the note then names as a credential, the cue after the value: "Uses 5820 as the PIN
# for the box app", "utilise 4471 comme code", "usa 1234 como PIN", "nutzt 9931 als PIN", "usa
# 5521 come PIN". The value holds a digit ("Uses Bitwarden as password manager" names a tool).
_AS_CREDENTIAL = re.compile(
    r"(?<![\w.])[\w!$*^~#@.-]*\d[\w!$*^~#@.-]*\s+(?:as|comme|como|als|come)\s+"
    r"(?:(?:the|her|his|my|their|its|a|an|le|la|son|sa|el|su|sein|seine|ihr|ihre|die|den|il"
    r"|suo|sua)\s+)?(?:pin|pin\s+code|password|passcode|passphrase|passwort|kennwort|mot\s+de"
    r"\s+passe|code|contrasena|clave|codice)(?![\w-])(?!\s*(?:manager|hint|reset|policy|rule))",
    re.IGNORECASE,
)


def value_named_as_credential(folded_text: str) -> bool:
    """A value with a digit, then "as the PIN/password/code" (see :data:`_AS_CREDENTIAL`)."""
    return _AS_CREDENTIAL.search(folded_text) is not None


# A value told by a riddle after its label (issue 10, session 14): "Kit-shed padlock: right to
# twelve, left to thirty-four, right to five", "Clave del trastero: los cuatro primeros dígitos
# de pi", "Türcode für den Hintereingang: zweimal die Zahl der Bundesländer", "PIN della
# cassetta chiavi: il numero di maglia di Totti ripetuto due volte", a padlock's code in Morse.
# A label is a clause naming a credential or a padlock that ends in a colon; what follows it is
# the value whatever its shape, once it holds a number: digits that are no quantity with its
# unit, a number word, Morse, or a word for a number, a score or a year. Only a length said
# alone passes ("PIN: 4 digits"), and a note that names no value ("Wi-Fi password: ask at the
# desk"). Fail closed: a description with a number after such a label is refused.
_LABEL_END = re.compile(r"^[^:.;!?\n]{0,60}(?<!\d):(?!\d)\s*(?P<value>[^\n]{1,160})")
_AMBIGUOUS_NUMBER_WORDS = frozenset({"un", "une", "uno", "una", "oh", "one", "null", "due",
                                      "sei", "elf", "once", "o"})  # fmt: skip
_NUMBER_WORD = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(
        sorted(
            {
                re.escape(fold(word).lower())
                for word in (*DIGIT_WORDS, *TEEN_WORDS, *TENS_WORDS)
                if fold(word).lower() not in _AMBIGUOUS_NUMBER_WORDS
            },
            key=len,
            reverse=True,
        )
    )
    + "|"
    + "|".join(f"(?:{pattern})" for pattern in NUMBER_COMPOUNDS)
    + r")(?![\w])",
    re.I,
)
_NUMBER_NOUN = re.compile(
    r"(?<![\w-])(?:digits?|chiffres?|digitos?|ziffern?|cifr[ae]|numbers?|numero|nummer|zahl"
    r"|score|year|annee|ano|jahr(?:gang)?|anno|morse)(?![\w-])",
    re.I,
)
_MORSE = re.compile(r"(?:(?<!\S)[.\-\u2013\u2014\u00b7]{1,6}(?:\s+|$)){3,}")
_LENGTH_ONLY = re.compile(
    r"^\s*(?:\d{1,2}|[^\W\d_]+)\s+(?:digits?|characters?|chiffres|caracteres|digitos|ziffern"
    r"|zeichen|stellen|stellig|cifre|caratteri|letters|lettres)(?![\w-])\W*$",
    re.I,
)


# "User:" labels a note about the user, not a user name ("User: prefers the clinic ten minutes
# away"); a login's label keeps its cue.
_PERSON_CUE = re.compile(r"user|usuario", re.I)


def riddle_after_label(folded_text: str) -> bool:
    """A number told in any form after a credential's or a padlock's label and a colon."""
    for cue in (*_CUE.finditer(folded_text), *_PADLOCK.finditer(folded_text)):
        if _names_something_else(folded_text, cue) or _PERSON_CUE.fullmatch(cue.group()):
            continue
        label = _LABEL_END.match(folded_text[cue.end() :])
        if label is None:
            continue
        value = label["value"]
        start = cue.end() + label.start("value")
        clause = re.split(r"[;!?]|\.\s", value, maxsplit=1)[0]
        if _LENGTH_ONLY.match(clause):
            continue
        digits = [
            m
            for m in re.finditer(r"\d+", value)
            if not harmless_number_at(folded_text, start + m.start(), start + m.end())
        ]
        if (
            digits
            or _NUMBER_WORD.search(value)
            or _NUMBER_NOUN.search(value)
            or _MORSE.search(value)
        ):
            return True
    return False


def _secret_kinds(folded_text: str, lexicons: Lexicons, *, plain_words: bool) -> frozenset[str]:
    kinds = set(format_kinds(folded_text))
    keyed = keyed_digits_joined(folded_text)
    if (
        _lexicon_cue(folded_text, lexicons)
        or _credential_after_cue(folded_text, lexicons)
        or any(
            value_after_credential_word(view, lexicons, plain_words=plain_words)
            for view in _views(keyed)
        )
        or _quoted_near_cue(folded_text, lexicons)
        or described_value(folded_text)
        or described_by_parts(folded_text)
        or items_joined(folded_text)
        or partial_secret(folded_text)
        or opened_with_password(folded_text)
        or used_to_log_in(folded_text)
        or any(kind == CREDENTIAL for kind, _ in keyed_values(folded_text))
        or hint_with_value(folded_text)
        or _told_in_prose(folded_text)
    ):
        kinds.add("PASSWORD")
    if (
        lock_code(keyed)
        or keyed_code_near_cue(folded_text)
        or combination(folded_text)
        or counted_digits(folded_text)
        or _KEYPAD_ENTRY.search(folded_text)
        or _lettered_lock_code(folded_text)
        or entered_code(keyed, lexicons)
        or told_code(keyed)
        or keys_listed(folded_text)
        or _access_keyed(folded_text)
        or _pressed_code(folded_text)
        or value_named_as_credential(folded_text)
        or riddle_after_label(folded_text)
    ):
        kinds.add("PASSCODE")
    if any(_looks_random(token) for token in _TOKEN_CANDIDATE.findall(folded_text)) or any(
        _grouped_key(match.group()) for match in _GROUPED_KEY.finditer(folded_text)
    ):
        kinds.add("HIGH_ENTROPY_STRING")
    bare = _bare_words(folded_text)
    if any(typed_password(token) for token in [*_SYMBOL_WORD.findall(folded_text), *bare]):
        kinds.add("PASSWORD")
    if any(composed_password(token) for token in [*_COMPOSED_WORD.findall(folded_text), *bare]):
        kinds.add(COMPOSED_PASSWORD)
    if word_run_after_colon(folded_text, lexicons):
        kinds.add("SEED_PHRASE")
    if (
        spelled_by_parts(folded_text)
        or login_recipe(folded_text)
        or security_answer_told(folded_text)
    ):
        kinds.add("PASSWORD")
    cued = bool(_CUE.search(folded_text) or _LOCK_OR_NETWORK.search(folded_text))
    if concluded_value(folded_text, cued) or roman_code(folded_text, cued):
        kinds.add("PASSCODE")
    if seed_words_begun(folded_text, lexicons.stopwords) or seed_words_split(
        folded_text, lexicons.stopwords
    ):
        kinds.add("SEED_PHRASE")
    return frozenset(kinds)


def _lexicon_cue(folded_text: str, lexicons: Lexicons) -> bool:
    """The lexicons' secret cues ("password ...: value"), unless the cue word is part of a
    noun about credentials ("Password policy for staff: ...", "PIN reset: ...")."""
    return any(
        _NOT_CREDENTIAL.match(folded_text, match.start()) is None
        and (
            _HINT.match(match.group()) is None
            or _hint_gives_value(folded_text[match.start() : _clause_end(folded_text, match)])
        )
        for match in lexicons.patterns["secret_cues"].finditer(folded_text)
    )


# A hint about a credential ("Password hint: the usual", "indice du mot de passe : le
# chat"): refused when it holds the value or a value's shape ("...street number: Rex221",
# "hint 'rex221'"), otherwise it is a note about a hint.
_HINT = re.compile(
    r"\S+(?:\s+\S+)?\s+(?:hints?|indices?|pistas?|hinweise?|tipps?|suggeriment[oi]|indizi[oi]"
    r"|merkhilfe|eselsbrucke|aide-memoire|recordatorio|promemoria)(?![\w-])",
    re.I,
)
_HINT_VALUE = re.compile(r"[\w!$*^~#.@-]{4,}")
_SENTENCE_END = re.compile(r"[.!?;\n](?:\s|$)")


def _clause_end(text: str, match: re.Match[str]) -> int:
    end = _SENTENCE_END.search(text, match.end())
    return end.start() if end else len(text)


_HINT_WORDS = (
    r"hints?|indices?|pistas?|hinweise?|tipps?|suggeriment[oi]|indizi[oi]|merkhilfe"
    r"|eselsbrucke|aide-memoire|recordatorio|promemoria"
)
_CREDENTIAL_WORDS = (
    r"password|passwort|kennwort|passphrase|mot de passe|mdp|contrasena|clave|pin"
    r"|parola d'ordine|parola chiave|code|codigo|codice"
)
# A credential's hint in any language or compound ("Passwort-Hinweis", "pista de la
# contraseña", "suggerimento per la password", "password hint").
_CREDENTIAL_HINT = re.compile(
    rf"(?<![\w])(?:(?:{_CREDENTIAL_WORDS})[\s-]?(?:{_HINT_WORDS})"
    rf"|(?:{_HINT_WORDS})\s+(?:\w+\s+){{0,2}}?(?:{_CREDENTIAL_WORDS}))(?![\w])",
    re.I,
)


def hint_with_value(folded_text: str) -> bool:
    """A credential's hint whose sentence holds a value's shape after it
    (:func:`_hint_gives_value`): "Passwort-Hinweis: Hund plus Hausnummer = Bello14"."""
    return any(
        _hint_gives_value(folded_text[match.end() : _clause_end(folded_text, match)])
        for match in _CREDENTIAL_HINT.finditer(folded_text)
    )


def _hint_gives_value(sentence: str) -> bool:
    """A word of letters and digits, a password's shape or a quoted word in a hint's
    sentence: the hint gives the value away."""
    if re.search(rf"[{_OPEN_QUOTES}][^\s]", sentence) or described_value(sentence):
        return True
    return any(
        (any(ch.isdigit() for ch in token) and any(ch.isalpha() for ch in token))
        or looks_like_password(token)
        or typed_password(token)
        for token in _HINT_VALUE.findall(sentence)
    )


# A credential said to be a personal item: "El PIN de la tarjeta es el día y el mes del
# cumpleaños de su hijo", "Il PIN del bancomat è il giorno e il mese della laurea", "La clave
# del wifi es el nombre de la calle", "the key is 'the kids' names together'", "der Code, der
# aus den Hausnummern der Eltern besteht". What the value is made of is told, so the value is:
# a determiner or a possessive right after "is" (or "made of", "aus"...), then within two
# words an item of someone's life (a name, a day, a month, a year, a date, a birthday, a
# street, a house number). "The gate code is changed every month" has no determiner there;
# "PIN is a number" names no item.
_MADE_OF = (
    r"is|was|are|es|est|ist|sind|e|era|war|lautet|:|=|made (?:of|from)|fait de|forme de"
    r"|hecho de|formad[oa] por|compuest[oa] (?:de|por)|aus|fatto (?:di|da)|compost[oa] da"
)
_DETERMINERS = (
    r"the|her|his|their|our|your|my|le|la|les|l'|sa|son|ses|leur|el|los|las|su|sus|der|die"
    r"|das|den|dem|des|sein|seine|seinen|ihr|ihre|ihren|il|lo|gli|i|la sua|il suo|i suoi"
)
_PERSONAL_ITEMS = (
    r"(?:[a-z]+'s )?(?:names?|nicknames?|surnames?|initials?|birth ?days?|birth years?"
    r"|anniversary|wedding|days?|months?|years?|dates?|street|house numbers?|door numbers?"
    r"|prenoms?|noms?|surnoms?|initiales|anniversaires?|jours?|mois|annees?|dates?|rues?"
    r"|numeros? de (?:rue|maison)|nombres?|apodos?|iniciales|cumpleanos|dias?|mes(?:es)?|anos?"
    r"|fechas?|calles?|namen?|spitznamen?|initialen|geburtstags?|tag|tage|monat|monats|jahr"
    r"|jahres|geburtsjahr|datum|strasse|hausnummern?|nomi?|nome|soprannomi?|iniziali"
    r"|compleanno|giorno|giorni|mese|mesi|anno|anni|data|via|numero civico"
    # digits taken from something ("the first five digits of pi", "the last four of his
    # badge" is read elsewhere): the value is told by where its digits come from
    r"|digits|chiffres|cifras|digitos|ziffern|stellen|cifre)"
)
_DESCRIBED_VALUE = re.compile(
    rf"(?<![\w-])(?:{_MADE_OF})\s*[{_OPEN_QUOTES}]?\s*(?:{_DETERMINERS})(?:\s+|(?<=')\s*)"
    rf"(?:[^\s.!?;:]+\s+){{0,2}}?{_PERSONAL_ITEMS}(?![\w-])",
    re.I,
)
_SENTENCE_OF = re.compile(r"[^.!?;\n]+")


def described_value(folded_text: str) -> bool:
    """A credential or a lock's code said to be made of a personal item, in its sentence
    after the credential's word (see :data:`_DESCRIBED_VALUE`)."""
    for sentence in _SENTENCE_OF.finditer(folded_text):
        text = sentence.group()
        keys = _KEY_WORD.finditer(text) if _NETWORK.search(text) else ()
        for cue in (*_CUE.finditer(text), *keys):
            if _names_something_else(text, cue):
                continue
            if _DESCRIBED_VALUE.search(text, cue.end()):
                return True
    return False


# The slot a lock opens with, filled by what the value is made of: "Le cadenas de son vélo
# s'ouvre avec l'année de naissance de sa mère", "the shed unlocks with the house number".
_OPENED_DESCRIBED = re.compile(
    rf"(?<![\w-])(?:{CODE_OPENERS})(?![\w-])[^.!?;\n]{{0,40}}?(?<![\w-])"
    rf"(?:with|using|avec|con|mit|mediante|par)\s+(?:{_DETERMINERS})(?:\s+|(?<=')\s*)"
    rf"(?:[^\s.!?;:]+\s+){{0,2}}?{_PERSONAL_ITEMS}(?![\w-])",
    re.I,
)
# A code given by its parts: the first or last digits one by one or as a number, or said to
# be a personal item ("Garage keypad: first two digits 4 and 0, last two are his flat
# number, 12", "les deux premiers chiffres sont 4 et 0").
_PART_COUNT = (
    r"(?:\d|two|three|four|five|six|deux|trois|quatre|cinq|dos|tres|cuatro|cinco|zwei|drei"
    r"|vier|funf|due|tre|quattro|cinque)"
)
_PART_POSITION = (
    r"first|last|premiers?|dernieres?|derniers?|primer[oa]s?|ultim[oa]s?|ersten?|letzten?"
    r"|prim[ei]|ultim[ei]"
)
_CODE_PART = re.compile(
    rf"(?<![\w-])(?:(?:{_PART_POSITION})\s+{_PART_COUNT}|{_PART_COUNT}\s+(?:{_PART_POSITION}))"
    r"(?:\s+(?:digits|numbers|chiffres|cifras|digitos|numeros|ziffern|stellen|cifre|numeri))?"
    r"\s*(?:(?:are|is|were|sont|est|son|es|sind|ist|sono|e)\s+|:\s*|=\s*)?"
    rf"(?:\d(?:\s*(?:,|and|et|y|und|e|then|puis|dann|poi|luego)?\s*\d)*(?![\w])"
    rf"|(?:{_DETERMINERS})\s+(?:[^\s.!?;:]+\s+){{0,2}}?{_PERSONAL_ITEMS}(?![\w-]))",
    re.I,
)
# A value given as literal parts joined by "+" after a credential's "is" ("La contraseña del
# wifi es llama + cusco + 2020, todo junto"): three parts, or two with a digit.
_PLUS_PARTS = re.compile(
    rf"(?<![\w-])(?:{_MADE_OF})\s+(?P<parts>[\w!$*#.-]{{2,20}}(?:\s*\+\s*[\w!$*#.-]{{1,20}})+)"
    r"(?![\w+])",
    re.I,
)

# A quoted literal, then what follows it ("'moosehead' followed by the cabin number, twelve",
# "'soleil' puis 1987"): the first part given, the rest told.
_QUOTED_THEN_PART = re.compile(
    rf"[{_OPEN_QUOTES}][^\s{_CLOSE_QUOTES}]{{2,30}}[{_CLOSE_QUOTES}]\s*,?\s*"
    r"(?:\+|plus|and then|then|followed by|suivi de|puis|seguido de|luego|gefolgt von|dann"
    r"|seguito da|poi|piu)\s+(?:[^.!?;\n]{0,40}?(?<![\w.,])\d{2,4}(?![\w]|[.,]\d)"
    rf"|(?:{_DETERMINERS})\s+(?:[^\s.!?;:]+\s+){{0,2}}?{_PERSONAL_ITEMS}(?![\w-]))",
    re.I,
)


def described_by_parts(folded_text: str) -> bool:
    """A lock's or a credential's value told by what it is made of after the verb that opens
    with it (:data:`_OPENED_DESCRIBED`), by its parts (:data:`_CODE_PART`), or as literal
    parts joined by "+" (:data:`_PLUS_PARTS`), in the sentence of the lock, the keypad or
    the credential. Fails closed: a description of a code is the code to whoever knows it."""
    for sentence in _SENTENCE_OF.finditer(folded_text):
        text = sentence.group()
        cued = any(not _names_something_else(text, cue) for cue in _CUE.finditer(text))
        locked = bool(_LOCK.search(text) or _KEYPAD_DEVICE.search(text))
        if (locked or _UNLOCKED_DEVICE.search(text)) and _OPENED_DESCRIBED.search(text):
            return True
        if (cued or locked) and _CODE_PART.search(text):
            return True
        if (cued or locked or _NETWORK.search(text)) and _QUOTED_THEN_PART.search(text):
            return True
        for cue in _CUE_IN_COMPOUND.finditer(text) if cued or _NETWORK.search(text) else ():
            for match in _PLUS_PARTS.finditer(text, cue.end()):
                parts = re.split(r"\s*\+\s*", match["parts"])
                if len(parts) >= 3 or any(ch.isdigit() for ch in match["parts"]):
                    return True
    return False


# A network's key is a credential in a sentence that names the network ("Home wifi network is
# 'Fernhill' and the key is ...").
_NETWORK = re.compile(r"wi-?fi|wlan|router|ssid", re.I)
_KEY_WORD = re.compile(r"(?<![\w-])(?:keys?|cles?|claves?|chiave|chiavi|schlussel)(?![\w-])", re.I)


# Part of a secret, given as its start or its end ("the token starting 'sk_live', the tail
# is q7Rz", "le mot de passe commence par Xk9"): three characters or more with a digit, or
# quoted, after a word for a part, in the sentence of a credential's word.
_SECRET_PART = re.compile(
    r"(?<![\w-])(?:tail|head|end(?:s|ing)?(?: (?:in|with))?|start(?:s|ing)?(?: with)?"
    r"|begin(?:s|ning)?(?: with)?|last (?:four|4|five|5|six|6|characters|chars|digits)"
    r"|first (?:four|4|five|5|six|6|characters|chars|digits)|commence par|se termine par"
    r"|finit par|termina(?:n)? (?:en|con|por)|empieza(?:n)? (?:por|con)|acaba(?:n)? en"
    r"|endet (?:auf|mit)|beginnt mit|fangt mit|finisce (?:con|in|per)|inizia (?:con|per))"
    r"(?![\w-])\s*(?:is|are|was|est|es|ist|e|:|=)?\s*"
    rf"(?P<value>[{_OPEN_QUOTES}][^{_CLOSE_QUOTES}\n]{{2,40}}[{_CLOSE_QUOTES}]"
    r"|(?=[\w+/=-]*\d)[\w+/=-]{3,64}(?![\w]))",
    re.I,
)


def partial_secret(folded_text: str) -> bool:
    for sentence in _SENTENCE_OF.finditer(folded_text):
        text = sentence.group()
        if not any(not _names_something_else(text, cue) for cue in _CUE.finditer(text)):
            continue
        for part in _SECRET_PART.finditer(text):
            if not _YEAR_SHAPE.fullmatch(part["value"]):  # "starting 2025" is a date
                return True
    return False


# A key typed in dashed groups of capitals and digits: a product or licence key, a Wi-Fi key
# as printed on a router, a recovery key ("KZLY-LLHG-RYNP-GVWH", "XXXXX-XXXXX-XXXXX-XXXXX").
_GROUPED_KEY = re.compile(r"(?<![\w-])[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,7}(?![\w-])")
DIGIT_ONLY_KEY_GROUPS = 6


def _grouped_key(key: str) -> bool:
    """Four groups or more with a letter, or six or more of digits (a BitLocker key): four
    groups of digits are a card's number, read by the identifier rules."""
    return any(ch.isalpha() for ch in key) or key.count("-") + 1 >= DIGIT_ONLY_KEY_GROUPS


# A run of short lower-case single words, spaces only between them, from a colon (or "=") to
# the end of its clause: the shape of a recovery phrase in any language ("genannt: tiger linse
# mond faden glas ofen wolke sand", "seed: ribbon glass tundra ..."), whatever word announces
# it and whichever list its words come from. A list of things has commas or "and" between.
_WORD_RUN = re.compile(r"[:=]\s*(?P<words>[a-z]{3,8}(?: [a-z]{3,8}){7,23})\s*(?:$|[.;!\n])")
MIN_RUN_WORDS = 8


def word_run_after_colon(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> bool:
    """Whether eight or more short lower-case words, none a stop word, follow a colon up to
    the end of the clause (a recovery phrase; see :data:`_WORD_RUN`)."""
    return any(
        not any(word in lexicons.stopwords for word in match["words"].split())
        for match in _WORD_RUN.finditer(folded_text)
    )


def format_kinds(text: str) -> frozenset[str]:
    """Known key and token formats only: for a form of the note glued from its parts, where
    a cue phrase could straddle the text and a keyword by accident."""
    return frozenset(kind for kind, pattern in _SECRET_FORMATS if pattern.search(text))


def _credential_after_cue(folded_text: str, lexicons: Lexicons) -> bool:
    """A password-shaped word a few words after a credential cue, with or without "is".

    People write "Le mot de passe de sa box est X", "login admin / X" or "identifiants :
    utilisateur bob, mot de passe X": the cue and the value are not adjacent, and no fixed
    phrase covers every wording. Product names ("1Password") are not passwords.
    """
    products = _folded_products(lexicons.product_names)
    for cue in lexicons.patterns["credential_cues"].finditer(folded_text):
        # Separators ("admin / X") and stop words ("de la", "for the") do not use the window:
        # French stacks them between the cue and the value.
        following = folded_text[cue.end() : cue.end() + _CREDENTIAL_WINDOW_CHARS]
        for token, _ in _window_tokens(following, lexicons):
            if looks_like_password(token) and token.lower() not in products:
                return True
    return False


def _window_tokens(text: str, lexicons: Lexicons) -> Iterator[tuple[str, int]]:
    """The words after a cue, edges stripped, with their offsets in ``text``, up to the
    ``CREDENTIAL_WINDOW_WORDS``-th content word (separators and stop words do not count)."""
    seen = 0
    for match in _WINDOW_TOKEN.finditer(text):
        token = match.group().strip(_WORD_EDGES)
        yield token, match.start() + match.group().find(token)
        if any(ch.isalnum() for ch in token) and token.lower() not in lexicons.stopwords:
            seen += 1
            if seen >= CREDENTIAL_WINDOW_WORDS:
                return


@lru_cache(maxsize=4)
def _folded_products(product_names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(fold(name).lower() for name in product_names)


# A word with letters, digits and, inside it, a symbol people add to satisfy a password rule
# ("seagull!77", "sunflower!harbour42", "birke!2022"). Not "#" (room#12), "%", "&" (at&t),
# "@" (e-mails) or "-" / "." (model numbers, versions, dates).
_SYMBOL_WORD = re.compile(r"(?<!\S)[\w!$*^~]{6,40}(?!\S)")
# A word between brackets, quotes or sentence punctuation: "(Soleil#Lyon75)", "soleil*1972.",
# "(»Schnuffel!88«),". The password rules read it without what wraps it.
_WRAPPED_WORD = re.compile(r"[\w!$*^~#.]{6,40}")


def _bare_words(text: str) -> list[str]:
    """The words of ``text`` that punctuation or brackets wrap, without the wrapping."""
    words = []
    for token in text.split():
        bare = token.strip(_WORD_EDGES + "\u201e\u2018\u2019")
        if bare != token and _WRAPPED_WORD.fullmatch(bare):
            words.append(bare)
    return words


_PASSWORD_SYMBOLS = frozenset("!$*^~")


def typed_password(token: str) -> bool:
    """Letters and digits with one of ``!$*^~`` between them, anywhere in a note: the shape
    of a password whatever word announces it (a Wi-Fi key after "network X, key" split from
    its cue). A trailing "!" is an exclamation, not a symbol inside the word."""
    inner = token.rstrip("!")
    return (
        any(ch.isalpha() for ch in inner)
        and any(ch.isdigit() for ch in inner)
        and any(ch in _PASSWORD_SYMBOLS for ch in inner[1:])
    )


COMPOSED_PASSWORD = "COMPOSED_PASSWORD"
# A word of upper and lower case letters and digits joined by "#", ".", "_", "&" or one of
# ``!$*^~`` right after a letter: "Tulips!Harbour88", "Tango#Palermo77", "Girasol.2024",
# "Schneeflocke_2019", "Ledger&Lime44" — a password made to a rule, told with no word
# announcing it ("use ..."). Sentence punctuation may follow it. Not a version ("Python3.12":
# the dot follows a digit), a hashtag ("#Summer2024": nothing before the symbol), "Node.js"
# (no digit), a brand's "&" ("AT&T", "M&S": no lower case, no digit).
_COMPOSED_WORD = re.compile(r"(?<!\S)[\w!$*^~#.&]{8,40}?(?=[.,;:!?)]*(?:\s|$))")
_COMPOSED_JOIN = re.compile(r"(?<=[^\W\d_])[!$*^~#._&](?=\w)")


def composed_password(token: str) -> bool:
    """Upper case, lower case and a digit, with a joining symbol after a letter inside."""
    return (
        any(ch.isupper() for ch in token)
        and any(ch.islower() for ch in token)
        and any(ch.isdigit() for ch in token)
        and _COMPOSED_JOIN.search(token) is not None
        and "@" not in token
    )


# A number and a lower-case word joined by a hyphen: an adjective of a count ("prefers
# 20-character generated ones", "a 12-digit code"), not a value.
_COUNTED_ADJECTIVE = re.compile(r"\d{1,3}-[a-z]{4,}")


def looks_like_password(token: str) -> bool:
    """Mixed character classes in one short word: letters with a digit or a symbol, and at
    least three of lower case, upper case, digits and symbols ("Kestrel-4491", "hunter2!",
    "Quai2Seine!"), which plain words, numbers and most product or version names are not;
    or letters alone in a mix of cases no word has ("ThNzieHHfd", "ZXSWbjwyug"; not
    "MacBook", "KeePassXC").

    Hyphens and apostrophes alone do not count as symbols ("Jean-Baptiste", "Wi-Fi" are
    words), and a URL is not a password ("/sso2" after "login page").
    """
    if not MIN_PASSWORD_CHARS <= len(token) <= MAX_PASSWORD_CHARS or "://" in token:
        return False
    if _COUNTED_ADJECTIVE.fullmatch(token):
        return False  # "20-character", "12-digit", "8-stellig": a count that describes
    lower = any(ch.islower() for ch in token)
    upper = any(ch.isupper() for ch in token)
    digit = any(ch.isdigit() for ch in token)
    symbol = any(not ch.isalnum() for ch in token)
    strong_symbol = any(not ch.isalnum() and ch not in "-'" for ch in token)
    if lower and upper and not (digit or symbol):
        return _CAMEL_CASE.fullmatch(token) is None
    if not (lower or upper) or not (digit or strong_symbol):
        return False
    return sum((lower, upper, digit, symbol)) >= 3


def _looks_random(token: str) -> bool:
    """Long mixed letter-digit strings with high per-character entropy: keys, not words.
    A UUID alone is a record's id (after a credential word it is still a secret)."""
    if not (any(c.isdigit() for c in token) and any(c.isalpha() for c in token)):
        return False
    if is_uuid(token.strip(".-")):
        return False
    counts = Counter(token)
    entropy = -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())
    return entropy >= MIN_TOKEN_ENTROPY_BITS


# --- the shapes a code is written in ---------------------------------------------------------

# Single digits keyed one by one, with one separator between them: "9-3-7-1", "1 9 7 4",
# "0.4.8.3". People write a code as they type it; a quantity is never written that way.
_KEYED_DIGITS = re.compile(r"(?<![\w.,-])\d(?P<sep>[ .-])\d(?:(?P=sep)\d){2,11}(?![\w]|[.,-]\d)")
# A parenthetical aside between a cue and its value ("Security answer (first pet) is X").
# A value announced by how many digits it has: "the four digits on the sticker are 5521",
# "les six chiffres au dos sont 204 381", "die vier Ziffern lauten 7731". When the count said
# is the count given, the note hands over a code that someone had to count out; a quantity
# or a date is not told that way.
_COUNT_WORDS = {
    "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
    "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
    "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7, "acht": 8,
    "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7, "otto": 8,
}  # fmt: skip
_COUNTED_DIGITS = re.compile(
    r"(?<![\w-])(?P<count>\d|[a-z]+)\s+(?:digits|numbers|chiffres|digitos|numeros|cifre"
    r"|numeri|ziffern|zahlen)(?![\w-])[^.!?;\n]{0,60}?(?:(?<![\w-])(?:are|is|were|sont|est"
    r"|son|es|sind|ist|lauten|lautet|sono|e)|:|,)\s+(?P<value>\d(?:[ -]?\d){2,9})(?![\w.,]\d|\w)",
    re.I,
)


def counted_digits(text: str) -> bool:
    """Digits given after the count of them the sentence announces, and as many as it says."""
    for match in _COUNTED_DIGITS.finditer(text):
        count = match["count"].lower()
        said = int(count) if count.isdigit() else _COUNT_WORDS.get(count)
        if said is not None and said == sum(ch.isdigit() for ch in match["value"]):
            return True
    return False


_ASIDE = re.compile(r"\s*\([^()]{0,80}\)")


# Short digit groups one space apart, as a code said in numbers comes out of the normaliser
# ("vingt-deux trente-quatre" -> "22 34", "sept huit vingt et un" -> "7 8 21"), or with a
# comma or "then" between ("soixante-et-onze, puis dix-neuf" -> "71, puis 19").
_SPOKEN_GAP = r"(?:\s*,\s*|\s+)(?:(?:then|puis|dann|poi|luego|and|et|und|e|y)\s+)?"
_SPOKEN_GROUPS = re.compile(
    rf"(?<![\w.,-])\d{{1,3}}(?:{_SPOKEN_GAP}\d{{1,3}}){{1,5}}(?![\w]|[.,-]\d)"
)
MIN_SPOKEN_DIGITS = 4


def keyed_digits_joined(text: str) -> str:
    """``text`` with every run of single keyed digits written as one number ("9-3-7-1" ->
    "9371"), and short digit groups one space apart with a group of one or two digits
    ("22 34", "7 8 21"), so a code reads like one value after a cue."""
    text = _KEYED_DIGITS.sub(lambda match: re.sub(r"\D", "", match.group()), text)
    return _SPOKEN_GROUPS.sub(_spoken_group, text)


def _spoken_group(match: re.Match[str]) -> str:
    """Groups with one of one or two digits, or two groups of three (a one-time code said
    or printed in halves: "285 585")."""
    groups = re.findall(r"\d+", match.group())
    halves = [len(group) for group in groups] == [3, 3]
    if sum(len(g) for g in groups) < MIN_SPOKEN_DIGITS or (
        min(len(g) for g in groups) > 2 and not halves
    ):
        return match.group()
    return "".join(groups)


def keyed_code_near_cue(text: str) -> bool:
    """Digits keyed one by one ("1 9 7 3", "4-8-2-1") in a sentence that names a credential
    or something locked: a code whatever it would look like joined (a year, a quantity) and
    however far from its cue. People write a code as they type it; nothing else is written
    that way (see :data:`_KEYED_DIGITS`)."""
    for sentence in _SENTENCE.finditer(text):
        clause = sentence.group()
        keyed = _KEYED_DIGITS.search(clause) or _KEYED_LETTERED.search(clause)
        if keyed and (_CUE.search(clause) or _LOCK.search(clause)):
            return True
    return False


# A letter, then single digits keyed one by one with the same separator ("C-4-1-7"): a key
# safe's or a keypad's code that starts with a letter key.
_KEYED_LETTERED = re.compile(
    r"(?<![\w.,-])[A-Za-z](?P<sep>[.-])\d(?:(?P=sep)\d){2,10}(?![\w]|[.,-]\d)"
)


def _views(text: str) -> tuple[str, ...]:
    """The text, and the text without its parenthetical asides when it has any."""
    without = _ASIDE.sub("", text)
    return (text,) if without == text else (text, without)


_LOCK = re.compile(rf"(?<![\w-])(?:{'|'.join(LOCK_NOUNS)})(?![\w-])", re.I)
_OPENING = re.compile(rf"(?<![\w-])(?:{OPENING_VERBS})", re.I)
_LOCK_ASSIGNMENT = r"is|was|est|es|ist|lautet|e|è|:|="
_CODE_AFTER_INSTRUMENT = re.compile(
    rf"(?:(?<![\w-])(?:{CODE_INSTRUMENTS})\s+(?:(?:the|le|la|l'|el|il|lo|den|dem|der|die|das"
    r"|code|codigo|codice|pin)\s+){0,2}"
    # or an assignment: "the number to disarm the alarm is 5519"
    rf"|(?<![\w-])(?:{_LOCK_ASSIGNMENT})\s+)"
    # digits in one run, or in groups as keyed ("opens with 48 21")
    r"[*#]?(?P<value>\d{4,12}|\d{1,4}(?:[ .-]\d{1,4}){1,3})(?![\w.,]\d|\d)(?P<rest>[^\n]{0,20})",
    re.I,
)
_SENTENCE = re.compile(r"[^.!?;\n]+(?:[.!?;\n]|$)")


# Digits keyed on a keypad with its confirm key ("geht mit 2580# auf", "*4821#"): a code by
# its shape, whatever the sentence says (a ticket's "#30602" puts the sign first).
_KEYPAD_ENTRY = re.compile(r"(?<![\w#*])(?:\*?\d{4,8}|\*\d{3})#(?![\w#])")


# A lock's code of capitals and digits, as a spelling alphabet says it and the normaliser
# writes it ("Locker is bravo-two-two-seven": "B227", "alpha-neuf-trois-un": "A931"), or
# with a letter inside ("27B4", "4B72"), after the lock's noun and an assignment or a verb
# that gives the value ("donne", "gives", "ergibt"), in its sentence (a ";" or a comma may
# come between: "le code de la porte, à l'envers, donne 27B4 ; le vrai est 4B72").
_LETTERED_LOCK_CODE = re.compile(
    rf"(?<![\w-])(?:{'|'.join(LOCK_NOUNS)})(?![\w-])[^.!?\n]{{0,50}}?"
    rf"(?:\s(?:{_LOCK_ASSIGNMENT}|gives|donne|da|ergibt|fait)\s|\s*[:=]\s*)[*#]?"
    r"(?-i:(?P<code>(?=(?:[A-Z]*\d){3})[A-Z0-9]{4,8}))(?![\w.,/:-]\w|\w)",
    re.I,
)


def _lettered_lock_code(text: str) -> bool:
    return any(
        any(ch.isalpha() for ch in match["code"]) for match in _LETTERED_LOCK_CODE.finditer(text)
    )


def lock_code(text: str) -> bool:
    """A code of 4 to 12 digits brought in by "with", "avec", "mit"... in a sentence about
    something locked ("the alarm is disarmed with 9371", "il cancello si apre con 4821"),
    with a verb that opens, locks or arms it. Keyed digits must be joined first
    (:func:`keyed_digits_joined`)."""
    for sentence in _SENTENCE.finditer(text):
        clause = sentence.group()
        if not (_LOCK.search(clause) and _OPENING.search(clause)):
            continue
        for code in _CODE_AFTER_INSTRUMENT.finditer(clause):
            value = re.sub(r"\D", "", code.group("value"))
            if len(value) >= MIN_DIRECT_DIGITS and _digit_value(value, code.group("rest")):
                return True
    return False


# --- a code entered with a verb, or in a keypad's clause ----------------------------------

# A typed code: 4 to 10 letters and digits with 3 digits or more, or digits only, an optional
# "#" or "*" around it ("A1942", "4471#", "*0913", "4821B").
_TYPED_CODE = r"[*#]?(?P<value>(?=[A-Za-z]*\d)[A-Za-z0-9]{4,10})[#*]?"
_ENTRY_FILLERS = (
    r"(?:(?:in|the|a|le|la|l'|el|il|lo|den|die|das|der|code|codigo|codice|pin|number|numero"
    r"|nummer|digits|chiffres|cifre|ziffern|zahl|secret|secreto|segreto|geheimen?)\s+){0,3}"
)
_ENTRY = re.compile(
    rf"(?<![\w-])(?:{'|'.join(ENTRY_VERBS)})(?![\w-])\s+{_ENTRY_FILLERS}{_TYPED_CODE}"
    r"(?![\w.,/:-]\w)",
    re.I,
)
# "with" in the five languages: what a thing is opened or joined with.
_WITH = r"(?:with|using|avec|con|mit|mediante|par)"
# An opening verb, up to 40 characters of its clause, then "with": what follows opened it.
_OPENER_THEN_WITH = (
    rf"(?<![\w-])(?:{CODE_OPENERS})(?![\w-])[^.!?;\n]{{0,40}}?(?<![\w-])" rf"{_WITH}\s+"
)
_OPENED_WITH = re.compile(
    _OPENER_THEN_WITH + rf"{_ENTRY_FILLERS}{_TYPED_CODE}"
    r"(?![\w.,/:-]\w)",
    re.I,
)
_OPENED_WITH_WORD = re.compile(
    _OPENER_THEN_WITH + r"(?P<word>[^\s]{6,40})",
    re.I,
)
# What a person unlocks with a password rather than a code: a computer, a phone, a network
# (folded word starts), and the verbs that join a network or log in with one.
_UNLOCKED_DEVICE = re.compile(
    r"(?<![\w-])(?:laptop|notebook|computer|pc|mac|macbook|(?:smart|i)?phone|tablet|ipad"
    r"|portable|ordi(?:nateur)?|telephone|movil|ordenador|portatil|telefono|cellulare|handy"
    r"|rechner|wi-?fi|wlan|network|reseau|red|rete|netz\w*)(?![\w-])",
    re.I,
)
_JOINS_WITH = re.compile(
    r"(?<![\w-])(?:join(?:s|ed|ing)?|rejoin\w*|connect\w*|log(?:s|ged|ging)? (?:in|on)"
    r"|sign(?:s|ed)? in|se connect\w*|conect\w*|connett\w*|collega\w*|verbind\w*"
    r"|anmeld\w*|einlogg\w*)(?![\w-])[^.!?;\n]{0,40}?(?<![\w-])"
    rf"{_WITH}\s+(?P<rest>[^.!?;\n]{{0,60}})",
    re.I,
)
_OPENED_WITH_REST = re.compile(
    _OPENER_THEN_WITH + r"(?P<rest>[^!?;\n]{0,60})",
    re.I,
)
# German opens with a separable verb: "geht mit 2580 auf", "macht sie mit 4821 auf".
# The verb may end the clause itself: "mit 6612 entschärfen", "mit 4821 rein".
_MIT_AUF = re.compile(
    rf"(?<![\w-])mit\s+{_ENTRY_FILLERS}{_TYPED_CODE}\s+(?:wieder\s+)?"
    rf"(?:auf(?:zu\w*)?|rein|herein|(?:{CODE_OPENERS}))(?![\w-])",
    re.I,
)
_KEYPAD_DEVICE = re.compile(rf"(?<![\w-])(?:{KEYPAD_DEVICES})(?![\w-])", re.I)
_CODE_IN_CLAUSE = re.compile(rf"(?<![\w.,/:$\u20ac\u00a3-]){_TYPED_CODE}(?![\w.,/:-]\w|\w)")
_FOLLOWERS = frozenset(CODE_FOLLOWERS)
_THREE_DIGITS = re.compile(r"\d(?:[A-Za-z]*\d){2}")
_KEYED_THREE_DIGITS = re.compile(r"\d([ .-])\d\1\d")
_ENTRY_PARTICLE = re.compile(r"(?:punch|key|tap|type)\w*\s+in\s*$", re.I)
_ENTRY_ANYWHERE = re.compile(
    rf"(?<![\w-])(?:{'|'.join(ENTRY_VERBS)}|eintippen|eingeben)(?![\w-])", re.I
)
_ENTRY_WORD = re.compile(
    rf"(?:{'|'.join(ENTRY_VERBS)}|{CODE_OPENERS}|eintippen|eingeben|drucken|offnen|aufmachen)",
    re.I,
)
# A figure is written "in" a form or a sheet; a code is typed "in" a lock only when one is named.
_FILLED_IN = frozenset({"in", "into", "dans", "nel", "nella", "im", "ins"})
MAX_TYPED_CODE_CHARS = 10


def entered_code(text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> bool:
    """A code typed or said with a verb instead of "is": the object of a verb that enters one
    ("tapant A1942 sur le boîtier", "punch in 4471#", "key in 0913", "marcar 5512"), a value
    brought by "with" after a verb that opens or disarms ("disarm with 0913", "geht mit 2580
    auf"), or a code-shaped value in the clause of a device that only takes codes (keypad,
    lockbox, key safe, boîtier, digicode, Tastenfeld). Keyed digits must be joined first
    (:func:`keyed_digits_joined`).

    The value is what a person types: 4 to 10 letters and digits, at least 3 digits when it
    has letters, and what follows it is the clause's end or a little word (a place, the next
    step): a count is followed by what it counts ("composer 1500 chansons", "enter 1500
    calories", "marcar 1000 goles"). Not a year unless a device or "#" is there, not a price
    or a quantity with its unit, not a number after a harmless noun ("flight 4471")."""
    if _THREE_DIGITS.search(text) is None and _KEYED_THREE_DIGITS.search(text) is None:
        return False  # no value of three digits or more: nothing to enter
    for sentence in _SENTENCE.finditer(text):
        clause = sentence.group()
        if _THREE_DIGITS.search(clause) is None and _KEYED_THREE_DIGITS.search(clause) is None:
            continue
        device = _KEYPAD_DEVICE.search(clause) is not None
        locked = device or _LOCK.search(clause) is not None
        verbs = [*_ENTRY.finditer(clause), *_OPENED_WITH.finditer(clause)]
        verbs += _MIT_AUF.finditer(clause)
        if any(_typed_code(clause, m, lexicons, device=locked, verb=True) for m in verbs):
            return True
        if locked and any(
            looks_like_password(m["word"].rstrip(".,;:!?)"))
            for m in _OPENED_WITH_WORD.finditer(clause)
        ):
            return True  # "L'allarme si spegne con Tulipano%808": a password opens it
        if (locked or _ACCESS_NOUN.search(clause)) and _keyed_step(clause, lexicons):
            return True
        in_clause = _CODE_IN_CLAUSE.finditer(clause) if device else ()
        if any(
            not _after_maker(clause, code.start())
            and _typed_code(clause, code, lexicons, device=True, verb=False)
            for code in in_clause
        ):
            return True
    return False


# A code given as the steps of a procedure, in the clause of a lock or an entry keypad:
# three digits keyed one by one after a verb that enters them ("se abre marcando 3 5 9 y la
# campana", "press 4 1 7 then the bell"), or a code after "then" once a key was pressed
# ("press the key symbol, then B1472", "appuyer sur la clé, puis 4821").
_ACCESS_NOUN = re.compile(rf"(?<![\w-])(?:{ACCESS_NOUNS})(?![\w-])", re.I)
_KEYED_THREE = re.compile(
    rf"(?<![\w-])(?:{'|'.join(ENTRY_VERBS)})(?![\w-])\s+{_ENTRY_FILLERS}"
    r"(?P<value>\d(?P<sep>[ .-])\d(?P=sep)\d)(?![\w]|[.,-]\d)",
    re.I,
)
_THEN_STEP = re.compile(
    rf"(?:,\s*|\s)(?:{'|'.join(THEN_WORDS)})\s+{_ENTRY_FILLERS}{_TYPED_CODE}(?![\w.,/:-]\w)",
    re.I,
)


def _keyed_step(clause: str, lexicons: Lexicons) -> bool:
    if _KEYED_THREE.search(clause):
        return True
    entry = _ENTRY_ANYWHERE.search(clause)
    return entry is not None and any(
        _typed_code(clause, step, lexicons, device=True, verb=True)
        for step in _THEN_STEP.finditer(clause, entry.end())
    )


def opened_with_password(text: str) -> bool:
    """A word shaped like a password after "with" in the clause of something it opens: a
    lock, a computer, a phone, a network ("Le portable se déverrouille avec soleil*1972",
    "Work laptop opens with the dog's name plus the year: Rufus1999"), or after a verb that
    joins a network or logs in ("Guests join Nest5G with sunflower-42-teal")."""
    for sentence in _SENTENCE.finditer(text):
        clause = sentence.group()
        unlocked = _LOCK.search(clause) or _UNLOCKED_DEVICE.search(clause)
        opened = [*_OPENED_WITH_REST.finditer(clause)] if unlocked else []
        if any(_password_in(m["rest"]) for m in [*opened, *_JOINS_WITH.finditer(clause)]):
            return True
    return False


# A password-shaped word the note says is used, or quotes, in a clause about logging in or
# getting into something (issue 10, session 14): "Uses Bolero1928 to log in to the portal",
# "Para entrar en su área de abonado usa 'Bolero1928'", "utilise 'Mistral#88' pour se
# connecter". The verb of logging in may stand before or after the value; a maker's model right
# after its capitalised name is no value ("logs in on a Lenovo X1").
_LOGIN_VERB = re.compile(
    r"(?<![\w-])(?:log(?:s|ged|ging)?\s*(?:in|on)|sign(?:s|ed|ing)?\s*in|get(?:s|ting)? into"
    r"|access\w*|unlock\w*|entrar|accede\w*|ingresar|entrer|connect\w*|anmeld\w*|einlogg\w*"
    r"|rein(?:zu)?kommen|entrare|collegarsi)(?![\w-])",
    re.I,
)
_USE_VERB_THEN = re.compile(
    r"(?<![\w-])(?:uses?|using|usa|usan|usaba|utiliza\w*|utilise\w*|nutzt|benutzt|verwendet"
    r"|usa(?:re)?|typed|types|tape|teclea)\s+"
    # a subject pronoun after the verb ("nutzt er Falke#1990", "utilise-t-elle")
    r"(?:(?:er|sie|il|elle|ella|el|lui|lei|he|she|they)\s+)?(?P<value>\S+)",
    re.I,
)
_QUOTED_TOKEN = re.compile(
    r"[\"'\u2018\u201c\u00ab](?P<value>[^\s\"'\u2019\u201d\u00bb]{4,40})[\"'\u2019\u201d\u00bb]"
)


# A sentence whose end is a mark before a capital or the text's end: a password may end in
# "!" or "." ("Uses Harbour77! to log in").
_LOGIN_SENTENCE = re.compile(r"(?:[^.!?;\n]|[.!?](?!\s+[A-ZÀ-ÖØ-Þ]|\s*$))+")


def used_to_log_in(text: str) -> bool:
    """A password-shaped word used or quoted in a clause about logging in (see above)."""
    for sentence in _LOGIN_SENTENCE.finditer(text):
        clause = sentence.group()
        if _LOGIN_VERB.search(clause) is None:
            continue
        for match in (*_USE_VERB_THEN.finditer(clause), *_QUOTED_TOKEN.finditer(clause)):
            value = match["value"].strip(_WORD_EDGES).rstrip(".,;:!?")
            if looks_like_password(value) and not _after_maker(clause, match.start("value")):
                return True
    return False


def _password_in(rest: str) -> bool:
    """A word shaped like a password among the words after "with" (what wraps it aside)."""
    return any(
        looks_like_password(word.strip(_WORD_EDGES).rstrip(".,;:!?")) for word in rest.split()
    )


def _after_maker(clause: str, start: int) -> bool:
    """A value straight after a capitalised word inside the clause is that maker's model
    ("the intercom is a Comelit 2738"), not a code."""
    before = clause[:start].rstrip()
    word = re.search(r"(?:^|\s)([A-Z][a-z]{2,})$", before)
    if word is None or _KEYPAD_DEVICE.fullmatch(word[1]) or _LOCK.fullmatch(word[1]):
        return False  # "Am Codeschloss *1760": German writes the device itself with a capital
    return bool(before[: word.start(1)].strip())


def _typed_code(
    clause: str, match: re.Match[str], lexicons: Lexicons, *, device: bool, verb: bool
) -> bool:
    value = match.group("value")
    start, end = match.span("value")
    digits = sum(ch.isdigit() for ch in value)
    if digits < MIN_DIGIT_VALUE:
        return False
    if len(value) > MAX_TYPED_CODE_CHARS:
        return False
    marked = "#" in match.group() or "*" in match.group()
    if value.isdigit() and len(value) < MIN_DIRECT_DIGITS:
        return False
    previous = re.findall(r"[a-z]+", clause[:start].lower())
    after_harmless = bool(previous) and previous[-1] in _HARMLESS_BEFORE
    if _YEAR_SHAPE.fullmatch(value) and (
        not (device or marked) or (after_harmless and not _ENTRY_PARTICLE.search(clause[:start]))
    ):
        return False  # "changé en 2022", "se instaló en 2015"; not "key in 1984 on the keypad"
    if after_harmless and previous[-1] not in ("in", "en"):
        return False
    unit = _NUMBER_AND_UNIT.fullmatch(value)
    rest = clause[end:].lstrip("#* ")
    following = re.match(r"[^\W\d_]+", rest)
    # the verb after its object: "am Tastenfeld Y7958 eintippen"
    verb_after = following is not None and _ENTRY_WORD.fullmatch(following.group()) is not None
    # a verb of entering anywhere in a keypad's clause ("5991H am Codeschloss eingeben")
    entering = verb or verb_after or (device and _ENTRY_ANYWHERE.search(clause) is not None)
    glued_letter = entering and len(value) - digits == 1 and digits >= MIN_DIRECT_DIGITS
    if unit and unit["unit"].lower() in _UNITS and not glued_letter:
        return False  # "2400kcal"; a letter after four digits is a code's ("5079L", "8036K")
    if following is None or marked:
        return _digit_value(value, rest) if value.isdigit() else True
    word = following.group().lower()
    if word in _UNITS:
        return False
    if verb and device:
        return True  # a lock is named and a verb opens it: what follows is no count
    if word in _FILLED_IN and not device:
        return False  # "entered 2400 in the budget sheet": a figure written into something
    if word in _FOLLOWERS or word in lexicons.stopwords or (device and _KEYPAD_DEVICE.match(rest)):
        return True
    if verb_after:
        return True
    # "le 0913 when", "tapant A1942 sur": a word at the clause's end after a comma is fine
    return rest[: following.start()].strip().startswith((",", "(", ")", "-"))


# A combination: 3 to 8 digits, or 2 to 4 groups of 1 or 2 digits ("36-12-28", "4 7 2 9").
_COMBINATION_VALUE = re.compile(
    r"(?<![\w.,:/-])(?:\d{3,8}|\d{1,2}(?:[-./ ]\d{1,2}){1,3})(?![\w]|[.,:/-]\d)"
)
_COMBINATION_WORD = re.compile(rf"(?<![\w-])(?:{COMBINATION_WORDS})(?![\w-])", re.I)
_PADLOCK = re.compile(rf"(?<![\w-])(?:{PADLOCK_NOUNS})(?![\w-])", re.I)
_CODE_WORD = re.compile(r"(?<![\w-])(?:codes?|codigos?|codice|pin|[a-z]{3,}codes?)(?![\w-])", re.I)
_COMBINATION_ASSIGNMENT = re.compile(
    rf"^[^\d.!?;\n]{{0,48}}?(?:(?<![\w])(?:{_LOCK_ASSIGNMENT}|{CODE_INSTRUMENTS}|at|a|sur|auf"
    # "en" only after a verb that opens it: "abre en 22-08-15", "s'ouvre en 3-7-1"
    rf"|su|(?:{CODE_OPENERS})\s+en)(?![\w])|[:=])\s*$",
    re.I,
)


# A dial sequence: two or more numbers of one or two digits, each after a direction or a
# turn word, or with commas between ("left 12, right 34, left 56", "12, 34, 56").
_DIAL_SEQUENCE = re.compile(
    r"(?<![\w.,])\d{1,2}(?:\s*,\s*(?:[^\W\d]+\s+)?\d{1,2}(?![\w]|[.,:/-]\d)){2,}"
)
# A dial turned: three numbers or more of one or two digits with commas between, each with
# up to three words before it or one after it ("turn to 12, back to 40, forward to 8", "erst
# 14 links, dann 33 rechts, dann 7", "girando su 9, 27, 3"), in the clause of something locked
# with a word that turns a dial: a combination whatever the lock is called.
_TURNED_DIAL = re.compile(
    r"(?<![\w.,])\d{1,2}(?:\s+[^\W\d]+)?"
    r"(?:\s*,\s*(?:[^\W\d]+\s+){0,3}\d{1,2}(?![\w]|[.,:/-]\d)(?:\s+[^\W\d]+)?){2,}"
)
_DIAL_TURN = re.compile(
    r"(?<![\w-])(?:turn\w*|back|forward|left|right|clockwise|anticlockwise|counterclockwise"
    r"|tourn\w*|gauche|droite|gir\w*|izquierda|derecha|destra|sinistra|dreh\w*|links|rechts"
    r"|zuruck|vor)(?![\w-])",
    re.I,
)
# German joins the lock to what it is in: "Bürotresor", "Wandsafe".
_LOCK_ENDING_WORD = re.compile(rf"(?:{'|'.join(LOCK_NOUNS)})(?![\w-])", re.I)
_LOCKED_THING = re.compile(rf"(?<![\w-])(?:{'|'.join(LOCK_NOUNS)})(?![\w-])", re.I)
# After the thing locked and ":" or "=" only, 4+ digits are its code ("Alarm: 4821").
# Up to four words may name which one ("Alarme boutique : 3917", "Coffre de l'hôtel : 1341").
_CODE_AFTER_COLON = re.compile(
    r"^(?:\s+[^\W\d]+(?:'[^\W\d]+)?){0,4}\s*[:=]\s*(?P<value>\d{4,8})(?![\w]|[.,:/-]\d)"
)


# A locker is numbered as well as locked: "Locker is 214" gives its number; its combination
# needs a combination word or more digits ("locker is 12-34-56", "locker code 214").
_NUMBERED_LOCKER = re.compile(r"lockers?|casiers?|taquillas?|spind|armadiett", re.I)


def combination(text: str) -> bool:
    """The combination of a padlock, a bike lock or a locker: in a sentence that names one,
    digits after a word for its combination or its code ("Bike lock combo 4-7-2-9", "Code du
    cadenas 142", "Spindcode 298"), or after the lock and an assignment or an instrument
    ("El candado de la taquilla es 1462", "le cadenas s'ouvre avec 11-04-17"). Three digits
    are enough: dial locks have three or four. Not digits that count something ("4 digits",
    "25 €") nor a number the lock's own noun labels ("locker 214" alone). A dial sequence
    after the combination word ("left 12, right 34, left 56"); and 4+ digits right after
    anything locked and a colon ("Alarm: 4821", "Tor = 1904")."""
    for sentence in _SENTENCE.finditer(text):
        clause = sentence.group()
        if (
            (_LOCK_ENDING_WORD.search(clause) or _PADLOCK.search(clause))
            and _DIAL_TURN.search(clause)
            and _TURNED_DIAL.search(clause)
        ):
            return True
        for thing in _LOCKED_THING.finditer(clause):
            code = _CODE_AFTER_COLON.match(clause[thing.end() :])
            if code and _digit_value(code["value"], clause[thing.end() + code.end() :]):
                return True
        padlock = list(_PADLOCK.finditer(clause))
        words = list(_COMBINATION_WORD.finditer(clause))
        if not (padlock or words):
            continue
        if padlock:
            words += [w for w in _CODE_WORD.finditer(clause) if w not in words]
            words += [w for w in padlock if _PADLOCK.fullmatch(w.group()) and "code" in w.group()]
        dials = [
            m for m in _DIAL_SEQUENCE.finditer(clause) if any(w.end() <= m.start() for w in words)
        ]
        if dials:
            return True
        for value in _COMBINATION_VALUE.finditer(clause):
            if not _digit_value(value.group(), clause[value.end() :]):
                continue
            before = clause[: value.start()]
            if any(w.end() <= value.start() for w in words) and not _harmless_label(before):
                return True
            if any(
                p.end() <= value.start()
                and _COMBINATION_ASSIGNMENT.match(before[p.end() :])
                and not (
                    _NUMBERED_LOCKER.match(p.group())
                    and value.group().isdigit()
                    and len(value.group()) <= MIN_DIGIT_VALUE
                )
                for p in padlock
            ):
                return True
    return False


def _harmless_label(before: str) -> bool:
    words = re.findall(r"[a-z]+", before.lower())
    return bool(words) and words[-1] in _HARMLESS_BEFORE


# --- a value after a credential word, in any of the five languages --------------------------

_CUE = re.compile(rf"(?<![\w-])(?:{'|'.join((*CREDENTIAL_CUES, PASSPHRASE_CUES))})(?![\w-])", re.I)
_ANSWER_CUE = re.compile(rf"(?<![\w-])(?:{'|'.join(ANSWER_CUES)})(?![\w-])", re.I)
_PREPOSITIONS = "|".join(re.escape(word) for word in COMPLEMENT_PREPOSITIONS)
# A complement, then the value at the end of the clause: "PIN of the company card 0483",
# "PIN del bancomat 5521", "Code PIN de la carte bleue 6194".
_COMPLEMENT_VALUE = re.compile(
    rf"^\s+(?:{_PREPOSITIONS})(?:\s+|(?<='))(?P<between>(?:[^\s.!?;:=]+\s+){{0,4}}?)"
    r"(?P<value>\d{4,12}|[^\s]{6,64})"
    r"(?=[.,;!?)]*(?:\s*(?:$|\n|[#(])|\s+(?:and|et|y|und|e|o|or|ou|oder)\s))"
    r"(?P<rest>[^\n]{0,40})",
    re.I,
)
_HARMLESS_BEFORE = frozenset(HARMLESS_NUMBER_NOUNS)
_NOT_CREDENTIAL = re.compile(rf"(?<![\w-])(?:{'|'.join(NOT_CREDENTIAL)})(?![\w-])", re.I)
_ASSIGNMENT = "|".join(
    [
        re.escape(word) if not word.isalpha() else rf"(?<![\w]){word}(?![\w])"
        for word in sorted(ASSIGNMENT_WORDS, key=len, reverse=True)
    ]
    + [
        rf"(?<=\s){re.escape(mark)}(?=\s)"
        for mark in sorted(PUNCTUATION_MARKERS, key=len, reverse=True)
    ]
)
_SYMBOL_MARKERS = frozenset({":", "=", *PUNCTUATION_MARKERS})
# Up to five short words between the cue and the assignment ("for the office VPN",
# "für das VPN", "del portal", "de la box"), none of them a sentence end.
_VALUE_AFTER_CUE = re.compile(
    rf"^(?P<between>(?:\s+[^\s.!?;:=]+){{0,5}}?)\s*(?P<marker>{_ASSIGNMENT})\s*"
    r"(?P<value>[^\s]+)(?P<rest>[^\n]{0,40})",
    re.I,
)
# Straight after the cue, or after any punctuation people put there instead of "is" (":",
# "=", "-", an arrow, a guillemet): "Passwort - Birke!2022", "password \u2192 hunter22".
_DIRECT_VALUE = re.compile(r"^\s*(?:[^\w\s(]{1,3}\s*)?(?P<value>[^\s]+)(?P<rest>[^\n]{0,40})")
_LOGIN_PAIR = re.compile(r"^(?:\s+[^\s.!?;/<>]+){0,5}?\s+[^\s/<>]{2,}\s*/\s*[^\s/<>]{3,}")
# After a seed cue: three or more short words after ":" or "=" ("Seed phrase: apple river
# stone"), six or more after "is" or nothing; the words are seed words only when none is a stop word
# ("seed phrase: kept in the safe" is about the phrase, not the phrase).
_SEED_WORDS = re.compile(
    rf"^\s*(?P<marker>[:=-]|(?:{_ASSIGNMENT})(?=\s))?\s*(?P<words>(?:[a-z]{{3,8}}[\s,]+){{2,}}[a-z]{{3,8}})",
    re.I,
)
MIN_SEED_WORDS_AFTER_MARKER = 3
MIN_SEED_WORDS = 6
_LOGIN_CUE = re.compile(r"log|user|ident|benutzer|usuario|utente", re.I)
# Cues whose window is not read for a code or a quoted value: a user name or a token is
# checked by its own rules ("login ... X / Y", the token formats); "token budget 4000" is a
# quantity and 'the user watches the series "Friends"' a title.
_NO_WINDOW_CUE = re.compile(r"log|user|ident|benutzer|usuario|utente|token|^pass$", re.I)
_SEED_CUE = re.compile(r"phrase|words|mnemonic|semilla|seme", re.I)
_UNITS = frozenset(UNITS)
MIN_DIGIT_VALUE = 3
LONG_PASSPHRASE_CHARS = 12
# A digits-only value this long straight after a cue, without "is" or ":" ("PIN 7351").
MIN_DIRECT_DIGITS = 4


def value_after_credential_word(
    folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS, *, plain_words: bool = True
) -> bool:
    """Whether a credential word is followed by its value.

    - After an assignment ("is", ":", "=", "lautet", "es", "est", "è", a dash or an arrow
      between spaces...): a value with a digit or a symbol (3+ digits when digits only, not
      followed by a unit: "PIN is 4 digits" is not one), a passphrase-long word, a word with
      inner capitals, or any word that ends the clause ("pw = correcthorse", "Passwort: Birke").
    - Straight after the cue: a password-shaped word, or 4+ digits ("PIN 7351").
    - A few words after the cue, in the same clause: a code (:func:`_code_in_window`).
    - A quoted value after the cue or its assignment ("passphrase is 'gravel otter'").
    - After a passphrase cue: the words to the end of the clause (:func:`_phrase_follows`).
    - "login ... X / Y": a user and password pair.
    - "seed phrase: word word word ...": six or more short words after a seed cue.
    - The answer to a security question (:func:`_security_answer`).
    """
    if _CARD_CODE.search(folded_text):
        return True
    for cue in _CUE.finditer(folded_text):
        rest = folded_text[cue.end() :]
        if _names_something_else(folded_text, cue):
            if _digits_given(folded_text, cue, rest):
                return True
            continue
        if _assigned_value(rest) or _direct_value(rest, lexicons) or _complement_value(rest):
            return True
        if not _NO_WINDOW_CUE.search(cue.group()) and (
            _QUOTED_VALUE.match(rest) or _code_in_window(rest, lexicons)
        ):
            return True
        if _PASSPHRASE_CUE.fullmatch(cue.group()) and _phrase_follows(rest, lexicons):
            return True
        if _LOGIN_PAIR.match(rest) and _LOGIN_CUE.search(cue.group()):
            return True
        if _SEED_CUE.search(cue.group()) and _seed_words_follow(rest, lexicons):
            return True
        if (
            plain_words
            and _PASSWORD_WORD.fullmatch(cue.group())
            and _plain_word_after(rest, lexicons)
        ):
            return True
        if _long_complement_digits(rest):
            return True
        if _equal_groups_after(rest, lexicons):
            return True
    if any(_direct_value(folded_text[tan.end() :], lexicons) for tan in _TAN.finditer(folded_text)):
        return True
    return (plain_words and _security_answer(folded_text, lexicons)) or _wifi_pair(folded_text)


# Digits given after a long complement of the cue, in its clause: "El PIN de su tarjeta de
# cliente de la farmacia es 4417" (six to twelve words between; up to five are read above).
_LONG_COMPLEMENT_DIGITS = re.compile(
    r"^(?:\s+[^\s.!?;:=]+){6,12}?\s+(?:is|was|est|es|ist|lautet|e|era|war|:|=)\s*"
    r"(?P<value>\d{4,12})(?![\w]|[.,/:-]\d)(?P<rest>[^\n]{0,40})",
    re.I,
)


def _long_complement_digits(rest: str) -> bool:
    match = _LONG_COMPLEMENT_DIGITS.match(rest)
    if match is None or _YEAR_SHAPE.fullmatch(match["value"]):
        return False
    return _digit_value(match["value"], match["rest"])


# "the code", "her code" name source code too ("the code is clean"), but never digits given
# after "is" or a colon in its clause ("The code is 407008", "The code is the same as last
# year: 407008"): those digits are what is typed.
_DETERMINED_CODE = re.compile(r"(?:the|her|his|their|our|your|my)\s+codes?$", re.I)
_DIGITS_GIVEN = re.compile(
    r"^\s+(?:is|was|est|es|ist|lautet|e)\s+(?:(?P<digits>\d{4,10})(?![\w]|[.,/:-]\d)"
    # after a colon, one value that ends the clause ("...as last year: suscipit08.")
    r"|[^.!?;:\n\d]{1,40}:\s*(?P<after_colon>[^\s]+?)[.!?;)]*\s*(?:$|\n))"
)


def _digits_given(text: str, cue: re.Match[str], rest: str) -> bool:
    if not _DETERMINED_CODE.search(text[max(0, cue.start() - 8) : cue.end()]):
        return False
    match = _DIGITS_GIVEN.match(rest)
    if match is None:
        return False
    if match["digits"]:
        if _YEAR_SHAPE.fullmatch(match["digits"]):
            return False  # "the code is 2019": a year said of it
        return _digit_value(match["digits"], rest[match.end() :])
    value = match["after_colon"].strip(_WORD_EDGES)
    return bool(value) and _code_shaped(value) and not _DOTTED_NUMBER.fullmatch(value)


# The cues a single plain word may follow as the password itself ("password sunshine").
_PASSWORD_WORD = re.compile(
    r"pass(?:word|wd)|mot de passe|contrasena|passwort|kennwort|parola d'ordine", re.I
)
_CONTINUATIONS = frozenset(PASSWORD_CONTINUATIONS)
# A bank's transaction number (TAN, mTAN, pushTAN, smsTAN, iTAN): in capitals, since "tan"
# is a colour; a code straight after it is a secret ("TAN 482913").
_TAN = re.compile(
    r"(?<![\w-])(?:m|i|e|push|sms|chip|photo)?TAN(?:-?(?:nummer|number|code))?(?![\w-])"
)


# Three to eight groups of one length after a credential cue, to the end of the clause: a
# generated key printed in groups ("app password abcd efgh ijkl mnop", "clé : k3x9 p2m7 q8w4").
_EQUAL_GROUPS = re.compile(
    r"^[ \t]*(?:[:=-][ \t]*)?(?P<groups>[a-z0-9]{3,8}(?:[ \t]+[a-z0-9]{3,8}){2,7})[ \t]*"
    r"(?:$|[.,;!?)\n])",
    re.I,
)


# A short complement of the cue before its colon: "App password for the tutoring account's
# mail sync: qwmz hpta lrke vbno".
_COMPLEMENT_TO_COLON = re.compile(rf"^\s+(?:{_PREPOSITIONS})\s+[^:.!?;=\n]{{1,50}}(?=:)", re.I)


def _equal_groups_after(rest: str, lexicons: Lexicons) -> bool:
    complement = _COMPLEMENT_TO_COLON.match(rest)
    if complement is not None:
        rest = rest[complement.end() :]
    match = _EQUAL_GROUPS.match(rest)
    if match is None:
        return False
    groups = match.group("groups").lower().split()
    return len({len(group) for group in groups}) == 1 and not any(
        group in lexicons.stopwords for group in groups
    )


def _plain_word_after(rest: str, lexicons: Lexicons) -> bool:
    """One alphabetic word straight after a password cue that is neither a stop word nor a
    word that continues the cue (:data:`PASSWORD_CONTINUATIONS`), ending the clause or
    before a complement: the password, fail closed.
    "password sunshine", "Passwort Sonnenschein"; not "password manager", "password for"."""
    match = _PLAIN_WORD.match(rest)
    if match is None:
        return False
    word = match.group("word").lower()
    return (
        word not in lexicons.stopwords
        and word not in _CONTINUATIONS
        and word not in _PREPOSITION_WORDS
    )


# The word ends the clause, or a complement follows it ("password sunshine for the router");
# a word followed by anything else is part of a sentence about the password ("Passwort
# zurückgesetzt und wartet", "contraseña caducó esta mañana").
_PLAIN_WORD = re.compile(
    rf"[ \t]+(?P<word>[^\W\d_]{{3,}})(?![\w'-])\s*(?:$|[.,;!?)\n]|(?:{_PREPOSITIONS})\s)", re.I
)
_PREPOSITION_WORDS = frozenset(COMPLEMENT_PREPOSITIONS) | {"con", "mit", "with", "avec"}


# A network and its key written as a pair ("Wi-Fi: HomeNet / sunshine99", "WLAN Fritz!Box
# 7590 / 4815162342"): the second is a key when it has the shape of a code.
_WIFI_PAIR = re.compile(
    r"(?<![\w-])(?:wi-?fi|wlan|ssid)(?![\w-])[^.!?;\n]{0,40}?\s[^\s/<>]{2,}\s*/\s*"
    r"(?P<key>[^\s/<>]{3,})",
    re.I,
)


# The last word of a clause that names a Wi-Fi network: its key when it is shaped like one
# ("Wifi di casa nemico22", "WPA-Key: MamaSchauenAuto", "le wifi c'est garcon5208").
_WIFI_CLAUSE = re.compile(
    r"(?<![\w-])(?:wi-?fi|wlan|wpa2?|wep|ssid)(?![\w])[^.!?;\n]*?\s(?P<key>\S+?)[.!?]?\s*$", re.I
)
_WORD_AND_DIGITS = re.compile(r"[^\W\d_]{3,}\d{2,}")
_GLUED_WORDS = re.compile(r"(?:[A-Z][a-z\u00e0-\u00ff]+){3,}")


def _wifi_key(text: str) -> bool:
    for sentence in _SENTENCE.finditer(text):
        match = _WIFI_CLAUSE.search(sentence.group().rstrip(".!?;\n "))
        if match is None:
            continue
        key = match["key"].strip(_WORD_EDGES)
        if (
            (_WORD_AND_DIGITS.fullmatch(key) and key[0].islower())
            or _GLUED_WORDS.fullmatch(key)
            or (looks_like_password(key) and not key.isalnum())
        ):
            return True
    return False


def _wifi_pair(text: str) -> bool:
    if _wifi_key(text):
        return True
    return any(
        _code_shaped(key) or looks_like_password(key)
        for key in (m["key"].strip(_WORD_EDGES) for m in _WIFI_PAIR.finditer(text))
    )


# A quoted token in the sentence of a credential word, before or after it ("client veut
# 'Lyon2024' comme d'hab" after "mdp Wi-Fi", "ID&V word: 'marmalade' -> ...passphrase"):
# what is quoted next to a password's word is its value. One token of 4 to 40 characters,
# not a product's name, not the cue itself; a cue that names something else ("password
# manager") does not count.
_QUOTED_TOKEN = re.compile(
    rf"(?:(?<=[\s(:,=>])|^)[{_OPEN_QUOTES}](?P<value>[^\s{_CLOSE_QUOTES}]{{4,40}})"
    rf"[{_CLOSE_QUOTES}](?![\w])"
)
_QUOTED_CUE = re.compile(
    r"(?<![\w-])(?:pass(?:word|wd|phrase|code)s?|pins?|pw|pwd|mdp|mots? de passe|contrasenas?"
    r"|user ?names?|logins?|identifiants?|nombre de usuario|benutzername|nome utente"
    r"|claves?|passwort|kennwort|parola d'ordine|memorable (?:word|info(?:rmation)?)"
    r"|secret (?:word|answer)|wi-?fi (?:key|password)|wlan-?schlussel)(?![\w-])",
    re.I,
)


def _quoted_word(text: str, cue: re.Match[str]) -> bool:
    """The cue in quotes is the word itself ("intendeva 'password', non 'passowrd'")."""
    return (
        cue.start() > 0
        and text[cue.start() - 1] in _OPEN_QUOTES
        and text[cue.end() : cue.end() + 1] in tuple(_CLOSE_QUOTES)
    )


def _quoted_near_cue(folded_text: str, lexicons: Lexicons) -> bool:
    products = _folded_products(lexicons.product_names)
    for sentence in _SENTENCE.finditer(folded_text):
        text = sentence.group()
        cues = [
            cue
            for cue in _QUOTED_CUE.finditer(text)
            if not _names_something_else(text, cue) and not _quoted_word(text, cue)
        ]
        if not cues:
            continue
        for match in _QUOTED_TOKEN.finditer(text):
            value = match["value"].strip(_WORD_EDGES).lower()
            if value and value not in products and not _QUOTED_CUE.fullmatch(value):
                return True
    return False


# A card's verification code: three or four digits after its cue, with or without "is".
_CARD_CODE = re.compile(
    rf"(?<![\w-])(?:{CARD_CODE_CUES})(?![\w-])(?:\s+[^\s\d.!?;]+){{0,3}}?"
    rf"(?:\s*(?:{_ASSIGNMENT})\s*|\s+)[{_OPEN_QUOTES}]?\s*\d{{3,4}}(?![\d/.,-]\d|\d)",
    re.I,
)
# A quoted value right after the cue (a space before the quote, so "password's" is not one),
# or after its assignment, closed within the clause: "passphrase 'gravel otter sings'".
_QUOTED_VALUE = re.compile(
    rf"^(?:\s+[^\s.!?;:={_OPEN_QUOTES}]+){{0,5}}?(?:\s*(?:{_ASSIGNMENT})\s*|\s+)"
    rf"[{_OPEN_QUOTES}]\s*[^\s{_CLOSE_QUOTES}][^{_CLOSE_QUOTES}\n]{{1,62}}[{_CLOSE_QUOTES}]",
    re.I,
)
_PASSPHRASE_CUE = re.compile(PASSPHRASE_CUES, re.I)
_PHRASE = re.compile(
    rf"^\s*(?:(?P<marker>{_ASSIGNMENT})\s*)?(?P<words>[^\W\d_]+(?:[\s,]+[^\W\d_']+){{2,}})\s*$",
    re.I,
)
_QUESTION = re.compile(rf"(?<![\w-])(?:{'|'.join(SECURITY_QUESTION_CUES)})(?![\w-])", re.I)
_ANSWER_WORD = re.compile(rf"(?<![\w-])(?:{ANSWER_WORDS})(?![\w-])", re.I)
# After an answer cue and a complement, with no assignment: the value ends the clause
# ("Security answer for the bank Fufi", "Antwort auf die Sicherheitsfrage Rex").
_COMPLEMENT_ANSWER = re.compile(
    rf"^\s+(?:{_PREPOSITIONS}|a|a la|a l'|auf die|zur|alla|to the)(?:\s+[^\s.!?;:=]+){{0,3}}?"
    r"\s+(?P<value>[^\s]+)\s*$",
    re.I,
)


def _clause(rest: str) -> str:
    """``rest`` up to the end of its sentence."""
    end = _CLAUSE_END.search(rest)
    return rest[: end.start()] if end else rest


def _phrase_follows(rest: str, lexicons: Lexicons) -> bool:
    """Three or more words to the end of the clause after a passphrase cue: the phrase,
    after ":", "=" or a dash whatever the words; after "is" or nothing only when none is a
    stop word ("Passphrase correct horse battery staple"; "passphrase is kept in the safe"
    is about it)."""
    for view in _views(rest):
        match = _PHRASE.match(_clause(view))
        if match is None:
            continue
        if match.group("marker") in _SYMBOL_MARKERS:
            return True
        words = re.findall(r"[^\W\d_]+", match.group("words").lower())
        if not any(word in lexicons.stopwords for word in words):
            return True
    return False


def _security_answer(folded_text: str, lexicons: Lexicons) -> bool:
    """The answer to a security question: after an answer cue ("security answer", "maiden
    name", "réponse secrète"), or after an answer word ("answer", "réponse", "Antwort",
    "risposta") in a note that names a security question, with asides left out
    ("Security question (first pet) answer: Biscuit").

    - after ":", "=", a dash or an arrow: any value;
    - after "is", "est", "lautet", "è": a capitalised or quoted word, or one ending the clause;
    - with nothing between: one word ending the clause ("respuesta blue"), or a word that
      is no stop word ending it after a short complement ("Security answer for the bank
      Fufi"); after the question itself, only a capitalised or quoted word.
    """
    question = _QUESTION.search(folded_text) is not None
    for view in _views(folded_text):
        cues = list(_ANSWER_CUE.finditer(view))
        if question:
            cues += [*_ANSWER_WORD.finditer(view), *_QUESTION.finditer(view)]
        for cue in cues:
            is_question = _QUESTION.fullmatch(cue.group()) is not None
            rest = view[cue.end() :]
            aside = _QUESTION_ASIDE.match(rest) if is_question else None
            if aside is not None:
                # "Sicherheitsfrage (Geburtsort Mutter): Bad Kreuznach": the aside named the
                # question, so what follows the colon is its answer.
                rest, is_question = rest[aside.end() :], False
            if _answer_value(
                _clause(rest),
                lexicons,
                after_question=is_question,
                security_named=_SECURITY_WORD.search(folded_text) is not None,
            ):
                return True
    return False


_QUESTION_ASIDE = re.compile(r"\s*\([^()]{1,60}\)\s*(?=[:=])")
_SECURITY_WORD = re.compile(r"securi|secret|seguridad|sicherheit|geheim|sicurezza|segret", re.I)
_ONE_WORD_AFTER_COLON = re.compile(r"^\s*[:=]\s*(?P<value>[^\W\d_]{2,})\W*$")


def _answer_value(
    clause: str, lexicons: Lexicons, *, after_question: bool, security_named: bool = False
) -> bool:
    """Whether ``clause`` (what follows an answer cue) gives the answer; after the question
    itself only a capitalised or quoted word straight after it does ("...Sicherheitsfrage
    Rex"): "Sicherheitsfrage: Name des ersten Haustiers" states the question."""
    words = clause.split()
    if not words:
        return False
    first = words[0].strip(_WORD_EDGES)
    if len(words) <= 2 and first and first.lower() not in lexicons.stopwords:
        named = first[0].isupper() or words[0][0] in _OPEN_QUOTES
        if named or (len(words) == 1 and not after_question):
            return True
    if after_question:
        # The question, a colon, one word: its answer ("First pet (security q): Biscuit"); a
        # question written out after the colon has more words ("Sicherheitsfrage: Name des
        # ersten Haustiers").
        # Only in a note that says it is a security question: "First car: Volvo" is a fact.
        single = _ONE_WORD_AFTER_COLON.match(clause)
        return (
            security_named
            and single is not None
            and single["value"].lower() not in lexicons.stopwords
        )
    match = _VALUE_AFTER_CUE.match(clause)
    if match is not None:
        value = match.group("value").strip(_WORD_EDGES)
        if not value:
            return False
        if match.group("marker") in _SYMBOL_MARKERS:
            return True
        quoted = match.group("value")[0] in _OPEN_QUOTES
        return value[0].isupper() or quoted or _ends_clause(match.group("rest"))
    complement = _COMPLEMENT_ANSWER.match(clause)
    if complement is None:
        return False
    value = complement.group("value").strip(_WORD_EDGES)
    return bool(value) and value.lower() not in lexicons.stopwords


def _complement_value(rest: str) -> bool:
    """A value at the end of a complement of the cue, without "is" or ":" before it: 4+
    digits not after "in", "since" or a harmless noun ("PIN of the card changed in 2021"
    is not one), or a password-shaped word."""
    match = _COMPLEMENT_VALUE.match(rest)
    if match is None:
        return False
    value = match.group("value").strip(_WORD_EDGES)
    previous = re.findall(r"[a-z]+", match.group("between").lower())
    if previous and previous[-1] in _HARMLESS_BEFORE:
        return False
    if value.isdigit():
        return _digit_value(value, match.group("rest"))
    return looks_like_password(value)


# The clause after a cue: up to the end of its sentence ("." or "!" before a space, a line).
_CLAUSE_END = re.compile(r"[.!?;](?:\s|$)|\n")
_WINDOW_TOKEN = re.compile(r"[^\s]+")
_YEAR_SHAPE = re.compile(r"(?:19|20)\d{2}")
_NUMBER_AND_UNIT = re.compile(r"\d+(?:[.,]\d+)?(?P<unit>[a-z%]+)", re.I)
MIN_CODE_CHARS = 4
MIN_CODE_DIGITS = 2


def _code_in_window(rest: str, lexicons: Lexicons) -> bool:
    """A code a few words after a credential cue, in the same clause, with no "is" or ":"
    and no preposition: "Torcode Tiefgarage 1904", "PIN bancomat 7719", "clave wifi casa
    perroazul99", "Clé wifi 7F3A9C2E1B", "backup codes 4821-9930, 1177-0452".

    A code is what a person types: 4 or more digits, or letters mixed with 2 or more digits,
    or a password-shaped word. It is not one when its own shape or the word before it says
    what it is: a date, a version, a price or a quantity with its unit, a number after a
    harmless noun ("in 2021", "since 2019", "flight 4471", "March 2024").
    """
    clause = _clause(rest)
    products = _folded_products(lexicons.product_names)
    for token, start in _window_tokens(clause, lexicons):
        if (
            token
            and _code_shaped(token)
            and token.lower() not in products
            and not _harmless_here(clause, start, start + len(token), lexicons)
            # "service codes like LDR-30C-DEL-NF": a product's label, not a typed code
            and not product_label(token)
        ):
            return True
    return False


# Three or more groups of the same 4 to 6 letters or digits joined by dashes: a backup or
# recovery code as services print it ("wcsh-oemf-awdx", "7XK2-9FQ3-MM4T").
_GROUPED_CODE = re.compile(r"(?i)([a-z0-9]{4,6})(?:-[a-z0-9]{4,6}){2,}")


def _code_shaped(token: str) -> bool:
    """Digits (4 or more, separators allowed), letters mixed with 2 or more digits, or a
    password-shaped word; never an address, a URL or a number with its unit ("5GHz")."""
    if "://" in token or "@" in token or len(token) > MAX_PASSWORD_CHARS:
        return False
    if _COUNTED_ADJECTIVE.fullmatch(token):
        return False  # "prefers 20-character generated ones": how long, not what
    if _GROUPED_CODE.fullmatch(token):
        return True
    digits = sum(ch.isdigit() for ch in token)
    letters = sum(ch.isalpha() for ch in token)
    if digits == 0:
        return looks_like_password(token)
    if letters == 0:
        return digits >= MIN_DIRECT_DIGITS
    unit = _NUMBER_AND_UNIT.fullmatch(token)
    if unit and unit.group("unit").lower() in _UNITS:
        return False
    return (len(token) >= MIN_CODE_CHARS and digits >= MIN_CODE_DIGITS) or looks_like_password(
        token
    )


def _harmless_here(clause: str, start: int, end: int, lexicons: Lexicons) -> bool:
    """Whether the code at ``clause[start:end]`` is a date, a version, a quantity or a
    number after a harmless noun; a year alone only after a month or such a noun (a door
    code may look like a year: "Torcode Tiefgarage 1904")."""
    value = clause[start:end]
    previous = re.findall(r"[a-z]+", clause[:start].lower())
    last = previous[-1] if previous else ""
    if last in _HARMLESS_BEFORE or last in lexicons.months:
        return True
    if _YEAR_SHAPE.fullmatch(value):
        return False
    digits_only = re.sub(r"[^\d]", "", value)
    following = re.match(r"\s*([a-z%]+)", clause[end:], re.I)
    if digits_only == value and following and following.group(1).lower() in _UNITS:
        return True
    return harmless_number_at(clause, start, end)


# What may stand between a seed cue and the colon that opens its words: "phrase de
# récupération du portefeuille crypto : lune tigre ...", "recovery phrase for the Ledger: ...".
_BEFORE_SEED_COLON = re.compile(r"^[^:=\n.!?;]{1,40}(?=[:=])")


def _seed_words_follow(rest: str, lexicons: Lexicons) -> bool:
    match = _SEED_WORDS.match(rest)
    if match is None or match.group("marker") is None:
        # The words may follow a colon a few words after the cue.
        skipped = _BEFORE_SEED_COLON.match(rest)
        if skipped is not None:
            match = _SEED_WORDS.match(rest[skipped.end() :]) or match
    if match is None:
        return False
    words = re.findall(r"[a-z]+", match.group("words").lower())
    symbol = match.group("marker") in (":", "=", "-")
    needed = MIN_SEED_WORDS_AFTER_MARKER if symbol else MIN_SEED_WORDS
    return len(words) >= needed and not any(word in lexicons.stopwords for word in words)


def _names_something_else(text: str, cue: re.Match[str]) -> bool:
    """ "postal code", "codice fiscale", "source code": a cue word inside another noun."""
    window = text[max(0, cue.start() - 24) : cue.end() + 32]
    offset = cue.start() - max(0, cue.start() - 24)
    return any(
        m.start() <= offset + 1 and m.end() >= offset + len(cue.group()) - 1
        for m in _NOT_CREDENTIAL.finditer(window)
    )


def _assigned_value(rest: str) -> bool:
    match = _VALUE_AFTER_CUE.match(rest)
    if match is None:
        return False
    value = match.group("value").strip(_WORD_EDGES)
    if not value:
        return False
    if any(ch.isdigit() for ch in value):
        return _digit_value(value, match.group("rest"))
    if any(not ch.isalnum() and ch not in "-'" for ch in value):
        return True
    if len(value) >= LONG_PASSPHRASE_CHARS or _inner_capital(value):
        return True
    return _ends_clause(match.group("rest")) and match.group("marker") in _SYMBOL_MARKERS


# Digit groups after a first one, one space or dash between: a code written in groups
# ("Bestätigungscode 861 419", "SMS code 285-712").
_MORE_GROUPS = re.compile(r"^(?:[ -]\d{2,4}){1,3}(?![\w]|[.,-]\d)")


def _direct_value(rest: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> bool:
    """The value straight after the cue: 4+ digits (in groups or not), a password-shaped
    word, or a word with inner capitals that ends the clause ("WLAN-Schlüssel DasBinBauen",
    "Wi-Fi key IdEsseNeque"), not a product's name."""
    match = _DIRECT_VALUE.match(rest)
    if match is None:
        return False
    value = match.group("value").strip(_WORD_EDGES)
    following = match.group("rest")
    if value.isdigit() and len(value) <= 4:
        groups = _MORE_GROUPS.match(following)
        if groups:
            value += re.sub(r"\D", "", groups.group())
            following = following[groups.end() :]
    if value.isdigit():
        return len(value) >= MIN_DIRECT_DIGITS and _digit_value(value, following)
    if (
        _inner_capital(value)
        and value.isalpha()
        and _ends_clause(following)
        and value.lower() not in _folded_products(lexicons.product_names)
    ):
        return True
    return looks_like_password(value)


def _digit_value(value: str, rest: str) -> bool:
    """Digits are a value unless they count something ("4 digits", "8 characters")."""
    digits = sum(ch.isdigit() for ch in value)
    if digits < MIN_DIGIT_VALUE and value.isdigit():
        return False
    following = re.match(r"\s*([a-z%]+)", rest, re.I)
    return not (value.isdigit() and following and following.group(1).lower() in _UNITS)


def _inner_capital(value: str) -> bool:
    return any(ch.isupper() for ch in value[1:]) and any(ch.islower() for ch in value)


def _ends_clause(rest: str) -> bool:
    return (
        not rest.strip()
        or rest.lstrip()[0] in ".,;!?)("
        or rest.lstrip().lower().startswith(("and ", "et ", "y ", "und ", "e "))
    )


# --- a code told a few words after its cue, or counted, or keyed with the keypad's keys -------

# A cue, alone or as the last part of a compound ("Mailbox-PIN", "SIM-PIN"), or the thing a
# code opens ("House alarm", "Back entrance").
_CUE_OR_LOCK_PART = re.compile(
    rf"(?:(?<![\w-])|(?<=-))(?:{'|'.join((*CREDENTIAL_CUES, *LOCK_NOUNS, ACCESS_NOUNS))})(?![\w-])",
    re.I,
)
# What joins a cue to its value, after up to eight words of complement ("de la SIM a ete",
# "dell'allarme e quello del bancomat piu uno"): "is", ":", "=", or a change of value
# ("changed to", "change en", "geandert auf", "cambiado a", "cambiato in").
_TOLD_CONNECTIVE = (
    r"(?P<assigned>is|was|est|es|ist|lautet|e)|now|jetzt|maintenant|ahora|ora"
    r"|(?:changed|set|reset) to|changee? en|mis(?:e)? a|geandert (?:auf|in|zu)|gesetzt auf"
    r"|cambiad[oa] (?:a|por)|cambiat[oa] (?:in|a)|impostat[oa] (?:a|su)"
)
_TOLD_CODE = re.compile(
    r"(?P<between>(?:\s+[^\s.!?;:=]+){0,8}?)\s*(?:(?<![\w-])(?:"
    + _TOLD_CONNECTIVE
    + r")(?![\w-])|(?P<mark>[:=]))"
    r"\s*[*#]?(?P<value>\d{4,12})(?![\w.,/:-]\w|\w)(?P<rest>[^\n]{0,20})",
    re.I,
)
MIN_TOLD_CODE_DIGITS = 4


def told_code(text: str) -> bool:
    """Digits told a few words after a credential's cue or a lock's noun, in its clause:
    "House alarm is 2468", "Mailbox-PIN ist 3141", "code PIN de la SIM a ete change en 5813".
    A cue word with a number of 4 digits or more after its "is" is a code, fail closed; a
    cue that is part of a harmless noun ("postal code", "error code") is skipped, a value
    with a unit ("door is 2100 mm") or a clock time is a quantity."""
    for sentence in _SENTENCE.finditer(text):
        clause = sentence.group()
        harmless = [m.span() for m in _NOT_CREDENTIAL.finditer(clause)]
        for cue in _CUE_OR_LOCK_PART.finditer(clause):
            if any(
                start <= cue.start() < end or start < cue.end() <= end for start, end in harmless
            ):
                continue
            match = _TOLD_CODE.match(clause, cue.end())
            if match is None or (_YEAR_SHAPE.fullmatch(match["value"]) and _year_told(match)):
                continue
            if _YEAR_SHAPE.fullmatch(match["value"]) and not (match["assigned"] or match["mark"]):
                # "Le digicode a ete change en 2021": a year after a change is its date
                continue
            if _digit_value(match["value"], match["rest"]) and len(match["value"]) >= (
                MIN_TOLD_CODE_DIGITS
            ):
                return True
    return False


def _year_told(match: re.Match[str]) -> bool:
    """A year after "since" or "in" in the complement is a date ("alarm installed in 2019")."""
    words = re.findall(r"[a-z]+", match["between"].lower())
    return bool(words) and words[-1] in {
        "in",
        "since",
        "en",
        "depuis",
        "seit",
        "im",
        "dal",
        "desde",
    }


# The keys around a keyed code said in words: "almohadilla, 7, 7, 3, asterisco".
_KEYPAD_KEYS = re.compile(
    r"(?<![\w-])(?:hash|pound|star|asterisk|diese|etoile|almohadilla|asterisco|numeral|raute"
    r"|stern(?:chen)?|cancelletto|asterisco)(?![\w-])",
    re.I,
)
_KEYS_IN_A_ROW = re.compile(r"(?<![\w.,-])[\d#*](?:\s*,\s*[\d#*]){3,12}(?![\w]|[.,-]\d)")
MIN_KEYED_IN_A_ROW = 3


def keys_listed(text: str) -> bool:
    """Single digits and keypad keys listed one by one with commas ("almohadilla, 7, 7, 3,
    asterisco", "4, 8, 2, 1") in a clause with a cue or a lock's noun: what is typed on a
    keypad, written as it is typed."""
    for sentence in _SENTENCE.finditer(text):
        clause = _KEYPAD_KEYS.sub("#", sentence.group())
        if not _CUE_OR_LOCK_PART.search(clause):
            continue
        for row in _KEYS_IN_A_ROW.finditer(clause):
            if sum(ch.isdigit() for ch in row.group()) >= MIN_KEYED_IN_A_ROW:
                return True
    return False


# Seed words told over several clauses ("starts orbit velvet candle; the next three words are
# pepper hollow stadium"): runs of three or more plain words ending a clause, after a seed cue.
_SEED_PHRASE_CUE = re.compile(
    r"(?<![\w-])(?:seed|mnemonic|recovery (?:words?|phrase)|backup phrase|recuperation"
    r"|semilla|recuperacion|wiederherstellung\w*|recupero)(?![\w-])",
    re.I,
)
_WORD_RUN_AT_END = re.compile(r"(?<![\w'-])(?:[a-z]{3,8}[ ,]+){2,}[a-z]{3,8}(?=\s*(?:[.;!?\n]|$))")
MIN_SPLIT_SEED_WORDS = 6


def seed_words_split(folded_text: str, stopwords: frozenset[str]) -> bool:
    """Six or more seed words after a seed cue, in runs of three or more plain words that end
    their clause, the stop words and the first word of each run (a verb: "starts", "are")
    left out."""
    cue = _SEED_PHRASE_CUE.search(folded_text)
    if cue is None:
        return False
    count = 0
    for run in _WORD_RUN_AT_END.finditer(folded_text, cue.end()):
        words = re.findall(r"[a-z]+", run.group())
        tail: list[str] = []
        for word in reversed(words):
            if word in stopwords:
                break
            tail.append(word)
        if len(tail) >= 3:
            count += len(tail)
    return count >= MIN_SPLIT_SEED_WORDS


def _access_keyed(text: str) -> bool:
    """Digits keyed one by one in a clause naming a way in ("Back entrance: 7 3 1 5")."""
    return any(
        _KEYED_DIGITS.search(s.group()) and _CUE_OR_LOCK_PART.search(s.group())
        for s in _SENTENCE.finditer(text)
    )


# A credential put together from personal items joined by "plus" ("WLAN-Schlussel:
# Hundename Bello plus Hochzeitsjahr 2012", "password is the cat's name and his birth year"):
# an item may end a compound ("hundename", "hochzeitsjahr"); after the cue's "is" or colon.
_COMPOUND_ITEM = rf"[a-z]*{_PERSONAL_ITEMS}(?![\w-])"
_ITEMS_JOINED = re.compile(
    rf"^\s*(?:{_MADE_OF})\s*(?:(?:{_DETERMINERS})\s+)?(?:[^\s.!?;:]+\s+){{0,2}}?{_COMPOUND_ITEM}"
    r"[^.!?;\n]{0,30}?(?<![\w-])(?:plus|\+|und dann|and then|followed by|suivi de|seguido de"
    r"|seguito da|gefolgt von|piu|mas)(?![\w-])\s*(?:(?:"
    + _DETERMINERS
    + rf")\s+)?(?:[^\s.!?;:]+\s+){{0,2}}?(?:{_COMPOUND_ITEM}|\d{{2,4}}(?![\w]))",
    re.I,
)
_CUE_IN_COMPOUND = re.compile(
    rf"(?:(?<![\w-])|(?<=-))(?:{'|'.join((*CREDENTIAL_CUES, PASSPHRASE_CUES))}"
    r"|keys?|cles?|claves?|chiave|schlussel)(?![\w-])",
    re.I,
)


def items_joined(folded_text: str) -> bool:
    """A credential said to be personal items joined by "plus" (see :data:`_ITEMS_JOINED`)."""
    for sentence in _SENTENCE_OF.finditer(folded_text):
        text = sentence.group()
        for cue in _CUE_IN_COMPOUND.finditer(text):
            if _ITEMS_JOINED.match(text[cue.end() :]):
                return True
    return False
