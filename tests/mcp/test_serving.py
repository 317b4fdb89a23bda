"""A toolwire group served over MCP, called by the official SDK's client (in process,
and over stdio from a subprocess), and a toolwire client calling a toolwire server."""

from __future__ import annotations

import asyncio
import base64
import socket
import struct
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.from_thread
import pytest
from inline_snapshot import snapshot
from mcp import Client

from examples.mcp_server import PIXEL
from toolwire import aio, core
from toolwire.core import ImagePart, tool_result_messages
from toolwire.exceptions import ToolDefinitionError
from toolwire.mcp import MCPTools, mcp_server

from .servers import example_server, run

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d4944415478da63902fdff21f00044d024acc1db5fa0000000049454e44ae426082"
)


def png_pixels(data: bytes) -> list[list[tuple[int, ...]]]:
    """Decode a PNG of 8-bit RGBA pixels, checking it as a decoder does: the signature,
    every chunk's length and CRC, IHDR first and IEND last with nothing after it, the
    zlib stream of the IDAT chunks, and each row's filter. Rows of pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
    chunks: list[tuple[bytes, bytes]] = []
    at = 8
    while at < len(data):
        assert at + 12 <= len(data), f"a chunk header is cut at byte {at}"
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        assert len(body) == length, f"{kind!r} is cut: {len(body)} of {length} bytes"
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), f"{kind!r} has a wrong CRC"
        chunks.append((kind, body))
        at += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1] == (b"IEND", b""), [k for k, _ in chunks]
    width, height, depth, color, *_ = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, color) == (8, 6), "this decoder reads 8-bit RGBA only"
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = 1 + 4 * width
    assert len(raw) == stride * height, "the image data does not fill the image"
    rows: list[list[tuple[int, ...]]] = []
    previous = bytes(4 * width)
    for y in range(height):
        kind, line = raw[y * stride], bytearray(raw[y * stride + 1 : (y + 1) * stride])
        assert kind in (0, 1, 2), f"row {y}: filter {kind} (this decoder reads 0-2)"
        for x in range(len(line)):
            left = line[x - 4] if x >= 4 else 0
            line[x] = (line[x] + (left if kind == 1 else previous[x] if kind == 2 else 0)) % 256
        rows.append([tuple(line[i : i + 4]) for i in range(0, len(line), 4)])
        previous = bytes(line)
    return rows


def test_the_example_image_is_a_whole_png() -> None:
    """examples/mcp_server.py's chart (shown in docs/examples.md) decodes: one blue
    pixel."""
    assert png_pixels(PIXEL) == [[(0x1F, 0x77, 0xB4, 0xFF)]]
    assert PNG == PIXEL


@dataclass
class Account:
    user: str


class greet(core.BaseFunctionToolModel[Account, None]):
    """Greet someone by name."""

    name: str
    times: int = 1

    def model_tool_handler(self, context: Account) -> tuple[str, None]:
        return " ".join([f"Hello {self.name}, from {context.user}."] * self.times), None


class crash(core.BaseFunctionToolModel[Account, None]):
    """A tool with a bug."""

    def model_tool_handler(self, context: Account) -> tuple[str, None]:
        raise RuntimeError("secret internals")


class shout(core.BaseCustomToolModel[Account, None]):
    """Repeat the text in capitals."""

    def model_tool_handler(self, context: Account) -> tuple[str, None]:
        return self.input.upper(), None


class picture(aio.BaseFunctionToolModel[None, None]):
    """A picture with a caption and its source as a text file."""

    async def model_tool_handler(self, context: None) -> tuple[list[Any], None]:
        await asyncio.sleep(0)
        return [
            "A pixel:",
            ImagePart(data=PNG, media_type="image/png"),
            core.FilePart(data=b"pixel = 1\n", media_type="text/plain", filename="pixel.txt"),
            core.FilePart(data=b"RIFF", media_type="audio/wav"),
            core.FilePart(url="https://example.com/a.pdf", media_type="application/pdf"),
            ImagePart(url="data:image/png;base64," + base64.b64encode(PNG).decode()),
        ], None


def test_the_sdk_client_lists_and_calls_a_core_group() -> None:
    seen: list[Any] = []

    def account(request: Any) -> Account:
        seen.append(request.request_id)
        return Account(user="ops")

    server = mcp_server(core.ToolGroup.from_list([greet, crash, shout]), context=account)

    async def body() -> tuple[Any, ...]:
        async with Client(server) as client:
            listed = await client.list_tools()
            calls = [
                await client.call_tool("greet", {"name": "Ada", "times": 2}),
                await client.call_tool("greet", {"name": 7}),
                await client.call_tool("crash", {}),
                await client.call_tool("nope", {}),
                await client.call_tool("shout", {"input": "quiet"}),
                await client.call_tool("greet", {"name": "still serving"}),
            ]
            return listed, calls

    listed, calls = run(body)
    assert [tool.model_dump(exclude_none=True) for tool in listed.tools] == snapshot(
        [
            {
                "name": "greet",
                "description": "Greet someone by name.",
                "input_schema": {
                    "properties": {
                        "name": {"type": "string"},
                        "times": {"default": 1, "type": "integer"},
                    },
                    "required": ["name"],
                    "type": "object",
                },
            },
            {
                "name": "crash",
                "description": "A tool with a bug.",
                "input_schema": {"properties": {}, "type": "object"},
            },
            {
                "name": "shout",
                "description": "Repeat the text in capitals.",
                "input_schema": {
                    "type": "object",
                    "properties": {
                        "input": {"type": "string", "description": "The tool's free-text input."}
                    },
                    "required": ["input"],
                },
            },
        ]
    )
    answers = [(c.is_error, [block.model_dump()["text"] for block in c.content]) for c in calls]
    assert answers == snapshot(
        [
            (False, ["Hello Ada, from ops. Hello Ada, from ops."]),
            (
                True,
                [
                    """\
