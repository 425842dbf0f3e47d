"""Dates of birth: a full date (day, month and year) after a birth cue, in EN/FR/ES/DE/IT.

A date alone is not personal data ("the lease started on 03/04/2019"); a date of birth is one
of the three values (with a name and a postcode) that single out most people. The cue and the
date need not share a sentence: an answer often comes in the next one ("Please tell me your
date of birth. It's 23/05/2016", "DOB? 1987-04-12"), so the date may follow the cue within
:data:`REACH` characters, in its sentence or opening the next one. Only a full date counts:
a birthday without a year ("her birthday is on 12 May") names a day of the year, not a
person. An age reached on a full date is a cue as well ("turns 40 on 14 March 2031"): the
date less the age is the date of birth.

A date is also read with its year written in words ("nineteen seventy-six", "mille neuf
cent quatre-vingt-cinq", "mil novecientos ochenta", "neunzehnhundertachtzig",
"millenovecentosettantuno"), the day in digits or in words, next to a month's name: the
year's century words are the shape, whatever the language's words for the rest.

Only the kind of value leaves this module (``DATE_OF_BIRTH``).
"""

from __future__ import annotations

import re

from memory_service.core.lexicons import MONTH_NAMES

DATE_OF_BIRTH = "DATE_OF_BIRTH"
# How far after the cue the date may stand: the cue's own sentence and a short answer after it.
REACH = 80

# An age reached, with its verb; on a full date in the same sentence it gives the date of
# birth, whichever comes first ("ist am 1. Mai 2024 genau 40 Jahre alt geworden").
_AGE_REACHED = (
    r"(?:turn(?:s|ed|ing)?|will\s+be|aura|fetera\s+ses|fete\s+ses|a\s+fete\s+ses|a\s+eu"
    r"|cumplira|cumplio|wird|wurde|compie|compira|(?:ha\s+)?compiuto)"
    r"\s+\d{1,3}(?:\s+(?:years?(?:\s+old)?|ans|anos|años|jahre|anni))?"
    r"|\d{1,3}\s+jahre\s+alt\s+geworden"
)
_AGE_CUE = re.compile(rf"(?<![\w])(?:{_AGE_REACHED})(?![\w])", re.IGNORECASE)
_CUES = (
    # EN
    r"born|birth\s?date|date\s+of\s+birth|d\.?o\.?b\b\.?|birthday|b-?day|year\s+of\s+birth"
    # FR
    r"|n[ée]e?|date\s+de\s+naissance|anniversaire"
    # ES
    r"|naci(?:[oó]|d[oa]s?)?|fecha\s+de\s+nacimiento|cumplea[ñn]os|cumple"
    # DE
    r"|geboren|geb\.|geburtsdatum|geburtstag"
    # IT
    r"|(?-i:[Nn]at[oa])|data\s+di\s+nascita|compleanno|compie\s+gli\s+anni"
    # an age reached on a date gives the date of birth: "turns 40 on 14 March 2031", "aura 30
    # ans le 2 mai 2029", "cumple 18 años el 3 de junio de 2030", "wird 50 am 1. Mai 2030",
    # "compie 60 anni il 4 aprile 2031"
    # and in the past ("a eu 30 ans le 14 février 2024", "cumplió 45 años el 2 de junio de
    # 2023", "ha compiuto 52 anni il 9 settembre 2023", "ist am 1. Mai 2024 40 Jahre alt
    # geworden")
    r"|" + _AGE_REACHED
)
_CUE = re.compile(rf"(?<![\w])(?:{_CUES})(?![\w])", re.IGNORECASE)

