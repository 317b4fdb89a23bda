"""What core and aio tool groups share: building, definitions, validating calls without
running them, and which tool answers a call. Only running handlers differs (plain or
awaited): that is `_core`'s and `_aio`'s."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, overload

from typing_extensions import TypeVar

from ._api import Api, adapter, check_api
from ._definition import CacheBreakpoint, ToolNamespace, cache_ttl, search_config
from ._limits import DEFAULT_LIMITS, ArgumentLimits
from ._pending import PendingCall, dump_pending, load_pending, pending_calls
from ._read import read_call, read_calls
from ._tool import CustomToolModel, FunctionToolModel, ToolModel, normalize_format
from .exceptions import DuplicateToolNameError, ToolDefinitionError, ToolwireWarning

if TYPE_CHECKING:
    from anthropic.types import ToolUnionParam
    from openai.types.chat import ChatCompletionToolUnionParam
    from openai.types.responses import ToolParam as ResponsesToolParam

    from ._adapters.openai_chat.servers import ChatServer
    from ._budget import ResultBudget
    from ._call import AnyToolCall, StandardToolCall
    from ._history import AnyResponse
    from ._tool_choice import (
        AnthropicSubsetChoiceParams,
        AnthropicToolChoiceParams,
        ChatToolChoiceParams,
        GeminiToolChoiceParams,
        ResponsesToolChoiceParams,
        ToolChoiceMode,
    )

__all__ = ["GroupDefinitions", "SharedGroup", "check_tools", "own_call"]

_PLACEHOLDER_MODULES = frozenset({"toolwire._core", "toolwire._aio"})
"""Where the bases' placeholder handlers (which raise NotImplementedError) are defined."""


def check_tools(
    tools: Iterable[type[ToolModel]], *, namespace: Literal["core", "aio"]
) -> dict[str, type[ToolModel]]:
    """Name -> tool class, refusing duplicates and tools of the other namespace."""
    by_name: dict[str, type[ToolModel]] = {}
    for tool in tools:
        if not (isinstance(tool, type) and issubclass(tool, FunctionToolModel | CustomToolModel)):
            raise ToolDefinitionError(
                f"{tool!r} is not a tool class. Put subclasses of BaseFunctionToolModel or "
                "BaseCustomToolModel in a ToolGroup."
            )
        tool_namespace = getattr(tool, "_toolwire_namespace", None)
        if tool_namespace != namespace:
            other = "toolwire.aio" if namespace == "core" else "toolwire.core"
            # A class built for the caller (an MCP tool) says where its sibling comes from.
            way_out = getattr(tool, "_toolwire_group_hint", None) or (
                f"Use the ToolGroup of {other}, or define the tool from "
                f"toolwire.{namespace} ({'async def' if namespace == 'aio' else 'def'} "
                "model_tool_handler)."
            )
            raise ToolDefinitionError(
                f"{tool.__name__} is a toolwire.{tool_namespace} tool but this is a "
                f"toolwire.{namespace} ToolGroup. {way_out}"
            )
        name = tool.model_tool_name()
        previous = by_name.get(name)
        if previous is not None:
            raise DuplicateToolNameError(
                "Two tools are named {!r}: {} and {}. Give one of them another name with "
                "`model_tool_custom_name`.".format(name, *_class_labels(previous, tool))
            )
        by_name[name] = tool
        if issubclass(tool, CustomToolModel):
            normalize_format(tool, tool.model_tool_format)  # an invalid format raises here
        handler: Any = getattr(tool, "model_tool_handler", None)
        if (
            getattr(handler, "__module__", None) in _PLACEHOLDER_MODULES
            and not tool.model_tool_external  # answered elsewhere: it has no handler
        ):
            warnings.warn(
                f"{tool.__name__} defines no model_tool_handler: the group lists it, but a "
                "call to it would fail with NotImplementedError. Define one, set "
                "`model_tool_external = True` if its calls are answered elsewhere, or keep "
                "the class out of the group if it is only a structured-output format "
                "(model_tool_format).",
                ToolwireWarning,
                stacklevel=3,
            )
    return by_name


def _class_labels(first: type, second: type) -> tuple[str, str]:
    """Two same-named tools' classes as a duplicate-name error shows them: by class name,
    or, when those are the same, by where each is defined (module and qualified name)."""
    if first.__name__ != second.__name__:
        return first.__name__, second.__name__
    where = [f"{tool.__module__}.{tool.__qualname__}" for tool in (first, second)]
    if where[0] == where[1]:  # one factory made both
        where[1] += " (a second class made at the same place)"
    return where[0], where[1]


