"""A render's reads, in two statements: they may run on a read-only connection or a replica.

The first reads the subject's row (its state and data key id), the session asked for (only
if it is this subject's) and the session's trim marks, by primary keys and outer joins. The
second reads every memory the render can use as one ``UNION ALL``: the newest usable globals
of each authority class, the session's notes, and the newest usable globals of any purpose
(for the counts of other purposes), each part through the index it would use alone and
tagged with its number. The parts keep their limits inside subqueries (SQLite allows no
``LIMIT`` on a compound's member) and are put back in order here, by the same keys as the
repositories' listings.

Both are read as plain rows (no ORM entity is built or tracked: nothing is written back),
and each read has a fingerprint of every value it returned, for the render cache
(``adapters/render_cache.py``); the memories are handed over sealed and decrypted only when
the render is built afresh.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    Integer,
    Row,
    Select,
    String,
    and_,
    any_,
    bindparam,
    cast,
    literal,
    literal_column,
    null,
    or_,
    select,
    union_all,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session as DbSession

from memory_service.adapters.sql.convert import memory_from_row, session_from_row
from memory_service.adapters.sql.subjects import SubjectKeys, subject_state
from memory_service.adapters.sql.terms import code_point_order
from memory_service.adapters.tables import MemoryRow, SessionHistoryRow, SessionRow, SubjectRow
from memory_service.core.history import HistoryMarks
from memory_service.core.model import Memory, MemoryScope, MemoryStatus, Session, Source
from memory_service.core.ports import ContextMemories, SubjectView

_PART = "part"
# What a render reads of a memory (``memory_from_row``'s columns): not its fingerprint nor
# its sealed embedding, which can be larger than the text.
READ_COLUMNS = (
    "id",
    "tenant_id",
    "subject_id",
    "scope",
    "session_id",
    "ciphertext",
    "purpose",
    "source",
    "durability",
    "provenance",
    "legal_basis",
    "created_at",
    "updated_at",
    "expires_at",
    "status",
    "superseded_at",
    "superseded_by",
)
_CIPHERTEXT = READ_COLUMNS.index("ciphertext")
COUNTED_COLUMNS = frozenset({"id", "subject_id", "purpose", "updated_at"})


class SqlContextReads:
    def __init__(self, session: DbSession, tenant_id: str, keys: SubjectKeys) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keys = keys

    def subject_view(self, subject_id: str, session_id: str | None) -> SubjectView:
        values = {"tenant": self._tenant_id, "subject": subject_id, "session_id": session_id}
        # A plain row, not ORM entities (as ``memories``): nothing here is written back.
        found = self._session.connection().execute(_subject_view_statement(), values).first()
        if found is None:  # a subject never written to: no session can be its
            return SubjectView(None, None, HistoryMarks())
        self._keys.name_key(subject_id, found.data_key_id)
        marks = (
            HistoryMarks(found.first_kept_turn, frozenset(found.reinjected))
            if found.first_kept_turn is not None
            else HistoryMarks()
        )
        cipher = self._keys.existing(subject_id)
        return SubjectView(
            session=session_from_row(found) if found.id is not None else None,
            state=(
                subject_state(
                    self._tenant_id,
                    subject_id,
                    cipher,
                    found.state_ciphertext,
                    found.state_updated_at,
                )
                if cipher is not None
                else None
            ),
            marks=marks,
            fingerprint=_fingerprint(tuple(found)),
        )

    def memories(
        self,
        subject_id: str,
        session: Session | None,
        *,
        purposes: Collection[str],
        now: datetime,
        classes: Sequence[Collection[Source]],
        per_class: int,
        other_purposes_limit: int | None,
    ) -> ContextMemories:
        class_count = len(classes) if per_class > 0 else 0
        shape = _Shape(
            postgres=self._session.get_bind().dialect.name == "postgresql",
            classes=class_count,
            session=session is not None,
            other_purposes=other_purposes_limit is not None,
        )
        values: dict[str, Any] = {
            "tenant": self._tenant_id,
            "subject": subject_id,
            "now": now,
            "purposes": list(purposes),
            "per_class": per_class,
            "session_id": session.id if session is not None else None,
            "other_limit": other_purposes_limit,
        }
        for number, sources in enumerate(classes[:class_count]):
            values[f"sources_{number}"] = [source.value for source in sources]
        rows: dict[int, list[Row[Any]]] = {}
        if shape.parts:
            # Plain rows, not ORM entities: nothing here is written back, and building and
            # tracking an entity per row cost more than decrypting it.
            for row in self._session.connection().execute(_statement(shape), values):
                rows.setdefault(row.part, []).append(row)
        notes = rows.get(class_count, []) if session is not None else []
        last = shape.parts - 1
        ordered = [_newest_first(rows.get(number, [])) for number in range(class_count)]
        notes = sorted(notes, key=lambda row: (row.created_at, row.id))
        others = sorted(rows.get(last, []), key=lambda row: row.id) if shape.other_purposes else []

        def unseal() -> tuple[tuple[list[Memory], ...], list[Memory]]:
            by_class = tuple(
                self._decrypt(ordered[number]) if per_class > 0 else []
                for number in range(len(classes))
            )
            return by_class, self._decrypt(notes)

        return ContextMemories(
            other_purposes=(
                [row.purpose for row in others] if other_purposes_limit is not None else None
            ),
            fingerprint=_rows_fingerprint(shape, (*ordered, notes, others)),
            unseal=unseal,
        )

    def _decrypt(self, rows: list[Row[Any]]) -> list[Memory]:
        """Rows of an erased subject are skipped, as the repositories do."""
        memories = []
        for row in rows:
            cipher = self._keys.existing(row.subject_id)
            if cipher is not None:
                memories.append(memory_from_row(row, cipher))
        return memories


def _fingerprint(*read: object) -> bytes:
    """A digest of values read (``repr`` of ids, bytes, times, numbers and their tuples is
    exact), for :class:`~memory_service.core.ports.RenderCache`: kept in this process only."""
    return hashlib.blake2b(repr(read).encode(), digest_size=16).digest()


def _rows_fingerprint(shape: _Shape, parts: Sequence[list[Row[Any]]]) -> bytes:
    """As :func:`_fingerprint`, of every column read of every row (ciphertexts as bytes)."""
    digest = hashlib.blake2b(repr(shape).encode(), digest_size=16)
    for number, rows in enumerate(parts):
        for row in rows:
            values = tuple(row)
            sealed: bytes = values[_CIPHERTEXT] or b""
            rest = (number, len(sealed), values[:_CIPHERTEXT], values[_CIPHERTEXT + 1 :])
            digest.update(repr(rest).encode())
            digest.update(sealed)
    return digest.digest()


def _newest_first(rows: list[Row[Any]]) -> list[Row[Any]]:
    """Newest first, ties to the larger id in code-point order, as the SQL ordered them."""
    return sorted(rows, key=lambda row: (row.updated_at, row.id), reverse=True)


@dataclass(frozen=True)
class _Shape:
    """What decides the statement's text; everything else is a bound parameter."""

    postgres: bool
    classes: int
    session: bool
    other_purposes: bool

    @property
    def parts(self) -> int:
        return self.classes + self.session + self.other_purposes


