"""docker-compose.yml cannot run here (no Docker engine): check it as data instead."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.main import get_command

from memory_service.cli import app

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"
EXPECTED_SERVICES = {
    "postgres",
    "keystore",
    "rabbitmq",
    "redis",
    "migrate",
    "api",
    "worker",
    "beat",
}


def _services() -> dict[str, dict[str, object]]:
    document = yaml.safe_load(COMPOSE.read_text())
    services: dict[str, dict[str, object]] = document["services"]
    return services


def test_compose_names_the_whole_stack() -> None:
    assert set(_services()) == EXPECTED_SERVICES


def test_every_dependency_names_a_service_of_the_file() -> None:
    services = _services()
    for name, service in services.items():
        depends_on = service.get("depends_on", {})
        assert isinstance(depends_on, dict), name
        assert set(depends_on) <= set(services), name
        for condition in depends_on.values():
            assert condition["condition"] in {
                "service_healthy",
                "service_completed_successfully",
            }


def test_long_running_servers_have_health_checks() -> None:
    services = _services()
    for name in ("postgres", "redis", "api", "worker"):
        assert "test" in services[name]["healthcheck"], name


def test_service_commands_are_real_cli_commands() -> None:
    commands = set(get_command(app).commands)  # type: ignore[attr-defined]
    for name in ("migrate", "api", "worker", "beat"):
        command = _services()[name]["command"]
        assert isinstance(command, list)
        assert command[0] == "memory-service"
        assert command[1] in commands, f"{name} runs unknown command {command[1]!r}"


def test_application_services_share_the_production_settings() -> None:
    services = _services()
    for name in ("migrate", "api", "worker", "beat"):
        environment = services[name]["environment"]
        assert isinstance(environment, dict)
        assert environment["DATABASE_URL"].startswith("postgresql")
        assert environment["REDIS_URL"].startswith("redis://")
        assert environment["MEMORY_SERVICE_ENV"] == "production"
        # The broker that redelivers a dead worker's task at once; keys apart from the data.
        assert environment["CELERY_BROKER_URL"].startswith("amqp://")
        assert environment["KEYSTORE_URL"].startswith("postgresql")
        assert environment["KEYSTORE_URL"] != environment["DATABASE_URL"]
