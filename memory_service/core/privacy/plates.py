"""Licence plates without a format of their own: a vehicle nearby, or a US plate's shape.

Read on the normalised note (accents folded, case kept). Two rules, both failing closed:

1. **A vehicle cue, then a code.** After a word for a vehicle or for driving and parking
   it (``car``, ``van``, ``drives``, ``parked``, ``voiture``, ``coche``, ``Auto``, ``fährt``,
   ``targa``...) and at most three words, a value of one to three short groups of letters
   and digits is a plate when it has at least five characters ("Guida la Panda 7mk s02",
   "Parked 586PHK"), or four with three digits ("855N"), or is four to seven digits, not a
   year ("Parked at 6065": a US plate may be digits only); at least two digits in five
   characters, or one digit in six or more ("3q-ucjm"). Not a plate: a year, a quantity
   or a price with its unit ("drives 12000 km"), a clock time, a model of two to four
   characters ("Audi A4", "Q7"), a model after its car maker ("Peugeot 3008", "BMW 320d",
   "VW Golf 8"), an engine's size ("1.5 TSI"), a number after a harmless noun ("space 12").
2. **A US plate's shape without a cue**: three capitals and three or four digits ("ACJ
   895", "VHP-014"), three digits and three capitals ("311-DBK", "586PHK"), a digit, three
   capitals and three digits ("7ABC123"). Harmless when the letters are a unit or a
   currency ("EUR 900"), a product series or a numbered-thing noun ("RTX 4090", the
   harmless nouns of the identifier rules), a train category ("ICE 578", "TGV 6201"), a
   standard ("ISO 8601", "RFC 3339"), an
   airline's code with a flight nearby ("EZY8921"), or a course code: a subject prefix of
   two to four capitals and three or four digits with a course or teaching word in the note ("BIO
   210", "Is a TA for ECON 101", "Belegt BWL 101"). In a note that names no vehicle ("disc
   drive" is none), also harmless: a code glossed in parentheses right after it ("REQ-2291
   (Senior Data Engineer)"), a code in parentheses ("PS5 Slim (CFI-2016)"), a code right after
   a maker's name written as one word with inner capitals, a hyphen or a digit, or after any
   capitalised word inside a sentence that is no given name ("Seiko SKX007"; "DeWalt
   DCD796", "Miele-Waschmaschine WWD 320"; not "Tom ACJ 895"). Anything else with that shape
   is refused.
"""

from __future__ import annotations

import itertools
import re

from memory_service.core.lexicons import DEFAULT_LEXICONS, fold
from memory_service.core.privacy.labels import labelled_values
from memory_service.core.privacy.vocabulary import HARMLESS_NUMBER_NOUNS, UNITS

# Units, and the measures of a car, a song or a course: "245 PS", "165 BPM", "120 CFU".
_UNITS = frozenset(UNITS)
_MEASURES = _UNITS | {"ps", "cv", "hp", "bhp", "bpm", "cfu", "ects", "cc", "ccm", "nm", "kwh"}
# Car makers: a code after one is its model ("Peugeot 3008", "VW Golf 8 GTI"), a plate's
# own shapes are read by the other rules.
_CAR_MAKER = re.compile(
    r"(?i)\b(?:peugeot|renault|citroen|vw|volkswagen|audi|bmw|mercedes|opel|fiat|seat|skoda"
    r"|toyota|honda|nissan|mazda|kia|hyundai|ford|tesla|volvo|dacia|porsche|mini|alfa|lancia"
    r"|jeep|suzuki|subaru|mitsubishi|lexus|cupra|smart|chevrolet|dodge|byd|polestar)\b"
)
_HARMLESS_NOUNS = frozenset(HARMLESS_NUMBER_NOUNS)
CUE_WINDOW_WORDS = 3
MIN_CODE_CHARS = 5
MIN_CODE_DIGITS = 2

