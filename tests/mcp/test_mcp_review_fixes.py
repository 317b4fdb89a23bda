"""Review fixes in `toolwire.mcp`, each against a real server in a subprocess: a reply
the SDK cannot read fails only its own call; MCP tools pass their context through and
fit a group of any context type (pyright checks the `assert_type` lines); a served
`text/*` file that is not UTF-8 keeps its bytes."""

from __future__ import annotations

import base64
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, assert_type

import anyio.from_thread
import mcp_types as types
import pytest
from inline_snapshot import snapshot
from mcp import Client, StdioServerParameters

from toolwire import aio, core
from toolwire.mcp import MCPTools

from .servers import python_server, run

ODD_SERVER = StdioServerParameters(
    command=sys.executable, args=[str(Path(__file__).with_name("odd_replies_server.py"))]
)
"""tests/mcp/odd_replies_server.py: hand-written replies the SDK's client cannot use."""


@dataclass
class Session:
    user: str


class remember(aio.BaseFunctionToolModel[Session, Session]):
    """Remember a fact about the user."""

    fact: str

    async def model_tool_handler(self, context: Session) -> tuple[str, Session]:
        return "noted", Session(user=f"{context.user} ({self.fact})")


class remember_sync(core.BaseFunctionToolModel[Session, Session]):
    """Remember a fact about the user."""

    fact: str

    def model_tool_handler(self, context: Session) -> tuple[str, Session]:
        return "noted", Session(user=f"{context.user} ({self.fact})")


def call(call_id: str, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments or {}}


def unreadable(name: str, problem: str) -> str:
    return (
        f"The MCP server 'odd' sent an answer to {name!r} that this client cannot read "
        f"({problem}). The answer is lost, and the tool may have run all the same: do not "
        "call it again unless the user asks; tell them its result could not be read."
    )


def outcome(result: Any) -> tuple[Any, ...]:
    """A result as the model and the developer see it: id, reason, text, and the SDK's
    exception behind a failure (None for a success)."""
    cause = result.exception.__cause__ if result.exception is not None else None
    return (
        result.call_id,
        result.fail_reason,
        result.result_content,
        type(cause).__name__ if cause is not None else None,
    )


def test_replies_the_sdk_cannot_read_fail_only_their_call() -> None:
    """An unknown block type, `content` not a list, structured content breaking the
    output schema: each answers its own call with a short text, the others keep their
    results, and a closed client is still the caller's error, raised."""

    async def body() -> tuple[list[Any], Any, RuntimeError]:
        async with Client(ODD_SERVER) as client:
            loaded = await MCPTools.load(client, timeout=20)
            group = aio.ToolGroup.from_list(loaded.tools)
            names = ["echo", "video", "flood", "not_a_list", "weather", "echo"]
            calls = [call(f"c{i}", name) for i, name in enumerate(names)]
            results = await group.run_tool_calls(calls, None)
            single = await group.run_tool_call(call("s", "video"), None)
        with pytest.raises(RuntimeError) as closed:
            await group.run_tool_call(call("late", "echo"), None)
        return results, single, closed.value

    results, single, closed = run(body)
    flood_type = repr("v" * 157 + "...")
    assert [outcome(result) for result in [*results, single]] == [
        ("c0", None, "fine", None),
        (
            "c1",
            "explicit_handler_error",
            unreadable("video", "content[1] is a block of type 'video', which MCP does not define"),
            "ValidationError",
        ),
        (
            "c2",
            "explicit_handler_error",
            unreadable(
                "flood", f"content[0] is a block of type {flood_type}, which MCP does not define"
            ),
            "ValidationError",
        ),
        (
            "c3",
            "explicit_handler_error",
            unreadable("not_a_list", "content: Input should be a valid list"),
            "ValidationError",
        ),
        (
            "c4",
            "explicit_handler_error",
            unreadable(
                "weather",
                "Invalid structured content returned by tool weather: 'warm' is not of type 'number'",
            ),
            "RuntimeError",
        ),
        ("c5", None, "fine", None),
        (
            "s",
            "explicit_handler_error",
            unreadable("video", "content[1] is a block of type 'video', which MCP does not define"),
            "ValidationError",
        ),
    ]
    assert str(closed) == "Client must be used within an async context manager"


def test_mcp_tools_return_the_context_they_are_given() -> None:
    """A server's tools next to tools of another context type: the group takes their
    types, and an MCP call's result carries the context it was given."""

    async def body() -> list[tuple[str, Any]]:
        async with Client(ODD_SERVER) as client:
            loaded = await MCPTools.load(client, timeout=20)
            mixed = aio.ToolGroup.from_list([*loaded.tools, remember])
            assert_type(mixed, aio.ToolGroup[Session, Session])
            only_mcp: aio.ToolGroup[Session, Session] = aio.ToolGroup.from_list(loaded.tools)
            untyped = aio.ToolGroup.from_list(loaded.tools)
            results = [
                *await mixed.run_tool_calls(
                    [call("m1", "echo"), call("m2", "remember", {"fact": "likes tea"})],
                    Session("ann"),
                ),
                await only_mcp.run_tool_call(call("o1", "echo"), Session("bob")),
                await untyped.run_tool_call(call("u1", "echo"), None),
            ]
        return [(r.call_id, r.context if r.fail_reason is None else r.fail_reason) for r in results]

    assert run(body) == [
        ("m1", Session("ann")),
        ("m2", Session("ann (likes tea)")),
        ("o1", Session("bob")),
        ("u1", None),
    ]


