"""Fakes for the note path: a tenant policy store and a PII detector that finds marked text."""

from __future__ import annotations

from collections.abc import Sequence

from memory_service.core.tenant_policy import DEFAULT_TENANT_POLICY, TenantPolicy


class FakeTenantPolicyStore:
    """Policies in a dict, with the SQL store's behaviour: the default for an unknown tenant."""

    def __init__(self) -> None:
        self.policies: dict[str, TenantPolicy] = {}
        self.tenants: set[str] = set()

    def get(self, tenant_id: str) -> TenantPolicy:
        return self.policies.get(tenant_id, DEFAULT_TENANT_POLICY)

    def set(self, tenant_id: str, policy: TenantPolicy) -> None:
        self.tenants.add(tenant_id)
        self.policies[tenant_id] = policy


class MarkerPii:
    """Reports ``EMAIL_ADDRESS`` when the text holds an ``@``: enough for service tests."""

    def __init__(self) -> None:
        self.calls = 0

    def entity_types(self, text: str) -> frozenset[str]:
        self.calls += 1
        return frozenset({"EMAIL_ADDRESS"}) if "@" in text else frozenset()


class NoLibraryIdentifiers:
    """The identifier port answering nothing: the core's shape rules alone decide."""

    def identifier_types(self, text: str, codes: Sequence[str]) -> frozenset[str]:
        return frozenset()
