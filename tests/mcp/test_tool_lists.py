"""Which of a server's tools reach the model, and as what: schemas with references
outside `$defs` (draft-07, zod) load for every API; a tool only some APIs can take is
left out of those APIs' groups only; tools that run only as MCP tasks are left out; a
`tools/list` whose pages never end stops with a clear error. Against the SDK's own
server, in process."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import mcp_types as types
import pytest
from inline_snapshot import snapshot
from mcp import Client
from mcp.server.lowlevel import Server

from toolwire import core
from toolwire.aio import ToolGroup
from toolwire.exceptions import MCPServerError, SchemaError, ToolDefinitionError, ToolwireWarning
from toolwire.mcp import MCPTools

from .servers import call, lowlevel_server, run

DRAFT_07 = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"owner": {"$ref": "#/definitions/Person"}},
    "required": ["owner"],
    "definitions": {
        "Person": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        }
    },
}
"""How zod-to-json-schema and pydantic v1 write a shared schema."""
ZOD_REUSE = {
    "type": "object",
    "properties": {
        "from": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
        "to": {"$ref": "#/properties/from"},
    },
    "required": ["from", "to"],
    "additionalProperties": False,
}
"""zod's default for a schema used twice: a pointer to its first use."""
RECURSIVE_ROOT = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#"}},
    },
    "required": ["name"],
    "additionalProperties": False,
}
REQUIRED_RECURSION = {
    "type": "object",
    "properties": {"chain": {"$ref": "#/$defs/Link"}},
    "required": ["chain"],
    "$defs": {
        "Link": {
            "type": "object",
            "properties": {"next": {"$ref": "#/$defs/Link"}},
            "required": ["next"],
        }
    },
}
"""A recursive field that is required: Gemini takes recursion through optional fields
only, the other APIs take it."""


def echo(tools: list[types.Tool]) -> Server[Any]:
    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        text = json.dumps(arguments, sort_keys=True)
        return types.CallToolResult(content=[types.TextContent(text=text)])

    return lowlevel_server(tools, answer, name="shapes")


def test_references_outside_defs_load_strict_for_every_api() -> None:
    tools = [
        types.Tool(name=name, input_schema=schema)
        for name, schema in [("draft", DRAFT_07), ("zod", ZOD_REUSE), ("tree", RECURSIVE_ROOT)]
    ]

    async def body() -> tuple[MCPTools, list[Any]]:
        async with Client(echo(tools)) as client:
            loaded = await MCPTools.load(client)
            group = ToolGroup.from_list(loaded.tools)
            for api in ("chat.completions", "responses", "anthropic", "gemini"):
                group.tool_definitions(api)
            calls = [
                call("d1", "draft", {"owner": {"name": "Ann"}}),
                call("d2", "draft", {"owner": {"name": "Ann", "age": 3}}),
                call("z1", "zod", {"from": {"city": "Oslo"}, "to": {"town": "Rome"}}),
                call("t1", "tree", {"name": "a", "children": [{"name": "b", "children": []}]}),
            ]
            return loaded, await group.run_tool_calls(calls, None)

    loaded, results = run(body)
    assert loaded.skipped == {}
    assert [(t.model_tool_strict, t.mcp_unsupported) for t in loaded.tools] == [(True, {})] * 3
    draft = loaded.tools[0]
    parameters: Any = draft.model_tool_definition("chat.completions")["function"].get("parameters")
    assert parameters == snapshot(
        {
            "$defs": {
                "Person": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                    "additionalProperties": False,
                }
            },
            "type": "object",
            "properties": {"owner": {"$ref": "#/$defs/Person"}},
            "required": ["owner"],
            "additionalProperties": False,
        }
    )
    assert draft.mcp_tool.input_schema == DRAFT_07  # the server's own schema, unchanged
    assert [(r.call_id, r.fail_reason, r.result_content) for r in results] == snapshot(
        [
            ("d1", None, '{"owner": {"name": "Ann"}}'),
            (
                "d2",
                "invalid_arguments",
                """\
Invalid arguments for 'draft': 1 error. Fix them and call the tool again.
- owner.age: Extra inputs are not permitted\
""",
            ),
            (
                "z1",
                "invalid_arguments",
                """\
Invalid arguments for 'zod': 2 errors. Fix them and call the tool again.
- to.city: Field required
- to.town: Extra inputs are not permitted\
""",
            ),
            ("t1", None, '{"children": [{"children": [], "name": "b"}], "name": "a"}'),
        ]
    )


