"""Guardrails as hooks: a `before` hook refusing a call (`RefuseCall`, no handler runs)
and an `after` hook replacing what the model sees (`ReplaceContent`), recorded on the
result (`result.guardrail`) and on the call's span; core and aio, one call, a batch, a
stream's early dispatch, and the history each API gets back (its fake and
`check_history`)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest
from anthropic.types import Message
from inline_snapshot import snapshot
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.helpers import anthropic_message
from toolwire import aio
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    GuardrailRecord,
    RefuseCall,
    ReplaceContent,
    StandardToolCall,
    ToolCallCompleted,
    ToolCallEnd,
    ToolCallFailure,
    ToolCallResult,
    ToolCallStream,
    ToolCallSuccess,
    ToolGroup,
    ToolHooks,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import ToolBatchError, ToolHookError
from toolwire.testing import FakeAnthropic, FakeGemini, FakeOpenAI, check_history

RAN: list[str] = []


class read_file(BaseFunctionToolModel[None, str]):
    """Read a file."""

    path: str

    def model_tool_handler(self, context: None) -> tuple[str, str]:
        RAN.append(self.path)
        if self.path == "missing":
            raise ErrorForLLMToSee("No such file: missing (token=abc123).")
        return f"contents of {self.path}: password=hunter2", "read"


class aio_read_file(aio.BaseFunctionToolModel[None, str]):
    """Read a file."""

    model_tool_custom_name = "read_file"
    path: str

    async def model_tool_handler(self, context: None) -> tuple[str, str]:
        RAN.append(self.path)
        return f"contents of {self.path}: password=hunter2", "read"


def guard(call: StandardToolCall) -> RefuseCall | None:
    """Refuses paths outside the workspace."""
    arguments: dict[str, Any] = dict(call.input) if isinstance(call.input, Mapping) else {}
    path = str(arguments.get("path", ""))
    if path.startswith("/etc"):
        return RefuseCall("Paths outside the workspace are not allowed; pick one inside it.")
    return None


def redact(end: ToolCallEnd) -> ReplaceContent | None:
    """Redacts passwords and tokens from what the model reads."""
    result = end.result
    if result is None:
        return None
    text = result.result_content
    for secret in ("hunter2", "abc123"):
        text = text.replace(secret, "[redacted]")
    return ReplaceContent(text) if text != result.result_content else None


HOOKS = ToolHooks(before=guard, after=redact)


def message(*paths: str) -> Message:
    return anthropic_message(*(("read_file", {"path": path}) for path in paths))


def one_call(path: str) -> StandardToolCall:
    return StandardToolCall("function", "toolu_9", "read_file", {"path": path})


def shown(results: list[ToolCallResult[Any]]) -> list[tuple[str, str | None, str, Any]]:
    """What the model reads of each result, and what the guardrail kept for the caller."""
    return [
        (
            r.result_content,
            r.fail_reason,
            repr(r.guardrail and (r.guardrail.hook, r.guardrail.action)),
            r.guardrail and r.guardrail.original and r.guardrail.original.result_content,
        )
        for r in results
    ]


EXPECTED = [
        ("contents of notes.txt: password=[redacted]", None, "('after', 'replaced')", "contents of notes.txt: password=hunter2"),
        ("Paths outside the workspace are not allowed; pick one inside it.", "refused", "('before', 'refused')", None),
        ("No such file: missing (token=[redacted]).", "explicit_handler_error", "('after', 'replaced')", "No such file: missing (token=abc123)."),
        ("contents of plain.txt: password=[redacted]", None, "('after', 'replaced')", "contents of plain.txt: password=hunter2"),
]  # fmt: skip


def test_core_batch_refuses_before_and_replaces_after() -> None:
    """The refused call's handler never runs; the replaced results keep the handler's
    result (content and context) on `guardrail.original`; a failure stays a failure."""
    RAN.clear()
    results = ToolGroup.from_list([read_file]).run_tool_calls(
        message("notes.txt", "/etc/passwd", "missing", "plain.txt"), None, hooks=HOOKS
    )
    assert shown(results) == EXPECTED
    assert RAN == ["notes.txt", "missing", "plain.txt"]
    first = results[0]
    assert isinstance(first, ToolCallSuccess) and first.context == "read"
    assert first.guardrail == GuardrailRecord(
        "after",
        "replaced",
        ToolCallSuccess("toolu_0", "read_file", "contents of notes.txt: password=hunter2", "read"),
    )
    assert results[1] == ToolCallFailure(
        "toolu_1",
        "read_file",
        "Paths outside the workspace are not allowed; pick one inside it.",
        "refused",
    )
    assert results[2].exception is not None  # the failure keeps its exception


def test_aio_batch_and_single_call_with_async_hooks() -> None:
    async def async_guard(call: StandardToolCall) -> RefuseCall | None:
        await asyncio.sleep(0)
        return guard(call)

    async def async_redact(end: ToolCallEnd) -> ReplaceContent | None:
        await asyncio.sleep(0)
        return redact(end)

    hooks = aio.ToolHooks(before=async_guard, after=async_redact)
    group = aio.ToolGroup.from_list([aio_read_file])
    RAN.clear()
    results = asyncio.run(
        group.run_tool_calls(message("notes.txt", "/etc/passwd", "plain.txt"), None, hooks=hooks)
    )
    assert shown(results) == [EXPECTED[0], EXPECTED[1], EXPECTED[3]]
    one = asyncio.run(group.run_tool_call(one_call("/etc/x"), None, hooks=hooks))
    assert shown([one]) == [EXPECTED[1]]
    assert RAN == ["notes.txt", "plain.txt"]


def test_core_single_call_and_stream_early_dispatch() -> None:
    """A stream's completed call, dispatched before the stream ends, goes through the
    same hooks."""
    group = ToolGroup.from_list([read_file])
    client = FakeOpenAI().client()
    stream = ToolCallStream("chat.completions")
    results: list[ToolCallResult[str]] = []
    for chunk in client.chat.completions.create(
        model="gpt-5",
        messages=[{"role": "user", "content": "read"}],
        tools=group.tool_definitions("chat.completions"),
        stream=True,
    ):
        for event in stream.feed(chunk):
            if isinstance(event, ToolCallCompleted):
                results.append(group.run_tool_call(event.call, None, hooks=HOOKS))
    assert [r.guardrail and r.guardrail.action for r in results] == ["replaced"]
    assert "hunter2" not in results[0].result_content
    single = group.run_tool_call(one_call("/etc/x"), None, hooks=HOOKS)
    assert shown([single]) == [EXPECTED[1]]


def test_guardrails_are_on_the_span(spans: InMemorySpanExporter) -> None:
    ToolGroup.from_list([read_file]).run_tool_calls(
        message("notes.txt", "/etc/passwd", "ok"), None, hooks=ToolHooks(before=guard, after=lambda e: None if e.call.id == "toolu_2" else redact(e))
    )  # fmt: skip
    described = [
        (
            s.name,
            {k: v for k, v in (s.attributes or {}).items() if k.startswith("toolwire")},
            s.status.status_code.name,
        )
        for s in spans.get_finished_spans()
    ]
    assert described == snapshot(
        [
            ("execute_tool read_file", {"toolwire.tool_call.outcome": "success", "toolwire.guardrail.hook": "after", "toolwire.guardrail.action": "replaced"}, "UNSET"),
            ("execute_tool read_file", {"toolwire.tool_call.outcome": "refused", "toolwire.guardrail.hook": "before", "toolwire.guardrail.action": "refused"}, "ERROR"),
            ("execute_tool read_file", {"toolwire.tool_call.outcome": "success"}, "UNSET"),
        ]
    )  # fmt: skip


def test_a_wrong_verdict_is_the_hooks_error() -> None:
    """A hook returning anything but None or its verdict is a bug in the hook: its
    `ToolHookError`, saying what to return; the handler's result is never shown."""
    group = ToolGroup.from_list([read_file])
    cases: list[tuple[ToolHooks, str]] = [
        (ToolHooks(before=lambda call: "no"), "return None to run the call, or RefuseCall(text)"),
        (ToolHooks(after=lambda end: "short"), "ReplaceContent(content) to replace"),
        (ToolHooks(after=lambda end: ReplaceContent(["a", 3])), "ReplaceContent(content) takes text"),  # type: ignore[list-item]
    ]  # fmt: skip
    for hooks, says in cases:
        with pytest.raises(ToolBatchError) as raised:
            group.run_tool_calls(message("notes.txt"), None, hooks=hooks)
        error = raised.value.errors[0]
        assert isinstance(error, ToolHookError)
        assert says in str(error.__cause__)
    with pytest.raises(TypeError, match="non-empty"):
        RefuseCall("  ")


