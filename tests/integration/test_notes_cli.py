"""``memory-service tenants policy`` and ``memory-service eval`` on a scratch home."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memory_service import evaluation
from memory_service.cli import app
from tests.support.presidio import shared_detector


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMORY_SERVICE_HOME", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path


def test_the_policy_command_shows_changes_and_clears_the_note_policy(home: Path) -> None:
    runner = CliRunner()

    def policy(*options: str) -> dict[str, object]:
        result = runner.invoke(app, ["tenants", "policy", "--tenant", "acme", *options])
        assert result.exit_code == 0, result.output
        parsed: dict[str, object] = json.loads(result.stdout)
        return parsed

    assert policy()["confirm_sources"] == []
    assert policy("--confirm-sources", "model_inferred", "--no-agent-confirmation") == {
        "confirm_sources": ["model_inferred"],
        "confirm_all": False,
        "agent_confirmation": False,
        "refuse_sensitive": False,
    }
    assert policy()["confirm_sources"] == ["model_inferred"]  # read back from the database
    assert policy("--confirm-sources", "")["confirm_sources"] == []
    refused = runner.invoke(
        app, ["tenants", "policy", "--tenant", "acme", "--confirm-sources", "x"]
    )
    assert refused.exit_code == 2 and "confirm_sources" in refused.output


def test_the_eval_command_prints_precision_and_recall_per_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(evaluation, "_default_detector", shared_detector)
    rows = [
        {"text": "Prefers aisle seats.", "expect_status": "saved", "expect_reasons": []},
        {
            "text": "My e-mail is jo@example.com.",
            "expect_status": "rejected",
            "expect_reasons": ["pii"],
        },
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(row | {"lang": "en"}) for row in rows))

    result = CliRunner().invoke(app, ["eval", str(path)])

    assert result.exit_code == 0, result.output
    assert "2 notes" in result.stdout
    pii_row = next(line for line in result.stdout.splitlines() if line.startswith("pii"))
    assert pii_row.split()[1:] == ["1", "100.0%", "100.0%"]
    assert "PII and secret notes accepted: 0" in result.stdout


def test_eval_names_a_line_that_is_not_an_evaluation_row(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    secret_text = "Has type 2 diabetes"  # never repeated in the error
    path.write_text(json.dumps({"text": secret_text, "expect": "sensitive"}) + "\n")

    result = CliRunner().invoke(app, ["eval", str(path)])

    assert result.exit_code == 2
    assert "line 1 has no expect_status" in result.output
    assert secret_text not in result.output
    assert "Traceback" not in result.output
