"""The consolidation scenario suites, on the rules path and with the fake LLM as an oracle.

Figures on the suite the rules were tuned on (tests/scenarios/consolidation.jsonl) and on
the once-blind suite, seen since (tests/scenarios/blind/, without judge tables: its oracle
is derived from ``expect``); the floors asserted here are the issue's targets for a suite
nobody tuned on, so a change that only holds on these still fails them here first.
"""

from __future__ import annotations

import pytest

from memory_service.adapters.static_embedding import WordLlamaEmbedder
from tests.scenarios.consolidation import DEFAULT_FILE, MODES, Tally, load, run

SEEN_BLIND_FILE = DEFAULT_FILE.parent / "blind" / "consolidation_blind.jsonl"

FLOORS = {"rules": 0.75, "attributes": 0.90, "llm": 0.95, "llm+attributes": 0.95}


@pytest.fixture(scope="module", params=[DEFAULT_FILE, SEEN_BLIND_FILE], ids=["tuned", "seen"])
def results(request: pytest.FixtureRequest) -> dict[str, dict[str, Tally]]:
    scenarios = load([request.param])
    assert len(scenarios) >= 80
    assert {s.lang for s in scenarios} == {"en", "fr"}
    return run(scenarios, MODES, WordLlamaEmbedder.load())


@pytest.mark.parametrize("mode", MODES)
def test_no_fact_that_must_survive_is_superseded(
    results: dict[str, dict[str, Tally]], mode: str
) -> None:
    total = results[mode]["all"]
    assert total.collateral <= 0.02 * total.expected, total.failures


@pytest.mark.parametrize("mode", MODES)
def test_enough_scenarios_end_with_the_right_memories(
    results: dict[str, dict[str, Tally]], mode: str
) -> None:
    total = results[mode]["all"]
    assert total.right >= FLOORS[mode] * total.scenarios, total.failures
    assert total.rejected == 0


# Collateral supersessions with the shipped pair model on the two latest seen suites (rules
# and attributes modes, no LLM): pinned at the counts measured when the model was shipped, so
# a retrained model or a wider use of it that loses one more fact fails here (before the model:
# blind3 1 and 1, blind4 2 and 1; with the model before the scope veto, blind3 2 and 2;
# blind5, the model of session 6 that never saw it: 2 and 2, as now).
PINNED_COLLATERAL = {
    "consolidation_blind3": {"rules": 1, "attributes": 1},
    "consolidation_blind4": {"rules": 2, "attributes": 1},
    "consolidation_blind5": {"rules": 2, "attributes": 2},
}


@pytest.mark.parametrize("suite", sorted(PINNED_COLLATERAL))
def test_the_pair_model_loses_no_more_facts_than_pinned(suite: str) -> None:
    scenarios = load([DEFAULT_FILE.parent / "blind" / f"{suite}.jsonl"])
    results = run(scenarios, ("rules", "attributes"), WordLlamaEmbedder.load())
    for mode, pinned in PINNED_COLLATERAL[suite].items():
        assert results[mode]["all"].collateral <= pinned, (mode, results[mode]["all"].failures)
