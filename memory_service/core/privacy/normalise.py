"""The forms the privacy guards look at: one note, written the way a detector can read it.

People (and models) write values so that a plain pattern misses them: fullwidth digits,
a Cyrillic "o" (U+043E) in an address, zero-width spaces inside a card number, "four one five",
"jane dot doe at gmail dot com", "%40", a card number split by dots, or half a key in the
text and half in a keyword. :func:`normalise` undoes all of that at once.

The normalised form is only looked at, never stored, logged or returned: a guard reads it
and reports a reason code.

Steps, in order:

1. NFKC (fullwidth letters, digits and the fullwidth "@", ligatures, superscripts);
2. zero-width, bidi and other invisible format characters removed;
3. confusables folded: Cyrillic and Greek look-alikes of Latin letters (a table built from
   the letters' shapes, below), any script's decimal digits to ASCII digits;
4. accents, apostrophes and dashes folded (:func:`memory_service.core.lexicons.fold`);
5. spelled-out digits and two-digit numbers in EN/FR/ES/DE/IT turned into digits, where
   three or more numbers follow each other ("four one five" -> "4 1 5", "zéro six, douze,
   quatre-vingt-treize" -> "0 6 12 93", "achtundvierzig" -> "48"; "two kids" stays);
6. e-mail obfuscations turned back into "@" and "." inside an address shape.

Joining digits across spaces, dots, dashes and slashes is done by the shape reader
(:mod:`memory_service.core.privacy.identifiers`), which must still see the separators to
tell a date or a version from a card number.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from memory_service.core.lexicons import fold
from memory_service.core.privacy.vocabulary import (
    DIGIT_WORDS,
    EMAIL_AT_WORDS,
    EMAIL_DOT_WORDS,
    NUMBER_COMPOUNDS,
    NUMBER_JOINERS,
    TEEN_WORDS,
    TENS_WORDS,
)

# Latin look-alikes in Cyrillic and Greek: the letters whose glyph is the Latin letter's in
# common fonts (Unicode's confusables for these two scripts, restricted to Latin targets).
_CONFUSABLES = str.maketrans(
    (
        "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423\u0425"
        "\u0405\u0406\u0408\u0500\u051a\u051c\u04ae\u0492\u04c0\u0430\u0432\u0435"
        "\u043a\u043c\u043d\u043e\u0440\u0441\u0442\u0443\u0445\u0455\u0456\u0458"
        "\u0501\u051b\u051d\u04af\u04bb\u04cf\u044c\u0437\u0391\u0392\u0395\u0396"
        "\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7\u03b1\u03b2"
        "\u03b3\u03b5\u03b9\u03ba\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7\u03c9\u0131"
        "\u0237\u0261\u0251\u2113\u2044\u2215\u00b7\u2027\u2022\u2024\ufe52\u3002"
        "\uff61"
    ),
    ("ABEKMHOPCTYXSIJDQWYFIabekmhopctyxsijdqwyhlb3ABEZHIKMNOPTYXabyeikvoptuxwijgal//......."),
)

_FOLDED_DIGITS = {fold(word).lower(): int(digit) for word, digit in DIGIT_WORDS.items()}
_COMPOUND = re.compile("|".join(f"(?:{pattern})" for pattern in NUMBER_COMPOUNDS))
_COMPOUND_PARTS = {
    **{f"{fold(word).lower()}": value for word, value in TENS_WORDS.items()},
    "veinti": 20, "vent": 20, "trent": 30, "quarant": 40, "cinquant": 50, "sessant": 60,
    "settant": 70, "ottant": 80, "novant": 90, "ein": 1,
    **_FOLDED_DIGITS,
}  # fmt: skip
# Numbers a spelled run needs before it is read as digits: "two kids" is not a value,
# "four one five" or "zéro six, douze, quarante-huit" is.
MIN_SPELLED_NUMBERS = 3
# Words and digit groups of a spelled number, and what may stand between two of them.
_NUMBER_WORD = re.compile(r"[^\W_]+")
_NUMBER_GAP = re.compile(r"[\s,;-]+")
_UNIT, _TEEN, _TEN, _JOINER, _DIGITS = "unit", "teen", "ten", "joiner", "digits"
# French 60 and 80 count on with a teen: "soixante et onze" (71), "quatre-vingt-treize" (93).
_TENS_WITH_TEENS = (60, 80)
_QUATRE_VINGT = 80
# French 17 to 19 are "dix" and a unit: "dix-sept", "soixante-dix-huit" (78).
_DIX = "dix"
_DIX_UNITS = (7, 8, 9)

_BRACKET_OPEN = r"[\(\[\{<]"
_BRACKET_CLOSE = r"[\)\]\}>]"
_AT_WORDS = "|".join(EMAIL_AT_WORDS)
_DOT_WORDS = "|".join(EMAIL_DOT_WORDS)
# Unambiguous "@": the sign itself, percent-encoded, or a word in brackets ("(at)", "[at]").
_AT_MARKED = rf"(?:\s*@\s*|%40|\s*{_BRACKET_OPEN}\s*(?:{_AT_WORDS}|@)\s*{_BRACKET_CLOSE}\s*)"
_AT_WORD = rf"(?:\s+(?:{_AT_WORDS})\s+)"
_DOT_MARKED = rf"(?:\s*{_BRACKET_OPEN}\s*(?:{_DOT_WORDS}|\.)\s*{_BRACKET_CLOSE}\s*|%2e)"
_DOT_WORD = rf"(?:\s+(?:{_DOT_WORDS})\s+)"
_DOT = rf"(?:{_DOT_MARKED}|{_DOT_WORD}|\.)"
_LOCAL = r"[a-z0-9_%+-]+"
_LABEL = r"[a-z0-9-]+"
_ADDRESS = re.compile(
    rf"(?<![\w.@])(?P<local>{_LOCAL}(?:{_DOT}{_LOCAL}){{0,4}})"
    rf"(?P<at>{_AT_MARKED}|{_AT_WORD})"
    rf"(?P<domain>{_LABEL}(?:{_DOT}{_LABEL}){{0,3}}{_DOT}(?P<tld>[a-z]{{2,12}}))(?![\w@])",
    re.I,
)
_DOT_ANY = re.compile(rf"{_DOT_MARKED}|{_DOT_WORD}", re.I)
_SPELLED_DOT = re.compile(rf"{_DOT_MARKED}|{_DOT_WORD}", re.I)


@dataclass(frozen=True)
class Normalised:
    """What the guards read: the text alone and the whole note (text and keywords).

    ``note`` joins the keywords to the text with a space, so a value split between them is
    one value again ("4152 4887" in the text, "1344 5952" in a keyword); ``glued`` joins
    them with nothing, for a key split in the middle of a token.
    """

    text: str
    note: str
    glued: str


def normalise(text: str, keywords: tuple[str, ...] = ()) -> Normalised:
    """The note as the privacy guards read it; see the module docstring for the steps."""
    clean_text = normalise_text(text)
    clean_keywords = [normalise_text(keyword) for keyword in keywords]
    note = " ".join((clean_text, *clean_keywords)) if clean_keywords else clean_text
    glued = "".join((clean_text, *clean_keywords)) if clean_keywords else clean_text
    return Normalised(text=clean_text, note=note, glued=glued)


def normalise_text(text: str) -> str:
    """Steps 1 to 6 of the module docstring on one string."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(_visible(ch) for ch in text)
    text = fold(text.translate(_CONFUSABLES))
    text = _spelled_numbers(text)
    return _plain_addresses(text)


