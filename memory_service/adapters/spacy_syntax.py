"""The syntax port on spaCy's small English and French taggers.

Agents write notes without a subject ("Studies Japanese", "Apprend le japonais"), which the
small models read as nouns or names ("Studies" NOUN, "Apprend" PROPN); a subject pronoun put
before the note ("She studies Japanese", "Elle apprend le japonais") gives them the sentence
they were trained on, and the pronoun's own tag is dropped. Only the tagger and what feeds it
are loaded (no parser, no entities, no lemmatizer), once per process, on first use. Nothing
is kept: the text leaves as a set of verbs.
"""

from __future__ import annotations

from functools import cache

import spacy
from spacy.language import Language

from memory_service.adapters.presidio_pii import FRENCH_MODEL, resolve_spacy_model
from memory_service.core.consolidation.rules import looks_french
from memory_service.core.lexicons import fold

_VERB_TAGS = frozenset({"VERB", "AUX"})
# Where a note's value begins: its first noun, name, adjective or number.
_VALUE_TAGS = frozenset({"NOUN", "PROPN", "ADJ", "NUM", "PRON"})
_ONLY_TAGS = ("parser", "ner", "lemmatizer", "senter")
# A subject for a subject-less note, per language; its token is dropped after tagging.
_SUBJECT = {"en": "She", "fr": "Elle"}


@cache
def _pipeline(model: str) -> Language:
    return spacy.load(resolve_spacy_model(model), exclude=list(_ONLY_TAGS))


class SpacySyntax:
    """The predicate's verbs by the part-of-speech tags of ``english_model`` or
    ``french_model``: those before the note's first noun, name, adjective or number. A word
    the small models misread as a verb after the value ("Is allergic to shellfish":
    "shellfish" VERB) is no verb here, and a note opening with its subject ("Dog eats
    kibble") has no predicate to tell: fail closed, nothing merges by it."""

    def __init__(
        self, english_model: str = "en_core_web_sm", french_model: str = FRENCH_MODEL
    ) -> None:
        self._models = {"en": english_model, "fr": french_model}

    def verbs(self, text: str) -> frozenset[str]:
        stripped = text.strip()
        if not stripped:
            return frozenset()
        language = "fr" if looks_french(stripped) else "en"
        sentence = f"{_SUBJECT[language]} {stripped[:1].lower()}{stripped[1:]}"
        doc = _pipeline(self._models[language])(sentence)
        verbs = set()
        for token in doc[1:]:
            if token.pos_ in _VALUE_TAGS:
                break
            if token.pos_ in _VERB_TAGS:
                verbs.add(fold(token.lower_))
        return frozenset(verbs)
