"""The ``attribute`` argument of ``save_memory_note``: what a note is about.

Shape: ``{"key": "home_city", "cardinality": "single"}`` (or null / absent). ``key`` is a
short snake_case topic name, 2 to 40 characters of ``a-z``, ``0-9`` and single
underscores, starting with a letter, without a run of three digits (a key names a topic,
never carries a value such as a number). ``cardinality`` is ``single`` (one value at a
time: a newer one supersedes it, e.g. ``home_city``, ``main_editor``) or ``multi`` (several
at once: a value leaves only when explicitly denied or removed, e.g. ``cuisine_liked``,
``allergy``). Both fields are required, nothing else is allowed; a wrong shape is an
``invalid`` reason that names the rule, never the value sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from memory_service.core.model import Attribute, Cardinality, Reason, ReasonCode

FIELD = "attribute"
MAX_KEY_CHARS = 40
_KEY = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_NUMBER_RUN = re.compile(r"\d{3}")

KEY_RULE = (
    f"attribute.key must be 2 to {MAX_KEY_CHARS} characters of snake_case "
    "(a-z, 0-9, single underscores, a letter first), naming a topic, not a value"
)
CARDINALITY_RULE = "attribute.cardinality must be 'single' or 'multi'"
SHAPE_RULE = "attribute must be an object with exactly 'key' and 'cardinality', or null"


def parse_attribute(value: object) -> tuple[Attribute | None, tuple[Reason, ...]]:
    """The attribute, or the reasons it is refused (codes and rules, never the value)."""
    if value is None:
        return None, ()
    if not isinstance(value, Mapping) or set(value) != {"key", "cardinality"}:
        return None, (Reason(ReasonCode.INVALID, SHAPE_RULE),)
    key, cardinality = value["key"], value["cardinality"]
    reasons = []
    if (
        not isinstance(key, str)
        or not 2 <= len(key) <= MAX_KEY_CHARS
        or not _KEY.fullmatch(key)
        or _NUMBER_RUN.search(key)
    ):
        reasons.append(Reason(ReasonCode.INVALID, KEY_RULE))
    if cardinality not in {c.value for c in Cardinality}:
        reasons.append(Reason(ReasonCode.INVALID, CARDINALITY_RULE))
    if reasons:
        return None, tuple(reasons)
    assert isinstance(key, str) and isinstance(cardinality, str)
    return Attribute(key, Cardinality(cardinality)), ()


def key_words(attribute: Attribute) -> str:
    """The key as words, for the personal-data check ("mother_jane_allergy")."""
    return attribute.key.replace("_", " ")


# Words an agent adds to a key without changing the topic it names.
_GENERIC_KEY_WORDS = frozenset(
    {
        "current",
        "main",
        "primary",
        "preferred",
        "preference",
        "pref",
        "favorite",
        "favourite",
        "has",
        "have",
        "is",
        "my",
        "user",
        "usual",
        "type",
        "kind",
        "principal",
        "prefere",
    }
)


def key_form(attribute: Attribute) -> frozenset[str]:
    """The key as a set of singular topic words: ``pets`` and ``has_pet``,
    ``seat_preference`` and ``preferred_seat``, ``languages_spoken`` and ``spoken_language``
    name one topic. Only generic words and a plural ``s`` are dropped, never a word that
    could tell two topics apart (``cuisine_liked`` / ``cuisine_disliked``)."""
    words = [
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in attribute.key.split("_")
    ]
    topic = frozenset(w for w in words if w not in _GENERIC_KEY_WORDS)
    return topic or frozenset(words)
