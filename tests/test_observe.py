"""Watching executed calls: an OpenTelemetry `execute_tool` span per call (checked with
the OpenTelemetry SDK's in-memory exporter), a debug log line, and the caller's hooks;
and nothing at all when none of them is on."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from inline_snapshot import snapshot
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.helpers import anthropic_message
from toolwire import _observe, aio
from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    StandardToolCall,
    ToolCallEnd,
    ToolGroup,
    ToolHooks,
)
from toolwire.exceptions import ToolBatchError

message = anthropic_message


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.city == "Atlantis":
            raise ErrorForLLMToSee("No weather under the sea.")
        if self.city == "Crash":
            raise RuntimeError("weather service down")
        return f"Sunny in {self.city}.", None


GROUP = ToolGroup.from_list([get_weather])
CALLS = message(
    ("get_weather", {"city": "Paris"}),
    ("get_weather", {"city": "Atlantis"}),
    ("get_weather", {"town": "Rome"}),  # invalid: never executed, so no span
    ("get_weather", {"city": "Crash"}),
)


def described(span: ReadableSpan) -> dict[str, Any]:
    return {
        "name": span.name,
        "attributes": dict(span.attributes or {}),
        "status": span.status.status_code.name,
        "events": [event.name for event in span.events],
    }


def test_one_execute_tool_span_per_executed_call(spans: InMemorySpanExporter) -> None:
    results = GROUP.run_tool_calls(CALLS, None, unexpected_errors="fail")
    assert [r.fail_reason for r in results] == snapshot(
        [None, "explicit_handler_error", "invalid_arguments", "unexpected_error"]
    )
    assert [described(span) for span in spans.get_finished_spans()] == snapshot(
        [
            {
                "name": "execute_tool get_weather",
                "attributes": {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "get_weather",
                    "gen_ai.tool.call.id": "toolu_0",
                    "gen_ai.tool.type": "function",
                    "toolwire.tool_call.outcome": "success",
                },
                "status": "UNSET",
                "events": [],
            },
            {
                "name": "execute_tool get_weather",
                "attributes": {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "get_weather",
                    "gen_ai.tool.call.id": "toolu_1",
                    "gen_ai.tool.type": "function",
                    "toolwire.tool_call.outcome": "explicit_handler_error",
                    "error.type": "explicit_handler_error",
                },
                "status": "ERROR",
                "events": [],
            },
            {
                "name": "execute_tool get_weather",
                "attributes": {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "get_weather",
                    "gen_ai.tool.call.id": "toolu_3",
                    "gen_ai.tool.type": "function",
                    "toolwire.tool_call.outcome": "unexpected_error",
                    "error.type": "unexpected_error",
                },
                "status": "ERROR",
                "events": ["exception"],
            },
        ]
    )


def test_a_raising_call_ends_its_span_with_the_exception_type(
    spans: InMemorySpanExporter,
) -> None:
    with pytest.raises(ToolBatchError):
        GROUP.run_tool_calls(message(("get_weather", {"city": "Crash"})), None)
    [span] = spans.get_finished_spans()
    assert (span.attributes or {})["error.type"] == "RuntimeError"
    assert (span.attributes or {})["toolwire.tool_call.outcome"] == "raised"


class slow_lookup(aio.BaseFunctionToolModel[None, None]):
    """Look something up, slowly."""

    seconds: float

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        await asyncio.sleep(self.seconds)
        return "found", None


def test_aio_spans_cover_timeouts_and_concurrent_calls(spans: InMemorySpanExporter) -> None:
    group = aio.ToolGroup.from_list([slow_lookup])
    calls = message(("slow_lookup", {"seconds": 0}), ("slow_lookup", {"seconds": 5}))
    asyncio.run(group.run_tool_calls(calls, None, timeout=0.05))
    outcomes = {
        (span.attributes or {})["gen_ai.tool.call.id"]: (
            (span.attributes or {})["toolwire.tool_call.outcome"],
            (span.attributes or {}).get("error.type"),
        )
        for span in spans.get_finished_spans()
    }
    assert outcomes == {"toolu_0": ("success", None), "toolu_1": ("timeout", "timeout")}


def test_a_cancelled_batch_ends_its_spans(spans: InMemorySpanExporter) -> None:
    group = aio.ToolGroup.from_list([slow_lookup])

    async def cancel_soon() -> None:
        batch = asyncio.ensure_future(
            group.run_tool_calls(message(("slow_lookup", {"seconds": 5})), None)
        )
        await asyncio.sleep(0.02)
        batch.cancel()
        with pytest.raises(asyncio.CancelledError):
            await batch

    asyncio.run(cancel_soon())
    [span] = spans.get_finished_spans()
    assert (span.attributes or {})["toolwire.tool_call.outcome"] == "cancelled"


def test_hooks_see_each_executed_call() -> None:
    seen: list[str] = []

    def before(call: StandardToolCall) -> None:
        seen.append(f"before {call.id}")

    def after(end: ToolCallEnd) -> None:
        assert end.seconds >= 0
        outcome = end.result.fail_reason if end.result is not None else repr(end.error)
        seen.append(f"after {end.call.id}: {outcome or 'success'}")

    GROUP.run_tool_calls(
        CALLS, None, unexpected_errors="fail", hooks=ToolHooks(before=before, after=after)
    )
    assert seen == snapshot(
        [
            "before toolu_0",
            "after toolu_0: success",
            "before toolu_1",
            "after toolu_1: explicit_handler_error",
            "before toolu_3",
            "after toolu_3: unexpected_error",
        ]
    )
    seen.clear()
    with pytest.raises(ToolBatchError):
        GROUP.run_tool_calls(
            message(("get_weather", {"city": "Crash"})),
            None,
            hooks=ToolHooks(before=before, after=after),
        )
    assert seen == ["before toolu_0", "after toolu_0: RuntimeError('weather service down')"]


def test_async_hooks_in_aio_and_their_refusal_in_core() -> None:
    seen: list[str] = []

    async def before(call: StandardToolCall) -> None:
        await asyncio.sleep(0)
        seen.append(f"before {call.id}")

    async def after(end: ToolCallEnd) -> None:
        seen.append(f"after {end.call.id}")

    group = aio.ToolGroup.from_list([slow_lookup])
    hooks = ToolHooks(before=before, after=after)
    asyncio.run(group.run_tool_calls(message(("slow_lookup", {"seconds": 0})), None, hooks=hooks))
    call = StandardToolCall("function", "c1", "slow_lookup", {"seconds": 0})
    asyncio.run(group.run_tool_call(call, None, hooks=hooks))
    assert seen == ["before toolu_0", "after toolu_0", "before c1", "after c1"]

    with pytest.raises(TypeError, match="The before hook is async"):
        GROUP.run_tool_calls(message(("get_weather", {"city": "Paris"})), None, hooks=hooks)


def test_a_debug_line_per_executed_call(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="toolwire"):
        GROUP.run_tool_calls(CALLS, None, unexpected_errors="fail")
    lines = [record.getMessage().rsplit(" in ", 1)[0] for record in caplog.records]
    assert lines == snapshot(
        [
            "execute_tool get_weather (call toolu_0): success",
            "execute_tool get_weather (call toolu_1): explicit_handler_error",
            "execute_tool get_weather (call toolu_3): unexpected_error",
        ]
    )


def test_debug_logging_switched_on_after_a_quiet_batch(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`observer` reads the logger's cached "not DEBUG" answer instead of asking it: every
    way of turning DEBUG on afterwards (the logger's level, its parent's, lifting
    `logging.disable`) still logs the next call's line."""
    logger = logging.getLogger("toolwire")
    one = message(("get_weather", {"city": "Paris"}))
    line = "execute_tool get_weather (call toolu_0): success"

    def lines_after(switch_on: Any, switch_off: Any) -> list[str]:
        caplog.clear()
        GROUP.run_tool_calls(one, None)  # quiet: the logger caches "DEBUG is off"
        assert _observe.observer(None) is None
        switch_on()
        try:
            GROUP.run_tool_calls(one, None)
        finally:
            switch_off()
        GROUP.run_tool_calls(one, None)  # quiet again
        return [record.getMessage().rsplit(" in ", 1)[0] for record in caplog.records]

    caplog.set_level(logging.DEBUG, logger="toolwire")  # its handler takes DEBUG records
    logger.setLevel(logging.INFO)  # the logger does not
    assert lines_after(lambda: logger.setLevel(logging.DEBUG), lambda: logger.setLevel(logging.INFO)) == [line]  # fmt: skip
    logger.setLevel(logging.NOTSET)  # the level comes from the root logger
    root = logging.getLogger()
    before = root.level
    root.setLevel(logging.INFO)
    assert lines_after(lambda: root.setLevel(logging.DEBUG), lambda: root.setLevel(logging.INFO)) == [line]  # fmt: skip
    logging.disable(logging.DEBUG)
    logger.setLevel(logging.DEBUG)
    assert lines_after(lambda: logging.disable(logging.NOTSET), lambda: logging.disable(logging.DEBUG)) == [line]  # fmt: skip
    logging.disable(logging.NOTSET)
    root.setLevel(before)


def test_nothing_watches_by_default() -> None:
    """No hooks, no provider set, logger above DEBUG: no observer, no per-call work."""
    assert _observe.observer(None) is None


def test_dispatch_never_imports_opentelemetry() -> None:
    script = textwrap.dedent(
        """
        import json, sys
        from toolwire.core import BaseFunctionToolModel, ToolGroup, StandardToolCall

        class ping(BaseFunctionToolModel[None, None]):
            '''Ping.'''
            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "pong", None

        call = StandardToolCall("function", "c1", "ping", "{}")
        [result] = ToolGroup.from_list([ping]).run_tool_calls([call], None)
        print(json.dumps([result.result_content, "opentelemetry" in sys.modules]))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert json.loads(done.stdout) == ["pong", False], done.stderr
