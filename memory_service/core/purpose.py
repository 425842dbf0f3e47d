"""Purposes name the decisions a memory may serve (``general``, ``travel``, ``support``...)."""

from __future__ import annotations

import re

from memory_service.core.errors import InvalidRequest

PURPOSE_SHAPE = re.compile(r"[a-z][a-z0-9_\-]{0,39}")


def validate_purpose(purpose: object) -> str:
    if not isinstance(purpose, str) or not PURPOSE_SHAPE.fullmatch(purpose):
        raise InvalidRequest("purpose must be a lower-case slug of at most 40 characters")
    return purpose
