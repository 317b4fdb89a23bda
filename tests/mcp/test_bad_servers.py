"""Servers that misbehave: malformed content, hangs, death mid-call, schemas no API can
take, clashing names. Each gets a clear result for the model or a clear developer
error, and no other call of the batch is lost. The servers are the SDK's own low-level
`Server` (in process) and a toolwire server in a subprocess that dies."""

from __future__ import annotations

import base64
import textwrap
from typing import Any

import anyio
import mcp_types as types
import pytest
from inline_snapshot import snapshot
from mcp import Client, MCPError
from mcp.server.lowlevel import Server

from toolwire.aio import ToolGroup
from toolwire.core import FilePart
from toolwire.exceptions import DuplicateToolNameError, SchemaError, ToolwireWarning
from toolwire.mcp import MCPTools

from .servers import call, lowlevel_server, python_server, run

OBJECT: dict[str, Any] = {"type": "object", "properties": {}}


def test_malformed_content_becomes_notes_and_the_rest_arrives() -> None:
    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name == "structured":
            return types.CallToolResult(
                content=[types.TextContent(text='{"celsius": 21}')],
                structured_content={"celsius": 21},
            )
        if name == "empty":
            return types.CallToolResult(content=[])
        if name == "failing":
            return types.CallToolResult(content=[types.TextContent(text="disk full")], is_error=True)  # fmt: skip
        if name == "protocol":
            raise MCPError(-32603, "database unavailable")
        return types.CallToolResult(
            content=[
                types.TextContent(text="before"),
                types.ImageContent(data="%%% not base64 %%%", mime_type="image/png"),
                types.ImageContent(
                    data=base64.b64encode(b"<svg/>").decode(), mime_type="image/svg+xml"
                ),  # fmt: skip
                types.AudioContent(data=base64.b64encode(b"RIFF").decode(), mime_type="audio/wav"),
                types.EmbeddedResource(
                    resource=types.TextResourceContents(uri="file:///notes.md", text="# Notes")
                ),
                types.EmbeddedResource(
                    resource=types.BlobResourceContents(
                        uri="file:///r.pdf",
                        mime_type="application/pdf",
                        blob=base64.b64encode(b"%PDF-1.4").decode(),
                    )
                ),  # fmt: skip
                types.ResourceLink(uri="https://example.com/x", name="x", description="the x"),
                types.TextContent(text="after"),
            ]
        )

    names = ["mixed", "structured", "empty", "failing", "protocol"]
    server = lowlevel_server([types.Tool(name=n, input_schema=OBJECT) for n in names], answer)

    async def body() -> list[Any]:
        async with Client(server) as client:
            tools = await MCPTools.load(client)
            group = ToolGroup.from_list(tools.tools)
            return await group.run_tool_calls([call(f"t{i}", n) for i, n in enumerate(names)], None)

    mixed, structured, empty, failing, protocol = run(body)
    assert (
        mixed.result_parts
        == (
            "before",
            "[the server sent image content that is not valid base64; it was dropped]",
            "[the server sent image content of image/svg+xml, which no model API takes; it was dropped]",  # fmt: skip
            FilePart(data=b"RIFF", media_type="audio/wav"),
            "[resource file:///notes.md]\n# Notes",
            FilePart(data=b"%PDF-1.4", media_type="application/pdf", filename="r.pdf"),
            "[resource x: https://example.com/x (the x)]",
            "after",
        )
    )
    assert (structured.fail_reason, structured.result_content) == (None, '{"celsius": 21}')
    assert (empty.fail_reason, empty.result_content) == (None, "(the tool returned no content)")
    assert [(r.fail_reason, r.result_content) for r in (failing, protocol)] == snapshot(
        [
            ("explicit_handler_error", "The tool 'failing' reported an error: disk full"),
            (
                "explicit_handler_error",
                "The MCP server 'odd' could not run 'protocol': database unavailable",
            ),
        ]
    )


