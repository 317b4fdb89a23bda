"""An MCP server's tools as toolwire tools, in the caller's own loop.

Each server tool becomes a `toolwire.aio` tool class: its schema is the server's
`inputSchema`, compiled per API by toolwire's own compiler (strict where the schema
allows), arguments are checked against that schema before the server is called (see
`_arguments`: the schema is untrusted, and nothing outside it is ever resolved), and
whatever happens on the way (an `isError` result, a protocol error, a reply the SDK
cannot read, a dead server, a timeout) answers that one call; the rest of the batch keeps
its results.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast, get_args

import anyio
import mcp_types as types
import pydantic
from mcp import Client, ClientSession, MCPError
from mcp.shared.subscriptions import ToolsListChanged

from .._aio import BaseFunctionToolModel
from .._api import API_NAMES, Api, check_api
from .._batch import CallTimedOut
from .._budget import ResultBudget, check_group_budget
from .._core import BaseFunctionToolModel as SyncFunctionToolModel
from .._parts import ToolContent
from .._schema import InputPlan, compile_schema, input_plan
from ..exceptions import (
    DuplicateToolNameError,
    ErrorForLLMToSee,
    MCPServerError,
    SchemaError,
    ToolwireWarning,
)
from ._arguments import (
    ArgumentCheck,
    UncheckableArguments,
    output_schema_problem,
    problem,
    schema_problem,
    unchecked_by_toolwire,
    validation_error,
)
from ._content import result_parts
from ._portable import portable_schema

__all__ = ["MCPTool", "MCPTools", "SyncMCPTool"]

MCPSession = ClientSession | Client
"""A connected MCP client: the SDK's `Client`, or an initialized `ClientSession`."""

_NAME_LIMIT = 64
"""The shortest name limit of the four APIs (OpenAI and Gemini: 64 characters)."""
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_-]")
_CONNECTION_ERRORS = (
    MCPError,
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
    anyio.EndOfStream,
    OSError,
    TimeoutError,
)
"""What a call can raise when the server, not the arguments, is the problem."""
_BLOCK_TYPES = frozenset(
    tag
    for block in get_args(types.ContentBlock)
    for tag in get_args(block.model_fields["type"].annotation)
)
"""The `type` of every content block MCP defines ("text", "image", ...)."""
_DETAIL_LIMIT = 160
"""The longest piece of a bad reply's description quoted to the model."""
_SERVER_MESSAGE_LIMIT = 1000
"""The most of a server's protocol error message the model reads: servers put whole
stack traces there, and every character lands in the conversation."""


