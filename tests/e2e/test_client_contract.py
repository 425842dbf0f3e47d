"""The client distribution against the service it calls: its answer models have the fields of
the service's response schemas in ``/openapi.json`` (names, required ones, enums), its copy of
the tool schema is the service's, so a change on either side fails here instead of in an agent."""

from __future__ import annotations

from typing import Any

import pytest
from memory_service_client import models
from memory_service_client import tool as client_tool
from pydantic import BaseModel

from memory_service import tool as service_tool
from memory_service.api.app import create_app
from memory_service.bootstrap import Container

# (method, path) of every route the client calls, and the model it reads the answer into.
ROUTES: list[tuple[str, str, type[BaseModel]]] = [
    ("post", "/v1/sessions", models.SessionInfo),
    ("post", "/v1/sessions/{session_id}/end", models.SessionInfo),
    ("post", "/v1/sessions/{session_id}/notes", models.NoteOutcome),
    ("get", "/v1/subjects/{subject_id}/context", models.Context),
    ("put", "/v1/subjects/{subject_id}/state", models.StateUpdated),
    ("post", "/v1/sessions/{session_id}/turns", models.AppendedTurns),
    ("get", "/v1/sessions/{session_id}/turns", models.History),
    ("delete", "/v1/sessions/{session_id}/turns/last", models.PoppedItem),
    ("delete", "/v1/sessions/{session_id}/turns", models.ClearedTurns),
]


@pytest.fixture(scope="module")
def openapi(container: Container) -> dict[str, Any]:
    document: dict[str, Any] = create_app(container).openapi()
    return document


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = document["components"]["schemas"][name]
    return schema


def _enums(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, set[Any]]:
    """The enum of each property, looking through refs, arrays and nullable unions."""
    found: dict[str, set[Any]] = {}
    for name, prop in schema.get("properties", {}).items():
        stack = [prop]
        while stack:
            node = _resolve(document, stack.pop())
            if "enum" in node:
                found.setdefault(name, set()).update(node["enum"])
            stack.extend(node.get("anyOf", []))
            if isinstance(node.get("items"), dict):
                stack.append(node["items"])
    return found


def _success_schema(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    responses = document["paths"][path][method]["responses"]
    [status] = [code for code in responses if code.startswith("2")]
    return _resolve(document, responses[status]["content"]["application/json"]["schema"])


@pytest.mark.parametrize(
    ("method", "path", "model"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES]
)
def test_each_answer_model_has_the_fields_of_its_response_schema(
    openapi: dict[str, Any], method: str, path: str, model: type[BaseModel]
) -> None:
    served = _success_schema(openapi, method, path)
    ours = model.model_json_schema(mode="validation")

    assert set(ours["properties"]) == set(served["properties"])
    assert set(ours.get("required", [])) == set(served.get("required", []))
    # A pydantic schema's ``$defs`` read as an OpenAPI document's components.
    ours_document = {"components": {"schemas": ours.get("$defs", {})}}
    assert _enums(ours_document, ours) == _enums(openapi, served)


def test_the_nested_reason_model_matches_the_services() -> None:
    from memory_service.api.note_schemas import ReasonOut

    served = ReasonOut.model_json_schema()
    ours = models.Reason.model_json_schema()
    assert set(ours["properties"]) == set(served["properties"])
    served_codes = served["$defs"]["ReasonCode"]["enum"]  # the core's enum, by reference
    assert ours["properties"]["code"]["enum"] == served_codes


def test_the_clients_tool_schema_is_the_services() -> None:
    assert client_tool.TOOL_NAME == service_tool.TOOL_NAME
    assert client_tool.DESCRIPTION == service_tool.DESCRIPTION
    assert client_tool.PARAMETERS == service_tool.PARAMETERS


def test_the_document_carries_the_shapes_the_service_checks(openapi: dict[str, Any]) -> None:
    schemas = openapi["components"]["schemas"]
    subject = schemas["OpenSessionRequest"]["properties"]["subject_id"]
    assert subject["minLength"] == 1 and subject["pattern"].startswith("^[A-Za-z0-9]")
    assert schemas["OpenSessionRequest"]["properties"]["purpose"]["pattern"].startswith("^[a-z]")
    items = schemas["AppendTurnsRequest"]["properties"]["items"]
    assert (items["minItems"], items["maxItems"]) == (1, 200)


def test_the_links_name_parameters_their_targets_take_and_fields_their_sources_answer(
    openapi: dict[str, Any],
) -> None:
    targets = {
        operation["operationId"]: operation
        for methods in openapi["paths"].values()
        for operation in methods.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    schemas = openapi["components"]["schemas"]
    sources = {
        ("/v1/sessions", "post", "201"): "SessionResponse",
        ("/v1/sessions/{session_id}/notes", "post", "200"): "NoteResponse",
    }
    opened = openapi["paths"]["/v1/sessions"]["post"]["responses"]["201"]["links"]
    assert {"SaveNote", "AppendTurns", "ReadTurns", "EndSession", "EraseSubject"} <= set(opened)
    saved = openapi["paths"]["/v1/sessions/{session_id}/notes"]["post"]["responses"]["200"]
    assert {"ConfirmNote", "CorrectMemory", "DeleteMemory"} <= set(saved["links"])
    for (path, method, status), schema in sources.items():
        for link in openapi["paths"][path][method]["responses"][status]["links"].values():
            taken = {p["name"] for p in targets[link["operationId"]].get("parameters", [])}
            for name, expression in link["parameters"].items():
                assert name in taken, (link["operationId"], name)
                if expression.startswith("$response.body#/"):
                    field = expression.removeprefix("$response.body#/")
                    assert field in schemas[schema]["properties"], expression
