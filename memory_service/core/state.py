"""Validation of a subject's state: a small YAML-able mapping written by the tenant's systems."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from memory_service.core.errors import InvalidRequest

MAX_STATE_BYTES = 16 * 1024
MAX_STATE_DEPTH = 6
MAX_KEY_LENGTH = 64

_Scalar = str | int | float | bool | None


def validate_state(state: object) -> dict[str, Any]:
    """Accept a JSON-like mapping of bounded size and depth with string keys.

    The state is rendered as YAML front matter before every model call, so it stays small
    and plain: no binary, no NUL characters, nothing that cannot round-trip through YAML.
    """
    if not isinstance(state, Mapping):
        raise InvalidRequest("state must be a JSON object")
    _check_value(state, depth=0)
    encoded = json.dumps(state, ensure_ascii=False)
    if len(encoded.encode()) > MAX_STATE_BYTES:
        raise InvalidRequest(f"state is larger than {MAX_STATE_BYTES} bytes")
    result: dict[str, Any] = json.loads(encoded)
    return result


def _check_value(value: object, *, depth: int) -> None:
    if depth > MAX_STATE_DEPTH:
        raise InvalidRequest(f"state is nested deeper than {MAX_STATE_DEPTH} levels")
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
                raise InvalidRequest(
                    f"state keys must be non-empty strings of at most {MAX_KEY_LENGTH} characters"
                )
            _check_text(key)
            _check_value(item, depth=depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_value(item, depth=depth + 1)
    elif isinstance(value, str):
        _check_text(value)
    elif isinstance(value, float) and not math.isfinite(value):
        raise InvalidRequest("state values must be finite numbers")
    elif not isinstance(value, _Scalar):
        raise InvalidRequest("state values must be strings, numbers, booleans, lists or objects")


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise InvalidRequest("state text must not contain NUL characters")
