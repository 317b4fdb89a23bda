"""A server's `inputSchema` is untrusted input: its references never reach outside it
(no request, no file read, whichever keyword holds them), a schema the check cannot
apply fails its own call, and the check leaves to the server what it cannot judge
(ECMA-262 patterns, formats outside its list) while saying so in the schema report.
Each against the SDK's own server, started in process."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Generator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from inline_snapshot import snapshot
from mcp import Client

from toolwire.aio import ToolGroup
from toolwire.exceptions import ToolwireWarning
from toolwire.mcp import MCPTools

from .servers import call, lowlevel_server, run


class _Counter(BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:
        type(self).requests.append(self.path)
        body = b'{"type": "string"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/schema+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def counting_http_server() -> Generator[tuple[str, list[str]]]:
    """A local HTTP server that serves a schema at any path: its base URL, and the paths
    it was asked for."""
    requests: list[str] = []
    handler = type("Counter", (_Counter,), {"requests": requests})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        server.shutdown()
        server.server_close()


_watched: dict[str, list[str]] = {}


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and args and isinstance(args[0], str | bytes):
        path = args[0].decode() if isinstance(args[0], bytes) else args[0]
        if path in _watched:
            _watched[path].append(event)


sys.addaudithook(_audit)  # audit hooks stay for the process: it only reads `_watched`


@contextmanager
def opens_of(path: Path) -> Generator[list[str]]:
    """Every time this process opens `path` inside the block (Python's audit events see
    each `open`, whoever calls it: urllib for a `file:` URL too)."""
    seen: list[str] = []
    _watched[str(path)] = seen
    try:
        yield seen
    finally:
        del _watched[str(path)]


def tool(name: str, schema: dict[str, Any]) -> types.Tool:
    return types.Tool(name=name, input_schema={"type": "object", **schema})


def test_references_outside_the_schema_are_never_followed(tmp_path: Path) -> None:
    """A `$ref` (or `$dynamicRef`) to a URL or a file, under whichever keyword, leaves its
    tool out at load; nothing is requested or read, at load or when the other tools are
    called. A reference that loops fails its own call (the server never sees it)."""
    local = tmp_path / "schema.json"
    local.write_text('{"type": "string"}')
    called: list[str] = []

    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        called.append(name)
        return types.CallToolResult(content=[types.TextContent(text=f"{name} ran")])

    with counting_http_server() as (base, requests), opens_of(local) as opened:
        remote, file = f"{base}/schema.json", local.as_uri()
        tools = [
            tool("plain", {"properties": {"a": {"$ref": remote}}}),
            tool("under_not", {"not": {"$ref": remote}}),
            tool("under_if", {"if": {"$ref": file}, "then": {}}),
            tool("property_names", {"propertyNames": {"$ref": remote}}),
            tool("pattern_properties", {"patternProperties": {"^x": {"$ref": remote}}}),
            tool("dependent_schemas", {"dependentSchemas": {"a": {"$ref": file}}}),
            tool("dynamic_ref", {"properties": {"a": {"$dynamicRef": f"{remote}#meta"}}}),
            tool(
                "via_definitions",
                {
                    "$schema": "http://json-schema.org/draft-07/schema#",
                    "properties": {"a": {"$ref": "#/definitions/A"}},
                    "definitions": {"A": {"$ref": file}},
                },
            ),
            tool(
                "relative_to_a_nested_id",
                {
                    "$id": "https://tools.example/root.json",
                    "properties": {"a": {"$id": "sub/", "properties": {"b": {"$ref": "b.json"}}}},
                },
            ),
            tool(
                "into_a_keyword",
                {"properties": {"a": {"$ref": "#/properties/b/type"}, "b": {"type": "string"}}},
            ),
            tool(
                "inside",
                {
                    "$id": "https://tools.example/root.json",
                    "properties": {"a": {"$ref": "sub/b.json"}},
                    "$defs": {"b": {"$id": "sub/b.json", "type": "string"}},
                },
            ),
            tool(
                "looping",
                {
                    "properties": {"a": {"$ref": "#/$defs/A"}},
                    "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
                },
            ),
        ]
        server = lowlevel_server(tools, answer)

        async def body() -> tuple[MCPTools, list[Any]]:
            async with Client(server) as client:
                loaded = await MCPTools.load(client, prefix="srv_")
                group = ToolGroup.from_list(loaded.tools)
                calls = [
                    call("c1", "srv_inside", {"a": "text"}),
                    call("c2", "srv_looping", {"a": 1}),
                    call("c3", "srv_inside", {"a": 5}),
                ]
                return loaded, await group.run_tool_calls(calls, None)

        with pytest.warns(ToolwireWarning) as warned:
            loaded, results = run(body)
        assert (requests, opened) == ([], [])
    assert loaded.skipped == snapshot(
        {
            "plain": f"its inputSchema refers to '{remote}' ($ref), which is not inside it; only references inside the schema are followed.",
            "under_not": f"its inputSchema refers to '{remote}' ($ref), which is not inside it; only references inside the schema are followed.",
            "under_if": f"its inputSchema refers to '{file}' ($ref), which is not inside it; only references inside the schema are followed.",
            "property_names": f"its inputSchema refers to '{remote}' ($ref), which is not inside it; only references inside the schema are followed.",
            "pattern_properties": f"its inputSchema refers to '{remote}' ($ref), which is not inside it; only references inside the schema are followed.",
            "dependent_schemas": f"its inputSchema refers to '{file}' ($ref), which is not inside it; only references inside the schema are followed.",
            "dynamic_ref": f"its inputSchema refers to '{remote}#meta' ($dynamicRef), which is not inside it; only references inside the schema are followed.",
            "via_definitions": f"its inputSchema refers to '{file}' ($ref), which is not inside it; only references inside the schema are followed.",
            "relative_to_a_nested_id": "its inputSchema refers to 'b.json' ($ref), which is not inside it; only references inside the schema are followed.",
            "into_a_keyword": "its inputSchema refers to '#/properties/b/type' ($ref), which is not a schema; only references inside the schema are followed.",
        }
    )
    assert [str(w.message).split(":")[0] for w in warned] == [
        f"The MCP server 'odd''s tool {name!r} was left out" for name in loaded.skipped
    ]
    assert [t.model_tool_name() for t in loaded.tools] == ["srv_inside", "srv_looping"]
    assert [(r.call_id, r.fail_reason, r.result_content) for r in results] == snapshot(
        [
            ("c1", None, "inside ran"),
            (
                "c2",
                "explicit_handler_error",
                "The MCP server 'odd''s schema for 'srv_looping' cannot be applied to these arguments (its references loop without end or nest too deeply to follow), so the call was not sent. Do not call 'srv_looping' again in this conversation.",
            ),
            (
                "c3",
                "invalid_arguments",
                """\
