"""Identifier values by their shape: what a number or a code looks like, not the words around it.

Runs on the normalised note (:mod:`memory_service.core.privacy.normalise`). Fails closed: a
long digit run or a mixed letter-digit code is an identifier *unless* its shape is one of
the harmless shapes below, so a format nobody listed is refused, not let through.

Identifiers (entity type reported):

- ``CREDIT_CARD``: 12 to 19 digits, Luhn-valid, whatever the prefix and the separators;
- ``IBAN_CODE``: country letters, two check digits and 11 to 30 letters or digits, mod-97;
  or, whatever its check digits, a registry country's letters and that country's length;
- ``EMAIL_ADDRESS``, ``SOCIAL_HANDLE``, ``IP_ADDRESS``, ``MAC_ADDRESS``, ``GPS_COORDINATES``,
  ``LICENSE_PLATE``: values with a syntax of their own, read by
  :mod:`memory_service.core.privacy.locators`;
- ``DATE_OF_BIRTH``: a full date (day, month and year) after a birth word in any of the
  five languages ("born on 3 March 1984", "Geburtsdatum 22.11.1979");
- ``ID_NUMBER``: a run of 7 or more digits or a mixed letter-digit code without a harmless
  shape; or, whatever its shape, a code of 4 or more digits after an identifier cue (phone,
  customer or member number, loyalty, frequent flyer, passport, tax id...); or digits given
  in two or more quoted parts in a note with such a cue, 4 or more in all ("Account no.
  came in two goes: '8850 33', then '71 09'").

Harmless shapes (a run or code with one of them is not an identifier):

- a date (``d/m/y``, ``y-m-d``, ``d.m.y`` with a real month and day, or an ISO 8601
  timestamp), a year range (``2019-2023``) or a list of years; a clock time (``14:30``,
  ``9am``, ``14h30``);
- a price or a quantity: a unit or currency right before or after (``1 299 €``, ``16GB``,
  ``125000 points``); digits grouped by threes without a unit are not enough, since phone
  numbers are written that way too ("330 188 912 275");
- a version (``3.11.4``, ``v2.0.1``, ``10.15``, ``4.19.112``): a group of at most 4 digits,
  then dotted groups of at most 3, 8 digits in all, at most one group of 3 digits
  ("87.294.569", "632.640.62" are numbers grouped by threes, not versions); or groups of one
  or two digits without a leading zero, then a build number of 3 to 5 digits
  (``0.9.3.1182``, ``10.0.19045``; a phone has a group of three or a leading zero before its
  last: "1.800.555.1234", "06.12.34.5678");
- a video mode (``1080p60``), opening hours (``8h-16h30``, ``9am-5pm``);
- a company's number in its trade register, after the register's name, when the note names
  the company's legal form ("Ltd ... Companies House ... 08123456", "SARL ... RCS de Lyon
  ... 512 345 678"); without a legal form (a sole trader's) it is judged like any number;
- a seat (``12A``, ``A12``), a flight number (``AF1234``, ``U2 1234``: a two-character
  airline code and at most 4 digits), an ordinal (``21st``, ``3e``, ``1er``);
- a product model: at most 5 digits, at most 10 letters and digits, at most 4 alternating
  letter/digit groups, no run of 5 capitals in a token of 8 or more ("AAUQH5PHZ" is a
  reference) unless it is one word and a series number of one or two digits
  ("ZENBOOK14") (``WH-1000XM5``, ``RTX4090``, ``A320neo``, ``SM-G991B``), or any
  code of at most 6 letters and digits (``A7III``, ``B2B``, ``k0 k1``);
- any number after a harmless noun (``flight``, ``seat``, ``room``, ``version``, ``model``);
  after a word for a year (``in``, ``since``, ``seit``, ``born``) only a year, alone or with
  a short suffix ("in 4152 4887 1344 5952" is a card in four groups, not a year).

A code a harmless shape lets through can still be caught by the library detector behind
:class:`memory_service.core.ports.IdentifierDetector` (national ids with their checksums).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from memory_service.core.privacy.birthdates import birthdate_kinds
from memory_service.core.privacy.labels import labelled_values
from memory_service.core.privacy.locators import locator_types, without_emails
from memory_service.core.privacy.plates import VEHICLE_SPEC
from memory_service.core.privacy.vocabulary import (
    HARMLESS_NUMBER_NOUNS,
    IDENTIFIER_ACRONYMS,
    IDENTIFIER_CUES,
    UNITS,
    YEAR_WORDS,
)

LONG_DIGIT_RUN = 7
CARD_DIGITS = range(12, 20)
MODEL_MAX_DIGITS = 5
MODEL_MAX_CHARS = 10
MODEL_MAX_GROUPS = 4
SHORT_CODE_CHARS = 6
CUED_MIN_DIGITS = 4
MAX_VERSION_DIGITS = 8
MAX_QUANTITY_DIGITS = 6

_UNITS = frozenset(UNITS)
_HARMLESS_NOUNS = frozenset(HARMLESS_NUMBER_NOUNS)
_YEAR_WORDS = frozenset(YEAR_WORDS)
# A year and a suffix of two digits at most ("1998-99", "2020 Q3").
YEAR_LED_DIGITS = 6
_IDENTIFIER_CUE = re.compile(
    rf"(?<![\w])(?:(?i:{'|'.join(IDENTIFIER_CUES)})|{'|'.join(IDENTIFIER_ACRONYMS)})"
    # A cue ending in a letter needs a word edge after it; one ending in "#" or "." does not.
    r"(?:(?<=\W)|(?!\w))\s*(?i:is|was|est|es|ist|lautet|e|:|#|=)?\s*",
)
# A token of a code: letters and digits, joined inside by - . / (one at a time).
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-./_][A-Za-z0-9]+)*")
_GROUPS = re.compile(r"[A-Za-z]+|\d+")
# Its first token may join letter groups by hyphens or "#" ("carte client AH-FR-20931",
# "FERRO#IT-30921"), and its letters may be of any script ("KM-Δ-5530").
_CUED_CODE = re.compile(r"[(+#]?[^\W_]+(?:[-#][^\W_]+)*(?:[ .\-/()]{1,3}\d[^\W_]*){0,8}")
_YEAR = re.compile(r"(?:19|20)\d{2}")
# An ISO 8601 date and the hour of its time ("2024-12-01T10", then ":00:00Z").
_ISO_DATE_HOUR = re.compile(r"(?:19|20)\d{2}-\d{2}-\d{2}T\d{2}")
# What may stand between two groups of one value: a space, one of - . /, parentheses.
_GAP = re.compile(r"\)?\s?[-./]?\s?\(?|\)\s?\(?")

_DATE = re.compile(
    r"(?:(?P<d>\d{1,2})[./-](?P<m>\d{1,2})[./-](?:\d{4}|\d{2})"
    r"|(?:19|20)\d{2}[./-](?P<m2>\d{1,2})[./-](?P<d2>\d{1,2}))"
)
_YEAR_RANGE = re.compile(r"(?:19|20)\d{2}[-/](?:(?:19|20)\d{2}|\d{2})")
_TIME = re.compile(
    r"\d{1,2}(?::\d{2}){1,2}|\d{1,2}(?:[.:]\d{2})?(?:am|pm|h|uhr)|\d{1,2}h\d{2}", re.I
)
# Opening hours: two clock times with letters, joined by a dash ("8h-16h30", "9am-5pm").
_TIME_RANGE = re.compile(r"\d{1,2}(?:h\d{2}|h|am|pm|uhr)-\d{1,2}(?:h\d{2}|h|am|pm|uhr)", re.I)
_VERSION = re.compile(r"v?\d{1,4}(?:\.\d{1,3}){1,3}(?:[-+.]?[a-z]+\d*)?", re.I)
# A version with its build number last: groups of one or two digits without a leading zero
# ("0" alone is one), then three to five digits ("0.9.3.1182", "10.0.19045"). A phone written
# with dots has a group of three before its last ("1.800.555.1234") or a leading zero
# ("06.12.34.5678").
_BUILD_VERSION = re.compile(r"v?(?:0|[1-9]\d?)(?:\.(?:0|[1-9]\d?)){1,3}\.[1-9]\d{2,4}", re.I)
# A video mode: a standard height, "p" or "i", and a frame rate ("1080p60", "2160p", "720p30").
_VIDEO_MODE = re.compile(r"(?:480|576|720|1080|1440|2160|4320)[pi](?:\d{2,3})?", re.I)
# Sizes and specs with a syntax of their own: dimensions ("160x200", "80x28x202", "3440x1440"),
# a hexadecimal error or status code of at most 32 bits ("0x80070005"; a wallet's 40 hex digits
# are longer); a vehicle's specs (:data:`VEHICLE_SPEC`).
_DIMENSIONS = re.compile(
    r"\d{1,4}(?:[.,]\d{1,2})?(?:\s?[x\u00d7]\s?\d{1,4}(?:[.,]\d{1,2})?){1,2}", re.I
)
_HEX_CODE = re.compile(r"0x[0-9a-f]{1,8}", re.I)
_SPECS = (_DIMENSIONS, _HEX_CODE, VEHICLE_SPEC)
_ORDINAL = re.compile(r"\d{1,4}(?:st|nd|rd|th|e|er|eme|re|o|a|º|ª|te|ter|ten)", re.I)
_SEAT = re.compile(r"\d{1,2}[A-K]|[A-K]\d{1,2}", re.I)
_FLIGHT = re.compile(r"(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\d{1,4}[A-Z]?", re.I)
_UUID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", re.IGNORECASE
)
# Thousands with one separator throughout: "1 200 000", "1.200.000", "1,200,000", "1'200'000".
_THOUSANDS = re.compile(r"\d{1,3}(?P<sep>[ .,'\u202f])\d{3}(?:(?P=sep)\d{3})*")
# A letter group that is a word ("Hybrid4", "A320neo", "Pixel8Pro"): a product model,
# not an identifier, when its digits are few.
_WORD_GROUP = re.compile(r"[A-Za-z]?[a-z]{3,}")
_CAPITAL_RUN = re.compile(r"[A-Z]{5,}")
CAPITAL_CODE_CHARS = 8
# A name in capitals with a series number of one or two digits ("ZENBOOK14", "IPHONE15"):
# one letter group, then one digit group; a reference mixes more groups ("AAUQH5PHZ").
_SERIES_NAME = re.compile(r"[A-Z]{5,}\d{1,2}")
_NUMBER_WITH_UNIT = re.compile(r"(\d+(?:[.,]\d+)?)([a-z%€$£¥]+)", re.I)


@dataclass(frozen=True)
class _Run:
    """A candidate value: consecutive code tokens of the text, and its neighbours."""

    raw: str
    compact: str
    before: str
    after: str
    start: int = -1

    @property
    def digits(self) -> int:
        return sum(ch.isdigit() for ch in self.compact)

    @property
    def letters(self) -> int:
        return sum(ch.isalpha() for ch in self.compact)


def identifier_types(text: str) -> frozenset[str]:
    """Entity types of the identifiers in the normalised ``text``; never the values."""
    found = set(locator_types(text))
    found |= birthdate_kinds(text)
    registers = _named_code_spans(text)
    for run in _runs(without_emails(text)):
        kind = None if _inside(run.start, registers) else _classify(run)
        if kind:
            found.add(kind)
    if any(_contract_code(match["code"]) for match in _CONTRACT_CODE.finditer(text)):
        found.add("ID_NUMBER")
    if _value_in_parts(text) or _dictated_after_cue(text) or _told_in_parts(text):
        found.add("ID_NUMBER")
    shaped = _told_by_shape(text)
    if shaped:
        found.add(shaped)
    for start in _cued_spans(text):
        if _inside(start, registers):
            continue
        kind = _cued_value(text[start:])
        if kind:
            found.add(kind)
    if any(_partial_value(match) for match in _PARTIAL_CUE.finditer(text)) or any(
        _partial_after_noun(match) for match in _PARTIAL_VERB.finditer(text)
    ):
        found.add("ID_NUMBER")
    return frozenset(found)


# Part of a number, given as its end or its start ("the card ending in 4821", "the last four
# are 9 9 1 2", "Su DNI termina en 4 4 0 1 Z", "la tessera che finisce con 8 8 7 6 1", "le
# passeport se termine par 87 44"): a part of an identifier still points at one.
_PARTIAL_CUE = re.compile(
    r"(?<![\w-])(?:end(?:s|ing)? (?:in|with)|last (?:four|4|five|5|six|6|digits)(?: digits)?"
    r"(?: are| is|:)?|start(?:s|ing)? with|begins? with"
    r"|se termine par|finit par|termine par|commence par|derniers chiffres"
    r"|termina(?:n)? (?:en|con|in|por)|acaba(?:n)? en|empieza(?:n)? (?:por|con)"
    r"|ultimos (?:cuatro|4) (?:digitos|numeros)"
    r"|endet (?:auf|mit)|enden (?:auf|mit)|beginnt mit|letzten (?:vier|4) (?:ziffern|stellen)"
    r"|finisce (?:con|in|per)|termina con|inizia (?:con|per)|ultime (?:quattro|4) cifre)"
    r"(?![\w-])",
    re.I,
)
# "starts" or "ends" with no "with", in the clause of an account's or a card's noun ("Refund
# IBAN starts GB29 NWBK and ends 9268 19").
_PARTIAL_VERB = re.compile(
    r"(?<![\w-])(?i:starts|begins|ends|commence|finit|empieza|acaba|termina|beginnt|endet"
    r"|inizia|finisce)(?![\w-])"
)
_PARTIAL_NOUN = re.compile(
    r"(?<![\w-])(?i:iban|card|account|konto|karte|compte|carte|cuenta|tarjeta|conto|carta)"
    r"(?![\w-])[^.;!?\n]{0,60}$"
)
PARTIAL_NOUN_REACH = 60


def _partial_after_noun(verb: re.Match[str]) -> bool:
    """A part of a number after "starts" or "ends" in the clause of an account's or a card's
    noun, with no "with" ("Refund IBAN starts GB29 NWBK and ends 9268 19")."""
    before = verb.string[max(0, verb.start() - PARTIAL_NOUN_REACH) : verb.start()]
    return _PARTIAL_NOUN.search(before) is not None and _partial_value(verb)


_PARTIAL_VALUE = re.compile(
    r"[\s:,]*(?:(?:the|la|le|el|il|die|der|un|una|an|a|par|mit)\s+)?"
    r"(?P<value>(?:[A-Za-z]{1,3}[ -]?)?\d(?:[ .-]?\d){2,}(?:[ -]?[A-Za-z]{1,3}(?![\w]))?)"
)


def _partial_value(cue: re.Match[str]) -> bool:
    """Three digits or more (separators allowed) right after a partial cue, not a year
    alone ("ends in 2026" is a date)."""
    match = _PARTIAL_VALUE.match(cue.string, cue.end())
    if match is None:
        return False
    value = match["value"]
    digits = re.sub(r"\D", "", value)
    if _YEAR.fullmatch(value.strip()) or len(digits) < MIN_PARTIAL_DIGITS:
        return False
    if value.isdigit():
        # a bare number before a noun counts something ("starts with 1000 runners")
        return re.match(r"\s+[^\W\d_]{3,}", cue.string[match.end() :]) is None
    return True


MIN_PARTIAL_DIGITS = 4


# A contract's or a policy's reference straight after its word ("contrat 0AWC0KKGL",
# "póliza 004QEA8RJ", "Vertrag AAVK53YQ8"): fewer digits than a cued number needs, but the
# shape of a reference, not of a word.
_CONTRACT_CODE = re.compile(
    r"(?<![\w-])(?i:contracts?|contrats?|contratos?|contratti|contratto|vertrag|policy|police"
    r"|polizas?|polizza|versicherungsschein"
    # a booking's or a reservation's reference: "Booking reference ... is K7QZ2M"
    r"|(?:booking|reservation|confirmation) (?:reference|ref\.?|code|number)"
    r"|buchungs(?:nummer|code|referenz)|numero de (?:reserva|reservation|dossier)"
    r"|(?:codigo|referencia|localizador) de (?:la )?reserva|localizador"
    r"|codice (?:di |della )?prenotazione|reference (?:de )?(?:reservation|dossier))"
    r"(?:\s+(?i:number|no\.?|nr\.?|numero|n°|#))?"
    # a complement of up to four words ("for the removal")
    r"(?:\s+(?i:for|of|de|du|del|della|fur|pour|para|per)(?:\s+[^\s.,;:!?]+){1,3})?"
    r"\s*[:#=]?\s*(?:(?i:is|est|es|ist|lautet|e)\s+)?(?P<code>[A-Za-z0-9][A-Za-z0-9-]{5,19})"
    r"(?![\w-])"
)
CONTRACT_CODE_CAPITALS = 7


def _contract_code(code: str) -> bool:
    """A reference: a digit among letters, or seven capitals or more ("AAGPGFLFM")."""
    compact = code.replace("-", "")
    letters = sum(ch.isalpha() for ch in compact)
    if letters == 0 or _SERIES_NAME.fullmatch(compact):
        return False  # digits alone are judged by the cued-number rule; "COVID19" is a name
    if any(_WORD_GROUP.fullmatch(group) for group in _GROUPS.findall(code)):
        return False  # "24-Monats-Bindung" holds words
    return any(ch.isdigit() for ch in compact) or (
        compact.isupper() and len(compact) >= CONTRACT_CODE_CAPITALS
    )


# A label made of parts with a word among them ("VT-JEAN-88", "KIT-BASE-2024"): a seller's
# or a shop's reference, not a national id (whose letters are initials or a check letter).
_WORDED_LABEL = re.compile(r"(?:^|-)(?=[A-Z]*[AEIOU])[A-Z]{4,}(?:-|$)")


def candidate_codes(text: str) -> tuple[str, ...]:
    """Codes of 8 to 24 letters and digits (separators removed) that the shape rules let
    through as harmless but are not plainly a date, a time, a version, a price or a
    quantity ("a product model"): what a national-id checksum is tried on as a second
    opinion. Codes the shape rules refuse already are not tried: the note is refused."""
    codes = []
    registers = _named_code_spans(text)
    for run in _runs(without_emails(text)):
        if (
            not _inside(run.start, registers)
            and 8 <= len(run.compact) <= 24
            and run.digits >= 2
            and _classify(run) is None
            and not _plain_shape(run)
            and not _after_harmless_noun(run)
            and not isbn13_valid(run.compact)
            and not _WORDED_LABEL.search(run.raw)
            and not _after_maker_name(run)
            and not any(shape.fullmatch(run.raw) for shape in _SPECS)
        ):
            codes.append(run.compact)
    return tuple(dict.fromkeys(codes))


def harmless_number_at(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` (found by another reader, such as a phone
    pattern) has a harmless shape here: a price or a quantity with its unit, a date, a
    version, a number after a harmless noun ("timestamp", "flight")."""
    raw = text[start:end]
    run = _Run(
        raw=raw,
        compact=re.sub(r"[^A-Za-z0-9]", "", raw),
        before=text[max(0, start - 40) : start],
        after=text[end : end + 24],
        start=start,
    )
    return _harmless_number(run) or _inside(start, _named_code_spans(text))


