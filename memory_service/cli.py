"""The ``memory-service`` command: serve, migrate, keys, demo (and more as features land)."""

from __future__ import annotations

import atexit
import getpass
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeVar

import typer

from memory_service.config import Settings
from memory_service.core.errors import InvalidRequest, MemoryServiceError
from memory_service.core.export import event_record, memory_record
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope, validate_tenant_id
from memory_service.services import admin as admin_service

if TYPE_CHECKING:
    from memory_service.bootstrap import Container
    from memory_service.services.admin import AdminDeps

T = TypeVar("T")

app = typer.Typer(
    help="Long-term memory for LLM agents: serve the API, run workers, manage keys and data.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
keys_app = typer.Typer(help="Create and revoke API keys.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")
tenants_app = typer.Typer(help="Tenant settings.", no_args_is_help=True)
app.add_typer(tenants_app, name="tenants")
purge_app = typer.Typer(
    help="Run the nightly purges now (the beat runs them at the sweep hour).", no_args_is_help=True
)
app.add_typer(purge_app, name="purge")
admin_app = typer.Typer(
    help="Admin lifecycle: erase, delete, correct, export, history.", no_args_is_help=True
)
app.add_typer(admin_app, name="admin")


def _check_tenant(tenant: str) -> None:
    try:
        validate_tenant_id(tenant)
    except InvalidRequest as exc:
        _fail(exc.message)


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _settings() -> Settings:
    try:
        return Settings.from_env()
    except MemoryServiceError as exc:
        _fail(exc.message)


@app.command()
def migrate(
    downgrade: Annotated[
        str | None, typer.Option(help="Downgrade to this revision instead of upgrading")
    ] = None,
) -> None:
    """Bring the database schema to the latest revision (Alembic is the only schema writer)."""
    from memory_service.adapters import migrate as migrations

    settings = _settings()
    if downgrade:
        migrations.downgrade(
            settings.database_url, downgrade, keystore_url=settings.keystore_url_set
        )
        typer.echo(f"downgraded to {downgrade}")
    else:
        migrations.upgrade(settings.database_url, keystore_url=settings.keystore_url_set)
        typer.echo("database is at the latest revision")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8080,
    workers: Annotated[int, typer.Option(help="Server processes")] = 1,
) -> None:
    """Serve the HTTP API. On the embedded default (SQLite) the schema is migrated first."""
    from memory_service.adapters import migrate as migrations
    from memory_service.api.server import run_server

    settings = _settings()
    if settings.is_embedded:
        migrations.upgrade(settings.database_url)
    try:
        _check_master_key(settings)
    except MemoryServiceError as exc:
        _fail(exc.message)
    if workers > 1:
        _share_metrics_between_processes()
    logging.basicConfig(level=logging.INFO)
    from memory_service.warm import warm_models

    run_server(
        "memory_service.api.asgi:create_default_app",
        host=host,
        port=port,
        workers=workers,
        before_fork=lambda: warm_models(settings),
    )


@app.command()
def reindex(
    tenant: Annotated[str | None, typer.Option(help="Only this tenant's subjects")] = None,
) -> None:
    """Rebuild the term index and vectors consolidation finds its candidates with.

    Run it once after upgrading a database that already holds global memories (the
    migration that adds the index cannot fill it: its hashes need each subject's key), and
    after a release that changes how terms are extracted. Safe to repeat.
    """
    from memory_service.adapters import migrate as migrations
    from memory_service.adapters.database import create_engine_for
    from memory_service.adapters.sql.terms import reindex_subjects
    from memory_service.adapters.terminal_progress import terminal_progress
    from memory_service.bootstrap import build_keyring, load_embedder

    if tenant is not None:
        _check_tenant(tenant)
    settings = _settings()
    if settings.is_embedded:
        migrations.upgrade(settings.database_url)
    engine = create_engine_for(settings.database_url)
    try:
        with terminal_progress("re-indexing subjects") as progress:
            report = reindex_subjects(
                engine,
                build_keyring(settings),
                tenant_id=tenant,
                embedder=load_embedder(settings.embedding_dimensions),
                progress=progress,
            )
    except MemoryServiceError as exc:
        _fail(exc.message)
    finally:
        engine.dispose()
    typer.echo(f"re-indexed {report.memories} global memories of {report.subjects} subjects")