Invalid arguments for 'srv_inside': 1 error. Fix them and call the tool again.
- a: 5 is not of type 'string' (got 5)\
""",
            ),
        ]
    )
    assert called == ["inside"]


def test_output_schemas_the_sdk_cannot_check_safely_leave_their_tool_out() -> None:
    """The SDK checks each result against the tool's `outputSchema`: one that refers
    outside itself (mcp 2.1 fetched it) or that the SDK refuses (a pattern Python cannot
    compile) would lose every answer, after the tool ran. Left out at load."""
    with counting_http_server() as (base, requests):
        tools = [
            types.Tool(
                name="remote_output",
                input_schema={"type": "object"},
                output_schema={"type": "object", "not": {"$ref": f"{base}/out.json"}},
            ),
            types.Tool(
                name="ecma_output",
                input_schema={"type": "object"},
                output_schema={
                    "type": "object",
                    "properties": {"name": {"pattern": "^\\p{L}+$"}},
                },  # fmt: skip
            ),
            types.Tool(
                name="fine_output",
                input_schema={"type": "object"},
                output_schema={"type": "object", "properties": {"n": {"type": "integer"}}},
            ),
        ]

        async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
            return types.CallToolResult(content=[], structured_content={"n": 1})

        async def body() -> tuple[MCPTools, list[Any]]:
            async with Client(lowlevel_server(tools, answer)) as client:
                loaded = await MCPTools.load(client)
                group = ToolGroup.from_list(loaded.tools)
                return loaded, await group.run_tool_calls([call("f", "fine_output")], None)

        with pytest.warns(ToolwireWarning):
            loaded, results = run(body)
        assert requests == []
    assert loaded.skipped == snapshot(
        {
            "remote_output": f"its outputSchema refers to '{base}/out.json' ($ref), which is not inside it, so its results cannot be checked safely.",
            "ecma_output": "its outputSchema is not valid JSON Schema ('^\\\\p{L}+$' is not a 'regex'), so the MCP SDK refuses every result it returns.",
        }
    )
    assert answers(results) == [("f", None, '{"n": 1}')]


def echo_server(tools: list[types.Tool]) -> Any:
    """A server whose tools answer with the arguments they received, as JSON."""

    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        text = json.dumps(arguments, sort_keys=True, ensure_ascii=False)
        return types.CallToolResult(content=[types.TextContent(text=text)])

    return lowlevel_server(tools, answer, name="echo")


def answers(results: list[Any]) -> list[tuple[str, str | None, str]]:
    return [(r.call_id, r.fail_reason, r.result_content) for r in results]


def test_ecma_patterns_load_and_are_left_to_the_server() -> None:
    """Patterns Python's `re` cannot compile (`\\p{L}`, `(?<year>...)`) no longer leave
    the tool out: the server judges them, while a pattern Python reads is still checked,
    and the report says which is which where an API drops the pattern."""
    tools = [
        tool(
            "register",
            {
                "properties": {
                    "name": {"type": "string", "pattern": "^\\p{L}+$"},
                    "year": {"type": "string", "pattern": "^(?<year>\\d{4})$"},
                    "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
                },
                "required": ["name"],
            },
        ),
        tool(
            "tag",
            {"patternProperties": {"^\\p{Lu}": {"type": "integer"}}, "additionalProperties": False},
        ),
    ]

    async def body() -> tuple[MCPTools, list[Any]]:
        async with Client(echo_server(tools)) as client:
            loaded = await MCPTools.load(client)
            group = ToolGroup.from_list(loaded.tools)
            calls = [
                call("r1", "register", {"name": "Zoë", "year": "1999", "code": "ABC"}),
                call("r2", "register", {"name": "123", "year": "99", "code": "abc"}),
                call("t1", "tag", {"Äpfel": 3, "lower": "x"}),
            ]
            return loaded, await group.run_tool_calls(calls, None)

    loaded, results = run(body)
    assert loaded.skipped == {}
    assert answers(results) == snapshot(
        [
            ("r1", None, '{"code": "ABC", "name": "Zoë", "year": "1999"}'),
            (
                "r2",
                "invalid_arguments",
                """\