# A company's number in its trade register, after the register's name, in a note that names
# the company by its legal form ("Hargreaves Joinery Ltd ... registered at Companies House
# under number 08123456", "Dupont SARL ... RCS de Lyon sous le n° 512 345 678", "Rossi
# S.r.l. ... Registro Imprese di Torino, REA TO-1234567"): a legal person's public number,
# not a person's. Without a legal form (a sole trader's SIREN is a person's) it is judged
# like any number.
_REGISTER_CUE = re.compile(
    r"(?<![\w])(?:(?i:companies house|company (?:number|registration(?: number)?|no\.?)"
    r"|registre du commerce(?: et des societes)?|registro (?:delle )?imprese|registro mercantil"
    r"|handelsregister|amtsgericht|kamer van koophandel)|RCS|SIREN|SIRET|REA|HRB|HRA|KvK|CRO)"
    r"(?![\w])"
)
_LEGAL_FORM = re.compile(
    r"(?<![\w.])(?:Ltd|LTD|Limited|PLC|plc|LLP|LLC|Inc|Corp|GmbH|AG|KG|UG|SARL|SAS|SASU|SA|EURL"
    r"|SNC|S\.r\.l|S\.R\.L|Srl|SRL|S\.p\.A|SpA|S\.L|S\.A|BV|B\.V|NV|N\.V)(?![\w])"
)
_REGISTER_REACH = 60
_SENTENCE_END = re.compile(r"[.;!?](?=\s|$)")