_VEHICLE_CUE = re.compile(
    r"(?<![\w-])(?i:cars?|vans?|trucks?|lorry|pick-?up|suv|motorbike|motorcycle|moto|scooter"
    r"|vehicle|camper|plate|reg|registration|tag|drives?|drove|driving|parked|parks?"
    r"|voiture|camionnette|camion|vehicule|immatriculation|plaque|roule|conduit|gare|garee"
    r"|coche|carro|furgoneta|camioneta|vehiculo|matricula|conduce|aparca|aparcado"
    r"|auto|wagen|pkw|lkw|transporter|fahrzeug|kennzeichen|nummernschild|fahrt|parkt"
    r"|macchina|furgone|veicolo|targa|guida|parcheggia|parcheggiato)(?![\w-])"
)
# One group of a plate: letters and digits, then groups joined by a space, "-", "." or "•".
_GROUP = r"[A-Za-z0-9]{1,9}"
_VALUE = re.compile(rf"{_GROUP}(?:[ .\-]{_GROUP}){{0,2}}(?![\w])")
_SKIP = re.compile(r"[\s,:#]*")
# Words that stand before a plate, never inside one ("the", "la", "den", "at").
_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "his",
        "her",
        "its",
        "our",
        "at",
        "in",
        "on",
        "to",
        "of",
        "is",
        "was",
        "le",
        "la",
        "les",
        "un",
        "une",
        "sa",
        "son",
        "mon",
        "au",
        "el",
        "los",
        "las",
        "su",
        "una",
        "en",
        "al",
        "del",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "ein",
        "eine",
        "sein",
        "seine",
        "ihr",
        "il",
        "lo",
        "gli",
        "uno",
        "sua",
        "suo",
        "nel",
        "e",
        "am",
    ]
)
# A numbered place to park: "space 215", "plaza 12", "Stellplatz 40" number a place, not a car.
_PARKING_PLACES = frozenset(
    [
        "space",
        "spot",
        "bay",
        "stall",
        "lot",
        "place",
        "plaza",
        "stellplatz",
        "parkplatz",
        "box",
        "garage",
        "posto",
    ]
)
# An engine oil's viscosity grade ("5W-30", "0W20", "10W40") or a tyre's size ("225/45 R17",
# "205/55ZR16 91V"): a vehicle's specs, written with a syntax of their own.
VEHICLE_SPEC = re.compile(r"\d{1,2}W-?\d{2}|\d{3}/\d{2}\s?Z?R\s?\d{2}(?:\s?\d{2,3}[A-Z])?", re.I)
_WORD = re.compile(r"\s*[^\s,;:.!?]+")
_SERIES_WORD = re.compile(r"[A-Za-z]{4,}\d{1,2}")
_YEAR = re.compile(r"(?:19|20)\d{2}")
_TIME = re.compile(r"\d{1,2}[:h]\d{2}|\d{1,2}(?:am|pm|h|uhr)", re.I)

_US_SHAPE = re.compile(
    r"(?<![\w#-])(?:(?P<lead>[A-Z]{3})[ -]?\d{3,4}|\d{3}[ -]?(?P<tail>[A-Z]{3})"
    r"|\d(?P<mid>[A-Z]{3})\d{3})(?![\w-])"
)
# A colour ("#826FCD") is no plate: the "#" before the shape rules it out.
# Train categories: "ICE 578", "TGV 6201", "AVE 03063" name a train, not a car.
_TRAIN_CATEGORIES = frozenset(
    {"ice", "tgv", "ave", "ter", "ire", "rer", "avlo", "ouigo", "alvia", "eurostar", "thalys"}
)
# Standards: "ISO 8601", "RFC 3339", "DIN 476" number a document, not a car.
_STANDARDS = frozenset({"iso", "din", "rfc", "pep", "iec", "ansi", "ecma", "nist", "astm", "jis"})
_FLIGHT_WORDS = re.compile(
    r"(?i)\b(?:flights?|flies|fly|vol|vuelo|volo|flug|fliegt|volar|seat|siege|asiento|platz"
    r"|posto)\b"
)
_COURSE_WORDS = re.compile(
    r"(?i)\b(?:courses?|class|classes|lectures?|teach(?:es|ing)?|ta|tutor|seminars?|modules?"
    r"|exams?|term|semester|enrol(?:l?ed|s)?|takes|taking|cours|enseigne|inscrit|curso|cursos"
    r"|asignaturas?|clases?|ensena|matriculad[oa]|kurse?|vorlesungs?|vorlesungen|seminare?"
    r"|belegt|unterrichtet|studiert|corsi|corso|lezion[ei]|insegna|esam[ei]|iscritt[oa])\b"
)
# A code glossed by what it names, in parentheses right after it ("REQ-2291 (Senior Data
# Engineer)", "SAA-C03"): a label; or a code in parentheses after the thing it is the model
# of ("PS5 Slim (CFI-2016)"). Only in a note without a vehicle word.
_GLOSS_AFTER = re.compile(r"\s*\([^()\d]{3,60}\)")
_IN_PARENTHESES = re.compile(r"\(\s*$")
# A code right after a maker's or a product's name written as one ("DeWalt DCD796", "Miele-
# Waschmaschine WWD 320", "PS5 WWD 320"): inner capitals, a hyphen or a digit, which a
# person's name ("Tom ACJ 895") does not have; the model, when no vehicle is named.
_NAME_BEFORE = re.compile(
    r"(?<![\w-])(?:[A-Z][a-z]+[A-Z][A-Za-z]*|[A-Z][a-z]+-[A-Z]?[a-z]+|[A-Z]+\d[A-Za-z0-9]*) $"
)
# not the sentence's first word, which is capitalised anyway ("Uses 7ABC123", "Left 311-DBK")
_CAPITALISED_BEFORE = re.compile(r"[^\W\d_][^.!?:;\n]*?\s([A-Z][a-z]{2,}) $")
_FIRST_NAMES = frozenset(fold(name).lower() for name in DEFAULT_LEXICONS.first_names)
# "drive" names a disc, a folder or a key there, not driving a car.
_NOT_DRIVING = re.compile(
    r"(?i)\b(?:disc|disk|hard|usb|flash|thumb|google|network|external|optical|solid[- ]state"
    r"|ssd|cd|dvd|blu-ray) drives?\b"
)


