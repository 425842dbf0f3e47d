"""One tenant's session histories: turns sealed with the subject's key, and the trim marks."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session as DbSession

from memory_service.adapters.sql.subjects import SubjectKeys
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.tables import SessionHistoryRow, SessionTurnRow
from memory_service.core.history import HistoryMarks
from memory_service.core.model import Session
from memory_service.core.ports import Clock
from memory_service.core.trimming import Turn

TURN_KIND = "turn"


def _row_id(session_id: str, index: int) -> str:
    return f"{session_id}:{index}"


class SqlTurnRepository:
    def __init__(self, session: DbSession, tenant_id: str, keys: SubjectKeys, clock: Clock) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keys = keys
        self._clock = clock

    def _check(self, session: Session) -> None:
        require_own_tenant(session.tenant_id, self._tenant_id)

    def list(self, session: Session) -> list[Turn]:
        """An erased subject's turns cannot be read: they come back as none."""
        self._check(session)
        cipher = self._keys.existing(session.subject_id)
        if cipher is None:
            return []
        statement = (
            select(SessionTurnRow)
            .where(
                SessionTurnRow.tenant_id == self._tenant_id,
                SessionTurnRow.session_id == session.id,
            )
            .order_by(SessionTurnRow.turn)
        )
        return [
            Turn(
                index=row.turn,
                role=row.role,
                content=cipher.decrypt(
                    row.content_ciphertext, kind=TURN_KIND, row_id=_row_id(session.id, row.turn)
                ).decode(),
                created_at=row.created_at,
            )
            for row in self._session.scalars(statement)
        ]

    def latest_index(self, session: Session) -> int | None:
        self._check(session)
        if self._keys.existing(session.subject_id) is None:
            return None
        latest: int | None = self._session.scalar(
            select(func.max(SessionTurnRow.turn)).where(
                SessionTurnRow.tenant_id == self._tenant_id,
                SessionTurnRow.session_id == session.id,
            )
        )
        return latest

    def put(self, session: Session, turn: Turn) -> None:
        self._check(session)
        cipher = self._keys.ensure_cipher(session.subject_id, turn.created_at, new_lifecycle=False)
        sealed = cipher.encrypt(
            turn.content.encode(), kind=TURN_KIND, row_id=_row_id(session.id, turn.index)
        )
        row = self._session.get(SessionTurnRow, (self._tenant_id, session.id, turn.index))
        if row is None:
            self._session.add(
                SessionTurnRow(
                    tenant_id=self._tenant_id,
                    session_id=session.id,
                    turn=turn.index,
                    role=turn.role,
                    content_ciphertext=sealed,
                    created_at=turn.created_at,
                )
            )
        else:
            row.role = turn.role
            row.content_ciphertext = sealed
        self._session.flush()

    def delete(self, session: Session, indices: Collection[int]) -> None:
        self._check(session)
        if not indices:
            return
        self._session.execute(
            delete(SessionTurnRow).where(
                SessionTurnRow.tenant_id == self._tenant_id,
                SessionTurnRow.session_id == session.id,
                SessionTurnRow.turn.in_(list(indices)),  # type: ignore[attr-defined]
            )
        )
        self._session.expire_all()

    def marks(self, session: Session) -> HistoryMarks:
        self._check(session)
        row = self._session.get(SessionHistoryRow, (self._tenant_id, session.id))
        if row is None:
            return HistoryMarks()
        return HistoryMarks(row.first_kept_turn, frozenset(row.reinjected))

    def save_marks(self, session: Session, marks: HistoryMarks) -> None:
        self._check(session)
        row = self._session.get(SessionHistoryRow, (self._tenant_id, session.id))
        # Sorted, so equal marks store equal JSON.
        reinjected = sorted(marks.reinjected)
        now = self._clock.now()
        if row is None:
            self._session.add(
                SessionHistoryRow(
                    tenant_id=self._tenant_id,
                    session_id=session.id,
                    first_kept_turn=marks.first_kept_turn,
                    reinjected=reinjected,
                    updated_at=now,
                )
            )
        else:
            row.first_kept_turn = marks.first_kept_turn
            row.reinjected = reinjected
            row.updated_at = now
        self._session.flush()