Invalid arguments for 'register': 1 error. Fix them and call the tool again.
- code: 'abc' does not match '^[A-Z]{3}$' (got "abc")\
""",
            ),
            ("t1", None, '{"lower": "x", "Äpfel": 3}'),
        ]
    )
    register = loaded.tools[0]
    assert str(register.model_tool_schema_report("gemini")) == snapshot("""\
Schema report for gemini (non-strict): 3 changes, 3 lossy.
- name: pattern moved_to_description [lossy]: matches the regular expression ^\\p{L}+$: gemini does not take pattern, so it is stated in the description; the API no longer enforces it, and toolwire does not check this pattern, which Python cannot compile (the server does)
- year: pattern moved_to_description [lossy]: matches the regular expression ^(?<year>\\d{4})$: gemini does not take pattern, so it is stated in the description; the API no longer enforces it, and toolwire does not check this pattern, which Python cannot compile (the server does)
- code: pattern moved_to_description [lossy]: matches the regular expression ^[A-Z]{3}$: gemini does not take pattern, so it is stated in the description; the API no longer enforces it, toolwire's validation still does\
""")


def test_formats_are_checked_or_said_to_be_left_to_the_server() -> None:
    """The formats jsonschema checks without extra packages are checked before the call;
    `uri` and `date-time` go to the server as they are, and where an API drops them the
    report says toolwire does not check them."""
    tools = [
        tool(
            "contact",
            {
                "properties": {
                    "email": {"type": "string", "format": "email"},
                    "born": {"type": "string", "format": "date"},
                    "ip": {"type": "string", "format": "ipv4"},
                    "id": {"type": "string", "format": "uuid"},
                    "site": {"type": "string", "format": "uri"},
                    "seen": {"type": "string", "format": "date-time"},
                },
            },
        )
    ]
    wrong = {
        "email": "nobody",
        "born": "1999-02-30",
        "ip": "300.1.1.1",
        "id": "not-a-uuid",
        "site": "not a uri",
        "seen": "yesterday",
    }
    right = {
        "email": "ann@example.com",
        "born": "1999-02-28",
        "ip": "10.0.0.1",
        "id": "12345678-1234-5678-1234-567812345678",
        "site": "not a uri",
        "seen": "yesterday",
    }

    async def body() -> tuple[MCPTools, list[Any]]:
        async with Client(echo_server(tools)) as client:
            loaded = await MCPTools.load(client)
            group = ToolGroup.from_list(loaded.tools)
            calls = [call("w", "contact", wrong), call("r", "contact", right)]
            return loaded, await group.run_tool_calls(calls, None)

    loaded, (refused, sent) = run(body)
    assert (refused.fail_reason, refused.result_content) == snapshot(
        (
            "invalid_arguments",
            """\
Invalid arguments for 'contact': 4 errors. Fix them and call the tool again.
- email: 'nobody' is not a 'email' (got "nobody")
- born: '1999-02-30' is not a 'date' (got "1999-02-30")
- ip: '300.1.1.1' is not a 'ipv4' (got "300.1.1.1")
- id: 'not-a-uuid' is not a 'uuid' (got "not-a-uuid")\
""",
        )
    )
    assert (sent.fail_reason, json.loads(sent.result_content)) == (None, right)
    # Strict would drop `uri` from OpenAI's schema, and nothing else checks it.
    assert loaded.tools[0].mcp_strict_refused == snapshot("""\
chat.completions: Schema report for chat.completions (strict): 8 changes, 1 lossy.
- (root): additionalProperties closed: keys not listed are refused (strict mode closes every object)
- email: required made_required_nullable: now required and nullable; toolwire turns a null into its default
- born: required made_required_nullable: now required and nullable; toolwire turns a null into its default
- ip: required made_required_nullable: now required and nullable; toolwire turns a null into its default
- id: required made_required_nullable: now required and nullable; toolwire turns a null into its default
- site: required made_required_nullable: now required and nullable; toolwire turns a null into its default
- site: format moved_to_description [lossy]: in uri format: chat.completions does not take the format "uri", so it is stated in the description; the API no longer enforces it, and toolwire does not check the format 'uri' (the server does)
- seen: required made_required_nullable: now required and nullable; toolwire turns a null into its default\
""")