def test_replacing_a_failure_takes_text_and_a_raised_call_has_nothing_to_replace() -> None:
    group = ToolGroup.from_list([read_file])
    parts = ToolHooks(after=lambda end: ReplaceContent(["a", "b"]))
    results = group.run_tool_calls(message("missing"), None, hooks=parts, unexpected_errors="fail")
    assert results[0].fail_reason == "unexpected_error"
    assert isinstance(results[0].exception, ToolHookError)
    assert "a failure's content is text" in str(results[0].exception.__cause__)


def first_response(api: Api, group: ToolGroup[None, str]) -> tuple[list[Any], Any, Any]:
    """The user's turn, the fake's answer (one call of each offered tool), the client."""
    tools: Any = group.tool_definitions(api)
    if api in ("chat.completions", "responses"):
        openai = FakeOpenAI().client()
        if api == "chat.completions":
            history: list[Any] = [{"role": "user", "content": "read"}]
            return history, openai.chat.completions.create(model="gpt-5", messages=history, tools=tools), openai  # fmt: skip
        history = [{"role": "user", "content": "read"}]
        return history, openai.responses.create(model="gpt-5", input=history, tools=tools), openai
    if api == "anthropic":
        client = FakeAnthropic().client()
        history = [{"role": "user", "content": "read"}]
        created = client.messages.create(
            model="claude-opus-4-6", max_tokens=100, messages=history, tools=tools
        )
        return history, created, client
    gemini = FakeGemini().client()
    history = [{"role": "user", "parts": [{"text": "read"}]}]
    created = gemini.models.generate_content(
        model="gemini-2.5-flash", contents=history, config={"tools": tools}
    )
    return history, created, gemini


