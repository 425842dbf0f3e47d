"""The privacy guard's reason codes for a note, with the real identifier library and no NER
(the name readers' own rules still run): one helper for the rule tests instead of a copy per
file."""

from __future__ import annotations

from functools import cache

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.privacy.guard import check_privacy
from tests.support.no_ner import NoNer


@cache
def _library() -> LibraryIdentifierDetector:
    return LibraryIdentifierDetector()


def privacy_codes(text: str, keywords: tuple[str, ...] = ()) -> set[str]:
    """The codes (``pii``, ``secret``) the rules give ``text`` and its keywords."""
    reasons = check_privacy(text, keywords, pii=NoNer(), identifiers=_library())
    return {reason.code.value for reason in reasons}
