"""The Prometheus adapter: what a consolidation run adds, and processes summed when multiprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from memory_service.adapters.prometheus_metrics import MULTIPROC_ENV, PrometheusMetrics
from memory_service.core.consolidation import JudgeCall


@dataclass(frozen=True)
class Run:
    decisions: dict[str, int] = field(default_factory=dict)
    decided_by: dict[str, int] = field(default_factory=dict)
    judge_call: JudgeCall | None = None


def _samples(exposition: bytes) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(exposition.decode())
        for sample in family.samples
    }


def _call(*, failed: bool, pairs: int, used: int) -> JudgeCall:
    return JudgeCall(
        model="m",
        prompt_version="v1",
        pairs_sent=pairs,
        verdicts_used=used,
        notes_sent=0,
        notes_refused=0,
        prompt_tokens=300,
        completion_tokens=20,
        failed=failed,
    )


def test_runs_decisions_and_llm_calls_are_counted() -> None:
    metrics = PrometheusMetrics()
    metrics.consolidation_finished(
        Run(
            decisions={"merged": 2, "new": 1},
            decided_by={"llm": 2, "rules": 1},
            judge_call=_call(failed=False, pairs=4, used=3),
        )
    )
    metrics.consolidation_finished(
        Run(
            decisions={"new": 1},
            decided_by={"rules": 1},
            judge_call=_call(failed=True, pairs=2, used=0),
        )
    )
    metrics.consolidation_finished(None)

    samples = _samples(metrics.exposition())

    def at(name: str, **labels: str) -> float:
        return samples[(name, tuple(sorted(labels.items())))]

    assert at("memory_service_consolidation_runs_total", outcome="consolidated") == 2
    assert at("memory_service_consolidation_runs_total", outcome="nothing_to_do") == 1
    assert at("memory_service_consolidation_decisions_total", kind="merged") == 2
    assert at("memory_service_consolidation_decisions_total", kind="new") == 2
    assert at("memory_service_consolidation_decisions_by_decider_total", decided_by="rules") == 2
    assert at("memory_service_llm_calls_total", outcome="ok") == 1
    assert at("memory_service_llm_calls_total", outcome="failed") == 1
    assert at("memory_service_llm_fallback_pairs_total") == 1 + 2
    assert at("memory_service_llm_tokens_total", kind="prompt") == 600


_RECORD = """
from memory_service.adapters.prometheus_metrics import PrometheusMetrics
metrics = PrometheusMetrics()
metrics.note_answered("saved", [], dry_run=False)
metrics.note_answered("rejected", ["pii", "secret"], dry_run=False)
metrics.request_served("POST", "/v1/sessions", 201, 0.02)
"""

_SCRAPE = """
import sys
from memory_service.adapters.prometheus_metrics import PrometheusMetrics
sys.stdout.buffer.write(PrometheusMetrics().exposition())
"""


def test_processes_sharing_a_multiprocess_directory_are_scraped_as_one(tmp_path: Path) -> None:
    env = {**os.environ, MULTIPROC_ENV: str(tmp_path)}
    for _ in range(2):  # two server processes, each recording its own requests
        subprocess.run([sys.executable, "-c", _RECORD], env=env, check=True, timeout=60)
    scraped = subprocess.run(
        [sys.executable, "-c", _SCRAPE], env=env, check=True, timeout=60, capture_output=True
    )

    samples = _samples(scraped.stdout)

    notes = "memory_service_notes_total"
    assert samples[(notes, (("dry_run", "false"), ("status", "saved")))] == 2
    assert samples[(notes, (("dry_run", "false"), ("status", "rejected")))] == 2
    assert samples[("memory_service_note_reasons_total", (("code", "pii"),))] == 2
    latency = "memory_service_http_request_duration_seconds_count"
    labels = (("method", "POST"), ("route", "/v1/sessions"), ("status", "201"))
    assert samples[(latency, labels)] == 2