_MONTHS = MONTH_NAMES
_YEAR = r"(?:1[89]\d\d|20\d\d)"
# "1°" (a degree sign for the ordinal indicator, as keyboards without "º" write it)
_DAY = r"(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th|er|º|°|\.)?"
# A month in Roman numerals, as Spanish, Italian and Polish forms write it ("5-VIII-1995").
_ROMAN_MONTH = r"(?-i:XII|XI|IX|X|VIII|VII|VI|IV|V|III|II|I)"
_FULL_DATE = re.compile(
    # 23/05/2016, 23.05.16, 2016-05-23, 05-23-2016
    r"(?<![\d.])(?:\d{1,2}[/.\-]\d{1,2}[/.\-](?:\d{4}|\d{2})|\d{4}[/.\-]\d{1,2}[/.\-]\d{1,2})"
    r"(?![\d/])"
    # 23 May 2016, 23. Mai 2016, 23 de mayo de 2016, le 3 mars 1990
    rf"|\b{_DAY}\s*(?:of\s+|de\s+)?(?:{_MONTHS})\.?,?\s*(?:de\s+|del\s+)?{_YEAR}\b"
    # May 23, 2016
    rf"|\b(?:{_MONTHS})\.?\s+{_DAY},?\s+{_YEAR}\b"
    # 5-VIII-1995, 5.VIII.1995, 5 VIII 1995: the month in Roman numerals, one separator
    rf"|(?<![\w.])(?:0?[1-9]|[12]\d|3[01])(?P<rsep>[-./ ]){_ROMAN_MONTH}(?P=rsep){_YEAR}\b",
    re.IGNORECASE,
)
# A year of the 20th or 21st century written in words (its century, as each language says it),
# or in digits after a day written in words ("the third of March 1984", "3rd of March '84").
_SPELLED_YEAR = (
    r"(?:nineteen|two\s+thousand|mille\s+neuf\s+cents?|deux\s+mille|mil\s+novecientos"
    r"|dos\s+mil|neunzehnhundert|zweitausend|millenovecent|duemila"
    # as the normaliser writes a spelled year back in digits ("nineteen forty-six": "19 46")
    r"|(?:19|20)\s\d{2}\b"
    # a year in digits, or its last two ("'84", "del 84")
    r"|(?:1[89]|20)\d\d\b|['\u2019]\d{2}\b|(?<=del\s)\d{2}\b)"
)
# A day in words: a number word or an ordinal, one token ("fifteenth", "vingt-sept",
# "veinticinco", "vierzehn", "ventotto", "21st").
_NUMBER_STEMS = (
    r"one|two|three|four|five|six|seven|eight|nine|nint|ten|eleven|twelve|twelf|fift|twent|thirt|first"
    r"|second|third|fifth|un|deux|trois|quatre|cinq|sept|huit|neuf|dix|onze|douze|treize"
    r"|quatorze|quinze|seize|vingt|trente|premier|uno|dos|tres|cuatro|cinco|seis|siete"
    r"|ocho|nueve|diez|once|doce|trece|catorce|quince|dieci|veint|treinta|primero|eins|ein|zwei"
    r"|drei|dritt|vier|funf|sech|sieb|acht|neun|zehn|elf|zwolf|zwanzig|dreissig|erst"
    r"|due|tre|quattro|cinque|sei|sette|otto|nove|undici|dodici|tredici|quattordici|quindici"
    r"|sedici|diciassette|diciotto|diciannove|vent|trent|primo"
)
_DAY_TOKEN = rf"(?:{_DAY}|(?:{_NUMBER_STEMS})[a-z-]*(?:\s+et\s+une?)?)"
_WORDED_DATE = re.compile(
    # "vingt-sept janvier mille neuf cent…", "15 giugno millenovecento…", "the fifteenth of
    # October, nineteen seventy", "veinticinco de enero de mil novecientos…"
    rf"\b{_DAY_TOKEN},?\s+(?:of\s+|de\s+)?(?:{_MONTHS})\.?,?\s+(?:de\s+|del\s+)?{_SPELLED_YEAR}"
    # "October nineteenth, nineteen seventy-six"
    rf"|\b(?:{_MONTHS})\.?\s+{_DAY_TOKEN},?\s+{_SPELLED_YEAR}",
    re.IGNORECASE,
)

