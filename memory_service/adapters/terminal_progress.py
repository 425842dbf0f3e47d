"""A progress bar (rich, which typer brings) on stderr, drawn only when stderr is a terminal.

Piped or logged output gets nothing at all, not even a final line, so what scripts read stays
exactly the command's result. The bar is transient: it disappears when the work is done.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.progress import (
    Progress as RichProgress,
)

from memory_service.core.progress import SILENT, Progress


class _Bar:
    def __init__(self, bar: RichProgress, task: TaskID) -> None:
        self._bar = bar
        self._task = task

    def start(self, total: int | None) -> None:
        self._bar.update(self._task, total=total)

    def advance(self, done: int = 1) -> None:
        self._bar.advance(self._task, done)


@contextmanager
def terminal_progress(description: str) -> Iterator[Progress]:
    """A bar for ``description`` while the block runs, on a terminal; :data:`SILENT` otherwise."""
    if not sys.stderr.isatty():
        yield SILENT
        return
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with RichProgress(*columns, console=Console(stderr=True), transient=True) as bar:
        yield _Bar(bar, bar.add_task(description, total=None))