def company_register_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where a company's register number may stand: after a register's name, to the end of
    its sentence (at most 60 characters), in a note that names a company's legal form."""
    if _LEGAL_FORM.search(text) is None:
        return ()
    spans = []
    for cue in _REGISTER_CUE.finditer(text):
        end = min(len(text), cue.end() + _REGISTER_REACH)
        stop = _SENTENCE_END.search(text, cue.end(), end)
        spans.append((cue.end(), stop.start() if stop else end))
    return tuple(spans)


# A goods heading of the Harmonized System after the nomenclature's name ("HS 0901.21", "code
# SH 2204.21", "Zolltarifnummer 8483 40", "partida arancelaria 0901.11", "HTS 8471.30.0100"):
# a chapter 01 to 97 (77 is reserved), then a heading, then subheading pairs, dotted or
# spaced. It names a class of goods, never a person. A number after the name that fails the
# chapter check is judged like any number.
_TARIFF_CUE = re.compile(
    r"(?<![\w])(?:(?:HS|SH|HTS|TARIC|NC|CN|KN|TN)(?:[ -](?i:codes?|headings?|no\.?|nr\.?))?"
    r"|(?i:tariff (?:codes?|numbers?|headings?|classifications?)|customs (?:tariff )?codes?"
    r"|commodity codes?|zolltarif(?:nummer|nr\.?)?|warennummer|partida arancelaria"
    r"|codigo arancelario|nomenclature douaniere|code douanier|position tarifaire"
    r"|voce doganale|codice doganale|nomenclatura combinata|codice taric))"
    r"(?![\w])\s*[:#]?\s*(?:(?i:is|est|es|ist|lautet|e)\s+)?"
    r"(?P<code>(?P<chapter>\d\d)\d\d(?:[. ]?\d\d){0,3})(?![\w]|[.,]\d)"
)
HS_CHAPTERS = range(1, 98)
HS_RESERVED_CHAPTER = 77


