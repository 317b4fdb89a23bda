"""Async tools and their group (`toolwire.aio`): handlers are `async def`, and a
batch's handlers run concurrently."""

from __future__ import annotations

import asyncio
import heapq
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, cast

from typing_extensions import TypeAliasType, TypeVar

from . import _budget
from ._api import Api
from ._batch import (
    UnexpectedErrors,
    batch_error,
    check_settings,
    timeout_failure,
    unexpected_failure,
)
from ._batch_extras import BatchExtras
from ._batch_wait import in_anyio_scope, no_event_loop, stop_all, wait_for
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
from .exceptions import ErrorForLLMToSee, HandlerCancelledError, ToolBatchError, ToolHookError

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


class _AsyncHandler(Generic[ContextIn, ContextOut]):
    """What both tool bases of toolwire.aio add to their kind: an `async def` handler, and
    the method that runs one call of the tool."""

    _toolwire_namespace = "aio"

    async def model_tool_handler(self, context: ContextIn, /) -> tuple[ToolContent, ContextOut]:
        """Override: handle a valid call. Return `(what the model sees, context for you)`:
        text, or a sequence of text, `ImagePart` and `FilePart`."""
        raise NotImplementedError(missing_handler(self))

    @classmethod
    async def model_tool_run_tool_call(
        cls,
        call: AnyToolCall,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
    ) -> ToolCallResult[ContextOut]:
        """Validate and run one call of this tool. Unexpected handler exceptions propagate."""
        return await _run(*own_call(cast("type[ToolModel]", cls), call)[1:], context, limits)


class BaseFunctionToolModel(FunctionToolModel, _AsyncHandler[ContextIn, ContextOut]):
    """A function tool with an `async def` handler: a pydantic model whose fields are the
    arguments the model sends. Run sync work inside it with `asyncio.to_thread`."""


class BaseCustomToolModel(CustomToolModel, _AsyncHandler[ContextIn, ContextOut]):
    """An OpenAI custom tool with an `async def` handler: the model sends free text."""


finish_base(BaseFunctionToolModel, public=True)
finish_base(BaseCustomToolModel, public=True)


