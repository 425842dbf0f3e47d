"""Text normalisation shared by duplicate detection and consolidation."""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")
_TRAILING_PUNCTUATION = ".!?;:,…"


def normalize_text(text: str) -> str:
    """Case-, width- and spacing-insensitive form: two notes that normalise alike are one fact."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _SPACE.sub(" ", folded).strip().rstrip(_TRAILING_PUNCTUATION).strip()


def normalize_keyword(keyword: str) -> str:
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", keyword)).strip().lower()