def test_a_null_for_a_field_with_a_default_restores_the_default() -> None:
    """Strict: every property is required and nullable, so the model sends null for
    "use the default". The plan leaves such a field out (the server applies its own
    default) unless the server's schema takes null itself."""
    tools = [
        tool(
            "search",
            {
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "default": 10},
                    "cursor": {"type": ["string", "null"], "default": "start"},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
        )
    ]

    async def body() -> tuple[MCPTools, list[Any]]:
        async with Client(echo_server(tools)) as client:
            loaded = await MCPTools.load(client)
            group = ToolGroup.from_list(loaded.tools)
            calls = [
                call("a", "search", {"query": "tea", "limit": None, "cursor": None}),
                call("b", "search", {"query": "tea", "limit": 3, "cursor": "p2"}),
            ]
            return loaded, await group.run_tool_calls(calls, None)

    loaded, results = run(body)
    search = loaded.tools[0]
    assert search.model_tool_strict
    parameters: Any = search.model_tool_definition("chat.completions")["function"].get("parameters")
    assert parameters["required"] == ["query", "limit", "cursor"]
    assert parameters["properties"]["limit"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]
    assert answers(results) == [
        ("a", None, '{"cursor": null, "query": "tea"}'),
        ("b", None, '{"cursor": "p2", "limit": 3, "query": "tea"}'),
    ]
