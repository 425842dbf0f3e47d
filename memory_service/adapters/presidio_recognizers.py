"""Presidio's pattern recognizers that notes need, for each language an NER model reads.

Presidio's defaults are tuned for documents; notes need more: names introduced by the
lexicons' cues ("my name is", "je m'appelle", "née"), dates of birth, passport and French
social security numbers, phone numbers written with a country code, and an e-mail recognizer
that never downloads the public suffix list. Presidio keys every recognizer by language, so
:func:`build_recognizers` builds the set once per NER language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import phonenumbers
import tldextract
from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    CryptoRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
    SpacyRecognizer,
    UkNinoRecognizer,
    UsSsnRecognizer,
)

from memory_service.core.lexicons import Lexicons, fold

LANGUAGE = "en"
_CASE_SENSITIVE = re.DOTALL | re.MULTILINE
_ACCENTS = {"e": "[eéèêë]", "a": "[aàâä]", "u": "[uùûü]", "i": "[iîï]", "o": "[oôö]", "c": "[cç]"}


def offline_extractor() -> tldextract.TLDExtract:
    """A domain parser on the bundled public suffix snapshot: no download, no disk cache."""
    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=())


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's e-mail recognizer validates domains with ``tldextract``, whose default
    extractor downloads the public suffix list on first use. This one reads the snapshot
    bundled with tldextract and never touches the network or the disk cache."""

    _extractor = offline_extractor()

    def validate_result(self, pattern_text: str) -> bool:
        return self._extractor(pattern_text).fqdn != ""


class FrNirRecognizer(PatternRecognizer):
    """French social security number (NIR): 13 digits and a mod-97 key, spaces optional."""

    PATTERN = (
        r"\b[12]\s?\d{2}\s?(?:0[1-9]|1[0-2]|[2-9]\d)\s?(?:\d{2}|2[AB])\s?\d{3}\s?\d{3}\s?\d{2}\b"
    )

    def __init__(self, language: str = LANGUAGE) -> None:
        super().__init__(
            supported_entity="FR_NIR",
            patterns=[Pattern("nir", self.PATTERN, 0.5)],
            context=["sécurité sociale", "securite sociale", "nir", "insee", "social security"],
            supported_language=language,
        )

    def validate_result(self, pattern_text: str) -> bool:
        digits = "".join(pattern_text.split()).upper()
        # Corsica: 2A and 2B count as 19 and 18 for the key.
        number = digits[:13].replace("2A", "19").replace("2B", "18")
        return number.isdigit() and int(digits[13:]) == 97 - int(number) % 97


class InternationalPhoneRecognizer(PatternRecognizer):
    """A phone number written with its country code ("+44 7700 900418", "0049 30 901820").

    Presidio's phone recognizer keeps only numbers ``phonenumbers`` holds *valid*, which
    drops real-looking numbers in ranges it does not know (reserved, new or fictional
    ones) and every region outside its short default list. A number written with a country
    code is a phone number whatever its range, so the shape decides here and
    ``phonenumbers`` only checks that the length is possible for that country.
    """

    PATTERN = r"(?<![\w+])(?:\+|00)[1-9]\d{0,2}(?:[ .-]?\(?\d{1,5}\)?){2,6}(?![\w])"

    def __init__(self, language: str = LANGUAGE) -> None:
        super().__init__(
            supported_entity="PHONE_NUMBER",
            name="InternationalPhoneRecognizer",
            patterns=[Pattern("number with a country code", self.PATTERN, 0.6)],
            supported_language=language,
        )

    def validate_result(self, pattern_text: str) -> bool:
        digits = "".join(ch for ch in pattern_text if ch.isdigit())
        international = "+" + (digits[2:] if pattern_text.startswith("00") else digits)
        try:
            number = phonenumbers.parse(international, None)
        except phonenumbers.NumberParseException:
            return False
        return phonenumbers.is_possible_number(number)