@keys_app.command("create")
def create_key(
    tenant: Annotated[str, typer.Option(help="Tenant id (lower-case slug); created if new")],
    role: Annotated[Role, typer.Option(help="agent or admin")] = Role.AGENT,
) -> None:
    """Print a new API key on stdout. It is shown once and stored only as a hash."""
    _check_tenant(tenant)
    container = _container()
    record, clear_key = container.keys.create(tenant, role)
    typer.echo(clear_key)
    typer.echo(f"key id {record.id} ({role.value}) for tenant {tenant}", err=True)


@keys_app.command("revoke")
def revoke_key(
    key_id: Annotated[str, typer.Argument(help="The key id printed at creation")],
    tenant: Annotated[str, typer.Option(help="Tenant id the key belongs to")],
) -> None:
    """Revoke a key of the tenant: it stops authenticating at once."""
    container = _container()
    if not container.keys.revoke(tenant, key_id):
        _fail("no active key with that id for that tenant", code=1)
    typer.echo(f"revoked {key_id}")


@keys_app.command("rotate-master")
def rotate_master_key() -> None:
    """Re-wrap every data key under a new master key; the data itself is not touched.

    On the embedded default the new key replaces ``master.key``; otherwise it is printed
    on stdout, once, for MEMORY_SERVICE_MASTER_KEY. Restart every process with it: a
    process still on the old key fails its health check and its next key lookup.
    """
    import base64
    import secrets

    from memory_service.adapters.crypto import Keyring
    from memory_service.bootstrap import build_keyring
    from memory_service.config import write_key_file

    settings = _settings()
    try:
        old = build_keyring(settings)
    except MemoryServiceError as exc:
        _fail(exc.message)
    new_key = secrets.token_bytes(32)
    if settings.master_key_b64 is None:
        # The new key is on disk before any data key is wrapped with it.
        key_file = settings.home / "master.key"
        pending = key_file.with_name("master.key.new")
        write_key_file(pending, new_key)
        try:
            rewrapped = old.rewrap_all(Keyring(new_key, old.store))
        except BaseException:
            pending.unlink()
            raise
        os.replace(pending, key_file)
        typer.echo(f"re-wrapped {rewrapped} data keys; master.key replaced", err=True)
    else:
        rewrapped = old.rewrap_all(Keyring(new_key, old.store))
        typer.echo(base64.b64encode(new_key).decode())
        typer.echo(
            f"re-wrapped {rewrapped} data keys; set MEMORY_SERVICE_MASTER_KEY to the key "
            "above and restart every process",
            err=True,
        )


@keys_app.command("replay-erasures")
def replay_erasures() -> None:
    """After restoring the data from a backup: erase again every subject erased since."""
    from memory_service.adapters.sql.erasure import replay_erasures as replay
    from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory

    container = _container()
    uow_factory = container.uow_factory
    assert isinstance(uow_factory, SqlUnitOfWorkFactory)
    typer.echo(f"erased again {replay(uow_factory, container.keyring)} subjects")


