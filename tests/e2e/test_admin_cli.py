"""``memory-service admin ...`` on the embedded store: the operator's side of the lifecycle."""

from __future__ import annotations

import getpass
import json
import secrets
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memory_service.bootstrap import Container
from memory_service.cli import app
from memory_service.core.model import MemoryStatus, SubjectState
from tests.integration.records import make_memory
from tests.support.containers import migrated_container

runner = CliRunner()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-home")


@pytest.fixture(scope="module")
def store(home: Path) -> Container:
    return migrated_container({"MEMORY_SERVICE_HOME": str(home)})


def _tenant() -> str:
    return f"t-{secrets.token_hex(5)}"


def _seed(store: Container, tenant: str, subject: str, text: str) -> str:
    memory = make_memory(tenant, subject, store.clock.now(), text=text)
    with store.uow_factory(tenant) as uow:
        uow.memories.add(memory)
        uow.subjects.put_state(SubjectState(tenant, subject, {"plan": "pro"}, store.clock.now()))
        uow.commit()
    return memory.id


def _run(home: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(
        app, ["admin", *args], env={"MEMORY_SERVICE_HOME": str(home)}, input=stdin
    )
    return result.exit_code, result.stdout, result.stderr


def test_erase_prints_the_receipt_and_records_the_operator(home: Path, store: Container) -> None:
    tenant, subject = _tenant(), "cust-cli-1"
    _seed(store, tenant, subject, "Prefers aisle seats.")
    code, out, _ = _run(home, "erase", subject, "--tenant", tenant, "--yes")
    assert code == 0
    receipt = json.loads(out)
    assert receipt["counts"]["memories"] == 1 and receipt["counts"]["state"] == 1
    assert receipt["requested_by"] == f"cli:{getpass.getuser()}"
    code, out, _ = _run(home, "history", subject, "--tenant", tenant)
    erased = [event for event in json.loads(out) if event["kind"] == "subject.erased"]
    assert code == 0 and erased[0]["actor"] == f"cli:{getpass.getuser()}"
    code, out, _ = _run(home, "erase", subject, "--tenant", tenant, "--yes")
    assert code == 0 and sum(json.loads(out)["counts"].values()) == 0


def test_erase_asks_first_and_stops_on_no(home: Path, store: Container) -> None:
    tenant, subject = _tenant(), "cust-cli-2"
    memory_id = _seed(store, tenant, subject, "Prefers aisle seats.")
    code, _, _ = _run(home, "erase", subject, "--tenant", tenant, stdin="n\n")
    assert code != 0
    with store.uow_factory(tenant) as uow:
        assert uow.memories.get(memory_id) is not None


def test_correct_delete_and_export(home: Path, store: Container) -> None:
    tenant, subject = _tenant(), "cust-cli-3"
    memory_id = _seed(store, tenant, subject, "Prefers aisle seats.")
    code, out, _ = _run(
        home,
        "correct",
        memory_id,
        "--tenant",
        tenant,
        "--text",
        "Prefers window seats.",
        "--reason",
        "user_request",
    )
    assert code == 0, out
    corrected = json.loads(out)
    assert corrected["source"] == "admin_correction"
    assert corrected["provenance"]["derived_from"] == [memory_id]
    code, out, _ = _run(home, "delete", corrected["id"], "--tenant", tenant)
    assert code == 0 and json.loads(out)["status"] == "deleted"
    code, out, _ = _run(home, "export", subject, "--tenant", tenant)
    document = json.loads(out)
    assert {m["id"]: m["status"] for m in document["memories"]} == {
        memory_id: "superseded",
        corrected["id"]: "deleted",
    }
    assert "window seats" not in out  # the deleted correction's text is gone


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["delete", "no-such-memory"], 1),
        (["delete", "bad id!"], 2),
        (["delete", "x" * 65], 2),
        (["correct", "no-such-memory", "--text", "Prefers tea.", "--reason", "inaccurate"], 1),
        (["export", "jane@example.com"], 2),
        (["history", "Jane Doe"], 2),
        (["erase", "+33612345678", "--yes"], 2),
    ],
)
def test_bad_or_unknown_ids_fail_with_a_message_and_no_echo(
    home: Path, store: Container, args: list[str], code: int
) -> None:
    exit_code, out, err = _run(home, *args, "--tenant", _tenant())
    assert exit_code == code
    assert err.startswith("error: ") and out == ""
    for value in args[1:2]:
        assert value not in err


def test_another_tenants_memory_is_unknown(home: Path, store: Container) -> None:
    owner = _tenant()
    memory_id = _seed(store, owner, "cust-cli-4", "Prefers aisle seats.")
    for args in (
        ["delete", memory_id],
        ["correct", memory_id, "--text", "Prefers tea.", "--reason", "inaccurate"],
    ):
        exit_code, _, err = _run(home, *args, "--tenant", _tenant())
        assert exit_code == 1 and "no such memory" in err
    with store.uow_factory(owner) as uow:
        memory = uow.memories.get(memory_id)
    assert memory is not None and memory.status is MemoryStatus.ACTIVE


@pytest.mark.parametrize(
    "text",
    ["x" * 5000, "Mail her at jane.doe@example.com.", "Password is hunter2-Xy9!"],
)
def test_a_correction_failing_a_guard_is_refused_without_echo(
    home: Path, store: Container, text: str
) -> None:
    tenant = _tenant()
    memory_id = _seed(store, tenant, "cust-cli-5", "Prefers aisle seats.")
    exit_code, out, err = _run(
        home, "correct", memory_id, "--tenant", tenant, "--text", text, "--reason", "inaccurate"
    )
    assert exit_code == 2 and out == ""
    assert "correction was refused" in err and text[:20] not in err
    with store.uow_factory(tenant) as uow:
        assert [m.id for m in uow.memories.list_for_subject("cust-cli-5")] == [memory_id]


def test_a_malformed_tenant_is_refused(home: Path) -> None:
    exit_code, _, err = _run(home, "export", "cust-1", "--tenant", "Not A Tenant")
    assert exit_code == 2 and "tenant" in err
