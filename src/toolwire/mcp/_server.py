"""A `ToolGroup` served to MCP clients (editors, desktop assistants, other agents).

Every call goes through the same pipeline as a call from a model API: argument
limits, validation with bounded error texts, one result per call. A failure is an
`isError` result the client's model reads, never a protocol error that ends its turn;
an unexpected handler exception is answered with a generic failure (and logged), so
one bad call never takes the server down. Clients may send calls in parallel: they run
concurrently, except that the calls of a `model_tool_sequential` tool wait for each
other, as in a batch.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import types as python_types
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias, TypeVar, Union, cast, get_args, get_origin, overload

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
from ..exceptions import ToolDefinitionError
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
    if context is None:
        _refuse_missing_context(group)
    tools = [_listed(tool) for tool in group.values()]
    is_aio = isinstance(group, _aio.ToolGroup)
    # One lock per sequential tool: its calls never overlap, whichever request they come in.
    in_turn = {name: anyio.Lock() for name, tool in group.items() if tool.model_tool_sequential}

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
        lock = in_turn.get(params.name)
        async with lock if lock is not None else contextlib.nullcontext():
            if is_aio:
                aio_group = cast("_aio.ToolGroup[Any, Any]", group)
                results = await aio_group.run_tool_calls(
                    [call], handler_context, unexpected_errors="fail"
                )
            else:
                core_group = cast("_core.ToolGroup[Any, Any]", group)
                results = await anyio.to_thread.run_sync(
                    lambda: core_group.run_tool_calls(
                        [call], handler_context, unexpected_errors="fail"
                    )
                )
        return _answer(results[0])

    return Server(
        name,
        version=version,
        instructions=instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _refuse_missing_context(group: AnyGroup) -> None:
    """Raise `ToolDefinitionError` when a tool of `group` takes a context that cannot be
    None, since without `context=` every call would hand it None."""
    for tool in group.values():
        needed = _context_type(tool)
        if needed is not None:
            raise ToolDefinitionError(
                f"{tool.__name__} takes a context of type {needed}, but mcp_server() was given "
                "no context=: each of its calls would get None. Pass context=, a function "
                "that makes the context for each call from the MCP request (e.g. "
                f"context=lambda request: {needed}(...)); it may be async."
            )


def _context_type(tool: type[ToolModel]) -> str | None:
    """The name of the context type `tool` declares (`BaseFunctionToolModel[Account,
    ...]`) when None is not one (not None, Optional, Any, object or a type variable)."""
    for base in tool.__mro__:
        metadata = getattr(base, "__pydantic_generic_metadata__", None)
        arguments = metadata["args"] if metadata else ()
        if not arguments:
            continue
        declared = arguments[0]
        if declared is None or declared is type(None) or declared is Any or declared is object:
            return None
        if isinstance(declared, TypeVar):
            return None
        if get_origin(declared) in (Union, python_types.UnionType) and type(None) in get_args(declared):  # fmt: skip
            return None
        return getattr(declared, "__name__", None) or repr(declared)
    return None


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
