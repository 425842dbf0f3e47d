"""Session 12: the pair model's rows gain the seen suites blind12/blind13 and the corpora
pairs_k/pairs_l; pairs_k/l are held back from training by default, since they cost a
held-out fact (data/pairs/REPORT.md, session 12)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sklearn")

ROOT = Path(__file__).resolve().parents[2]


def _train_pairs() -> Any:
    """``tools/train_pairs.py`` as a module (scikit-learn is in the ``test`` extra)."""
    path = ROOT / "tools" / "train_pairs.py"
    spec = importlib.util.spec_from_file_location("train_pairs_consol12", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_rows_hold_every_seen_suite_and_pair_corpus() -> None:
    train = _train_pairs()
    stems = {path.stem for path in train.SUITES}
    assert {"consolidation_blind12", "consolidation_blind13"} <= stems
    corpora = {path.stem for path in train.CORPUS.glob("*.jsonl")}
    assert {"pairs_k", "pairs_l"} <= corpora
    assert set(train.HELD_BACK) == {"pairs_k", "pairs_l"}