class _ServerTool:
    """What every class made for one server tool shares: the tool as listed, its name as
    the model calls it, the schema the APIs get, the session to call, and the argument
    checks (built on first use)."""

    __slots__ = ("_check", "_plan", "_plan_ready", "listed", "name", "schema", "tools")

    def __init__(self, tools: MCPTools, listed: types.Tool, name: str) -> None:
        self.tools = tools
        self.listed = listed
        self.name = name
        self.schema = portable_schema(listed.input_schema)
        self._check: ArgumentCheck | None = None
        self._plan: InputPlan | None = None
        self._plan_ready = False

    def arguments(self, data: object, strict: bool) -> tuple[dict[str, Any], str | None]:
        """The arguments to send: the model's object, with the strict input plan applied
        (a null for an optional field means "leave it out"), checked against the
        server's schema; and why the schema could not be applied, if it could not (the
        call is then not sent). Raises pydantic's `ValidationError` with one line per
        problem."""
        if strict:
            if not self._plan_ready:
                self._plan = input_plan(self.schema)
                self._plan_ready = True
            if self._plan is not None:
                data = self._plan.apply(data)
        if not isinstance(data, dict):
            raise validation_error(
                self.name, [problem((), "the arguments must be one JSON object", data)]
            )
        arguments = cast("dict[str, Any]", data)
        if self._check is None:
            self._check = ArgumentCheck(self.listed.input_schema)
        try:
            problems = self._check.problems(arguments)
        except UncheckableArguments as error:
            return arguments, str(error)
        if problems:
            raise validation_error(self.name, problems)
        return arguments, None

    async def call(self, arguments: dict[str, Any], unchecked: str | None) -> ToolContent:
        """Call the server, within the tools' `timeout`; its answer as parts, or
        `ErrorForLLMToSee` saying what failed (the SDK's own exception is its
        `__cause__`)."""
        server = self.tools.server
        if unchecked is not None:
            raise ErrorForLLMToSee(
                f"The MCP server {server}'s schema for {self.name!r} cannot be applied to "
                f"these arguments ({unchecked}), so the call was not sent. Do not call "
                f"{self.name!r} again in this conversation."
            )
        session = self.tools.session
        if isinstance(session, Client):
            # A closed `Client` raises RuntimeError here, before the call: that is the
            # caller's mistake, not the server's reply, so it must not become a failure.
            _ = session.session
        timeout = self.tools.timeout
        result: types.CallToolResult | None = None
        with anyio.move_on_after(math.inf if timeout is None else timeout):
            try:
                result = await session.call_tool(self.listed.name, arguments)
            except _CONNECTION_ERRORS as error:
                raise ErrorForLLMToSee(_failure(server, self.name, error)) from error
            except Exception as error:  # a reply it could not use (see `_unreadable`)
                raise ErrorForLLMToSee(_unreadable(server, self.name, error)) from error
        if result is None:  # the time was up: the SDK told the server to stop
            raise CallTimedOut(math.inf if timeout is None else timeout)
        parts = result_parts(result)
        if result.is_error:
            text = "\n".join(part for part in parts if isinstance(part, str))
            raise ErrorForLLMToSee(
                f"The tool {self.name!r} reported an error: {text or 'no details given.'}"
            )
        return parts if parts else "(the tool returned no content)"


def _failure(server: str, name: str, error: BaseException) -> str:
    if isinstance(error, MCPError) and error.error.code != types.CONNECTION_CLOSED:
        message = error.error.message
        if len(message) > _SERVER_MESSAGE_LIMIT:
            cut = len(message) - _SERVER_MESSAGE_LIMIT
            message = f"{message[:_SERVER_MESSAGE_LIMIT]}... ({cut:,} more characters)"
        return f"The MCP server {server} could not run {name!r}: {message}"
    if isinstance(error, TimeoutError):
        return f"The MCP server {server} did not answer {name!r} in time."
    if isinstance(error, MCPError):  # the connection closed while the call was out
        return (
            f"The connection to the MCP server {server} closed before it answered {name!r} "
            "(the tool may have run all the same). Do not call its tools again in this "
            "conversation."
        )
    return (
        f"The MCP server {server} is not reachable ({type(error).__name__}), so {name!r} "
        "did not run. Do not call its tools again in this conversation."
    )


def _unreadable(server: str, name: str, error: Exception) -> str:
    """The model's text for a reply the SDK could not use: what was wrong, in a few words
    (never the validation dump: that stays on the exception, for the developer).

    The SDK raises pydantic's `ValidationError` when the result does not parse (a content
    block of a type MCP does not define, `content` not a list), `RuntimeError` when it
    parses but cannot be used (`structuredContent` that breaks the tool's
    `outputSchema`, an input request a plain session cannot answer, an extension's result
    nobody claimed), and whatever else its checks of the server's data raise (a server
    may change its `outputSchema` after the tools were loaded): each is that one call's
    answer, never the batch's exception."""
    if isinstance(error, pydantic.ValidationError):
        problem = _reply_problem(error)
    else:
        problem = _short(str(error))
    return (
        f"The MCP server {server} sent an answer to {name!r} that this client cannot read "
        f"({problem}). The answer is lost, and the tool may have run all the same: do not "
        "call it again unless the user asks; tell them its result could not be read."
    )


