"""The ``Metrics`` port over prometheus-client, and the scrape that exposes it.

Each container has its own registry, so two containers in one process (the tests) never
collide. With ``PROMETHEUS_MULTIPROC_DIR`` set, prometheus-client writes every process's
values to files in that directory and a scrape sums them (``MultiProcessCollector``): that
is how ``serve --workers N`` and the prefork Celery worker report as one. The directory must
be empty when the processes start; ``memory-service serve`` and ``worker`` make a fresh one
when it is unset. Label values are closed vocabularies: never an id, never text.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping, Sequence

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from memory_service.config import ConfigurationError
from memory_service.core.errors import DependencyUnavailable
from memory_service.core.ports import Clock, ConsolidationSummary, MaintenanceStore

log = logging.getLogger(__name__)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
PREFIX = "memory_service"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TOKEN_BUCKETS = (50, 100, 250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 64_000)


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


class PrometheusMetrics:
    """Counters and histograms for the API, the worker and the commands."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        registry = self.registry
        self._requests = Histogram(
            f"{PREFIX}_http_request_duration_seconds",
            "HTTP requests by method, route template and status code",
            ["method", "route", "status"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self._notes = Counter(
            f"{PREFIX}_notes",
            "save_memory_note answers by status (saved, rejected, duplicate, needs_confirmation)",
            ["status", "dry_run"],
            registry=registry,
        )
        self._note_reasons = Counter(
            f"{PREFIX}_note_reasons",
            "Reasons given in save_memory_note answers, by reason code",
            ["code"],
            registry=registry,
        )
        self._context_tokens = Histogram(
            f"{PREFIX}_context_render_tokens",
            "Context renders (count) and the tokens of each rendered text (sum, buckets)",
            buckets=TOKEN_BUCKETS,
            registry=registry,
        )
        self._runs = Counter(
            f"{PREFIX}_consolidation_runs",
            "Consolidation tasks: consolidated, or nothing to do (repeat, erased, open)",
            ["outcome"],
            registry=registry,
        )
        self._decisions = Counter(
            f"{PREFIX}_consolidation_decisions",
            "Consolidation decisions by kind",
            ["kind"],
            registry=registry,
        )
        self._deciders = Counter(
            f"{PREFIX}_consolidation_decisions_by_decider",
            "Consolidation decisions by who took them (decided_by)",
            ["decided_by"],
            registry=registry,
        )
        self._llm_calls = Counter(
            f"{PREFIX}_llm_calls",
            "Calls to the LLM judge by outcome (ok, failed)",
            ["outcome"],
            registry=registry,
        )
        self._llm_fallbacks = Counter(
            f"{PREFIX}_llm_fallback_pairs",
            "Candidate pairs sent to the LLM judge but decided by the rules "
            "(the call failed or left them unanswered)",
            registry=registry,
        )
        self._llm_tokens = Counter(
            f"{PREFIX}_llm_tokens",
            "Tokens of the LLM judge calls (prompt, completion)",
            ["kind"],
            registry=registry,
        )
        self._erasures = Counter(
            f"{PREFIX}_erasures",
            "Subjects erased (every erasure, repeats included)",
            registry=registry,
        )
        self._erased_memories = Counter(
            f"{PREFIX}_erased_memories", "Memories removed by erasures", registry=registry
        )

    # --- the Metrics port --------------------------------------------------------------

    def request_served(self, method: str, route: str, status: int, seconds: float) -> None:
        self._requests.labels(method, route, str(status)).observe(seconds)

    def note_answered(self, status: str, reason_codes: Sequence[str], *, dry_run: bool) -> None:
        self._notes.labels(status, "true" if dry_run else "false").inc()
        for code in reason_codes:
            self._note_reasons.labels(code).inc()

    def context_rendered(self, tokens: int) -> None:
        self._context_tokens.observe(tokens)

    def consolidation_finished(self, run: ConsolidationSummary | None) -> None:
        if run is None:
            self._runs.labels("nothing_to_do").inc()
            return
        self._runs.labels("consolidated").inc()
        _add(self._decisions, run.decisions)
        _add(self._deciders, run.decided_by)
        call = run.judge_call
        if call is None:
            return
        self._llm_calls.labels("failed" if call.failed else "ok").inc()
        self._llm_fallbacks.inc(max(call.pairs_sent - call.verdicts_used, 0))
        self._llm_tokens.labels("prompt").inc(call.prompt_tokens)
        self._llm_tokens.labels("completion").inc(call.completion_tokens)

    def subject_erased(self, memories: int) -> None:
        self._erasures.inc()
        self._erased_memories.inc(memories)

    # --- the scrape ----------------------------------------------------------------------

    def scrape_registry(self) -> CollectorRegistry:
        """This process's registry, or all processes' when running multiprocess."""
        directory = multiprocess_dir()
        if directory is None:
            return self.registry
        combined = CollectorRegistry()
        MultiProcessCollector(combined, path=directory)  # type: ignore[no-untyped-call]
        return combined

    def exposition(self, *extra: Collector) -> bytes:
        """The text format of every metric, plus ``extra`` collectors read at scrape time."""
        registry = self.scrape_registry()
        if not extra:
            return generate_latest(registry)
        combined = CollectorRegistry()
        combined.register(_Everything(registry))
        for collector in extra:
            combined.register(collector)
        return generate_latest(combined)


def serve_process_metrics(host: str, port: int) -> None:
    """Serve every process's metrics (``PROMETHEUS_MULTIPROC_DIR``) over HTTP from a thread:
    the Celery worker's endpoint, since its pool processes record and the parent answers."""
    directory = multiprocess_dir()
    if directory is None:
        raise ConfigurationError(f"{MULTIPROC_ENV} must be set to serve the worker's metrics")
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    start_http_server(port, addr=host, registry=registry)


def _add(counter: Counter, counts: Mapping[str, int]) -> None:
    for label, count in counts.items():
        counter.labels(label).inc(count)


class _Everything(Collector):
    """Another registry's metrics as one collector, so scrape-time gauges can join them."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self._registry = registry

    def collect(self) -> Iterator[Metric]:
        return iter(self._registry.collect())


class OutboxCollector(Collector):
    """The outbox backlog, read from the database at each scrape (one COUNT and MIN query).

    A gauge kept by the processes would be wrong as soon as two of them disagree; the table
    is the truth. If the database is down the scrape still answers, without these gauges.
    """

    def __init__(self, maintenance: MaintenanceStore, clock: Clock) -> None:
        self._maintenance = maintenance
        self._clock = clock

    def collect(self) -> Iterator[Metric]:
        try:
            backlog = self._maintenance.outbox_backlog()
        except DependencyUnavailable:
            log.warning("outbox backlog not read: the database is unavailable")
            return
        pending = GaugeMetricFamily(
            f"{PREFIX}_outbox_pending", "Consolidations waiting in the outbox to be sent"
        )
        pending.add_metric([], backlog.pending)
        yield pending
        oldest = GaugeMetricFamily(
            f"{PREFIX}_outbox_oldest_pending_age_seconds",
            "Age of the oldest outbox entry not yet sent (0 when none waits)",
        )
        age = 0.0
        if backlog.oldest_created_at is not None:
            age = max((self._clock.now() - backlog.oldest_created_at).total_seconds(), 0.0)
        oldest.add_metric([], age)
        yield oldest