@app.command()
def worker(
    concurrency: Annotated[int, typer.Option(help="Task processes")] = 2,
    pool: Annotated[str, typer.Option(help="Celery pool: prefork or solo")] = "prefork",
    hostname: Annotated[str | None, typer.Option(help="Node name, unique per worker")] = None,
    loglevel: Annotated[str, typer.Option(help="Log level")] = "INFO",
    metrics_port: Annotated[
        int,
        typer.Option(
            help="Serve the worker's Prometheus metrics on this port (0: off)",
            envvar="MEMORY_SERVICE_WORKER_METRICS_PORT",
        ),
    ] = 0,
    metrics_host: Annotated[
        str,
        typer.Option(
            help="Interface for the metrics port", envvar="MEMORY_SERVICE_WORKER_METRICS_HOST"
        ),
    ] = "127.0.0.1",
    task_events: Annotated[
        bool, typer.Option("--task-events", help="Send task events (for Flower's task views)")
    ] = False,
) -> None:
    """Run the Celery worker that consolidates sessions (needs CELERY_BROKER_URL or REDIS_URL)."""
    settings = _settings()
    if not settings.broker_url:
        _fail(
            "the worker needs CELERY_BROKER_URL or REDIS_URL; "
            "without one tasks run inside the API process"
        )
    if metrics_port:
        # Before anything imports prometheus-client: the pool's processes inherit the mode.
        _share_metrics_between_processes()
        from memory_service.adapters.prometheus_metrics import serve_process_metrics

        serve_process_metrics(metrics_host, metrics_port)
    from workers.celery_app import create_celery_app

    argv = ["worker", f"--loglevel={loglevel}", f"--concurrency={concurrency}", f"--pool={pool}"]
    # Mingle and gossip sync state between workers that we never use; they only slow start.
    argv += ["--without-mingle", "--without-gossip"]
    if hostname:
        argv.append(f"--hostname={hostname}")
    if task_events:
        argv.append("--task-events")
    try:
        _check_master_key(settings)
        create_celery_app(settings).worker_main(argv)
    except MemoryServiceError as exc:
        _fail(exc.message)


def _share_metrics_between_processes() -> None:
    """prometheus-client sums processes through files in ``PROMETHEUS_MULTIPROC_DIR``, which
    must be empty when they start: when it is unset, a fresh one is made and removed at exit."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return
    directory = tempfile.mkdtemp(prefix="memory-service-metrics-")
    owner = os.getpid()

    def remove() -> None:  # forked pool processes inherit atexit; only the maker removes it
        if os.getpid() == owner:
            shutil.rmtree(directory, ignore_errors=True)

    atexit.register(remove)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory


@app.command()
def beat(
    loglevel: Annotated[str, typer.Option(help="Log level")] = "INFO",
) -> None:
    """Run the scheduler: nightly sweep and expiry, outbox relay every minute (needs a broker)."""
    from workers.celery_app import create_celery_app

    settings = _settings()
    if not settings.broker_url:
        _fail("beat needs CELERY_BROKER_URL or REDIS_URL; without one there is no queue")
    settings.home.mkdir(parents=True, exist_ok=True)
    try:
        _check_master_key(settings)
        create_celery_app(settings).Beat(loglevel=loglevel).run()
    except MemoryServiceError as exc:
        _fail(exc.message)


@app.command()
def demo(
    json_output: Annotated[
        bool, typer.Option("--json", help="Print every raw JSON answer instead of the story")
    ] = False,
) -> None:
    """One end-to-end run on the configured store (the embedded default when nothing is set)."""
    from memory_service.demo import run_demo

    settings = _settings()
    run_demo(settings, echo=typer.echo, json_output=json_output)


@tenants_app.command("policy")
def tenant_policy(
    tenant: Annotated[str, typer.Option(help="Tenant id")],
    confirm_sources: Annotated[
        list[str] | None,
        typer.Option(
            help="Sources whose notes wait for the user's confirmation (repeatable; '' for none)"
        ),
    ] = None,
    confirm_all: Annotated[
        bool | None, typer.Option(help="Every note waits for the user's confirmation")
    ] = None,
    agent_confirmation: Annotated[
        bool | None,
        typer.Option(help="A note sent with confirmed=true counts as confirmed"),
    ] = None,
    refuse_sensitive: Annotated[
        bool | None,
        typer.Option(help="Refuse special-category notes (health, religion...) instead of holding"),
    ] = None,
) -> None:
    """Show the tenant's note policy, or change the fields given. Prints the policy as JSON."""
    import dataclasses
    import json

    from memory_service.adapters import migrate as migrations
    from memory_service.adapters.database import create_engine_for
    from memory_service.adapters.sql.tenants import SqlTenantPolicyStore
    from memory_service.core.clock import SystemClock
    from memory_service.core.tenant_policy import parse_tenant_policy

    _check_tenant(tenant)
    settings = _settings()
    if settings.is_embedded:
        migrations.upgrade(settings.database_url)
    store = SqlTenantPolicyStore(create_engine_for(settings.database_url), SystemClock())
    try:
        policy = store.get(tenant)
        changes: dict[str, object] = {
            name: value
            for name, value in (
                ("confirm_all", confirm_all),
                ("agent_confirmation", agent_confirmation),
                ("refuse_sensitive", refuse_sensitive),
            )
            if value is not None
        }
        if confirm_sources is not None:
            # --confirm-sources "" clears the list.
            parsed = parse_tenant_policy({"confirm_sources": [s for s in confirm_sources if s]})
            changes["confirm_sources"] = parsed.confirm_sources
        if changes:
            policy = dataclasses.replace(policy, **changes)  # type: ignore[arg-type]
            store.set(tenant, policy)
    except MemoryServiceError as exc:
        _fail(exc.message)
    typer.echo(json.dumps(policy.to_dict(), sort_keys=True))


