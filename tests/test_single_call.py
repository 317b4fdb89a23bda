"""A response holding one call, as most do: on every API, each outcome a call can have
(success, refusal, invalid or oversized arguments, an unknown tool, a crash in the
handler or in a validator, a cut call, a custom call) is the result a user relies on,
with or without hooks watching."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pydantic
import pytest
from anthropic.types import Message
from google.genai import types as genai
from inline_snapshot import snapshot
from openai.types.responses import Response

from tests.helpers import chat_completion
from toolwire.core import (
    ArgumentLimits,
    BaseCustomToolModel,
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    HandlerResult,
    StandardToolCall,
    ToolBatchError,
    ToolGroup,
    ToolHooks,
)
from toolwire.exceptions import CallKindMismatchError

APIS = ["chat.completions", "responses", "anthropic", "gemini"]
TEXT_APIS = ["chat.completions", "responses"]


class Act(BaseFunctionToolModel[None, None]):
    """Do what `how` says."""

    how: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.how == "refuse":
            raise ErrorForLLMToSee("Not today; ask for something else.")
        if self.how == "crash":
            raise KeyError("a bug in the handler")
        if self.how == "wrong shape":
            return "done"  # pyright: ignore[reportReturnType]
        if self.how == "parts":
            return HandlerResult(["one", "two"], None)  # pyright: ignore[reportReturnType]
        return f"did {self.how}", None


class Loudly(Act):
    """Do what `how` says, loudly: a subclass, which inherits the plan attribute of `Act`
    once `Act` has run, and must not use it."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"DID {self.how.upper()}", None


class Open(BaseFunctionToolModel[None, None]):
    """Open a file that must exist."""

    path: str

    @pydantic.field_validator("path")
    @classmethod
    def exists(cls, value: str) -> str:
        return str(Path(value).resolve(strict=True))  # FileNotFoundError: not wrapped

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "opened", None


class Note(BaseFunctionToolModel[None, None]):
    """Keep a note: a field of `dict[str, Any]` shares its input, so dict arguments are
    copied before validation (the handler edits its own copy, not the response)."""

    data: dict[str, Any]

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        self.data["inner"]["seen"] = True
        return f"noted {sorted(self.data['inner'])}", None


class Shout(BaseCustomToolModel[None, None]):
    """Repeat the text, louder."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.input.upper(), None


GROUP = ToolGroup.from_list([Act, Loudly, Open, Note, Shout])


def response(api: str, name: str, arguments: str | dict[str, Any], *, cut: bool = False) -> Any:
    """An SDK response of `api` holding one call of `name` (id "call_1"); JSON text
    arguments for the OpenAI APIs, a dict for the others. `cut`: a length limit stopped
    the turn while the call was being written."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    if api == "chat.completions":
        return chat_completion((name, text, "call_1"), finish_reason="length" if cut else "tool_calls")  # fmt: skip
    if api == "responses":
        return Response.model_validate(
            {
                "id": "resp_1", "object": "response", "created_at": 1, "model": "m",
                "status": "incomplete" if cut else "completed",
                "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
                "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                "output": [{
                    "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name,
                    "arguments": text, "status": "incomplete" if cut else "completed",
                }],
            }
        )  # fmt: skip
    assert isinstance(arguments, dict)
    if api == "anthropic":
        return Message.model_validate(
            {
                "id": "msg_1", "type": "message", "role": "assistant", "model": "m",
                "stop_reason": "max_tokens" if cut else "tool_use", "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
                "content": [{"type": "tool_use", "id": "call_1", "name": name, "input": arguments}],
            }
        )  # fmt: skip
    call = genai.FunctionCall(id="call_1", name=name, args=arguments)
    candidate = genai.Candidate(
        content=genai.Content(role="model", parts=[genai.Part(function_call=call)]),
        finish_reason=genai.FinishReason.MAX_TOKENS if cut else genai.FinishReason.STOP,
    )
    return genai.GenerateContentResponse(response_id="r1", candidates=[candidate])


CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "success": ("Act", {"how": "it"}),
    "invalid": ("Act", {"how": 3}),
    "missing field": ("Act", {}),
    "extra key": ("Act", {"how": "it", "when": "now"}),
    "refused": ("Act", {"how": "refuse"}),
    "handler crash": ("Act", {"how": "crash"}),
    "wrong shape": ("Act", {"how": "wrong shape"}),
    "parts": ("Act", {"how": "parts"}),
    "subclass": ("Loudly", {"how": "it"}),
    "unknown tool": ("Fly", {"how": "it"}),
    "validator crash": ("Open", {"path": "/no/such/file"}),
    "shared input": ("Note", {"data": {"inner": {"kept": 1}}}),
    "too long": ("Act", {"how": "x" * 40}),
    "too deep": ("Act", {"how": [[["it"]]]}),
}
"""Arguments every API can send (as JSON text on the OpenAI APIs)."""

TEXT_CASES: dict[str, tuple[str, str]] = {
    "no arguments": ("Act", ""),
    "null arguments": ("Act", "null"),
    "array arguments": ("Act", '["it"]'),
    "padded object": ("Act", ' {"how": "it"}'),
    "broken JSON": ("Act", '{"how": '),
    "long text": ("Act", '{"how": "it"' + " " * 70 + "}"),  # past `always_within`
}
"""JSON text only the OpenAI APIs send."""

ARGUMENTS = {**CASES, **TEXT_CASES}


OUTCOMES: dict[str, tuple[object, ...]] = {
    "success": ("ToolCallSuccess", "Act", "did it", None),
    "invalid": ("ToolCallFailure", "Act", "invalid_arguments", "ValidationError"),
    "missing field": ("ToolCallFailure", "Act", "invalid_arguments", "ValidationError"),
    "extra key": ("ToolCallSuccess", "Act", "did it", None),
    "refused": ("ToolCallFailure", "Act", "explicit_handler_error", "ErrorForLLMToSee"),
    "handler crash": ("ToolCallFailure", "Act", "unexpected_error", "KeyError"),
    "wrong shape": ("ToolCallFailure", "Act", "unexpected_error", "TypeError"),
    "parts": ("ToolCallSuccess", "Act", "one\ntwo", None),
    "subclass": ("ToolCallSuccess", "Loudly", "DID IT", None),
    "unknown tool": ("ToolCallFailure", "Fly", "invalid_name", "ErrorForLLMToSee"),
    "validator crash": ("ToolCallFailure", "Open", "unexpected_error", "FileNotFoundError"),
    "shared input": ("ToolCallSuccess", "Note", "noted ['kept', 'seen']", None),
    "too long": ("ToolCallFailure", "Act", "invalid_arguments", "ErrorForLLMToSee"),
    "too deep": ("ToolCallFailure", "Act", "invalid_arguments", "ErrorForLLMToSee"),
    "no arguments": ("ToolCallFailure", "Act", "invalid_arguments", "ValidationError"),
    "null arguments": ("ToolCallFailure", "Act", "invalid_arguments", "ValidationError"),
    "array arguments": ("ToolCallFailure", "Act", "invalid_arguments", "ErrorForLLMToSee"),
    "padded object": ("ToolCallSuccess", "Act", "did it", None),
    "broken JSON": ("ToolCallFailure", "Act", "invalid_arguments", "ValidationError"),
    "long text": ("ToolCallSuccess", "Act", "did it", None),
}
"""What each case gives: (result class, tool name, failure reason or text, exception)."""


def limits_for(case: str) -> ArgumentLimits:
    """Small limits for the cases meant to break one, the defaults for the others."""
    if case in ("too long", "too deep"):
        return ArgumentLimits(max_chars=30, max_depth=3)
    return ArgumentLimits()


def outcome(response: Any, **options: Any) -> tuple[object, ...]:
    """What dispatching `response` gives, in a comparable form."""
    try:
        [result] = GROUP.run_tool_calls(response, None, **options)
    except ToolBatchError as error:
        return ("raised", str(error), [type(e).__name__ for e in error.exceptions], error.results)
    exception = result.exception
    return (
        type(result).__name__,
        result.call_id,
        result.name,
        result.type,
        result.synthesized_id,
        result.result_content,
        result.result_parts,
        result.fail_reason,
        None if exception is None else type(exception).__name__,
    )


