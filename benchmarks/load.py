"""Under load and faults: the whole service in real processes, on loopback, then the books.

One command starts a scratch PostgreSQL database, a private redis-server, the API
(``memory-service serve --workers 2``), a Celery worker, beat and the fake LLM, then runs:

- load phases with 1, 4, 16 and 32 concurrent clients (open a session, save 3-5 notes from
  the guards' evaluation set, read the context, end the session): throughput, p50/p99 per
  endpoint, errors by status, consolidation lag (session end to ``consolidated``);
- fault phases with 8 clients, each with one fault injected mid-run: the worker SIGKILLed
  and started again; redis-server restarted; the database refusing connections with every
  open one cut; the LLM slow, then failing.

After each phase it waits for the consolidations and checks the books in SQL
(``benchmarks/load_books.py``), and checks that every error answered was shaped, that a 503
carried ``Retry-After`` and that no 500 was answered. At the end it scrapes the API's
``/metrics`` and the worker's metrics port and compares them with the books
(``benchmarks/load_metrics.py``). Results go to
``benchmarks/results/load-<time>.json`` with the processes' logs beside them, the latency
plot to ``docs/load-latency.png``, and a table to stdout. Every phase is bounded in time
and count; a full run takes about five minutes on two cores.

    /work/venv/bin/python -m benchmarks.load [--seconds 20] [--only load|faults]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.load_books import (
    LOST_AFTER_SECONDS,
    check_books,
    stragglers,
    wait_for_consolidation,
)
from benchmarks.load_clients import (
    ENDPOINTS,
    Attempt,
    NoteMix,
    Recorder,
    run_clients,
    summarize,
)
from benchmarks.load_metrics import compare, scrape
from benchmarks.load_stack import Stack
from tests.support.fake_llm import server_error

log = logging.getLogger("benchmarks.load")

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PLOT = ROOT / "docs" / "load-latency.png"
CONCURRENCY = (1, 4, 16, 32)
FAULT_CLIENTS = 8
TENANTS = 4
SUBJECTS_PER_TENANT = 20
MAX_CONVERSATIONS_PER_CLIENT = 400
FAULT_AT = 8.0
CONSOLIDATION_TIMEOUT = 150.0  # beat relays held-back consolidations within ~90 s


@dataclass
class Fault:
    """Injected at ``at`` seconds into a phase; ``lift`` runs ``hold`` seconds later."""

    name: str
    inject: Callable[[], dict[str, Any]]
    lift: Callable[[], dict[str, Any]]
    hold: float


def faults(stack: Stack) -> list[Fault]:
    normal_llm = stack.llm.behaviour

    def kill_worker() -> dict[str, Any]:
        stack.kill_worker()
        return {"worker": "SIGKILL"}

    def restart_worker() -> dict[str, Any]:
        stack.start_worker()
        return {"worker": "started again"}

    def block_database() -> dict[str, Any]:
        cut = stack.block_database()
        return {"connections_cut": cut, "new_connections": "refused"}

    def unblock_database() -> dict[str, Any]:
        cut = stack.cut_database_connections()  # any that raced in are cut too
        stack.unblock_database()
        return {"late_connections_cut": cut, "new_connections": "allowed"}

    def llm_slow_then_failing() -> dict[str, Any]:
        stack.llm.behaviour = normal_llm
        stack.llm.slow(3 * stack.llm_timeout_seconds)
        timer = threading.Timer(6.0, lambda: setattr(stack.llm, "behaviour", server_error))
        timer.start()
        return {"llm": f"slow ({3 * stack.llm_timeout_seconds:g} s > timeout), 500s after 6 s"}

    def llm_normal() -> dict[str, Any]:
        stack.llm.behaviour = normal_llm
        return {"llm": "normal"}

    def stop_redis() -> dict[str, Any]:
        stack.stop_redis()
        return {"redis": "stopped"}

    def start_redis() -> dict[str, Any]:
        stack.start_redis()
        return {"redis": "started (empty: no persistence)"}

    return [
        Fault("worker SIGKILL + restart", kill_worker, restart_worker, 5.0),
        Fault("redis-server restart", stop_redis, start_redis, 5.0),
        Fault("database unreachable + connections cut", block_database, unblock_database, 5.0),
        Fault("LLM slow, then failing", llm_slow_then_failing, llm_normal, 12.0),
    ]


def run_phase(
    stack: Stack,
    setup: dict[str, Any],
    name: str,
    concurrency: int,
    seconds: float,
    seed: int,
    fault: Fault | None = None,
) -> dict[str, Any]:
    recorder = Recorder()
    llm_calls = len(stack.llm.requests)
    unexpected = stack.processes["api"].log().count("unexpected ")
    fault_log: dict[str, Any] = {}
    injector = None
    if fault is not None:
        injector = threading.Thread(target=_inject, args=(fault, recorder, fault_log))
        injector.start()
    started = time.monotonic()
    run_clients(
        stack.base_url,
        setup["keys"],
        setup["subjects"],
        setup["notes"],
        concurrency=concurrency,
        seconds=seconds,
        max_conversations=MAX_CONVERSATIONS_PER_CLIENT,
        recorder=recorder,
        seed=seed,
    )
    wall = time.monotonic() - started
    if injector is not None:
        injector.join()
    drained = wait_for_consolidation(
        stack.engine, recorder.conversations, CONSOLIDATION_TIMEOUT, lost_after=LOST_AFTER_SECONDS
    )
    result: dict[str, Any] = {
        "phase": name,
        "concurrency": concurrency,
        **summarize(recorder, wall),
        "consolidation_drain_s": round(drained, 1),
        "books": check_books(stack.engine, recorder.conversations),
        "llm_requests": len(stack.llm.requests) - llm_calls,
        "api_unexpected_errors_logged": stack.processes["api"].log().count("unexpected ")
        - unexpected,
    }
    left = stragglers(stack.engine, recorder.conversations)
    if left:
        # Handed to the broker and lost with it: what the nightly sweep exists for. Run it
        # now, as beat would at night, and count again.
        result["unconsolidated_before_sweep"] = left
        stack.run_nightly_sweep()
        result["nightly_sweep_s"] = round(
            wait_for_consolidation(
                stack.engine, recorder.conversations, 60.0, lost_after=float("inf")
            ),
            1,
        )
        result["books_after_nightly_sweep"] = check_books(stack.engine, recorder.conversations)
    if fault is not None:
        result["fault"] = {**fault_log, **_fault_window(recorder, fault_log)}
    setup["conversations"] += recorder.conversations
    log.info("%s: %s", name, json.dumps(_headline(result)))
    return result


def _inject(fault: Fault, recorder: Recorder, fault_log: dict[str, Any]) -> None:
    time.sleep(max(0.0, FAULT_AT - recorder.now()))
    fault_log["injected_at_s"] = round(recorder.now(), 2)
    fault_log["inject"] = fault.inject()
    time.sleep(fault.hold)
    fault_log["lifted_at_s"] = round(recorder.now(), 2)
    fault_log["lift"] = fault.lift()


def _fault_window(recorder: Recorder, fault_log: dict[str, Any]) -> dict[str, Any]:
    """What the API answered while the fault was on, and when it recovered by itself."""
    start, end = fault_log["injected_at_s"], fault_log["lifted_at_s"]
    during: list[Attempt] = [a for a in recorder.attempts if start <= a.started <= end]
    statuses: dict[str, int] = {}
    for attempt in during:
        key = "connection" if attempt.status == 0 else str(attempt.status)
        statuses[key] = statuses.get(key, 0) + 1
    clean_after = sorted(
        c.finished
        for c in recorder.conversations
        if c.clean and c.finished is not None and c.started >= end
    )
    return {
        "answers_while_on": dict(sorted(statuses.items())),
        "first_clean_conversation_after_lift_s": (
            round(clean_after[0] - end, 2) if clean_after else None
        ),
    }


def _headline(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "rps": result["throughput_rps"],
        "errors": result["errors_by_status"],
        "balanced": result["books"]["balanced"],
        "problems": result["books"]["problems"],
        "lag": result["books"]["consolidation_lag_s"],
    }


def prepare(stack: Stack) -> dict[str, Any]:
    keys = [(f"t-load-{n}", stack.agent_key(f"t-load-{n}")) for n in range(TENANTS)]
    subjects = {
        tenant: [f"customer-{n:04d}" for n in range(SUBJECTS_PER_TENANT)] for tenant, _ in keys
    }
    return {"keys": keys, "subjects": subjects, "notes": NoteMix.load(), "conversations": []}


def plot(load_results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 4.2), dpi=110)
    levels = [r["concurrency"] for r in load_results]
    for endpoint, colour in zip(ENDPOINTS, ("C0", "C1", "C2", "C3"), strict=True):
        for share, style in (("p50", "-"), ("p99", "--")):
            values = [r["endpoints"][endpoint][f"{share}_ms"] for r in load_results]
            axis.plot(levels, values, style, color=colour, marker="o", label=f"{endpoint} {share}")
    axis.set_xscale("log", base=2)
    axis.set_xticks(levels, [str(n) for n in levels])
    axis.set_yscale("log")
    axis.set_xlabel("concurrent clients")
    axis.set_ylabel("latency (ms, log scale)")
    axis.set_title("memory-service latency vs concurrency (2 API workers, 2 cores)")
    axis.grid(True, which="both", alpha=0.3)
    axis.legend(ncol=2, fontsize=8)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)


def print_tables(results: list[dict[str, Any]]) -> None:
    print()
    print(
        f"{'phase':<42} {'rps':>6} "
        + " ".join(f"{e + ' p50/p99 ms':>20}" for e in ENDPOINTS)
        + f" {'lag p50/p99 s':>14} {'books':>8}"
    )
    for r in results:
        cells = " ".join(
            f"{_num(r['endpoints'][e]['p50_ms']):>9}/{_num(r['endpoints'][e]['p99_ms']):<10}"
            for e in ENDPOINTS
        )
        lag = r["books"]["consolidation_lag_s"]
        books = "ok" if r["books"]["balanced"] else "UNBALANCED"
        print(
            f"{r['phase']:<42} {r['throughput_rps']:>6} {cells} "
            f"{_num(lag['p50']):>6}/{_num(lag['p99']):<7} {books:>8}"
        )
    print()
    print(f"{'phase':<42} {'errors by status':<40} {'500s':>5} {'unshaped':>8} {'recovered':>9}")
    for r in results:
        errors = ", ".join(f"{k}: {v}" for k, v in r["errors_by_status"].items()) or "none"
        recovered = r.get("fault", {}).get("first_clean_conversation_after_lift_s")
        print(
            f"{r['phase']:<42} {errors:<40} {r['server_errors_not_503']:>5} "
            f"{r['errors_not_in_error_shape'] + r['503_without_retry_after']:>8} "
            f"{_num(recovered) + ' s' if recovered is not None else '-':>9}"
        )


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="client time per phase")
    parser.add_argument("--only", choices=("load", "faults"), help="run one half only")
    parser.add_argument(
        "--postgres",
        default=os.environ.get(
            "MEMORY_SERVICE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        ),
        help="server URL the scratch database is created from",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    run_dir = RESULTS / f"load-{stamp}"
    stack = Stack(args.postgres, run_dir)
    results: list[dict[str, Any]] = []
    started = time.monotonic()
    try:
        log.info("starting the stack (logs in %s)", run_dir)
        stack.start()
        setup = prepare(stack)
        if args.only != "faults":
            for level in CONCURRENCY:
                results.append(
                    run_phase(stack, setup, f"load, {level} clients", level, args.seconds, level)
                )
        if args.only != "load":
            for number, fault in enumerate(faults(stack)):
                phase_seconds = max(args.seconds, FAULT_AT + fault.hold + 10)
                results.append(
                    run_phase(
                        stack,
                        setup,
                        f"fault: {fault.name}",
                        FAULT_CLIENTS,
                        phase_seconds,
                        100 + number,
                        fault,
                    )
                )
        final_books = check_books(stack.engine, setup["conversations"])
        metrics = compare(
            scrape(f"{stack.base_url}/metrics"),
            scrape(stack.worker_metrics_url),
            final_books,
            len(stack.llm.requests),
        )
    finally:
        stack.stop()
    report = {
        "started": stamp,
        "total_seconds": round(time.monotonic() - started, 1),
        "machine": {"cores": os.cpu_count(), "api_workers": stack.api_workers},
        "phases": results,
        "final_books": final_books,
        "metrics_against_books": metrics,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"load-{stamp}.json"
    out.write_text(json.dumps(report, indent=2))
    load_results = [r for r in results if "fault" not in r]
    if load_results:
        plot(load_results, PLOT)
    print_tables(results)
    print(f"\nfinal books over all phases: {json.dumps(final_books)}")
    print(f"/metrics against the books: {json.dumps(metrics)}")
    print(f"results: {out}  plot: {PLOT if load_results else '-'}")


if __name__ == "__main__":
    main()
