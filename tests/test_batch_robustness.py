"""A batch keeps every result it can, whatever one call does: a validator raising an
exception pydantic does not wrap, a handler returning the wrong shape, a handler raising
`CancelledError` on its own. And dispatch never rewrites the model's turn: dict
arguments replay exactly as the model sent them, whatever validators and handlers do."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any, Literal

import pydantic
import pytest
from anthropic.types import Message
from google.genai import types as genai

from toolwire import aio
from toolwire._plan import shares_input
from toolwire.core import (
    BaseFunctionToolModel,
    StandardToolCall,
    ToolGroup,
    assistant_messages,
)
from toolwire.exceptions import HandlerCancelledError, ToolBatchError


def calls(*arguments: str) -> list[StandardToolCall]:
    names = ["Read" if "path" in a else "Echo" for a in arguments]
    return [
        StandardToolCall("function", f"c{i}", name, a)
        for i, (name, a) in enumerate(zip(names, arguments, strict=True))
    ]


class Read(BaseFunctionToolModel[None, None]):
    """Read a file that must exist."""

    path: str

    @pydantic.field_validator("path")
    @classmethod
    def exists(cls, value: str) -> str:
        return str(Path(value).resolve(strict=True))  # FileNotFoundError: not wrapped

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"read {self.path}", None


class Echo(BaseFunctionToolModel[None, None]):
    """Echo the text; "wrong" returns a bare string (a bug in the handler)."""

    text: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.text == "wrong":
            return "done"  # pyright: ignore[reportReturnType]
        return self.text, None


group = ToolGroup.from_list([Read, Echo])


class AsyncRead(aio.BaseFunctionToolModel[None, None]):
    """Read a file that must exist."""

    model_tool_custom_name = "Read"

    path: str

    @pydantic.field_validator("path")
    @classmethod
    def exists(cls, value: str) -> str:
        return str(Path(value).resolve(strict=True))

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"read {self.path}", None


class AsyncEcho(aio.BaseFunctionToolModel[None, None]):
    """Echo; "wrong" returns a bare string; "cancelled" awaits a cancelled future."""

    model_tool_custom_name = "Echo"

    text: str

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.text == "wrong":
            return "done"  # pyright: ignore[reportReturnType]
        if self.text == "cancelled":
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            future.cancel()  # other code cancelled what the handler waits for
            await future
        await asyncio.sleep(0.01)
        return self.text, None


aio_group = aio.ToolGroup.from_list([AsyncRead, AsyncEcho])
MISSING = '{"path": "/no/such/file"}'


def outcomes(results: Any) -> list[tuple[str, str | None]]:
    return [(r.call_id, r.fail_reason) for r in results]


# -- a validator raising something pydantic does not wrap --------------------------


def test_core_validator_crash_is_the_calls_unexpected_error() -> None:
    batch = calls('{"text": "a"}', MISSING, '{"text": "b"}')
    with pytest.raises(ToolBatchError) as raised:
        group.run_tool_calls(batch, None)
    error = raised.value
    assert [type(e) for e in error.exceptions] == [FileNotFoundError]
    assert outcomes(error.answer_all()) == [
        ("c0", None),
        ("c1", "unexpected_error"),
        ("c2", "not_run"),  # sync: calls after the failing one do not run
    ]
    results = group.run_tool_calls(batch, None, unexpected_errors="fail")
    assert outcomes(results) == [("c0", None), ("c1", "unexpected_error"), ("c2", None)]
    assert isinstance(results[1].exception, FileNotFoundError)
    with pytest.raises(FileNotFoundError):  # one call: raised as is, like a handler's
        group.run_tool_call(batch[1], None)


def test_aio_validator_crash_is_the_calls_unexpected_error() -> None:
    batch = calls('{"text": "a"}', MISSING, '{"text": "b"}')
    with pytest.raises(ToolBatchError) as raised:
        asyncio.run(aio_group.run_tool_calls(batch, None))
    assert [type(e) for e in raised.value.exceptions] == [FileNotFoundError]
    assert outcomes(raised.value.answer_all()) == [
        ("c0", None),
        ("c1", "unexpected_error"),
        ("c2", None),  # without a bound, every other call started and finished
    ]
    results = asyncio.run(aio_group.run_tool_calls(batch, None, unexpected_errors="fail"))
    assert outcomes(results) == [("c0", None), ("c1", "unexpected_error"), ("c2", None)]
    with pytest.raises(FileNotFoundError):
        asyncio.run(aio_group.run_tool_call(batch[1], None))


# -- a handler returning the wrong shape --------------------------------------------


def test_core_wrong_return_keeps_the_results_that_ran() -> None:
    batch = calls('{"text": "a"}', '{"text": "wrong"}', '{"text": "b"}')
    with pytest.raises(ToolBatchError) as raised:
        group.run_tool_calls(batch, None)
    error = raised.value
    assert [type(e) for e in error.exceptions] == [TypeError]
    assert "Echo.model_tool_handler returned a value of type str" in str(error.exceptions[0])
    assert outcomes(error.answer_all()) == [
        ("c0", None),
        ("c1", "unexpected_error"),
        ("c2", "not_run"),
    ]
    results = group.run_tool_calls(batch, None, unexpected_errors="fail")
    assert outcomes(results) == [("c0", None), ("c1", "unexpected_error"), ("c2", None)]
    with pytest.raises(TypeError, match="must return"):
        group.run_tool_call(batch[1], None)


def test_aio_wrong_return_keeps_the_results_that_ran() -> None:
    batch = calls('{"text": "a"}', '{"text": "wrong"}', '{"text": "b"}')
    with pytest.raises(ToolBatchError) as raised:
        asyncio.run(aio_group.run_tool_calls(batch, None))
    assert [type(e) for e in raised.value.exceptions] == [TypeError]
    assert outcomes(raised.value.answer_all()) == [
        ("c0", None),
        ("c1", "unexpected_error"),
        ("c2", None),
    ]
    results = asyncio.run(aio_group.run_tool_calls(batch, None, unexpected_errors="fail"))
    assert outcomes(results) == [("c0", None), ("c1", "unexpected_error"), ("c2", None)]


# -- a handler raising CancelledError on its own ------------------------------------


def test_a_handlers_own_cancelled_error_does_not_cancel_the_caller() -> None:
    batch = calls('{"text": "a"}', '{"text": "cancelled"}', '{"text": "b"}')
    results = asyncio.run(aio_group.run_tool_calls(batch, None, unexpected_errors="fail"))
    assert outcomes(results) == [("c0", None), ("c1", "unexpected_error"), ("c2", None)]
    assert isinstance(results[1].exception, HandlerCancelledError)
    assert isinstance(results[1].exception.__cause__, asyncio.CancelledError)
    with pytest.raises(ToolBatchError) as raised:
        asyncio.run(aio_group.run_tool_calls(batch, None))
    assert [type(e) for e in raised.value.exceptions] == [HandlerCancelledError]
    assert outcomes(raised.value.answer_all())[0] == ("c0", None)
    with pytest.raises(HandlerCancelledError, match="raised CancelledError although"):
        asyncio.run(aio_group.run_tool_call(batch[1], None))


def test_cancelling_the_caller_still_cancels_the_batch() -> None:
    """A real cancellation of the caller's task propagates, and stops the handlers."""
    started = asyncio.Event()

    class Slow(aio.BaseFunctionToolModel[None, None]):
        """Wait long."""

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            started.set()
            await asyncio.sleep(60)
            return "late", None

    slow = aio.ToolGroup.from_list([Slow])

    async def main() -> None:
        batch = [StandardToolCall("function", f"s{i}", "Slow", "{}") for i in range(3)]
        task = asyncio.create_task(slow.run_tool_calls(batch, None, unexpected_errors="fail"))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert task.cancelled()

    asyncio.run(main())


