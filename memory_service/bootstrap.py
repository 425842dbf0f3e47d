"""The one place that wires: Settings in, concrete adapters out, handed to the services."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache, partial

from sqlalchemy import Engine, text

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for, reads_only
from memory_service.adapters.key_cache import CachedKeyStore
from memory_service.adapters.keystore import SqlDataKeyStore
from memory_service.adapters.manifest_queue import ManifestQueue
from memory_service.adapters.openai_judge import OpenAIJudge
from memory_service.adapters.prometheus_metrics import PrometheusMetrics
from memory_service.adapters.render_cache import InProcessRenderCache
from memory_service.adapters.retention_file import load_retention_policy
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.adapters.sql.maintenance import SqlMaintenanceStore
from memory_service.adapters.sql.manifests import write_manifests
from memory_service.adapters.sql.retention import SqlRetentionStore
from memory_service.adapters.sql.tenants import SqlTenantPolicyStore
from memory_service.adapters.subject_cache import NoSubjectCache, RedisSubjectCache
from memory_service.adapters.tiktoken_counter import TiktokenCounter
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.adapters.yaml_state import dump_state_yaml
from memory_service.config import ConfigurationError, Settings
from memory_service.core.clock import SystemClock
from memory_service.core.consolidation import Judge
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.consolidation.syntax import Syntax
from memory_service.core.guards import PiiDetector
from memory_service.core.ports import (
    Clock,
    IdentifierDetector,
    KeyStore,
    MaintenanceStore,
    RateLimiter,
    RetentionStore,
    SubjectCache,
    TaskQueue,
    UnitOfWorkFactory,
)
from memory_service.services.admin import AdminDeps
from memory_service.services.consolidation import ConsolidationDeps, consolidate_session
from memory_service.services.context import ContextDeps
from memory_service.services.history import HistoryDeps
from memory_service.services.notes import NoteDeps


@dataclass
class Container:
    """Everything a request, a task or a command needs, built once per process."""

    settings: Settings
    engine: Engine
    uow_factory: UnitOfWorkFactory
    keyring: Keyring
    keys: KeyStore
    tasks: TaskQueue
    maintenance: MaintenanceStore
    consolidation: ConsolidationDeps
    context: ContextDeps
    history: HistoryDeps
    # Presidio with its spaCy model, built and warmed once: every note is as fast as the first.
    pii: PiiDetector
    # python-stdnum, phonenumbers and the BIP-39 lists behind the core's identifier port.
    identifiers: IdentifierDetector
    notes: NoteDeps
    admin: AdminDeps
    retention_store: RetentionStore
    note_rate_limiter: RateLimiter
    # Renders' manifests, written after the response (adapters/manifest_queue.py).
    manifests: ManifestQueue | None = None
    clock: Clock = field(default_factory=SystemClock)
    # Recorded where requests, tasks and commands end; exposed by /metrics and the worker.
    metrics: PrometheusMetrics = field(default_factory=PrometheusMetrics)

    def check_dependencies(self) -> dict[str, str]:
        """Each dependency as ``ok``, ``down`` or ``not_configured``; never an error detail."""
        checks = {"database": "ok", "keys": "ok", "broker": "not_configured"}
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception:  # any failure means the same thing to a health probe
            checks["database"] = "down"
        try:
            # "wrong_master_key": this process's key does not open the store's canary.
            checks["keys"] = "ok" if self.keyring.opens_store() else "wrong_master_key"
        except Exception:
            checks["keys"] = "down"
        broker = self.settings.broker_url
        if broker:
            checks["broker"] = (
                _ping_redis(broker) if self.settings.broker_is_redis else _ping_amqp(broker)
            )
        return checks


def _ping_redis(url: str) -> str:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
    except redis.RedisError:
        return "down"
    return "ok"


def _ping_amqp(url: str) -> str:
    from kombu.connection import Connection

    try:
        with Connection(url, connect_timeout=1) as connection:  # type: ignore[no-untyped-call]
            connection.ensure_connection(max_retries=1, timeout=1)
    except Exception:  # any failure means the same thing to a health probe
        return "down"
    return "ok"


def build_keyring(settings: Settings) -> Keyring:
    """The master key over its key store, checked against the store's canary.

    Raises ConfigurationError at start, never on a first read, when the master key is
    missing or is not the one the store's keys were sealed with.
    """
    store = SqlDataKeyStore.open(
        settings.keystore_url,
        data_url=settings.database_url,
        prepared_statements=settings.pg_prepared_statements,
    )
    keyring = Keyring(settings.master_key(), store)
    keyring.check_master_key()
    return keyring


def build_container(settings: Settings) -> Container:
    """Adapters for these settings. Raises ConfigurationError before anything is served."""
    clock = SystemClock()
    engine = create_engine_for(
        settings.database_url, prepared_statements=settings.pg_prepared_statements
    )
    keyring = build_keyring(settings)
    embedder = load_embedder(settings.embedding_dimensions)
    uow_factory = SqlUnitOfWorkFactory(engine, keyring, clock, embedder)
    manifests = ManifestQueue(partial(write_manifests, engine, clock=clock))
    pii = load_pii_detector(settings.spacy_model)
    identifiers = load_identifier_detector()
    render_cache = InProcessRenderCache()
    keyring.on_forget(render_cache.forget)  # an erasure here drops the subject's renders at once
    consolidation = ConsolidationDeps(
        uow_factory=uow_factory,
        clock=clock,
        judge=build_judge(settings),
        embedder=embedder,
        syntax=load_syntax(settings.spacy_model),
    )
    metrics = PrometheusMetrics()
    return Container(
        settings=settings,
        engine=engine,
        uow_factory=uow_factory,
        keyring=keyring,
        keys=CachedKeyStore(SqlKeyStore(engine, clock), ttl_seconds=settings.key_cache_seconds),
        tasks=_task_queue(settings, consolidation, metrics),
        maintenance=SqlMaintenanceStore(engine),
        consolidation=consolidation,
        context=ContextDeps(
            uow_factory=uow_factory,
            clock=clock,
            counter=TiktokenCounter(settings.tokenizer_model),  # built once: loading is slow
            dump_yaml=dump_state_yaml,
            max_global=settings.max_global_memories,
            manifest_retention=timedelta(days=settings.manifest_retention_days),
            reads=uow_factory.for_renders(read_engine(settings, engine), manifests),
            cache=render_cache,
        ),
        history=HistoryDeps(
            uow_factory=uow_factory, clock=clock, keep_turns=settings.history_turns
        ),
        pii=pii,
        identifiers=identifiers,
        notes=NoteDeps(
            uow_factory=uow_factory,
            pii=pii,
            policies=SqlTenantPolicyStore(engine, clock),
            clock=clock,
            identifiers=identifiers,
            retention=load_retention_policy(settings.retention_file),
            privacy_backstop=settings.privacy_backstop,
        ),
        admin=AdminDeps(
            uow_factory=uow_factory,
            clock=clock,
            pii=pii,
            cache=_subject_cache(settings),
            identifiers=identifiers,
            retention=load_retention_policy(settings.retention_file),
            privacy_backstop=settings.privacy_backstop,
        ),
        retention_store=SqlRetentionStore(engine),
        note_rate_limiter=_note_rate_limiter(settings),
        manifests=manifests,
        clock=clock,
        metrics=metrics,
    )


def read_engine(settings: Settings, engine: Engine) -> Engine:
    """Renders only read (:func:`reads_only`): on ``DATABASE_READ_URL`` when set, else on
    the primary's pool."""
    read_url = settings.read_database_url
    return reads_only(create_engine_for(read_url) if read_url else engine)


