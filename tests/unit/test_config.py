"""Settings: the embedded default needs nothing, production needs a key, secrets stay hidden."""

from __future__ import annotations

import base64
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from memory_service.config import ConfigurationError, Settings


def test_the_embedded_default_uses_sqlite_in_the_home_directory(tmp_path: Path) -> None:
    settings = Settings.from_env({"MEMORY_SERVICE_HOME": str(tmp_path)})
    assert settings.database_url == f"sqlite:///{tmp_path / 'memory.db'}"
    assert settings.is_embedded and settings.redis_url is None


def test_production_refuses_to_start_without_a_master_key(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "MEMORY_SERVICE_ENV": "production"}
    )
    with pytest.raises(ConfigurationError, match="MEMORY_SERVICE_MASTER_KEY"):
        settings.master_key()
    assert not (tmp_path / "master.key").exists()


@pytest.mark.parametrize("value", ["not base64!", base64.b64encode(b"short").decode()])
def test_a_malformed_master_key_is_refused_without_echo(tmp_path: Path, value: str) -> None:
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "MEMORY_SERVICE_MASTER_KEY": value}
    )
    with pytest.raises(ConfigurationError) as refused:
        settings.master_key()
    assert value not in str(refused.value)


def test_credentials_never_appear_in_the_settings_repr(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "MEMORY_SERVICE_HOME": str(tmp_path),
            "DATABASE_URL": "postgresql://app:db-secret-1@db/memory",
            "REDIS_URL": "redis://:redis-secret-2@cache:6379/0",
            "MEMORY_SERVICE_MASTER_KEY": base64.b64encode(os.urandom(32)).decode(),
            "OPENAI_API_KEY": "sk-openai-secret-3",
        }
    )
    shown = repr(settings)
    for secret in ("db-secret-1", "redis-secret-2", settings.master_key_b64, "sk-openai-secret-3"):
        assert secret is not None and secret not in shown


def _read_generated_key(home: str) -> bytes:
    return Settings.from_env({"MEMORY_SERVICE_HOME": home}).master_key()


def test_processes_starting_together_agree_on_one_generated_key(tmp_path: Path) -> None:
    with ProcessPoolExecutor(max_workers=4) as pool:
        keys = list(pool.map(_read_generated_key, [str(tmp_path)] * 8))
    assert len(set(keys)) == 1 and len(keys[0]) == 32
    assert [path.name for path in tmp_path.iterdir()] == ["master.key"]


@pytest.mark.parametrize(
    "name", ["MEMORY_SERVICE_MAX_GLOBAL_MEMORIES", "MEMORY_SERVICE_LLM_TIMEOUT"]
)
def test_a_non_numeric_setting_is_a_configuration_error(name: str) -> None:
    with pytest.raises(ConfigurationError, match=name):
        Settings.from_env({name: "many"})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MEMORY_SERVICE_MAX_GLOBAL_MEMORIES", "-1"),
        ("MEMORY_SERVICE_HISTORY_TURNS", "0"),
        ("MEMORY_SERVICE_NOTES_RATE_PER_MINUTE", "-5"),
        ("MEMORY_SERVICE_SWEEP_HOUR", "24"),
        ("MEMORY_SERVICE_LLM_TIMEOUT", "0"),
        ("MEMORY_SERVICE_VISIBILITY_TIMEOUT", "soon"),
        ("MEMORY_SERVICE_ENV", "prod"),
    ],
)
def test_an_out_of_range_setting_is_refused_naming_the_variable_not_the_value(
    name: str, value: str
) -> None:
    with pytest.raises(ConfigurationError, match=name) as refused:
        Settings.from_env({name: value})
    assert f"'{value}'" not in refused.value.message


def test_an_empty_variable_counts_as_unset(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "MEMORY_SERVICE_MAX_GLOBAL_MEMORIES": ""}
    )
    assert settings.max_global_memories == 6


@pytest.mark.parametrize("command", ["serve", "worker", "beat"])
def test_serve_worker_and_beat_stop_at_start_on_a_wrong_setting(
    tmp_path: Path, command: str
) -> None:
    from typer.testing import CliRunner

    from memory_service.cli import app

    env = {
        "MEMORY_SERVICE_HOME": str(tmp_path),
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "MEMORY_SERVICE_MAX_GLOBAL_MEMORIES": "-1",
    }
    result = CliRunner().invoke(app, [command], env=env)
    assert result.exit_code == 2
    assert "MEMORY_SERVICE_MAX_GLOBAL_MEMORIES" in result.output
    assert not (tmp_path / "memory.db").exists()


def test_the_broker_defaults_to_redis_and_can_be_rabbitmq(tmp_path: Path) -> None:
    redis_only = Settings.from_env({"REDIS_URL": "redis://cache:6379/0"})
    assert redis_only.broker_url == "redis://cache:6379/0" and redis_only.broker_is_redis
    rabbit = Settings.from_env(
        {"REDIS_URL": "redis://cache:6379/0", "CELERY_BROKER_URL": "amqp://mq:5672//"}
    )
    assert rabbit.broker_url == "amqp://mq:5672//" and not rabbit.broker_is_redis
    assert rabbit.redis_url == "redis://cache:6379/0"  # the cache and rate limiter stay
