"""How the words around a name-like span decide whether it names a person.

The NER model (:mod:`memory_service.adapters.presidio_pii`) proposes spans; this module holds the
word data and the shape rules that read their context: a business or a site named after a
person ("Yves Rocher", "the Leeds office"), a product line ("RAV4 Hybrid", "macOS Sonoma"),
a pet or a thing that is "called" something, a street or a school named after someone ("rue
Victor Hugo"), and the entity labels that never name a person. Policy and words live here, in
the core; the adapter only runs the model and maps its results.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence

from memory_service.core.lexicons import Lexicons, fold
from memory_service.core.privacy.name_lookalikes import pet_named_before, thing_named_before
from memory_service.core.privacy.names import relation_after

PUNCTUATION = ".,;:!?()\"'"


# The shape of the recognizer's compound given name and surname ("Jean-Baptiste Moreau").
HYPHENATED_PAIR = re.compile(r"(?P<first>[^\W\d_]+-[^\W\d_]+)\s+[^\W\d_]+")
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
# A German article, possessive or adjective ending: a capitalised word after one is a noun.
GERMAN_INFLECTED = re.compile(r"(?:e|en|em|er|es)$")
# A capitalised word and a model number right before a first-name pair ("Model 3 Long Range",
# "Serie 5 Grand Tourer"): the pair is the trim of a product line (a name holds no digit).
MODEL_NUMBER_BEFORE = re.compile(r"(?-i:[A-ZÀ-ÖØ-Þ])[\w-]*\s[A-Za-z]*\d[\w-]*\s$")
# Labels of a maker or a product: a name-like span right after one is a model of it
# ("Toyota RAV4 Hybrid", "Honda CR-V Hybrid", "Peugeot 3008 Hybrid4").
BRAND_LABELS = frozenset({"ORG", "PRODUCT", "MISC"})
NON_PERSON_LABELS = PLACE_LABELS | frozenset(
    {
        "CARDINAL",
        "DATE",
        "EVENT",
        "LANGUAGE",
        "LAW",
        "MONEY",
        "NORP",
        "ORDINAL",
        "ORG",
        "PERCENT",
        "PRODUCT",
        "QUANTITY",
        "TIME",
        "WORK_OF_ART",
        "MISC",
    }
)
# Nouns that put a person's name on a place or an institution ("rue Victor Hugo", "lycée
# Jean Moulin", "Victoria Station" is caught as a common word): a name right after one is
# an address or a building, not a person.
NAMED_AFTER_PEOPLE = frozenset(
    {
        "rue",
        "avenue",
        "boulevard",
        "bd",
        "place",
        "quai",
        "allee",
        "impasse",
        "square",
        "lycee",
        "college",
        "ecole",
        "universite",
        "hopital",
        "stade",
        "metro",
        "gare",
        "station",
        "street",
        "road",
        "school",
        "hospital",
        "stadium",
    }
)
_DETERMINERS = r"(?:the|our|their|its|this|that|le|la|l'|notre|leur|ce|cet|cette)"


class BusinessContext:
    """Whether a capitalised span the NER model calls a person names a business instead.

    Brands named after people ("Yves Rocher", "Earl Grey") read as names to the model; the
    sentence around them says otherwise: a trade context right before ("shops at", "achète
    ses cosmétiques chez", "client fidèle de"), a product or store noun right after ("tea",
    "magasin"), or a site after a determiner ("the Leeds office"). A name cue just before
    ("my name is", "her manager", "s'appelle") always wins, so such a span stays a person.
    """

    def __init__(self, lexicons: Lexicons) -> None:
        def alternation(items: Sequence[str]) -> str:
            return "|".join(f"(?:{fold(item).lower()})" for item in items) or "(?!x)x"

        self._trade_before = re.compile(rf"(?<!\w)(?:{alternation(lexicons.trade_cues)})\s*$")
        self._trade_after = re.compile(rf"^\s*(?:{alternation(lexicons.trade_nouns)})(?!\w)")
        self._site_after = re.compile(rf"^\s*(?:{alternation(lexicons.site_nouns)})(?!\w)")
        self._determiner_before = re.compile(rf"(?<!\w){_DETERMINERS}\s*$")
        cues = (*lexicons.name_cues, *_PERSON_ROLES)
        self._person_before = re.compile(rf"(?<!\w)(?:{alternation(cues)})\s*:?\s*$")

    def person_before(self, before: str) -> bool:
        """Whether a name cue ends ``before`` ("my name is", "her manager", "Mrs.")."""
        return bool(self._person_before.search(fold(before).lower()))

    def names_business(self, span: str, before: str, after: str) -> bool:
        lead, rest = split_lead(span)
        prefix = fold(f"{before}{lead}").lower()
        suffix = fold(after).lower()
        if not rest or self._person_before.search(prefix):
            return False
        if self._trade_before.search(prefix) or self._trade_after.search(suffix):
            return True
        return bool(self._determiner_before.search(prefix) and self._site_after.search(suffix))


# Words that put a person's name right after them, in any language: never a business there.
_PERSON_ROLES = (
    "contact",
    "contacts",
    "(?:his|her|their|my|the user's|the customer's) (?:manager|boss|wife|husband|partner|"
    "son|daughter|mother|father|brother|sister|friend|colleague|assistant|doctor|lawyer)",
    "(?:son|sa|leur|mon|ma) (?:manager|responsable|chef|femme|mari|épouse|époux|fils|fille|"
    "mère|père|frère|sœur|ami|amie|collègue|médecin|avocat|avocate)",
    "mr\\.?",
    "mrs\\.?",
    "ms\\.?",
    "dr\\.?",
    "m\\.",
    "mme\\.?",
)


def split_lead(span: str) -> tuple[str, str]:
    """('de ', 'Leroy Merlin') for 'de Leroy Merlin': lower-case words the model sometimes
    takes into a name belong to the context before it."""
    words = span.split(" ")
    for index, word in enumerate(words):
        if is_name_token(word.strip(PUNCTUATION)):
            return " ".join(words[:index]) + (" " if index else ""), " ".join(words[index:])
    return span, ""


_MAKER_SPELLING = re.compile(r"[a-z]{1,3}[A-Z][\w-]*")


def is_product_line(span: str, before: str, brand_ends: frozenset[int]) -> bool:
    """Whether a span the NER model calls a person is a product line: a word of it holds a
    digit ("RAV4 Hybrid"; names have none), it starts with or follows a maker's spelling
    ("macOS Sonoma"), or it follows a maker the model labelled
    ("Honda" CR-V Hybrid) with nothing but a space between."""
    if any(any(ch.isdigit() for ch in word) for word in span.split()):
        return True
    # A lower-case initial then a capital ("macOS Sonoma", "iPhone Pro", "eBay Plus"): a
    # maker's spelling no name has, in the span or right before it.
    previous = before.split()[-1:]
    if any(_MAKER_SPELLING.fullmatch(word) for word in [*previous, *span.split()[:1]]):
        return True
    stripped = before.rstrip()
    return bool(stripped) and len(stripped) != len(before) and len(stripped) in brand_ends


_TITLE_WORD_END = re.compile(r"(?<=\s)[A-Z][a-z]{0,8}\.?\s+$")


def thing_named(text: str, start: int, end: int) -> bool:
    """Whether the naming verb before a span has a pet or a thing as its head ("the cat is
    called Moustache", "Le chat s'appelle Moustache", "a beagle named Biscuit"): the verb is
    then no person cue, for the NER model and the cue pattern alike. A relationship word in
    apposition after the span still makes it a person."""
    before = text[max(0, start - 80) : start]
    # a title-like word between the naming verb and the name: "The cat is called Mr Whiskers"
    untitled = _TITLE_WORD_END.sub("", before)
    named = any(thing_named_before(b) or pet_named_before(b) for b in {before, untitled})
    return named and not relation_after(text, end)


# What ends a sentence before a span: the word after it opens the next one. Not a colon:
# the words after one are a label's value ("Emergency contact: Oluwaseun Adebayo-Grant").
_SENTENCE_END = ".!?\n"
_OPENER = re.compile(r"(?P<word>[^\W\d_][\w'\u2019-]*)\s+(?=\S)")


def past_sentence_opener(text: str, start: int, end: int, given: Container[str]) -> int:
    """Where a span the NER model calls a person starts once a sentence's first word that
    is no given name is left out: a note without a subject opens with its verb or its label
    ("Likes Chekhov", "Speaks German", "Client Acme"), capitalised only by its place, and the
    small English model runs the name over it. The name model, the fame probe and
    :func:`name_unit` never take a sentence's first word into a name, and the adapter's own
    count of names skips it: the rest is judged as any name inside a sentence is. A first
    word of the dictionary of given names stays ("Joaquin Reyes belays")."""
    head = text[:start].rstrip()
    if head and head[-1] not in _SENTENCE_END:
        return start
    opener = _OPENER.match(text, start, end)
    if opener is None or fold(opener["word"]).lower() in given:
        return start
    return opener.end()


def last_word(text: str) -> str:
    words = fold(text).lower().replace("'", " ").split()
    return words[-1] if words else ""


def is_name_token(word: str) -> bool:
    """'Margaret', "O'Brien", 'Jean-Baptiste', 'Dr'; not 'GPT-4', 'NASA' or a URL."""
    return (
        len(word) > 1
        and word[0].isupper()
        and any(ch.islower() for ch in word)
        and all(ch.isalpha() or ch in "'\u2019-" for ch in word)
    )
