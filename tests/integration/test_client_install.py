"""The client distribution installs alone: from its folder into a fresh virtual environment it
pulls httpx and pydantic (and theirs), no spaCy, Presidio, Celery, ORM or database driver, and
imports without the server package."""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
SERVER_ONLY = {
    "spacy",
    "presidio-analyzer",
    "celery",
    "sqlmodel",
    "sqlalchemy",
    "psycopg",
    "psycopg-binary",
    "redis",
    "alembic",
    "memory-service",
    "openai",
    "tiktoken",
}


def test_the_client_installs_without_the_servers_dependencies(tmp_path: Path) -> None:
    env_dir = tmp_path / "agent-venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(CLIENT)],
        check=True,
        capture_output=True,
    )
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    installed = {line.split("==")[0].lower().replace("_", "-") for line in listed.split()}

    assert {"memory-service-agent-client", "httpx", "pydantic"} <= installed
    assert installed.isdisjoint(SERVER_ONLY), installed & SERVER_ONLY
    imported = subprocess.run(
        [
            python,
            "-c",
            "import sys, memory_service_client as c; c.MemoryClient('http://x', 'k');"
            "print('memory_service' in sys.modules)",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert imported.stdout.strip() == "False"
