"""Who a call acts for. Built from the authenticated key, never from a model's arguments."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_service.core.errors import InvalidRequest, PermissionDenied
from memory_service.core.model import Role

SUBJECT_ID_MAX_LENGTH = 128
SUBJECT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:\-]*$"
_SUBJECT_ID_SHAPE = re.compile(SUBJECT_ID_PATTERN)
# "+33 6...", "06-12-34-56-78", "(415) 555-0100", "0612345678": a leading + or 0, or
# separators between digits. Plain numbers not starting with 0 stay valid customer ids.
_PHONE_LIKE = re.compile(r"^(\+|0)[\d().\-]{6,}$|^[\d(][\d()]*[.\-][\d().\-]+$")


@dataclass(frozen=True)
class TenantScope:
    """The tenant, role and key a call acts for; every repository is opened with one."""

    tenant_id: str
    role: Role
    actor: str

    def require(self, role: Role) -> None:
        """Admins may do what agents do; agents may not do admin work."""
        if role is Role.ADMIN and self.role is not Role.ADMIN:
            raise PermissionDenied("this operation needs an admin key")


def validate_subject_id(subject_id: object) -> str:
    """Subject ids are opaque tenant ids: refuse anything that looks like an e-mail or phone.

    The refusal message does not echo the id, since a refused id may be personal data.
    """
    if not isinstance(subject_id, str) or not subject_id:
        raise InvalidRequest("subject_id must be a non-empty string")
    if len(subject_id) > SUBJECT_ID_MAX_LENGTH:
        raise InvalidRequest(f"subject_id is longer than {SUBJECT_ID_MAX_LENGTH} characters")
    if "@" in subject_id:
        raise InvalidRequest("subject_id looks like an e-mail address; use an opaque id")
    if _PHONE_LIKE.match(subject_id) and sum(c.isdigit() for c in subject_id) >= 7:
        raise InvalidRequest("subject_id looks like a phone number; use an opaque id")
    if not _SUBJECT_ID_SHAPE.match(subject_id):
        raise InvalidRequest(
            "subject_id may hold only letters, digits and . _ : - (no spaces or names)"
        )
    return subject_id