def _reply_problem(error: pydantic.ValidationError) -> str:
    """A reply's first problem in one short line: a content block of a type MCP does not
    define (the usual case: a newer or non-conforming server), or where the result is
    malformed and how."""
    details = error.errors(include_url=False, include_context=False)
    for detail in details:
        loc, value = detail["loc"], detail["input"]
        unknown = isinstance(value, str) and value not in _BLOCK_TYPES
        if unknown and len(loc) >= 2 and loc[0] == "content" and loc[-1] == "type":
            return f"content[{loc[1]}] is a block of type {_short(value)!r}, which MCP does not define"  # fmt: skip
    first = details[0]
    where = ".".join(str(part) for part in first["loc"]) or "the result"
    more = len(details) - 1
    also = f"; {more} more problem{'s' if more > 1 else ''}" if more else ""
    return f"{_short(where)}: {_short(first['msg'])}{also}"


def _short(text: str) -> str:
    """`text`'s first line, cut to `_DETAIL_LIMIT` characters."""
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= _DETAIL_LIMIT else line[: _DETAIL_LIMIT - 3] + "..."


Context = TypeVar("Context")


class _ServerToolModel(pydantic.BaseModel):
    """What `MCPTool` and `SyncMCPTool` share: a model of whatever the server's schema
    says, checked against that schema as it validates, and the server's own view of the
    tool. Only the handler differs (awaited, or sent through the anyio portal)."""

    model_config = pydantic.ConfigDict(extra="allow")
    mcp_tool: ClassVar[types.Tool]
    """The tool as the server listed it."""
    mcp_strict_refused: ClassVar[str | None] = None
    """Why the tool is not strict (None when it is): the first API whose strict subset
    the server's schema does not fit, and why."""
    mcp_unsupported: ClassVar[Mapping[str, str]] = {}
    """The APIs that cannot take the tool's schema (API name -> why): its definition for
    them raises `SchemaError`. `MCPTools.tools_for(api)` leaves such tools out."""
    model_tool_strict: ClassVar[bool]  # the tool base's setting, decided per tool by MCPTools
    _mcp_server_tool: ClassVar[_ServerTool]
    _toolwire_unchecked = staticmethod(unchecked_by_toolwire)
    _mcp_unchecked: str | None = None

    @pydantic.model_validator(mode="wrap")
    @classmethod
    def _check_against_server_schema(
        cls, data: Any, handler: pydantic.ModelWrapValidatorHandler[Any]
    ) -> Any:
        """The arguments, checked against the server's schema, as an instance that knows
        whether they could be checked (see `_ServerTool.arguments`)."""
        arguments, unchecked = cls._mcp_server_tool.arguments(data, cls.model_tool_strict)
        tool = handler(arguments)
        tool._mcp_unchecked = unchecked
        return tool


class MCPTool(BaseFunctionToolModel[Context, Context], _ServerToolModel, Generic[Context]):
    """A tool of an MCP server (`toolwire.aio`): built by `MCPTools`, never by hand.

    Its fields are whatever the server's schema says; `model_extra` holds the
    arguments as checked against that schema.

    The server never sees the context: the handler returns the context it was given,
    so a success's `context` is the one passed to `run_tool_calls`. `MCPTools.tools`
    are `type[MCPTool[Any]]`, so they join a group of any context type and the group
    takes its types from your own tools (`ToolGroup.from_list([*server.tools, MyTool])`
    is a `ToolGroup[Session, Session]` when `MyTool` is). In a group whose tools
    return another type than they take, an MCP call's `context` is still the one it
    was given.
    """

    _toolwire_group_hint: ClassVar[str] = (
        "For a toolwire.core group, take the server's tools from "
        "`server.sync_tools(portal)` (see MCPTools.sync_tools)."
    )

    async def model_tool_handler(self, context: Context, /) -> tuple[ToolContent, Context]:
        server_tool = type(self)._mcp_server_tool
        return await server_tool.call(self.model_extra or {}, self._mcp_unchecked), context


