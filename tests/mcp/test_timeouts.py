"""How long an MCP call may take: the shorter of the tools' own `timeout` and the
batch's `timeout=`, answered with the same "timeout" failure from `toolwire.aio` and
from `sync_tools` in a `toolwire.core` group."""

from __future__ import annotations

from typing import Any

import anyio
import anyio.from_thread
import mcp_types as types
import pytest
from inline_snapshot import snapshot
from mcp import Client

from toolwire import aio, core
from toolwire.mcp import MCPTools

from .servers import call, lowlevel_server, run

TOOLS = [types.Tool(name=name, input_schema={"type": "object"}) for name in ("hang", "quick")]


async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    if name == "hang":
        await anyio.sleep_forever()
    return types.CallToolResult(content=[types.TextContent(text="quick")])


def outcome(results: list[Any]) -> list[tuple[str, str | None, str]]:
    return [(r.call_id, r.fail_reason, r.result_content) for r in results]


@pytest.mark.parametrize(
    ("own", "batch", "limit"),
    [(30.0, 0.2, "0.2 seconds"), (0.2, 30.0, "0.2 seconds"), (1.0, None, "1 second")],
    ids=["the-batch-is-shorter", "the-tools-are-shorter", "no-batch-limit"],
)
def test_the_shorter_limit_wins(own: float, batch: float | None, limit: str) -> None:
    async def body() -> list[Any]:
        async with Client(lowlevel_server(TOOLS, answer)) as client:
            loaded = await MCPTools.load(client, timeout=own)
            group = aio.ToolGroup.from_list(loaded.tools)
            calls = [call("a", "hang"), call("b", "quick")]
            results = await group.run_tool_calls(calls, None, timeout=batch)
            if batch is None:  # one call alone: only the tools' own limit bounds it
                results.append(await group.run_tool_call(call("c", "hang"), None))
            return results

    stopped = (
        f"The tool did not finish within {limit} and was stopped. Try again, perhaps with "
        "a smaller request, or tell the user."
    )
    expected = [("a", "timeout", stopped), ("b", None, "quick")]
    assert outcome(run(body)) == expected + ([("c", "timeout", stopped)] if batch is None else [])


def test_sync_tools_answer_a_call_past_the_limit_as_timed_out() -> None:
    with anyio.from_thread.start_blocking_portal() as portal:
        client = portal.wrap_async_context_manager(Client(lowlevel_server(TOOLS, answer)))
        with client as session:
            loaded = portal.call(lambda: MCPTools.load(session, timeout=0.2))
            group = core.ToolGroup.from_list(loaded.sync_tools(portal))
            results = group.run_tool_calls([call("a", "hang"), call("b", "quick")], None)
    assert outcome(results) == snapshot(
        [
            (
                "a",
                "timeout",
                "The tool did not finish within 0.2 seconds and was stopped. Try again, perhaps with a smaller request, or tell the user.",
            ),
            ("b", None, "quick"),
        ]
    )