def test_a_tool_only_some_apis_can_take_is_left_out_of_their_groups_only() -> None:
    tools = [
        types.Tool(name="chain", input_schema=REQUIRED_RECURSION),
        types.Tool(name="plain", input_schema={"type": "object", "properties": {}}),
    ]

    async def body() -> MCPTools:
        async with Client(echo(tools)) as client:
            return await MCPTools.load(client)

    loaded = run(body)
    chain, plain = loaded.tools
    assert loaded.skipped == {}
    assert list(chain.mcp_unsupported) == ["gemini"]
    assert chain.mcp_unsupported["gemini"] == snapshot(
        "Cannot build the gemini (non-strict) schema: field 'chain.next' is required and refers back to its own model; gemini takes recursive references only in properties that are not required (a nullable but required field is not enough). Way out: give the field a default (e.g. `= []`, `= None`) so it is optional."
    )
    assert plain.mcp_unsupported == {}
    assert [t.model_tool_name() for t in loaded.tools_for("gemini")] == ["plain"]
    assert [t.model_tool_name() for t in loaded.tools_for("anthropic")] == ["chain", "plain"]
    assert chain.model_tool_definition("anthropic")["name"] == "chain"
    with pytest.raises(SchemaError, match="Cannot build the gemini"):
        chain.model_tool_definition("gemini")
    ToolGroup.from_list(loaded.tools_for("gemini")).tool_definitions("gemini")


def test_tools_that_run_only_as_tasks_are_left_out() -> None:
    """`execution.taskSupport: "required"` (MCP 2025-11-25): every direct call would
    fail, so the tool is left out and reported, as the official clients do."""
    tools = [
        types.Tool(
            name="research",
            input_schema={"type": "object"},
            execution=types.ToolExecution(task_support="required"),
        ),
        types.Tool(
            name="lookup",
            input_schema={"type": "object"},
            execution=types.ToolExecution(task_support="optional"),
        ),
    ]

    async def body() -> MCPTools:
        # A 2025-11-25 session: the protocol that has tasks.
        async with Client(echo(tools), mode="legacy") as client:
            return await MCPTools.load(client)

    with pytest.warns(ToolwireWarning, match="'research' was left out: it runs only as an MCP task"):  # fmt: skip
        loaded = run(body)
    assert [t.model_tool_name() for t in loaded.tools] == ["lookup"]
    assert loaded.skipped == snapshot(
        {
            "research": 'it runs only as an MCP task (execution.taskSupport is "required"), and toolwire calls tools directly: every call would fail.'
        }
    )


def repeated(cursor: str | None) -> str:
    return "again"


def endless(cursor: str | None) -> str:
    return str(int(cursor or 0) + 1)


def paged_server(next_cursor: Callable[[str | None], str]) -> Server[Any]:
    """A server whose `tools/list` pages go on with `next_cursor(cursor)`."""

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:  # fmt: skip
        cursor = params.cursor if params is not None else None
        page = [types.Tool(name=f"tool_{cursor or 0}", input_schema={"type": "object"})]
        return types.ListToolsResult(tools=page, next_cursor=next_cursor(cursor))

    return Server("paged", on_list_tools=list_tools)


@pytest.mark.parametrize(
    ("pages", "message"),
    [
        (repeated, "sent the tools/list cursor 'again' a second time"),
        (endless, "sent 1000 pages of tools/list"),
    ],
    ids=["repeated", "endless"],
)
def test_a_tool_list_that_never_ends_stops_with_a_clear_error(
    pages: Callable[[str | None], str], message: str
) -> None:
    async def body() -> MCPServerError:
        async with Client(paged_server(pages)) as client:
            with pytest.raises(MCPServerError) as raised:
                await MCPTools.load(client)
            return raised.value

    error = run(body)
    assert str(error).startswith(f"The MCP server 'paged' {message}")


