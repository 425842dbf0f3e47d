"""Trimming keeps the last N turns and re-injects the notes of the cut turns, once each."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_service.core.errors import InvalidRequest
from memory_service.core.model import (
    Memory,
    MemoryScope,
    Provenance,
)
from memory_service.core.trimming import TrimResult, Turn, notes_to_reinject, trim
from tests.factories import SESSION, make_memory

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def make_turns(count: int, *, messages_per_turn: int = 2) -> list[Turn]:
    roles = ("user", "assistant", "tool")
    return [
        Turn(
            index=index,
            role=roles[position % len(roles)],
            content=f"turn {index} message {position}",
            created_at=START + timedelta(minutes=index, seconds=position),
        )
        for index in range(1, count + 1)
        for position in range(messages_per_turn)
    ]


def make_note(turn: int | None, **overrides: Any) -> Memory:
    """A session note saved half a minute into ``turn`` (None: not saved from the conversation)."""
    at = START + timedelta(minutes=turn or 0, seconds=30)
    provenance = Provenance(actor="agent-key", session_id=SESSION, turn=turn)
    return make_memory(
        f"Note from turn {turn}",
        at=at,
        scope=MemoryScope.SESSION,
        provenance=provenance,
        **overrides,
    )


def test_trim_keeps_every_message_of_the_last_n_turns_in_order() -> None:
    turns = make_turns(10)
    result = trim(turns, keep_last=3)
    assert [turn.index for turn in result.kept] == [8, 8, 9, 9, 10, 10]
    assert [turn.index for turn in result.cut] == [i for i in range(1, 8) for _ in range(2)]
    assert list(result.kept) == turns[-6:]


def test_trim_with_room_for_everything_cuts_nothing() -> None:
    turns = make_turns(3)
    assert trim(turns, keep_last=5) == TrimResult(kept=tuple(turns), cut=())
    assert trim([], keep_last=2) == TrimResult(kept=(), cut=())


def test_trim_to_zero_cuts_everything_and_negative_is_refused() -> None:
    turns = make_turns(2)
    assert trim(turns, keep_last=0) == TrimResult(kept=(), cut=tuple(turns))
    with pytest.raises(InvalidRequest):
        trim(turns, keep_last=-1)


def test_exactly_the_notes_of_the_cut_turns_are_reinjected_once() -> None:
    later_in_turn_3 = START + timedelta(minutes=3, seconds=50)
    notes = [
        make_note(1),
        make_note(3),
        make_note(3, created_at=later_in_turn_3),
        make_note(7),
        make_note(9),
        make_note(None),
    ]
    history = make_turns(10)
    reinjected: set[str] = set()

    first = notes_to_reinject(notes, trim(history, keep_last=4), reinjected)
    assert first == (notes[0], notes[1], notes[2])
    reinjected.update(note.id for note in first)

    # The same trim again: nothing new was cut, so nothing is repeated.
    assert notes_to_reinject(notes, trim(history, keep_last=4), reinjected) == ()

    # Two turns later turn 7 falls out; the store may already have dropped turns 1-6.
    later = make_turns(12)[12:]
    second = notes_to_reinject(notes, trim(later, keep_last=4), reinjected)
    assert second == (notes[3],)
    reinjected.update(note.id for note in second)

    everything_cut = notes_to_reinject(notes, trim(make_turns(12), keep_last=0), reinjected)
    assert everything_cut == (notes[4],)


def test_no_history_means_nothing_to_reinject() -> None:
    assert notes_to_reinject([make_note(1)], trim([], keep_last=3), set()) == ()


@given(
    turn_count=st.integers(min_value=0, max_value=30),
    keep_last=st.integers(min_value=0, max_value=35),
    note_turns=st.lists(st.one_of(st.none(), st.integers(min_value=1, max_value=30)), max_size=15),
)
def test_reinjected_notes_are_those_saved_before_the_first_kept_turn(
    turn_count: int, keep_last: int, note_turns: list[int | None]
) -> None:
    notes = [make_note(turn) for turn in note_turns]
    trimmed = trim(make_turns(turn_count, messages_per_turn=1), keep_last)
    cut_indices = {turn.index for turn in trimmed.cut}

    due = notes_to_reinject(notes, trimmed, set())
    assert sorted(note.id for note in due) == sorted(
        note.id for note in notes if note.provenance.turn in cut_indices
    )
    assert len(trimmed.kept) == min(keep_last, turn_count)
    assert notes_to_reinject(notes, trimmed, {note.id for note in due}) == ()
