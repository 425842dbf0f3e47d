"""The consolidation outbox: an ended session is never lost to a broker outage.

Ending a session writes an outbox entry in the same transaction as the end. Once that
commits, the entry is sent to the task queue and marked dispatched; if the broker is
down the entry simply stays pending, and :func:`relay_outbox` (beat, every minute)
sends it later. A send that succeeded but could not be marked is sent again: the
consolidation task is idempotent, so a repeat costs one no-op run.

A broker that took the message can still lose it (a Redis restart without persistence).
So the relay also sends again an entry dispatched longer ago than a redelivery horizon
(the broker's visibility timeout plus a margin) whose session is still ``ended``; each
send moves the entry's last dispatch time, so a lost message costs one send per horizon,
never one per minute.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from memory_service.core.errors import DependencyUnavailable
from memory_service.core.ports import (
    Clock,
    MaintenanceStore,
    OutboxEntry,
    TaskQueue,
    UnitOfWork,
    UnitOfWorkFactory,
)

log = logging.getLogger(__name__)

# Entries younger than this are probably being dispatched by the request that wrote them.
RELAY_MIN_AGE = timedelta(seconds=30)
RELAY_BATCH = 500


def request_consolidation(
    uow: UnitOfWork,
    session_id: str,
    *,
    at: datetime,
    uow_factory: UnitOfWorkFactory,
    tasks: TaskQueue,
    clock: Clock,
) -> None:
    """Write the entry in ``uow``'s transaction and send it once that transaction commits."""
    entry = OutboxEntry(uow.outbox.add(session_id, at), uow.tenant_id, session_id)

    def send() -> None:
        dispatch(entry, uow_factory=uow_factory, tasks=tasks, clock=clock)

    uow.after_commit(send)


def dispatch(
    entry: OutboxEntry, *, uow_factory: UnitOfWorkFactory, tasks: TaskQueue, clock: Clock
) -> bool:
    """Send one entry; True when the queue took it. Never raises for an unavailable broker."""
    try:
        tasks.enqueue_consolidation(entry.tenant_id, entry.session_id)
    except DependencyUnavailable:
        log.warning(
            "consolidation of session %s not queued (broker unavailable); kept in the outbox",
            entry.session_id,
        )
        sent = False
    else:
        sent = True
    try:
        with uow_factory(entry.tenant_id) as uow:
            uow.outbox.record_attempt(entry.id, dispatched_at=clock.now() if sent else None)
            uow.commit()
    except DependencyUnavailable:
        # The entry stays pending and is sent again: harmless, the task is idempotent.
        log.warning("outbox entry %s could not be marked (database unavailable)", entry.id)
    return sent


def relay_outbox(
    *,
    maintenance: MaintenanceStore,
    uow_factory: UnitOfWorkFactory,
    tasks: TaskQueue,
    clock: Clock,
    min_age: timedelta = RELAY_MIN_AGE,
    limit: int = RELAY_BATCH,
    redeliver_after: timedelta | None = None,
) -> int:
    """Send the entries still pending, then (given ``redeliver_after``) those dispatched
    longer ago whose session is still ``ended``; returns how many were sent.

    Each list is one query of at most ``limit`` entries, and each stops at the first
    failure (the broker is still down). Without ``redeliver_after`` nothing is sent again:
    the in-process queue ran the consolidation when it said so.
    """
    now = clock.now()
    pending = maintenance.pending_outbox(created_before=now - min_age, limit=limit)
    sent = _send_all(pending, uow_factory=uow_factory, tasks=tasks, clock=clock)
    if pending:
        log.info("outbox relay sent %d of %d pending entries", sent, len(pending))
    if redeliver_after is None or sent < len(pending):
        return sent
    lost = maintenance.unconsolidated_outbox(dispatched_before=now - redeliver_after, limit=limit)
    resent = _send_all(lost, uow_factory=uow_factory, tasks=tasks, clock=clock)
    if lost:
        log.warning(
            "outbox relay sent again %d of %d consolidations dispatched over %d s ago "
            "whose session is still not consolidated",
            resent,
            len(lost),
            redeliver_after.total_seconds(),
        )
    return sent + resent


def _send_all(
    entries: list[OutboxEntry], *, uow_factory: UnitOfWorkFactory, tasks: TaskQueue, clock: Clock
) -> int:
    """Dispatch in order until the first failure; returns how many the queue took."""
    sent = 0
    for entry in entries:
        if not dispatch(entry, uow_factory=uow_factory, tasks=tasks, clock=clock):
            break
        sent += 1
    return sent