def _note_rate_limiter(settings: Settings) -> RateLimiter:
    """Shared by every server process through Redis when there is one."""
    from memory_service.adapters import rate_limit

    if settings.notes_rate_per_minute == 0:
        return rate_limit.NoRateLimit()
    if settings.redis_url:
        return rate_limit.RedisRateLimiter.from_url(
            settings.redis_url, settings.notes_rate_per_minute
        )
    return rate_limit.InProcessRateLimiter(settings.notes_rate_per_minute)


def _subject_cache(settings: Settings) -> SubjectCache:
    if settings.redis_url:
        return RedisSubjectCache.from_url(settings.redis_url)
    return NoSubjectCache()


def build_judge(settings: Settings) -> Judge | None:
    """None when no LLM is configured: consolidation then runs on its rules alone."""
    if not settings.llm_configured:
        return None
    return OpenAIJudge.connect(
        model=settings.llm_model,
        base_url=settings.openai_base_url,
        api_key=settings.openai_api_key,
        timeout_seconds=settings.llm_timeout_seconds,
    )


@cache
def load_embedder(dimensions: int) -> Embedder | None:
    """The static embedding shipped in the wordllama wheel, once per process; None when
    embeddings are off (consolidation then finds candidates by terms alone)."""
    if dimensions == 0:
        return None
    from memory_service.adapters.static_embedding import WordLlamaEmbedder

    return WordLlamaEmbedder.load(dimensions)