def plate_in(text: str) -> bool:
    """Whether the normalised ``text`` holds a plate by one of the two rules above."""
    return _cued_plate(text) or any(_us_plate(text, match) for match in _US_SHAPE.finditer(text))


def _cued_plate(text: str) -> bool:
    return any(
        _plate_within(text, cue.end(), CUE_WINDOW_WORDS) for cue in _VEHICLE_CUE.finditer(text)
    ) or any(
        # a label naming a vehicle anywhere in it, then its value ("Targa per l'abbonamento
        # al lavaggio: FZ 318 KM"; see :mod:`.labels`)
        _plate_within(text, labelled.value_start, 0)
        for labelled in labelled_values(text)
        if _VEHICLE_CUE.search(_NOT_DRIVING.sub(" ", labelled.label))
    )


def _plate_within(text: str, position: int, words: int) -> bool:
    """Whether a plate's value starts within ``words`` words after ``position``."""
    for _ in range(words + 1):
        skip = _SKIP.match(text, position)
        value = _VALUE.match(text, skip.end() if skip else position)
        if value and _starts_value(value.group()):
            return _plate_value(text, value)
        word = _WORD.match(text, position)
        if word is None:
            return False
        position = word.end()
    return False


def _starts_value(raw: str) -> bool:
    """A value holds a digit, and its first group is not a word before the plate."""
    first = re.split(r"[ .\-]", raw)[0]
    return any(ch.isdigit() for ch in raw) and (
        any(ch.isdigit() for ch in first)
        or (len(first) <= 3 and first.lower() not in _FUNCTION_WORDS)
    )


