"""The word-list judgment rules of release 0.1, frozen for measurement only.

The service no longer calls these: the learned model in :mod:`memory_service.core.judgment`
replaced them. ``memory-service eval`` and ``tools/train_guards.py`` run them side by side with
the model so every report shows what the model changed. Do not tune them.
"""

from __future__ import annotations

import re

from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold
from memory_service.core.model import Durability, Reason, ReasonCode

_WORD = re.compile(r"[^\W_]+")

DETAILS = {
    "speculative": "a guess or hedged statement; save only what the user stated",
    "ephemeral": "only true for now; save it with durability 'session' or not at all",
    "not_actionable": "greeting, thanks or conversation meta; nothing a later decision could use",
    "instruction": "text addressed to the agent or system, not a fact about the user",
}


def baseline_codes(text: str, durability: Durability = Durability.DURABLE) -> frozenset[str]:
    """The reason codes the 0.1 word lists gave this text."""
    folded = fold(text)
    reasons = (
        check_speculative(folded)
        + check_ephemeral(folded, durability)
        + check_not_actionable(folded)
        + check_instruction(folded)
    )
    return frozenset(reason.code.value for reason in reasons)


def check_speculative(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> list[Reason]:
    if lexicons.search("speculative", folded_text):
        return [Reason(ReasonCode.SPECULATIVE, DETAILS["speculative"])]
    return []


def is_ephemeral(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> bool:
    """'Tonight' is always ephemeral; a one-off date or appointment time is, unless a
    recurrence ('every Monday', 'tous les matins', 'usually') makes it a habit or the date
    is a lasting fact (a date of birth)."""
    if lexicons.search("ephemeral", folded_text):
        return True
    one_off = lexicons.search("one_off", folded_text) or (
        lexicons.search("clock_times", folded_text)
        and lexicons.search("appointment_nouns", folded_text)
    )
    lasting = lexicons.search("recurrence", folded_text) or lexicons.search(
        "permanent", folded_text
    )
    return bool(one_off) and not lasting


def check_ephemeral(
    folded_text: str, durability: Durability, lexicons: Lexicons = DEFAULT_LEXICONS
) -> list[Reason]:
    """Session notes are kept for the session only, so passing states are fine there."""
    if durability is Durability.DURABLE and is_ephemeral(folded_text, lexicons):
        return [Reason(ReasonCode.EPHEMERAL, DETAILS["ephemeral"])]
    return []


def check_not_actionable(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> list[Reason]:
    """Nothing left once greetings, thanks, conversation meta, hedges and stop words are
    removed. A hedge ("I guess", "semble") carries no fact of its own, so "Hello! I guess
    the chat went fine" is both speculative and empty."""
    remainder = lexicons.patterns["speculative"].sub(" ", folded_text)
    remainder = lexicons.patterns["filler"].sub(" ", remainder)
    content = [
        word
        for word in _WORD.findall(remainder.lower())
        if word not in lexicons.stopwords and not word.isdigit()
    ]
    if content:
        return []
    return [Reason(ReasonCode.NOT_ACTIONABLE, DETAILS["not_actionable"])]


def check_instruction(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> list[Reason]:
    if lexicons.search("instruction", folded_text):
        return [Reason(ReasonCode.INSTRUCTION, DETAILS["instruction"])]
    return []