def _visible(ch: str) -> str:
    """Invisible format characters go; any script's decimal digit becomes an ASCII one."""
    category = unicodedata.category(ch)
    if category == "Cf":
        return ""
    if category == "Nd" and not ch.isascii():
        return str(unicodedata.decimal(ch))
    if category == "Zs":
        return " "
    return ch


def _number_atom(word: str) -> tuple[str, int] | None:
    """What one word is in a spelled number: a unit, a teen, a ten, a joiner, digits."""
    lower = word.lower()
    if lower.isdigit():
        return _DIGITS, 0
    if lower in _FOLDED_DIGITS:
        return _UNIT, _FOLDED_DIGITS[lower]
    if lower in TEEN_WORDS:
        return _TEEN, TEEN_WORDS[lower]
    if lower in TENS_WORDS:
        return _TEN, TENS_WORDS[lower]
    if lower in NUMBER_JOINERS:
        return _JOINER, 0
    compound = _COMPOUND.fullmatch(lower)
    if compound is None:
        return None
    parts = [part for part in compound.groups() if part]
    return _TEEN, sum(_COMPOUND_PARTS[part] for part in parts)


# How a number is dictated in English: "double-oh" is 00, "triple seven" 777, "nine hundred"
# 900. Rewritten to the digit words they say before the runs are read.
_REPEATED = re.compile(r"\b(double|triple)[\s-]+([a-z]+)\b", re.I)
_HUNDRED = re.compile(r"\b([a-z]+)[\s-]+hundred\b", re.I)