class SyncMCPTool(SyncFunctionToolModel[Context, Context], _ServerToolModel, Generic[Context]):
    """A tool of an MCP server for `toolwire.core` groups: each call goes to the session
    through the anyio portal that runs it (see `MCPTools.sync_tools`).

    Like `MCPTool`, it returns the context it was given, and `sync_tools()` gives
    `type[SyncMCPTool[Any]]`, so the tools join a `toolwire.core` group of any context
    type."""

    _mcp_portal: ClassVar[Any]
    _toolwire_group_hint: ClassVar[str] = (
        "For a toolwire.aio group, take the server's tools from `server.tools`."
    )

    def model_tool_handler(self, context: Context, /) -> tuple[ToolContent, Context]:
        cls = type(self)
        arguments = self.model_extra or {}
        content = cls._mcp_portal.call(cls._mcp_server_tool.call, arguments, self._mcp_unchecked)
        return cast("ToolContent", content), context


class MCPTools:
    """The tools of one connected MCP server, as toolwire tool classes.

    Build it with `await MCPTools.load(session)`; put `.tools` in a `toolwire.aio`
    group next to your own tools (`ToolGroup.from_list([*server.tools, MyTool])`).

    Attributes:
        session: the MCP `Client` or `ClientSession` the calls go to.
        server: the server's name (from its handshake), used in failure texts.
        tools: one `MCPTool` class per server tool, in the server's order (typed
            `type[MCPTool[Any]]`: they fit a group of any context type, and return the
            context they are given).
        skipped: server tools left out (name -> why), each also warned: those whose
            schema no API can take or cannot be checked safely (a reference outside
            it), and those that run only as MCP tasks.
        changed: True once the server said its tool list changed (see `notice`);
            `refresh()` resets it.
        defer_loading: whether every tool is marked deferred (see `load`).
    """

    def __init__(
        self,
        session: MCPSession,
        *,
        prefix: str = "",
        timeout: float | None = 30.0,
        strict: bool | None = None,
        defer_loading: bool = False,
        result_budget: ResultBudget | None = None,
    ) -> None:
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout must be a positive number of seconds or None, not {timeout!r}.")  # fmt: skip
        self.session = session
        self.prefix = prefix
        self.timeout = timeout
        self.strict = strict
        self.defer_loading = defer_loading
        self.result_budget = check_group_budget(result_budget)
        self.server = _server_name(session)
        self.tools: list[type[MCPTool[Any]]] = []
        self.skipped: dict[str, str] = {}
        self.changed = False
        self._listed: list[types.Tool] = []

    @classmethod
    async def load(
        cls,
        session: MCPSession,
        *,
        prefix: str = "",
        timeout: float | None = 30.0,
        strict: bool | None = None,
        defer_loading: bool = False,
        result_budget: ResultBudget | None = None,
    ) -> MCPTools:
        """List the server's tools and build a class for each.

        Args:
            session: a connected `mcp.Client`, or an initialized `mcp.ClientSession`.
            prefix: put before every tool name (e.g. "git_"), to keep names apart
                from your own tools' and other servers'.
            timeout: seconds one call may take before it is answered with a
                "timeout" failure; None waits for ever.
            strict: None: strict (OpenAI `strict`, Anthropic strict tools) where the
                server's schema allows it, else not, with the reason on the class's
                `mcp_strict_refused`; True: strict or `SchemaError`; False: never.
            defer_loading: mark every tool of the server deferred
                (`model_tool_defer_loading`): the model finds them through the group's
                tool search (`add_tool_search`) instead of seeing them all up front.
            result_budget: how much of each tool's result the model reads (a
                `ResultBudget`, the tools' `model_tool_result_budget`); None: the
                group's budget applies, if it has one.
        """
        tools = cls(
            session,
            prefix=prefix,
            timeout=timeout,
            strict=strict,
            defer_loading=defer_loading,
            result_budget=result_budget,
        )
        await tools.refresh()
        return tools

    async def refresh(self) -> bool:
        """List the tools again (after the server said they changed) and rebuild
        `tools`. Returns whether the list differs; rebuild your group if it does."""
        listed = await _list_all(self.session, self.server)
        changed = listed != self._listed
        if changed or not self.tools:
            self.tools, self.skipped = self._build(listed)
            self._listed = listed
        self.changed = False
        return changed

    async def notice(self, message: object) -> None:
        """Forward the server's change messages here: the events of
        `client.listen(tools_list_changed=True)` (MCP 2026-07-28 sessions), or the
        session's `message_handler=` messages (older sessions, where servers send
        the notification unasked). A tool-list change sets `changed`, so your loop
        knows to `refresh()`."""
        if isinstance(message, types.ToolListChangedNotification | ToolsListChanged):
            self.changed = True

    def tools_for(self, api: Api) -> list[type[MCPTool[Any]]]:
        """`tools` without those whose schema `api` cannot take (their `mcp_unsupported`
        names it): what to put in a group whose definitions go to `api`."""
        api = check_api(api)
        return [tool for tool in self.tools if api not in tool.mcp_unsupported]

    def sync_tools(self, portal: Any) -> list[type[SyncMCPTool[Any]]]:
        """The same tools for a `toolwire.core` group. `portal` is the
        `anyio.from_thread.BlockingPortal` whose event loop runs the session: each call
        is sent through it and waits (at most `timeout` seconds, then a "timeout"
        failure) for the answer."""
        built: list[type[SyncMCPTool[Any]]] = []
        for tool in self.tools:
            namespace = _namespace(tool._mcp_server_tool)
            namespace |= {
                "model_tool_strict": tool.model_tool_strict,
                "mcp_strict_refused": tool.mcp_strict_refused,
                "mcp_unsupported": tool.mcp_unsupported,
                "_mcp_portal": portal,
            }
            built.append(
                cast("type[SyncMCPTool[Any]]", type(tool.__name__, (SyncMCPTool,), namespace))
            )
        return built

    def _build(
        self, listed: Sequence[types.Tool]
    ) -> tuple[list[type[MCPTool[Any]]], dict[str, str]]:
        built: list[type[MCPTool[Any]]] = []
        skipped: dict[str, str] = {}
        seen: dict[str, str] = {}
        for tool in listed:
            name = _api_name(self.prefix + tool.name)
            if name in seen:
                raise DuplicateToolNameError(
                    f"The MCP server {self.server} lists tools {seen[name]!r} and "
                    f"{tool.name!r}, which both become {name!r}. Load it with a different "
                    "prefix, or ask its authors to give each tool its own name."
                )
            seen[name] = tool.name
            server_tool = _ServerTool(self, tool, name)
            unsupported: dict[str, str] = {}
            problem = _left_out(tool)
            if problem is None:
                unsupported = _unsupported(server_tool.schema)
                if len(unsupported) == len(API_NAMES):
                    problem = f"no API can take its inputSchema ({unsupported[API_NAMES[0]]})"
            if problem is not None:
                skipped[tool.name] = problem
                warnings.warn(
                    f"The MCP server {self.server}'s tool {tool.name!r} was left out: {problem}",
                    ToolwireWarning,
                    stacklevel=3,
                )
                continue
            strict, refused = _strictness(server_tool.schema, self.strict, tool.name, unsupported)
            namespace = _namespace(server_tool)
            namespace |= {
                "model_tool_strict": strict,
                "mcp_strict_refused": refused,
                "mcp_unsupported": unsupported,
            }
            built.append(cast("type[MCPTool[Any]]", type(_class_name(name), (MCPTool,), namespace)))
        return built, skipped


