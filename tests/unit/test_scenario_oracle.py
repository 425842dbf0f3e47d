"""The oracle the scenario runner derives from ``expect`` when a scenario has no judge table."""

from __future__ import annotations

from typing import Any

from tests.scenarios.consolidation import Scenario


def verdicts(sessions: list[list[dict[str, Any]]], expect: list[Any]) -> dict[frozenset[str], str]:
    row = {"id": "x", "sessions": sessions, "expect": expect}
    scenario = Scenario.parse(row)
    assert scenario.derived
    return scenario.judge


def test_acceptable_wordings_of_one_memory_are_the_same() -> None:
    table = verdicts(
        [[{"text": "Is vegetarian."}], [{"text": "Doesn't eat meat."}]],
        [["Is vegetarian.", "Doesn't eat meat."]],
    )
    assert table == {frozenset({"Is vegetarian.", "Doesn't eat meat."}): "same"}


def test_memories_that_both_stay_are_unrelated() -> None:
    table = verdicts(
        [[{"text": "Likes Italian food."}, {"text": "Likes Thai food."}]],
        ["Likes Italian food.", "Likes Thai food."],
    )
    assert table == {}


def test_a_newer_note_that_replaced_the_older_conflicts_and_one_that_adds_detail_refines() -> None:
    table = verdicts(
        [
            [{"text": "Lives in Paris."}, {"text": "Likes coffee."}],
            [{"text": "Moved to Lyon."}, {"text": "Likes coffee black."}],
        ],
        ["Moved to Lyon.", "Likes coffee black."],
    )
    assert table[frozenset({"Lives in Paris.", "Moved to Lyon."})] == "conflict"
    assert table[frozenset({"Likes coffee.", "Likes coffee black."})] == "refines"


def test_a_guess_that_lost_to_a_stated_fact_conflicts_with_it() -> None:
    table = verdicts(
        [
            [{"text": "Lives in Paris."}],
            [{"text": "May live in Lyon.", "source": "model_inferred"}],
        ],
        ["Lives in Paris."],
    )
    assert table == {frozenset({"Lives in Paris.", "May live in Lyon."}): "conflict"}


def test_a_hand_made_table_is_used_as_written_unless_derivation_is_asked() -> None:
    row = {
        "id": "x",
        "sessions": [[{"text": "A."}, {"text": "B."}]],
        "expect": ["B."],
        "judge": [["A.", "B.", "same"]],
    }
    assert Scenario.parse(row).judge == {frozenset({"A.", "B."}): "same"}
    assert Scenario.parse(row, derive=True).judge == {frozenset({"A.", "B."}): "conflict"}
