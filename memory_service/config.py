"""Settings from environment variables, with local defaults that need no server.

With nothing set, the service runs on the embedded default: a SQLite file and a
generated master key in ``MEMORY_SERVICE_HOME`` (``~/.memory-service``), tasks in-process,
no LLM. ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and Redis. With
``MEMORY_SERVICE_ENV=production`` nothing is generated: a missing master key is refused.
"""

from __future__ import annotations

import base64
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memory_service.core.errors import MemoryServiceError

MASTER_KEY_BYTES = 32


class ConfigurationError(MemoryServiceError):
    """The configuration cannot run the service (raised at start, never per request)."""

    code = "configuration"


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ConfigurationError(f"{name} must be an integer") from exc


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ConfigurationError(f"{name} must be a number") from exc


def _non_negative(value: int, name: str) -> int:
    if value < 0:
        raise ConfigurationError(f"{name} must not be negative")
    return value


@dataclass(frozen=True)
class Settings:
    home: Path
    # Fields that can carry credentials stay out of repr, so a logged or printed
    # Settings (or a traceback showing one) never reveals them.
    database_url: str = field(repr=False)
    redis_url: str | None = field(repr=False)
    environment: str
    master_key_b64: str | None = field(repr=False)
    openai_api_key: str | None = field(repr=False)
    openai_base_url: str | None
    llm_model: str
    llm_timeout_seconds: float
    tokenizer_model: str
    spacy_model: str
    max_global_memories: int
    history_turns: int
    max_body_bytes: int
    manifest_retention_days: int
    retention_file: Path | None
    # Notes per minute per API key (a token bucket of a minute's budget); 0 turns it off.
    notes_rate_per_minute: int = 600
    # Consolidation's candidates by meaning: dimensions of the shipped static embedding
    # (1 to 256, a prefix of the model); 0 turns embeddings off (terms only).
    embedding_dimensions: int = 256
    # Without REDIS_URL, consolidation runs in a background thread after the response;
    # MEMORY_SERVICE_CONSOLIDATE_INLINE=1 runs it before (one-shot scripts, tests).
    consolidate_inline: bool = False

    @property
    def is_production(self) -> bool:
        return self.environment == "production"

    @property
    def is_embedded(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_base_url or self.openai_api_key)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        home = Path(env.get("MEMORY_SERVICE_HOME") or Path.home() / ".memory-service")
        retention = env.get("MEMORY_SERVICE_RETENTION_FILE")
        return cls(
            home=home,
            database_url=env.get("DATABASE_URL") or f"sqlite:///{home / 'memory.db'}",
            redis_url=env.get("REDIS_URL") or None,
            environment=env.get("MEMORY_SERVICE_ENV", "development"),
            master_key_b64=env.get("MEMORY_SERVICE_MASTER_KEY") or None,
            openai_api_key=env.get("OPENAI_API_KEY") or None,
            openai_base_url=env.get("OPENAI_BASE_URL") or None,
            llm_model=env.get("MEMORY_SERVICE_LLM_MODEL", "gpt-4o-mini"),
            llm_timeout_seconds=_float(env, "MEMORY_SERVICE_LLM_TIMEOUT", 10.0),
            tokenizer_model=env.get("MEMORY_SERVICE_TOKENIZER_MODEL", "gpt-4"),
            spacy_model=env.get("MEMORY_SERVICE_SPACY_MODEL", "en_core_web_sm"),
            max_global_memories=_int(env, "MEMORY_SERVICE_MAX_GLOBAL_MEMORIES", 6),
            history_turns=_int(env, "MEMORY_SERVICE_HISTORY_TURNS", 20),
            max_body_bytes=_int(env, "MEMORY_SERVICE_MAX_BODY_BYTES", 64 * 1024),
            manifest_retention_days=_int(env, "MEMORY_SERVICE_MANIFEST_RETENTION_DAYS", 30),
            retention_file=Path(retention) if retention else None,
            notes_rate_per_minute=_non_negative(
                _int(env, "MEMORY_SERVICE_NOTES_RATE_PER_MINUTE", 600),
                "MEMORY_SERVICE_NOTES_RATE_PER_MINUTE",
            ),
            embedding_dimensions=_embedding_dimensions(
                _int(env, "MEMORY_SERVICE_EMBEDDING_DIMENSIONS", 256)
            ),
            consolidate_inline=env.get("MEMORY_SERVICE_CONSOLIDATE_INLINE", "") in ("1", "true"),
        )

    def master_key(self) -> bytes:
        """The key that wraps every subject's data key.

        Generated once into the data directory on the embedded default; in production
        it must come from ``MEMORY_SERVICE_MASTER_KEY`` (base64 of 32 bytes).
        """
        if self.master_key_b64:
            return _decode_master_key(self.master_key_b64)
        if self.is_production:
            raise ConfigurationError(
                "MEMORY_SERVICE_MASTER_KEY is required when MEMORY_SERVICE_ENV=production"
            )
        key_file = self.home / "master.key"
        if not key_file.exists():
            _create_key_file(key_file)
        return _decode_master_key(key_file.read_text().strip())


def _embedding_dimensions(value: int) -> int:
    if not 0 <= value <= 256:
        raise ConfigurationError("MEMORY_SERVICE_EMBEDDING_DIMENSIONS must be 0 to 256")
    return value


def _create_key_file(key_file: Path) -> None:
    """Write the key whole under a temporary name, then link it into place.

    Several server processes may start at once on a fresh data directory: the link is
    atomic, so each of them ends up reading the one complete key that won.
    """
    key_file.parent.mkdir(parents=True, exist_ok=True)
    temporary = key_file.with_name(f".{key_file.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(base64.b64encode(secrets.token_bytes(MASTER_KEY_BYTES)).decode())
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
