"""Language data for the distillation guards and consolidation: one JSON file per language.

Adding a language means adding ``<code>.json`` here with the same keys as ``en.json``;
:func:`load_lexicons` reads every JSON file in this folder, so no code changes.
:data:`DEFAULT_LEXICONS` is what the core uses unless a caller passes its own.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'", "`": "'"})
_WORD = re.compile(r"[^\W_]+")
_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212", "-"))

# Keys a lexicon may hold. The regex categories are matched on folded text by the core;
# the raw lists serve the PII adapter, which matches on the original text.
PATTERN_KEYS = (
    "speculative",
    "ephemeral",
    "one_off",
    "clock_times",
    "appointment_nouns",
    "recurrence",
    "permanent",
    "filler",
    "instruction",
    "secret_cues",
    "credential_cues",
)
LIST_KEYS = ("abbreviations", "weekdays", "months", "stopwords", "change_markers", "negations")
RAW_KEYS = (
    "name_cues",
    "birth_cues",
    "place_prepositions",
    "product_names",
    "trade_cues",
    "trade_nouns",
    "site_nouns",
    "first_names",
    "national_id_cues",
)


class LexiconError(ValueError):
    """A lexicon file is malformed; raised at import, never per request."""


# Month names and their abbreviations in EN/FR/ES/DE/IT, as one regular-expression
# alternation (no group), matching both the written and the folded forms ("février",
# "fevrier"). Shared by the privacy guards (dates of birth) and the judgment rules (a date
# that ends a passing state): one source for the vocabulary.
MONTH_NAMES = (
    r"jan(?:uary|vier|uar)?|feb(?:ruary|ruar)?|f[ée]vrier|mar(?:ch|s)?|m[äa]rz|apr(?:il)?|avril"
    r"|may|mai|june?|juin|july?|juillet|aug(?:ust)?|ao[ûu]t|sep(?:t|tember)?|septembre"
    r"|oct(?:ober)?|octobre|okt(?:ober)?|nov(?:ember)?|novembre|dec(?:ember)?|d[ée]cembre"
    r"|dez(?:ember)?|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre"
    r"|octubre|noviembre|diciembre|januar|juni|juli|gennaio|febbraio|aprile|maggio|giugno"
    r"|luglio|settembre|ottobre|dicembre"
)


def fold(text: str) -> str:
    """Accent-, apostrophe- and dash-insensitive form, so 'Peut-Être' matches 'peut-etre'."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES).translate(_DASHES))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Lexicons:
    """Every language's data merged and compiled once.

    Notes mix languages ("RDV demain for the demo"), so each guard tries all languages at
    once rather than guessing one first.
    """

    languages: tuple[str, ...]
    patterns: Mapping[str, re.Pattern[str]]
    sentence_abbreviation: re.Pattern[str]
    stopwords: frozenset[str]
    stopwords_by_language: Mapping[str, frozenset[str]]
    # Words that announce a new value ("now", "désormais") and negations ("never", "jamais"):
    # consolidation compares notes without them and tells a negated note from a plain one.
    change_markers: frozenset[str]
    negations: frozenset[str]
    months: tuple[str, ...]
    name_cues: tuple[str, ...]
    birth_cues: tuple[str, ...]
    place_prepositions: frozenset[str]
    product_names: tuple[str, ...]
    # Regexes (folded, lower case) that make a capitalised span a business rather than a
    # person: a trade context just before it ("shops at", "achète ... chez", "client de"),
    # a product or store noun just after it ("tea", "magasin"), or a site noun after a
    # determiner ("the X office"). Used by the PII adapter on NER person spans only.
    trade_cues: tuple[str, ...] = ()
    trade_nouns: tuple[str, ...] = ()
    site_nouns: tuple[str, ...] = ()
    # A gazetteer of common first names (matched with their capitals on the original text):
    # "first name + capitalised word" is a person in any language, which the English NER
    # model misses in French text. National id cues (regexes) put a long digit group after
    # them in the personal data even when its checksum fails.
    first_names: tuple[str, ...] = ()
    national_id_cues: tuple[str, ...] = ()

    def search(self, category: str, folded_text: str) -> bool:
        return self.patterns[category].search(folded_text) is not None

    def language_of(self, folded_text: str) -> str | None:
        """The language whose stop words the text uses most; None when no stop word is found.

        Cheap and good enough to tell an English note from a French one.
        """
        words = _WORD.findall(folded_text.lower())
        counts = {
            language: sum(word in stopwords for word in words)
            for language, stopwords in self.stopwords_by_language.items()
        }
        best = max(counts, key=lambda language: counts[language], default=None)
        return best if best is not None and counts[best] > 0 else None

    @classmethod
    def from_documents(cls, documents: Iterable[Mapping[str, Any]]) -> Lexicons:
        docs = list(documents)
        if not docs:
            raise LexiconError("no lexicon found")
        merged: dict[str, list[str]] = {key: [] for key in (*PATTERN_KEYS, *LIST_KEYS, *RAW_KEYS)}
        languages: list[str] = []
        stopwords_by_language: dict[str, frozenset[str]] = {}
        for doc in docs:
            language = doc.get("language")
            if not isinstance(language, str):
                raise LexiconError("a lexicon has no language code")
            languages.append(language)
            weekdays = _strings(doc, "weekdays", language)
            months = _strings(doc, "months", language)
            stopwords_by_language[language] = _fold_words(_strings(doc, "stopwords", language))
            for key in merged:
                values = _strings(doc, key, language)
                if key in PATTERN_KEYS:
                    values = [_expand(value, weekdays, months) for value in values]
                merged[key].extend(values)
        patterns = {key: _compile(merged[key]) for key in PATTERN_KEYS}
        abbreviations = "|".join(fold(a) for a in merged["abbreviations"])
        return cls(
            languages=tuple(languages),
            patterns=patterns,
            sentence_abbreviation=re.compile(rf"(?:^|[^\w.])(?:{abbreviations}|\w)\.$", re.I),
            stopwords=_fold_words(merged["stopwords"]),
            stopwords_by_language=stopwords_by_language,
            change_markers=_fold_words(merged["change_markers"]),
            negations=_fold_words(merged["negations"]),
            months=tuple(merged["months"]),
            name_cues=tuple(merged["name_cues"]),
            birth_cues=tuple(merged["birth_cues"]),
            place_prepositions=_fold_words(merged["place_prepositions"]),
            product_names=tuple(merged["product_names"]),
            trade_cues=tuple(merged["trade_cues"]),
            trade_nouns=tuple(merged["trade_nouns"]),
            site_nouns=tuple(merged["site_nouns"]),
            first_names=tuple(dict.fromkeys(merged["first_names"])),
            national_id_cues=tuple(merged["national_id_cues"]),
        )