def _plate_value(text: str, value: re.Match[str]) -> bool:
    words = value.group().split(" ")
    while words[-1].isalpha() and (len(words[-1]) > 3 or words[-1].lower() in _FUNCTION_WORDS):
        words.pop()  # "6065 in space": the plate ends at its last code word
    if any(word.isalpha() and len(word) > 3 for word in words):
        return False  # a phrase ("am Terminal 2"), not a plate: its letter groups are short
    raw = " ".join(words)
    groups = re.split(r"[ .\-]", raw)
    told = value.group().split(" ")
    if any(
        word.isalpha() and word.islower() and any(ch.isupper() for ch in after)
        for word, after in itertools.pairwise(told)
    ):
        # a plate's letters share one case; a lower-case word between capitals is the
        # sentence's ("voiture 12 du TGV", "mit der S8 ab Gleis 2"), not a last group written
        # small ("reg KX 19 ab") nor a preposition after the plate ("855N in space 12")
        return False
    compact = "".join(groups)
    digits = sum(ch.isdigit() for ch in compact)
    if any(_YEAR.fullmatch(group) for group in groups) or _TIME.fullmatch(raw):
        return False
    if VEHICLE_SPEC.match(raw) or any(
        spec.start() < value.end() and value.start() < spec.end()
        for spec in VEHICLE_SPEC.finditer(text)
    ):
        # an oil's grade ("5W-30"), a tyre's size ("225/45 R17"), or a value that runs into
        # one ("are 205" of "are 205/55 R16 91V"), not a plate
        return False
    if (
        _quantity(["0", *groups])
        or _quantity([groups[-1], *_next_word(text, value.start() + len(raw))])
        or any(
            first.isdigit() and unit.lower() in _MEASURES
            for first, unit in itertools.pairwise(groups)
            # a group of capitals before the number makes a plate's groups ("FZ 318 KM"), not
            # a quantity ("12000 km", "fa 18 km", a road: "the M 25 km")
            if not (groups[0].isalpha() and groups[0].isupper() and len(groups[0]) > 1)
        )
    ):
        return False  # "12000 km", "Fährt 23 km zur Arbeit"
    if re.search(r"\d[.,]\d", raw) or _CAR_MAKER.search(
        text[max(0, value.start() - 40) : value.end()]
    ):
        return False  # an engine's size ("1.5 TSI"), a model after its maker ("Peugeot 3008")
    before = re.findall(r"[A-Za-z]+", text[max(0, value.start() - 24) : value.start()])
    if before and (
        before[-1].lower() in _HARMLESS_NOUNS - {"in", "en", "im", "nel"}
        or before[-1].lower() in _PARKING_PLACES
    ):
        return False
    if any(_SERIES_WORD.fullmatch(group) for group in groups):
        return False  # a word with its series number: "Kia Niro Hybrid2", "Pixel8"
    if compact.isdigit():
        return 4 <= digits <= 7
    if len(compact) == MIN_CODE_CHARS - 1:
        return digits >= MIN_CODE_DIGITS + 1  # "855N", not "320d" after its maker
    return len(compact) >= MIN_CODE_CHARS and (
        digits >= MIN_CODE_DIGITS or len(compact) > MIN_CODE_CHARS
    )


def _next_word(text: str, end: int) -> list[str]:
    following = re.match(r"\s*([A-Za-z%€$£]+)", text[end:])
    return [following.group(1)] if following else []


def _quantity(groups: list[str]) -> bool:
    """Numbers and their unit: "12000 km", "10.000 km", "80-100 km", "25-30k", "120GB"."""
    if len(groups) < 2 or not all(group.isdigit() for group in groups[:-1]):
        return False
    last = groups[-1].lower()
    # A one-letter unit glued to four digits or more ("0911W") ends a plate, not a quantity.
    glued = re.fullmatch(r"(\d+)([a-z%]+)", last)
    return last in _MEASURES or (
        glued is not None
        and glued.group(2) in _MEASURES
        and (len(glued.group(2)) > 1 or len(glued.group(1)) <= 3)
    )


def _us_plate(text: str, match: re.Match[str]) -> bool:
    letters = (match["lead"] or match["tail"] or match["mid"]).lower()
    if (
        letters in _MEASURES
        or letters in _HARMLESS_NOUNS
        or letters in _TRAIN_CATEGORIES | _STANDARDS
    ):
        return False
    if match["lead"] and _FLIGHT_WORDS.search(text):
        return False  # an airline's code: "EZY8921", "Vol EZY 8921"
    if match["lead"] and _COURSE_WORDS.search(text):
        return False
    return not (_no_vehicle(text) and _label_or_model(text, match))


def _no_vehicle(text: str) -> bool:
    """No word for a vehicle or for driving it, "disc drive" and the like left out."""
    return _VEHICLE_CUE.search(_NOT_DRIVING.sub(" ", text)) is None


def _label_or_model(text: str, match: re.Match[str]) -> bool:
    """A code glossed in parentheses after it, a code in parentheses, or a code after a
    capitalised name inside a sentence: a label or a product's model (see the module's
    docstring). The caller has made sure no vehicle is named in the note."""
    before = text[max(0, match.start() - 40) : match.start()]
    if _GLOSS_AFTER.match(text, match.end()) or (
        _IN_PARENTHESES.search(before) and text.startswith(")", match.end())
    ):
        return True
    if _NAME_BEFORE.search(before) is not None:
        return True
    # A code after a capitalised word that is no given name ("Seiko SKX007", "Adox CHS 100",
    # "Mustang Survival MIT 100", "White Labs WLP002"): a maker's or a series' model when no
    # vehicle is named. "Tom ACJ 895" stays refused, and so does any code after a name's cue.
    word = _CAPITALISED_BEFORE.search(before)
    return word is not None and fold(word[1]).lower() not in _FIRST_NAMES