def _namespace(server_tool: _ServerTool) -> dict[str, Any]:
    tool = server_tool.listed
    description = tool.description or (tool.annotations and tool.annotations.title) or tool.title
    return {
        "__module__": __name__,
        "__doc__": description or f"The MCP tool {tool.name}.",
        "model_tool_custom_name": server_tool.name,
        "model_tool_custom_description": description or f"The MCP tool {tool.name}.",
        "model_tool_custom_json_schema": server_tool.schema,
        "model_tool_defer_loading": server_tool.tools.defer_loading,
        "mcp_tool": tool,
        "_mcp_server_tool": server_tool,
    } | _budget(server_tool.tools.result_budget)


def _budget(budget: ResultBudget | None) -> dict[str, Any]:
    """The class config of a server's result budget, if it has one."""
    return {} if budget is None else {"model_tool_result_budget": budget}


def _left_out(tool: types.Tool) -> str | None:
    """Why a listed tool cannot be offered at all, or None: it runs only as an MCP task,
    its arguments cannot be checked safely (see `schema_problem`), or its results
    cannot be (see `output_schema_problem`)."""
    execution = getattr(tool, "execution", None)  # tasks: MCP 2025-11-25 sessions
    if execution is not None and getattr(execution, "task_support", None) == "required":
        return (
            'it runs only as an MCP task (execution.taskSupport is "required"), and '
            "toolwire calls tools directly: every call would fail."
        )
    problem = schema_problem(tool.input_schema)
    if problem is None and tool.output_schema is not None:
        problem = output_schema_problem(tool.output_schema)
    return problem


