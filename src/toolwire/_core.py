"""Plain-function tools and their group (`toolwire.core`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, cast

import pydantic
from typing_extensions import TypeAliasType, TypeVar

from ._api import Api
from ._batch import UnexpectedErrors, batch_error, refuse_unexpected_errors, unexpected_failure
from ._group import GroupDefinitions, check_tools
from ._json import copy_json
from ._limits import DEFAULT_LIMITS, ArgumentLimits, check_dict
from ._observe import ToolHooks, observer
from ._parts import ToolContent
from ._pending import PendingCall, decide, load_pending, pending_calls, prepared_items
from ._pipeline import (
    PLAN,
    UNPLANNED,
    Crashed,
    explicit_failure,
    invalid,
    over_limit,
    prepare,
    prepare_all,
    refused_text,
    success,
)
from ._read import read_call, read_calls
from ._result import ToolCallFailure, ToolCallResult, ToolCallSuccess
from ._tool import CustomToolModel, FunctionToolModel, ToolModel, finish_base
from .exceptions import ErrorForLLMToSee, ToolwireError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ._call import AnyToolCall, StandardToolCall
    from ._definition import ServerSearch, ToolSearchExecution
    from ._history import AnyResponse

__all__ = [
    "BaseCustomToolModel",
    "BaseFunctionToolModel",
    "FunctionToolGroup",
    "ToolGroup",
    "ToolModelType",
]

ContextIn = TypeVar("ContextIn")
ContextOut = TypeVar("ContextOut")
_In = TypeVar("_In")
_Out = TypeVar("_Out")


class BaseFunctionToolModel(FunctionToolModel, Generic[ContextIn, ContextOut]):
    """A function tool: a pydantic model whose fields are the arguments the model sends,
    and whose `model_tool_handler` runs when it calls the tool.

    `ContextIn` is what your loop passes to the handler; `ContextOut` is what the
    handler hands back to your loop next to the text the model sees.
    """

    _toolwire_namespace: ClassVar[str] = "core"

    def model_tool_handler(self, context: ContextIn, /) -> tuple[ToolContent, ContextOut]:
        """Override: handle a valid call. Return `(what the model sees, context for you)`:
        text, or a sequence of text, `ImagePart` and `FilePart`."""
        raise NotImplementedError(f"{type(self).__name__} defines no model_tool_handler; define one to use it as a tool, or use the class only with model_tool_format().")  # fmt: skip

    @classmethod
    def model_tool_run_tool_call(
        cls,
        call: AnyToolCall,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
    ) -> ToolCallResult[ContextOut]:
        """Validate and run one call of this tool. Unexpected handler exceptions propagate."""
        std = read_call(call)
        tool = cls if std.name == cls.model_tool_name() else None
        return _run(tool, std, context, limits, {cls.model_tool_name(): cls})


class BaseCustomToolModel(CustomToolModel, Generic[ContextIn, ContextOut]):
    """An OpenAI custom tool: the model sends free text (`self.input`), optionally
    constrained by `model_tool_format` (a Lark grammar or a regex)."""

    _toolwire_namespace: ClassVar[str] = "core"

    def model_tool_handler(self, context: ContextIn, /) -> tuple[ToolContent, ContextOut]:
        """Override: handle a valid call. Return `(what the model sees, context for you)`:
        text, or a sequence of text, `ImagePart` and `FilePart`."""
        raise NotImplementedError(f"{type(self).__name__} defines no model_tool_handler; define one to use it as a tool.")  # fmt: skip

    @classmethod
    def model_tool_run_tool_call(
        cls,
        call: AnyToolCall,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
    ) -> ToolCallResult[ContextOut]:
        """Validate and run one call of this tool. Unexpected handler exceptions propagate."""
        std = read_call(call)
        tool = cls if std.name == cls.model_tool_name() else None
        return _run(tool, std, context, limits, {cls.model_tool_name(): cls})


finish_base(BaseFunctionToolModel, public=True)
finish_base(BaseCustomToolModel, public=True)


class ToolGroup(
    dict[
        str,
        type[BaseFunctionToolModel[ContextIn, ContextOut]]
        | type[BaseCustomToolModel[ContextIn, ContextOut]],
    ],
    GroupDefinitions,
    Generic[ContextIn, ContextOut],
):
    """Tools sharing one context type, dispatched by name. A dict of name -> tool class.

    Build it with `ToolGroup.from_list([...])`, which refuses duplicate names.
    """

    @classmethod
    def from_list(
        cls,
        tools: Sequence[
            type[BaseFunctionToolModel[_In, _Out]] | type[BaseCustomToolModel[_In, _Out]]
        ],
    ) -> ToolGroup[_In, _Out]:
        """A group of `tools`, keyed by tool name. Raises on duplicate names.

        The group's context types are the tools' (your type checker rejects tools
        whose context types differ).
        """
        group: ToolGroup[_In, _Out] = cls(check_tools(tools, namespace="core"))  # pyright: ignore[reportAssignmentType, reportCallIssue, reportArgumentType]
        return group

    def add_tool(
        self,
        tool: type[BaseFunctionToolModel[ContextIn, ContextOut]]
        | type[BaseCustomToolModel[ContextIn, ContextOut]],
    ) -> None:
        """Add one tool. Raises if its name is taken."""
        self.update(check_tools([*self.values(), tool], namespace="core"))  # pyright: ignore[reportCallIssue, reportArgumentType]

    def add_tool_search(
        self,
        *,
        execution: ToolSearchExecution = "server",
        server: ServerSearch = "bm25",
        limit: int = 5,
        search: Callable[
            [list[str], list[type[ToolModelType[ContextIn, ContextOut]]]],
            Sequence[type[ToolModelType[ContextIn, ContextOut]] | str],
        ]
        | None = None,
    ) -> None:
        """Add the group's tool search, a tool named "tool_search" through which the model
        finds the deferred tools (`model_tool_defer_loading`) and loads them.

        `execution="server"`: where the API has a search tool, it searches (OpenAI
        Responses `tool_search`; Anthropic `tool_search_tool_bm25`, or `_regex` with
        `server="regex"`). Elsewhere, and with `execution="client"`, toolwire searches
        and answers the call with the matches: `limit` at most, ranked as the README's
        "Tool search" says, or by your `search(queries, tools)`, which returns the
        matching tool classes (or names) among `tools`, best first. Raises if the group
        has a tool named "tool_search" already.
        """
        from ._search import SearchFunction, tool_search_class

        search_tool = tool_search_class(
            BaseFunctionToolModel,
            self,
            execution=execution,
            server=server,
            limit=limit,
            search=cast("SearchFunction | None", search),
            asynchronous=False,
        )
        self.add_tool(search_tool)  # pyright: ignore[reportArgumentType]

    def run_tool_call(
        self,
        call: AnyToolCall,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | None = None,
        hooks: ToolHooks | None = None,
    ) -> ToolCallResult[ContextOut]:
        """Validate and run one call with the tool of its name. Never raises for anything
        the model sent; unexpected handler exceptions propagate. `hooks`: your code
        before and after the handler runs."""
        std = read_call(call, api=api)
        return _run(self.get(std.name), std, context, limits, self, hooks)

    def run_tool_calls(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | None = None,
        unexpected_errors: UnexpectedErrors = "raise",
        other_calls: Literal["raise", "ignore"] = "raise",
        hooks: ToolHooks | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """Run every call in `calls` (a list of calls, or a whole response or message of
        any API), one result per call, in call order.

        All calls are validated before any handler runs; handlers then run one after
        another. If one raises something other than `ErrorForLLMToSee`, the calls after
        it do not run and `ToolBatchError` is raised (or, with
        `unexpected_errors="fail"`, the call gets a generic failure and the batch goes on).
        `other_calls="ignore"` skips client-side calls toolwire cannot run (computer,
        shell, MCP approval...) instead of raising; answer those yourself. `hooks`: your
        code before and after each handler runs (see `ToolHooks`).
        """
        if unexpected_errors != "raise" and unexpected_errors != "fail":
            refuse_unexpected_errors(unexpected_errors)
        read = read_calls(calls, api=api, other_calls=other_calls)
        if len(read) != 1 or hooks is not None or observer(None) is not None:
            return _run_batch(self, read, context, limits, unexpected_errors, hooks)
        # One call that nothing observes (no hooks, tracing or debug logging), as in most
        # responses: what `_run_batch` gives (its result, or its `ToolBatchError`), written
        # out inline, since on this path each function call is a visible share of the cost.
        call = read[0]
        tool = self.get(call.name)
        raw: Any = call.input
        try:
            # `prepare`'s fast paths, inline, for a function call to a tool with a plan
            # (see `PLAN`); any other call, `prepare` answers.
            owner, validator, copies = getattr(tool, PLAN, UNPLANNED)
            if (
                owner is not tool  # no such tool, or no plan of its own yet
                or validator is None  # a custom tool
                or call.type != "function"  # a custom call
                or call.truncated  # cut off: answered as such, never validated
            ):
                item: Any = prepare(tool, call, limits, self)
            elif type(raw) is str and len(raw) <= limits.always_within:
                try:  # JSON text too short to break a limit (OpenAI)
                    item = validator.validate_json(raw)
                except pydantic.ValidationError as refused:
                    item = refused_text(tool, call, raw, limits, self, refused)
            elif type(raw) is dict:  # Anthropic, Gemini
                problem = check_dict(raw, limits)
                if problem is not None:
                    item = over_limit(call, problem)
                else:
                    try:
                        item = validator.validate_python(copy_json(raw) if copies else raw, strict=False)  # fmt: skip
                    except pydantic.ValidationError as refused:
                        item = invalid(call, refused)
            else:
                item = prepare(tool, call, limits, self)
        except ToolwireError:  # a developer mistake (a kind mismatch) raises as is
            raise
        except Exception as crashed:  # a validator's unexpected error (see `Crashed`)
            error: Exception = crashed
        else:
            if type(item) is ToolCallFailure:
                return [item]
            try:
                returned = item.model_tool_handler(context)
            except ErrorForLLMToSee as raised:
                return [explicit_failure(call, raised)]
            except Exception as raised:
                error = raised
            else:
                # The common return, `(text, context)`, wrapped inline (see `success`).
                if type(returned) is tuple and len(returned) == 2:  # pyright: ignore[reportUnknownArgumentType]
                    content, handed = returned  # pyright: ignore[reportUnknownVariableType]
                    if type(content) is str:  # pyright: ignore[reportUnknownArgumentType]
                        return [ToolCallSuccess(call.id, call.name, content, handed, call.type, call.synthesized_id)]  # pyright: ignore[reportUnknownArgumentType]  # fmt: skip
                try:
                    return [success(call, item, returned)]
                except TypeError as wrong_shape:  # the handler returned something else
                    error = wrong_shape
        if unexpected_errors == "fail":
            return [unexpected_failure(call, error)]
        raise batch_error(read, [None], [error]) from None

    def prepare_tool_calls(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | None = None,
        other_calls: Literal["raise", "ignore"] = "raise",
    ) -> list[
        PendingCall[
            BaseFunctionToolModel[ContextIn, ContextOut]
            | BaseCustomToolModel[ContextIn, ContextOut]
        ]
    ]:
        """Validate every call without running any: one `PendingCall` per call, in order,
        holding the validated tool instance or the failure that will answer it. Decide,
        then `run_pending`; or `dump_pending` to decide later."""
        return pending_calls(self, read_calls(calls, api=api, other_calls=other_calls), limits)

    def run_pending(
        self,
        decided: Sequence[PendingCall[Any] | ToolCallFailure],
        context: ContextIn,
        *,
        unexpected_errors: UnexpectedErrors = "raise",
        hooks: ToolHooks | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """Answer every decided call, in order, exactly as `run_tool_calls` would: a
        `PendingCall` runs (or gets its failure), a `ToolCallFailure` (e.g.
        `pending.refuse(reason)`) answers its call as is.

        A `PendingCall` runs at most once, with the tool it was validated with: one
        already given to `run_pending`, or listed twice, raises `PendingCallError` before
        any handler runs; one whose tool left this group gets the "invalid_name" failure
        `run_tool_calls` gives; one whose name now belongs to another tool class raises
        `PendingCallError` (refuse it, or run it with the group that prepared it)."""
        if unexpected_errors != "raise" and unexpected_errors != "fail":
            refuse_unexpected_errors(unexpected_errors)
        calls, items = prepared_items(decided, self)
        return _run_batch(self, calls, context, DEFAULT_LIMITS, unexpected_errors, hooks, items)

    def load_pending(
        self,
        text: str,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        changed: Literal["raise", "refuse"] = "raise",
    ) -> list[
        PendingCall[
            BaseFunctionToolModel[ContextIn, ContextOut]
            | BaseCustomToolModel[ContextIn, ContextOut]
        ]
    ]:
        """Pending calls stored with `dump_pending`, validated again with this group's
        tools. A call whose tool changed since (its arguments changed, it left the group,
        or a tool of its name was added) never runs: by default `PendingCallError` is
        raised, its `.calls` holding every such call; with `changed="refuse"` each comes
        back in its place answered with a "refused" failure, and the rest of the batch
        as usual. Raises `PendingCallError` for text that is not `dump_pending` JSON."""
        return load_pending(self, text, limits, changed)

    def run_with_approval(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        context: ContextIn,
        approve: Callable[[PendingCall[Any]], bool | str],
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | None = None,
        unexpected_errors: UnexpectedErrors = "raise",
        other_calls: Literal["raise", "ignore"] = "raise",
        hooks: ToolHooks | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """`run_tool_calls`, asking `approve(pending)` first for every call whose tool
        needs approval: True runs it, False refuses it with a default text, a string
        refuses it with that text (the model reads it)."""
        if unexpected_errors != "raise" and unexpected_errors != "fail":
            refuse_unexpected_errors(unexpected_errors)  # before anyone is asked to approve
        pending = self.prepare_tool_calls(calls, limits=limits, api=api, other_calls=other_calls)
        decided = [decide(item, approve(item)) if item.needs_approval else item for item in pending]
        return self.run_pending(decided, context, unexpected_errors=unexpected_errors, hooks=hooks)


FunctionToolGroup = ToolGroup
"""The seed's name for `ToolGroup`."""