class GroupDefinitions:
    """Mixin for both ToolGroups: definitions and a readable dump of the tools."""

    @overload
    def tool_definitions(
        self,
        api: Literal["chat.completions"] | ChatServer,
        *,
        loaded: Iterable[type[ToolModel] | str] = (),
        cache_breakpoint: CacheBreakpoint = False,
    ) -> list[ChatCompletionToolUnionParam]: ...
    @overload
    def tool_definitions(
        self,
        api: Literal["responses"],
        *,
        loaded: Iterable[type[ToolModel] | str] = (),
        cache_breakpoint: CacheBreakpoint = False,
    ) -> list[ResponsesToolParam]: ...
    @overload
    def tool_definitions(
        self,
        api: Literal["anthropic"],
        *,
        loaded: Iterable[type[ToolModel] | str] = (),
        cache_breakpoint: CacheBreakpoint = False,
    ) -> list[ToolUnionParam]: ...
    @overload
    def tool_definitions(
        self,
        api: Literal["gemini"],
        *,
        loaded: Iterable[type[ToolModel] | str] = (),
        cache_breakpoint: CacheBreakpoint = False,
    ) -> list[Any]: ...
    @overload
    def tool_definitions(
        self,
        api: Api | ChatServer,
        *,
        loaded: Iterable[type[ToolModel] | str] = (),
        cache_breakpoint: CacheBreakpoint = False,
    ) -> (
        list[ChatCompletionToolUnionParam]
        | list[ResponsesToolParam]
        | list[ToolUnionParam]
        | list[Any]
    ): ...
    def tool_definitions(
        self,
        api: Api | ChatServer,
        *,
        loaded: Iterable[type[ToolModel] | str] = (),
        cache_breakpoint: CacheBreakpoint = False,
    ) -> (
        list[ChatCompletionToolUnionParam]
        | list[ResponsesToolParam]
        | list[ToolUnionParam]
        | list[Any]
    ):
        """The value for the API's `tools` parameter: every tool, in group order.

        Fresh objects each call, so you may mutate them. `cache_breakpoint=True` (or a
        lifetime: "5m", "1h") ends the tool list with a prompt-cache breakpoint on
        Anthropic (`cache_control` on the last definition), so later requests reuse the
        cached tools; the other APIs cache the tools, which open the prompt, on their
        own, and get nothing. A lifetime is checked even so where the API takes
        breakpoints: one it does not take ("30m" or "12h" on Responses and OpenAI's
        Chat Completions) raises `ValueError` naming those it does, so a loop that also
        marks its results learns of it on its first request. For Gemini: a list of one
        `types.Tool` holding every function declaration, typed `list[Any]` because
        google-genai's `tools` parameter changes type when the `mcp` package is
        installed (a `list[types.Tool]` then no longer fits it).

        Deferred tools (`model_tool_defer_loading`): on OpenAI Responses and Anthropic
        they are sent with `defer_loading: true`; Chat Completions and Gemini have no
        such flag, so they are left out unless named in `loaded` (tool classes or
        names; pass `group.loaded_tools(history, api)` to offer what the history's
        searches loaded). The group's tool search (`add_tool_search`) is the API's own
        search tool where its server runs it.
        """
        check_api(api)
        ttl = cache_ttl(cache_breakpoint)
        api_adapter = adapter(api)
        tools: Iterable[type[ToolModel]] = _tools(self).values()
        if not api_adapter.defers_natively:
            offered = _names(loaded)
            tools = [t for t in tools if not t._deferred() or t.model_tool_name() in offered]
        definitions: list[Any] = []
        namespaces: list[ToolNamespace | None] = []
        for tool in tools:
            definition: Any = tool.model_tool_definition(api)
            config = search_config(tool)
            if config is not None:
                definition = api_adapter.tool_search_definition(
                    definition, config.execution, config.server
                )
            definitions.append(definition)
            namespaces.append(tool.model_tool_namespace)
        rendered = api_adapter.tool_definitions(definitions, namespaces)
        if ttl is not False:
            api_adapter.mark_cache_breakpoint(rendered, ttl, where="tools")
        return rendered

    def loaded_tools(
        self, history: Sequence[object], api: Api | ChatServer
    ) -> list[type[ToolModel]]:
        """The deferred tools of this group that the searches in `history` loaded (the
        messages or items you send the API, in its own forms), in group order: found by
        the group's tool search, by the API's own search, or returned as `ToolReference`
        by any handler.

        On Chat Completions and Gemini, pass them to `tool_definitions(api,
        loaded=...)` so the next request offers them. (OpenAI Responses and Anthropic
        keep track of loaded tools themselves.)
        """
        check_api(api)
        names = set(adapter(api).loaded_tool_names(history))
        return [tool for name, tool in _tools(self).items() if name in names and tool._deferred()]

    @overload
    def tool_choice(
        self,
        api: Literal["chat.completions"] | ChatServer,
        choice: ToolChoiceMode | type[ToolModel] = "auto",
        *,
        among: Iterable[type[ToolModel]] | None = None,
        parallel: bool | None = None,
        thinking: bool | Mapping[str, Any] | None = None,
    ) -> ChatToolChoiceParams: ...
    @overload
    def tool_choice(
        self,
        api: Literal["responses"],
        choice: ToolChoiceMode | type[ToolModel] = "auto",
        *,
        among: Iterable[type[ToolModel]] | None = None,
        parallel: bool | None = None,
    ) -> ResponsesToolChoiceParams: ...
    @overload
    def tool_choice(
        self,
        api: Literal["anthropic"],
        choice: ToolChoiceMode | type[ToolModel] = "auto",
        *,
        among: None = None,
        parallel: bool | None = None,
        thinking: bool | Mapping[str, Any] | None = None,
    ) -> AnthropicToolChoiceParams: ...
    @overload
    def tool_choice(
        self,
        api: Literal["anthropic"],
        choice: ToolChoiceMode | type[ToolModel] = "auto",
        *,
        among: Iterable[type[ToolModel]],
        parallel: bool | None = None,
        thinking: bool | Mapping[str, Any] | None = None,
    ) -> AnthropicSubsetChoiceParams: ...
    @overload
    def tool_choice(
        self,
        api: Literal["gemini"],
        choice: ToolChoiceMode | type[ToolModel] = "auto",
        *,
        among: Iterable[type[ToolModel]] | None = None,
        parallel: bool | None = None,
    ) -> GeminiToolChoiceParams: ...
    @overload
    def tool_choice(
        self,
        api: Api | ChatServer,
        choice: ToolChoiceMode | type[ToolModel] = "auto",
        *,
        among: Iterable[type[ToolModel]] | None = None,
        parallel: bool | None = None,
        thinking: bool | Mapping[str, Any] | None = None,
    ) -> (
        ChatToolChoiceParams
        | ResponsesToolChoiceParams
        | AnthropicToolChoiceParams
        | AnthropicSubsetChoiceParams
        | GeminiToolChoiceParams
    ): ...
    def tool_choice(
        self,
        api: Api | ChatServer,
        choice: ToolChoiceMode | type[ToolModel] = "auto",
        *,
        among: Iterable[type[ToolModel]] | None = None,
        parallel: bool | None = None,
        thinking: bool | Mapping[str, Any] | None = None,
    ) -> (
        ChatToolChoiceParams
        | ResponsesToolChoiceParams
        | AnthropicToolChoiceParams
        | AnthropicSubsetChoiceParams
        | GeminiToolChoiceParams
    ):
        """Keyword arguments making the model call tools as `choice` says, in the API's
        own words: splat them into the create call (Gemini: into `GenerateContentConfig`).

        `choice`: "auto" (the model decides), "none", "required" (at least one call), or
        one tool class of this group (that tool must be called). `among`: tool classes of
        this group; "auto" or "required" then applies to them only, while the request
        still offers the whole group (OpenAI `allowed_tools`; Gemini `allowed_function_names`
        with ANY, or VALIDATED for "auto"), so the prompt cache holds. Anthropic has no
        such choice: its params carry the subset as `tools` (send them instead of your
        own), and a `PromptCacheWarning` says the cache changes. `parallel`: allow
        several calls in one turn (True/False), or None to leave the API's default.
        `thinking` (Anthropic): the request's `thinking` param, or True when extended
        thinking is on; a forced choice is then refused, as the API would. On a
        `ChatServer` that refuses a forced choice while it thinks (DeepSeek, Kimi):
        False (or `{"type": "disabled"}`) when the request turns thinking off; by
        default the server thinks, and a forced choice is refused.
        Raises `ToolChoiceError` for what the API would reject.
        """
        from ._tool_choice import tool_choice_params

        params = tool_choice_params(
            _tools(self), api, choice, among=among, parallel=parallel, thinking=thinking
        )
        return params  # pyright: ignore[reportReturnType]

    @overload
    def dump_pending(
        self, pending: Sequence[PendingCall[Any]], *, as_dict: Literal[False] = False
    ) -> str: ...
    @overload
    def dump_pending(
        self, pending: Sequence[PendingCall[Any]], *, as_dict: Literal[True]
    ) -> dict[str, Any]: ...
    @overload
    def dump_pending(
        self, pending: Sequence[PendingCall[Any]], *, as_dict: bool
    ) -> str | dict[str, Any]: ...
    def dump_pending(
        self, pending: Sequence[PendingCall[Any]], *, as_dict: bool = False
    ) -> str | dict[str, Any]:
        """Pending calls (from `prepare_tool_calls`) as JSON text, to store until the
        decision comes; `load_pending` restores them, in this or another process. With
        `as_dict=True`, the same as a JSON-ready dict, to keep inside a larger JSON state.

        The dump is versioned (`"format": "toolwire.pending/2"`, and the toolwire that
        wrote it): every later toolwire reads it, and an older one refuses a newer
        format with `PendingCallError` saying so. A call already given to `run_pending`
        (it ran, or was answered) and two calls with one id raise `PendingCallError`:
        loading them would run a call again."""
        dumped = dump_pending(_tools(self), pending)
        return dumped if as_dict else json.dumps(dumped, ensure_ascii=False)

    def pretty_definition(self) -> str:
        """For debugging: every tool's name, description and schema."""
        body = ",\n".join(tool.model_tool_pretty_definition() for tool in _tools(self).values())
        indented = "\n".join("    " + line for line in body.splitlines())
        return f"{type(self).__name__}([\n{indented}\n])"


