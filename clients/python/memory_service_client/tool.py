"""``save_memory_note``'s name, description and JSON schema, as the service defines them.

A copy of ``memory_service.tool`` (the server's source of truth), so that an agent can declare
the tool without installing the server; ``tests/unit/test_client_models.py`` keeps the two
equal. Tenant, subject and session are never arguments: the binding supplies them.
"""

from __future__ import annotations

from typing import Any

TOOL_NAME = "save_memory_note"

MAX_TEXT_CHARS = 280
MAX_KEYWORDS = 3
MAX_KEYWORD_CHARS = 40
SOURCES = ("user_stated", "system_record", "model_inferred")
DURABILITIES = ("durable", "session")
# GET /v1/subjects/{id}/context?max_tokens=: the service answers 422 outside these bounds.
MIN_CONTEXT_TOKENS = 1
MAX_CONTEXT_TOKENS = 1_000_000

DESCRIPTION = (
    "Remember one durable, useful fact about the user for later conversations: a preference, "
    "a standing need, a lasting circumstance, in one or two short sentences of your own "
    "words. The service refuses, and stores nothing, when the note is: personal data (names, "
    "e-mail, phone, addresses, birth dates, id, card or bank numbers: we must not keep them);"
    " a secret (passwords, API keys, tokens); a guess or hedge ('I think', 'probably'): save "
    "only what the user stated, or set source 'model_inferred' for an inference, kept as a "
    "hypothesis; only true now ('tonight', 'this week'): use durability 'session' for a this-"
    "time-only note; small talk or thanks (nothing a later decision could use); or "
    "instructions to you or the system. Name what the note is about with attribute: a short "
    "snake_case key (home_city, main_editor, seat_preference, cuisine_liked, allergy) and "
    "whether it holds one value at a time (single: a new value replaces the old one, e.g. "
    "home_city) or several (multi: values add up and one leaves only when the user drops it, "
    "e.g. cuisine_liked); reuse the same key for the same topic. Health, religion, sexual "
    "orientation, ethnic origin, political opinions, union membership, genetic or biometric "
    "data and criminal records are held until the user explicitly agrees to them being "
    "remembered. The answer's status is saved, rejected (with reason codes), duplicate "
    "(already known) or needs_confirmation (ask the user, then confirm)."
)

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "text": {
            "type": "string",
            "description": "The fact, one or two sentences, at most 280 characters.",
        },
        "keywords": {
            "type": "array",
            "items": {"type": "string"},
            "maxItems": 3,
            "description": "0 to 3 lower-case topic words, each at most 40 characters.",
        },
        "purpose": {
            "type": ["string", "null"],
            "description": "What decisions the note may serve (a slug such as "
            "travel or support); null for the session's "
            "purpose.",
        },
        "source": {
            "type": "string",
            "enum": ["user_stated", "system_record", "model_inferred"],
            "description": "user_stated when the user said it; model_inferred "
            "for your inference (kept as a hypothesis, never as "
            "a fact).",
        },
        "durability": {
            "type": "string",
            "enum": ["durable", "session"],
            "description": "durable for a lasting fact; session for this conversation only.",
        },
        "confirmed": {
            "type": "boolean",
            "description": "true only if the user explicitly confirmed this note.",
        },
        "attribute": {
            "type": ["object", "null"],
            "description": "What the note is about, so a new value replaces "
            "only a value of the same topic; null if unsure.",
            "properties": {
                "key": {
                    "type": "string",
                    "maxLength": 40,
                    "description": "snake_case topic name, "
                    "e.g. home_city, "
                    "main_editor, "
                    "seat_preference, "
                    "cuisine_liked; never a "
                    "value.",
                },
                "cardinality": {
                    "type": "string",
                    "enum": ["single", "multi"],
                    "description": "single: one value "
                    "at a time (a "
                    "newer one "
                    "replaces it); "
                    "multi: several "
                    "values at once "
                    "(each stays until "
                    "the user drops "
                    "it).",
                },
            },
            "required": ["key", "cardinality"],
            "additionalProperties": False,
        },
    },
    "required": ["text", "keywords", "purpose", "source", "durability", "confirmed", "attribute"],
    "additionalProperties": False,
}
