"""An MCP server's tools as toolwire tools, in the caller's own loop.

Each server tool becomes a `toolwire.aio` tool class: its schema is the server's
`inputSchema`, compiled per API by toolwire's own compiler (strict where the schema
allows), arguments are checked against that schema before the server is called, and
whatever happens on the way (an `isError` result, a protocol error, a reply the SDK
cannot read, a dead server, a timeout) answers that one call; the rest of the batch keeps
its results.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast, get_args

import anyio
import mcp_types as types
import pydantic
from jsonschema import SchemaError as JsonSchemaError
from jsonschema import validators
from mcp import Client, ClientSession, MCPError
from mcp.shared.subscriptions import ToolsListChanged
from pydantic_core import InitErrorDetails, PydanticCustomError

from .._aio import BaseFunctionToolModel
from .._api import API_NAMES
from .._core import BaseFunctionToolModel as SyncFunctionToolModel
from .._parts import ToolContent
from .._schema import InputPlan, compile_schema, input_plan
from ..exceptions import (
    DuplicateToolNameError,
    ErrorForLLMToSee,
    SchemaError,
    ToolwireWarning,
)
from ._content import result_parts

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
_REPLY_ERRORS = (pydantic.ValidationError, RuntimeError)
"""What the SDK's `call_tool` raises for a reply it cannot use: pydantic's
`ValidationError` when the result does not parse (a content block of a type MCP does not
define, `content` not a list), `RuntimeError` when it parses but cannot be used
(`structuredContent` that breaks the tool's `outputSchema`, an input request a plain
session cannot answer, an extension's result nobody claimed)."""
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
    """What every class made for one server tool shares: the tool as listed, the
    session to call, and the argument checks (built on first use)."""

    __slots__ = ("_plan", "_plan_ready", "_validator", "listed", "tools")

    def __init__(self, tools: MCPTools, listed: types.Tool) -> None:
        self.tools = tools
        self.listed = listed
        self._validator: Any = None
        self._plan: InputPlan | None = None
        self._plan_ready = False

    def arguments(self, data: object, strict: bool, tool_name: str) -> dict[str, Any]:
        """The arguments to send: the model's object, with the strict input plan applied
        (a null for an optional field means "leave it out"), checked against the
        server's schema. Raises pydantic's `ValidationError` with one line per problem."""
        if strict:
            if not self._plan_ready:
                self._plan = input_plan(self.listed.input_schema)
                self._plan_ready = True
            if self._plan is not None:
                data = self._plan.apply(data)
        if not isinstance(data, dict):
            raise pydantic.ValidationError.from_exception_data(
                tool_name,
                [_problem((), "the arguments must be one JSON object", data)],
            )
        if self._validator is None:
            schema = self.listed.input_schema
            self._validator = validators.validator_for(schema)(schema)
        errors = sorted(self._validator.iter_errors(data), key=lambda e: list(e.absolute_path))
        if errors:
            problems = [problem for error in errors for problem in _problems(error)]
            raise pydantic.ValidationError.from_exception_data(tool_name, problems)
        return cast("dict[str, Any]", data)

    async def call(self, arguments: dict[str, Any], timeout: float | None) -> ToolContent:
        """Call the server; its answer as parts, or `ErrorForLLMToSee` saying what failed
        (the SDK's own exception is its `__cause__`)."""
        name = self.listed.name
        session = self.tools.session
        if isinstance(session, Client):
            # A closed `Client` raises RuntimeError here, before the call: that is the
            # caller's mistake, not the server's reply, so it must not become a failure.
            _ = session.session
        try:
            result = await session.call_tool(name, arguments, timeout)
        except _CONNECTION_ERRORS as error:
            raise ErrorForLLMToSee(_failure(self.tools.server, name, error)) from error
        except _REPLY_ERRORS as error:
            raise ErrorForLLMToSee(_unreadable(self.tools.server, name, error)) from error
        parts = result_parts(result)
        if result.is_error:
            text = "\n".join(part for part in parts if isinstance(part, str))
            raise ErrorForLLMToSee(
                f"The tool {name!r} reported an error: {text or 'no details given.'}"
            )
        return parts if parts else "(the tool returned no content)"


def _problems(error: Any) -> list[InitErrorDetails]:
    """One jsonschema error as pydantic's error lines, so the model reads the same texts
    as for any tool: a missing or unexpected property at its own path."""
    loc = tuple(error.absolute_path)
    instance: Any = error.instance
    if error.validator == "required" and isinstance(instance, dict):
        names = [n for n in error.validator_value if n not in instance and error.message.startswith(repr(n))]  # fmt: skip
        return [InitErrorDetails(type="missing", loc=(*loc, n), input=instance) for n in names[:1]]
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        given = cast("dict[str, Any]", instance)
        known = error.schema.get("properties", {})
        extra = [key for key in given if key not in known]
        if extra:
            return [
                InitErrorDetails(type="extra_forbidden", loc=(*loc, key), input=given[key])
                for key in extra
            ]
    return [_problem(loc, error.message, error.instance)]


def _problem(loc: tuple[Any, ...], message: str, value: object) -> InitErrorDetails:
    return InitErrorDetails(
        type=PydanticCustomError("json_schema", "{reason}", {"reason": message}),
        loc=loc,
        input=value,
    )


def _failure(server: str, name: str, error: BaseException) -> str:
    if isinstance(error, MCPError):
        message = error.error.message
        if len(message) > _SERVER_MESSAGE_LIMIT:
            cut = len(message) - _SERVER_MESSAGE_LIMIT
            message = f"{message[:_SERVER_MESSAGE_LIMIT]}... ({cut:,} more characters)"
        return f"The MCP server {server} could not run {name!r}: {message}"
    if isinstance(error, TimeoutError):
        return f"The MCP server {server} did not answer {name!r} in time."
    return (
        f"The MCP server {server} is not reachable ({type(error).__name__}), so {name!r} "
        "did not run. Do not call its tools again in this conversation."
    )


def _unreadable(server: str, name: str, error: Exception) -> str:
    """The model's text for a reply the SDK could not use: what was wrong, in a few words
    (never the validation dump: that stays on the exception, for the developer)."""
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


class MCPTool(BaseFunctionToolModel[Context, Context], Generic[Context]):
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

    model_config = pydantic.ConfigDict(extra="allow")
    mcp_tool: ClassVar[types.Tool]
    """The tool as the server listed it."""
    mcp_strict_refused: ClassVar[str | None] = None
    """Why the tool is not strict (None when it is): the first API whose strict subset
    the server's schema does not fit, and why."""
    _mcp_server_tool: ClassVar[_ServerTool]

    @pydantic.model_validator(mode="before")
    @classmethod
    def _check_against_server_schema(cls, data: Any) -> Any:
        return cls._mcp_server_tool.arguments(data, cls.model_tool_strict, cls.model_tool_name())

    async def model_tool_handler(self, context: Context, /) -> tuple[ToolContent, Context]:
        server_tool = type(self)._mcp_server_tool
        # The time limit is toolwire's own (`model_tool_timeout`): it cancels the call
        # and answers it with a "timeout" failure.
        return await server_tool.call(self.model_extra or {}, None), context


class SyncMCPTool(SyncFunctionToolModel[Context, Context], Generic[Context]):
    """A tool of an MCP server for `toolwire.core` groups: each call goes to the session
    through the anyio portal that runs it (see `MCPTools.sync_tools`).

    Like `MCPTool`, it returns the context it was given, and `sync_tools()` gives
    `type[SyncMCPTool[Any]]`, so the tools join a `toolwire.core` group of any context
    type."""

    model_config = pydantic.ConfigDict(extra="allow")
    mcp_tool: ClassVar[types.Tool]
    _mcp_server_tool: ClassVar[_ServerTool]
    _mcp_portal: ClassVar[Any]
    _mcp_timeout: ClassVar[float | None]

    @pydantic.model_validator(mode="before")
    @classmethod
    def _check_against_server_schema(cls, data: Any) -> Any:
        return cls._mcp_server_tool.arguments(data, cls.model_tool_strict, cls.model_tool_name())

    def model_tool_handler(self, context: Context, /) -> tuple[ToolContent, Context]:
        cls = type(self)
        content = cls._mcp_portal.call(
            cls._mcp_server_tool.call, self.model_extra or {}, cls._mcp_timeout
        )
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
        skipped: server tools no API can take (name -> why); each also warned.
        changed: True once the server said its tool list changed (see `notice`);
            `refresh()` resets it.
    """

    def __init__(
        self,
        session: MCPSession,
        *,
        prefix: str = "",
        timeout: float | None = 30.0,
        strict: bool | None = None,
    ) -> None:
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout must be a positive number of seconds or None, not {timeout!r}.")  # fmt: skip
        self.session = session
        self.prefix = prefix
        self.timeout = timeout
        self.strict = strict
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
        """
        tools = cls(session, prefix=prefix, timeout=timeout, strict=strict)
        await tools.refresh()
        return tools

    async def refresh(self) -> bool:
        """List the tools again (after the server said they changed) and rebuild
        `tools`. Returns whether the list differs; rebuild your group if it does."""
        listed = await _list_all(self.session)
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

    def sync_tools(self, portal: Any) -> list[type[SyncMCPTool[Any]]]:
        """The same tools for a `toolwire.core` group. `portal` is the
        `anyio.from_thread.BlockingPortal` whose event loop runs the session: each call
        is sent through it and waits (at most `timeout` seconds) for the answer."""
        built: list[type[SyncMCPTool[Any]]] = []
        for tool in self.tools:
            namespace = _namespace(tool.mcp_tool, tool._mcp_server_tool, tool.model_tool_name())
            namespace |= {
                "model_tool_strict": tool.model_tool_strict,
                "_mcp_portal": portal,
                "_mcp_timeout": self.timeout,
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
            problem = _schema_problem(tool.input_schema)
            if problem is not None:
                skipped[tool.name] = problem
                warnings.warn(
                    f"The MCP server {self.server}'s tool {tool.name!r} was left out: {problem}",
                    ToolwireWarning,
                    stacklevel=3,
                )
                continue
            strict, refused = _strictness(tool.input_schema, self.strict, tool.name)
            namespace = _namespace(tool, _ServerTool(self, tool), name)
            namespace |= {
                "model_tool_strict": strict,
                "model_tool_timeout": self.timeout,
                "mcp_strict_refused": refused,
            }
            built.append(cast("type[MCPTool[Any]]", type(_class_name(name), (MCPTool,), namespace)))
        return built, skipped


def _namespace(tool: types.Tool, server_tool: _ServerTool, name: str) -> dict[str, Any]:
    description = tool.description or (tool.annotations and tool.annotations.title) or tool.title
    return {
        "__module__": __name__,
        "__doc__": description or f"The MCP tool {tool.name}.",
        "model_tool_custom_name": name,
        "model_tool_custom_description": description or f"The MCP tool {tool.name}.",
        "model_tool_custom_json_schema": tool.input_schema,
        "mcp_tool": tool,
        "_mcp_server_tool": server_tool,
    }


def _schema_problem(schema: dict[str, Any]) -> str | None:
    """Why no API can take this schema, or None: it must be valid JSON Schema and
    compile for every API."""
    try:
        validators.validator_for(schema).check_schema(schema)
    except JsonSchemaError as error:
        return f"its inputSchema is not valid JSON Schema ({error.message})."
    for api in API_NAMES:
        try:
            compile_schema(schema, api, strict=False, custom=True)
        except SchemaError as error:
            return f"its inputSchema cannot be sent to {api}: {error}"
    return None


def _strictness(
    schema: Mapping[str, Any], wanted: bool | None, name: str
) -> tuple[bool, str | None]:
    """Strict on every API, or not at all (one class serves all four), and why not.

    A strict schema that would refuse arguments the server takes (a lossy compilation,
    such as closing an object that allows extra keys) is refused too."""
    if wanted is False:
        return False, "strict=False was asked for"
    for api in API_NAMES:
        try:
            report = compile_schema(schema, api, strict=True, custom=True).report
        except SchemaError as error:
            reason = str(error)
        else:
            if report.lossless:
                continue
            reason = str(report)
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


async def _list_all(session: MCPSession) -> list[types.Tool]:
    """Every tool of the server, following pagination."""
    listed: list[types.Tool] = []
    cursor: str | None = None
    while True:
        if isinstance(session, Client):
            page = await session.list_tools(cursor=cursor, cache_mode="refresh")
        else:
            page = await session.list_tools(params=types.PaginatedRequestParams(cursor=cursor))
        listed.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            return listed
