"""Session 12: the pair model's rows gain the seen suites blind12/blind13 and the corpora
pairs_k/pairs_l; pairs_k/l are held back from training by default, since they cost a
held-out fact (data/pairs/REPORT.md, session 12)."""

from __future__ import annotations

from typing import Any

from tests.support.tools import load_tool


def _train_pairs() -> Any:
    return load_tool("train_pairs")


def test_the_rows_hold_every_seen_suite_and_pair_corpus() -> None:
    train = _train_pairs()
    stems = {path.stem for path in train.SUITES}
    assert {"consolidation_blind12", "consolidation_blind13"} <= stems
    corpora = {path.stem for path in train.CORPUS.glob("*.jsonl")}
    assert {"pairs_k", "pairs_l"} <= corpora
    assert set(train.HELD_BACK) == {"pairs_k", "pairs_l"}
