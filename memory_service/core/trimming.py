"""Short-term memory: keep the last N turns, and carry the notes of the cut ones forward.

Trimming keeps recent turns verbatim and forgets the rest at once. A note the agent saved
in a turn that is later cut would vanish with it, so every later context of the session
carries it (the context service passes no ``already_reinjected``: a session note stays until
the session ends).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory_service.core.errors import InvalidRequest
from memory_service.core.model import Memory


@dataclass(frozen=True)
class Turn:
    """One message of a session's history.

    ``index`` is the turn number, the one a note's ``provenance.turn`` refers to. Messages of
    the same exchange (the user's, the assistant's, tool calls) may share an index: they are
    kept or cut together.
    """

    index: int
    role: str
    content: str
    created_at: datetime


@dataclass(frozen=True)
class TrimResult:
    kept: tuple[Turn, ...]
    cut: tuple[Turn, ...]


def trim(turns: Sequence[Turn], keep_last: int) -> TrimResult:
    """Keep the messages of the ``keep_last`` highest turn indices, in their given order."""
    if keep_last < 0:
        raise InvalidRequest("keep_last must not be negative")
    indices = sorted({turn.index for turn in turns})
    kept_indices = set(indices[-keep_last:]) if keep_last else set()
    kept = tuple(turn for turn in turns if turn.index in kept_indices)
    cut = tuple(turn for turn in turns if turn.index not in kept_indices)
    return TrimResult(kept=kept, cut=cut)


def notes_to_reinject(
    notes: Iterable[Memory], trimmed: TrimResult, already_reinjected: Collection[str]
) -> tuple[Memory, ...]:
    """The session notes saved in cut turns that were not re-injected yet, oldest turn first.

    A turn counts as cut when it is older than every kept turn, so a note whose turn was
    cut (and dropped from the store) by an earlier trim is still found. Notes without a turn
    were not saved from the conversation and are never re-injected from here. Mark the ids of
    the returned notes as re-injected so the next call does not repeat them.
    """
    if trimmed.kept:
        first_kept = min(turn.index for turn in trimmed.kept)
    elif trimmed.cut:
        first_kept = max(turn.index for turn in trimmed.cut) + 1
    else:
        return ()
    due = [
        note
        for note in notes
        if note.provenance.turn is not None
        and note.provenance.turn < first_kept
        and note.id not in already_reinjected
    ]
    due.sort(key=lambda note: (note.provenance.turn or 0, note.created_at, note.id))
    return tuple(due)
