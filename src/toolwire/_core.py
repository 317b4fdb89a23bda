"""Plain-function tools and their group (`toolwire.core`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, cast

from typing_extensions import TypeAliasType, TypeVar

from . import _budget
from ._api import Api
from ._batch import UnexpectedErrors, batch_error, check_settings, unexpected_failure
from ._batch_extras import BatchExtras
from ._budget import ResultBudget, check_group_budget, fit_result, fit_results
from ._group import SharedGroup, check_tools, own_call
from ._limits import DEFAULT_LIMITS, ArgumentLimits
from ._observe import Observer, ToolHooks, observer
from ._parts import ToolContent
from ._pending import PendingCall, decide, mark_edits, prepared_items
from ._pipeline import Crashed, explicit_failure, prepare_all, prepare_one, success
from ._read import read_call, read_calls
from ._result import ToolCallFailure, ToolCallResult, ToolCallSuccess
from ._tool import CustomToolModel, FunctionToolModel, ToolModel, finish_base, missing_handler
from .exceptions import ErrorForLLMToSee, ToolBatchError, ToolHookError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ._adapters.openai_chat.servers import ChatServer
    from ._call import AnyToolCall, StandardToolCall
    from ._definition import ServerSearch, ToolSearchExecution
    from ._history import AnyResponse
    from ._repair import RepairPolicy
    from ._retry_budget import RetryBudget

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


class _PlainHandler(Generic[ContextIn, ContextOut]):
    """What both tool bases of toolwire.core add to their kind: a plain handler, and the
    method that runs one call of the tool."""

    _toolwire_namespace = "core"

    def model_tool_handler(self, context: ContextIn, /) -> tuple[ToolContent, ContextOut]:
        """Override: handle a valid call. Return `(what the model sees, context for you)`:
        text, or a sequence of text, `ImagePart` and `FilePart`."""
        raise NotImplementedError(missing_handler(self))

    @classmethod
    def model_tool_run_tool_call(
        cls,
        call: AnyToolCall,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
    ) -> ToolCallResult[ContextOut]:
        """Validate and run one call of this tool. Unexpected handler exceptions propagate."""
        return _run(*own_call(cast("type[ToolModel]", cls), call)[1:], context, limits)


class BaseFunctionToolModel(FunctionToolModel, _PlainHandler[ContextIn, ContextOut]):
    """A function tool: a pydantic model whose fields are the arguments the model sends,
    and whose `model_tool_handler` runs when it calls the tool.

    `ContextIn` is what your loop passes to the handler; `ContextOut` is what the
    handler hands back to your loop next to the text the model sees.
    """


class BaseCustomToolModel(CustomToolModel, _PlainHandler[ContextIn, ContextOut]):
    """An OpenAI custom tool: the model sends free text (`self.input`), optionally
    constrained by `model_tool_format` (a Lark grammar or a regex)."""


finish_base(BaseFunctionToolModel, public=True)
finish_base(BaseCustomToolModel, public=True)


class ToolGroup(
    SharedGroup[
        BaseFunctionToolModel[ContextIn, ContextOut] | BaseCustomToolModel[ContextIn, ContextOut]
    ],
    Generic[ContextIn, ContextOut],
):
    """Tools sharing one context type, dispatched by name. A dict of name -> tool class.

    Build it with `ToolGroup.from_list([...])`, which refuses duplicate names.
    """

    _toolwire_namespace = "core"

    @classmethod
    def from_list(
        cls,
        tools: Sequence[
            type[BaseFunctionToolModel[_In, _Out]] | type[BaseCustomToolModel[_In, _Out]]
        ],
        *,
        result_budget: ResultBudget | None = None,
    ) -> ToolGroup[_In, _Out]:
        """A group of `tools`, keyed by tool name. Raises on duplicate names.

        The group's context types are the tools' (your type checker rejects tools
        whose context types differ). `result_budget`: how much of a result the model
        reads, for the tools without their own (`ResultBudget`).
        """
        group: ToolGroup[_In, _Out] = cls(check_tools(tools, namespace="core"))  # pyright: ignore[reportAssignmentType, reportCallIssue, reportArgumentType]
        if result_budget is not None:
            group.result_budget = check_group_budget(result_budget)
        return group

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
        from ._search import add_tool_search

        add_tool_search(
            self,
            BaseFunctionToolModel,
            execution=execution,
            server=server,
            limit=limit,
            search=search,
            asynchronous=False,
        )

    def run_tool_call(
        self,
        call: AnyToolCall,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | ChatServer | None = None,
        hooks: ToolHooks | None = None,
    ) -> ToolCallResult[ContextOut]:
        """Validate and run one call with the tool of its name. Never raises for anything
        the model sent; unexpected handler exceptions propagate. `hooks`: your code
        before and after the handler runs."""
        read = read_call(call, api=api)
        return _run(read, self, context, limits, hooks)

    def run_tool_calls(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | ChatServer | None = None,
        unexpected_errors: UnexpectedErrors = "raise",
        other_calls: Literal["raise", "ignore"] = "raise",
        hooks: ToolHooks | None = None,
        repair: RepairPolicy | None = None,
        retries: RetryBudget | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """Run every call in `calls` (a list of calls, or a whole response or message of
        any API), one result per call, in call order.

        All calls are validated before any handler runs; handlers then run one after
        another. If one raises something other than `ErrorForLLMToSee`, the calls after
        it do not run and `ToolBatchError` is raised (or, with
        `unexpected_errors="fail"`, the call gets a generic failure and the batch goes on).
        `other_calls="ignore"` skips client-side calls toolwire cannot run (computer,
        shell, MCP approval...) instead of raising; answer those yourself. `hooks`: your
        code before and after each handler runs (see `ToolHooks`). `repair`: fix the
        arguments of calls that fail validation as the policy allows (see
        `RepairPolicy`). `retries`: the conversation's `RetryBudget`, counting each
        tool's failed calls in a row.
        """
        if unexpected_errors != "raise":  # the default needs no check
            check_settings(unexpected_errors)
        read = read_calls(calls, api=api, other_calls=other_calls)
        if repair is None and retries is None:
            return _run_batch(self, read, context, limits, unexpected_errors, hooks)
        with BatchExtras(self, read, limits, repair, retries) as extras:
            return extras.finish(
                _run_batch(self, read, context, limits, unexpected_errors, hooks, extras.prepared)
            )

    def run_pending(
        self,
        decided: Sequence[PendingCall[Any] | ToolCallFailure],
        context: ContextIn,
        *,
        unexpected_errors: UnexpectedErrors = "raise",
        hooks: ToolHooks | None = None,
        partial: bool = False,
        retries: RetryBudget | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """Answer every decided call, in order, exactly as `run_tool_calls` would: a
        `PendingCall` runs (or gets its failure), a `ToolCallFailure` (e.g.
        `pending.refuse(reason)`) answers its call as is. A `PendingCall` runs at most
        once, with the tool it was validated with (see `PendingCall`).

        Every call of the response must have exactly one entry: two entries answering
        one call id, or a list that leaves some of the response's calls unanswered (a
        declined call left out instead of refused), raise `PendingCallError` before any
        handler runs. `partial=True` allows the latter, when you answer the rest in
        another `run_pending` and send all the results together. `retries`: the
        conversation's `RetryBudget` (see `run_tool_calls`)."""
        check_settings(unexpected_errors)
        calls, items = prepared_items(decided, self, partial)
        try:
            if retries is None:
                results = _run_batch(self, calls, context, DEFAULT_LIMITS, unexpected_errors, hooks, items)  # fmt: skip
            else:
                with BatchExtras(self, calls, DEFAULT_LIMITS, None, retries, items) as extras:
                    results = extras.finish(
                        _run_batch(
                            self, calls, context, DEFAULT_LIMITS, unexpected_errors, hooks, items
                        )  # fmt: skip
                    )
        except ToolBatchError as error:
            mark_edits(decided, error.results)
            raise
        mark_edits(decided, results)
        return results

    def run_with_approval(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        context: ContextIn,
        approve: Callable[[PendingCall[Any]], bool | str | PendingCall[Any]],
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | ChatServer | None = None,
        unexpected_errors: UnexpectedErrors = "raise",
        other_calls: Literal["raise", "ignore"] = "raise",
        hooks: ToolHooks | None = None,
        retries: RetryBudget | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """`run_tool_calls`, asking `approve(pending)` first for every call whose tool
        needs approval: True runs it, False refuses it with a default text, a string
        refuses it with that text (the model reads it)."""
        check_settings(unexpected_errors)  # before anyone is asked to approve
        pending = self.prepare_tool_calls(calls, limits=limits, api=api, other_calls=other_calls)
        decided = [decide(item, approve(item)) if item.needs_approval else item for item in pending]
        return self.run_pending(
            decided, context, unexpected_errors=unexpected_errors, hooks=hooks, retries=retries
        )


FunctionToolGroup = ToolGroup
"""The seed's name for `ToolGroup`."""

ToolModelType = TypeAliasType(
    "ToolModelType",
    BaseFunctionToolModel[ContextIn, ContextOut] | BaseCustomToolModel[ContextIn, ContextOut],
    type_params=(ContextIn, ContextOut),
)
"""Any tool class of this namespace, function or custom (toolcall's name)."""


def _run(
    call: StandardToolCall,
    available: Mapping[str, type[ToolModel]],
    context: Any,
    limits: ArgumentLimits,
    hooks: ToolHooks | None = None,
) -> ToolCallResult[Any]:
    """Validate and run one call with the tool of its name among `available`;
    unexpected exceptions propagate as they are."""
    prepared = prepare_one(call, available, limits)
    if isinstance(prepared, ToolCallFailure):
        return prepared
    watch = observer(hooks, plain=True)
    if watch is None:
        return fit_result(available, _execute(call, prepared, context))
    result, error = _watched(watch, call, prepared, context, "raise")
    if error is not None:
        raise error  # the handler's exception as it is, or a hook's `ToolHookError`
    return fit_result(available, cast("ToolCallResult[Any]", result))


def _execute(call: StandardToolCall, prepared: Any, context: Any) -> ToolCallResult[Any]:
    """Run the handler of a validated call and wrap what it returns; `ErrorForLLMToSee`
    becomes the call's failure, anything else it raises propagates."""
    try:
        returned = prepared.model_tool_handler(context)
    except ErrorForLLMToSee as error:
        return explicit_failure(call, error)
    return success(call, prepared, returned)


def _watched(
    watch: Observer,
    call: StandardToolCall,
    tool: ToolModel,
    context: Any,
    unexpected_errors: UnexpectedErrors,
) -> tuple[ToolCallResult[Any] | None, Exception | None]:
    """Run one call between the observer's start and end (hooks, span, log line):
    `(its result, None)`, or `(None, its unexpected error)`: the handler's exception
    (its failure result instead with "fail"), or a hook's `ToolHookError`.

    The `after` hook runs outside every `except` clause, so its exception is never
    chained to the handler's; if the handler's exception is the call's error already,
    a hook's exception after it becomes a note on it."""
    try:
        started = watch.start(call)
    except ToolHookError as hook_error:
        return None, hook_error
    error: Exception | None = None
    try:
        if started[2] is not None:  # its before hook refused it: the handler does not run
            result: ToolCallResult[Any] | None = started[2]
        elif watch.traced:
            with watch.current(started):  # the handler's spans nest under the call's
                result = _execute(call, tool, context)
        else:
            result = _execute(call, tool, context)
    except Exception as raised:  # a handler's exception, a wrong return
        error = raised
        result = unexpected_failure(call, raised) if unexpected_errors == "fail" else None
    try:
        result = watch.end(started, call, result, error if result is None else None)
    except ToolHookError as hook_error:
        if error is None:
            return None, hook_error
        error.add_note(f"Its after hook raised too: {hook_error}")
    return (result, None) if result is not None else (None, error)


_NOT_TO_RUN = frozenset({ToolCallFailure, ToolCallSuccess, Crashed})
"""What a prepared entry is when it is not a tool instance to run: its answer already
(refused, edited away, answered), or its validation's exception (`Crashed`)."""


def _run_batch(
    group: Mapping[str, type[ToolModel]],
    calls: list[StandardToolCall],
    context: Any,
    limits: ArgumentLimits,
    unexpected_errors: UnexpectedErrors,
    hooks: ToolHooks | None = None,
    prepared: list[Any] | None = None,
) -> list[Any]:
    watch = observer(hooks, plain=True)  # None unless hooks, tracing or debug logging are on
    if prepared is None:
        prepared = prepare_all(group, calls, limits)
    results: list[ToolCallResult[Any] | None] = []
    item: Any
    for index, item in enumerate(prepared):  # zip(..., strict=True) costs 2k more per batch
        call = calls[index]
        if type(item) in _NOT_TO_RUN:  # one test for the common case, a tool instance
            if type(item) is not Crashed:  # answered already
                results.append(item)
                continue
            error: Exception | None = item.error
        elif watch is None:
            try:
                results.append(_execute(call, item, context))
                continue
            except Exception as raised:
                error = raised
        else:
            result, error = _watched(watch, call, item, context, unexpected_errors)
            if error is None:
                results.append(result)
                continue
        # The call's unexpected error: a handler's or a hook's exception, a wrong return,
        # a validator's.
        if unexpected_errors == "fail":
            results.append(unexpected_failure(call, error))
            continue
        errors: list[Exception | None] = [None] * len(calls)
        errors[index] = error
        results.extend([None] * (len(calls) - index))
        fit_results(group, results)
        raise batch_error(calls, results, errors) from None
    if _budget.budgets_exist:
        fit_results(group, results)
    return results