def test_a_huge_protocol_error_reaches_the_model_cut() -> None:
    """A server that puts a whole stack trace in its error message: the model reads the
    first thousand characters and how much was left out, not all of it."""
    trace = "Traceback (most recent call last):\n" + "  File 'db.py', line 1\n" * 5000

    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        raise MCPError(-32603, trace)

    server = lowlevel_server([types.Tool(name="query", input_schema=OBJECT)], answer)

    async def body() -> list[Any]:
        async with Client(server) as client:
            tools = await MCPTools.load(client)
            group = ToolGroup.from_list(tools.tools)
            return await group.run_tool_calls([call("t1", "query")], None)

    (result,) = run(body)
    prefix = "The MCP server 'odd' could not run 'query': "
    assert result.fail_reason == "explicit_handler_error"
    assert result.result_content == (
        f"{prefix}{trace[:1000]}... ({len(trace) - 1000:,} more characters)"
    )
    assert len(result.result_content) < 1100


def test_a_hanging_call_times_out_alone() -> None:
    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name == "hang":
            await anyio.sleep_forever()
        return types.CallToolResult(content=[types.TextContent(text="quick")])

    tools = [types.Tool(name=n, input_schema=OBJECT) for n in ("hang", "quick")]
    server = lowlevel_server(tools, answer)

    async def body() -> list[Any]:
        async with Client(server) as client:
            loaded = await MCPTools.load(client, timeout=0.3)
            group = ToolGroup.from_list(loaded.tools)
            first = await group.run_tool_calls([call("a", "hang"), call("b", "quick")], None)
            # The session still works after the abandoned call.
            return [*first, *await group.run_tool_calls([call("c", "quick")], None)]

    hang, quick, again = run(body)
    assert hang.fail_reason == "timeout"
    assert (quick.fail_reason, quick.result_content) == (None, "quick")
    assert (again.fail_reason, again.result_content) == (None, "quick")


DYING_SERVER = textwrap.dedent(
    """
    import os
    from toolwire.core import BaseFunctionToolModel, ToolGroup
    from toolwire.mcp import mcp_server, run_stdio

    class die(BaseFunctionToolModel[None, None]):
        '''Exit the server process mid-call.'''
        def model_tool_handler(self, context: None) -> tuple[str, None]:
            os._exit(3)

    class echo(BaseFunctionToolModel[None, None]):
        '''Echo.'''
        text: str
        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return self.text, None

    run_stdio(mcp_server(ToolGroup.from_list([die, echo]), name="fragile"))
    """
)


def test_a_server_that_dies_mid_call_fails_its_calls_not_the_batch() -> None:
    async def body() -> tuple[list[Any], list[Any]]:
        async with Client(python_server(DYING_SERVER)) as client:
            loaded = await MCPTools.load(client, timeout=10)
            group = ToolGroup.from_list(loaded.tools)
            before = await group.run_tool_calls([call("a", "echo", {"text": "hi"})], None)
            calls = [call("b", "die"), call("c", "echo", {"text": "anyone?"})]
            after = await group.run_tool_calls(calls, None, max_concurrency=1)
            return before, after

    before, after = run(body)
    assert [(r.fail_reason, r.result_content) for r in before] == [(None, "hi")]
    # The call that was out when the server died, and the one after it: both tell the
    # model to leave the server's tools alone.
    assert [(r.call_id, r.fail_reason, r.result_content) for r in after] == snapshot(
        [
            (
                "b",
                "explicit_handler_error",
                "The connection to the MCP server 'fragile' closed before it answered 'die' (the tool may have run all the same). Do not call its tools again in this conversation.",
            ),
            (
                "c",
                "explicit_handler_error",
                "The connection to the MCP server 'fragile' closed before it answered 'echo' (the tool may have run all the same). Do not call its tools again in this conversation.",
            ),
        ]
    )


