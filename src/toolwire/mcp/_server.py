"""A `ToolGroup` served to MCP clients (editors, desktop assistants, other agents).

Every call goes through the same pipeline as a call from a model API: argument
limits, validation with bounded error texts, one result per call. A failure is an
`isError` result the client's model reads, never a protocol error that ends its turn;
an unexpected handler exception is answered with a generic failure (and logged), so
one bad call never takes the server down.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias, TypeVar, cast, overload

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from .. import _aio, _core
from .._call import StandardToolCall
from .._result import ToolCallResult
from .._tool import CustomToolModel, FunctionToolModel, ToolModel
from ._content import mcp_content

__all__ = ["mcp_server", "run_stdio"]

_log = logging.getLogger("toolwire.mcp")

ContextIn = TypeVar("ContextIn")

AnyGroup: TypeAlias = "_core.ToolGroup[Any, Any] | _aio.ToolGroup[Any, Any]"
RequestContext: TypeAlias = "ServerRequestContext[Any, Any]"
_CUSTOM_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"input": {"type": "string", "description": "The tool's free-text input."}},
    "required": ["input"],
}


@overload
def mcp_server(
    group: _core.ToolGroup[None, Any] | _aio.ToolGroup[None, Any],
    *,
    name: str = "toolwire",
    version: str = "",
    instructions: str | None = None,
) -> Server[Any]: ...
@overload
def mcp_server(
    group: _core.ToolGroup[ContextIn, Any] | _aio.ToolGroup[ContextIn, Any],
    *,
    context: Callable[[RequestContext], ContextIn | Awaitable[ContextIn]],
    name: str = "toolwire",
    version: str = "",
    instructions: str | None = None,
) -> Server[Any]: ...
def mcp_server(
    group: AnyGroup,
    *,
    context: Callable[[RequestContext], Any] | None = None,
    name: str = "toolwire",
    version: str = "",
    instructions: str | None = None,
) -> Server[Any]:
    """An MCP server (the SDK's low-level `Server`) offering the group's tools.

    Args:
        group: a `toolwire.core` or `toolwire.aio` `ToolGroup`. Core handlers run in a
            worker thread, so they never block the server's event loop.
        context: called once per tool call with the MCP request context (its session,
            request id and, over HTTP, the request), returning the handler's context.
            Needed unless the group's context type is None. May be `async`.
        name, version, instructions: what the server tells clients about itself.

    Serve it with `run_stdio(server)`, or over streamable HTTP with the SDK's
    `server.streamable_http_app()` (an ASGI app for uvicorn and friends).
    """
    tools = [_listed(tool) for tool in group.values()]
    is_aio = isinstance(group, _aio.ToolGroup)

    async def list_tools(
        ctx: RequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: RequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = group.get(params.name)
        arguments: Any = params.arguments or {}
        custom = tool is not None and issubclass(tool, CustomToolModel)
        call = StandardToolCall(
            "custom" if custom else "function",
            str(ctx.request_id) if ctx.request_id is not None else "mcp",
            params.name,
            arguments.get("input", "") if custom else arguments,
        )
        handler_context = None if context is None else context(ctx)
        if inspect.isawaitable(handler_context):
            handler_context = await handler_context
        if is_aio:
            aio_group = cast("_aio.ToolGroup[Any, Any]", group)
            results = await aio_group.run_tool_calls(
                [call], handler_context, unexpected_errors="fail"
            )
        else:
            core_group = cast("_core.ToolGroup[Any, Any]", group)
            results = await anyio.to_thread.run_sync(
                lambda: core_group.run_tool_calls([call], handler_context, unexpected_errors="fail")
            )
        return _answer(results[0])

    return Server(
        name,
        version=version,
        instructions=instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _listed(tool: type[ToolModel]) -> types.Tool:
    """A tool as MCP lists it: name, description and the JSON schema of its arguments."""
    if issubclass(tool, FunctionToolModel):
        definition = tool.model_tool_standard_definition()
        schema = definition.json_schema
    else:
        definition = cast("type[CustomToolModel]", tool).model_tool_standard_definition()
        schema = dict(_CUSTOM_INPUT_SCHEMA)
    return types.Tool(
        name=tool.model_tool_name(),
        description=definition.description or None,
        input_schema=schema,
    )


def _answer(result: ToolCallResult[Any]) -> types.CallToolResult:
    """A toolwire result as MCP's: failures as `isError` results with their text."""
    if result.fail_reason is not None:
        if result.exception is not None and result.fail_reason == "unexpected_error":
            _log.error("tool %r raised", result.name, exc_info=result.exception)
        return types.CallToolResult(
            content=[types.TextContent(text=result.result_content)], is_error=True
        )
    return types.CallToolResult(content=mcp_content(result.result_parts, result.result_content))


def run_stdio(server: Server[Any]) -> None:
    """Serve over this process's stdin and stdout until the client closes them (the
    way editors and desktop assistants start a server). Blocks; logs go to stderr."""

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)
