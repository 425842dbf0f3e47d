"""One Presidio detector per test session: loading the spaCy model takes seconds."""

from __future__ import annotations

from functools import cache

from memory_service.adapters.presidio_pii import PresidioPiiDetector


@cache
def shared_detector() -> PresidioPiiDetector:
    return PresidioPiiDetector(spacy_model="en_core_web_sm")