Invalid arguments for 'greet': 1 error. Fix them and call the tool again.
- name: Input should be a valid string (got 7)\
"""
                ],
            ),
            (
                True,
                [
                    "This call failed with an internal error; its details are hidden. Tell the user, or try again if it is safe to repeat."
                ],
            ),
            (
                True,
                [
                    "Unknown tool 'nope'. Available tools: crash, greet, shout. Call one of them by its exact name."
                ],
            ),
            (False, ["QUIET"]),
            (False, ["Hello still serving, from ops."]),
        ]
    )
    assert "secret" not in str(answers)
    assert len(seen) == 6  # the context factory ran once per call


def test_rich_results_become_mcp_content_blocks() -> None:
    server = mcp_server(aio.ToolGroup.from_list([picture]))

    async def body() -> Any:
        async with Client(server) as client:
            return await client.call_tool("picture", {})

    result = run(body)
    assert [block.model_dump(exclude_none=True) for block in result.content] == snapshot(
        [
            {"type": "text", "text": "A pixel:"},
            {
                "type": "image",
                "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mOQL9/yHwAETQJKzB21+gAAAABJRU5ErkJggg==",
                "mime_type": "image/png",
            },
            {
                "type": "resource",
                "resource": {
                    "uri": "toolwire://result/pixel.txt",
                    "mime_type": "text/plain",
                    "text": "pixel = 1\n",
                },
            },
            {"type": "audio", "data": "UklGRg==", "mime_type": "audio/wav"},
            {
                "name": "https://example.com/a.pdf",
                "uri": "https://example.com/a.pdf",
                "mime_type": "application/pdf",
                "type": "resource_link",
            },
            {
                "type": "image",
                "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mOQL9/yHwAETQJKzB21+gAAAABJRU5ErkJggg==",
                "mime_type": "image/png",
            },
        ]
    )


def test_a_toolwire_client_of_a_toolwire_server_over_stdio() -> None:
    """examples/mcp_server.py in a subprocess: its image arrives as an image part and
    reaches each API as an image."""

    async def body() -> tuple[Any, ...]:
        async with Client(example_server()) as client:
            shop = await MCPTools.load(client, prefix="shop_", timeout=20)
            group = aio.ToolGroup.from_list(shop.tools)
            results = await group.run_tool_calls(
                [
                    {"type": "tool_use", "id": "t1", "name": "shop_sales_chart", "input": {}},
                    {"type": "tool_use", "id": "t2", "name": "shop_lookup_order",
                     "input": {"order_id": "A-1002"}},
                    {"type": "tool_use", "id": "t3", "name": "shop_lookup_order",
                     "input": {"order_id": 3}},
                ],
                None,
            )  # fmt: skip
            return shop, results

    shop, (chart, order, wrong) = run(body)
    assert shop.server == "'shop'"
    assert chart.fail_reason is None
    assert chart.result_parts == ("Sales by day, this month:", ImagePart(data=PNG, media_type="image/png"))  # fmt: skip
    assert (order.fail_reason, order.result_content) == (None, "Order A-1002: packing.")
    # Checked against the server's schema by the client: no round trip.
    assert wrong.fail_reason == "invalid_arguments"
    message: Any = tool_result_messages([chart], "anthropic")[0]
    blocks = message["content"][0]["content"]
    assert [block["type"] for block in blocks] == ["text", "image"]


def test_sync_tools_call_the_session_through_a_portal() -> None:
    """A `toolwire.core` group calling an MCP server: the session lives on the portal's
    event loop, the handlers block on it."""
    with anyio.from_thread.start_blocking_portal() as portal:
        client = portal.wrap_async_context_manager(Client(example_server()))
        with client as session:
            shop = portal.call(lambda: MCPTools.load(session, timeout=20))
            group = core.ToolGroup.from_list(shop.sync_tools(portal))
            results = group.run_tool_calls(
                [
                    {"id": "c1", "type": "function",
                     "function": {"name": "lookup_order", "arguments": '{"order_id": "A-1001"}'}},
                    {"id": "c2", "type": "function",
                     "function": {"name": "lookup_order", "arguments": '{"order_id": "Z"}'}},
                ],
                None,
            )  # fmt: skip
    assert [(r.fail_reason, r.result_content) for r in results] == [
        (None, "Order A-1001: shipped."),
        (
            "explicit_handler_error",
            "The tool 'lookup_order' reported an error: No order 'Z'; order numbers look like A-1001.",
        ),  # fmt: skip
    ]


def test_a_context_factory_is_required_unless_the_context_is_none() -> None:
    """Serving a group whose tools take a context without `context=` fails at once (it
    used to fail every call); a context of None, Optional or Any needs none."""
    with pytest.raises(ToolDefinitionError) as missing:
        mcp_server(core.ToolGroup.from_list([greet, crash]))  # pyright: ignore[reportArgumentType]
    assert str(missing.value) == snapshot(
        "greet takes a context of type Account, but mcp_server() was given no context=: each of its calls would get None. Pass context=, a function that makes the context for each call from the MCP request (e.g. context=lambda request: Account(...)); it may be async."
    )

    class maybe(aio.BaseFunctionToolModel[Account | None, None]):
        """Works with or without an account."""

        async def model_tool_handler(self, context: Account | None) -> tuple[str, None]:
            return f"for {context.user if context else 'anyone'}", None

    class anything(aio.BaseFunctionToolModel[Any, None]):
        """Takes whatever context."""

        async def model_tool_handler(self, context: Any) -> tuple[str, None]:
            return repr(context), None

    server = mcp_server(aio.ToolGroup.from_list([maybe, anything, picture]))

    async def body() -> list[str]:
        async with Client(server) as client:
            results = [await client.call_tool(name, {}) for name in ("maybe", "anything")]
        return [result.content[0].model_dump()["text"] for result in results]

    assert run(body) == ["for anyone", "None"]


class slow_write(aio.BaseFunctionToolModel[None, None]):
    """Append to the one log file: calls must not overlap."""

    model_tool_sequential = True
    line: str

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return await _visit("slow_write"), None


class slow_read(aio.BaseFunctionToolModel[None, None]):
    """Read, as often at once as asked."""

    line: str

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return await _visit("slow_read"), None


class sync_write(core.BaseFunctionToolModel[None, None]):
    """The same, written as a plain function (run in a worker thread)."""

    model_tool_sequential = True
    line: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return anyio.from_thread.run(_visit, "sync_write"), None


_inside: dict[str, int] = {}
_most: dict[str, int] = {}


async def _visit(name: str) -> str:
    """Stay a while, counting how many calls of `name` are inside at once."""
    _inside[name] = _inside.get(name, 0) + 1
    _most[name] = max(_most.get(name, 0), _inside[name])
    await anyio.sleep(0.05)
    _inside[name] -= 1
    return "done"


@pytest.mark.parametrize("kind", ["aio", "core"])
def test_a_sequential_tool_never_overlaps_when_served(kind: str) -> None:
    """A client sends calls in parallel: a `model_tool_sequential` tool's calls wait for
    each other, the other tools' run at once."""
    _inside.clear()
    _most.clear()
    if kind == "aio":
        server = mcp_server(aio.ToolGroup.from_list([slow_write, slow_read]))
        names = ["slow_write", "slow_read"]
    else:
        server = mcp_server(core.ToolGroup.from_list([sync_write]))
        names = ["sync_write"]

    async def body() -> list[Any]:
        results: list[Any] = []
        async with Client(server) as client:

            async def one(name: str, index: int) -> None:
                results.append(await client.call_tool(name, {"line": str(index)}))

            async with anyio.create_task_group() as tasks:
                for index in range(4):
                    for name in names:
                        tasks.start_soon(one, name, index)
        return results

    results = run(body)
    assert [result.is_error for result in results] == [False] * 4 * len(names)
    expected = {"slow_write": 1, "slow_read": 4} if kind == "aio" else {"sync_write": 1}
    assert _most == expected