@cache
def load_pii_detector(spacy_model: str) -> PiiDetector:
    """One Presidio engine per process and model, warmed by one analysis at start."""
    from memory_service.adapters.presidio_pii import PresidioPiiDetector, SpacyModelMissingError

    try:
        detector = PresidioPiiDetector(spacy_model=spacy_model)
    except SpacyModelMissingError as exc:
        raise ConfigurationError(str(exc)) from exc
    detector.entity_types("Warm-up: the user prefers aisle seats.")
    detector.entity_types("Préchauffage : préfère les places côté couloir.")  # the French model
    return detector


@cache
def load_syntax(spacy_model: str) -> Syntax:
    """The part-of-speech reader consolidation tells verbs from values with; its taggers load
    on first use (the PII detector has checked the models are installed)."""
    from memory_service.adapters.spacy_syntax import SpacySyntax

    return SpacySyntax(english_model=spacy_model)


@cache
def load_identifier_detector() -> IdentifierDetector:
    """One per process: listing python-stdnum's checksum formats reads their sources once."""
    from memory_service.adapters.identifier_library import LibraryIdentifierDetector

    return LibraryIdentifierDetector()


def _task_queue(
    settings: Settings, consolidation: ConsolidationDeps, metrics: PrometheusMetrics
) -> TaskQueue:
    """Celery when a broker is set; otherwise the same service call, run in-process."""
    if settings.broker_url:
        from memory_service.adapters.task_queue import CeleryTaskQueue
        from workers.celery_app import create_celery_app

        return CeleryTaskQueue(create_celery_app(settings))
    from memory_service.adapters.task_queue import InProcessTaskQueue

    def consolidate(tenant_id: str, session_id: str) -> object:
        report = consolidate_session(tenant_id, session_id, deps=consolidation)
        metrics.consolidation_finished(report)
        return report

    return InProcessTaskQueue(consolidate, inline=settings.consolidate_inline)


def relay_outbox_at_start(container: Container) -> None:
    """Without a broker nothing else relays the outbox (Celery beat does otherwise): send
    what it still holds, pending or dispatched to a process that died before finishing,
    in the background. A repeat of a finished consolidation is a no-op."""
    from memory_service.adapters.task_queue import InProcessTaskQueue
    from memory_service.services.outbox import relay_outbox

    tasks = container.tasks
    if not isinstance(tasks, InProcessTaskQueue):
        return
    tasks.submit(
        lambda: relay_outbox(
            maintenance=container.maintenance,
            uow_factory=container.uow_factory,
            tasks=tasks,
            clock=container.clock,
            min_age=timedelta(0),
            redeliver_after=timedelta(0),
        )
    )
