"""Refuse, as 422 ``invalid_request``, a request body whose text cannot be stored.

JSON may spell characters that UTF-8 cannot encode: a lone UTF-16 surrogate (``"\\ud800"``)
parses into a Python ``str`` that raises on ``encode()``, deep inside a repository, as a
500. The body-limit middleware, which holds the whole body anyway, checks every string of
it once, keys and values alike, before any route sees it; the same check answers a body
that is not UTF-8 or is nested deeper than the parser goes, which the framework would
otherwise answer with an undocumented 400.

Query strings and paths cannot carry such text: the server decodes them with replacement
characters. A body that is not JSON at all passes through for the route's own 422.
"""

from __future__ import annotations

import json


def has_unencodable_text(value: object) -> bool:
    """True if any string in ``value`` (keys included) cannot be encoded as UTF-8.

    Walks with an explicit stack: a deep body must not exhaust Python's recursion.
    """
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def body_problem(raw: bytes) -> str | None:
    """Why the body cannot be taken as stored text, or None (also for a body that is not JSON)."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "the body must be UTF-8"
    try:
        parsed = json.loads(decoded)
    except RecursionError:
        return "the body is nested too deeply"
    except ValueError:
        return None  # not JSON: the route answers with its own 422
    if has_unencodable_text(parsed):
        return "the body holds text that is not valid Unicode (e.g. a lone surrogate)"
    return None