ToolModelType = TypeAliasType(
    "ToolModelType",
    BaseFunctionToolModel[ContextIn, ContextOut] | BaseCustomToolModel[ContextIn, ContextOut],
    type_params=(ContextIn, ContextOut),
)
"""Any tool class of this namespace, function or custom (toolcall's name)."""


def _run(
    tool: type[ToolModel] | None,
    call: StandardToolCall,
    context: Any,
    limits: ArgumentLimits,
    available: Mapping[str, object],
    hooks: ToolHooks | None = None,
) -> ToolCallResult[Any]:
    prepared = prepare(tool, call, limits, available)
    if isinstance(prepared, ToolCallFailure):
        return prepared
    watch = observer(hooks)
    if watch is None:
        return _execute(call, prepared, context)
    started = watch.start(call)
    try:
        with watch.current(started):  # spans made by the handler nest under the call's
            result = _execute(call, prepared, context)
    except Exception as error:
        watch.end(started, call, None, error)
        raise
    watch.end(started, call, result)
    return result


def _execute(call: StandardToolCall, prepared: ToolModel, context: Any) -> ToolCallResult[Any]:
    try:
        returned = cast(_Handles, prepared).model_tool_handler(context)
    except ErrorForLLMToSee as error:
        return explicit_failure(call, error)
    return success(call, prepared, returned)


