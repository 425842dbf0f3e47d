"""The real clock and fresh ids; tests hand in a fixed clock instead."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


def new_id() -> str:
    return str(uuid.uuid4())
