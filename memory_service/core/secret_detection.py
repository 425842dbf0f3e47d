"""Secrets in a note: known key and token formats, "password is ..." cues, random-looking strings.

The formats are language-agnostic; the cue phrases are language data (``secret_cues`` in
``core/lexicons``). Only the kinds found leave this module, never the matched text.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons
from memory_service.core.model import Reason, ReasonCode

_SECRET_FORMATS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("PRIVATE_KEY", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----")),
    (
        "CONNECTION_STRING",
        re.compile(r"\b[a-z][a-z0-9+.-]{1,30}://[^\s:/@]+:[^\s@/]+@[^\s]+", re.I),
    ),
    (
        "WEBHOOK_URL",
        re.compile(
            r"hooks\.slack\.com/(?:services|workflows)/\S+|discord(?:app)?\.com/api/webhooks/\S+",
            re.I,
        ),
    ),
    (
        "API_KEY",
        re.compile(
            r"\b(?:sk-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_-]{16,}"
            r"|(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}"
            r"|(?:AKIA|ASIA)[A-Z0-9]{16}"
            r"|AIza[0-9A-Za-z_-]{20,}"
            r"|glpat-[A-Za-z0-9_-]{16,}"
            r"|hf_[A-Za-z0-9]{20,})"
        ),
    ),
    (
        "ACCESS_TOKEN",
        re.compile(
            r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
            r"|xox[abposr]-[A-Za-z0-9-]{10,}"
            r"|eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,})"
            r"|\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*",
            re.I,
        ),
    ),
)
_TOKEN_CANDIDATE = re.compile(r"[A-Za-z0-9+/=_.-]{20,}")
MIN_TOKEN_ENTROPY_BITS = 3.5


def secret_kinds(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> frozenset[str]:
    """Kinds of secret in the text: known key formats, 'password is …' cues, random tokens."""
    kinds = {kind for kind, pattern in _SECRET_FORMATS if pattern.search(folded_text)}
    if lexicons.search("secret_cues", folded_text):
        kinds.add("PASSWORD")
    if any(_looks_random(token) for token in _TOKEN_CANDIDATE.findall(folded_text)):
        kinds.add("HIGH_ENTROPY_STRING")
    return frozenset(kinds)


def _looks_random(token: str) -> bool:
    """Long mixed letter-digit strings with high per-character entropy: keys, not words."""
    if not (any(c.isdigit() for c in token) and any(c.isalpha() for c in token)):
        return False
    counts = Counter(token)
    entropy = -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())
    return entropy >= MIN_TOKEN_ENTROPY_BITS


def check_secrets(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> list[Reason]:
    kinds = secret_kinds(folded_text, lexicons)
    return [Reason(ReasonCode.SECRET, ", ".join(sorted(kinds)))] if kinds else []
