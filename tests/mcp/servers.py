"""Where the tests find the MCP servers they start, and how they connect to them.

The Python reference servers (`mcp-server-time`, `mcp-server-git`) are applications
with their own dependencies, so they live in their own virtual environment, as `uvx` or
a desktop assistant would install them: `.ci/run` makes `.venv-mcp-servers` beside the
project. Set TOOLWIRE_MCP_SERVERS to another folder of their executables to use it.
The TypeScript reference servers (`@modelcontextprotocol/server-everything`,
`-filesystem`, `-memory`) and the TypeScript SDK's client are npm packages, pinned in
tests/mcp/node/package-lock.json and installed beside it (`npm ci --prefix
tests/mcp/node`, which `.ci/run` does). TOOLWIRE_REQUIRE_MCP_SERVERS=1 (CI) turns a
missing server into a failure.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import anyio
import mcp_types as types
import pytest
from mcp import StdioServerParameters
from mcp.server.lowlevel import Server

ROOT = Path(__file__).resolve().parents[2]
INSTALL = (
    "python3 -m venv .venv-mcp-servers && "
    ".venv-mcp-servers/bin/pip install -r tests/mcp/servers.txt"
)
T = TypeVar("T")


def reference_server(name: str, *args: str) -> StdioServerParameters:
    """The command that starts the reference server `name` over stdio."""
    folders = [os.environ.get("TOOLWIRE_MCP_SERVERS"), str(ROOT / ".venv-mcp-servers" / "bin")]
    for folder in folders:
        if folder and (Path(folder) / name).is_file():
            return StdioServerParameters(command=str(Path(folder) / name), args=list(args))
    found = shutil.which(name)
    if found is not None:
        return StdioServerParameters(command=found, args=list(args))
    _missing(f"the MCP server {name} is not installed; from the project root: {INSTALL}")


NODE_PEERS = ROOT / "tests" / "mcp" / "node"
NODE_INSTALL = "npm ci --prefix tests/mcp/node"


def _missing(message: str) -> NoReturn:
    if os.environ.get("TOOLWIRE_REQUIRE_MCP_SERVERS") == "1":
        pytest.fail(message)
    pytest.skip(message)


def node() -> str:
    """The `node` executable (Node.js 18 or later), or skip (fail on CI)."""
    found = shutil.which("node")
    if found is None:
        _missing("Node.js is not installed: the TypeScript MCP peers need `node`")
    return found


def node_server(name: str, *args: str) -> StdioServerParameters:
    """The command that starts the TypeScript reference server `name` (an executable of
    tests/mcp/node's packages, e.g. `mcp-server-everything`) over stdio."""
    script = NODE_PEERS / "node_modules" / ".bin" / name
    if not script.is_file():
        _missing(f"the MCP server {name} is not installed; from the project root: {NODE_INSTALL}")
    return StdioServerParameters(command=node(), args=[str(script.resolve()), *args])


def node_client() -> list[str]:
    """The command that runs tests/mcp/node/client.mjs (the TypeScript SDK's client)."""
    if not (NODE_PEERS / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        _missing(f"the TypeScript MCP SDK is not installed; from the project root: {NODE_INSTALL}")
    return [node(), str(NODE_PEERS / "client.mjs")]


def example_server() -> StdioServerParameters:
    """examples/mcp_server.py, a toolwire group served over stdio."""
    script = ROOT / "examples" / "mcp_server.py"
    return StdioServerParameters(command=sys.executable, args=[str(script), "--stdio"])


def python_server(code: str) -> StdioServerParameters:
    """A toolwire group served over stdio by `code` (a script run with this Python)."""
    return StdioServerParameters(command=sys.executable, args=["-c", code])


def lowlevel_server(
    tools: list[types.Tool],
    answer: Callable[[str, dict[str, Any]], Awaitable[types.CallToolResult]] | None,
    name: str = "odd",
) -> Server[Any]:
    """The SDK's own low-level server (started in process by `Client(server)`), listing
    `tools` and answering each call with `await answer(name, arguments)`."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        assert answer is not None, "this server's tools are never called"
        return await answer(params.name, params.arguments or {})

    return Server(name, on_list_tools=list_tools, on_call_tool=call_tool)


def call(call_id: str, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    """An Anthropic `tool_use` block, as a dict (arguments arrive as a dict)."""
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments or {}}


def run(test: Callable[[], Awaitable[T]]) -> T:
    """Run one async test body on a fresh event loop, bounded in time."""

    async def bounded() -> Any:
        with anyio.fail_after(60):
            return await test()

    return anyio.run(bounded)