def tariff_code_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where a Harmonized System code stands after its nomenclature's name (see
    :data:`_TARIFF_CUE`): from the name to the code's end."""
    return tuple(
        (match.start(), match.end())
        for match in _TARIFF_CUE.finditer(text)
        if int(match["chapter"]) in HS_CHAPTERS and int(match["chapter"]) != HS_RESERVED_CHAPTER
    )


def _named_code_spans(text: str) -> tuple[tuple[int, int], ...]:
    """A company's register number or a goods heading: codes of things, not of people."""
    return company_register_spans(text) + tariff_code_spans(text)


def _inside(position: int, spans: tuple[tuple[int, int], ...]) -> bool:
    return any(start <= position < end for start, end in spans)


# A number given in parts, quoted, after an identifier's word ("Account no. came in two
# goes. First '8850 33', then a minute later '71 09'"): the quoted digit groups of the note
# are one value, refused from four digits in all, as a cued number is.
_QUOTED_DIGITS = re.compile(
    r"(?:(?<=[\s(:,])|^)['\"\u2018\u201c\u00ab\u201e]\s*(?P<digits>\d[\d .\-/]*\d|\d)\s*"
    r"['\"\u2019\u201d\u00bb\u201c](?![\w])"
)


_DOCUMENT_NOUNS = (
    r"passports?|social security|national insurance|accounts?|acct|polic(?:y|ies)|licen[cs]es?"
    r"|id cards?|cards?|membership|loyalty|iban|compte|cuenta|conto|konto|carte|tarjeta|carta"
    r"|karte|polizza|poliza|police|securite sociale|seguridad social|sozialversicherung"
    r"|previdenza"
)
# An identifier's own word (the generic "number" left out), then, later in the note, digits
# read out one by one ("Passport ends in echo four, preceded by five digits ...: one one eight
# three zero", once normalised "1 1 8 3 0"): a person's number dictated, whatever lies between.
_OWN_CUE = re.compile(
    rf"(?<![\w])(?:(?i:{'|'.join(IDENTIFIER_CUES[:-1])}|{_DOCUMENT_NOUNS})"
    rf"|{'|'.join(IDENTIFIER_ACRONYMS)})(?:(?<=\W)|(?!\w))"
)
_DICTATED = re.compile(r"(?<![\w.,-])\d(?:[ -]\d){3,}(?![\w]|[.,-]\d)")
_DICTATED_REACH = 200


def _dictated_after_cue(text: str) -> bool:
    for cue in _OWN_CUE.finditer(text):
        before = re.findall(r"[a-z]+", text[max(0, cue.start() - 24) : cue.start()].lower())
        if before and before[-1] in _HARMLESS_NOUNS:
            continue
        if _DICTATED.search(text, cue.end(), cue.end() + _DICTATED_REACH):
            return True
    return False


def _value_in_parts(text: str) -> bool:
    quoted = [match["digits"] for match in _QUOTED_DIGITS.finditer(text)]
    if len(quoted) < 2 or not _IDENTIFIER_CUE.search(text):
        return False
    digits = sum(ch.isdigit() for part in quoted for ch in part)
    return digits >= CUED_MIN_DIGITS and not all(_YEAR.fullmatch(part) for part in quoted)


# A code told in parts with "then" between them ("EN, then 2019, then 0443", "AB, then 12,
# then CDE"): capitals or digits, three parts or more, in the sentence of an identifier's or
# a plate's word.
_PART = r"(?:[A-Z]{1,4}|\d{1,6})"
_TOLD_PARTS = re.compile(
    rf"(?<![\w-]){_PART}(?:\s*,?\s*(?i:and then|then|puis|ensuite|dann|poi|luego|despues"
    r"|(?:and\s+)?(?:ends?|finish(?:es)?)(?:\s+(?:in|with))?|followed\s+by)"
    rf"\s+{_PART}){{2,}}(?![\w-])"
)
_PLATE_WORD = re.compile(
    r"(?<![\w-])(?i:plates?|registration|immatriculation|plaque|matricula|kennzeichen"
    r"|nummernschild|targa)(?![\w-])"
)
MIN_PARTS_CHARS = 5


