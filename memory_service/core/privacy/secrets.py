"""Secrets in a note: known key and token formats, "password is ..." cues, random-looking strings.

The formats and the shape of a password are language-agnostic; the cue phrases are language
data (``secret_cues`` and ``credential_cues`` in ``core/lexicons``). Only the kinds found
leave this module, never the matched text.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache

from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold
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
# How many content words after a credential cue ("password", "identifiants", "login") a
# password-like token still counts: "login for the NAS is admin / X" puts two between them.
CREDENTIAL_WINDOW_WORDS = 4
MIN_PASSWORD_CHARS = 6
MAX_PASSWORD_CHARS = 64
_CREDENTIAL_WINDOW_CHARS = CREDENTIAL_WINDOW_WORDS * (MAX_PASSWORD_CHARS + 1)
# Quotes, brackets and sentence punctuation around a word are not part of a password; "!",
# "#" or "?" are kept, since passwords end with them ("Quai2Seine!").
_WORD_EDGES = "\"'()[]{}<>,;:.\u201c\u201d\u00ab\u00bb"


def secret_kinds(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> frozenset[str]:
    """Kinds of secret in the text: known key formats, 'password is …' cues, random tokens."""
    kinds = {kind for kind, pattern in _SECRET_FORMATS if pattern.search(folded_text)}
    if lexicons.search("secret_cues", folded_text) or _credential_after_cue(folded_text, lexicons):
        kinds.add("PASSWORD")
    if any(_looks_random(token) for token in _TOKEN_CANDIDATE.findall(folded_text)):
        kinds.add("HIGH_ENTROPY_STRING")
    return frozenset(kinds)


def _credential_after_cue(folded_text: str, lexicons: Lexicons) -> bool:
    """A password-shaped word a few words after a credential cue, with or without "is".

    People write "Le mot de passe de sa box est X", "login admin / X" or "identifiants :
    utilisateur bob, mot de passe X": the cue and the value are not adjacent, and no fixed
    phrase covers every wording. Product names ("1Password") are not passwords.
    """
    products = _folded_products(lexicons.product_names)
    for cue in lexicons.patterns["credential_cues"].finditer(folded_text):
        # Separators ("admin / X") and stop words ("de la", "for the") do not use the window:
        # French stacks them between the cue and the value.
        following = folded_text[cue.end() : cue.end() + _CREDENTIAL_WINDOW_CHARS].split()
        seen = 0
        for word in following:
            token = word.strip(_WORD_EDGES)
            if looks_like_password(token) and token.lower() not in products:
                return True
            if any(ch.isalnum() for ch in token) and token.lower() not in lexicons.stopwords:
                seen += 1
                if seen >= CREDENTIAL_WINDOW_WORDS:
                    break
    return False


@lru_cache(maxsize=4)
def _folded_products(product_names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(fold(name).lower() for name in product_names)


def looks_like_password(token: str) -> bool:
    """Mixed character classes in one short word: letters with a digit or a symbol, and at
    least three of lower case, upper case, digits and symbols ("Kestrel-4491", "hunter2!",
    "Quai2Seine!"), which plain words, numbers and most product or version names are not.

    Hyphens and apostrophes alone do not count as symbols ("Jean-Baptiste", "Wi-Fi" are
    words), and a URL is not a password ("/sso2" after "login page").
    """
    if not MIN_PASSWORD_CHARS <= len(token) <= MAX_PASSWORD_CHARS or "://" in token:
        return False
    lower = any(ch.islower() for ch in token)
    upper = any(ch.isupper() for ch in token)
    digit = any(ch.isdigit() for ch in token)
    symbol = any(not ch.isalnum() for ch in token)
    strong_symbol = any(not ch.isalnum() and ch not in "-'" for ch in token)
    if not (lower or upper) or not (digit or strong_symbol):
        return False
    return sum((lower, upper, digit, symbol)) >= 3


def _looks_random(token: str) -> bool:
    """Long mixed letter-digit strings with high per-character entropy: keys, not words."""
    if not (any(c.isdigit() for c in token) and any(c.isalpha() for c in token)):
        return False
    counts = Counter(token)
    entropy = -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())
    return entropy >= MIN_TOKEN_ENTROPY_BITS


def check_secrets(folded_text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> list[Reason]:
    """One ``secret`` reason naming the kinds found; the detail never holds the value."""
    kinds = secret_kinds(folded_text, lexicons)
    return [Reason(ReasonCode.SECRET, ", ".join(sorted(kinds)))] if kinds else []