@functools.cache
def _subject_view_statement() -> Select[Any]:
    """The subject's key and state, the session asked for (none when ``session_id`` is NULL
    or another subject's) and its trim marks, built once per process (as :func:`_statement`):
    the session's columns under their own names (``session_from_row`` reads them)."""
    subject = SubjectRow.__table__  # type: ignore[attr-defined]
    session = SessionRow.__table__  # type: ignore[attr-defined]
    history = SessionHistoryRow.__table__  # type: ignore[attr-defined]
    return (
        select(
            subject.c.data_key_id,
            subject.c.state_ciphertext,
            subject.c.state_updated_at,
            *session.c,
            history.c.first_kept_turn,
            history.c.reinjected,
            history.c.updated_at,
        )
        .select_from(subject)
        .outerjoin(
            session,
            and_(
                session.c.tenant_id == subject.c.tenant_id,
                session.c.subject_id == subject.c.subject_id,
                session.c.id == bindparam("session_id"),
            ),
        )
        .outerjoin(
            history,
            and_(
                history.c.tenant_id == session.c.tenant_id,
                history.c.session_id == session.c.id,
            ),
        )
        .where(
            subject.c.tenant_id == bindparam("tenant"),
            subject.c.subject_id == bindparam("subject"),
        )
    )


@functools.cache
def _statement(shape: _Shape) -> Select[Any] | CompoundSelect[Any]:
    """The render's ``UNION ALL`` for ``shape``, built once per process.

    Building it (subqueries, their column proxies, the aliased entity) cost about as much
    CPU as the rest of the render's SQL work together; the statement is immutable and its
    cache key memoised, so each render only binds its parameters.

    On PostgreSQL each part is a member of the ``UNION ALL`` itself (in parentheses, with its
    ``ORDER BY`` and ``LIMIT``) and the lists are arrays (``= ANY(...)``): the text is 2.5 KB
    and the same at every render. Wrapped in subqueries with expanding ``IN`` lists (as
    SQLite needs: no ``LIMIT`` on a compound's member, no arrays) it was 8 KB, rendered
    afresh at each execution (the lists' ``POSTCOMPILE``) and, past psycopg's 4 KB, converted
    to PostgreSQL's placeholders again at each execution too (cProfile of 300 renders,
    session 7)."""
    # Aliased ``m``: the text is a third shorter than with ``memories.`` at each column.
    memories = MemoryRow.__table__.alias("m")  # type: ignore[attr-defined]
    m = memories.c
    usable = (
        m.tenant_id == bindparam("tenant"),
        m.subject_id == bindparam("subject"),
        m.scope == MemoryScope.GLOBAL.value,
        m.status == MemoryStatus.ACTIVE.value,
        or_(m.expires_at.is_(None), m.expires_at > bindparam("now")),
    )
    memory_id = code_point_order(m.id, shape.postgres)
    read = [m[name] for name in READ_COLUMNS]
    # The other purposes' part is only counted by purpose: its other columns are NULL, so
    # up to MAX_OTHER_PURPOSE_ROWS ciphertexts are not sent for nothing.
    counted = [
        column if column.name in COUNTED_COLUMNS else cast(null(), column.type).label(column.name)
        for column in read
    ]

    def one_of(column: ColumnElement[str], name: str) -> ColumnElement[bool]:
        if shape.postgres:
            return column == any_(bindparam(name, type_=postgresql.ARRAY(String)))
        return column.in_(bindparam(name, expanding=True))

    def newest(*more: ColumnElement[bool], limit: str, columns: list[Any] = read) -> Select[Any]:
        return (
            select(*columns)
            .where(*usable, *more)
            .order_by(m.updated_at.desc(), memory_id.desc())
            .limit(bindparam(limit, type_=Integer))
        )

    parts = [
        newest(
            one_of(m.purpose, "purposes"),
            one_of(m.source, f"sources_{number}"),
            limit="per_class",
        )
        for number in range(shape.classes)
    ]
    if shape.session:
        parts.append(
            select(*read).where(
                m.tenant_id == bindparam("tenant"), m.session_id == bindparam("session_id")
            )
        )
    if shape.other_purposes:
        parts.append(newest(limit="other_limit", columns=counted))
    if shape.postgres:
        return union_all(
            *(
                part.add_columns(literal_column(str(number), Integer).label(_PART))
                for number, part in enumerate(parts)
            )
        )
    tagged = [
        select(part.subquery(), literal(number).label(_PART)) for number, part in enumerate(parts)
    ]
    combined = union_all(*tagged).subquery("parts")
    return select(*combined.c)
