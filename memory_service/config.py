"""Settings from environment variables, validated once at start, for the API and the worker.

With nothing set, the service runs on the embedded default: a SQLite file, a key store file
and a generated master key in ``MEMORY_SERVICE_HOME`` (``~/.memory-service``), tasks
in-process, no LLM. ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and Redis;
``CELERY_BROKER_URL`` puts the task queue on another broker (RabbitMQ in production);
``KEYSTORE_URL`` names the key store's own database.

Only the embedded default may generate a master key: with any other store, or with
``MEMORY_SERVICE_ENV=production``, a missing ``MEMORY_SERVICE_MASTER_KEY`` stops the
process at start (a key generated per data directory would open nothing another process
sealed).

Every value is checked by :meth:`Settings.from_env`: a wrong one raises
:class:`ConfigurationError` naming the variable (never its value), so ``serve``, ``worker``
and ``beat`` stop before serving anything.
"""

from __future__ import annotations

import base64
import os
import secrets
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from memory_service.core.errors import MemoryServiceError

MASTER_KEY_BYTES = 32

# Past the visibility timeout, a task may still be retrying legitimately: the backoff of
# ``workers.tasks.RETRY`` adds up to about 8.5 minutes (2 + 4 + ... + 256 s).
REDELIVERY_MARGIN = timedelta(minutes=10)


class ConfigurationError(MemoryServiceError):
    """The configuration cannot run the service (raised at start, never per request)."""

    code = "configuration"


_ENVIRONMENT: ContextVar[Mapping[str, str] | None] = ContextVar("environment", default=None)


class _MappingSource(EnvSettingsSource):
    """The environment source over the mapping :meth:`Settings.from_env` was given."""

    def _load_env_vars(self) -> Mapping[str, str | None]:
        env = _ENVIRONMENT.get()
        env = os.environ if env is None else env
        return {name: value for name, value in env.items() if value != ""}