@pytest.mark.parametrize("hooks", [None, ToolHooks()], ids=["unobserved", "hooks"])
@pytest.mark.parametrize("api", APIS)
def test_what_one_call_gives(api: str, hooks: ToolHooks | None) -> None:
    """Every outcome, on every API (JSON text cases on the OpenAI APIs only), the same
    whether or not hooks watch the call."""
    GROUP.run_tool_calls(response(api, "Act", {"how": "it"}), None)  # `Act` has its plan
    got: dict[str, tuple[object, ...]] = {}
    for case, (name, arguments) in ARGUMENTS.items():
        if case in TEXT_CASES and api not in TEXT_APIS:
            continue
        kind, call_id, name, call_type, synthesized, content, _parts, reason, exception = outcome(
            response(api, name, arguments),
            unexpected_errors="fail",
            limits=limits_for(case),
            hooks=hooks,
        )
        assert (call_id, call_type, synthesized) == ("call_1", "function", False), case
        got[case] = (kind, name, reason or content, exception)
    assert got == {case: OUTCOMES[case] for case in got}


@pytest.mark.parametrize("api", APIS)
def test_an_unexpected_error_raises_the_batch_error(api: str) -> None:
    """By default a crash in the handler, a wrong return or a crash in a validator raises
    `ToolBatchError` holding that exception; the call is answered by `answer_all`."""
    for case, error in [
        ("handler crash", KeyError),
        ("wrong shape", TypeError),
        ("validator crash", FileNotFoundError),
    ]:
        name, arguments = CASES[case]
        with pytest.raises(ToolBatchError) as raised:
            GROUP.run_tool_calls(response(api, name, arguments), None)
        assert [type(e) for e in raised.value.exceptions] == [error], case
        assert raised.value.results == (None,), case
        [answer] = raised.value.answer_all()
        assert (answer.call_id, answer.fail_reason) == ("call_1", "unexpected_error"), case


@pytest.mark.parametrize("api", ["chat.completions", "responses", "anthropic"])
def test_a_cut_call_is_answered_as_truncated(api: str) -> None:
    """A call a length limit cut off is read by the general reader and never runs (Chat
    Completions marks only a call with unfinished JSON: it has no per-call status; a
    Gemini call arrives whole or not at all)."""
    arguments = '{"how": "i' if api == "chat.completions" else {"how": "it"}
    cut = response(api, "Act", arguments, cut=True)
    assert outcome(cut)[-2:] == ("truncated", "ErrorForLLMToSee")


@pytest.mark.parametrize("api", ["anthropic", "gemini"])
def test_dict_arguments_stay_as_the_response_holds_them(api: str) -> None:
    """A tool that shares its input gets a copy: its handler's edit does not reach the
    response, which is replayed as the assistant turn."""
    sent = response(api, "Note", {"data": {"inner": {"kept": 1}}})
    GROUP.run_tool_calls(sent, None)
    block = sent.content[0] if api == "anthropic" else sent.candidates[0].content.parts[0]
    arguments = block.input if api == "anthropic" else block.function_call.args
    assert arguments == {"data": {"inner": {"kept": 1}}}


def test_custom_calls_and_kind_mismatches() -> None:
    """Custom calls run, and a custom call to a function tool is a developer mistake that
    raises, with or without hooks, even when its text is valid arguments."""
    shout = Response.model_validate(
        {
            "id": "resp_1", "object": "response", "created_at": 1, "model": "m",
            "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto",
            "tools": [],
            "output": [{"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1",
                        "name": "Shout", "input": "hey"}],
        }
    )  # fmt: skip
    assert outcome(shout)[5] == "HEY"
    assert outcome(shout, hooks=ToolHooks())[5] == "HEY"
    to_act = {"name": "Act", "input": '{"how": "it"}'}  # free text that is Act's JSON
    mismatch = shout.model_copy(update={"output": [shout.output[0].model_copy(update=to_act)]})
    for hooks in (None, ToolHooks()):
        with pytest.raises(CallKindMismatchError):
            GROUP.run_tool_calls(mismatch, None, hooks=hooks)