@app.command("eval")
def evaluate_guards(
    path: Annotated[
        Path | None, typer.Argument(help="A JSONL evaluation set (default: tests/eval/notes.jsonl)")
    ] = None,
) -> None:
    """Run the distillation guards over an evaluation set: precision and recall per reason."""
    from memory_service.adapters.terminal_progress import terminal_progress
    from memory_service.evaluation import (
        DEFAULT_SET,
        InvalidEvaluationSet,
        evaluate,
        format_report,
    )

    target = path or DEFAULT_SET
    if not target.is_file():
        _fail("no evaluation set at that path")
    try:
        with terminal_progress("evaluating notes") as progress:
            report = evaluate(target, progress=progress)
    except InvalidEvaluationSet as exc:
        _fail(str(exc))
    typer.echo(format_report(report))
    if report.leaks_accepted:
        raise typer.Exit(1)


@app.command()
def mcp() -> None:
    """Serve save_memory_note and the context over MCP (stdio) for one subject.

    Configured by environment: MEMORY_SERVICE_API_KEY and MEMORY_SERVICE_SUBJECT (required),
    MEMORY_SERVICE_SESSION, MEMORY_SERVICE_PURPOSE, MEMORY_SERVICE_URL (in-process when unset).
    """
    import os

    from memory_service.integrations.mcp_server import build_server

    try:
        server = build_server(os.environ)
    except MemoryServiceError as exc:
        _fail(exc.message)
    server.run("stdio")


def _check_master_key(settings: Settings) -> None:
    """Stop at start, not on the first task, when the master key does not open the store."""
    from memory_service.bootstrap import build_keyring

    build_keyring(settings)


def _container() -> Container:
    from memory_service.adapters import migrate as migrations
    from memory_service.bootstrap import build_container

    settings = _settings()
    if settings.is_embedded:
        migrations.upgrade(settings.database_url)
    try:
        return build_container(settings)
    except MemoryServiceError as exc:
        _fail(exc.message)


def _admin(tenant: str) -> tuple[TenantScope, AdminDeps]:
    """The operator acts as an admin of ``--tenant``, recorded as ``cli:<os user>``."""
    _check_tenant(tenant)
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no login name in some containers
        user = "unknown"
    return TenantScope(tenant, Role.ADMIN, f"cli:{user}"), _container().admin