def test_failures_name_the_tool_as_the_model_called_it() -> None:
    """With a prefix, the model knows the tool as `srv_...`: every text says that name."""

    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name == "broken":
            from mcp import MCPError

            raise MCPError(-32603, "database unavailable")
        return types.CallToolResult(content=[types.TextContent(text="disk full")], is_error=True)

    tools = [types.Tool(name=n, input_schema={"type": "object"}) for n in ("broken", "full")]

    async def body() -> list[Any]:
        async with Client(lowlevel_server(tools, answer)) as client:
            loaded = await MCPTools.load(client, prefix="srv_")
            group = ToolGroup.from_list(loaded.tools)
            return await group.run_tool_calls(
                [call("a", "srv_broken"), call("b", "srv_full")], None
            )

    assert [r.result_content for r in run(body)] == snapshot(
        [
            "The MCP server 'odd' could not run 'srv_broken': database unavailable",
            "The tool 'srv_full' reported an error: disk full",
        ]
    )


def test_mcp_tools_in_the_other_namespace_say_where_theirs_are() -> None:
    async def body() -> MCPTools:
        async with Client(echo([types.Tool(name="t", input_schema={"type": "object"})])) as client:
            return await MCPTools.load(client)

    loaded = run(body)
    with pytest.raises(ToolDefinitionError) as in_core:
        core.ToolGroup.from_list(loaded.tools)  # pyright: ignore[reportArgumentType]
    with pytest.raises(ToolDefinitionError) as in_aio:
        ToolGroup.from_list(loaded.sync_tools(portal=None))  # pyright: ignore[reportArgumentType]
    assert [str(in_core.value), str(in_aio.value)] == snapshot(
        [
            "t is a toolwire.aio tool but this is a toolwire.core ToolGroup. For a toolwire.core group, take the server's tools from `server.sync_tools(portal)` (see MCPTools.sync_tools).",
            "t is a toolwire.core tool but this is a toolwire.aio ToolGroup. For a toolwire.aio group, take the server's tools from `server.tools`.",
        ]
    )


def test_a_deferred_server_s_tools_load_through_tool_search() -> None:
    """`defer_loading=True` marks every tool of the server deferred: Responses and
    Anthropic get `defer_loading: true`, Chat Completions leaves them out until loaded;
    the group's tool search finds them, and a found tool's call runs on the server."""
    tools = [
        types.Tool(name="get_weather", description="Weather of a city.", input_schema=ZOD_REUSE),
        types.Tool(name="get_rate", description="Exchange rate.", input_schema=DRAFT_07),
    ]

    async def body() -> tuple[list[Any], list[Any], list[str], Any, Any]:
        async with Client(echo(tools)) as client:
            loaded = await MCPTools.load(client, defer_loading=True)
            group = ToolGroup.from_list(loaded.tools)
            group.add_tool_search(execution="client")
            responses: list[Any] = group.tool_definitions("responses")
            anthropic: list[Any] = group.tool_definitions("anthropic")
            chat_tools: list[Any] = group.tool_definitions("chat.completions")
            chat: list[str] = [d["function"]["name"] for d in chat_tools]
            search = {"id": "s1", "type": "function", "function": {"name": "tool_search", "arguments": '{"queries": "weather"}'}}  # fmt: skip
            found = await group.run_tool_calls([search], None, api="chat.completions")
            weather = call("w1", "get_weather", {"from": {"city": "Oslo"}, "to": {"city": "Rome"}})
            ran = await group.run_tool_calls([weather], None)
            return responses, anthropic, chat, found[0].result_content, ran[0].result_content

    responses, anthropic, chat, found, ran = run(body)
    assert [(d.get("name"), d.get("defer_loading")) for d in responses] == snapshot(
        [("get_weather", True), ("get_rate", True), (None, None)]
    )
    assert [(d.get("name"), d.get("defer_loading")) for d in anthropic] == snapshot(
        [("get_weather", True), ("get_rate", True), ("tool_search", None)]
    )
    assert chat == snapshot(["tool_search"])
    assert json.loads(found) == snapshot(
        {"loaded_tools": [{"name": "get_weather", "description": "Weather of a city."}]}
    )
    assert ran == snapshot('{"from": {"city": "Oslo"}, "to": {"city": "Rome"}}')