@pytest.mark.parametrize("api", APIS)
def test_a_validator_runs_once(api: str) -> None:
    """Refused arguments are answered from the one validation, not validated again."""
    runs: list[object] = []

    class Count(BaseFunctionToolModel[None, None]):
        """Count validations."""

        n: int

        @pydantic.model_validator(mode="before")
        @classmethod
        def counted(cls, data: object) -> object:
            runs.append(data)
            return data

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return str(self.n), None

    group = ToolGroup.from_list([Count])
    group.run_tool_calls(response(api, "Count", {"n": 1}), None)  # `Count` has its plan
    runs.clear()
    results = group.run_tool_calls(response(api, "Count", {"n": "many"}), None)
    assert [r.fail_reason for r in results] == ["invalid_arguments"]
    assert runs == [{"n": "many"}]


def test_bad_options_raise() -> None:
    """A wrong `other_calls` or `unexpected_errors` raises, even for a response whose class
    has a fast reader; `api=` naming the response's own API changes nothing."""
    sent = response("chat.completions", "Act", {"how": "it"})
    GROUP.run_tool_calls(sent, None)  # its class now has a fast reader
    with pytest.raises(ValueError, match='other_calls must be "raise"'):
        GROUP.run_tool_calls(sent, None, other_calls="skip")  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match='other_calls must be "raise"'):
        GROUP.run_tool_calls(sent, None, other_calls=["ignore"])  # pyright: ignore[reportArgumentType]
    with pytest.raises(ValueError, match='unexpected_errors must be "raise"'):
        GROUP.run_tool_calls(sent, None, unexpected_errors="skip")  # pyright: ignore[reportArgumentType]
    assert outcome(sent, api="chat.completions") == outcome(sent)


def test_other_client_calls_ignored_leave_the_function_call_to_run() -> None:
    """A response the fast reader declines (it holds a client call toolwire cannot run)
    is read in full; with `other_calls="ignore"` its one function call runs as usual."""
    computer: dict[str, Any] = {
        "type": "computer_call", "id": "cu_1", "call_id": "call_x", "status": "completed",
        "action": {"type": "screenshot"}, "pending_safety_checks": [],
    }  # fmt: skip
    data = response("responses", "Act", {"how": "it"}).model_dump()
    both = Response.model_validate({**data, "output": [computer, *data["output"]]})
    assert outcome(both, other_calls="ignore")[:6] == (
        "ToolCallSuccess", "call_1", "Act", "function", False, "did it"
    )  # fmt: skip


