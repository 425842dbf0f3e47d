"""The consolidation judge over any OpenAI-compatible chat-completions endpoint.

A transport: the prompt, the JSON schema and the parser are the core's judge contract
(:mod:`memory_service.core.consolidation.judge`); this adapter sends one request per
consolidation run and hands the answer back. Structured output is requested with the
contract's schema; a server that ignores it and answers JSON in a code fence is still
understood. A refusal, a truncated or unparsable answer, an unknown id, a timeout or an
HTTP error return None, and the core then decides by its rules. Failures are logged by
kind only; texts and prompts never reach a log line.
"""

from __future__ import annotations

import logging

import openai
from openai import OpenAI

from memory_service.core.consolidation.judge import (
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    JudgeRequest,
    JudgeResult,
    parse_answer,
    response_schema,
    user_message,
)

logger = logging.getLogger(__name__)

# A local OpenAI-compatible server often needs no key, but the client insists on one.
_KEYLESS_PLACEHOLDER = "no-key"


class OpenAIJudge:
    """Implements :class:`memory_service.core.consolidation.Judge` over the openai client."""

    prompt_version = PROMPT_VERSION

    def __init__(self, client: OpenAI, *, model: str) -> None:
        self._client = client
        self.model = model

    @classmethod
    def connect(
        cls, *, model: str, base_url: str | None, api_key: str | None, timeout_seconds: float
    ) -> OpenAIJudge:
        """A judge over its own client; ``bootstrap`` decides whether there is one at all."""
        client = OpenAI(
            api_key=api_key or _KEYLESS_PLACEHOLDER,
            base_url=base_url,
            timeout=timeout_seconds,
            # One call per run: a failure falls back to the rules instead of retrying.
            max_retries=0,
        )
        return cls(client, model=model)

    def judge(self, request: JudgeRequest) -> JudgeResult | None:
        if request.is_empty:
            return JudgeResult(verdicts={})
        try:
            result = self._judge(request)
        except _JudgeFailedError as failure:
            logger.warning(
                "consolidation judge failed (%s) for %d pairs and %d notes; rules decide",
                failure.kind,
                len(request.pairs),
                len(request.notes),
            )
            return None
        logger.info(
            "consolidation judge answered %d of %d pairs, %d of %d notes (%d+%d tokens)",
            len(result.verdicts),
            len(request.pairs),
            len(result.note_verdicts),
            len(request.notes),
            result.prompt_tokens,
            result.completion_tokens,
        )
        return result

    def _judge(self, request: JudgeRequest) -> JudgeResult:
        try:
            response = self._client.chat.completions.create(
                model=self.model,
                messages=[
                    {"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": user_message(request)},
                ],
                response_format={
                    "type": "json_schema",
                    "json_schema": {
                        "name": "consolidation_verdicts",
                        "strict": True,
                        "schema": response_schema(request),
                    },
                },
                temperature=0,
            )
        except openai.APITimeoutError as exc:
            raise _JudgeFailedError("timeout") from exc
        except openai.APIConnectionError as exc:
            raise _JudgeFailedError("connection") from exc
        except openai.APIStatusError as exc:
            raise _JudgeFailedError(f"http_{exc.status_code}") from exc
        except openai.OpenAIError as exc:
            raise _JudgeFailedError("client_error") from exc
        except ValueError as exc:  # a 200 whose body is not JSON at all
            raise _JudgeFailedError("malformed_response") from exc
        try:
            choice = response.choices[0]
            refused = bool(choice.message.refusal) or choice.finish_reason == "content_filter"
            truncated = choice.finish_reason == "length"
            content = choice.message.content
            usage = response.usage
        except (AttributeError, IndexError, TypeError) as exc:
            raise _JudgeFailedError("malformed_response") from exc
        if refused:
            raise _JudgeFailedError("refusal")
        if truncated:
            raise _JudgeFailedError("truncated")
        try:
            verdicts, note_verdicts = parse_answer(content, request)
        except (TypeError, ValueError) as exc:
            raise _JudgeFailedError("invalid_answer") from exc
        return JudgeResult(
            verdicts=verdicts,
            note_verdicts=note_verdicts,
            prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
            completion_tokens=(usage.completion_tokens or 0) if usage else 0,
        )


class _JudgeFailedError(Exception):
    """Why the judge gave no usable answer: a kind code, never text."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind
