"""``save_memory_note`` as an agent tool: its JSON schema, description and in-process call.

The same arguments travel every route: the OpenAI function-tool schema below, the HTTP body
of ``POST /v1/sessions/{id}/notes``, this module's Python function and the client's bindings
(``memory_service_client.tool`` holds a copy, kept equal by a test). Tenant, subject and session
are never arguments: they come from the authenticated call or the run context.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from memory_service.core.consolidation.attributes import MAX_KEY_CHARS
from memory_service.core.guards import MAX_KEYWORD_CHARS, MAX_KEYWORDS, MAX_TEXT_CHARS
from memory_service.core.model import Cardinality, Durability, Source
from memory_service.core.scope import TenantScope
from memory_service.services.notes import save_memory_note as save_note_service

if TYPE_CHECKING:
    from memory_service.bootstrap import Container

TOOL_NAME = "save_memory_note"

DESCRIPTION = (
    "Remember one durable, useful fact about the user for later conversations: a preference, "
    "a standing need, a lasting circumstance, in one or two short sentences of your own "
    "words. The service refuses, and stores nothing, when the note is: personal data (names, "
    "e-mail, phone, addresses, birth dates, id, card or bank numbers: we must not keep them); "
    "a secret (passwords, API keys, tokens); a guess or hedge ('I think', 'probably'): save "
    "only what the user stated, or set source 'model_inferred' for an inference, kept as a "
    "hypothesis; only true now ('tonight', 'this week'): use durability 'session' for a "
    "this-time-only note; small talk or thanks (nothing a later decision could use); or "
    "instructions to you or the system. Name what the note is about with attribute: a short "
    "snake_case key (home_city, main_editor, seat_preference, cuisine_liked, allergy) and "
    "whether it holds one value at a time (single: a new value replaces the old one, e.g. "
    "home_city) or several (multi: values add up and one leaves only when the user drops it, "
    "e.g. cuisine_liked); reuse the same key for the same topic. Health, religion, sexual "
    "orientation, ethnic origin, political opinions, union membership, genetic or biometric "
    "data and criminal records are "
    "held until the user explicitly agrees to them being remembered. The answer's status is "
    "saved, rejected (with reason codes), duplicate (already known) or needs_confirmation "
    "(ask the user, then confirm)."
)

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "text": {
            "type": "string",
            "description": f"The fact, one or two sentences, at most {MAX_TEXT_CHARS} characters.",
        },
        "keywords": {
            "type": "array",
            "items": {"type": "string"},
            "maxItems": MAX_KEYWORDS,
            "description": f"0 to {MAX_KEYWORDS} lower-case topic words, each at most "
            f"{MAX_KEYWORD_CHARS} characters.",
        },
        "purpose": {
            "type": ["string", "null"],
            "description": "What decisions the note may serve (a slug such as travel or "
            "support); null for the session's purpose.",
        },
        "source": {
            "type": "string",
            "enum": [
                s.value for s in (Source.USER_STATED, Source.SYSTEM_RECORD, Source.MODEL_INFERRED)
            ],
            "description": "user_stated when the user said it; model_inferred for your "
            "inference (kept as a hypothesis, never as a fact).",
        },
        "durability": {
            "type": "string",
            "enum": [d.value for d in Durability],
            "description": "durable for a lasting fact; session for this conversation only.",
        },
        "confirmed": {
            "type": "boolean",
            "description": "true only if the user explicitly confirmed this note.",
        },
        "attribute": {
            "type": ["object", "null"],
            "description": "What the note is about, so a new value replaces only a value of "
            "the same topic; null if unsure.",
            "properties": {
                "key": {
                    "type": "string",
                    "maxLength": MAX_KEY_CHARS,
                    "description": "snake_case topic name, e.g. home_city, main_editor, "
                    "seat_preference, cuisine_liked; never a value.",
                },
                "cardinality": {
                    "type": "string",
                    "enum": [c.value for c in Cardinality],
                    "description": "single: one value at a time (a newer one replaces it); "
                    "multi: several values at once (each stays until the user drops it).",
                },
            },
            "required": ["key", "cardinality"],
            "additionalProperties": False,
        },
    },
    "required": [
        "text",
        "keywords",
        "purpose",
        "source",
        "durability",
        "confirmed",
        "attribute",
    ],
    "additionalProperties": False,
}

SAVE_MEMORY_NOTE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": TOOL_NAME,
        "description": DESCRIPTION,
        "strict": True,
        "parameters": PARAMETERS,
    },
}


def http_body_schema() -> dict[str, Any]:
    """The HTTP body: the tool's arguments, all optional but ``text``, plus provenance ids."""
    schema = copy.deepcopy(PARAMETERS)
    schema["required"] = ["text"]
    schema["properties"].update(
        {
            "turn": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "Ignored (checked only): the service records the session's "
                "latest history turn as the note's turn, whatever the caller claims.",
            },
            "tool_call_id": {
                "type": ["string", "null"],
                "maxLength": 128,
                "description": "The model's tool call id, kept in the note's provenance.",
            },
        }
    )
    return schema


def save_memory_note(
    container: Container,
    scope: TenantScope,
    session_id: str,
    arguments: object,
    *,
    dry_run: bool = False,
    subject_id: str | None = None,
) -> dict[str, Any]:
    """Call the tool in-process; returns the same JSON the HTTP endpoint answers.

    Raises NotFound for an unknown session (or one of another subject when ``subject_id``
    is given) and Conflict for an ended one, like the endpoint's 404 and 409.
    """
    result = save_note_service(
        scope, session_id, arguments, dry_run=dry_run, subject_id=subject_id, deps=container.notes
    )
    return result.to_json()