def load_lexicons() -> Lexicons:
    """Read every ``*.json`` file of this package, in name order."""
    folder = resources.files(__package__)
    documents = []
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".json"):
            documents.append(json.loads(entry.read_text(encoding="utf-8")))
    return Lexicons.from_documents(documents)


def _fold_words(words: Iterable[str]) -> frozenset[str]:
    return frozenset(fold(word).lower() for word in words)


def _strings(doc: Mapping[str, Any], key: str, language: str) -> list[str]:
    values = doc.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise LexiconError(f"lexicon {language}: {key} must be a list of strings")
    return list(values)


def _expand(pattern: str, weekdays: Sequence[str], months: Sequence[str]) -> str:
    return pattern.replace("{weekday}", f"(?:{'|'.join(weekdays)})").replace(
        "{month}", f"(?:{'|'.join(months)})"
    )


def _compile(patterns: Sequence[str]) -> re.Pattern[str]:
    """One alternation per category, anchored on word edges where the pattern has a word edge.

    ``(?:(?<!\\w)|(?!\\w))`` only demands a boundary when the pattern starts with a word
    character, so "<|im_start|>system" and "SYSTEM:x" still match.
    """
    if not patterns:
        return re.compile(r"(?!x)x")
    body = "|".join(f"(?:{fold(p)})" for p in patterns)
    try:
        return re.compile(rf"(?:(?<!\w)|(?!\w))(?:{body})(?:(?!\w)|(?<!\w))", re.I | re.M)
    except re.error as exc:
        raise LexiconError(f"a lexicon pattern does not compile: {exc.msg}") from exc


DEFAULT_LEXICONS = load_lexicons()