class ToolGroup(
    SharedGroup[
        BaseFunctionToolModel[ContextIn, ContextOut] | BaseCustomToolModel[ContextIn, ContextOut]
    ],
    Generic[ContextIn, ContextOut],
):
    """Async tools sharing one context type, dispatched by name. A dict of name -> tool.

    Build it with `ToolGroup.from_list([...])`, which refuses duplicate names.
    """

    _toolwire_namespace = "aio"

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
        group: ToolGroup[_In, _Out] = cls(check_tools(tools, namespace="aio"))  # pyright: ignore[reportAssignmentType, reportCallIssue, reportArgumentType]
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
            Sequence[type[ToolModelType[ContextIn, ContextOut]] | str]
            | Awaitable[Sequence[type[ToolModelType[ContextIn, ContextOut]] | str]],
        ]
        | None = None,
    ) -> None:
        """Add the group's tool search: as `toolwire.core.ToolGroup.add_tool_search`
        says, and your `search` function may also be `async def`."""
        from ._search import add_tool_search

        add_tool_search(
            self,
            BaseFunctionToolModel,
            execution=execution,
            server=server,
            limit=limit,
            search=search,
            asynchronous=True,
        )

    async def run_tool_call(
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
        before and after the handler runs (sync or async)."""
        read = read_call(call, api=api)
        return await _run(read, self, context, limits, hooks)

    async def run_tool_calls(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        context: ContextIn,
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | ChatServer | None = None,
        unexpected_errors: UnexpectedErrors = "raise",
        other_calls: Literal["raise", "ignore"] = "raise",
        max_concurrency: int | None = None,
        timeout: float | None = None,
        hooks: ToolHooks | None = None,
        repair: RepairPolicy | None = None,
        retries: RetryBudget | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """Run every call in `calls` concurrently; one result per call, in call order.

        All calls are validated before any handler starts. `timeout` (seconds) cancels a
        handler that runs longer and answers its call with a "timeout" failure (a tool's
        `model_tool_timeout` wins). The calls of a `model_tool_sequential` tool run one
        at a time in call order: each later one waits until the one ahead of it has
        finished.

        Without `max_concurrency`, every call that waits for nothing starts at once:
        each call of the other tools and the first call of each sequential tool.
        `max_concurrency=n` lets at most n handlers run at once; a free slot goes to
        the waiting call that comes first in call order (`max_concurrency=1` runs the
        batch in call order).

        If a handler (or a validator) raises something other than `ErrorForLLMToSee`,
        handlers already running finish and `ToolBatchError` is raised. A call still
        waiting when the exception was recorded never starts (it is in
        `error.not_run`), nor do the later calls of its tool. Whether it was still
        waiting is decided at its turn, not by task scheduling: when the call ahead of
        it (a sequential tool's) finished, or when a slot came free for it. So without
        `max_concurrency` only the later calls of sequential tools can be left not run.
        (A validator's exception is recorded before any handler starts: then, with
        `max_concurrency`, no call starts; without it, the calls that wait for nothing
        still do.)
        With `unexpected_errors="fail"`, the call gets a generic failure instead and the
        batch goes on. A call whose task other code cancels, or whose handler or async
        hook raises `CancelledError` on its own, gets `HandlerCancelledError` as its
        unexpected exception. Cancelling the task that awaits the batch (asyncio's
        `cancel()` or `timeout`, anyio's cancel scopes) cancels its handlers, waits for
        them to stop (a handler catching the cancellation gets each further request),
        and raises `CancelledError`. Batches run on asyncio, under anyio too; not on
        trio. `hooks`: your
        code before and after each handler runs (see `ToolHooks`); a hook's exception
        is its call's unexpected error (`ToolHookError`), handled as above. `repair`
        and `retries`: as in `toolwire.core` (`RepairPolicy`, `RetryBudget`).
        """
        if unexpected_errors != "raise" or max_concurrency is not None or timeout is not None:
            check_settings(unexpected_errors, max_concurrency, timeout)  # not the defaults
        read = read_calls(calls, api=api, other_calls=other_calls)
        if repair is None and retries is None:
            batch = _Batch(self, read, limits)
            return await batch.run(context, unexpected_errors, max_concurrency, timeout, hooks)
        with BatchExtras(self, read, limits, repair, retries) as extras:
            batch = _Batch(self, read, limits, extras.prepared)
            return extras.finish(
                await batch.run(context, unexpected_errors, max_concurrency, timeout, hooks)
            )

    async def run_pending(
        self,
        decided: Sequence[PendingCall[Any] | ToolCallFailure],
        context: ContextIn,
        *,
        unexpected_errors: UnexpectedErrors = "raise",
        max_concurrency: int | None = None,
        timeout: float | None = None,
        hooks: ToolHooks | None = None,
        partial: bool = False,
        retries: RetryBudget | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """Answer every decided call, in order, exactly as `run_tool_calls` would, their
        handlers running concurrently: a `PendingCall` runs (or gets its failure), a
        `ToolCallFailure` (e.g. `pending.refuse(reason)`) answers its call as is. A
        `PendingCall` runs at most once, with the tool it was validated with (see
        `PendingCall`).

        Every call of the response must have exactly one entry: two entries answering
        one call id, or a list that leaves some of the response's calls unanswered (a
        declined call left out instead of refused), raise `PendingCallError` before any
        handler runs. `partial=True` allows the latter, when you answer the rest in
        another `run_pending` and send all the results together. `retries`: the
        conversation's `RetryBudget` (see `run_tool_calls`)."""
        check_settings(unexpected_errors, max_concurrency, timeout)
        calls, items = prepared_items(decided, self, partial)
        batch = _Batch(self, calls, DEFAULT_LIMITS, items)
        try:
            if retries is None:
                results = await batch.run(
                    context, unexpected_errors, max_concurrency, timeout, hooks
                )
            else:
                with BatchExtras(self, calls, DEFAULT_LIMITS, None, retries, items) as extras:
                    results = extras.finish(
                        await batch.run(context, unexpected_errors, max_concurrency, timeout, hooks)
                    )
        except ToolBatchError as error:
            mark_edits(decided, error.results)
            raise
        mark_edits(decided, results)
        return results

    async def run_with_approval(
        self,
        calls: AnyToolCall | Sequence[AnyToolCall] | AnyResponse,
        context: ContextIn,
        approve: Callable[
            [PendingCall[Any]],
            bool | str | PendingCall[Any] | Awaitable[bool | str | PendingCall[Any]],
        ],
        *,
        limits: ArgumentLimits = DEFAULT_LIMITS,
        api: Api | ChatServer | None = None,
        unexpected_errors: UnexpectedErrors = "raise",
        other_calls: Literal["raise", "ignore"] = "raise",
        max_concurrency: int | None = None,
        timeout: float | None = None,
        hooks: ToolHooks | None = None,
        retries: RetryBudget | None = None,
    ) -> list[ToolCallResult[ContextOut]]:
        """`run_tool_calls`, asking `approve(pending)` (sync or async) first for every
        call whose tool needs approval, one at a time in call order: True runs it, False
        refuses it with a default text, a string refuses it with that text."""
        check_settings(unexpected_errors, max_concurrency, timeout)  # before any approval
        pending = self.prepare_tool_calls(calls, limits=limits, api=api, other_calls=other_calls)
        decided: list[PendingCall[Any] | ToolCallFailure] = []
        for item in pending:
            if not item.needs_approval:
                decided.append(item)
                continue
            verdict = approve(item)
            if inspect.isawaitable(verdict):
                verdict = await verdict
            decided.append(decide(item, verdict))
        return await self.run_pending(
            decided,
            context,
            unexpected_errors=unexpected_errors,
            max_concurrency=max_concurrency,
            timeout=timeout,
            hooks=hooks,
            retries=retries,
        )


FunctionToolGroup = ToolGroup
"""The seed's name for `ToolGroup`."""

ToolModelType = TypeAliasType(
    "ToolModelType",
    BaseFunctionToolModel[ContextIn, ContextOut] | BaseCustomToolModel[ContextIn, ContextOut],
    type_params=(ContextIn, ContextOut),
)
"""Any tool class of this namespace, function or custom (toolcall's name)."""


async def _run(
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
    watch = observer(hooks)
    if watch is None:
        return fit_result(available, await _execute(call, prepared, context))
    try:
        started = await watch.astart(call)
    except asyncio.CancelledError as cancelled:
        own = _own_cancellation(cancelled, call, "before hook")
        if own is cancelled:
            raise
        raise own from cancelled
    error: Exception | None = None
    try:
        if started[2] is not None:  # its before hook refused it: the handler does not run
            result: ToolCallResult[Any] | None = started[2]
        else:
            with watch.current(started):  # spans made by the handler nest under the call's
                result = await _execute(call, prepared, context)
    except Exception as raised:
        error = raised
    except asyncio.CancelledError as cancelled:
        watch.cancelled(started, call, cancelled)
        raise
    try:
        if error is not None:
            await watch.aend(started, call, None, error)
            raise error  # the handler's exception, as it is
        result = await watch.aend(started, call, result)  # pyright: ignore[reportPossiblyUnboundVariable]
    except ToolHookError as hook_error:
        if error is None:
            raise
        error.add_note(f"Its after hook raised too: {hook_error}")
        raise error from None
    except asyncio.CancelledError as cancelled:
        own = _own_cancellation(cancelled, call, "after hook")
        if own is cancelled:
            raise
        raise own from cancelled
    return fit_result(available, cast("ToolCallResult[Any]", result))


async def _execute(
    call: StandardToolCall, prepared: ToolModel, context: Any
) -> ToolCallResult[Any]:
    limit = prepared.model_tool_timeout
    try:
        if limit is None:
            returned = await _handler(prepared, context)
        else:
            async with asyncio.timeout(limit) as deadline:
                returned = await _handler(prepared, context)
    except ErrorForLLMToSee as error:
        return explicit_failure(call, error)
    except TimeoutError as error:
        if limit is not None and deadline.expired():  # pyright: ignore[reportPossiblyUnboundVariable]
            return timeout_failure(call, limit, error)
        raise
    except asyncio.CancelledError as cancelled:
        own = _own_cancellation(cancelled, call)
        if own is cancelled:
            raise
        raise own from cancelled
    return success(call, prepared, returned)


def _own_cancellation(
    cancelled: asyncio.CancelledError,
    call: StandardToolCall,
    during: Literal["handler", "before hook", "after hook"] = "handler",
) -> BaseException:
    """What a `CancelledError` out of a handler (or an async hook) means: the running
    task being cancelled (propagate it), or the handler raising one on its own, e.g.
    after awaiting a future that other code cancelled. Passing the latter on would tell
    a caller nobody cancelled that it was, so it becomes the call's unexpected error."""
    task = asyncio.current_task()
    if task is None or task.cancelling():
        return cancelled
    own = HandlerCancelledError(_raised_cancelled(call, during))
    own.__cause__ = cancelled
    return own


def _raised_cancelled(
    call: StandardToolCall, during: Literal["handler", "before hook", "after hook"]
) -> str:
    if during == "handler":
        return (
            f"The handler of {call.name!r} (call {call.id!r}) raised CancelledError although "
            "nothing cancelled the batch, e.g. it awaited a future or task that other code "
            "cancelled. Catch it in the handler if that is expected."
        )
    return (
        f"The {during} of call {call.id!r} ({call.name!r}) raised CancelledError although "
        "nothing cancelled the batch, e.g. it awaited a future or task that other code "
        "cancelled. Catch it in the hook if that is expected."
    )


def _handler(tool: ToolModel, context: Any) -> Awaitable[object]:
    # Typed by annotation, not `cast(...)`: a call (and a subscription) per call at run time.
    handles: Any = tool  # an aio tool: its handler is `async def model_tool_handler`
    awaitable: Any = handles.model_tool_handler(context)
    if not hasattr(awaitable, "__await__"):
        raise TypeError(
            f"{type(tool).__name__}.model_tool_handler is not async. toolwire.aio tools need "
            "`async def model_tool_handler`; for plain functions use toolwire.core."
        )
    return awaitable


class _Batch:
    """One concurrent run of validated calls, with the bookkeeping `ToolBatchError` needs."""

    # Read from the class until a batch sets them (rarely): no per-batch stores.
    cancelled = False
    """The batch is being cancelled (`_wait_all` caught the cancellation)."""
    owner_cancels = 0
    """The cancellation requests of the task awaiting the batch when the batch began."""

    def __init__(
        self,
        group: Mapping[str, type[ToolModel]],
        calls: list[StandardToolCall],
        limits: ArgumentLimits,
        prepared: list[Any] | None = None,
    ) -> None:
        self.group = group
        self.calls = calls
        self.prepared = prepare_all(group, calls, limits) if prepared is None else prepared
        self.results: list[ToolCallResult[Any] | None] = [None] * len(calls)
        self.errors: list[Exception | None] = [None] * len(calls)
        self.stopped = False
        """No waiting call may start: an unexpected error was recorded ("raise")."""
        self.owner: asyncio.Task[Any] | None = None
        """The task awaiting the batch."""
        self.watch: Observer | None = None
        self.run_call = self._invoke

    async def run(
        self,
        context: Any,
        unexpected_errors: UnexpectedErrors,
        max_concurrency: int | None,
        timeout: float | None,
        hooks: ToolHooks | None = None,
    ) -> list[Any]:
        self.watch = observer(hooks)  # None unless hooks, tracing or debug logging are on
        if self.watch is not None:
            self.run_call = self._observed
        try:
            self.owner = owner = asyncio.current_task()  # raises where no event loop runs
        except RuntimeError:
            raise no_event_loop() from None
        if owner is not None and owner.cancelling():  # it runs on after a cancellation
            self.owner_cancels = owner.cancelling()
        others: list[tuple[int, ToolModel]] = []  # the calls of tools that are not sequential
        in_order: dict[type[ToolModel], list[tuple[int, ToolModel]]] = {}
        for index, item in enumerate(self.prepared):
            if isinstance(item, ToolCallFailure | ToolCallSuccess):  # answered already
                self.results[index] = item
            elif isinstance(item, Crashed):  # its validation raised: it never starts
                self._unexpected(index, item.error, unexpected_errors)
            elif item.model_tool_sequential:  # one task per sequential tool, in call order
                in_order.setdefault(type(item), []).append((index, item))
            else:
                others.append((index, item))
        if not others and not in_order:
            return self._outcome(unexpected_errors)
        lone = _lone(others, in_order)
        if (
            lone is not None
            and timeout is None
            and lone[1].model_tool_timeout is None
            and not self.owner_cancels
            and owner is not None
            and not in_anyio_scope(owner)
        ):
            # The batch's only call to run, when nothing can time it out or cancel it
            # apart from the task awaiting the batch (no timeout, no other call; a slot is
            # free for it): run in that task, without a task of its own. Cancelling the
            # awaiting task cancels the handler where it waits, as it would cancel the
            # call's task, and each further request reaches it; a handler that catches
            # the cancellation and returns still ends the batch with it. Not inside an
            # anyio cancel scope (see `in_anyio_scope`), nor in a task that runs on after
            # a cancellation.
            await self.run_call(*lone, context, unexpected_errors, None)
            if self._batch_cancelled():
                raise asyncio.CancelledError
            return self._outcome(unexpected_errors)
        # Tasks take their first steps in the order they are made: the other tools'
        # calls, then each sequential tool's chain.
        start = asyncio.get_running_loop().create_task  # ensure_future re-checks each one
        tasks: list[asyncio.Task[None]] = []
        if max_concurrency is None:
            for index, item in others:
                tasks.append(start(self.run_call(index, item, context, unexpected_errors, timeout)))
            for calls in in_order.values():
                tasks.append(start(self._in_order(calls, context, unexpected_errors, timeout)))
        else:
            lanes = [*([call] for call in others), *in_order.values()]
            slots = _Slots(max_concurrency, self)
            # Every call that waits for nothing asks for its slot now, in call order and
            # before any handler runs: which calls get the first slots is fixed here.
            tickets = {first: slots.ask(first) for first in sorted(lane[0][0] for lane in lanes)}
            for lane in lanes:
                ticket = tickets[lane[0][0]]
                tasks.append(
                    start(self._gated(lane, ticket, slots, context, unexpected_errors, timeout))
                )
        await _wait_all(tasks, self)
        return self._outcome(unexpected_errors)

    def _outcome(self, unexpected_errors: UnexpectedErrors) -> list[Any]:
        """The results, or `ToolBatchError`. Never a list with a hole: every call is
        answered by the time its task ends, and a call left without an answer anyway
        (its task cancelled by other code before it started) becomes an error entry."""
        results = self.results
        if _budget.budgets_exist:
            fit_results(self.group, results)
        if not self.stopped:
            for result in results:  # a plain loop: the cheapest scan for one call or 1,000
                if result is None:
                    self._fill_holes(unexpected_errors)
                    break
        if self.stopped:  # an unexpected error was recorded ("raise")
            raise batch_error(self.calls, results, self.errors) from None
        return results

    def _fill_holes(self, unexpected_errors: UnexpectedErrors) -> None:
        """Answer each call left without a result or an error (see `_outcome`)."""
        for index, result in enumerate(self.results):
            if result is None and self.errors[index] is None:
                call = self.calls[index]
                lost = HandlerCancelledError(
                    f"Call {call.id!r} ({call.name!r}) got no result: the task that was to run "
                    "it ended without one, most likely because other code cancelled it before "
                    "it started (nothing cancelled the batch). Only cancel the task that "
                    "awaits the batch; if nothing else cancelled it, this is a bug in "
                    "toolwire: please report it."
                )
                self._unexpected(index, lost, unexpected_errors)

    def _batch_cancelled(self) -> bool:
        """Whether a `CancelledError` in a call's task is the batch being cancelled: the
        task awaiting it was asked to cancel since the batch began (`cancelled` is set only
        once that task runs again; the task's count is set at once, e.g. when the event
        loop cancels every task as it shuts down)."""
        owner = self.owner
        return self.cancelled or (owner is not None and owner.cancelling() > self.owner_cancels)

    def _cancelled_call(
        self,
        index: int,
        cancelled: asyncio.CancelledError,
        unexpected_errors: UnexpectedErrors,
        during: Literal["handler", "before hook", "after hook", "wait"],
    ) -> None:
        """A `CancelledError` in the task of call `index` that is not the batch's own
        cancellation (`_batch_cancelled` is false): other code cancelled the task, or a
        handler or async hook raised it on its own (it awaited a future other code
        cancelled). It becomes the call's unexpected error, `HandlerCancelledError`, and
        the task goes on as after any unexpected error. Its cancellation requests are
        answered (`uncancel`), so what the task awaits next runs as usual."""
        call = self.calls[index]
        task = asyncio.current_task()
        requested = False
        if task is not None and task.cancelling():  # other code called its cancel()
            requested = True
            while task.uncancel():
                pass
        if requested or during == "wait":
            where = {
                "handler": "while its handler ran",
                "before hook": "while its before hook ran",
                "after hook": "while its after hook ran",
                "wait": "while it waited for a slot (max_concurrency)",
            }[during]
            text = (
                f"The task running call {call.id!r} ({call.name!r}) was cancelled {where}, "
                "but nothing cancelled the batch: other code called its cancel() (e.g. a "
                "home-made deadline cancelling asyncio.current_task()). For a time limit "
                "pass `timeout=` or set the tool's `model_tool_timeout`; to stop the batch, "
                "cancel the task that awaits it."
            )
        else:
            text = _raised_cancelled(call, during)
        error = HandlerCancelledError(text)
        error.__cause__ = cancelled
        # A call's first unexpected error stays its error (an after hook runs last).
        result = self.results[index]
        if self.errors[index] is None and (
            result is None or result.fail_reason != "unexpected_error"
        ):
            self.results[index] = None
            self._unexpected(index, error, unexpected_errors)

    async def _in_order(
        self,
        calls: list[tuple[int, ToolModel]],
        context: Any,
        unexpected_errors: UnexpectedErrors,
        timeout: float | None,
    ) -> None:
        """A sequential tool's calls, one after another. The first starts at once, like
        every call that waits for nothing; each later one only if no unexpected error was
        recorded by the time the one ahead of it finished (checked right then, in the
        same step)."""
        for position, (index, tool) in enumerate(calls):
            if position and self.stopped:  # an unexpected error stopped the batch
                return
            await self.run_call(index, tool, context, unexpected_errors, timeout)

    async def _gated(
        self,
        calls: list[tuple[int, ToolModel]],
        ticket: asyncio.Future[bool],
        slots: _Slots,
        context: Any,
        unexpected_errors: UnexpectedErrors,
        timeout: float | None,
    ) -> None:
        """`calls` (one call, or a sequential tool's calls) one after another, each in a
        slot of `slots`; `ticket` is the first call's. A call whose turn came after an
        unexpected error does not start, nor do the ones after it."""
        last = len(calls) - 1
        for position, (index, tool) in enumerate(calls):
            try:
                if not await _turn(ticket, slots):
                    return
            except asyncio.CancelledError as cancelled:
                if self._batch_cancelled():
                    raise
                self._cancelled_call(index, cancelled, unexpected_errors, "wait")
                if position < last:
                    ticket = slots.ask(calls[position + 1][0])
                continue
            try:
                await self.run_call(index, tool, context, unexpected_errors, timeout)
            except BaseException:
                slots.release()
                raise
            if position < last:
                # Ask before giving the slot back, so the slot can go to the next call
                # if it comes first in call order among those waiting.
                ticket = slots.ask(calls[position + 1][0])
            slots.release()

    async def _invoke(
        self,
        index: int,
        tool: ToolModel,
        context: Any,
        unexpected_errors: UnexpectedErrors,
        timeout: float | None,
    ) -> None:
        """Run one handler and record its result or unexpected error."""
        call = self.calls[index]
        own_limit = tool.model_tool_timeout
        if own_limit is not None:
            timeout = own_limit
        try:
            if timeout is None:
                returned = await _handler(tool, context)
            else:
                async with asyncio.timeout(timeout) as deadline:
                    returned = await _handler(tool, context)
        except ErrorForLLMToSee as error:
            self.results[index] = explicit_failure(call, error)
            return
        except TimeoutError as error:
            if timeout is not None and deadline.expired():  # pyright: ignore[reportPossiblyUnboundVariable]
                self.results[index] = timeout_failure(call, timeout, error)
            else:
                self._unexpected(index, error, unexpected_errors)
            return
        except Exception as error:
            self._unexpected(index, error, unexpected_errors)
            return
        except asyncio.CancelledError as cancelled:
            if self._batch_cancelled():
                raise  # the batch is being cancelled: this task stops
            self._cancelled_call(index, cancelled, unexpected_errors, "handler")
            return
        try:
            self.results[index] = success(call, tool, returned)
        except TypeError as wrong_shape:  # the handler returned something else
            self._unexpected(index, wrong_shape, unexpected_errors)

    async def _observed(
        self,
        index: int,
        tool: ToolModel,
        context: Any,
        unexpected_errors: UnexpectedErrors,
        timeout: float | None,
    ) -> None:
        """`_invoke` between the observer's start and end (hooks, span, log line). A hook's
        exception (`ToolHookError`) is the call's unexpected error, and a note on it if
        the handler's exception is that already; a `CancelledError` out of a hook that is
        not the batch's is the call's (`_cancelled_call`)."""
        watch = cast(Observer, self.watch)
        call = self.calls[index]
        try:
            started = await watch.astart(call)
        except ToolHookError as error:
            self._unexpected(index, error, unexpected_errors)
            return
        except asyncio.CancelledError as cancelled:
            if self._batch_cancelled():
                raise
            self._cancelled_call(index, cancelled, unexpected_errors, "before hook")
            return
        if started[2] is not None:  # its before hook refused it: the handler does not run
            self.results[index] = started[2]
        else:
            try:
                with watch.current(started):  # in this call's task: its own span is current
                    await self._invoke(index, tool, context, unexpected_errors, timeout)
            except asyncio.CancelledError as cancelled:  # only the batch's (see `_invoke`)
                watch.cancelled(started, call, cancelled)
                raise
        result, own_error = self.results[index], self.errors[index]
        if result is not None and result.fail_reason == "unexpected_error":
            own_error = result.exception  # "fail": the handler's exception is its error
        try:
            self.results[index] = await watch.aend(started, call, result, self.errors[index])
        except ToolHookError as error:
            if isinstance(own_error, Exception):
                own_error.add_note(f"Its after hook raised too: {error}")
            else:
                self.results[index] = None
                self._unexpected(index, error, unexpected_errors)
        except asyncio.CancelledError as cancelled:
            if self._batch_cancelled():
                raise
            self._cancelled_call(index, cancelled, unexpected_errors, "after hook")

    def _unexpected(
        self, index: int, error: Exception, unexpected_errors: UnexpectedErrors
    ) -> None:
        if unexpected_errors == "fail":
            self.results[index] = unexpected_failure(self.calls[index], error)
        else:
            self.errors[index] = error
            self.stopped = True


class _Slots:
    """`max_concurrency`: at most `n` handlers run at once. A call asks for a slot with
    its call index; a free slot goes to the waiting call that comes first in call order.
    Whether that call may start is decided when it gets the slot: not once the batch
    has stopped on an unexpected error."""

    __slots__ = ("_batch", "_free", "_waiting")

    def __init__(self, n: int, batch: _Batch) -> None:
        self._free = n
        self._batch = batch
        self._waiting: list[tuple[int, asyncio.Future[bool]]] = []  # a heap by call index

    def ask(self, index: int) -> asyncio.Future[bool]:
        """The turn of call `index`: a future that becomes True when the call holds a
        slot, or False when it must not start."""
        ticket: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (index, ticket))
        self._hand_out()
        return ticket

    def release(self) -> None:
        """A call holding a slot is done with it."""
        self._free += 1
        self._hand_out()

    def _hand_out(self) -> None:
        while self._waiting and (self._free or self._batch.stopped):
            _, ticket = heapq.heappop(self._waiting)
            if ticket.done():  # its task was cancelled while it waited
                continue
            if self._batch.stopped:
                ticket.set_result(False)
            else:
                self._free -= 1
                ticket.set_result(True)


def _lone(
    others: list[tuple[int, ToolModel]],
    in_order: dict[type[ToolModel], list[tuple[int, ToolModel]]],
) -> tuple[int, ToolModel] | None:
    """The one call a batch runs, when it runs one only (a response's usual case)."""
    if len(others) + len(in_order) != 1:
        return None
    calls = others or next(iter(in_order.values()))
    return calls[0] if len(calls) == 1 else None


async def _turn(ticket: asyncio.Future[bool], slots: _Slots) -> bool:
    """Wait for a call's turn: True when it holds a slot, False when it must not start."""
    try:
        return await ticket
    except asyncio.CancelledError:
        if ticket.done() and not ticket.cancelled() and ticket.result():
            slots.release()  # the slot came just before the cancellation: pass it on
        raise


async def _wait_all(tasks: list[asyncio.Task[None]], batch: _Batch) -> None:
    """Wait for every task; if we are cancelled, cancel them, wait until they stop, and
    let the cancellation go on (see `_batch_wait`)."""
    try:
        await wait_for(tasks)
    except asyncio.CancelledError:
        batch.cancelled = True
        await stop_all(tasks)
        raise
    # Every outcome of a call is recorded by `_invoke` (a hook's exception by `_observed`),
    # so a task raises only on a bug in toolwire itself. Retrieve every exception, so none
    # is reported as "never retrieved", and raise the first.
    failures = [task.exception() for task in tasks if not task.cancelled()]
    first = next((failure for failure in failures if failure is not None), None)
    if first is not None:
        raise first