def _told_in_parts(text: str) -> bool:
    for sentence in re.finditer(r"[^.;!?\n]+", text):
        clause = sentence.group()
        for told in _TOLD_PARTS.finditer(clause):
            parts = re.findall(
                _PART,
                re.sub(
                    r"(?i)\b(?:and|then|puis|ensuite|dann|poi|luego"
                    r"|despues|ends?|finish(?:es)?|in|with|followed|by)\b",
                    " ",
                    told.group(),
                ),
            )
            before = clause[: told.start()]
            if (
                sum(len(part) for part in parts) >= MIN_PARTS_CHARS
                and any(part.isdigit() for part in parts)
                and not all(_YEAR.fullmatch(part) for part in parts if part.isdigit())
                and (_IDENTIFIER_CUE.search(before) or _PLATE_WORD.search(before))
            ):
                return True
    return False


# Numbers told by their shape rather than by a cue (issue 10, round 3):
# - a card's number in comma-separated groups ("the Amex 3782, 822463, 10005"): two to five
#   groups of three to six digits, 13 to 19 digits in all, a card's first digit (3 to 6) and a
#   valid Luhn checksum;
# - a count of digits, then the digits ("wants the seven digits 4410093"): told as a value;
# - a UK National Insurance number in any case, its pairs spaced ("qq 12 34 56 c").
_COMMA_GROUPS = re.compile(r"(?<![\w.,])\d{3,6}(?:,\s?\d{3,6}){1,4}(?![\w]|[.,]\d)")
_DIGIT_COUNT_WORDS = (
    r"\d{1,2}|four|five|six|seven|eight|nine|ten|eleven|twelve|quatre|cinq|six|sept|huit|neuf"
    r"|dix|cuatro|cinco|seis|siete|ocho|nueve|diez|vier|funf|sechs|sieben|acht|neun|zehn"
    r"|quattro|cinque|sei|sette|otto|nove|dieci"
)
_COUNTED_DIGITS = re.compile(
    rf"(?<![\w])(?i:{_DIGIT_COUNT_WORDS})[\s-](?i:digits?|chiffres?|digitos|ziffern|cifre)"
    r"\W{0,3}(?:[a-z]+\s+){0,2}\d{4,}(?![\w])",
    re.IGNORECASE,
)
_SPACED_NINO = re.compile(r"(?<![\w])[a-z]{2}\s?(?:\d{2}\s?){3}[a-d](?![\w])", re.IGNORECASE)
_CARD_LENGTHS = range(13, 20)


def _told_by_shape(text: str) -> str | None:
    """The kind of a number recognised by its shape alone (see :data:`_COMMA_GROUPS`)."""
    for match in _COMMA_GROUPS.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if (
            len(digits) in _CARD_LENGTHS
            and digits[0] in "3456"
            and luhn_valid(digits)
            and not all(_YEAR.fullmatch(part.strip()) for part in match.group().split(","))
        ):
            return "CREDIT_CARD"
    if _COUNTED_DIGITS.search(text) or _SPACED_NINO.search(text):
        return "ID_NUMBER"
    return None


def is_uuid(text: str) -> bool:
    """A UUID in its canonical form (8-4-4-4-12 hex digits, RFC 9562 variant): the id of a
    record, a trace or a device, generated at random; a secret only after a credential
    word, which the secret guard reads."""
    return _UUID.fullmatch(text) is not None


def luhn_valid(digits: str) -> bool:
    total = 0
    for position, ch in enumerate(reversed(digits)):
        value = int(ch)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def isbn13_valid(compact: str) -> bool:
    """A book's number (ISBN-13, and the EAN of a book): 978 or 979, then 10 digits with
    the EAN check digit (weights 1 and 3). Card numbers do not start with a 9."""
    if not re.fullmatch(r"97[89]\d{10}", compact):
        return False
    return sum(int(ch) * (3 if index % 2 else 1) for index, ch in enumerate(compact)) % 10 == 0


# The length of an IBAN in each country of the SWIFT registry (release 101, as python-stdnum
# ships it in ``iban.dat``; a unit test keeps the two equal).
_IBAN_LENGTHS = {
    entry[:2]: int(entry[2:])
    for entry in (  # noqa: SIM905 (a table, kept short)
        "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22"
        " DJ27 DK18 DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28"
        " HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25"
        " MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29"
        " RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29"
        " VA22 VG24 XK20 YE30"
    ).split()
}


def iban_shaped(compact: str) -> bool:
    """An IBAN whatever its check digits: a registry country's letters, two digits, and as
    many letters and digits as that country's IBANs have, mostly digits. A typo in an
    account number does not make it harmless ("ES76 2100 0418 4502 0005 1332" fails mod-97
    and is still one)."""
    code = compact.upper()
    return (
        re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", code) is not None
        and _IBAN_LENGTHS.get(code[:2]) == len(code)
        and sum(ch.isdigit() for ch in code) * 2 > len(code)
    )


