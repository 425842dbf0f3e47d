"""How a long job reports how far it got, without knowing who watches.

The command line hands in a bar drawn on a terminal (``adapters/terminal_progress.py``);
everything else (the nightly tasks, the API, a command whose output is piped) gets
:data:`SILENT`, which does nothing.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def start(self, total: int | None) -> None:
        """The amount of work, when known (None: count without a bar's end)."""
        ...

    def advance(self, done: int = 1) -> None: ...


class _Silent:
    def start(self, total: int | None) -> None:
        pass

    def advance(self, done: int = 1) -> None:
        pass


SILENT: Progress = _Silent()