# The day and the month, then the year a few words on, after "en", "in", "del", "im Jahr":
# "Née un 29 février, en 88", "el veinte de enero; nació en el 85", "il due giugno; è del 1955".
_YEAR_APART = re.compile(
    rf"\b{_DAY_TOKEN},?\s+(?:of\s+|de\s+)?(?:{_MONTHS})\b[^.!?\n\d]{{0,40}}?"
    r"(?:\ben(?:\s+el)?|\bin|\bdel|\bnel|\bim(?:\s+jahr)?|\bof)\s+(?:\d{2}|(?:19|20)\d\d)\b"
    r"(?=\s*(?:[.,;!?)]|$))",
    re.IGNORECASE,
)
# A birthday said the other way round: the day and the month, the cue after them and the year
# in the same sentence ("Ihre Mutter hat am siebten Mai Geburtstag, Jahrgang
# neunzehnhundertneunundfünfzig", "le 3 mars c'est son anniversaire, elle est de 1962").
_DAY_MONTH = re.compile(rf"\b{_DAY_TOKEN},?\s+(?:of\s+|de\s+)?(?:{_MONTHS})\b", re.IGNORECASE)
_ANY_YEAR = re.compile(rf"(?<![\w.,/:-]){_SPELLED_YEAR}", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+")
# The same, where a full stop after a digit is a German ordinal's ("am 1. Mai 2024").
_SENTENCE_KEEPING_ORDINALS = re.compile(r"(?:[^.!?\n]|(?<=\d)\.)+")
# Words the next sentence may open with before the date: "It's", "C'est le", "Es el".
_ANSWER_WORDS = 3
_SENTENCE_BREAK = re.compile(r"[.!?]\s+(?=\S)|\n")


# A day named instead of written, with its year: "born on Pi Day in 1986", "née le jour de
# Noël 1984", "nacido en Nochebuena de 1979", "am Heiligabend 1990 geboren": a holiday fixes
# the day and the month, so with a year it is a full date.
_NAMED_DAY = (
    r"(?:[A-Z][\w']*\s+){1,3}(?:Day|Eve)|Christmas|Xmas|Halloween|Hogmanay"
    r"|(?:le\s+)?(?:jour\s+de\s+)?(?:No[eë]l|la\s+Saint[- ][A-Z]\w+|l'an|la\s+Toussaint)"
    r"|Nochebuena|Nochevieja|Navidad|(?:el\s+)?d[ií]a\s+de\s+[A-Z]\w+(?:\s+\w+)?"
    r"|Heiligabend|Silvester|Weihnachten|Neujahr|Ostern|Natale|Capodanno|Ferragosto|Pasqua"
    r"|(?:la\s+)?vigilia\s+di\s+Natale|Santo\s+Stefano"
    r"|New\s+Year'?s?|Valentine'?s|St\.?\s+Patrick'?s|Epiphany|Twelfth\s+Night|Easter"
    r"|(?:los\s+)?Reyes|A[nñ]o\s+Nuevo|Epifan[ií]a|Befana|Ognissanti|Dreik[oö]nig(?:stag)?"
    r"|Allerheiligen|Nikolaus(?:tag)?|Walpurgisnacht|(?:la\s+)?Saint[- ]Sylvestre|P[aâ]ques"
    r"|Pascua|(?:the\s+)?Fourth\s+of\s+July|[Ll]eap\s+[Dd]ay|Thanksgiving|Pentecost|Pfingsten"
    r"|Pentec[oô]te|Pentecost[eé]s|Karneval|Fasching|Mardi\s+Gras|Carnevale|Hanukkah|Diwali"
)
_NAMED_DAY_YEAR = re.compile(
    rf"^\W{{0,3}}(?:(?:on|le|el|en|am|an|il|a|the)\s+)?(?:{_NAMED_DAY})\W{{0,3}}"
    rf"(?:(?:in|of|en|de|del|im|nel|di)\s+)?(?:the\s+year\s+)?{_YEAR}(?!\d)"
    r"|^.{0,60}?\b"
    + _YEAR
    + r"(?!\d),?\s+(?:(?:on|le|el|en|am|an|il|a|the)\s+)?(?:"
    + _NAMED_DAY
    + ")",
    re.S,
)


# A named day next to its year, anywhere in a birth cue's sentence, whatever stands before
# the day: an offset from it fixes the date as well ("Birthday is two days after Christmas,
# 1979", "born the day after New Year's in '84", "le lendemain de Noël 1984").
# A weekday or a part of the day after the holiday ("Easter Sunday", "Christmas morning").
_WEEKDAYS = (
    r"Sunday|Monday|Day|Eve|dimanche|lundi|domingo|lunes|Sonntag|Montag|domenica|lunedi"
    r"|morning|evening|night|afternoon|matin|soir|nuit|manana|noche|tarde|Morgen|Abend|Nacht"
    r"|mattina|sera|notte|pomeriggio"
)
_HOLIDAY_YEAR = re.compile(
    rf"(?<![\w])(?:{_NAMED_DAY})(?:\s+(?:{_WEEKDAYS}))?\W{{0,3}}"
    r"(?:(?:in|of|en|de|del|im|nel|di|dell')\s*)?(?:the\s+year\s+)?"
    rf"(?:{_YEAR}(?!\d)|(?:19|20)\s\d{{2}}(?!\d)|['\u2019]\d{{2}}(?!\d))"
)


def _named_day(text: str) -> bool:
    """A birth cue, then a named day and a year (see :data:`_NAMED_DAY`), or a named day
    and its year in the cue's sentence (:data:`_HOLIDAY_YEAR`)."""
    if any(
        _NAMED_DAY_YEAR.search(text[cue.end() : cue.end() + REACH]) for cue in _CUE.finditer(text)
    ):
        return True
    return any(
        _CUE.search(sentence.group()) and _HOLIDAY_YEAR.search(sentence.group())
        for sentence in _SENTENCE.finditer(text)
    )


# A star sign spans a month, across two of the calendar's: with the day of the month and a
# year it fixes the date ("A Leo, born 1990, on the 3rd" is 3 August 1990). Signs in the five
# languages, capitalised as a sign's name is.
_STAR_SIGN = re.compile(
    r"(?<![\w])(?:Aries|Taurus|Gemini|Cancer|Leo|Virgo|Libra|Scorpio|Sagittarius|Capricorn"
    r"|Aquarius|Pisces|B[ée]lier|Taureau|G[ée]meaux|Lion|Vierge|Balance|Scorpion|Sagittaire"
    r"|Capricorne|Verseau|Poissons|Tauro|G[ée]minis|C[áa]ncer|Escorpio|Sagitario|Capricornio"
    r"|Acuario|Piscis|Widder|Stier|Zwillinge|Krebs|L[öo]we|Jungfrau|Waage|Skorpion|Sch[üu]tze"
    r"|Steinbock|Wassermann|Fische|Ariete|Toro|Gemelli|Cancro|Leone|Vergine|Bilancia"
    r"|Scorpione|Sagittario|Capricorno|Acquario|Pesci)(?![\w])"
)
# The day of a month without the month: "on the 3rd", "le 3", "el 3", "am 3.", "il 3".
_DAY_ALONE = re.compile(
    r"(?i:(?<![\w])(?:(?:on\s+)?the\s+(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)"
    r"|(?:le|el|am|il|a)\s+(?:0?[1-9]|[12]\d|3[01])(?:er|º|\.)?)(?![\w]|[.,]\d))"
)


def _star_sign_day(text: str) -> bool:
    """A birth cue and a year, a star sign and a day of the month, in one sentence."""
    return any(
        _CUE.search(part)
        and _STAR_SIGN.search(part)
        and _DAY_ALONE.search(part)
        and _ANY_YEAR.search(part)
        for part in (sentence.group() for sentence in re.finditer(r"[^!?\n]+", text))
    )


# A day told by what happened on it, right after a birth cue: "born on the day the Berlin Wall
# fell", "ne le soir de la finale de la Coupe du monde 1998", "nee le jour de la prise de la
# Bastille", "nacio la noche en que...", "geboren am Tag, als...", "nato il giorno della...".
# A dated event fixes the date of birth (its year as well): fail closed, whether or not a year
# is written. Only a few articles and prepositions may stand between the cue and the day, so a
# French "ne" (a negation, the same letters as a folded "ne") far from the day does not count.
_LINK_WORDS = r"(?:(?:on|in|the|le|la|el|am|an|il|a|au|en|exactly|just|right|juste)\s+){0,3}"
_EVENT_DAY = re.compile(
    rf"^\W{{0,3}}{_LINK_WORDS}(?:day|night|evening|morning|eve|weekend|week|jour|soir|soiree"
    r"|nuit|matin|veille|lendemain|dia|noche|tarde|manana|vispera|tag|abend|nacht|giorno|sera"
    r"|notte|mattina|vigilia)\s+(?:the|that|when|of|after|before|de|du|des|d'|ou|que|en|del"
    r"|des|der|als|an|della|dello|di|in)(?![\w])",
    re.IGNORECASE,
)
# A year anywhere in the note (in digits, or written as the normaliser writes a spelled one).
_NOTE_YEAR = re.compile(rf"(?<![\w.,/:-])(?:{_YEAR}|(?:19|20)\s\d{{2}})(?![\w])")
# Day, month and year told as three numbers after a cue: "day/month/year: 31 0 7 92" (the
# normaliser's "thirty-one, oh-seven, ninety-two"), "DOB 31, 7, 1992".
_THREE_NUMBERS = re.compile(
    r"(?<![\w.])(?:0?[1-9]|[12]\d|3[01])[\s,;/.-]+(?:0\s?[1-9]|1[0-2]|[1-9])[\s,;/.-]+"
    r"(?:\d{2}|(?:19|20)\d{2}|(?:19|20)\s\d{2})(?![\w])"
)


def _event_or_holiday(text: str) -> bool:
    """A birth cue and a day named by an event or a holiday (fail closed on the year):

    - the cue, then a day told by an event (:data:`_EVENT_DAY`), with or without a year;
    - the cue, then a holiday within :data:`REACH` and a year anywhere in the note, in another
      clause or as an age reached in a year ("Birthday is Christmas Eve and the user turns 35
      in 2025", "Cumple anos el dia de Reyes; nacio en 1979", "Born on Leap Day and turned 32
      in 2024");
    - the cue, then day, month and year as three numbers (:data:`_THREE_NUMBERS`).
    """
    holiday = re.compile(rf"(?<![\w])(?:{_NAMED_DAY})(?![\w])")
    for cue in _CUE.finditer(text):
        after = text[cue.end() : cue.end() + REACH]
        if _EVENT_DAY.search(after):
            return True
        loose = cue.group().lower() == "ne"  # a folded "ne", or the French negation
        day = holiday.search(after)
        if day and _says_the_day(after[: day.start()], loose) and _birth_year(text, cue.start()):
            return True
        if _THREE_NUMBERS.search(after[:_NEAR_NUMBERS]):
            return True
    return False


# A clause: what stands between two of ";", ".", "!", "?" or a line break.
_CLAUSE = re.compile(r"[^;.!?\n]+")


def _birth_year(text: str, cue_at: int) -> bool:
    """A year in the cue's own clause, or in a clause that has a birth or age cue of its own
    ("Cumple anos el dia de Reyes; nacio en 1979"); not a year of something else ("Was born
    around Christmas; plans a trip in 2027")."""
    for clause in _CLAUSE.finditer(text):
        if not _NOTE_YEAR.search(clause.group()):
            continue
        if clause.start() <= cue_at < clause.end() or _CUE.search(clause.group()):
            return True
    return False


def _says_the_day(gap: str, loose: bool) -> bool:
    """The words between a cue and a holiday say it is the birth's day ("Birthday is", "Born
    on", "Cumple anos"): no number and at most :data:`_GAP_WORDS` words, so "Born in 1979, she
    hosts Christmas" does not count; after a bare "ne", at most :data:`_NEAR` characters."""
    if loose:
        return len(gap) <= _NEAR
    return not any(ch.isdigit() for ch in gap) and len(gap.split()) <= _GAP_WORDS


_GAP_WORDS = 3
# How far a holiday may stand after a bare "ne" (a folded "ne" right before its day), and how
# far after a cue its three numbers may start ("Date of birth, day/month/year: 31 0 7 92").
_NEAR = 12
_NEAR_NUMBERS = 40


def birthdate_kinds(text: str) -> frozenset[str]:
    """``DATE_OF_BIRTH`` when a full date follows a birth cue closely enough; never the value."""
    for cue in _CUE.finditer(text):
        window = text[cue.end() : cue.end() + REACH]
        found = (
            _FULL_DATE.search(window),
            _WORDED_DATE.search(window),
            _YEAR_APART.search(window),
        )
        dates = [d for d in found if d]
        if not dates:
            continue
        date = min(dates, key=lambda found: found.start())
        breaks = list(_SENTENCE_BREAK.finditer(window[: date.start()]))
        # In the cue's sentence, or opening the next one as its answer ("It's 23/05/2016").
        if not breaks or (
            len(breaks) == 1
            and len(window[breaks[0].end() : date.start()].split()) <= _ANSWER_WORDS
        ):
            return frozenset({DATE_OF_BIRTH})
    if _named_day(text) or _star_sign_day(text) or _event_or_holiday(text):
        return frozenset({DATE_OF_BIRTH})
    if any(
        _AGE_CUE.search(part) and _FULL_DATE.search(part)
        for part in (sentence.group() for sentence in _SENTENCE_KEEPING_ORDINALS.finditer(text))
    ):
        return frozenset({DATE_OF_BIRTH})
    for sentence in _SENTENCE.finditer(text):
        part = sentence.group()
        day = _DAY_MONTH.search(part)
        if day and _CUE.search(part) and _ANY_YEAR.search(part, day.end()):
            return frozenset({DATE_OF_BIRTH})
    return frozenset()
