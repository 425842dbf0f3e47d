"""The schemathesis checks the fuzz tests run: every built-in one, three of them narrowed.

Each narrowed form lets pass exactly one answer the service gives by design, and says why:

- ``positive_data_acceptance`` lets pass the 422s of the privacy guards, which no JSON
  Schema can state: a subject id shaped like personal data (a phone number, a date, a card
  or IBAN passing its Luhn or mod-97 check, letters only), a correction whose text a guard
  refuses (``correction_refused``), a state whose keys or values a guard refuses. Every
  other 4xx to a schema-valid request fails the run.
- ``negative_data_rejection`` counts the notes route's answer to arguments that break the
  tool schema as the rejection it is: a 200 ``rejected`` result with an ``invalid`` reason
  (a guard rejection is a result, not an error; STYLE.md), and a 413 as one too (the
  body limit answers before parsing, so an array over ``maxItems`` may never be read).
- ``use_after_free`` lets pass a read after a DELETE that empties rather than removes: an
  erased subject's audit history and receipts are kept as evidence, and its memories,
  context and export answer empty as any unknown subject's do (a subject is no resource
  that 404s); a cleared or popped history reads as the shorter list it is. A read after a
  memory's deletion is still checked.
- ``not_a_server_error`` lets a 503 with ``Retry-After`` pass (a dependency outage is an
  answer), and every error must be the documented ``{"error": {"code", "message"}}`` body.
"""

from __future__ import annotations

import json
import re
from typing import Any

from schemathesis.checks import (
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    use_after_free,
)
from schemathesis.openapi.checks import UseAfterFree

from memory_service.core.errors import InvalidRequest
from memory_service.core.scope import validate_subject_id


def error_body_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every error is ``{"error": {"code": str, "message": str}}``; a 503 says when to retry."""
    if response.status_code < 400:
        return None
    body = json.loads(response.content)
    error = body.get("error") if isinstance(body, dict) else None
    assert isinstance(error, dict), f"{response.status_code} without an error object"
    assert isinstance(error.get("code"), str) and error["code"], "error without a code"
    assert isinstance(error.get("message"), str), "error without a message"
    if response.status_code == 503:
        assert response.headers.get("retry-after"), "503 without Retry-After"
    return True


def no_server_error_but_503(ctx: Any, response: Any, case: Any) -> bool | None:
    """A dependency outage (503) is an answer; any other 5xx is a bug."""
    if response.status_code == 503:
        return True
    return not_a_server_error(ctx, response, case)


def subject_ids_sent(case: Any) -> list[str]:
    sent = [(case.path_parameters or {}).get("subject_id")]
    if isinstance(case.body, dict):
        sent.append(case.body.get("subject_id"))
    return [value for value in sent if isinstance(value, str)]


def refused_as_personal_data(value: str) -> bool:
    try:
        validate_subject_id(value)
    except InvalidRequest:
        return True
    return False


def refused_by_a_privacy_guard(response: Any, case: Any) -> bool:
    """A 422 the schema cannot foretell: the guards read meaning and checksums, not shapes."""
    if response.status_code != 422:
        return False
    error = json.loads(response.content)["error"]
    return (
        any(refused_as_personal_data(value) for value in subject_ids_sent(case))
        or error["code"] == "correction_refused"
        or error["message"].startswith("state refused by the privacy guards")
    )


def accepts_valid_data_but_privacy_refusals(ctx: Any, response: Any, case: Any) -> bool | None:
    """``positive_data_acceptance``, except for what only the privacy guards refuse."""
    if refused_by_a_privacy_guard(response, case):
        return None
    return positive_data_acceptance(ctx, response, case)


def refused_as_a_tool_result(response: Any, case: Any) -> bool:
    """The notes route answers arguments that break the tool's schema with a 200 result:
    ``rejected`` with an ``invalid`` reason, as a model expects from its tool (STYLE.md)."""
    if response.status_code != 200 or not case.path.endswith("/notes"):
        return False
    body = json.loads(response.content)
    return body["status"] == "rejected" and any(
        reason["code"] == "invalid" for reason in body["reasons"]
    )


def rejects_invalid_data_or_answers_it_as_a_rejected_note(
    ctx: Any, response: Any, case: Any
) -> bool | None:
    """``negative_data_rejection``, with the notes route's rejection result counted as one,
    and a 413: the body limit refuses an oversized body (201 items) before it is parsed."""
    if response.status_code == 413 or refused_as_a_tool_result(response, case):
        return None
    return negative_data_rejection(ctx, response, case)


# DELETEs that empty something rather than remove a resource: a later read answers 200.
EMPTYING_DELETES = re.compile(r"^DELETE /v1/(admin/subjects/[^/]+|sessions/[^/]+/turns(/last)?)$")


def no_use_after_free_but_an_emptying_delete(ctx: Any, response: Any, case: Any) -> bool | None:
    """``use_after_free``, except after a DELETE that empties rather than removes."""
    try:
        return use_after_free(ctx, response, case)
    except UseAfterFree as failure:
        if EMPTYING_DELETES.match(failure.free):
            return None
        raise


# Built-in checks replaced by their narrowed forms.
NARROWED = [positive_data_acceptance, negative_data_rejection, use_after_free, not_a_server_error]
NARROWED_FORMS = [
    accepts_valid_data_but_privacy_refusals,
    rejects_invalid_data_or_answers_it_as_a_rejected_note,
    no_use_after_free_but_an_emptying_delete,
    no_server_error_but_503,
    error_body_shape,
]
