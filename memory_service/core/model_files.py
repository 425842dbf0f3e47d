"""The shipped model files: gzipped JSON documents inside the package, read once per process.

Every learned part of the core (judgment, special categories, privacy backstop, names, slots,
pairs) ships its weights this way; each reader raises its own error type, so a missing or
malformed file stops the service at start with a message naming the model, never a note.
"""

from __future__ import annotations

import gzip
import json
from importlib import resources
from typing import Any


def decode_model_document(data: bytes, error: type[Exception], what: str) -> Any:
    """The JSON document of a model file's bytes; ``error`` naming ``what`` if unreadable."""
    try:
        return json.loads(gzip.decompress(data).decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise error(f"the {what} model file cannot be read") from exc


def read_model_document(package: str, name: str, error: type[Exception], what: str) -> Any:
    """The JSON document of the model file ``name`` shipped in ``package``."""
    try:
        data = resources.files(package).joinpath(name).read_bytes()
    except OSError as exc:
        raise error(f"the {what} model file cannot be read") from exc
    return decode_model_document(data, error, what)