# -- dict arguments are never validated in place ------------------------------------


class Configure(BaseFunctionToolModel[None, None]):
    """Store settings; renames the legacy key and edits what it was given."""

    name: str
    settings: dict[str, Any]
    extra: Any = None

    @pydantic.model_validator(mode="before")
    @classmethod
    def rename_legacy_key(cls, data: Any) -> Any:
        if isinstance(data, dict) and "title" in data:
            data["name"] = data.pop("title")  # pyright: ignore[reportUnknownMemberType]
        return data  # pyright: ignore[reportUnknownVariableType]

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        self.settings["seen"] = True  # a nested dict the model sent (an Any value)
        if isinstance(self.extra, dict):
            self.extra.clear()  # pyright: ignore[reportUnknownMemberType]
        return "stored", None


class AsyncConfigure(aio.BaseFunctionToolModel[None, None]):
    """Store settings (async); edits what it was given."""

    model_tool_custom_name = "Configure"

    name: str
    settings: dict[str, Any]

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        self.settings["seen"] = True
        return "stored", None


INPUT = {"title": "prod", "settings": {"limits": {"cpu": 2}}, "extra": {"keep": [1, 2]}}


def anthropic_message(calls: int = 1) -> Message:
    uses = [
        {"type": "tool_use", "id": f"toolu_{n}", "name": "Configure", "input": INPUT}
        for n in range(calls)
    ]
    return Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude",
            "content": uses,
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )


def gemini_response(calls: int = 1) -> genai.GenerateContentResponse:
    parts = [
        genai.Part(function_call=genai.FunctionCall(name="Configure", args=copy.deepcopy(INPUT)))
        for _ in range(calls)
    ]
    return genai.GenerateContentResponse(
        response_id="r1",
        candidates=[
            genai.Candidate(
                content=genai.Content(role="model", parts=parts),
                finish_reason=genai.FinishReason.STOP,
            )
        ],
    )


@pytest.mark.parametrize("calls", [1, 3], ids=["one call", "three calls"])
@pytest.mark.parametrize("api", ["anthropic", "gemini"])
def test_dispatch_never_rewrites_the_models_turn(
    api: Literal["anthropic", "gemini"], calls: int
) -> None:
    """Neither a before-validator nor a handler changes the turn `assistant_messages`
    replays, in a batch of one call or of several (core and aio)."""
    response: Any = anthropic_message(calls) if api == "anthropic" else gemini_response(calls)
    before = copy.deepcopy(assistant_messages(response, api))
    results = ToolGroup.from_list([Configure]).run_tool_calls(response, None)
    assert [r.result_content for r in results] == ["stored"] * calls
    assert assistant_messages(response, api) == before
    asyncio.run(aio.ToolGroup.from_list([AsyncConfigure]).run_tool_calls(response, None))
    assert assistant_messages(response, api) == before


def test_only_tools_that_can_share_input_pay_for_a_copy() -> None:
    """Typed fields are copied by pydantic itself; `Any` values, extra fields and
    before-validators are not, and only those classes get a copy first."""

    class Typed(BaseFunctionToolModel[None, None]):
        """Typed."""

        name: str
        limits: dict[str, list[int]]

    class Extra(BaseFunctionToolModel[None, None]):
        """Extra allowed."""

        model_config = pydantic.ConfigDict(extra="allow")

    class Strict(BaseFunctionToolModel[None, None]):
        """Strict, with a default (toolwire's own before-validator never mutates)."""

        model_tool_strict = True
        count: int = 3

    assert not shares_input(Typed)
    assert not shares_input(Strict)
    assert shares_input(Extra)
    assert shares_input(Configure)
