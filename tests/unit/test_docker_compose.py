"""docker-compose.yml cannot run here (no Docker engine): check it as data instead."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from typer.main import get_command

from memory_service.cli import app

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
EXPECTED_SERVICES = {
    "postgres",
    "keystore",
    "rabbitmq",
    "redis",
    "migrate",
    "api",
    "worker",
    "beat",
    "flower",
    "prometheus",
}


def _document() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return document


def _services() -> dict[str, dict[str, Any]]:
    services: dict[str, dict[str, Any]] = _document()["services"]
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


def _option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_flower_runs_the_services_celery_app_behind_basic_auth_from_the_environment() -> None:
    flower = _services()["flower"]
    assert flower["command"][:4] == ["celery", "-A", "workers.celery_app", "flower"]
    # Required from the environment: compose refuses to start without credentials.
    assert re.fullmatch(
        r"\$\{FLOWER_BASIC_AUTH:\?[^}]+\}", flower["environment"]["FLOWER_BASIC_AUTH"]
    )
    assert flower["environment"]["CELERY_BROKER_URL"].startswith("amqp://")
    assert "MEMORY_SERVICE_MASTER_KEY" not in flower["environment"]  # the broker only
    assert flower["build"]["args"]["EXTRAS"] == "[monitoring]"
    assert all(port.startswith("127.0.0.1:") for port in flower["ports"])
    assert "--task-events" in _services()["worker"]["command"]  # so Flower sees tasks


def test_the_monitoring_profile_adds_prometheus_scraping_the_api_and_the_worker() -> None:
    services = _services()
    prometheus = services["prometheus"]
    assert prometheus["profiles"] == ["monitoring"]
    assert all("profiles" not in services[name] for name in EXPECTED_SERVICES - {"prometheus"})
    mounted = {volume.split(":")[1]: volume.split(":")[0] for volume in prometheus["volumes"]}
    config_path = ROOT / mounted["/etc/prometheus/prometheus.yml"]
    config = yaml.safe_load(config_path.read_text())
    targets = {
        job["job_name"]: (job["metrics_path"], job["static_configs"][0]["targets"])
        for job in config["scrape_configs"]
    }
    api_port = _option(services["api"]["command"], "--port")
    worker_port = _option(services["worker"]["command"], "--metrics-port")
    assert _option(services["worker"]["command"], "--metrics-host") == "0.0.0.0"
    assert targets == {
        "memory-service-api": ("/metrics", [f"api:{api_port}"]),
        "memory-service-worker": ("/metrics", [f"worker:{worker_port}"]),
    }
    assert set(prometheus["depends_on"]) == {"api", "worker"}
    assert {"prometheus-data", "postgres-data"} <= set(_document()["volumes"])


def test_the_worker_command_options_exist() -> None:
    worker = get_command(app).commands["worker"]  # type: ignore[attr-defined]
    known = {option for parameter in worker.params for option in parameter.opts}
    command = _services()["worker"]["command"]
    assert {part for part in command[2:] if part.startswith("--")} <= known
