"""Purposes name the decisions a memory may serve (``general``, ``travel``, ``support``...)."""

from __future__ import annotations

import re

from memory_service.core.errors import InvalidRequest

PURPOSE_MAX_LENGTH = 40
PURPOSE_SHAPE = re.compile(rf"[a-z][a-z0-9_\-]{{0,{PURPOSE_MAX_LENGTH - 1}}}")


def validate_purpose(purpose: object) -> str:
    if not isinstance(purpose, str) or not PURPOSE_SHAPE.fullmatch(purpose):
        raise InvalidRequest(
            f"purpose must be a lower-case slug of at most {PURPOSE_MAX_LENGTH} characters"
        )
    return purpose