@pytest.mark.parametrize("async_factory", [False, True])
def test_an_async_context_factory(async_factory: bool) -> None:
    async def make(request: Any) -> Account:
        return Account(user="async")

    def make_sync(request: Any) -> Account:
        return Account(user="sync")

    factory: Any = make if async_factory else make_sync
    server = mcp_server(core.ToolGroup.from_list([greet]), context=factory)

    async def body() -> Any:
        async with Client(server) as client:
            return await client.call_tool("greet", {"name": "Ada"})

    result = run(body)
    expected = "async" if async_factory else "sync"
    assert result.content[0].model_dump()["text"] == f"Hello Ada, from {expected}."


HTTP_SERVER = """
import sys, uvicorn
from toolwire.core import BaseFunctionToolModel, ToolGroup
from toolwire.mcp import mcp_server

class add(BaseFunctionToolModel[None, None]):
    '''Add two integers.'''
    a: int
    b: int
    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return str(self.a + self.b), None

app = mcp_server(ToolGroup.from_list([add]), name="adder").streamable_http_app()
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_group_served_over_streamable_http() -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", HTTP_SERVER, str(port)])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, "the HTTP server exited"
                assert time.monotonic() < deadline, "the HTTP server did not start"
                time.sleep(0.1)

        async def body() -> tuple[Any, ...]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                adder = await MCPTools.load(client, timeout=20)
                group = aio.ToolGroup.from_list(adder.tools)
                calls = [
                    {"type": "tool_use", "id": "t1", "name": "add", "input": {"a": 2, "b": 3}},
                    {"type": "tool_use", "id": "t2", "name": "add", "input": {"a": "x"}},
                ]
                return adder.server, await group.run_tool_calls(calls, None)

        server, (ok, bad) = run(body)
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert server == "'adder'"
    assert (ok.fail_reason, ok.result_content) == (None, "5")
    assert bad.fail_reason == "invalid_arguments"
