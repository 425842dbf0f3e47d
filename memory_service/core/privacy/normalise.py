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
6. e-mail obfuscations turned back into "@" and "." inside an address shape;
7. strings joined in code written as the one string they make (``"a.kovacs" + "@" +
   "fastmail.com"`` -> ``"a.kovacs@fastmail.com"``), and an IPv4 address said in words
   ("eighty two dot one twelve dot four dot nine") written with its digits.

Joining digits across spaces, dots, dashes and slashes is done by the shape reader
(:mod:`memory_service.core.privacy.identifiers`), which must still see the separators to
tell a date or a version from a card number.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from memory_service.core.lexicons import fold
from memory_service.core.privacy.vocabulary import (
    DIGIT_WORDS,
    EMAIL_AT_WORDS,
    EMAIL_DOT_WORDS,
    NUMBER_COMPOUNDS,
    NUMBER_JOINERS,
    NUMBER_SCALES,
    SPELLING_ALPHABET_WORDS,
    SPELLING_AS_IN,
    TEEN_WORDS,
    TENS_WORDS,
    THEN_WORDS,
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
MAX_DIAL_NUMBERS = 4
# Words and digit groups of a spelled number, and what may stand between two of them.
_NUMBER_WORD = re.compile(r"[^\W_]+")
# A word for "then" may stand between two numbers given in turn ("quinze, puis vingt-sept,
# puis huit"); it ends a number as a comma does.
_THEN = "|".join(sorted((re.escape(phrase) for phrase in THEN_WORDS), key=len, reverse=True))
_NUMBER_GAP = re.compile(rf"[\s,;/-]+(?:(?i:{_THEN})[\s,;-]+)?")
_THEN_WORDS = frozenset(phrase for phrase in THEN_WORDS if " " not in phrase)
_UNIT, _TEEN, _TEN, _JOINER, _DIGITS = "unit", "teen", "ten", "joiner", "digits"
_HUNDRED, _THOUSAND, _WORDS, _BREAK = "hundred", "thousand", "words", "break"
_HUNDRED_VALUE, _THOUSAND_VALUE, _FRENCH_FOUR = 100, 1000, 4
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
    text = _joined_strings(text)
    text = _spelled_letters(_roman_digits(text))
    text = _spelled_numbers(_said_ip(_repeated_digits(street_numbers(text))))
    text = _spoken_plates(_said_plates(_dictated_digits(text)))
    # Once numbers said in words are digits, letters spelled before a group of them are
    # read again ("Delta Tango, novecentouno, quarantasei" -> "DT90146").
    text = _spelled_letters(text)
    text = _decimals(_keypad_keys(text))
    return _plain_addresses(_spelled_symbols(text))


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
    """What one word is in a spelled number: a unit, a teen, a ten, a hundred, a thousand,
    a million, a joiner, digits; a word made of several ("einhundertzwölf",
    "millenovecentottantasette", "doscientos") is a ``_WORDS`` atom whose parts
    :func:`_number_parts` gives."""
    lower = word.lower()
    if lower.isdigit():
        return _DIGITS, 0
    simple = _simple_atom(lower)
    if simple is not None:
        return simple
    compound = _COMPOUND.fullmatch(lower)
    if compound is not None:
        parts = [part for part in compound.groups() if part]
        return _TEEN, sum(_COMPOUND_PARTS[part] for part in parts)
    if _number_parts(lower):
        return _WORDS, 0
    return None


def _simple_atom(lower: str) -> tuple[str, int] | None:
    if lower in _FOLDED_DIGITS:
        return _UNIT, _FOLDED_DIGITS[lower]
    if lower in TEEN_WORDS:
        return _TEEN, TEEN_WORDS[lower]
    if lower in TENS_WORDS:
        return _TEN, TENS_WORDS[lower]
    if lower in NUMBER_JOINERS:
        return _JOINER, 0
    if lower in NUMBER_SCALES:
        value = NUMBER_SCALES[lower]
        return (_HUNDRED if value < _THOUSAND_VALUE else _THOUSAND), value
    return None


_WORD_PARTS = sorted(
    {
        *_FOLDED_DIGITS, *TEEN_WORDS, *TENS_WORDS, *NUMBER_SCALES, "und",
        "vent", "trent", "quarant", "cinquant", "sessant", "settant", "ottant", "novant",
        "veinti", "ein",
    },
    key=len,
    reverse=True,
)  # fmt: skip
MIN_COMPOUND_CHARS = 6


def _number_parts(lower: str) -> tuple[tuple[str, int], ...]:
    """The atoms of one word written as several numbers' words glued together, when the
    whole word is made of them and says one number ("einhundertdreiundzwanzig",
    "duemilaquindici", "novecentouno"); empty otherwise ("undue" says two).

    Not cached: a cache keyed by the note's words would keep a refused note's words (a
    password, a PIN said in words) in the process after the note is gone."""
    if len(lower) < MIN_COMPOUND_CHARS:
        return ()
    for parts in _splits(lower, 0):
        if len(parts) >= 2 and len(_cardinals(list(parts))) == 1:
            return parts
    return ()


_STEMS = {"vent": 20, "trent": 30, "quarant": 40, "cinquant": 50, "sessant": 60,
          "settant": 70, "ottant": 80, "novant": 90, "veinti": 20}  # fmt: skip
MAX_SPLITS = 8


def _splits(lower: str, position: int) -> Iterator[tuple[tuple[str, int], ...]]:
    """Every way to cut ``lower[position:]`` into number words, longest words first (an
    Italian "cento" drops its "o" before "ottanta": "centottanta" is "cent" "ottanta")."""
    if position == len(lower):
        yield ()
        return
    tried = 0
    for part in _WORD_PARTS:
        if len(part) < 2 or not lower.startswith(part, position):
            continue
        tried += 1
        if tried > MAX_SPLITS:
            return
        if part == "und":
            atom: tuple[str, int] | None = (_JOINER, 0)
        elif part == "ein":
            atom = (_UNIT, 1)
        elif part in _STEMS:
            atom = (_TEN, _STEMS[part])
        else:
            atom = _simple_atom(part)
        if atom is None:
            continue
        for rest in _splits(lower, position + len(part)):
            yield (atom, *rest)


# How a number is dictated in English: "double-oh" is 00, "triple seven" 777. Rewritten to
# the digit words they say before the runs are read ("nine hundred" is read as 900).
_REPEATED = re.compile(r"\b(double|triple)[\s-]+([a-z]+)\b", re.I)


def _dictated(text: str) -> str:
    def repeated(match: re.Match[str]) -> str:
        atom = _number_atom(match.group(2))
        if atom is None or atom[0] != _UNIT:
            return match.group()
        return " ".join([match.group(2)] * (2 if match.group(1).lower() == "double" else 3))

    return _REPEATED.sub(repeated, text)


def _spelled_numbers(text: str) -> str:
    """Runs of spelled numbers (or digits among them), as digit groups one space apart,
    which the shape reader joins like any spaced digits: three numbers or more ("four one
    five"), two of two digits ("forty-eight twenty-one"), or any number written with more
    than one word or part ("trois cent vingt-et-un", "einhundertzwölf", "dos mil diez");
    one plain number word stays a word ("two kids")."""
    text = _dictated(text)
    words = list(_NUMBER_WORD.finditer(text))
    pieces: list[str] = []
    done = index = 0
    while index < len(words):
        run: list[tuple[re.Match[str], tuple[str, int]]] = []
        for word in words[index:]:
            if run and word.group().lower() in _THEN_WORDS:
                continue  # read as part of the gap to the next number
            if run and not _NUMBER_GAP.fullmatch(text[run[-1][0].end() : word.start()]):
                break
            atom = _number_atom(word.group())
            if atom is None:
                break
            run.append((word, atom))
        while run and run[-1][1][0] == _JOINER:
            run.pop()
        if not run:
            index += 1
            continue
        atoms: list[tuple[str, int]] = []
        for position, (word, atom) in enumerate(run):
            gap = text[run[position - 1][0].end() : word.start()] if position else ""
            if "," in gap or any(ch.isalpha() for ch in gap):
                atoms.append((_BREAK, 0))
            if atom[0] == _DIGITS:
                atoms.append((_DIGITS, int(word.group())))
                atoms.append((_BREAK, len(word.group())))
            elif atom[0] == _WORDS:
                atoms.extend(_number_parts(word.group().lower()))
            else:
                atoms.append(atom)
        numbers = _cardinals(atoms)
        spelled = any(atom[0] not in (_DIGITS, _JOINER) for _, atom in run)
        # "one million", "two thousand" are amounts; "dos mil diez" is a year
        composite = any(
            count > 1 and not (int(number) >= _THOUSAND_VALUE and int(number) % 100 == 0)
            for number, count in numbers
        )
        pair = len(numbers) == 2 and all(len(number) == 2 for number, _ in numbers)
        if spelled and (
            len(numbers) >= MIN_SPELLED_NUMBERS
            or composite
            or pair
            or _numbered(text, run[0][0].start(), run[-1][0].end(), numbers)
        ):
            pieces.append(text[done : run[0][0].start()])
            # A dial's numbers given in turn ("quinze, puis vingt-sept, puis huit": three or
            # four of one or two digits) keep commas between them, as a dial is written; any
            # other run is spaced digit groups, which the shape reader joins into one number.
            turns = (
                MIN_SPELLED_NUMBERS <= len(numbers) <= MAX_DIAL_NUMBERS
                and all(len(number) <= 2 for number, _ in numbers)
                and any(
                    any(ch.isalpha() for ch in text[a[0].end() : b[0].start()])
                    for a, b in itertools.pairwise(run)
                )
            )
            pieces.append((", " if turns else " ").join(number for number, _ in numbers))
            done = run[-1][0].end()
            index = words.index(run[-1][0]) + 1
        else:
            index += 1
    pieces.append(text[done:])
    return "".join(pieces)


# Words after which one number word is a house's, a box's or a thing's number ("at number
# nine", "au douze", "civico diciotto", "Nummer sieben", "box twelve").
_NUMBER_NOUNS = frozenset(
    {"number", "numero", "nummer", "hausnummer", "civico", "no", "nr", "n", "au", "box",
     "postfach", "apartado", "flat", "unit", "bp"}
)  # fmt: skip
_PREVIOUS_WORD = re.compile(r"([^\W\d_]+)\W*$")
# A street's name right before a number word, as German, Spanish and Italian write an address
# (the name, then the number): a German compound ending in a street type ("Schillerstraße",
# "Kastanienweg"), or a street type and up to three capitalised words ("Via Roma", "Calle
# Mayor", "Corso Vittorio Emanuele"); the number ends that part of the note ("Calle Mayor
# tres veces" counts).
_STREET_BEFORE = re.compile(
    r"(?:(?<![\w-])[A-Z][^\W\d_]*(?:strasse|straße|str\.?|weg|gasse|allee|platz|ring|damm"
    r"|ufer|chaussee|pfad|steig)"
    r"|(?<![\w-])(?:Via|Viale|Piazza|Corso|Largo|Vicolo|Calle|Avenida|Plaza|Paseo|Camino"
    r"|Carrer)(?:\s+(?:de|del|della|di|la|los|las)?\s*[A-Z][^\W\d_]*){1,3}),?\s+"
    # the number ends the street's part: punctuation, the end, or a postcode next
    r"(?P<word>[^\W\d_]+)(?=\s*(?:[,.;!?)]|$|\d{4,5}(?!\w)))"
)


def street_numbers(text: str) -> str:
    """One number word after a street's name written as digits ("Schillerstraße
    dreiundzwanzig" -> "Schillerstraße 23"), the house number the address readers expect;
    a number word anywhere else stays a word. Runs before the spelled-number reader, which
    would join the number to a postcode after it."""

    def house(match: re.Match[str]) -> str:
        atom = _number_atom(match["word"])
        if atom is None or atom[0] in (_JOINER, _DIGITS):
            return match.group()
        atoms = _number_parts(match["word"].lower()) if atom[0] == _WORDS else [atom]
        numbers = _cardinals(list(atoms))
        if len(numbers) != 1:
            return match.group()
        return match.group()[: match.start("word") - match.start()] + numbers[0][0]

    return _STREET_BEFORE.sub(house, text)


def _numbered(text: str, start: int, end: int, numbers: list[tuple[str, int]]) -> bool:
    """One number of ten or more said after a number's noun, or before a capitalised word
    (a street's name: "seventeen Harbour Row"); one plain number word stays a word."""
    if len(numbers) != 1:
        return False
    previous = _PREVIOUS_WORD.search(text[max(0, start - 24) : start])
    if previous is not None and previous.group(1).lower() in _NUMBER_NOUNS:
        return True
    following = text[end : end + 2].lstrip()
    return int(numbers[0][0]) >= 10 and following[:1].isupper()


def _cardinals(atoms: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The numbers a sequence of atoms says, each with the count of atoms it took: a new
    number starts where a word cannot continue the one before ("four one five" is three,
    "trois cent vingt et un" one, "nineteen eighty-seven" two, "siete millones
    cuatrocientos mil ciento doce" one). A comma ends a number."""
    numbers: list[tuple[str, int]] = []
    total = current = used = width = 0
    has: set[str] = set()  # what the number under way holds below a thousand: h, t, u
    previous, previous_value = "", 0

    def close() -> None:
        nonlocal total, current, used, has, width
        if used:
            value = str(total + current)
            numbers.append((value.zfill(width), used))
        total = current = used = width = 0
        has = set()

    for position, (kind, value) in enumerate(atoms):
        following = atoms[position + 1] if position + 1 < len(atoms) else ("", 0)
        if kind == _BREAK:
            close()
        elif kind == _DIGITS:
            close()
            current, used, width = value, 1, following[1] if following[0] == _BREAK else 0
        elif kind == _JOINER:
            pass
        elif kind == _UNIT and value == _FRENCH_FOUR and following == (_TEN, 20):
            # French "quatre-vingt(s)" is 80: the unit starts the ten.
            if has & {"t", "u"}:
                close()
            has.add("q")
            current += value
            used += 1
        elif kind == _TEN and "q" in has:
            current += _QUATRE_VINGT - _FRENCH_FOUR
            has = (has - {"q"}) | {"t"}
            used += 1
        elif kind in (_UNIT, _TEEN):
            dix = previous == _TEEN and previous_value == 10 and value in _DIX_UNITS
            french_teen = (
                kind == _TEEN
                and "t" in has
                and "u" not in has
                and current % 100 in _TENS_WITH_TEENS
            )
            if not dix and ("u" in has or (kind == _TEEN and "t" in has and not french_teen)):
                close()
            current += value
            has.add("u")
            used += 1
        elif kind == _TEN:
            german = previous == _JOINER and "u" in has and "t" not in has
            if ("t" in has or "u" in has) and not german:
                close()
            current += value
            has.add("t")
            used += 1
        elif kind == _HUNDRED:
            if "h" in has or current >= _HUNDRED_VALUE:
                close()
            current = (current or 1) * value if value == _HUNDRED_VALUE else current + value
            has = {"h"}
            used += 1
        else:  # a thousand or a million
            if total and total < value * (current or 1) and not current:
                close()
            total += (current or 1) * value
            current = 0
            has = set()
            used += 1
        previous, previous_value = kind, value
    close()
    return numbers


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


# --- values spelled letter by letter, digit by digit, in Roman numerals --------------------

# Roman numerals of one to ten, in capitals, three or more in a row ("IV VIII II I",
# "IV-VIII-II-I"): a code, read as its digits one space apart. One or two ("Rocky II",
# "Henry VIII") are titles; a run of "I" alone is the English pronoun.
_ROMAN_VALUES = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8,
                 "IX": 9, "X": 10}  # fmt: skip
_ROMAN_RUN = re.compile(
    r"(?<![\w.-])(?:IX|IV|V?I{1,3}|V|X)(?:[ .,-]{1,2}(?:IX|IV|V?I{1,3}|V|X)){2,}(?![\w-])"
)


def _roman_digits(text: str) -> str:
    def digits(match: re.Match[str]) -> str:
        numerals = re.findall(r"[IVX]+", match.group())
        if all(numeral == "I" for numeral in numerals):
            return match.group()
        return " ".join(str(_ROMAN_VALUES[numeral]) for numeral in numerals)

    return _ROMAN_RUN.sub(digits, text)


# "B as in Bravo", "b wie Berta": a letter, then a word that starts with it (the shape of
# spelling, whatever the word), read as the letter.
_AS_IN = re.compile(
    rf"(?<![\w'-])(?P<letter>[A-Za-z])\s+(?:{'|'.join(SPELLING_AS_IN)})\s+(?P<word>[A-Z](?:-?[a-z])+)"
    r"(?![\w'-])",
    re.I,
)
# A spelled value: three or more tokens in a row, each a spelling-alphabet word, a single
# capital letter, a digit or a digit word, with at least two letters among them and one
# spelling-alphabet word or digit ("alpha bravo seven seven tango", "Anton Berta sieben",
# "B, K, 7, 9" once "as in" is read): written as the value, glued ("AB77T").
_SPELLING_TOKEN = re.compile(r"x-ray|[^\W_]+", re.I)
_FILLERS = frozenset(word for phrase in THEN_WORDS for word in phrase.split())
_SPELLING_GAP = re.compile(rf"(?:[\s,;]+(?:(?:{'|'.join(_FILLERS)})[\s,;]+)*|\s*-\s*)", re.I)
MIN_SPELLED_TOKENS = 3


def _spelled_letters(text: str) -> str:
    text = _AS_IN.sub(
        lambda m: m["letter"].upper() if m["word"][0].lower() == m["letter"].lower() else m.group(),
        text,
    )
    tokens = list(_SPELLING_TOKEN.finditer(text))
    pieces: list[str] = []
    done = index = 0
    while index < len(tokens):
        run: list[tuple[re.Match[str], str, str]] = []
        for token in tokens[index:]:
            if run and token.group().lower() in _FILLERS and not token.group().isupper():
                continue
            if run and not _SPELLING_GAP.fullmatch(text[run[-1][0].end() : token.start()]):
                break
            read = _spelling_atom(token.group())
            if read is None:
                break
            run.append((token, *read))
        kinds = [kind for _, kind, _ in run]
        if "group" in kinds and "word" not in kinds:
            run = run[: kinds.index("group")]
            kinds = kinds[: len(run)]
        if run and kinds[0] == "group":
            # a number said as a whole is a spelled group only after spelled letters: before
            # them it is the sentence's own ("his 1965 Alfa Romeo": a year, then a maker)
            run, kinds = [], []
        kinds = ["digit" if kind == "group" else kind for kind in kinds]
        letters = kinds.count("word") + kinds.count("letter")
        if (
            len(run) >= MIN_SPELLED_TOKENS
            # one spelling-alphabet word before three digits or more is a code's letter too
            # ("bravo-two-two-seven")
            and (letters >= 2 or ("word" in kinds and kinds.count("digit") >= MIN_SPELLED_TOKENS))
            and ("digit" in kinds or len(run) > MIN_SPELLED_TOKENS)
            and ("word" in kinds or "digit" in kinds)
        ):
            pieces.append(text[done : run[0][0].start()])
            pieces.append("".join(value for _, _, value in run))
            done = run[-1][0].end()
            index = tokens.index(run[-1][0]) + 1
            continue
        index += 1
    pieces.append(text[done:])
    return "".join(pieces)


def _spelling_atom(token: str) -> tuple[str, str] | None:
    """What one token is in a spelled value: a spelling-alphabet word (its letter), a
    capital letter, a digit or a digit word."""
    lower = token.lower()
    if lower in _FOLDED_DIGITS and lower not in ("oh", "o"):
        return "digit", str(_FOLDED_DIGITS[lower])  # "otto" is 8 before it is an O
    if lower in SPELLING_ALPHABET_WORDS:
        return "word", lower[0].upper()
    if len(token) == 1 and token.isupper():
        return "letter", token
    if token.isdigit() and len(token) == 1:
        return "digit", token
    if token.isdigit() and len(token) <= MAX_SPELLED_GROUP_DIGITS:
        # a group said as a number after spelled letters ("Delta Tango, 901 46"); only with
        # a spelling-alphabet word in the run: "U-7342-N" is a plate's groups, kept apart
        return "group", token
    return None


MAX_SPELLED_GROUP_DIGITS = 4


# Digits given one at a time with a word or two between them ("4, then 8, then 2, then 1",
# "first 4, second 8, third 2, fourth 1", "7 puis 3 puis 5 puis 1"): four or more single
# digits so close together are keyed, and read as keyed digits one space apart.
_LONE_DIGIT = r"(?<![\w.,/:-])\d(?![\w]|[.,:/-]\d)"
_DICTATED_GAP = r"\s*[,;:]?\s*(?:[^\W\d_]{1,12}\s+){0,2}"
_DICTATED_RUN = re.compile(rf"{_LONE_DIGIT}(?:{_DICTATED_GAP}{_LONE_DIGIT}){{3,}}")


def _dictated_digits(text: str) -> str:
    return _DICTATED_RUN.sub(lambda m: " ".join(re.findall(r"\d", m.group())), text)


# A plate read out in its groups, commas between ("AB, 321, CD", "GT, 506, KL", "HH, AB,
# 1234"): written back the way it is printed ("AB-321-CD", "HH-AB 1234").
_SPOKEN_PLATE = re.compile(
    r"(?<![\w-])(?P<a>[A-Z]{1,3}),\s*(?P<b>\d{1,4}|[A-Z]{1,2}),\s*(?P<c>[A-Z]{1,3}|\d{1,4})(?![\w-])"
)


# A plate said with a word between its groups ("W minus 12345 X", "B Strich XY 123", "AB
# tiret 123 tiret CD", "W minus 4 7 3, 0 8, K" once its digits are read): the groups of
# capitals and digits, joined by a said dash or a comma, are written with dashes ("W-12345-X").
_PLATE_GROUP = r"(?:[A-Z]{1,3}|\d+(?:(?:\s+|\s*,\s*)\d+)*)"
_SAID_DASH = (
    r"(?:\s*,\s*|\s+)(?i:minus|dash|hyphen|tiret|trait d'union|moins|strich|bindestrich|guion"
    r"|menos|trattino|meno)(?:\s*,\s*|\s+)"
)
# Capitals read out one by one inside a plate's group ("K L" in "M, Strich, K L, 340").
_SPACED_CAPITALS = re.compile(r"(?<![\w-])([A-Z]) (?=[A-Z](?![\w-]))")
_SAID_PLATE = re.compile(
    rf"(?<![\w-]){_PLATE_GROUP}(?:(?:{_SAID_DASH}|\s*,\s*|\s+){_PLATE_GROUP}){{1,4}}(?![\w-])"
)
_SAID_DASH_WORD = re.compile(_SAID_DASH)


def _said_plates(text: str) -> str:
    def plate(match: re.Match[str]) -> str:
        raw = match.group()
        spoken = _SPACED_CAPITALS.sub(r"\1", _SAID_DASH_WORD.sub(" - ", raw))
        groups = re.findall(_PLATE_GROUP, spoken)
        joined = [re.sub(r"\D", "", g) if g[0].isdigit() else g for g in groups]
        if not (
            _SAID_DASH_WORD.search(raw)
            and any(g.isalpha() for g in joined)
            and any(g.isdigit() for g in joined)
        ):
            return raw
        return "-".join(joined)

    return _SAID_PLATE.sub(plate, text)


def _spoken_plates(text: str) -> str:
    def plate(match: re.Match[str]) -> str:
        a, b, c = match["a"], match["b"], match["c"]
        if b.isdigit() == c.isdigit():
            return match.group()
        return f"{a}-{b}-{c}" if b.isdigit() else f"{a}-{b} {c}"

    return _SPOKEN_PLATE.sub(plate, text)


# A digit said several times: "four times the nine" is 9999 ("quatre fois le neuf", "cuatro
# veces el nueve", "viermal die Neun", "quattro volte il sette").
_REPEAT = re.compile(
    r"(?<![\w-])(?P<count>[^\W_]+?)\s*(?:times|fois|veces|volte|mal)\s+"
    r"(?:(?:the|le|el|il|die|den|la)\s+)?(?P<digit>[^\W_]+)(?![\w])",
    re.I,
)
MAX_REPEAT = 8


def _repeated_digits(text: str) -> str:
    def digit(word: str) -> int | None:
        lower = word.lower()
        if lower.isdigit() and len(lower) == 1:
            return int(lower)
        return _FOLDED_DIGITS.get(lower) if lower not in ("oh", "o") else None

    def repeated(match: re.Match[str]) -> str:
        count, value = digit(match["count"]), digit(match["digit"])
        if count is None or value is None or not 2 <= count <= MAX_REPEAT:
            return match.group()
        return str(value) * count

    return _REPEAT.sub(repeated, text)


# A handle spelled symbol by symbol: "arroba, luego chef, guion bajo, malagueño", "at zeichen,
# backstube, unterstrich, hamburg", "chiocciola, pasta, trattino basso, della": the symbols'
# names become the symbols and the parts are glued ("@chef_malagueno"). A bare "at" is
# English for a place and stays a word.
_AT_SIGN_WORDS = r"at[ -]?zeichen|at-sign|klammer ?affe|chiocciola|arroba|arobase"
_UNDERSCORE_WORDS = r"guion bajo|unterstrich|trattino basso|tiret bas|underscore"
_PART_GAP = rf"(?:\s*,\s*|\s+)(?:(?:{'|'.join(THEN_WORDS)})\s+)?"
_UNDERSCORED = re.compile(
    rf"(?P<left>[^\W_]+){_PART_GAP}(?:{_UNDERSCORE_WORDS}){_PART_GAP}(?P<right>[^\W_]+)", re.I
)
_AT_SIGN = re.compile(rf"(?<![\w-])(?:{_AT_SIGN_WORDS}){_PART_GAP}(?P<name>[^\W][\w.]*)", re.I)


def _spelled_symbols(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = _UNDERSCORED.sub(lambda m: f"{m['left']}_{m['right']}", text, count=1)
    return _AT_SIGN.sub(lambda m: f"@{m['name']}", text)


# A keypad's keys said by name around the digits: "star, six, eight, one, hash" is "*681#".
_STAR = r"star|asterisk|etoile|asterisque|asterisco|estrella|stern|sternchen"
_HASH = r"hash|pound|diese|croisillon|almohadilla|cancelletto|raute"
_KEYPAD_KEYS = re.compile(
    # the keys joined like the digits: "star-six-six-zero-one-hash", "2-5-8-0-Raute"
    rf"(?<![\w-])(?:(?P<star>{_STAR})(?:[\s,]+|-))?(?P<digits>\d(?:[\s,-]+\d){{2,7}})"
    rf"(?:(?:[\s,]+|-)(?:then\s+|puis\s+|dann\s+|poi\s+|luego\s+)?(?P<hash>{_HASH}))(?![\w-])",
    re.I,
)


def _keypad_keys(text: str) -> str:
    def keys(match: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", match["digits"])
        return f"{'*' if match['star'] else ''}{digits}#"

    return _KEYPAD_KEYS.sub(keys, text)


# A decimal said with its point: "forty-six point two" ("46 point two" once the numbers are
# read), "siebenundvierzig Komma drei", "quarante-six virgule deux": "46.2".
_DECIMAL = re.compile(
    r"(?<![\w.])(?P<whole>\d{1,3}|[^\W\d_]+)\s+(?:point|komma|virgule|virgola|coma|punto)\s+"
    r"(?P<part>\d{1,6}|[^\W\d_]+)(?![\w])",
    re.I,
)


def _decimals(text: str) -> str:
    def decimal(match: re.Match[str]) -> str:
        whole = match["whole"]
        if not whole.isdigit():
            atom = _simple_atom(whole.lower())
            if atom is None or atom[0] not in (_UNIT, _TEEN, _TEN) or whole.lower() in ("oh", "o"):
                return match.group()
            whole = str(atom[1])
        part = match["part"].lower()
        if not part.isdigit():
            if part not in _FOLDED_DIGITS or part in ("oh", "o"):
                return match.group()
            part = str(_FOLDED_DIGITS[part])
        return f"{whole}.{part}"

    return _DECIMAL.sub(decimal, text)


# --- values assembled in code -------------------------------------------------------------

# Quoted strings joined by an operator of concatenation ("+", ".", "..", "||", "&", "~"):
# the value is the string they make.
_JOINED_STRINGS = re.compile(
    r"""(?P<q>["'])(?P<left>[^"'\n]{0,80})(?P=q)\s*(?:\+|\.\.?|\|\||&|~)\s*"""
    r"""(?P<q2>["'])(?P<right>[^"'\n]{0,80})(?P=q2)"""
)


def _joined_strings(text: str) -> str:
    if not any(operator in text for operator in "+.|&~"):
        return text
    previous = None
    while previous != text:
        previous = text
        text = _JOINED_STRINGS.sub(lambda m: f"{m['q']}{m['left']}{m['right']}{m['q']}", text)
    return text


# --- an IPv4 address said in words -------------------------------------------------------

# Four groups of numbers said in words or digits, joined by a spoken dot: "one nine two dot
# one six eight dot one dot twenty", "eighty-two punto ciento doce punto cuatro punto nueve".
# A group is its numbers one after the other ("one twelve" is 112, "one nine two" 192).
_IP_WORD = r"[^\W_]+"
_IP_DOT = rf"\s+(?i:{_DOT_WORDS})\s+"
_IP_GROUP = rf"{_IP_WORD}(?:[ -]{_IP_WORD}){{0,3}}"
_SAID_IP = re.compile(
    rf"(?<![\w.-])(?P<first>{_IP_WORD}(?:[ -]{_IP_WORD}){{0,5}}){_IP_DOT}(?P<second>{_IP_GROUP})"
    rf"{_IP_DOT}(?P<third>{_IP_GROUP}){_IP_DOT}(?P<fourth>{_IP_GROUP})(?![\w-])"
)
MAX_OCTET = 255


def _said_ip(text: str) -> str:
    if not _SPELLED_DOT.search(text):
        return text

    def address(match: re.Match[str]) -> str:
        # The first group's words run back from the dot as long as they are numbers, the
        # last one's on from it.
        before = list(_NUMBER_WORD.finditer(match["first"]))
        count = 0
        while count < len(before) and _number_atom(before[-1 - count].group()) is not None:
            count += 1
        after = list(_NUMBER_WORD.finditer(match["fourth"]))
        taken = 0
        while taken < len(after) and _number_atom(after[taken].group()) is not None:
            taken += 1
        while taken and _number_atom(after[taken - 1].group()) == (_JOINER, 0):
            taken -= 1
        while count and _number_atom(before[-count].group()) == (_JOINER, 0):
            count -= 1
        if not count or not taken:
            return match.group()
        groups = (
            [word.group() for word in before[-count:]],
            _NUMBER_WORD.findall(match["second"]),
            _NUMBER_WORD.findall(match["third"]),
            [word.group() for word in after[:taken]],
        )
        octets = [_octet(words) for words in groups]
        if any(octet is None for octet in octets):
            return match.group()
        head = match["first"][: before[-count].start()]
        tail = match["fourth"][after[taken - 1].end() :]
        return f"{head}{'.'.join(str(octet) for octet in octets)}{tail}"

    return _SAID_IP.sub(address, text)


def _octet(words: list[str]) -> str | None:
    """The number a group of an address says, or None when it is no number up to 255."""
    if not words or not words[0]:
        return None
    atoms: list[tuple[str, int]] = []
    for word in words:
        atom = _number_atom(word)
        if atom is None:
            return None
        if atom[0] == _DIGITS:
            atoms.extend(((_DIGITS, int(word)), (_BREAK, len(word))))
        elif atom[0] == _WORDS:
            atoms.extend(_number_parts(word.lower()))
        else:
            atoms.append(atom)
    value = "".join(number for number, _ in _cardinals(atoms))
    return value if value.isdigit() and int(value) <= MAX_OCTET and len(value) <= 3 else None
