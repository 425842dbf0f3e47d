"""Lexical rules behind consolidation: tokens, similarity, slots and an ephemeral check.

Pure and deterministic, so the no-LLM path decides the same way every time. These rules
are deliberately conservative: two notes conflict only when they share a slot (a keyword
or most of their wording) AND each states something the other does not; merely related
notes ("likes Lyon", "allergic to peanuts") stay unrelated, because wrongly superseding a
true fact is worse than keeping two. Stop words, change markers and negations are language
data, read from ``core/lexicons`` like the guards' word lists.

The ephemeral check is the guards' own rule (``core/guards.is_ephemeral``): guards refuse
ephemeral durable notes at save time, and consolidation re-applies the same rule as defence
in depth, so the gate and the re-check can never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from memory_service.core.guards import is_ephemeral
from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold
from memory_service.core.text import normalize_keyword, normalize_text

# Near duplicates: same content words (after light stemming), or nearly the same characters
# with the same numbers ("uses Python 3.11" vs "uses Python 3.12" is a conflict, not a dup).
NEAR_TOKEN_JACCARD = 0.8
NEAR_TRIGRAM_DICE = 0.9
# Without a shared keyword, two notes share a slot only when most of their wording agrees.
SLOT_TOKEN_JACCARD = 0.5
# Pairs below this overlap and without a shared keyword are not worth a judge's look.
RELATED_TOKEN_JACCARD = 0.3
# A "value" that differs between two notes of one slot is short; longer differences mean
# the notes say different things rather than different values for one thing.
MAX_VALUE_TOKENS = 3

_TOKEN = re.compile(r"[^\W_]+(?:[.'+#-][^\W_]+)*[+#]*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


class PairRelation(StrEnum):
    """What the rules can tell about two notes without understanding them."""

    EXACT = "exact"
    NEAR = "near"
    CONFLICT = "conflict"
    # Related enough (a shared keyword or overlapping wording) to ask a judge.
    RELATED = "related"
    UNRELATED = "unrelated"


@dataclass(frozen=True)
class NoteTerms:
    """The lexical view of one note, computed once per note."""

    normalized: str
    content: frozenset[str]
    keywords: frozenset[str]
    numbers: frozenset[str]
    negated: bool

    @cached_property
    def trigrams(self) -> frozenset[str]:
        """Character trigrams, computed only for the few pairs that get compared."""
        padded = f"  {self.normalized} "
        return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))

    @property
    def index_terms(self) -> frozenset[str]:
        """Terms a candidate index files the note under: content words and keywords."""
        return self.content | {f"kw:{k}" for k in self.keywords}


def _stem(token: str) -> str:
    """Plural-insensitive form: "seats" and "seat" are one word for similarity."""
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


def _plain(text: str) -> str:
    """Normalised text with curly apostrophes made straight, so both spellings match."""
    return normalize_text(text).replace("\u2019", "'")


def terms_of(
    text: str, keywords: tuple[str, ...] = (), lexicons: Lexicons = DEFAULT_LEXICONS
) -> NoteTerms:
    """Content words leave out the lexicons' stop words, change markers ("now", "désormais")
    and negations, so "now uses Vim" and "uses Vim" compare as the same wording.

    Words are compared accent-folded, as the lexicons store them.
    """
    normalized = _plain(text)
    raw = _TOKEN.findall(fold(normalized).replace("n't", " n't"))
    negated = any(t in lexicons.negations for t in raw)
    content = frozenset(
        _stem(t)
        for t in raw
        if t not in lexicons.stopwords
        and t not in lexicons.change_markers
        and t not in lexicons.negations
    )
    return NoteTerms(
        normalized=normalized,
        content=content,
        keywords=frozenset(normalize_keyword(k) for k in keywords),
        numbers=frozenset(_NUMBER.findall(normalized)),
        negated=negated,
    )


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


def classify_pair(a: NoteTerms, b: NoteTerms) -> PairRelation:
    """The rules' verdict on two notes of one subject and purpose.

    EXACT and NEAR are certain enough to merge without a judge. CONFLICT means the two
    share a slot and give it different values (or one negates the other). RELATED pairs
    are left for a judge and count as unrelated without one.
    """
    if a.normalized == b.normalized:
        return PairRelation.EXACT
    content_similarity = jaccard(a.content, b.content)
    same_polarity = a.negated == b.negated
    if (
        same_polarity
        and a.numbers == b.numbers
        and (
            content_similarity >= NEAR_TOKEN_JACCARD
            or dice(a.trigrams, b.trigrams) >= NEAR_TRIGRAM_DICE
        )
    ):
        return PairRelation.NEAR
    shared_keyword = bool(a.keywords & b.keywords)
    only_a = a.content - b.content
    only_b = b.content - a.content
    frame = (a.content & b.content) - a.keywords - b.keywords
    if not same_polarity and (shared_keyword or content_similarity >= SLOT_TOKEN_JACCARD):
        return PairRelation.CONFLICT
    different_values = (
        bool(only_a)
        and bool(only_b)
        and len(only_a) <= MAX_VALUE_TOKENS
        and len(only_b) <= MAX_VALUE_TOKENS
    )
    if different_values and (
        (shared_keyword and frame) or content_similarity >= SLOT_TOKEN_JACCARD
    ):
        return PairRelation.CONFLICT
    if shared_keyword or content_similarity >= RELATED_TOKEN_JACCARD:
        return PairRelation.RELATED
    return PairRelation.UNRELATED


def looks_ephemeral(text: str) -> bool:
    """True for one-off, time-bound notes ("tonight", "demain"), by the guards' rule."""
    return is_ephemeral(fold(text))