def _run_batch(
    group: Mapping[str, type[ToolModel]],
    calls: list[StandardToolCall],
    context: Any,
    limits: ArgumentLimits,
    unexpected_errors: UnexpectedErrors,
    hooks: ToolHooks | None = None,
    prepared: list[Any] | None = None,
) -> list[Any]:
    watch = observer(hooks)  # None unless hooks, tracing or debug logging are on
    if prepared is None:
        prepared = prepare_all(group, calls, limits)
    results: list[ToolCallResult[Any] | None] = []
    item: Any
    started: Any = None
    for index, item in enumerate(prepared):
        call = calls[index]
        if type(item) is ToolCallFailure:
            results.append(item)
            continue
        if type(item) is Crashed:
            error: Exception = item.error
        else:
            if watch is not None:
                started = watch.start(call)
            try:
                if watch is None or not watch.traced:
                    returned = item.model_tool_handler(context)
                else:
                    with watch.current(started):  # the handler's spans nest under the call's
                        returned = item.model_tool_handler(context)
            except Exception as raised:  # `ErrorForLLMToSee` too: answered below
                error = raised
            else:
                # Inline fast path of `success` for the common `(str, context)` return.
                if (
                    type(returned) is tuple
                    and len(returned) == 2  # pyright: ignore[reportUnknownArgumentType]
                    and type(returned[0]) is str  # pyright: ignore[reportUnknownArgumentType]
                ):
                    results.append(ToolCallSuccess(call.id, call.name, returned[0], returned[1], call.type, call.synthesized_id))  # pyright: ignore[reportUnknownArgumentType]  # fmt: skip
                    if watch is not None:
                        watch.end(started, call, results[-1])
                    continue
                try:
                    wrapped = success(call, item, returned)
                except TypeError as wrong_shape:  # the handler returned something else
                    error = wrong_shape
                else:
                    results.append(wrapped)
                    if watch is not None:
                        watch.end(started, call, wrapped)
                    continue
            # `end` runs the `after` hook outside every `try` and `except`: an exception
            # out of it propagates as is (see `ToolHooks`), once, never taken for the
            # handler's nor chained to it.
            if isinstance(error, ErrorForLLMToSee):
                results.append(explicit_failure(call, error))
                if watch is not None:
                    watch.end(started, call, results[-1])
                continue
        # The call's unexpected error: a handler's exception, a wrong return, a validator's.
        failed = unexpected_failure(call, error) if unexpected_errors == "fail" else None
        if watch is not None and type(item) is not Crashed:
            watch.end(started, call, failed, None if failed is not None else error)
        if failed is not None:
            results.append(failed)
            continue
        errors: list[Exception | None] = [None] * len(calls)
        errors[index] = error
        results.extend([None] * (len(calls) - index))
        raise batch_error(calls, results, errors) from None
    return results


class _Handles:
    def model_tool_handler(self, context: Any, /) -> object: ...