def test_two_tools_that_become_one_name_are_a_developer_error() -> None:
    tools = [types.Tool(name=n, input_schema=OBJECT) for n in ("files.read", "files_read")]
    server = lowlevel_server(tools, None)

    async def body() -> DuplicateToolNameError:
        async with Client(server) as client:
            with pytest.raises(DuplicateToolNameError) as caught:
                await MCPTools.load(client)
            return caught.value

    assert (
        str(run(body))
        == snapshot(
            "The MCP server 'odd' lists tools 'files.read' and 'files_read', which both become 'files_read'. Load it with a different prefix, or ask its authors to give each tool its own name."  # fmt: skip
        )
    )


def test_schemas_no_api_can_take_leave_the_tool_out_with_a_warning() -> None:
    tools = [
        types.Tool(
            name="bad_type", input_schema={"type": "object", "properties": {"a": {"type": 5}}}
        ),  # fmt: skip
        types.Tool(
            name="free_form", input_schema={"type": "object", "additionalProperties": True}
        ),  # fmt: skip
        types.Tool(
            name="fine", input_schema={"type": "object", "properties": {"a": {"type": "string"}}}
        ),  # fmt: skip
    ]
    server = lowlevel_server(tools, None)

    async def body() -> MCPTools:
        async with Client(server) as client:
            return await MCPTools.load(client)

    with pytest.warns(ToolwireWarning, match="'bad_type' was left out"):
        loaded = run(body)
    assert [t.model_tool_name() for t in loaded.tools] == ["free_form", "fine"]
    assert list(loaded.skipped) == ["bad_type"]
    assert loaded.skipped["bad_type"].startswith("its inputSchema is not valid JSON Schema (5 is not valid")  # fmt: skip
    free_form, fine = loaded.tools
    assert (free_form.model_tool_strict, fine.model_tool_strict) == (False, True)
    assert free_form.mcp_strict_refused == snapshot("""\
chat.completions: Schema report for chat.completions (strict): 1 change, 1 lossy.
- (root): additionalProperties closed [lossy]: the model accepted extra keys (extra='allow'), which strict mode cannot send: only the listed keys remain\
""")
    assert free_form.model_tool_definition("chat.completions")["function"].get("strict") is not True  # fmt: skip


def test_strict_true_refuses_a_schema_that_cannot_be_strict() -> None:
    tools = [types.Tool(name="free_form", input_schema={"type": "object", "additionalProperties": True})]  # fmt: skip
    server = lowlevel_server(tools, None)

    async def body() -> None:
        async with Client(server) as client:
            with pytest.raises(SchemaError, match="The MCP tool 'free_form' cannot be strict"):
                await MCPTools.load(client, strict=True)

    run(body)


def test_refresh_follows_the_servers_tool_list() -> None:
    """The server adds a tool during a call and says so; the client forwards that to
    `notice`, and `refresh` lists the new tool."""
    listed = [types.Tool(name="grow", input_schema=OBJECT)]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=list(listed))

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        listed.append(types.Tool(name=f"tool_{len(listed)}", input_schema=OBJECT))
        await ctx.session.send_tool_list_changed()
        return types.CallToolResult(content=[types.TextContent(text="grown")])

    server = Server("changing", on_list_tools=list_tools, on_call_tool=call_tool)

    loaded: MCPTools | None = None

    async def forward(message: Any) -> None:
        if loaded is not None:
            await loaded.notice(message)

    async def body() -> tuple[Any, ...]:
        nonlocal loaded
        # A handshake-era session: the server sends the notification unasked and the
        # client's message handler gets it (2026-07-28 sessions use client.listen()).
        async with Client(server, mode="legacy", message_handler=forward) as client:
            loaded = await MCPTools.load(client)
            unchanged = await loaded.refresh()
            group = ToolGroup.from_list(loaded.tools)
            await group.run_tool_calls([call("a", "grow")], None)
            with anyio.fail_after(5):
                while not loaded.changed:
                    await anyio.sleep(0.01)
            changed = await loaded.refresh()
            names = [t.model_tool_name() for t in loaded.tools]
            return unchanged, True, changed, names, loaded.changed

    assert run(body) == (False, True, True, ["grow", "tool_1"], False)