def test_a_provider_set_after_untraced_dispatches_is_seen(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Once dispatches have found OpenTelemetry loaded with no provider, `observer` only
    reads the provider's global: a provider set later still traces the next one-call
    response, debug logging still logs it, and with neither nothing is traced or logged."""
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    sent = response("anthropic", "Act", {"how": "it"})
    monkeypatch.setattr(trace, "_TRACER_PROVIDER", None)
    GROUP.run_tool_calls(sent, None)
    GROUP.run_tool_calls(sent, None)  # the second one asks only the global
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(trace, "_TRACER_PROVIDER", provider)
    GROUP.run_tool_calls(sent, None)
    assert [span.name for span in exporter.get_finished_spans()] == ["execute_tool Act"]
    monkeypatch.setattr(trace, "_TRACER_PROVIDER", None)
    with caplog.at_level(logging.DEBUG, logger="toolwire"):
        GROUP.run_tool_calls(sent, None)
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        "execute_tool Act (call call_1)"
    ]

    caplog.clear()
    assert outcome(sent)[5] == "did it"
    assert caplog.records == []
    assert len(exporter.get_finished_spans()) == 1


CALLS = {
    "success": StandardToolCall("function", "c1", "Act", '{"how": "it"}'),
    "dict arguments": StandardToolCall("function", "c1", "Act", {"how": "it"}),
    "parts": StandardToolCall("function", "c1", "Act", '{"how": "parts"}'),
    "refused": StandardToolCall("function", "c1", "Act", '{"how": "refuse"}'),
    "invalid": StandardToolCall("function", "c1", "Act", '{"how": 3}'),
    "no arguments": StandardToolCall("function", "c1", "Act", ""),
    "array arguments": StandardToolCall("function", "c1", "Act", '["it"]'),
    "padded object": StandardToolCall("function", "c1", "Act", ' {"how": "it"}'),
    "unknown tool": StandardToolCall("function", "c1", "Fly", "{}"),
    "truncated": StandardToolCall("function", "c1", "Act", '{"how": "i', truncated=True),
    "synthesized id": StandardToolCall("function", "t_1", "Act", '{"how": "it"}', True),
    "custom": StandardToolCall("custom", "c1", "Shout", "hey"),
    "handler crash": StandardToolCall("function", "c1", "Act", '{"how": "crash"}'),
    "wrong shape": StandardToolCall("function", "c1", "Act", '{"how": "wrong shape"}'),
    "validator crash": StandardToolCall("function", "c1", "Open", '{"path": "/no/such/file"}'),
}


def test_what_one_standard_call_gives() -> None:
    """A `StandardToolCall` alone: the text each outcome puts before the model."""
    got: dict[str, tuple[object, ...]] = {}
    for case, call in CALLS.items():
        kind, call_id, *_, content, _parts, _reason, _exception = outcome(
            [call], unexpected_errors="fail"
        )
        got[case] = (kind, call_id, content)
    assert got == snapshot(
        {
            "success": ("ToolCallSuccess", "c1", "did it"),
            "dict arguments": ("ToolCallSuccess", "c1", "did it"),
            "parts": (
                "ToolCallSuccess",
                "c1",
                """\
one
two\
""",
            ),
            "refused": ("ToolCallFailure", "c1", "Not today; ask for something else."),
            "invalid": (
                "ToolCallFailure",
                "c1",
                """\
Invalid arguments for 'Act': 1 error. Fix them and call the tool again.
- how: Input should be a valid string (got 3)\
""",
            ),
            "no arguments": (
                "ToolCallFailure",
                "c1",
                """\
Invalid arguments for 'Act': 1 error. Fix them and call the tool again.
- how: Field required\
""",
            ),
            "array arguments": (
                "ToolCallFailure",
                "c1",
                "The arguments for 'Act' must be one JSON object, but they are a JSON array. Call it again with an object such as {\"field\": value}.",
            ),
            "padded object": ("ToolCallSuccess", "c1", "did it"),
            "unknown tool": (
                "ToolCallFailure",
                "c1",
                "Unknown tool 'Fly'. Available tools: Act, Loudly, Note, Open, Shout. Call one of them by its exact name.",
            ),
            "truncated": (
                "ToolCallFailure",
                "c1",
                "The call to 'Act' was cut off before its arguments were complete (the response stopped early, at the output length limit or a content filter), so it was not run. If its arguments were long, call it again with shorter ones (for example, split the work into several smaller calls).",
            ),
            "synthesized id": ("ToolCallSuccess", "t_1", "did it"),
            "custom": ("ToolCallSuccess", "c1", "HEY"),
            "handler crash": (
                "ToolCallFailure",
                "c1",
                "This call failed with an internal error; its details are hidden. Tell the user, or try again if it is safe to repeat.",
            ),
            "wrong shape": (
                "ToolCallFailure",
                "c1",
                "This call failed with an internal error; its details are hidden. Tell the user, or try again if it is safe to repeat.",
            ),
            "validator crash": (
                "ToolCallFailure",
                "c1",
                "This call failed with an internal error; its details are hidden. Tell the user, or try again if it is safe to repeat.",
            ),
        }
    )
    assert outcome([CALLS["handler crash"]])[0] == "raised"


def test_a_kind_mismatch_raises_with_or_without_hooks() -> None:
    call = StandardToolCall("custom", "c1", "Act", "it")
    for hooks in (None, ToolHooks()):
        with pytest.raises(CallKindMismatchError):
            GROUP.run_tool_calls([call], None, hooks=hooks)
