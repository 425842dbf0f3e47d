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
5. spelled-out digits in EN/FR/ES/DE/IT turned into digits, where three or more follow
   each other ("four one five" -> "4 1 5"; "two kids" stays);
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
from memory_service.core.privacy.vocabulary import DIGIT_WORDS, EMAIL_AT_WORDS, EMAIL_DOT_WORDS

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

_DIGIT_WORD = "|".join(sorted((re.escape(fold(w)) for w in DIGIT_WORDS), key=len, reverse=True))
# A run of three or more digits or digit words, one separator (space, comma, hyphen) apart.
_DIGIT_WORD_RUN = re.compile(
    rf"(?<![\w])(?:(?:{_DIGIT_WORD}|\d+)(?:[\s,;-]+|$)){{2,}}(?:{_DIGIT_WORD}|\d+)(?![\w])",
    re.I,
)
_DIGIT_WORD_TOKEN = re.compile(rf"(?<![\w])(?:{_DIGIT_WORD}|\d+)(?![\w])", re.I)
_FOLDED_DIGITS = {fold(word).lower(): digit for word, digit in DIGIT_WORDS.items()}

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
    text = _DIGIT_WORD_RUN.sub(_spelled_digits, text)
    return _ADDRESS.sub(_email, text)


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


def _spelled_digits(match: re.Match[str]) -> str:
    """'four one five, five five five' -> '4 1 5 5 5 5': separators become single spaces,
    which the shape reader joins like any spaced digits."""
    run = match.group(0)
    tokens = _DIGIT_WORD_TOKEN.findall(run)
    if all(token.isdigit() for token in tokens):
        return run
    return " ".join(token if token.isdigit() else _FOLDED_DIGITS[token.lower()] for token in tokens)


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
