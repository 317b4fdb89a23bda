"""Per-tool policy in aio batches: `model_tool_timeout` overrides the batch's timeout,
and `model_tool_sequential` runs a tool's calls one at a time, in call order, while
other tools' calls keep running concurrently with them."""

from __future__ import annotations

import asyncio

import pytest
from inline_snapshot import snapshot

from tests.helpers import chat_completion
from toolwire import aio, core
from toolwire.core import ToolCallFailure, ToolCallResult
from toolwire.exceptions import ToolBatchError, ToolDefinitionError


class Log:
    """The handlers' context: what happened, in order."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.other_started = asyncio.Event()


class slow(aio.BaseFunctionToolModel[Log, None]):
    """Takes its time."""

    model_tool_timeout = 0.05
    seconds: float

    async def model_tool_handler(self, context: Log) -> tuple[str, None]:
        await asyncio.sleep(self.seconds)
        return "finished", None


class patient(aio.BaseFunctionToolModel[Log, None]):
    """Allowed longer than the batch's timeout."""

    model_tool_timeout = 5.0
    seconds: float

    async def model_tool_handler(self, context: Log) -> tuple[str, None]:
        await asyncio.sleep(self.seconds)
        return "finished", None


class plain(aio.BaseFunctionToolModel[Log, None]):
    """Uses the batch's timeout."""

    seconds: float

    async def model_tool_handler(self, context: Log) -> tuple[str, None]:
        await asyncio.sleep(self.seconds)
        return "finished", None


def outcomes(results: list[ToolCallResult[None]]) -> list[tuple[str, str]]:
    return [(r.call_id, r.fail_reason or r.result_content) for r in results]


def test_a_tools_timeout_overrides_the_batchs() -> None:
    group = aio.ToolGroup.from_list([slow, patient, plain])
    response = chat_completion(
        ("slow", {"seconds": 5}),
        ("patient", {"seconds": 0.2}),
        ("plain", {"seconds": 5}),
        ("plain", {"seconds": 0}),
    )
    results = asyncio.run(group.run_tool_calls(response, Log(), timeout=0.1))
    assert outcomes(results) == snapshot(
        [
            ("call_0", "timeout"),
            ("call_1", "finished"),
            ("call_2", "timeout"),
            ("call_3", "finished"),
        ]
    )
    first = results[0]
    assert isinstance(first, ToolCallFailure)
    assert first.result_content == snapshot(
        "The tool did not finish within 0.05 seconds and was stopped. Try again, perhaps with a smaller request, or tell the user."
    )
    assert isinstance(first.exception, TimeoutError)


def test_a_tools_timeout_holds_without_a_batch_timeout_and_for_one_call() -> None:
    group = aio.ToolGroup.from_list([slow])
    batch = asyncio.run(group.run_tool_calls(chat_completion(("slow", {"seconds": 5})), Log()))
    assert outcomes(batch) == [("call_0", "timeout")]
    call = chat_completion(("slow", {"seconds": 5})).choices[0].message.tool_calls or []
    one = asyncio.run(group.run_tool_call(call[0], Log()))
    assert (one.fail_reason, one.result_content) == (
        "timeout",
        batch[0].result_content,
    )


class write_line(aio.BaseFunctionToolModel[Log, None]):
    """Append a line to the shared file: one writer at a time, in order."""

    model_tool_sequential = True
    line: str

    async def model_tool_handler(self, context: Log) -> tuple[str, None]:
        context.events.append(f"start {self.line}")
        if self.line == "first":
            # Only returns if `read_file` runs meanwhile: sequential tools do not hold up
            # the other tools of the batch.
            await asyncio.wait_for(context.other_started.wait(), timeout=5)
        for _ in range(3):
            await asyncio.sleep(0)
        context.events.append(f"end {self.line}")
        return f"wrote {self.line}", None


class read_file(aio.BaseFunctionToolModel[Log, None]):
    """Read the file."""

    async def model_tool_handler(self, context: Log) -> tuple[str, None]:
        context.events.append("start read")
        context.other_started.set()
        return "read", None


def test_sequential_calls_run_in_order_while_others_run_concurrently() -> None:
    group = aio.ToolGroup.from_list([write_line, read_file])
    log = Log()
    response = chat_completion(
        ("write_line", {"line": "first"}),
        ("write_line", {"line": "second"}),
        ("read_file", {}),
        ("write_line", {"line": "third"}),
    )
    results = asyncio.run(group.run_tool_calls(response, log, max_concurrency=2))
    assert outcomes(results) == snapshot(
        [
            ("call_0", "wrote first"),
            ("call_1", "wrote second"),
            ("call_2", "read"),
            ("call_3", "wrote third"),
        ]
    )
    assert log.events == snapshot(
        [
            "start read",
            "start first",
            "end first",
            "start second",
            "end second",
            "start third",
            "end third",
        ]
    )


class flaky_write(aio.BaseFunctionToolModel[Log, None]):
    """Writes, and fails on "boom"."""

    model_tool_sequential = True
    line: str

    async def model_tool_handler(self, context: Log) -> tuple[str, None]:
        context.events.append(self.line)
        if self.line == "boom":
            raise RuntimeError("disk full")
        return f"wrote {self.line}", None


def test_after_an_unexpected_error_the_queued_sequential_calls_do_not_start() -> None:
    group = aio.ToolGroup.from_list([flaky_write])
    log = Log()
    response = chat_completion(
        ("flaky_write", {"line": "a"}),
        ("flaky_write", {"line": "boom"}),
        ("flaky_write", {"line": "c"}),
    )
    with pytest.raises(ToolBatchError) as error:
        asyncio.run(group.run_tool_calls(response, log))
    assert log.events == ["a", "boom"]
    answered = error.value.answer_all()
    assert [(r.call_id, r.fail_reason) for r in answered] == snapshot(
        [("call_0", None), ("call_1", "unexpected_error"), ("call_2", "not_run")]
    )
    # With unexpected_errors="fail" the batch goes on, still in order.
    log = Log()
    results = asyncio.run(group.run_tool_calls(response, log, unexpected_errors="fail"))
    assert log.events == ["a", "boom", "c"]
    assert [r.fail_reason for r in results] == [None, "unexpected_error", None]


def test_a_core_tool_cannot_have_a_timeout() -> None:
    with pytest.raises(ToolDefinitionError) as error:

        class blocking(core.BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """Blocks."""

            model_tool_timeout = 1.0

    assert str(error.value) == snapshot(
        "blocking sets model_tool_timeout, but it is a toolwire.core tool: a plain function cannot be stopped once it runs. Make it a toolwire.aio tool (`async def model_tool_handler`), or enforce the time limit inside the handler."
    )
