"""The server pins the client distribution it ships, by its name and exact version.

The client's name must be the one in ``clients/python/pyproject.toml`` (the old
``memory-service-client`` belongs to another project on PyPI), and the pin carries the local
version label, which PyPI cannot hold: without the folder, pip fails instead of installing a
stranger's package.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]


def _project(path: Path) -> dict[str, Any]:
    with path.open("rb") as file:
        project: dict[str, Any] = tomllib.load(file)["project"]
    return project


def test_the_server_pins_the_client_it_ships_by_name_and_exact_version() -> None:
    client = _project(ROOT / "clients" / "python" / "pyproject.toml")
    server = _project(ROOT / "pyproject.toml")
    pinned = [
        Requirement(line)
        for line in [*server["dependencies"], *server["optional-dependencies"]["agents"]]
        if Requirement(line).name == client["name"]
    ]

    assert client["name"] == "memory-service-agent-client"
    assert "+" in client["version"], "the local label keeps PyPI out of the install"
    assert len(pinned) == 2, "the server and its agents extra both pin the client"
    for requirement in pinned:
        assert str(requirement.specifier) == f"=={client['version']}"
    assert pinned[1].extras == set(client["optional-dependencies"])
    # What is installed is this folder's build, and the MCP server reports its version.
    assert version(client["name"]) == client["version"]


def test_the_mcp_server_reports_the_installed_client_version() -> None:
    from memory_service_client.mcp_server import SERVER_VERSION

    shipped = _project(ROOT / "clients" / "python" / "pyproject.toml")["version"]
    assert shipped == SERVER_VERSION