class Settings(BaseSettings):
    """One frozen object for every process. Credentials stay out of ``repr``."""

    model_config = SettingsConfigDict(
        frozen=True, case_sensitive=True, extra="ignore", env_ignore_empty=True
    )

    home: Path = Field(
        default_factory=lambda: Path.home() / ".memory-service",
        validation_alias="MEMORY_SERVICE_HOME",
    )
    database_url_set: str | None = Field(
        default=None, validation_alias="DATABASE_URL", repr=False, min_length=1
    )
    redis_url: str | None = Field(default=None, validation_alias="REDIS_URL", repr=False)
    celery_broker_url: str | None = Field(
        default=None, validation_alias="CELERY_BROKER_URL", repr=False
    )
    keystore_url_set: str | None = Field(default=None, validation_alias="KEYSTORE_URL", repr=False)
    # A read replica of DATABASE_URL (PostgreSQL) that serves the renders of the context.
    database_read_url: str | None = Field(
        default=None,
        validation_alias="DATABASE_READ_URL",
        repr=False,
        pattern=r"^postgres(ql)?(\+psycopg2?)?://",
    )
    # Each process runs the hot statements once, rolled back, before its first request or
    # task (memory_service/warm.py); false starts it cold (a benchmark's comparison).
    warm_statements: bool = Field(default=True, validation_alias="MEMORY_SERVICE_WARM_STATEMENTS")
    # The learned privacy backstop after the privacy rules (fail closed: it only adds
    # refusals; data/privacy/REPORT.md says what it closes and what it costs).
    privacy_backstop: bool = Field(default=True, validation_alias="MEMORY_SERVICE_PRIVACY_BACKSTOP")
    environment: Literal["development", "production"] = Field(
        default="development", validation_alias="MEMORY_SERVICE_ENV"
    )
    master_key_b64: str | None = Field(
        default=None, validation_alias="MEMORY_SERVICE_MASTER_KEY", repr=False
    )
    openai_api_key: str | None = Field(default=None, validation_alias="OPENAI_API_KEY", repr=False)
    openai_base_url: str | None = Field(default=None, validation_alias="OPENAI_BASE_URL")
    llm_model: str = Field(default="gpt-4o-mini", validation_alias="MEMORY_SERVICE_LLM_MODEL")
    llm_timeout_seconds: float = Field(
        default=10.0, gt=0, le=600, validation_alias="MEMORY_SERVICE_LLM_TIMEOUT"
    )
    tokenizer_model: str = Field(default="gpt-4", validation_alias="MEMORY_SERVICE_TOKENIZER_MODEL")
    spacy_model: str = Field(
        default="en_core_web_sm", validation_alias="MEMORY_SERVICE_SPACY_MODEL"
    )
    max_global_memories: int = Field(
        default=6, ge=0, le=1000, validation_alias="MEMORY_SERVICE_MAX_GLOBAL_MEMORIES"
    )
    history_turns: int = Field(
        default=20, ge=1, le=10_000, validation_alias="MEMORY_SERVICE_HISTORY_TURNS"
    )
    max_body_bytes: int = Field(
        default=64 * 1024,
        ge=1024,
        le=64 * 1024 * 1024,
        validation_alias="MEMORY_SERVICE_MAX_BODY_BYTES",
    )
    manifest_retention_days: int = Field(
        default=30, ge=0, le=36_500, validation_alias="MEMORY_SERVICE_MANIFEST_RETENTION_DAYS"
    )
    retention_file: Path | None = Field(
        default=None, validation_alias="MEMORY_SERVICE_RETENTION_FILE"
    )
    # Notes per minute per API key (a token bucket of a minute's budget); 0 turns it off.
    notes_rate_per_minute: int = Field(
        default=600, ge=0, validation_alias="MEMORY_SERVICE_NOTES_RATE_PER_MINUTE"
    )
    # Seconds a verified API key is trusted without a lookup (adapters/key_cache.py): a key
    # revoked by another process still works here for up to this long; 0 turns it off.
    key_cache_seconds: float = Field(
        default=5.0, ge=0, le=300, validation_alias="MEMORY_SERVICE_KEY_CACHE_SECONDS"
    )
    # psycopg 3 prepares a statement on the server after its fifth run on a connection; off
    # (0) for PgBouncer in transaction mode without prepared-statement support (docs/scaling.md).
    pg_prepared_statements: bool = Field(
        default=True, validation_alias="MEMORY_SERVICE_PG_PREPARED_STATEMENTS"
    )
    # The worker and beat (workers/celery_app.py).
    celery_namespace: str = Field(
        default="memory-service",
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$",
        validation_alias="MEMORY_SERVICE_CELERY_NAMESPACE",
    )
    visibility_timeout: int = Field(
        default=3600, ge=1, validation_alias="MEMORY_SERVICE_VISIBILITY_TIMEOUT"
    )
    unacked_restore_interval: int = Field(
        default=10, ge=1, validation_alias="MEMORY_SERVICE_UNACKED_RESTORE_INTERVAL"
    )
    idle_session_hours: int = Field(
        default=24, ge=1, validation_alias="MEMORY_SERVICE_IDLE_SESSION_HOURS"
    )
    sweep_hour: int = Field(default=3, ge=0, le=23, validation_alias="MEMORY_SERVICE_SWEEP_HOUR")
    # Admin console: minutes a sign-in lasts (absolute, not sliding).
    console_session_minutes: int = Field(
        default=60, ge=1, le=24 * 60, validation_alias="MEMORY_SERVICE_CONSOLE_SESSION_MINUTES"
    )
    # When set, GET /metrics requires "Authorization: Bearer <token>".
    metrics_token: str | None = Field(
        default=None, min_length=1, validation_alias="MEMORY_SERVICE_METRICS_TOKEN", repr=False
    )
    # Dimensions of the static embedding kept per memory (0 turns the search by meaning off).
    embedding_dimensions: int = Field(
        default=256, ge=0, le=256, validation_alias="MEMORY_SERVICE_EMBEDDING_DIMENSIONS"
    )
    # Without a broker, consolidation runs in a background thread after the response;
    # MEMORY_SERVICE_CONSOLIDATE_INLINE=1 runs it before (one-shot scripts, tests).
    consolidate_inline: bool = Field(
        default=False, validation_alias="MEMORY_SERVICE_CONSOLIDATE_INLINE"
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, _MappingSource(settings_cls))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings of ``env`` (the process environment by default), all checked.

        Raises ConfigurationError naming each wrong variable and what is wrong, never
        the value given (it may be a credential).
        """
        with _reading(env):
            try:
                return cls()
            except ValidationError as exc:
                raise ConfigurationError(_describe(exc)) from None

    @property
    def database_url(self) -> str:
        return self.database_url_set or f"sqlite:///{self.home / 'memory.db'}"

    @property
    def read_database_url(self) -> str | None:
        """Where renders read: ``DATABASE_READ_URL``, else None (the primary, read only)."""
        if self.database_read_url and self.is_embedded:
            raise ConfigurationError("DATABASE_READ_URL needs DATABASE_URL on PostgreSQL")
        return self.database_read_url

    @property
    def keystore_url(self) -> str:
        """The key store's own database: never the memory database.

        On SQLite a file of its own beside the database (``keys.db``); with PostgreSQL
        ``KEYSTORE_URL`` must name another database (checked by the key store at start).
        """
        if self.keystore_url_set:
            return self.keystore_url_set
        beside = sqlite_keystore_url(self.database_url)
        if beside is not None:
            return beside
        raise ConfigurationError(
            "KEYSTORE_URL is required with DATABASE_URL: data keys live apart from the data"
        )

    @property
    def broker_url(self) -> str | None:
        """Where tasks are queued: ``CELERY_BROKER_URL``, else ``REDIS_URL`` (as before)."""
        return self.celery_broker_url or self.redis_url

    @property
    def broker_is_redis(self) -> bool:
        url = self.broker_url or ""
        return url.startswith(("redis://", "rediss://", "redis+socket://"))

    @property
    def idle_after(self) -> timedelta:
        return timedelta(hours=self.idle_session_hours)

    @property
    def redelivery_after(self) -> timedelta:
        """How long after a dispatch the outbox relay takes a still-``ended`` session's
        message for lost. On Redis an unacknowledged message comes back only after the
        visibility timeout; on RabbitMQ as soon as its consumer's connection drops, so
        there only the retry margin is waited for."""
        if self.broker_is_redis:
            return timedelta(seconds=self.visibility_timeout) + REDELIVERY_MARGIN
        return REDELIVERY_MARGIN

    @property
    def is_production(self) -> bool:
        return self.environment == "production"

    @property
    def is_embedded(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def is_embedded_default(self) -> bool:
        """SQLite inside ``MEMORY_SERVICE_HOME``: the one setup that may make its own key."""
        prefix = "sqlite:///"
        if not self.database_url.startswith(prefix):
            return False
        database = Path(self.database_url[len(prefix) :]).expanduser()
        return database.parent.resolve() == self.home.expanduser().resolve()

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_base_url or self.openai_api_key)

    def master_key(self) -> bytes:
        """The key that wraps every subject's data key.

        From ``MEMORY_SERVICE_MASTER_KEY`` (base64 of 32 bytes). Generated once into the
        data directory only on the embedded default outside production; anywhere else a
        missing key is refused, since a generated one would open nothing already sealed.
        """
        if self.master_key_b64:
            return _decode_master_key(self.master_key_b64)
        if self.is_production:
            raise ConfigurationError(
                "MEMORY_SERVICE_MASTER_KEY is required when MEMORY_SERVICE_ENV=production"
            )
        if not self.is_embedded_default:
            raise ConfigurationError(
                "MEMORY_SERVICE_MASTER_KEY is required: only the embedded default (SQLite "
                "in MEMORY_SERVICE_HOME) generates its own master key"
            )
        key_file = self.home / "master.key"
        if not key_file.exists():
            _create_key_file(key_file)
        return _decode_master_key(key_file.read_text().strip())


def sqlite_keystore_url(database_url: str) -> str | None:
    """``keys.db`` beside a SQLite database file; None for any other database."""
    prefix = "sqlite:///"
    if not database_url.startswith(prefix):
        return None
    return f"{prefix}{Path(database_url[len(prefix) :]).parent / 'keys.db'}"


@contextmanager
def _reading(env: Mapping[str, str] | None) -> Iterator[None]:
    token = _ENVIRONMENT.set(env)
    try:
        yield
    finally:
        _ENVIRONMENT.reset(token)


def _describe(error: ValidationError) -> str:
    """``NAME: what is wrong`` per problem; pydantic's messages do not quote the input."""
    problems = []
    for problem in error.errors(include_input=False, include_url=False):
        name = ".".join(str(part) for part in problem.get("loc", ())) or "settings"
        problems.append(f"{name}: {problem.get('msg', 'invalid')}")
    return "invalid configuration: " + "; ".join(problems)


def write_key_file(path: Path, key: bytes) -> None:
    """Write a new key file, owner-only (0600), refusing to overwrite one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(base64.b64encode(key).decode())


def _create_key_file(key_file: Path) -> None:
    """Write the key whole under a temporary name, then link it into place.

    Several server processes may start at once on a fresh data directory: the link is
    atomic, so each of them ends up reading the one complete key that won.
    """
    key_file.parent.mkdir(parents=True, exist_ok=True)
    temporary = key_file.with_name(f".{key_file.name}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        write_key_file(temporary, secrets.token_bytes(MASTER_KEY_BYTES))
        os.link(temporary, key_file)
    except FileExistsError:
        pass  # another process won the race; its key is complete
    finally:
        temporary.unlink(missing_ok=True)


def _decode_master_key(encoded: str) -> bytes:
    try:
        key = base64.b64decode(encoded, validate=True)
    except ValueError as exc:
        raise ConfigurationError("the master key must be base64") from exc
    if len(key) != MASTER_KEY_BYTES:
        raise ConfigurationError(f"the master key must be {MASTER_KEY_BYTES} bytes")
    return key