def _unsupported(schema: Mapping[str, Any]) -> dict[str, str]:
    """The APIs that cannot take `schema` even without strict mode, and why."""
    refused: dict[str, str] = {}
    for api in API_NAMES:
        try:
            compile_schema(schema, api, strict=False, custom=True)
        except SchemaError as error:
            refused[api] = str(error)
    return refused


def _strictness(
    schema: Mapping[str, Any],
    wanted: bool | None,
    name: str,
    unsupported: Mapping[str, str],
) -> tuple[bool, str | None]:
    """Strict on every API that takes the schema, or not at all (one class serves all
    four), and why not.

    A strict schema that would refuse arguments the server takes (a lossy compilation,
    such as closing an object that allows extra keys) is refused too."""
    if wanted is False:
        return False, "strict=False was asked for"
    for api in API_NAMES:
        if api in unsupported:
            continue
        try:
            compiled = compile_schema(
                schema, api, strict=True, custom=True, unchecked=unchecked_by_toolwire
            )
        except SchemaError as error:
            reason = str(error)
        else:
            if compiled.report.lossless:
                continue
            reason = str(compiled.report)
        if wanted:
            raise SchemaError(f"The MCP tool {name!r} cannot be strict: {reason}")
        return False, f"{api}: {reason}"
    return True, None


def _api_name(name: str) -> str:
    """A name every API takes: letters, digits, `_` and `-`, at most 64 characters."""
    safe = _UNSAFE_NAME.sub("_", name)[:_NAME_LIMIT]
    if not safe or not (safe[0].isalpha() or safe[0] == "_"):
        safe = ("_" + safe)[:_NAME_LIMIT]
    return safe


def _class_name(name: str) -> str:
    return name if name.isidentifier() else "mcp_" + re.sub(r"\W", "_", name)


def _server_name(session: MCPSession) -> str:
    info = session.server_info if isinstance(session, ClientSession) else None
    if isinstance(session, Client):
        info = session.session.server_info
    return repr(info.name) if info is not None else "(unnamed)"


_PAGE_LIMIT = 1000
"""The most `tools/list` pages followed: a server whose cursors never end is cut off."""


async def _list_all(session: MCPSession, server: str) -> list[types.Tool]:
    """Every tool of the server, following pagination. Raises `MCPServerError` when the
    pages never end (a cursor the server already sent, or `_PAGE_LIMIT` pages)."""
    listed: list[types.Tool] = []
    cursor: str | None = None
    cursors: set[str] = set()
    for _ in range(_PAGE_LIMIT):
        if isinstance(session, Client):
            page = await session.list_tools(cursor=cursor, cache_mode="refresh")
        else:
            page = await session.list_tools(params=types.PaginatedRequestParams(cursor=cursor))
        listed.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            return listed
        if cursor in cursors:
            raise MCPServerError(
                f"The MCP server {server} sent the tools/list cursor {cursor!r} a second "
                f"time (after {len(cursors) + 1} pages, {len(listed)} tools): its list "
                "would never end, so its tools were not loaded. Report it to the server's "
                "authors."
            )
        cursors.add(cursor)
    raise MCPServerError(
        f"The MCP server {server} sent {_PAGE_LIMIT} pages of tools/list ({len(listed)} "
        "tools) and a cursor to more: its list seems to never end, so its tools were not "
        "loaded. Report it to the server's authors."
    )
