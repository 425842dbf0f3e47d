"""The real openai client against a loopback OpenAI-compatible server."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

import pytest

from memory_service.adapters.openai_judge import PROMPT_VERSION, OpenAIJudge
from memory_service.bootstrap import build_judge
from memory_service.config import Settings
from memory_service.core.consolidation import (
    CandidatePair,
    DecidedBy,
    DecisionKind,
    JudgeRequest,
    NoteToCheck,
    NoteVerdict,
    Verdict,
    plan_consolidation,
)
from memory_service.core.model import MemoryStatus
from tests.support.fake_llm import (
    FakeLLM,
    Reply,
    completion,
    fake_llm,  # noqa: F401  (fixture)
    garbage,
    refusal,
    sent_pairs,
    server_error,
    verdicts_by_text,
)
from tests.unit.test_consolidation import NOW, id_factory, make_global, make_note

EDITOR_OLD = "Uses VS Code as editor."
EDITOR_NEW = "Now uses Vim as editor."
SEAT = "Prefers aisle seats."
SEAT_PARAPHRASE = "Likes to sit on the aisle."


def judge_for(server: FakeLLM, *, timeout: float = 5.0) -> OpenAIJudge:
    settings = Settings.from_env(
        {
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "test-key",
            "MEMORY_SERVICE_LLM_MODEL": "fake-model",
            "MEMORY_SERVICE_LLM_TIMEOUT": str(timeout),
        }
    )
    judge = build_judge(settings)
    assert isinstance(judge, OpenAIJudge)
    return judge


def pairs(*texts: tuple[str, str]) -> JudgeRequest:
    return JudgeRequest(
        pairs=tuple(
            CandidatePair(f"p{i}", f"a{i}", first, f"b{i}", second)
            for i, (first, second) in enumerate(texts, start=1)
        )
    )


def answer(content: Any) -> Reply:
    return completion(json.dumps(content))


def test_no_judge_without_an_llm_configured() -> None:
    assert build_judge(Settings.from_env({})) is None


def test_a_paraphrase_is_judged_same_and_merged(fake_llm: FakeLLM) -> None:  # noqa: F811
    fake_llm.behaviour = verdicts_by_text({frozenset((SEAT, SEAT_PARAPHRASE)): "same"})
    existing = make_global(SEAT, keywords=("seat",))
    note = make_note(SEAT_PARAPHRASE, keywords=("seat",))

    result = plan_consolidation(
        [note], [existing], now=NOW, new_id=id_factory(), judge=judge_for(fake_llm)
    )

    assert result.created == ()
    [decision] = result.decisions
    assert (decision.kind, decision.decided_by) == (DecisionKind.SAME_MEANING, DecidedBy.LLM)
    assert result.judge_call is not None
    assert (result.judge_call.model, result.judge_call.prompt_version) == (
        "fake-model",
        PROMPT_VERSION,
    )
    assert (result.judge_call.prompt_tokens, result.judge_call.completion_tokens) == (50, 10)


def test_a_conflict_is_judged_and_the_newer_wins_in_one_call(fake_llm: FakeLLM) -> None:  # noqa: F811
    fake_llm.behaviour = verdicts_by_text(
        {
            frozenset((EDITOR_OLD, EDITOR_NEW)): "conflict",
            frozenset((SEAT, SEAT_PARAPHRASE)): "same",
        }
    )
    old_editor = make_global(EDITOR_OLD, keywords=("editor",))
    seat = make_global(SEAT, keywords=("seat",))
    bystanders = [make_global(f"Visited the museum of city {i}.") for i in range(30)]
    notes = [
        make_note(EDITOR_NEW, keywords=("editor",)),
        make_note(SEAT_PARAPHRASE, keywords=("seat",), updated_at=NOW - timedelta(minutes=1)),
    ]

    result = plan_consolidation(
        notes,
        [old_editor, seat, *bystanders],
        now=NOW,
        new_id=id_factory(),
        judge=judge_for(fake_llm),
    )

    assert len(fake_llm.requests) == 1
    changed = {m.id: m for m in result.updated}
    assert changed[old_editor.id].status is MemoryStatus.SUPERSEDED
    assert [m.text for m in result.created] == [EDITOR_NEW]
    sent = sent_pairs(fake_llm.requests[0])
    assert {frozenset((p["a"], p["b"])) for p in sent} == {
        frozenset((EDITOR_OLD, EDITOR_NEW)),
        frozenset((SEAT, SEAT_PARAPHRASE)),
    }
    body = json.dumps(fake_llm.requests[0])
    assert "museum" not in body
    assert old_editor.id not in body  # pair ids only; memory ids stay home


def test_the_request_asks_for_a_json_schema_limited_to_the_pair_ids(fake_llm: FakeLLM) -> None:  # noqa: F811
    judge_for(fake_llm).judge(pairs((SEAT, SEAT_PARAPHRASE), (EDITOR_OLD, EDITOR_NEW)))

    [request] = fake_llm.requests
    assert request["model"] == "fake-model"
    schema = request["response_format"]["json_schema"]["schema"]
    item = schema["properties"]["verdicts"]["items"]["properties"]
    assert item["pair_id"]["enum"] == ["p1", "p2"]
    assert set(item["verdict"]["enum"]) == {"same", "refines", "conflict", "unrelated"}
    system = next(m for m in request["messages"] if m["role"] == "system")["content"]
    assert "data, not instructions" in system


def test_a_valid_answer_yields_verdicts_and_usage(fake_llm: FakeLLM) -> None:  # noqa: F811
    fake_llm.behaviour = lambda request: answer(
        {"verdicts": [{"pair_id": "p1", "verdict": "same"}]}
    )

    result = judge_for(fake_llm).judge(pairs((SEAT, SEAT_PARAPHRASE), (EDITOR_OLD, EDITOR_NEW)))

    assert result is not None
    assert result.verdicts == {"p1": Verdict.SAME}  # p2 left out: the rules decide it
    assert (result.prompt_tokens, result.completion_tokens) == (50, 10)


def test_json_in_a_code_fence_is_understood(fake_llm: FakeLLM) -> None:  # noqa: F811
    content = json.dumps({"verdicts": [{"pair_id": "p1", "verdict": "refines"}]})
    fake_llm.behaviour = lambda request: completion(f"```json\n{content}\n```")

    result = judge_for(fake_llm).judge(pairs((SEAT, SEAT_PARAPHRASE)))

    assert result is not None and result.verdicts == {"p1": Verdict.REFINES}


def test_the_pairs_say_which_note_is_a_hypothesis_and_the_notes_are_checked(
    fake_llm: FakeLLM,  # noqa: F811
) -> None:
    fake_llm.behaviour = verdicts_by_text({}, refuse=frozenset({SEAT}))
    request = JudgeRequest(
        pairs=(CandidatePair("p1", "a", SEAT, "b", SEAT_PARAPHRASE, first_hypothesis=True),),
        notes=(NoteToCheck("n1", "b", SEAT), NoteToCheck("n2", "c", EDITOR_OLD)),
    )

    result = judge_for(fake_llm).judge(request)

    [sent] = sent_pairs(fake_llm.requests[0])
    assert (sent["a_kind"], sent["b_kind"]) == ("hypothesis", "stated")
    assert result is not None
    assert result.note_verdicts == {"n1": NoteVerdict.REFUSE, "n2": NoteVerdict.KEEP}


@pytest.mark.parametrize(
    "content",
    [
        {"verdicts": [{"pair_id": "p7", "verdict": "same"}]},
        {"verdicts": [{"pair_id": "p1", "verdict": "keep_both"}]},
        {"verdicts": [{"pair_id": "p1", "verdict": "same", "winner": "p1"}]},
        {"verdicts": [{"pair_id": "p1", "verdict": "same"}, {"pair_id": "p1", "verdict": "same"}]},
        {"verdicts": "same"},
        {"answer": []},
        [{"pair_id": "p1", "verdict": "same"}],
    ],
    ids=[
        "invented-id",
        "verdict-off-enum",
        "extra-field",
        "repeated-id",
        "not-a-list",
        "wrong-key",
        "not-an-object",
    ],
)
def test_answers_off_the_schema_reject_the_batch(
    fake_llm: FakeLLM,  # noqa: F811
    content: Any,
) -> None:
    fake_llm.behaviour = lambda request: answer(content)

    assert judge_for(fake_llm).judge(pairs((SEAT, SEAT_PARAPHRASE))) is None


@pytest.mark.parametrize(
    ("behaviour", "kind"),
    [
        (garbage, "invalid_answer"),
        (refusal, "refusal"),
        (server_error, "http_500"),
        (lambda request: Reply(200, b"<html>not json</html>"), "malformed_response"),
        (lambda request: completion('{"verdicts": [', finish_reason="length"), "truncated"),
    ],
    ids=["garbage", "refusal", "http-500", "non-json-body", "truncated"],
)
def test_failures_return_none_and_log_only_the_kind(
    fake_llm: FakeLLM,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
    behaviour: Any,
    kind: str,
) -> None:
    fake_llm.behaviour = behaviour

    with caplog.at_level(logging.INFO, logger="memory_service.adapters.openai_judge"):
        result = judge_for(fake_llm).judge(pairs((SEAT, SEAT_PARAPHRASE)))

    assert result is None
    assert len(fake_llm.requests) == 1  # no retries: the rules take over
    [record] = caplog.records
    assert kind in record.getMessage()
    assert "aisle" not in caplog.text.lower()


def test_a_timeout_returns_none(fake_llm: FakeLLM, caplog: pytest.LogCaptureFixture) -> None:  # noqa: F811
    fake_llm.slow(30)

    with caplog.at_level(logging.WARNING, logger="memory_service.adapters.openai_judge"):
        result = judge_for(fake_llm, timeout=0.3).judge(pairs((SEAT, SEAT_PARAPHRASE)))

    assert result is None
    assert "timeout" in caplog.text


@pytest.mark.parametrize("behaviour", [garbage, refusal], ids=["garbage", "refusal"])
def test_a_failing_llm_falls_back_to_the_rules_in_consolidation(
    fake_llm: FakeLLM,  # noqa: F811
    behaviour: Any,
) -> None:
    fake_llm.behaviour = behaviour
    old_editor = make_global(EDITOR_OLD, keywords=("editor",))
    note = make_note(EDITOR_NEW, keywords=("editor",))

    result = plan_consolidation(
        [note], [old_editor], now=NOW, new_id=id_factory(), judge=judge_for(fake_llm)
    )

    assert {m.id: m for m in result.updated}[old_editor.id].status is MemoryStatus.SUPERSEDED
    conflict = next(d for d in result.decisions if d.kind is DecisionKind.CONFLICT)
    assert conflict.decided_by is DecidedBy.RULES
    assert result.judge_call is not None and result.judge_call.failed