def _admin_call(call: Callable[[], T]) -> T:
    """Known errors become a message and an exit code: 2 for bad input, 1 otherwise."""
    try:
        return call()
    except InvalidRequest as exc:
        _fail(exc.message, code=2)
    except MemoryServiceError as exc:
        _fail(exc.message, code=1)


def _echo_json(document: object) -> None:
    typer.echo(json.dumps(document, indent=2, ensure_ascii=False, default=str))


TenantOption = Annotated[str, typer.Option(help="The tenant the operator acts for")]


@purge_app.command("memories")
def purge_memories() -> None:
    """Delete the memories expired for longer than the grace period (the retention policy)."""
    from memory_service.adapters.terminal_progress import terminal_progress
    from memory_service.services import retention

    container = _container()
    with terminal_progress("purging expired memories") as progress:
        purged = _admin_call(
            lambda: retention.purge_expired_memories(
                store=container.retention_store,
                policy=container.admin.retention,
                clock=container.clock,
                progress=progress,
            )
        )
    typer.echo(f"purged {purged} memories past retention and grace")


@purge_app.command("manifests")
def purge_manifests() -> None:
    """Delete every tenant's context manifests kept past their retention."""
    from memory_service.adapters.terminal_progress import terminal_progress
    from memory_service.services import context

    container = _container()
    with terminal_progress("purging expired manifests (tenants)") as progress:
        purged = _admin_call(
            lambda: context.purge_expired_manifests(
                maintenance=container.maintenance,
                uow_factory=container.uow_factory,
                clock=container.clock,
                progress=progress,
            )
        )
    typer.echo(f"purged {purged} expired context manifests")


@admin_app.command("erase")
def admin_erase(
    subject: Annotated[str, typer.Argument(help="The subject id to erase")],
    tenant: TenantOption,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation")] = False,
) -> None:
    """Erase everything held about a subject and print the kept receipt. Safe to repeat."""
    if not yes:
        typer.confirm("Erase everything held about this subject? This cannot be undone", abort=True)
    scope, deps = _admin(tenant)
    receipt = _admin_call(lambda: admin_service.erase_subject(scope, subject, deps=deps))
    _echo_json(receipt.to_dict())


@admin_app.command("delete")
def admin_delete(
    memory_id: Annotated[str, typer.Argument(help="The memory id")], tenant: TenantOption
) -> None:
    """Delete one memory: status deleted, text overwritten."""
    scope, deps = _admin(tenant)
    memory = _admin_call(lambda: admin_service.delete_memory(scope, memory_id, deps=deps))
    _echo_json({"memory_id": memory.id, "status": memory.status.value})


@admin_app.command("correct")
def admin_correct(
    memory_id: Annotated[str, typer.Argument(help="The memory id")],
    tenant: TenantOption,
    text: Annotated[str, typer.Option(help="The corrected text, checked like a note")],
    reason: Annotated[str, typer.Option(help="A code such as user_request or inaccurate")],
) -> None:
    """Supersede a memory by a corrected one (source admin_correction); print the new memory."""
    scope, deps = _admin(tenant)
    corrected = _admin_call(
        lambda: admin_service.correct_memory(scope, memory_id, text, reason, deps=deps)
    )
    _echo_json(memory_record(corrected))


@admin_app.command("export")
def admin_export(
    subject: Annotated[str, typer.Argument(help="The subject id")], tenant: TenantOption
) -> None:
    """Print everything held about a subject as one JSON document."""
    scope, deps = _admin(tenant)
    _echo_json(_admin_call(lambda: admin_service.export_subject(scope, subject, deps=deps)))


@admin_app.command("history")
def admin_history(
    subject: Annotated[str, typer.Argument(help="The subject id")], tenant: TenantOption
) -> None:
    """Print the subject's audit events (ids, kinds, times, counts; never text)."""
    scope, deps = _admin(tenant)
    events = _admin_call(lambda: admin_service.subject_history(scope, subject, deps=deps))
    _echo_json([event_record(event) for event in events])


if __name__ == "__main__":
    app(prog_name="memory-service")