def _dictated(text: str) -> str:
    def repeated(match: re.Match[str]) -> str:
        atom = _number_atom(match.group(2))
        if atom is None or atom[0] != _UNIT:
            return match.group()
        return " ".join([match.group(2)] * (2 if match.group(1).lower() == "double" else 3))

    def hundred(match: re.Match[str]) -> str:
        atom = _number_atom(match.group(1))
        if atom is None or atom[0] != _UNIT:
            return match.group()
        return f"{match.group(1)} zero zero"

    return _HUNDRED.sub(hundred, _REPEATED.sub(repeated, text))


def _spelled_numbers(text: str) -> str:
    """Runs of three or more spelled numbers (or digits among them), as digit groups one
    space apart, which the shape reader joins like any spaced digits."""
    text = _dictated(text)
    words = list(_NUMBER_WORD.finditer(text))
    pieces: list[str] = []
    done = index = 0
    while index < len(words):
        run: list[tuple[re.Match[str], tuple[str, int]]] = []
        for word in words[index:]:
            if run and not _NUMBER_GAP.fullmatch(text[run[-1][0].end() : word.start()]):
                break
            atom = _number_atom(word.group())
            if atom is None:
                break
            run.append((word, atom))
        numbers, used = _read_numbers(run)
        spelled = any(atom[0] != _DIGITS for _, atom in run[:used])
        if len(numbers) >= MIN_SPELLED_NUMBERS and spelled:
            pieces.append(text[done : run[0][0].start()])
            pieces.append(" ".join(numbers))
            done = run[used - 1][0].end()
            index += used
        else:
            index += 1
    pieces.append(text[done:])
    return "".join(pieces)


def _read_numbers(run: list[tuple[re.Match[str], tuple[str, int]]]) -> tuple[list[str], int]:
    """The numbers a run of atoms says, and how many atoms they use (a joiner that joins
    nothing ends the run)."""
    numbers: list[str] = []
    position = 0
    while position < len(run):
        word, (kind, value) = run[position]
        if kind == _JOINER:
            break
        position += 1
        if kind == _DIGITS:
            numbers.append(word.group())
            continue
        following = [atom for _, atom in run[position : position + 2]]
        if kind == _UNIT and value == 4 and following[:1] and following[0] == (_TEN, 20):
            kind, value = _TEN, _QUATRE_VINGT  # "quatre-vingt(s)"
            position += 1
            following = [atom for _, atom in run[position : position + 2]]
        if kind == _TEN and following:
            skip = 1 if following[0][0] == _JOINER else 0
            if len(following) > skip:
                next_kind, next_value = following[skip]
                teen = next_kind == _TEEN and value in _TENS_WITH_TEENS and next_value < 20
                if (next_kind == _UNIT and 1 <= next_value <= 9) or teen:
                    value += next_value
                    position += skip + 1
        if run[position - 1][0].group().lower() == _DIX and position < len(run):
            # "dix-sept" (17), "soixante-dix-huit" (78), "quatre-vingt-dix-neuf" (99)
            next_kind, next_value = run[position][1]
            if next_kind == _UNIT and next_value in _DIX_UNITS:
                value += next_value
                position += 1
        numbers.append(str(value))
    return numbers, position


def _plain_addresses(text: str) -> str:
    """Every obfuscated e-mail address in ``text`` in its plain form. A match that is left
    as written ("him at t.lindqvist", a bare "at" between plain words) does not hide an
    address that starts inside it: the search goes on from its next word."""
    pieces: list[str] = []
    done = position = 0
    while (match := _ADDRESS.search(text, position)) is not None:
        plain = _email(match)
        if plain == match.group(0):
            following = text.find(" ", match.start() + 1)
            position = following + 1 if 0 < following < match.end() else match.end()
            continue
        pieces.append(text[done : match.start()])
        pieces.append(plain)
        done = position = match.end()
    pieces.append(text[done:])
    return "".join(pieces)


def _email(match: re.Match[str]) -> str:
    """An address written with words or brackets, back in its plain form.

    A bare "at" is English for a place ("shops at amazon.com"), so it counts only when the
    address also spells a dot as a word or in brackets, or its local part has a dot, an
    underscore or a digit ("jane dot doe at gmail dot com", "jsmith_1 at example.com").
    """
    local, at, domain = match.group("local"), match.group("at"), match.group("domain")
    bare_at = re.fullmatch(_AT_WORD, at, re.I) is not None
    spelled = _SPELLED_DOT.search(local) or _SPELLED_DOT.search(domain)
    if bare_at and not spelled and not re.search(r"[._\d]", local):
        return match.group(0)
    return f"{_DOT_ANY.sub('.', local)}@{_DOT_ANY.sub('.', domain)}"