def second_request(api: Api, client: Any, history: list[Any], group: ToolGroup[None, str]) -> None:
    """The fake server takes the history back (it answers 400 to what the API refuses)."""
    tools: Any = group.tool_definitions(api)
    if api == "chat.completions":
        client.chat.completions.create(model="gpt-5", messages=history, tools=tools)
    elif api == "responses":
        client.responses.create(model="gpt-5", input=history, tools=tools)
    elif api == "anthropic":
        client.messages.create(model="claude-opus-4-6", max_tokens=100, messages=history, tools=tools)  # fmt: skip
    else:
        client.models.generate_content(model="gemini-2.5-flash", contents=history, config={"tools": tools})  # fmt: skip


class secret_lookup(BaseFunctionToolModel[None, str]):
    """Look up a secret."""

    key: str

    def model_tool_handler(self, context: None) -> tuple[str, str]:
        RAN.append("secret_lookup")
        return "the secret is hunter2", "looked up"


def never_secrets(call: StandardToolCall) -> RefuseCall | None:
    return RefuseCall("Secrets are not for you.") if call.name == "secret_lookup" else None


@pytest.mark.parametrize("api", API_NAMES)
def test_every_api_takes_refused_and_replaced_results_back(api: Api) -> None:
    group = ToolGroup.from_list([read_file, secret_lookup])
    history, response, client = first_response(api, group)
    RAN.clear()
    results = group.run_tool_calls(
        response, None, api=api, hooks=ToolHooks(before=never_secrets, after=redact)
    )
    assert [(r.name, r.fail_reason, r.guardrail and r.guardrail.action) for r in results] == [
        ("read_file", None, "replaced"),
        ("secret_lookup", "refused", "refused"),
    ]
    assert "secret_lookup" not in RAN
    history += assistant_messages(response, api)
    history += tool_result_messages(results, api)
    assert check_history(history, api) == []
    rendered = repr(tool_result_messages(results, api))
    assert "hunter2" not in rendered and "[redacted]" in rendered
    assert "Secrets are not for you." in rendered
    second_request(api, client, history, group)