def iban_valid(compact: str) -> bool:
    """ISO 13616: move the first four characters to the end, letters to numbers, mod 97 == 1."""
    code = compact.upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", code):
        return False
    rearranged = code[4:] + code[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


# --- runs --------------------------------------------------------------------------------


def _runs(text: str) -> Iterator[_Run]:
    """Tokens holding a digit, joined with their neighbours across single spaces when the
    neighbour holds a digit too or is a short capitalised group ("AB 12 34 56 C")."""
    tokens = list(_TOKEN.finditer(text))
    index = 0
    while index < len(tokens):
        if not _has_digit(tokens[index].group()):
            index += 1
            continue
        start = end = index
        while start > 0 and _joins(text, tokens[start - 1], tokens[start], backwards=True):
            start -= 1
        while end + 1 < len(tokens) and _joins(text, tokens[end], tokens[end + 1]):
            end += 1
        first, last = tokens[start], tokens[end]
        raw = text[first.start() : last.end()]
        yield _Run(
            raw=raw,
            compact=re.sub(r"[^A-Za-z0-9]", "", raw),
            before=text[max(0, first.start() - 40) : first.start()],
            after=text[last.end() : last.end() + 24],
            start=first.start(),
        )
        index = end + 1


def _joins(
    text: str, left: re.Match[str], right: re.Match[str], *, backwards: bool = False
) -> bool:
    gap = text[left.end() : right.start()]
    if not _GAP.fullmatch(gap) or text.startswith(":", right.end()):
        # A group followed by ":" is a clock time, never part of a number ("2024-12-01 10:00").
        return False
    if gap.endswith("(") and not text.startswith(")", right.end()):
        # A parenthesis opened before a group joins it only when it closes right after it,
        # as an area code does ("+1 (555) 123", "+33 (0)6"); "Peugeot 208 (2019, diesel)"
        # opens an aside.
        return False
    a, b = left.group(), right.group()
    if _stands_alone(a) or _stands_alone(b):
        # "24-105mm f/4", "16GB 3200MHz": a quantity with its unit stands alone.
        return False
    if len(a) == 1 and a.isdigit() and re.match(r"[A-Za-z]{3}", b):
        # "Serie 6 WAU28T40", "Gen 2 ABC123": a series number, then a model of its own.
        return False
    if _has_digit(a) and _has_digit(b):
        return True
    letters = a if backwards else b
    other = b if backwards else a
    return (
        _has_digit(other)
        and letters.isalpha()
        and len(letters) <= 2
        and letters.isupper()
        and gap == " "
    )


_QUANTITY_TOKEN = re.compile(r"\d+(?:[.,]\d+)?(?:-\d+(?:[.,]\d+)?)?([a-z%]+)", re.I)


def _quantity_token(token: str) -> bool:
    """A number or a range with its unit glued to it ("105mm", "24-105mm", "16GB"); a unit
    of one letter ("13K", "4B") may as well end a code."""
    match = _QUANTITY_TOKEN.fullmatch(token)
    return match is not None and len(match.group(1)) > 1 and match.group(1).lower() in _UNITS


# A tyre's size by ISO 5775 (ETRTO): width in mm, then a bead seat diameter of the standard
# ("47-622", "28-559"), written beside the inch size ("28x1,75 (47-622)"). And a counted
# adjective ("12-speed", "3-piece"): words, not a code's groups.
_ETRTO = re.compile(r"(?P<width>1[6-9]|[2-7]\d|80)-(?P<bead>\d{3})")
ETRTO_BEAD_SEATS = frozenset(
    {194, 203, 222, 239, 248, 251, 279, 288, 298, 305, 317, 330, 337, 340, 349, 355, 357, 369,
     381, 387, 390, 400, 406, 419, 428, 432, 438, 440, 451, 457, 484, 489, 490, 498, 501, 507,
     520, 531, 534, 540, 547, 559, 571, 584, 587, 590, 597, 609, 622, 630, 635}
)  # fmt: skip
_COUNTED_ADJECTIVE = re.compile(r"\d{1,3}-[a-z]{4,}")


def _stands_alone(token: str) -> bool:
    """A token that joins no neighbour: a quantity with its unit, a tyre's ETRTO size, a
    counted adjective."""
    etrto = _ETRTO.fullmatch(token)
    return (
        _quantity_token(token)
        or (etrto is not None and int(etrto["bead"]) in ETRTO_BEAD_SEATS)
        or _COUNTED_ADJECTIVE.fullmatch(token) is not None
    )


def _has_digit(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


# --- classification ---------------------------------------------------------------------


def _classify(run: _Run) -> str | None:
    """The identifier type of one run, or None when its shape is harmless or too short."""
    compact, digits = run.compact, run.digits
    if is_uuid(run.raw):
        return None
    if compact.isdigit() and len(compact) in CARD_DIGITS and luhn_valid(compact):
        return "CREDIT_CARD"
    if iban_valid(compact) or iban_shaped(compact):
        return "IBAN_CODE"
    if isbn13_valid(compact):
        return None
    if run.letters == 0:
        if digits >= LONG_DIGIT_RUN and not _harmless_number(run):
            return "ID_NUMBER"
        return None
    if _harmless_code(run):
        return None
    return "ID_NUMBER"


def _harmless_number(run: _Run) -> bool:
    return _plain_shape(run) or _after_harmless_noun(run) or _round_quantity(run)


def _round_quantity(run: _Run) -> bool:
    """Thousands grouped by threes that end in a round thousand: "1 200 000", "350 000",
    "1.200.000", "450,000". A phone number grouped by threes ("330 188 912 275", "410 262
    478 500") ends in "000" once in a thousand; a large quantity almost always does."""
    return _THOUSANDS.fullmatch(run.raw) is not None and run.compact.endswith("000")


def _plain_shape(run: _Run) -> bool:
    """A date, a year range, a version, a clock time, a grouped or unit-bearing quantity."""
    raw = run.raw
    if _DATE.fullmatch(raw) and _real_date(raw):
        return True
    if _YEAR_RANGE.fullmatch(raw) or _TIME.fullmatch(raw) or _ISO_DATE_HOUR.fullmatch(raw):
        return True
    groups = re.findall(r"\d+", raw)
    if groups and all(_YEAR.fullmatch(group) for group in groups):
        return True  # a list of years, "2015 2018 2023" (a code without digits is none)
    if _version(run):
        return True
    if _IPV4_SHAPE.fullmatch(raw) and all(int(part) <= MAX_OCTET for part in raw.split(".")):
        # an IPv4 address: a public one is the locators' (``IP_ADDRESS``), a private one
        # ("192.168.0.1") names a machine at home, not a person
        return True
    return _next_to_unit(run)


_IPV4_SHAPE = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
MAX_OCTET = 255


def _harmless_code(run: _Run) -> bool:
    raw, compact = run.raw, run.compact
    if run.digits == 0:
        return True
    if _version(run):
        return True
    if _ISO_DATE_HOUR.fullmatch(raw):
        return True
    for shape in (_TIME, _TIME_RANGE, _VIDEO_MODE, _ORDINAL, _SEAT, _FLIGHT, *_SPECS):
        if shape.fullmatch(raw) or shape.fullmatch(compact):
            return True
    unit = _NUMBER_WITH_UNIT.fullmatch(compact)
    if unit and unit.group(2).lower() in _UNITS and run.digits <= MAX_QUANTITY_DIGITS:
        return True
    if _after_harmless_noun(run) or _spec_label(run) or _gcode_words(run):
        return True
    if (
        _CAPITAL_RUN.search(raw)
        and len(compact) >= CAPITAL_CODE_CHARS
        and " " not in raw
        and not _SERIES_NAME.fullmatch(compact)
    ):
        # "AAUQH5PHZ", "007YSHIA2": five capitals in a row that are no word, with digits, in
        # one token: a reference, not a model ("WH1000XM5", "RTX4090" have short groups).
        return False
    groups = _GROUPS.findall(compact)
    # Word groups are read on the raw run: "24-Monats-Bindung" holds the words "Monats" and
    # "Bindung", which its compact form glues into one ("MonatsBindung").
    if run.digits <= MODEL_MAX_DIGITS and any(
        _WORD_GROUP.fullmatch(g) for g in _GROUPS.findall(raw)
    ):
        return True
    model = _maker_model(run)
    if (
        model is not None
        and run.digits <= MODEL_MAX_DIGITS
        and len(re.sub(r"[^A-Za-z0-9]", "", model)) <= MODEL_MAX_CHARS
        and len(_GROUPS.findall(model)) <= MAKER_MODEL_MAX_GROUPS
    ):
        return True  # "a Samsung QE55Q80C TV": a maker's model has more groups than others'
    return len(compact) <= SHORT_CODE_CHARS or (
        run.digits <= MODEL_MAX_DIGITS
        and len(compact) <= MODEL_MAX_CHARS
        and len(groups) <= MODEL_MAX_GROUPS
    )


# A product's label in dashed groups that says what the product is ("PLA-175-1KG-RAL9005",
# "LDR-30C-DEL-NF"): a group is a quantity with its unit or a temperature ("1KG", "30C"), or
# a colour of the RAL standard ("RAL9005"); or the label follows a noun that numbers goods
# ("SKU format CER-2024-BL-06", "part no. ..."). Not after an identifier's word.
_LABEL_GROUP = re.compile(r"[A-Za-z0-9]{1,8}")
_SPEC_GROUP = re.compile(
    r"(?P<number>\d{1,4}(?:[.,]\d{1,3})?)(?P<unit>[A-Za-z]{1,3})|RAL[1-9]\d{3}"
)
_TEMPERATURE_UNITS = frozenset({"c", "f"})
MIN_LABEL_GROUPS = 3
MIN_SERIAL_DIGITS = 5
GOODS_NOUN_REACH = 3


def _spec_label(run: _Run) -> bool:
    groups = run.raw.split("-")
    if (
        " " in run.raw
        or len(groups) < MIN_LABEL_GROUPS
        or not all(_LABEL_GROUP.fullmatch(group) for group in groups)
        or _IDENTIFIER_CUE.search(run.before)
        or any(len(group) >= MIN_SERIAL_DIGITS for group in re.findall(r"\d+", run.raw))
        or not any(re.fullmatch(r"[A-Za-z]{2,}", group) for group in groups)
    ):
        return False  # a serial of five digits or more, or no word's abbreviation: an id's
    for group in groups:
        spec = _SPEC_GROUP.fullmatch(group)
        if spec and (
            spec["unit"] is None
            or spec["unit"].lower() in _UNITS
            or spec["unit"].lower() in _TEMPERATURE_UNITS
        ):
            return True
    words = [word.lower() for word in re.findall(r"[A-Za-z]+", run.before)]
    return any(word in _GOODS_NOUNS for word in words[-GOODS_NOUN_REACH:])


def product_label(token: str) -> bool:
    """A label in capitals and dashed groups whose groups say what the product is: a
    quantity with its unit, a temperature or a RAL colour, and a word's abbreviation
    ("PLA-175-1KG-RAL9005", "LDR-30C-DEL-NF"); see :func:`_spec_label`."""
    return token.upper() == token and _spec_label(
        _Run(raw=token, compact=re.sub(r"[^A-Za-z0-9]", "", token), before="", after="")
    )


_GOODS_NOUNS = frozenset({"sku", "skus", "part", "parts", "article", "item", "model", "ean"})
# G-code: a command ("G28", "M104") and its parameter words, one letter and a number each
# ("M104 S215", "G1 X10 Y20 F3000"): a machine's instruction, read as one line.
_GCODE_COMMAND = re.compile(r"[GM]\d{1,3}")
_GCODE_WORD = re.compile(r"[A-Z]-?\d{1,5}(?:\.\d{1,4})?")
MAX_GCODE_WORDS = 6


def _gcode_words(run: _Run) -> bool:
    words = run.raw.split(" ")
    return (
        1 < len(words) <= MAX_GCODE_WORDS
        and _GCODE_COMMAND.fullmatch(words[0]) is not None
        and all(_GCODE_WORD.fullmatch(word) for word in words[1:])
        and len({word[0] for word in words}) == len(words)
    )


# A capitalised word after an article or a possessive, right before a code: a maker's name
# ("Owns a Samsung QE55Q80C"), unless an identifier's word comes before it.
_ARTICLES = (
    r"(?i:a|an|the|my|his|her|their|our|new|old|un|une|le|la|son|sa|mon|ma|el|su|mi"
    r"|ein|eine|einen|einem|einer|den|dem|der|die|das|sein|seine|ihr|ihre|il|lo|uno|una|nuovo"
    # a possessive stands where the article does ("this user's Bosch SMV4HCX48E model")
    r"|[^\W\d_]+'s?)"
)
_MAKER_BEFORE = re.compile(rf"(?:.*\s)?{_ARTICLES}\s+(?:[A-Z][a-z]{{2,}}|[A-Z]{{2,6}})\s+", re.S)
_ARTICLE_BEFORE = re.compile(rf"(?:.*\s)?{_ARTICLES}\s+", re.S)
MAKER_MODEL_MAX_GROUPS = 6


def _maker_model(run: _Run) -> str | None:
    """The model's token of a run after a maker's name and an article ("a Samsung QE55Q80C
    TV"; "un LG OLED55C28", where the maker's two capitals join the run), unless an
    identifier's word comes before; a short group of capitals may follow it ("TV")."""
    parts = run.raw.split(" ")
    if _IDENTIFIER_CUE.search(run.before):
        return None
    if (
        _ARTICLE_BEFORE.fullmatch(run.before)
        and len(parts) > 1
        and re.fullmatch(r"[A-Z]{2}", parts[0])
    ):
        parts = parts[1:]  # the maker's two capitals joined the run ("LG OLED55C28")
    elif not _MAKER_BEFORE.fullmatch(run.before):
        return None
    if len(parts) == 1 or (len(parts) == 2 and parts[1].isalpha()):
        return parts[0]
    return None


def _after_maker_name(run: _Run) -> bool:
    return _maker_model(run) is not None


def _version(run: _Run) -> bool:
    """A version number: see the module docstring (at most one dotted group of 3 digits)."""
    if _BUILD_VERSION.fullmatch(run.raw):
        return True
    if not (_VERSION.fullmatch(run.raw) and run.digits <= MAX_VERSION_DIGITS):
        return False
    return sum(len(group) == 3 for group in re.findall(r"\d+", run.raw)) <= 1


def _real_date(raw: str) -> bool:
    match = _DATE.fullmatch(raw)
    if match is None:
        return False
    day, month = (
        (match.group("d"), match.group("m"))
        if match.group("d")
        else (
            match.group("d2"),
            match.group("m2"),
        )
    )
    first, second = int(day), int(month)
    # Day and month in either order (US and European dates).
    return (1 <= first <= 31 and 1 <= second <= 12) or (1 <= first <= 12 and 1 <= second <= 31)


def _next_to_unit(run: _Run) -> bool:
    before = run.before.rstrip().lower()
    after = run.after.lstrip().lower()
    previous = re.findall(r"[\w€$£¥%]+$|[€$£¥]$", before)
    following = re.match(r"[a-z%€$£¥‰]+", after)
    return bool(
        (previous and previous[-1] in _UNITS) or (following and following.group() in _UNITS)
    )


def _after_harmless_noun(run: _Run) -> bool:
    """Whether a harmless noun ("flight", "version", "timestamp") comes right before. Two
    capitals are a group of a code, not a word ("IBAN GB 40 NE OI 95…": "NE" is not "né")."""
    words = [
        word.lower()
        for word in re.findall(r"[A-Za-z]+", run.before)
        if not (word.isupper() and len(word) <= 2)
    ]
    if words and words[-1] in _YEAR_WORDS:
        # "in 2019", "since 1998", "born 1984": the word explains a year, not the digit
        # groups after it ("Pays in 4152 4887 1344 5952": a card's, in four groups).
        return _year_led(run)
    return bool(words) and (
        words[-1] in _HARMLESS_NOUNS
        or (
            len(words) > 1
            and words[-1] in ("number", "no", "nr", "n")
            and words[-2] in _HARMLESS_NOUNS
        )
    )


def _year_led(run: _Run) -> bool:
    """A year, alone or with a short suffix ("2019", "2019er", "2020 Q3", "1998-99")."""
    groups = re.findall(r"\d+", run.raw)
    return bool(groups) and _YEAR.fullmatch(groups[0]) is not None and run.digits <= YEAR_LED_DIGITS


# --- cues and special shapes -------------------------------------------------------------

# The first group of a code after a cue may be a word ("Bonvoy member 123456"), but not one
# that says the number is harmless ("phone number since 1998", "in 2019").


def _code_start(group: str) -> bool:
    return group.lower() not in _HARMLESS_NOUNS


def _cued_spans(text: str) -> list[int]:
    """Where a value after an identifier cue starts; not after "flight number", "seat no"."""
    spans = []
    for match in _IDENTIFIER_CUE.finditer(text):
        before = re.findall(r"[a-z]+", text[max(0, match.start() - 24) : match.start()].lower())
        if before and before[-1] in _HARMLESS_NOUNS:
            continue
        spans.append(match.end())
    for match in _NUMBER_NOUN.finditer(text):
        words = re.findall(r"[a-z]+", match.group().lower())
        before = re.findall(r"[a-z]+", text[max(0, match.start() - 24) : match.start()].lower())
        if before[-1:] and before[-1] in _HARMLESS_NOUNS:
            continue
        if any(word in _HARMLESS_NOUNS for word in words) or match["of"]:
            continue
        spans.append(match.end())
    for match in _NUMBER_LABEL.finditer(text):
        words = re.findall(r"[a-z]+", match.group().lower())
        if not any(word in _HARMLESS_NOUNS - _PREPOSITIONS for word in words):
            spans.append(match.end())
    spans.extend(
        labelled.value_start
        for labelled in labelled_values(text)
        if _names_an_identifier(labelled.label) and not _quantity_at(text, labelled.value_start)
    )
    return spans


def _quantity_at(text: str, start: int) -> bool:
    quantity = _QUANTITY.match(text, start)
    return quantity is not None and quantity["unit"].lower() in _UNITS


# A quantity with its unit after a label ("Loyalty card: 1500 points", "Gift card balance:
# 1250 EUR"): a count or an amount, not the card's number.
_QUANTITY = re.compile(r"[€$£¥]?\s?\d[\d.,' ]*\s?(?P<unit>[^\W\d_]+|[€$£¥%])(?![\w])")


def _names_an_identifier(label: str) -> bool:
    """Whether a label names an identifier anywhere in it ("Tessera fedeltà del negozio di
    fermodellismo", "Escape-room club 'Keymaster tier' card"): one of its cue words, unless
    the word next to that cue or the label's last word says the number is harmless ("Room
    card", "Membership flight")."""
    harmless = _HARMLESS_NOUNS - _PREPOSITIONS
    words = re.findall(r"[a-z]+", label.lower())
    if not words or words[-1] in harmless:
        return False
    for cue in _LABEL_CUE.finditer(label):
        before = re.findall(r"[a-z]+", label[: cue.start()].lower())[-1:]
        after = re.findall(r"[a-z]+", label[cue.end() :].lower())[:1]
        if not any(word in harmless for word in before + after):
            return True
    return False


# A label's word for a document, a card or a membership, alone or ending a compound
# ("Kundenkarte", "Mitgliedsausweis"): with the identifier cues, what makes a label name an
# identifier (see :mod:`.labels`).
_LABEL_CUE = re.compile(
    rf"(?<![\w])(?:(?i:{'|'.join(IDENTIFIER_CUES[:-1])}|{_DOCUMENT_NOUNS}|tessera|tessere"
    r"|abbonamento|abonnement|abono|abo|member|membre|socio|adherent|abonne|abonado|abbonato)"
    rf"|{'|'.join(IDENTIFIER_ACRONYMS)})(?![\w])|(?i:[a-z]+(?:karte|ausweis|nummer))(?![\w])"
)
# Harmless before a number ("in 2021"), not inside a label ("steht im Ausweis:").
_PREPOSITIONS = frozenset({"in", "en", "im", "nel", "since", "depuis", "desde", "seit", "dal"})
# A label with a number's noun, an aside, then a colon and the value: "Número de socio del
# club de pádel (el de la tarjeta naranja): 812 45", "Mitgliedsnummer steht im Ausweis: 1 4 4
# 9 6 2".
_NUMBER_LABEL = re.compile(
    r"(?<![\w])(?:[a-z]+-?(?:nummer|nr\.)|number|numero)(?![\w])[^:\n.!?;\d]{1,60}:\s*"
    r"(?=[A-Za-z]{0,3}\d)",
    re.I,
)


# A number's noun, alone or at the end of a compound ("Mieternummer", "Versicherungsschein-
# Nr.", "numéro de sinistre", "Referencia de inquilino", "Tenant ref", "Tessera socio n."),
# then up to three words saying whose, then the value: a number of something that belongs to
# someone, unless one of those words says it is harmless ("numéro de chambre", "room
# number"); "number of" counts.
_NUMBER_NOUN = re.compile(
    r"(?<![\w])(?:[a-z]+-?(?:nummer|nr\.)|number|numero|num\.|no\.|nr\.|n°|n\.|ref\.?|reference"
    r"|referencia|riferimento|referenz|aktenzeichen|matricule)"
    r"(?P<of>\s+(?:of|des|de los|de las|dei|degli|delle)(?=\s))?"
    r"(?:\s+(?:[a-z]+'|[^\W\d]+)(?![\w])){0,3}?\s*(?:is|was|est|es|ist|lautet|e|:|#|=)?\s*"
    # "#" may lead the value itself ("client number at the clinic is #88213")
    r"(?=[(+#]?[A-Za-z]*\d)",
    re.I,
)


def _cued_value(rest: str) -> str | None:
    """A code right after an identifier cue with 4 or more digits, whatever its shape
    ("Bonvoy 123456", "passport C01X00T47", "phone (0)6 12 34 56 78"). The code is the first
    token and the digit groups that follow it, so "Phone: iPhone 15 Pro" holds no code."""
    match = _CUED_CODE.match(rest)
    if match is None or not _code_start(match.group().split()[0]):
        return None
    digits = sum(ch.isdigit() for ch in match.group())
    return "ID_NUMBER" if digits >= CUED_MIN_DIGITS else None