def build_recognizers(lexicons: Lexicons, language: str = LANGUAGE) -> list[EntityRecognizer]:
    """Presidio's recognizers for the entities we count, plus the ones notes need, for one
    of the NER languages (Presidio keys every recognizer by language)."""
    recognizers: list[EntityRecognizer] = [
        SpacyRecognizer(supported_language=language, supported_entities=["PERSON"]),
        OfflineEmailRecognizer(supported_language=language),
        PhoneRecognizer(supported_language=language),
        InternationalPhoneRecognizer(language),
        CreditCardRecognizer(supported_language=language),
        IbanRecognizer(supported_language=language),
        IpRecognizer(supported_language=language),
        CryptoRecognizer(supported_language=language),
        UsSsnRecognizer(supported_language=language),
        UkNinoRecognizer(supported_language=language),
        FrNirRecognizer(language),
        _name_in_context(lexicons.name_cues, language),
        _date_of_birth(lexicons.birth_cues, lexicons.months, language),
        _passport(language),
        _national_id(lexicons.national_id_cues, language),
    ]
    return recognizers


def _national_id(cues: Sequence[str], language: str) -> PatternRecognizer:
    """A long digit group a few words after a national id, social security, passport or tax
    id cue ("numéro de sécu", "SSN", "tax id"), whatever its checksum: a mistyped key is
    still someone's number."""
    cue = "|".join(f"(?:{c})" for c in cues) or "(?!x)x"
    number = r"(?<!\d)[A-Z]{0,2}\d(?:[ .\-/]?\d){7,}[A-Z]?(?![\w])"
    pattern = rf"(?i:\b(?:{cue})\b[^\d\n.!?;]{{0,40}}?{number})"
    return PatternRecognizer(
        supported_entity="NATIONAL_ID",
        name="NationalIdAfterCueRecognizer",
        patterns=[Pattern("long number after a national id cue", pattern, 0.85)],
        supported_language=language,
    )


def _name_in_context(cues: Sequence[str], language: str) -> PatternRecognizer:
    """A capitalised name right after a cue. Only the name is the match, so the product
    allow-list still applies ("a tool called Jenkins" is not a person)."""
    word = r"\p{Lu}[\p{L}'\u2019-]+"
    name = rf"(?:(?:Dr|Mr|Mrs|Ms|Mme|Mlle|M)\.?\s+)?{word}(?:\s+{word}){{0,2}}"
    pattern = rf"(?<=(?i:\b(?:{'|'.join(cues)}))\s*:?\s+){name}"
    # French compound given names ("Jean-Baptiste Moreau") that the English model misses.
    compound = r"\b\p{Lu}\p{Ll}+-\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+\b"
    return PatternRecognizer(
        supported_entity="PERSON",
        name="NameInContextRecognizer",
        patterns=[
            Pattern("name after a cue", pattern, 0.85),
            Pattern("compound given name and surname", compound, 0.6),
        ],
        supported_language=language,
        global_regex_flags=_CASE_SENSITIVE,
    )


def _date_of_birth(cues: Sequence[str], months: Sequence[str], language: str) -> PatternRecognizer:
    month = "|".join(_accent_tolerant(m) for m in months)
    date = (
        rf"(?:\d{{1,2}}(?:st|nd|rd|th|er)?\s+(?:of\s+)?(?:{month})\.?(?:,?\s+\d{{2,4}})?"
        rf"|(?:{month})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
        r"|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4})"
        # not a year alone ("born in 1987"): a year of birth is an age, shared by a cohort
    )
    pattern = rf"(?i:\b(?:{'|'.join(cues)})\s*:?\s*(?:the\s+|on\s+)?{date})"
    return PatternRecognizer(
        supported_entity="DATE_OF_BIRTH",
        name="DateOfBirthRecognizer",
        patterns=[Pattern("date after a birth cue", pattern, 0.85)],
        supported_language=language,
    )


def _passport(language: str) -> PatternRecognizer:
    cue = r"(?:passport|passeport)(?:\s+(?:number|no\.?|n°|num[ée]ro|#))?\s*:?\s*"
    pattern = rf"(?i:(?<=\b{cue})(?=[A-Z]*\d)[A-Z0-9]{{6,9}}\b)"
    return PatternRecognizer(
        supported_entity="PASSPORT",
        name="PassportRecognizer",
        patterns=[Pattern("number after 'passport'", pattern, 0.85)],
        supported_language=language,
    )


def _accent_tolerant(word: str) -> str:
    """'février' also matches 'fevrier' and 'FÉVRIER' (folded letters get a class)."""
    return "".join(_ACCENTS.get(ch, ch) for ch in fold(word).lower())
