"""Plain-function tools and their group (`toolwire.core`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, cast

from typing_extensions import TypeAliasType, TypeVar

from ._api import Api
from ._batch import UnexpectedErrors, batch_error, check_settings, unexpected_failure
from ._group import SharedGroup, check_tools, own_call
from ._limits import DEFAULT_LIMITS, ArgumentLimits
from ._observe import ToolHooks, observer
from ._parts import ToolContent
from ._pending import PendingCall, decide, prepared_items
from ._pipeline import Crashed, explicit_failure, prepare, prepare_all, success
from ._read import read_call, read_calls
from ._result import ToolCallFailure, ToolCallResult
from ._tool import CustomToolModel, FunctionToolModel, ToolModel, finish_base, missing_handler
from .exceptions import ErrorForLLMToSee

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ._adapters.openai_chat.servers import ChatServer
    from ._call import AnyToolCall, StandardToolCall
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
        return _run(*own_call(cast("type[ToolModel]", cls), call), context, limits)


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
    ) -> ToolGroup[_In, _Out]:
        """A group of `tools`, keyed by tool name. Raises on duplicate names.

        The group's context types are the tools' (your type checker rejects tools
        whose context types differ).
        """
        group: ToolGroup[_In, _Out] = cls(check_tools(tools, namespace="core"))  # pyright: ignore[reportAssignmentType, reportCallIssue, reportArgumentType]
        return group

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
        return _run(self.get(read.name), read, self, context, limits, hooks)

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
        check_settings(unexpected_errors)
        read = read_calls(calls, api=api, other_calls=other_calls)
        return _run_batch(self, read, context, limits, unexpected_errors, hooks)

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
        `pending.refuse(reason)`) answers its call as is. A `PendingCall` runs at most
        once, with the tool it was validated with (see `PendingCall`)."""
        check_settings(unexpected_errors)
        calls, items = prepared_items(decided, self)
        return _run_batch(self, calls, context, DEFAULT_LIMITS, unexpected_errors, hooks, items)

    def run_with_approval(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        context: ContextIn,
        approve: Callable[[PendingCall[Any]], bool | str],
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | ChatServer | None = None,
        unexpected_errors: UnexpectedErrors = "raise",
        other_calls: Literal["raise", "ignore"] = "raise",
        hooks: ToolHooks | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """`run_tool_calls`, asking `approve(pending)` first for every call whose tool
        needs approval: True runs it, False refuses it with a default text, a string
        refuses it with that text (the model reads it)."""
        check_settings(unexpected_errors)  # before anyone is asked to approve
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
    available: Mapping[str, object],
    context: Any,
    limits: ArgumentLimits,
    hooks: ToolHooks | None = None,
) -> ToolCallResult[Any]:
    """Validate and run one call with `tool` (None: no tool of its name among `available`);
    unexpected exceptions propagate as they are."""
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


def _execute(call: StandardToolCall, prepared: Any, context: Any) -> ToolCallResult[Any]:
    """Run the handler of a validated call and wrap what it returns; `ErrorForLLMToSee`
    becomes the call's failure, anything else it raises propagates."""
    try:
        returned = prepared.model_tool_handler(context)
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
                    result = _execute(call, item, context)
                else:
                    with watch.current(started):  # the handler's spans nest under the call's
                        result = _execute(call, item, context)
            except Exception as raised:
                error = raised
            else:
                results.append(result)
                # `end` runs the `after` hook outside every `try` and `except`: an
                # exception out of it propagates as is (see `ToolHooks`), once, never
                # taken for the handler's nor chained to it.
                if watch is not None:
                    watch.end(started, call, result)
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
