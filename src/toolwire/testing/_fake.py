"""The API-neutral part of the offline fake servers: replies, scripts, the default
policy, and the HTTP handler the real SDK clients talk to.

Each API's package in the testing wing has a codec (`fake.py`) that reads that
API's request body into a `FakeRequest`, checks its history, and renders a
`FakeReply` as that API's JSON or SSE response. Deterministic: the same requests
get the same bytes.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast, get_args

import httpx2

from .._api import Api
from ._instances import UnsupportedSchemaError, invalid_instance, minimal_instance
from ._rules import HistoryProblem

__all__ = [
    "FakeBuiltinCall",
    "FakeCall",
    "FakeCodec",
    "FakeReply",
    "FakeRequest",
    "FakeSearch",
    "FakeServer",
    "FakeTool",
    "RejectedRequest",
    "allow_only",
]


@dataclass(frozen=True, slots=True)
class FakeCall:
    """A tool call the fake sends: `arguments` is a dict (sent as JSON, or as a dict
    where the API sends dicts) or raw text (sent as is: invalid JSON, cut-off
    arguments, a custom tool's input...). `id` defaults to a deterministic one from the
    fake's counter ("call_2", "toolu_fake2"...; none for Gemini, like the live API).
    `programmatic=True`: the program the model runs makes the call (programmatic tool
    calling, on OpenAI Responses: the turn holds a `program` item before its calls, each
    call's `caller` names it; the request must offer the `programmatic_tool_calling`
    tool and let programs call the tool in its `allowed_callers`; on Anthropic: the code
    execution tool's `server_tool_use` block opens the calls, each call's `caller` names
    it, and the request must offer a code execution tool whose version the tool's
    `allowed_callers` hold; a call to a tool only programs may call is made by a program
    even without it)."""

    name: str
    arguments: Mapping[str, Any] | str = field(default_factory=dict[str, Any])
    id: str | None = None
    programmatic: bool = False


@dataclass(frozen=True, slots=True)
class FakeSearch:
    """A tool search the model runs in a `FakeReply`, over the request's deferred tools.

    Where the request offers the server's search (Responses `{"type": "tool_search"}`,
    Anthropic `tool_search_tool_bm25_*` / `_regex_*`), the server runs it within the
    turn: the reply holds the search and what it found (Responses `tool_search_call` and
    `tool_search_output` with the found definitions; Anthropic `server_tool_use` and
    `tool_search_tool_result` with `tool_reference`s), then the reply's calls. With a
    Responses search of `execution: "client"`, the reply holds a `tool_search_call` with
    a `call_id`, for the client to answer with a `tool_search_output`.

    `queries`: one query or several (Anthropic's search takes one: several are joined
    with spaces). `found`: the names of the deferred tools the server's search finds;
    `None` finds each deferred tool sharing a word with a query (in its name, split at
    `_` and camelCase, or its description). A client-run search takes no `found`: the
    client decides.
    """

    queries: str | tuple[str, ...]
    found: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        queries: object = self.queries
        if isinstance(queries, str):
            queries = (queries,)
        listed = (
            tuple(cast("Sequence[object]", queries)) if isinstance(queries, tuple | list) else ()
        )
        if not listed or not all(isinstance(query, str) for query in listed):
            raise TypeError(
                f"FakeSearch(queries={self.queries!r}): give one query or a tuple of them, "
                'each a string: `FakeSearch("exchange rate")`.'
            )
        object.__setattr__(self, "queries", listed)
        found: object = self.found
        if found is not None:
            names = (
                tuple(cast("Sequence[object]", found)) if isinstance(found, tuple | list) else None
            )
            if names is None or not all(isinstance(name, str) for name in names):
                raise TypeError(
                    f"FakeSearch(found={found!r}): give the found tools' names as a tuple of "
                    'strings: `found=("get_exchange_rate",)`.'
                )
            object.__setattr__(self, "found", names)

    @property
    def query_list(self) -> list[str]:
        """The queries, as a list (one query given as a string is a list of one)."""
        queries = self.queries
        return [queries] if isinstance(queries, str) else list(queries)


BuiltinCallType = Literal[
    "shell_call", "local_shell_call", "apply_patch_call", "computer_call", "mcp_approval_request"
]
"""The client-executed built-in calls a Responses fake emits."""
BUILTIN_TYPES: tuple[str, ...] = get_args(BuiltinCallType)


@dataclass(frozen=True, slots=True)
class FakeBuiltinCall:
    """A client-executed built-in call the model makes in a `FakeReply`, on FakeOpenAI's
    Responses API only: `type` is the output item's type, `fields` the item's own fields
    (`{"action": {...}}` for a shell, local shell or computer call, `{"operation": {...}}`
    for an apply patch call, `{"server_label": ..., "name": ..., "arguments": "..."}` for
    an MCP approval request). The fake adds `id`, `call_id` (where the item has one) and
    `status`; the request must offer the matching tool (`shell`, `local_shell`,
    `apply_patch`, `computer` (or `computer_use_preview`), or the `mcp` server of that label)."""

    type: BuiltinCallType
    fields: Mapping[str, Any] = field(default_factory=dict[str, Any])

    def __post_init__(self) -> None:
        if self.type not in BUILTIN_TYPES:
            raise ValueError(
                f"FakeBuiltinCall(type={self.type!r}): use one of "
                f"{', '.join(repr(kind) for kind in BUILTIN_TYPES)}."
            )
        if not isinstance(self.fields, Mapping):
            raise TypeError(
                f"FakeBuiltinCall(fields={self.fields!r}): give the item's fields as a dict, "
                'e.g. `{"action": {"commands": ["ls"]}}`.'
            )


@dataclass(frozen=True, slots=True)
class FakeReply:
    """One scripted model turn: text, tool calls, or both.

    `stop="length"` makes it a truncated turn (chat `length`, Responses `incomplete`,
    Anthropic `max_tokens`, Gemini `MAX_TOKENS`); give the last call cut-off
    arguments to show a truncated call. `stop="refusal"` sends a refusal with `text`.
    `thinking` adds reasoning where the API has it (Anthropic thinking block with a
    signature, Responses reasoning item, Gemini thought signature on the first call).
    `search` opens the turn's calls with a tool search (see `FakeSearch`; Responses and
    Anthropic, whose servers search). `builtin` adds client-executed built-in calls
    after the turn's tool calls (see `FakeBuiltinCall`; Responses only).
    """

    text: str | None = None
    calls: tuple[FakeCall, ...] = ()
    stop: Literal["end", "length", "refusal"] = "end"
    thinking: str | None = None
    search: FakeSearch | None = None
    builtin: tuple[FakeBuiltinCall, ...] = ()

    def __post_init__(self) -> None:
        # Checked here, when the reply is made: a wrong shape used to fail inside the
        # fake transport, as an AttributeError or as the SDK's "Connection error".
        object.__setattr__(self, "calls", _fake_calls(self.calls))
        if self.stop not in ("end", "length", "refusal"):
            raise ValueError(f'FakeReply(stop={self.stop!r}): use "end", "length" or "refusal".')
        if self.search is not None and not isinstance(self.search, FakeSearch):
            raise TypeError(
                f"FakeReply(search={self.search!r}): give a FakeSearch, e.g. "
                '`search=FakeSearch("exchange rate")`.'
            )
        builtin: object = self.builtin
        if not isinstance(builtin, tuple | list) or not all(
            isinstance(call, FakeBuiltinCall) for call in cast(Sequence[object], builtin)
        ):
            raise TypeError(
                f"FakeReply(builtin={builtin!r}): give a tuple of FakeBuiltinCall, e.g. "
                '`builtin=(FakeBuiltinCall("shell_call", {"action": {"commands": ["ls"]}}),)`.'
            )
        object.__setattr__(self, "builtin", tuple(cast(Sequence[FakeBuiltinCall], builtin)))

    @classmethod
    def tool_calls(cls, *calls: FakeCall | tuple[str, Mapping[str, Any] | str]) -> FakeReply:
        """A turn calling tools: `FakeReply.tool_calls(("get_weather", {"city": "Paris"}))`."""
        return cls(calls=calls)  # pyright: ignore[reportArgumentType]  # __post_init__ reads the pairs


def _fake_calls(calls: object) -> tuple[FakeCall, ...]:
    """`FakeReply.calls` as `FakeCall`s: each given as one, or as a `(name, arguments)`
    pair (the form `FakeReply.tool_calls` takes); anything else raises `TypeError`."""
    if isinstance(calls, FakeCall) or not isinstance(calls, tuple | list):
        raise TypeError(
            f"FakeReply(calls=...) takes a tuple of calls, got {type(calls).__name__}: write "
            '`calls=(FakeCall("name", {...}),)` or `FakeReply.tool_calls(("name", {...}))`.'
        )
    read: list[FakeCall] = []
    for call in cast(Sequence[object], calls):
        if isinstance(call, FakeCall):
            read.append(call)
            continue
        pair = cast(Sequence[object], call) if isinstance(call, tuple | list) else ()
        if len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], str | Mapping):
            read.append(FakeCall(pair[0], cast(Mapping[str, Any] | str, pair[1])))
            continue
        raise TypeError(
            f"FakeReply(calls=...) got {call!r}: each call is a FakeCall or a "
            "(name, arguments) pair, arguments a dict or raw text."
        )
    return tuple(read)


@dataclass(frozen=True, slots=True)
class FakeTool:
    """A tool offered in the request, as the fake sees it."""

    name: str
    kind: Literal["function", "custom"]
    schema: Mapping[str, Any] | None
    strict: bool
    hidden: bool = False
    """Deferred (`defer_loading: true`) and loaded by no search of the history yet: the
    model cannot call it."""


@dataclass(slots=True)
class FakeRequest:
    """What the default policy needs to know about a request."""

    tools: list[FakeTool]
    tool_choice_none: bool = False
    output_schema: Mapping[str, Any] | None = None
    output_strict: bool = False
    rounds: int = 0
    """Assistant tool-call turns since the last user message that is not tool results."""
    assistant_turns: int = 0
    """Assistant turns in the whole history."""
    results: list[str] = field(default_factory=list[str])
    """Result texts of the latest round of tool calls, in order."""
    stream: bool = False
    model: str = ""
    """The model the request names (in the body, or in the URL for Gemini)."""
    allowed: list[str] | None = None
    """The tools the tool choice lets the model call (a forced tool, or a choice over a
    subset), by name; None: every tool offered."""

    def visible_tools(self) -> list[FakeTool]:
        """The tools the model sees: all but the deferred ones no search loaded."""
        return [tool for tool in self.tools if not tool.hidden]


class RejectedRequest(Exception):
    """Raised by a codec for a request the live API would reject with HTTP 400 (or, with
    `body`, answer with that status and JSON body: a server's own error)."""

    def __init__(self, message: str, *, status: int = 400, body: object = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.body = body


def allow_only(request: FakeRequest, names: Sequence[object], where: str) -> None:
    """Let the model call only the tools `names` (read from the request's tool choice at
    `where`); like the live APIs, a name the request's `tools` do not offer is refused."""
    offered = {tool.name for tool in request.tools}
    unknown = [name for name in names if not isinstance(name, str) or name not in offered]
    if unknown:
        raise RejectedRequest(
            f"Invalid value for '{where}': the tool {unknown[0]!r} is not in 'tools'. Offer "
            "it in tools, or name only tools the request offers."
        )
    request.allowed = [str(name) for name in names]


class FakeCodec(Protocol):
    """One API's wire format, as the fake server speaks it."""

    @property
    def api(self) -> Api: ...
    @property
    def programmatic_calls(self) -> bool:
        """Whether its turns may hold calls a program made (`FakeCall.programmatic`)."""
        ...

    @property
    def builtin_calls(self) -> bool:
        """Whether its turns may hold client-executed built-in calls (`FakeReply.builtin`)."""
        ...

    def handles(self, method: str, path: str) -> bool: ...
    def read(self, body: Mapping[str, Any], server: FakeServer, path: str) -> FakeRequest: ...
    def problems(self, body: Mapping[str, Any], server: FakeServer) -> list[HistoryProblem]: ...
    def render(
        self, reply: FakeReply, request: FakeRequest, body: Mapping[str, Any], server: FakeServer
    ) -> httpx2.Response: ...
    def error(self, status: int, message: str) -> httpx2.Response: ...


class FakeServer:
    """The HTTP handler behind a fake client: checks the history, picks the reply,
    and lets the codec render it. Keeps every request body in `requests`."""

    def __init__(
        self,
        codecs: Sequence[FakeCodec],
        *,
        script: Iterable[FakeReply] | None,
        invalid_arguments_first: bool,
    ) -> None:
        self._codecs = list(codecs)
        self._script = None if script is None else list(script)
        self._script_position = 0
        self.invalid_arguments_first = invalid_arguments_first
        self.requests: list[dict[str, Any]] = []
        """Every request body received, in order (parsed JSON)."""
        self.state: dict[str, Any] = {}
        """Per-codec memory (stored responses, sent signatures...)."""
        self._ids = itertools.count(1)

    def next_id(self) -> int:
        """A counter for deterministic ids, shared by every reply of this server."""
        return next(self._ids)

    def transport(self) -> httpx2.MockTransport:
        """An httpx2 transport serving this fake, for sync and async clients alike."""
        return httpx2.MockTransport(self.handle)

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        codec = next((c for c in self._codecs if c.handles(request.method, request.url.path)), None)
        if codec is None:
            return httpx2.Response(
                404,
                json={"error": {"message": f"toolwire fake: no endpoint {request.url.path}"}},
            )
        try:
            parsed_body: Any = json.loads(request.content or b"{}")
        except ValueError:
            return codec.error(400, "toolwire fake: the request body is not JSON.")
        if not isinstance(parsed_body, dict):
            return codec.error(400, "toolwire fake: the request body is not a JSON object.")
        body = cast("dict[str, Any]", parsed_body)
        self.requests.append(body)
        problems = codec.problems(body, self)
        if problems:
            listed = "\n".join(f"- {p.message}" for p in problems)
            return codec.error(400, f"The history breaks the {codec.api} rules:\n{listed}")
        try:
            parsed = codec.read(body, self, request.url.path)
            reply = self._reply(parsed)
            if not codec.programmatic_calls:
                _refuse_programmatic(reply, codec.api)
            if reply.builtin and not codec.builtin_calls:
                raise RejectedRequest(
                    f"toolwire fake: the script makes a built-in {reply.builtin[0].type} "
                    f"(FakeReply(builtin=...)), which the {codec.api} fake does not make; "
                    "client-executed built-in calls exist on OpenAI's Responses API only: "
                    "script them on FakeOpenAI and call client.responses.create."
                )
            return codec.render(reply, parsed, body, self)
        except RejectedRequest as rejected:
            if rejected.body is not None:
                return httpx2.Response(rejected.status, json=rejected.body)
            return codec.error(rejected.status, rejected.message)
        except UnsupportedSchemaError as unsupported:
            return codec.error(400, f"toolwire fake: {unsupported}")

    def _reply(self, request: FakeRequest) -> FakeReply:
        if self._script is not None:
            if self._script_position >= len(self._script):
                raise RejectedRequest(
                    f"toolwire fake: the script has no reply left for request "
                    f"{len(self.requests)} ({len(self._script)} scripted). Add replies to "
                    "`script=[...]`."
                )
            reply = self._script[self._script_position]
            self._script_position += 1
            return reply
        return default_reply(request, invalid_first=self.invalid_arguments_first)


def _refuse_programmatic(reply: FakeReply, api: Api) -> None:
    """Refuse a scripted programmatic call on a fake that makes none."""
    made = next((call for call in reply.calls if call.programmatic), None)
    if made is not None:
        raise RejectedRequest(
            f"toolwire fake: the script makes a programmatic call to {made.name!r} "
            f"(FakeCall(programmatic=True)), which the {api} fake does not make; script "
            "programmatic calls on FakeOpenAI's Responses API or on FakeAnthropic, or make the "
            "call direct."
        )


def default_reply(request: FakeRequest, *, invalid_first: bool) -> FakeReply:
    """What the fake answers when no script is given.

    - Structured output requested: a minimal valid JSON value (with
      `invalid_first`, an invalid one on the first assistant turn, unless the
      format is strict: the live API would not let the model break it).
    - Tools offered, none called yet since the last user message: call each
      tool the model sees (a deferred tool once a search loaded it) once, in
      order, with minimal valid arguments (with `invalid_first`,
      invalid ones for non-strict tools, then valid ones in the next round).
    - Otherwise: a short text quoting the latest tool results.
    """
    callable_tools = [] if request.tool_choice_none else request.visible_tools()
    if request.allowed is not None:
        callable_tools = [tool for tool in callable_tools if tool.name in request.allowed]
    if request.output_schema is not None and not (callable_tools and request.rounds == 0):
        value: Any = None
        if invalid_first and not request.output_strict and request.assistant_turns == 0:
            value = invalid_instance(request.output_schema)
        if value is None:
            value = minimal_instance(request.output_schema, where="the response format")
        return FakeReply(text=json.dumps(value))
    if callable_tools:
        retry_round = invalid_first and request.rounds == 1
        if request.rounds == 0:
            return FakeReply(calls=tuple(_call(tool, invalid_first) for tool in callable_tools))
        if retry_round:
            sent_invalid = [t for t in callable_tools if _invalid_arguments(t) is not None]
            if sent_invalid:
                return FakeReply(calls=tuple(_call(tool, False) for tool in sent_invalid))
    if request.results:
        quoted = "; ".join(_short(r) for r in request.results)
        return FakeReply(text=f"(offline fake) The tools answered: {quoted}")
    return FakeReply(text="(offline fake) Hello! This answer comes from toolwire.testing.")


def _call(tool: FakeTool, invalid: bool) -> FakeCall:
    if tool.kind == "custom":
        return FakeCall(tool.name, "example input")
    if invalid:
        wrong = _invalid_arguments(tool)
        if wrong is not None:
            return FakeCall(tool.name, wrong)
    schema = tool.schema if tool.schema is not None else {"type": "object"}
    return FakeCall(tool.name, minimal_instance(schema, where=f"tool {tool.name!r}"))


def _invalid_arguments(tool: FakeTool) -> dict[str, Any] | None:
    if tool.kind == "custom" or tool.strict or tool.schema is None:
        return None
    return invalid_instance(tool.schema)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
