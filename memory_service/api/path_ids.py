"""The ids in request paths, with the shapes the services check published in the document.

As for bodies (see ``api/schemas.py``), the shapes are stated for clients (and fuzzers),
not enforced here: the services refuse a malformed id with their own message (a subject id
shaped like an e-mail address is named as one, never echoed).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from memory_service.core.scope import (
    SESSION_ID_MAX_LENGTH,
    SUBJECT_ID_MAX_LENGTH,
    SUBJECT_ID_PATTERN,
)
from memory_service.services import admin

SessionId = Annotated[
    str, Path(json_schema_extra={"minLength": 1, "maxLength": SESSION_ID_MAX_LENGTH})
]
# The admin service's own rule, read from it so the two cannot drift.
MemoryId = Annotated[str, Path(json_schema_extra={"pattern": admin.MEMORY_ID_SHAPE.pattern})]
SubjectId = Annotated[
    str,
    Path(
        description="Opaque subject id: never a name, e-mail or phone number",
        json_schema_extra={
            "minLength": 1,
            "maxLength": SUBJECT_ID_MAX_LENGTH,
            "pattern": SUBJECT_ID_PATTERN,
        },
    ),
]
