"""The targets the README quotes, measured on the hand-written set with the real detector."""

from __future__ import annotations

from collections import Counter

import pytest

from memory_service.adapters.presidio_pii import PresidioPiiDetector
from memory_service.core.model import ReasonCode
from memory_service.evaluation import DEFAULT_SET, EvaluationReport, evaluate, load_rows
from tests.support.presidio import shared_detector

# The privacy reasons are rules tuned on this set: they must find nearly everything. The four
# judgment reasons come from the learned model, which never saw this set (it was the 0.1 word
# lists' tuning set): the floors are its first-sight figures (speculative 0.78, ephemeral 0.81,
# instruction 0.87, not_actionable 0.94; durable notes refused 9.4 %) less a little room for a
# retraining. data/judgment/REPORT.md has the model's own test-split figures.
MAX_DURABLE_WRONGLY_REJECTED = 0.12
MIN_RECALL = 0.95
MIN_JUDGMENT_RECALL = 0.75
JUDGMENT_CODES = frozenset(
    {
        ReasonCode.SPECULATIVE,
        ReasonCode.EPHEMERAL,
        ReasonCode.NOT_ACTIONABLE,
        ReasonCode.INSTRUCTION,
    }
)


@pytest.fixture(scope="module")
def report() -> EvaluationReport:
    detector: PresidioPiiDetector = shared_detector()
    return evaluate(DEFAULT_SET, pii=detector)


def test_no_pii_or_secret_note_is_accepted(report: EvaluationReport) -> None:
    assert [o.line for o in report.leaks_accepted] == []


def test_durable_notes_are_rarely_rejected(report: EvaluationReport) -> None:
    wrongly = [o.line for o in report.durable_wrongly_rejected]
    assert report.durable_wrongly_rejected_rate <= MAX_DURABLE_WRONGLY_REJECTED, wrongly


@pytest.mark.parametrize("code", list(ReasonCode))
def test_every_reason_is_found(report: EvaluationReport, code: ReasonCode) -> None:
    score = report.reason(code)
    floor = MIN_JUDGMENT_RECALL if code in JUDGMENT_CODES else MIN_RECALL
    assert score.recall >= floor, (score, [o.line for o in report.mismatches])


def test_the_set_covers_every_reason_both_languages_and_hard_durable_cases() -> None:
    rows = [row for _, row in load_rows(DEFAULT_SET)]
    reasons = Counter(code for row in rows for code in row["expect_reasons"])
    durable_saved = [
        row
        for row in rows
        if row["expect_status"] == "saved" and row.get("durability", "durable") == "durable"
    ]

    assert len(rows) >= 220
    assert {row["lang"] for row in rows} == {"en", "fr"}
    # ``sensitive`` holds a note for confirmation in the service; the guards never refuse on it.
    refusals = set(ReasonCode) - {ReasonCode.INVALID, ReasonCode.SENSITIVE}
    assert all(reasons[code.value] >= 20 for code in refusals)
    assert reasons[ReasonCode.INVALID.value] >= 12
    assert len(durable_saved) >= 60
    assert any(len(row["expect_reasons"]) > 1 for row in rows)


HELD_OUT_SETS = ["holdout.jsonl", "holdout2.jsonl", "holdout3.jsonl"]


@pytest.mark.parametrize("name", HELD_OUT_SETS)
def test_no_pii_or_secret_note_of_the_held_out_sets_is_accepted(name: str) -> None:
    """The three sets written blind (README, "How the guards were measured") stay a privacy
    regression check: once a leak they revealed is fixed, it must never come back.
    Their other figures are reported, not enforced: they measure generalisation."""
    held_out = evaluate(DEFAULT_SET.with_name(name), pii=shared_detector())
    assert [o.line for o in held_out.leaks_accepted] == []
