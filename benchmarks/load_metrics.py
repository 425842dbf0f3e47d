"""After a load run: what the API's ``/metrics`` and the worker's metrics port say, against the
books (``load_books.py``).

The API runs ``serve --workers 2`` and the worker may be SIGKILLed and started again, so each
keeps its own multiprocess directory for the whole run: a scrape sums every process that ever
ran, the killed ones included.
"""

from __future__ import annotations

from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(url: str) -> Samples:
    text = httpx.get(url, timeout=10).raise_for_status().text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _sum(samples: Samples, name: str, **labels: str) -> int:
    wanted = set(labels.items())
    return int(sum(v for (n, found), v in samples.items() if n == name and wanted <= found))


def compare(
    api: Samples, worker: Samples, books: dict[str, Any], llm_requests: int
) -> dict[str, Any]:
    """Each count as the metrics and the books have it; ``agree`` when every pair matches.

    A note whose answer the client never received (``notes_with_unknown_outcome``) was
    counted by the server but not by the books, so those are allowed for. The books keep
    the distinct memories a ``duplicate`` answer named per session, the metrics every such
    answer, so the books may only be lower there. The judge never retries (``max_retries=0``),
    so its calls are exactly the requests the fake LLM received.
    """
    notes = "memory_service_notes_total"
    unknown = books["notes_with_unknown_outcome"]
    saved = _sum(api, notes, status="saved", dry_run="false")
    duplicates = _sum(api, notes, status="duplicate", dry_run="false")
    runs = _sum(worker, "memory_service_consolidation_runs_total", outcome="consolidated")
    llm_calls = _sum(worker, "memory_service_llm_calls_total")
    agree = (
        saved - unknown <= books["notes_saved"] <= saved
        and books["notes_duplicate_answers"] <= duplicates
        and runs == books["sessions_ended"]
        and llm_calls == llm_requests
    )
    return {
        "notes saved": {"metrics": saved, "books": books["notes_saved"]},
        "duplicate answers": {
            "metrics": duplicates,
            "books (distinct memories named)": books["notes_duplicate_answers"],
        },
        "sessions consolidated": {"metrics": runs, "books": books["sessions_ended"]},
        "LLM calls": {"metrics": llm_calls, "requests the fake LLM received": llm_requests},
        "notes_with_unknown_outcome": unknown,
        "note_reasons": {
            dict(labels)["code"]: int(value)
            for (name, labels), value in api.items()
            if name == "memory_service_note_reasons_total"
        },
        "context_renders": _sum(api, "memory_service_context_render_tokens_count"),
        "llm_calls_by_outcome": {
            outcome: _sum(worker, "memory_service_llm_calls_total", outcome=outcome)
            for outcome in ("ok", "failed")
        },
        "outbox_pending": _sum(api, "memory_service_outbox_pending"),
        "agree": agree,
    }
