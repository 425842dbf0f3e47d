"""A tenant's note policy: which notes wait for the user's confirmation before they count.

Stored as JSON in ``tenants.policy``, e.g. ``{"confirm_sources": ["model_inferred"]}``.
The default asks for no confirmation. A held note is stored with status
``pending_confirmation``: never injected, never consolidated, until the confirm call.

``agent_confirmation`` says whether a note sent with ``confirmed: true`` (the agent says the
user confirmed it in the conversation) already counts as confirmed. A tenant that does not
trust its agents with that turns it off, and then only the confirm endpoint confirms.

``refuse_sensitive``: a note in a special category of data (health, religion, orientation...,
see :mod:`memory_service.core.privacy.sensitive`) is held for confirmation by default and
stored with ``explicit_consent`` once confirmed; a tenant that must never hold such data sets
this and those notes are refused with reason ``sensitive`` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from memory_service.core.errors import InvalidRequest
from memory_service.core.model import Source

_FIELDS = ("confirm_sources", "confirm_all", "agent_confirmation", "refuse_sensitive")


@dataclass(frozen=True)
class TenantPolicy:
    confirm_sources: frozenset[Source] = frozenset()
    confirm_all: bool = False
    agent_confirmation: bool = True
    refuse_sensitive: bool = False

    def needs_confirmation(self, source: Source, *, confirmed: bool) -> bool:
        """Whether a note of this source must wait for the confirm call."""
        if not (self.confirm_all or source in self.confirm_sources):
            return False
        return not (confirmed and self.agent_confirmation)

    def holds_sensitive(self, *, confirmed: bool) -> bool:
        """Whether a special-category note waits for the confirm call (when not refused)."""
        return not (confirmed and self.agent_confirmation)

    def to_dict(self) -> dict[str, Any]:
        return {
            "confirm_sources": sorted(source.value for source in self.confirm_sources),
            "confirm_all": self.confirm_all,
            "agent_confirmation": self.agent_confirmation,
            "refuse_sensitive": self.refuse_sensitive,
        }


DEFAULT_TENANT_POLICY = TenantPolicy()


def parse_tenant_policy(document: object) -> TenantPolicy:
    """The policy from its stored JSON; missing fields take the defaults.

    Keys other than the note policy's are ignored: ``tenants.policy`` may hold other
    tenant-wide settings. Errors name the field, never the value.
    """
    if document is None:
        return DEFAULT_TENANT_POLICY
    if not isinstance(document, Mapping):
        raise InvalidRequest("the tenant policy must be a JSON object")
    sources = document.get("confirm_sources", [])
    if not isinstance(sources, list | tuple):
        raise InvalidRequest("confirm_sources must be a list of sources")
    parsed = set()
    for name in sources:
        try:
            parsed.add(Source(name))
        except ValueError:
            allowed = ", ".join(source.value for source in Source)
            raise InvalidRequest(f"confirm_sources must be among {allowed}") from None
    flags = {}
    for name in ("confirm_all", "agent_confirmation", "refuse_sensitive"):
        value = document.get(name, getattr(DEFAULT_TENANT_POLICY, name))
        if not isinstance(value, bool):
            raise InvalidRequest(f"{name} must be true or false")
        flags[name] = value
    return TenantPolicy(confirm_sources=frozenset(parsed), **flags)


def merge_into(document: Mapping[str, Any] | None, policy: TenantPolicy) -> dict[str, Any]:
    """The stored JSON with the note policy's keys replaced and any other key kept."""
    kept = {k: v for k, v in (document or {}).items() if k not in _FIELDS}
    return {**kept, **policy.to_dict()}


class TenantPolicyStore(Protocol):
    """Reads and writes the note policy of a tenant (``tenants.policy``)."""

    def get(self, tenant_id: str) -> TenantPolicy:
        """The tenant's policy; the default for a tenant without one (or unknown)."""
        ...

    def set(self, tenant_id: str, policy: TenantPolicy) -> None:
        """Replace the tenant's note policy, creating the tenant if new."""
        ...
