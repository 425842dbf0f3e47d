"""Check the books in plain SQL after a run: nothing lost, nothing doubled, nothing left over.

For every conversation the clients recorded:

- every note answered ``saved`` is a row of its session, and the session's rows are exactly
  the notes the client was told about (saved, held for confirmation, or the stored copy a
  ``duplicate`` answer pointed to): no lost note and no row nobody heard of;
- no note text is stored twice in one session (the keyed text fingerprint is unique);
- every ended session is ``consolidated``, by exactly one ``consolidation.run`` audit event;
- every saved note of a consolidated session was handled: ``superseded`` by a global
  memory that holds its fact, or ``expired`` (session-only or ephemeral); none is left active.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from typing import Any

from sqlalchemy import Engine, bindparam, text

from benchmarks.load_clients import Conversation, iter_ended, percentile

_SESSIONS = text(
    "SELECT id, status, EXTRACT(EPOCH FROM consolidated_at - ended_at) AS lag "
    "FROM sessions WHERE id IN :ids"
).bindparams(bindparam("ids", expanding=True))
_NOTES = text(
    "SELECT id, session_id, status, text_fingerprint, superseded_by FROM memories "
    "WHERE scope = 'session' AND session_id IN :ids"
).bindparams(bindparam("ids", expanding=True))
_RUNS = text(
    "SELECT session_id, count(*) FROM audit_events "
    "WHERE kind = 'consolidation.run' AND session_id IN :ids GROUP BY session_id"
).bindparams(bindparam("ids", expanding=True))
_GLOBALS = text("SELECT id FROM memories WHERE scope = 'global' AND id IN :ids").bindparams(
    bindparam("ids", expanding=True)
)
_STRAGGLERS = text(
    "SELECT s.id, s.status, o.dispatched_at, o.attempts, "
    "EXTRACT(EPOCH FROM now() - o.dispatched_at) AS dispatched_ago "
    "FROM sessions s LEFT JOIN consolidation_outbox o ON o.session_id = s.id "
    "WHERE s.status <> 'consolidated' AND s.id IN :ids"
).bindparams(bindparam("ids", expanding=True))
_BATCH = 1000
# A message the broker took this long ago was either consumed, redelivered after the
# visibility timeout (20 s in the run, counted from its delivery, which a backlog delays),
# or lost with the broker.
LOST_AFTER_SECONDS = 60.0


def _query(engine: Engine, statement: Any, ids: list[str]) -> list[Any]:
    rows: list[Any] = []
    with engine.connect() as connection:
        for start in range(0, len(ids), _BATCH):
            batch = ids[start : start + _BATCH]
            if batch:
                rows += connection.execute(statement, {"ids": batch}).all()
    return rows


def stragglers(engine: Engine, conversations: list[Conversation]) -> list[dict[str, Any]]:
    """Ended sessions not consolidated yet, with where their outbox entry stands."""
    ids = [c.session_id for c in iter_ended(conversations) if c.session_id]
    return [
        {
            "session_id": row.id,
            "status": row.status,
            "outbox": "pending" if row.dispatched_at is None else "dispatched",
            "attempts": row.attempts,
            "dispatched_ago_s": None if row.dispatched_ago is None else float(row.dispatched_ago),
        }
        for row in _query(engine, _STRAGGLERS, ids)
    ]


def wait_for_consolidation(
    engine: Engine, conversations: list[Conversation], timeout: float, *, lost_after: float
) -> float:
    """Seconds until every ended session was consolidated, the timeout ran out, or every
    one left was handed to the broker more than ``lost_after`` seconds ago."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            left = stragglers(engine, conversations)
        except Exception:  # the database may be the fault being recovered from
            left = [{"outbox": "unknown"}]
        if not left or all(
            s["outbox"] == "dispatched" and s["dispatched_ago_s"] > lost_after for s in left
        ):
            break
        time.sleep(0.5)
    return time.monotonic() - started


def check_books(engine: Engine, conversations: list[Conversation]) -> dict[str, Any]:
    opened = [c for c in conversations if c.session_id]
    ids = [c.session_id for c in opened if c.session_id]
    ended_ids = {c.session_id for c in iter_ended(conversations)}
    sessions = {row.id: row for row in _query(engine, _SESSIONS, ids)}
    notes_by_session: dict[str, list[Any]] = defaultdict(list)
    for row in _query(engine, _NOTES, ids):
        notes_by_session[row.session_id].append(row)
    runs = {row[0]: row[1] for row in _query(engine, _RUNS, ids)}
    superseding = sorted(
        {n.superseded_by for rows in notes_by_session.values() for n in rows if n.superseded_by}
    )
    global_ids = {row.id for row in _query(engine, _GLOBALS, superseding)}

    problems: Counter[str] = Counter()
    fates: Counter[str] = Counter()
    for conversation in opened:
        rows = notes_by_session.get(conversation.session_id or "", [])
        stored = {row.id for row in rows}
        told = conversation.saved | conversation.held | (conversation.duplicates & stored)
        problems["lost notes"] += len(conversation.saved - stored)
        if conversation.unknown_notes == 0:
            problems["rows nobody was told about"] += len(stored - told)
        problems["notes stored twice"] += len(rows) - len({row.text_fingerprint for row in rows})
        if conversation.session_id not in ended_ids:
            continue
        session = sessions.get(conversation.session_id)
        if session is None or session.status != "consolidated":
            problems["ended sessions not consolidated"] += 1
            continue
        if runs.get(conversation.session_id, 0) != 1:
            problems["sessions not consolidated exactly once"] += 1
        for row in rows:
            if row.id not in conversation.saved:
                continue
            if row.status == "superseded" and row.superseded_by in global_ids:
                fates["merged into a global memory"] += 1
            elif row.status == "expired":
                fates["expired (session-only or ephemeral)"] += 1
            else:
                problems["saved notes not handled by consolidation"] += 1

    lags = [
        float(sessions[s].lag) for s in ended_ids if s in sessions and sessions[s].lag is not None
    ]
    return {
        "sessions_opened": len(opened),
        "sessions_ended": len(ended_ids),
        "notes_saved": sum(len(c.saved) for c in opened),
        "notes_duplicate_answers": sum(len(c.duplicates) for c in opened),
        "notes_held_for_confirmation": sum(len(c.held) for c in opened),
        "notes_with_unknown_outcome": sum(c.unknown_notes for c in opened),
        "saved_note_fates": dict(fates),
        "problems": {name: count for name, count in sorted(problems.items()) if count},
        "balanced": not any(problems.values()),
        "consolidation_lag_s": {
            "p50": _round(percentile(lags, 0.5)),
            "p99": _round(percentile(lags, 0.99)),
            "max": _round(max(lags) if lags else None),
        },
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)
