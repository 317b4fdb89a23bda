"""toolwire against the TypeScript side of MCP, nothing of which was written here: the
reference servers `@modelcontextprotocol/server-filesystem`, `-everything` and
`-memory` as toolwire's clients' servers, and the TypeScript SDK's client calling a
toolwire server. Each started as a subprocess over stdio, at the versions pinned in
tests/mcp/node/package-lock.json."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inline_snapshot import snapshot
from mcp import Client

from examples.mcp_server import PIXEL
from toolwire.aio import ToolGroup, tool_result_messages
from toolwire.core import FilePart, ImagePart
from toolwire.exceptions import ToolwireWarning
from toolwire.mcp import MCPTools

from .servers import ROOT, call, node_client, node_server, run
from .test_serving import png_pixels


def outcome(results: list[Any]) -> list[tuple[str, str | None]]:
    return [(r.call_id, r.fail_reason) for r in results]


def test_filesystem_media_reaches_the_model_once(tmp_path: Path) -> None:
    """server-filesystem's `read_media_file` repeats its image block as structured
    content: the model gets the image, not the image plus its base64 as text."""
    (tmp_path / "chart.png").write_bytes(PIXEL)
    (tmp_path / "notes.txt").write_text("first\nsecond\n")
    folder = str(tmp_path)

    async def body() -> tuple[MCPTools, list[Any]]:
        async with Client(node_server("mcp-server-filesystem", folder)) as client:
            loaded = await MCPTools.load(client, prefix="fs_", timeout=20)
            group = ToolGroup.from_list(loaded.tools)
            calls = [
                call("m", "fs_read_media_file", {"path": f"{folder}/chart.png"}),
                call("t", "fs_read_text_file", {"path": f"{folder}/notes.txt", "head": 1}),
                call("l", "fs_list_directory", {"path": folder}),
                call("x", "fs_read_text_file", {"path": "/etc/passwd"}),
                call("w", "fs_write_file", {"path": f"{folder}/new.txt"}),
            ]
            return loaded, await group.run_tool_calls(calls, None)

    loaded, results = run(body)
    assert loaded.skipped == {}
    media, text, listing, outside, missing = results
    assert outcome(results) == [
        ("m", None),
        ("t", None),
        ("l", None),
        ("x", "explicit_handler_error"),
        ("w", "invalid_arguments"),
    ]
    assert media.result_parts == (ImagePart(data=PIXEL, media_type="image/png"),)
    encoded = base64.b64encode(PIXEL).decode()
    for api in ("chat.completions", "responses", "anthropic"):  # each sends the image once
        assert str(tool_result_messages([media], api)).count(encoded) == 1
    # Their structured content ({"content": <the text>}) only repeats the text block.
    assert text.result_content == "first"
    assert listing.result_content == "[FILE] chart.png\n[FILE] notes.txt"
    assert "outside allowed directories" in outside.result_content
    assert missing.result_content == snapshot("""\
Invalid arguments for 'fs_write_file': 1 error. Fix them and call the tool again.
- content: Field required\
""")


def test_everything_server_tools() -> None:
    """server-everything: its task-only tool is left out (as the official clients do),
    its image, structured content and blob resource arrive as parts."""

    async def body() -> tuple[MCPTools, list[Any]]:
        async with Client(node_server("mcp-server-everything")) as client:
            loaded = await MCPTools.load(client, timeout=20)
            group = ToolGroup.from_list(loaded.tools)
            calls = [
                call("e", "echo", {"message": "hi"}),
                call("s", "get-sum", {"a": 2, "b": 3.5}),
                call("w", "get-sum", {"a": "two", "b": 3}),
                call("i", "get-tiny-image"),
                call("c", "get-structured-content", {"location": "Chicago"}),
                call("b", "get-resource-reference", {"resourceType": "Blob", "resourceId": 2}),
            ]
            return loaded, await group.run_tool_calls(calls, None)

    with pytest.warns(ToolwireWarning, match="'simulate-research-query' was left out"):
        loaded, results = run(body)
    assert loaded.skipped == snapshot(
        {
            "simulate-research-query": 'it runs only as an MCP task (execution.taskSupport is "required"), and toolwire calls tools directly: every call would fail.'
        }
    )
    assert outcome(results) == [
        ("e", None),
        ("s", None),
        ("w", "invalid_arguments"),
        ("i", None),
        ("c", None),
        ("b", None),
    ]
    echo, total, _, tiny, structured, blob = results
    assert (echo.result_content, total.result_content) == (
        "Echo: hi",
        "The sum of 2 and 3.5 is 5.5.",
    )
    assert [type(part).__name__ for part in tiny.result_parts] == ["str", "ImagePart", "str"]
    assert json.loads(structured.result_content).keys() == {"temperature", "conditions", "humidity"}  # fmt: skip
    assert [type(part) for part in blob.result_parts] == [str, FilePart, str]


def test_memory_server_round_trip(tmp_path: Path) -> None:
    """server-memory's nested schemas (arrays of objects) go strict, and what one call
    writes the next reads."""
    memory = tmp_path / "memory.jsonl"

    async def body() -> tuple[MCPTools, list[Any]]:
        params = node_server("mcp-server-memory")
        params.env = {"MEMORY_FILE_PATH": str(memory), "PATH": "/usr/bin:/bin"}
        async with Client(params) as client:
            loaded = await MCPTools.load(client, prefix="kg_", timeout=20)
            group = ToolGroup.from_list(loaded.tools)
            entity = {"name": "Ada", "entityType": "person", "observations": ["writes code"]}
            calls = [
                call("a", "kg_create_entities", {"entities": [entity]}),
                call("b", "kg_search_nodes", {"query": "Ada"}),
                call("c", "kg_create_entities", {"entities": [{"name": "Bob"}]}),
            ]
            return loaded, await group.run_tool_calls(calls, None, max_concurrency=1)

    loaded, results = run(body)
    assert all(tool.model_tool_strict for tool in loaded.tools)
    assert outcome(results) == [("a", None), ("b", None), ("c", "invalid_arguments")]
    assert "writes code" in results[1].result_content
    assert results[2].result_content == snapshot("""\
Invalid arguments for 'kg_create_entities': 2 errors. Fix them and call the tool again.
- entities[0].entityType: Field required
- entities[0].observations: Field required\
""")


def test_the_typescript_client_calls_a_toolwire_server() -> None:
    """examples/mcp_server.py, called by the TypeScript SDK's client (which checks every
    reply against MCP's schema): its image arrives whole, as the PNG its bytes are."""
    plan: dict[str, Any] = {
        "command": sys.executable,
        "args": [str(ROOT / "examples" / "mcp_server.py"), "--stdio"],
        "calls": [
            ["lookup_order", {"order_id": "A-1001"}],
            ["lookup_order", {}],
            ["sales_chart", {}],
        ],  # fmt: skip
    }
    done = subprocess.run(
        [*node_client(), json.dumps(plan)], capture_output=True, text=True, timeout=60, check=True
    )
    got = json.loads(done.stdout)
    assert [tool["name"] for tool in got["tools"]] == ["lookup_order", "sales_chart"]
    found, missing, chart = got["results"]
    assert found["content"] == [{"type": "text", "text": "Order A-1001: shipped."}]
    assert (found["isError"], missing["isError"]) == (False, True)
    caption, image = chart["content"]
    assert caption == {"type": "text", "text": "Sales by day, this month:"}
    assert image["type"] == "image" and image["mimeType"] == "image/png"
    assert png_pixels(base64.b64decode(image["data"])) == [[(0x1F, 0x77, 0xB4, 0xFF)]]