def _names(tools: Iterable[type[ToolModel] | str]) -> set[str]:
    """Tool names, from tool classes or names."""
    if isinstance(tools, str):
        raise TypeError(
            f"loaded takes tool classes or names (a list), not one string {tools!r}: "
            f"write loaded=[{tools!r}]."
        )
    return {t if isinstance(t, str) else t.model_tool_name() for t in tools}


Tool = TypeVar("Tool", bound=ToolModel)


class SharedGroup(dict[str, type[Tool]], GroupDefinitions, Generic[Tool]):
    """Base of both ToolGroups (`Tool`: the namespace's tool classes, function or custom):
    what they do the same way. Each adds `from_list` and the methods that run handlers."""

    _toolwire_namespace: ClassVar[Literal["core", "aio"]]

    result_budget: ResultBudget | None = None
    """How much of a result the model reads, for every tool of the group without its own
    `model_tool_result_budget` (see `ResultBudget`); None: all of it. Set it with
    `from_list(..., result_budget=...)`, or assign it."""

    def add_tool(self, tool: type[Tool]) -> None:
        """Add one tool. Raises if its name is taken."""
        self.update(check_tools([*self.values(), tool], namespace=self._toolwire_namespace))  # pyright: ignore[reportCallIssue, reportArgumentType]

    def prepare_tool_calls(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | ChatServer | None = None,
        other_calls: Literal["raise", "ignore"] = "raise",
    ) -> list[PendingCall[Tool]]:
        """Validate every call without running any: one `PendingCall` per call, in order,
        holding the validated tool instance or the failure that will answer it. Decide,
        then `run_pending`; or `dump_pending` to decide later."""
        return pending_calls(self, read_calls(calls, api=api, other_calls=other_calls), limits)

    def load_pending(
        self,
        dump: str | Mapping[str, Any],
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        changed: Literal["raise", "refuse"] = "raise",
    ) -> list[PendingCall[Tool]]:
        """Pending calls stored with `dump_pending` (its JSON text or dict), validated
        again with this group's tools, as one response's calls. A call whose tool changed since (its arguments changed, it left the group,
        or a tool of its name was added) never runs: by default `PendingCallError` is
        raised, its `.calls` holding every such call; with `changed="refuse"` each comes
        back in its place answered with a "refused" failure, and the rest of the batch
        as usual. Raises `PendingCallError` for anything that is not a `dump_pending`
        dump, for a dump of a newer toolwire's format, and for one that lists a call id
        twice."""
        return load_pending(self, dump, limits, changed)


def own_call(
    tool: type[ToolModel], call: object
) -> tuple[type[ToolModel] | None, StandardToolCall, dict[str, type[ToolModel]]]:
    """`call` (one call object) as tool class `tool` alone answers it: (the tool, or None
    when the call names another; the call read; the names the model may use)."""
    read = read_call(call)
    name = tool.model_tool_name()
    return (tool if read.name == name else None), read, {name: tool}


def _tools(group: object) -> Mapping[str, type[FunctionToolModel] | type[CustomToolModel]]:
    return group  # pyright: ignore[reportReturnType]  # the mixin is only used on dict groups
