"""Long commands draw a progress bar on a terminal and write nothing extra anywhere else.

``reindex`` runs as a real process twice: with its output piped (what a script or CI sees:
the result line and not one byte more) and with stderr on a pseudo-terminal (the bar is
drawn there, the result still alone on stdout).
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memory_service.cli import app
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope
from tests.factories import make_memory
from tests.support.containers import migrated_container

MEMORY_SERVICE = Path(sys.executable).with_name("memory-service")
SUBJECTS = 3
RESULT = f"re-indexed {SUBJECTS} global memories of {SUBJECTS} subjects\n"
# What a rich bar leaves behind: carriage returns, escape sequences, its bar glyph.
NOISE = ("\r", "\x1b", "━")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A store holding one global memory for each of a few subjects."""
    container = migrated_container({"MEMORY_SERVICE_HOME": str(tmp_path)})
    scope = TenantScope("t-progress", Role.ADMIN, "key:test")
    with container.uow_factory(scope.tenant_id) as uow:
        for number in range(SUBJECTS):
            uow.memories.add(make_memory(tenant_id=scope.tenant_id, subject_id=f"subject-{number}"))
        uow.commit()
    container.engine.dispose()
    return tmp_path


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "MEMORY_SERVICE_HOME": str(home), "TERM": "xterm-256color"}


def test_piped_output_is_the_result_and_nothing_else(home: Path) -> None:
    done = subprocess.run(
        [str(MEMORY_SERVICE), "reindex"], env=_env(home), capture_output=True, timeout=120
    )
    assert done.returncode == 0
    assert done.stdout.decode() == RESULT
    assert done.stderr.decode() == ""


def test_a_terminal_gets_a_bar_on_stderr_and_the_result_alone_on_stdout(home: Path) -> None:
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(
            [str(MEMORY_SERVICE), "reindex"],
            env=_env(home),
            stdout=subprocess.PIPE,
            stderr=terminal,
            timeout=120,
        )
        os.close(terminal)
        drawn = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the terminal side is closed and drained
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(controller)
    assert done.returncode == 0
    assert done.stdout.decode() == RESULT
    text = drawn.decode(errors="replace")
    assert "re-indexing subjects" in text
    assert f"{SUBJECTS}/{SUBJECTS}" in text


def test_eval_piped_prints_only_its_report(tmp_path: Path) -> None:
    evaluation_set = tmp_path / "set.jsonl"
    rows = [
        {"text": "Prefers aisle seats on long flights.", "expect_status": "saved"},
        {
            "text": "Her password is Hunter2-Zebra-91!",
            "expect_status": "rejected",
            "expect_reasons": ["secret"],
        },
    ]
    evaluation_set.write_text("".join(json.dumps(row) + "\n" for row in rows))

    result = CliRunner().invoke(app, ["eval", str(evaluation_set)])

    assert result.exit_code == 0, result.output
    assert "precision" in result.output.lower()
    assert not any(noise in result.output for noise in NOISE)