def test_sync_tools_pass_the_context_through_and_fail_an_unreadable_reply() -> None:
    """The same two fixes for `sync_tools()` in a `toolwire.core` group."""
    with anyio.from_thread.start_blocking_portal() as portal:
        client = portal.wrap_async_context_manager(Client(ODD_SERVER))
        with client as session:
            loaded = portal.call(lambda: MCPTools.load(session, timeout=20))
            group = core.ToolGroup.from_list([*loaded.sync_tools(portal), remember_sync])
            assert_type(group, core.ToolGroup[Session, Session])
            only_mcp: core.ToolGroup[None, None] = core.ToolGroup.from_list(loaded.sync_tools(portal))  # fmt: skip
            results = [
                *group.run_tool_calls(
                    [
                        call("a", "echo"),
                        call("b", "remember_sync", {"fact": "likes tea"}),
                        call("c", "not_a_list"),
                    ],
                    Session("ann"),
                ),
                group.run_tool_call(call("d", "video"), Session("ann")),
                only_mcp.run_tool_call(call("e", "echo"), None),
            ]
    assert [(*outcome(r), r.context if r.fail_reason is None else None) for r in results] == [
        ("a", None, "fine", None, Session("ann")),
        ("b", None, "noted", None, Session("ann (likes tea)")),
        (
            "c",
            "explicit_handler_error",
            unreadable("not_a_list", "content: Input should be a valid list"),
            "ValidationError",
            None,
        ),
        (
            "d",
            "explicit_handler_error",
            unreadable("video", "content[1] is a block of type 'video', which MCP does not define"),
            "ValidationError",
            None,
        ),
        ("e", None, "fine", None, None),
    ]


FILES = {
    "notes.md": ("text/markdown", "# Café\n".encode()),
    "latin1.csv": ("text/csv", "name;city\nJosé;Zürich\n".encode("latin-1")),
    "log.txt": ("text/plain", "naïve café\n".encode("utf-16")),
    "wide.txt": ("text/plain; charset=utf-16le", "ab".encode("utf-16-le")),
    "cut.md": ("text/markdown; charset=UTF-8", "# Café".encode()[:-1]),
}
"""Text files a served tool returns: UTF-8, Latin-1, UTF-16 with its BOM, UTF-16
without one, whose bytes happen to be valid UTF-8 but whose media type names its
charset, and UTF-8 cut inside its last character, whose bytes are not the charset its
media type names."""

FILE_SERVER = textwrap.dedent(
    f"""
    from toolwire.core import BaseFunctionToolModel, FilePart, ToolGroup
    from toolwire.mcp import mcp_server, run_stdio

    FILES = {FILES!r}

    class export(BaseFunctionToolModel[None, None]):
        '''Export the files.'''
        def model_tool_handler(self, context: None) -> tuple[list[FilePart], None]:
            parts = [
                FilePart(data=data, media_type=media_type, filename=name)
                for name, (media_type, data) in FILES.items()
            ]
            return parts, None

    run_stdio(mcp_server(ToolGroup.from_list([export]), name="files"))
    """
)


def test_served_text_files_that_are_not_utf8_keep_their_bytes() -> None:
    """A UTF-8 text file goes as a text resource, and so does one whose media type names
    its charset (decoded with it, issue 24 item 7); a file in another encoding that names
    none goes as a blob, byte for byte, where it used to be decoded with replacement
    characters; so does one whose bytes are not in the charset it names, with that
    media type (MCP sets `text` only for content that is text; the client holds every
    byte and the label it was given)."""

    async def body() -> Any:
        async with Client(python_server(FILE_SERVER)) as client:
            return await client.call_tool("export", {})

    result = run(body)
    assert [block.model_dump(exclude_none=True) for block in result.content] == snapshot(
        [
            {
                "type": "resource",
                "resource": {
                    "uri": "toolwire://result/notes.md",
                    "mime_type": "text/markdown",
                    "text": "# Café\n",
                },
            },
            {
                "type": "resource",
                "resource": {
                    "uri": "toolwire://result/latin1.csv",
                    "mime_type": "text/csv",
                    "blob": "bmFtZTtjaXR5Ckpvc+k7WvxyaWNoCg==",
                },
            },
            {
                "type": "resource",
                "resource": {
                    "uri": "toolwire://result/log.txt",
                    "mime_type": "text/plain",
                    "blob": "//5uAGEA7wB2AGUAIABjAGEAZgDpAAoA",
                },
            },
            {
                "type": "resource",
                "resource": {
                    "uri": "toolwire://result/wide.txt",
                    "mime_type": "text/plain",
                    "text": "ab",
                },
            },
            {
                "type": "resource",
                "resource": {
                    "uri": "toolwire://result/cut.md",
                    "mime_type": "text/markdown; charset=utf-8",
                    "blob": "IyBDYWbD",
                },
            },
        ]
    )
    sent = [
        base64.b64decode(block.resource.blob)
        for block in result.content
        if isinstance(block, types.EmbeddedResource)
        and isinstance(block.resource, types.BlobResourceContents)
    ]
    assert sent == [FILES[name][1] for name in ("latin1.csv", "log.txt", "cut.md")]
