"""One Presidio detector per test session: loading the spaCy model takes seconds."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from memory_service.adapters.presidio_pii import PresidioPiiDetector
from memory_service.core.privacy.guard import check_privacy


@cache
def shared_detector() -> PresidioPiiDetector:
    return PresidioPiiDetector(spacy_model="en_core_web_sm")


class NoIdentifiers:
    """An identifier library that finds nothing: the name guards alone are under test."""

    def identifier_types(self, text: str, codes: Sequence[str]) -> frozenset[str]:
        return frozenset()


def refused_as_pii(
    detector: PresidioPiiDetector, text: str, keywords: tuple[str, ...] = ()
) -> bool:
    """Whether the privacy guards refuse ``text`` as ``pii`` with no identifier library."""
    reasons = check_privacy(text, keywords, pii=detector, identifiers=NoIdentifiers())
    return any(reason.code.value == "pii" for reason in reasons)
