"""In-memory session histories and context manifests, transactional like the rest of the fakes.

``HistoryTables`` is both the committed data (inside ``InMemoryStore``) and one unit of work's
pending writes (inside ``_Pending``); ``apply_to`` moves the pending ones in on commit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime

from memory_service.core.history import HistoryMarks
from memory_service.core.manifests import StoredManifest
from memory_service.core.model import Session
from memory_service.core.trimming import Turn

TurnKey = tuple[str, str, int]
SessionKey = tuple[str, str]


@dataclass
class HistoryTables:
    # None marks a deletion pending in a unit of work.
    turns: dict[TurnKey, Turn | None] = field(default_factory=dict)
    marks: dict[SessionKey, HistoryMarks] = field(default_factory=dict)
    manifests: dict[SessionKey, StoredManifest | None] = field(default_factory=dict)

    def apply_to(self, committed: HistoryTables) -> None:
        for key, turn in self.turns.items():
            if turn is None:
                committed.turns.pop(key, None)
            else:
                committed.turns[key] = turn
        committed.marks.update(self.marks)
        for manifest_key, manifest in self.manifests.items():
            if manifest is None:
                committed.manifests.pop(manifest_key, None)
            else:
                committed.manifests[manifest_key] = manifest


def _require_tenant(record_tenant: str, tenant_id: str) -> None:
    if record_tenant != tenant_id:
        raise ValueError("the record belongs to another tenant than this unit of work")


class InMemoryTurnRepository:
    """``subject_exists`` stands in for the subject key: an erased subject's turns read as none."""

    def __init__(
        self,
        tenant_id: str,
        committed: HistoryTables,
        pending: HistoryTables,
        subject_exists: Callable[[str], bool],
    ) -> None:
        self._tenant_id = tenant_id
        self._committed = committed
        self._pending = pending
        self._subject_exists = subject_exists

    def _visible(self) -> dict[TurnKey, Turn | None]:
        return {**self._committed.turns, **self._pending.turns}

    def list(self, session: Session) -> list[Turn]:
        _require_tenant(session.tenant_id, self._tenant_id)
        if not self._subject_exists(session.subject_id):
            return []
        found = [
            turn
            for (tenant_id, session_id, _), turn in self._visible().items()
            if turn is not None and tenant_id == self._tenant_id and session_id == session.id
        ]
        return sorted(found, key=lambda turn: turn.index)

    def latest_index(self, session: Session) -> int | None:
        return max((turn.index for turn in self.list(session)), default=None)

    def put(self, session: Session, turn: Turn) -> None:
        _require_tenant(session.tenant_id, self._tenant_id)
        key = (self._tenant_id, session.id, turn.index)
        stored = self._visible().get(key)
        # As the SQL row: the creation time of an existing turn does not change.
        created_at = stored.created_at if stored is not None else turn.created_at
        self._pending.turns[key] = Turn(turn.index, turn.role, turn.content, created_at)

    def delete(self, session: Session, indices: Collection[int]) -> None:
        _require_tenant(session.tenant_id, self._tenant_id)
        for index in indices:
            self._pending.turns[(self._tenant_id, session.id, index)] = None

    def marks(self, session: Session) -> HistoryMarks:
        _require_tenant(session.tenant_id, self._tenant_id)
        key = (self._tenant_id, session.id)
        return self._pending.marks.get(key) or self._committed.marks.get(key) or HistoryMarks()

    def save_marks(self, session: Session, marks: HistoryMarks) -> None:
        _require_tenant(session.tenant_id, self._tenant_id)
        self._pending.marks[(self._tenant_id, session.id)] = marks


class InMemoryManifestRepository:
    def __init__(self, tenant_id: str, committed: HistoryTables, pending: HistoryTables) -> None:
        self._tenant_id = tenant_id
        self._committed = committed
        self._pending = pending

    def _visible(self) -> dict[SessionKey, StoredManifest | None]:
        return {**self._committed.manifests, **self._pending.manifests}

    def add(self, manifest: StoredManifest) -> None:
        _require_tenant(manifest.tenant_id, self._tenant_id)
        key = (self._tenant_id, manifest.id)
        if self._visible().get(key) is not None:
            raise ValueError("a manifest with this id already exists")
        self._pending.manifests[key] = manifest

    def get(self, manifest_id: str) -> StoredManifest | None:
        return self._visible().get((self._tenant_id, manifest_id))

    def purge_expired(self, now: datetime) -> int:
        expired = [
            key
            for key, manifest in self._visible().items()
            if manifest is not None and key[0] == self._tenant_id and manifest.expires_at <= now
        ]
        for key in expired:
            self._pending.manifests[key] = None
        return len(expired)
