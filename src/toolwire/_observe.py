"""What happens around each executed call: the caller's hooks, an OpenTelemetry span,
a debug log line. Free when off.

Dispatch asks `observer(hooks)` once per batch. It returns None unless the caller
passed hooks, the `toolwire` logger is enabled for DEBUG, or the application has set
an OpenTelemetry tracer provider (the API's default no-op provider does not count), so
a plain dispatch pays one check per call and nothing else.

Spans follow the OpenTelemetry GenAI semantic conventions for `execute_tool`. While the
handler runs, its span is the current span (`Observer.current`), so what the handler
traces (its own spans, instrumented HTTP calls, an MCP request's propagated context)
nests under it.
"""

from __future__ import annotations

import inspect
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from ._call import StandardToolCall
from ._guardrails import after_verdict, before_verdict
from ._result import ToolCallFailure, ToolCallResult
from .exceptions import ToolHookError

if TYPE_CHECKING:
    from contextvars import Token
    from logging import Logger
    from types import ModuleType

    from opentelemetry.context import Context
    from opentelemetry.trace import Span, Tracer

__all__ = ["Observer", "Started", "ToolCallEnd", "ToolHooks", "observer"]

Started = tuple["Span | None", float, ToolCallFailure | None]
"""A call as `Observer.start` began it: its span, when it began, and the "refused"
failure answering it when the `before` hook refused it (then no handler runs)."""

_DEBUG = 10  # logging.DEBUG
_logger: Logger | None = None
"""The `toolwire` logger, got once `logging` is loaded."""
_level_cache: dict[int, bool] = {}
"""The `toolwire` logger's own cache of `isEnabledFor` answers by level, once `logging` is
loaded (until then: empty, so asked of nobody). `logging` fills it as `isEnabledFor`
answers, and clears it (the same dict) on every change that could change an answer
(`setLevel` on any logger, `logging.disable`, configuration). A False found in it is
`isEnabledFor`'s answer exactly, read without a call; anything else asks the logger."""


def _toolwire_logger() -> Logger | None:
    """The `toolwire` logger, or None while `logging` is not loaded: then nobody can have
    configured it, so it takes no DEBUG records. `logging` is 2 ms of importing
    `toolwire.core`; a plain dispatch does not need it (an application that logs has
    loaded it anyway)."""
    global _logger, _level_cache
    logging = sys.modules.get("logging")
    if logging is not None:
        _logger = logging.getLogger("toolwire")
        cache: object = getattr(_logger, "_cache", None)
        if type(cache) is dict:  # a logging that keeps its answers elsewhere: ask each time
            _level_cache = cast("dict[int, bool]", cache)
    return _logger


def _debug_logs() -> bool:
    """Whether the `toolwire` logger takes DEBUG records (a debug line per call)."""
    logger = _logger or _toolwire_logger()
    return logger is not None and logger.isEnabledFor(_DEBUG)


@dataclass(slots=True)
class ToolCallEnd:
    """What an `after` hook receives when a call's handler has finished. Treat it as
    read-only (not frozen: a frozen dataclass costs a microsecond per call to build).

    Attributes:
        call: the call that ran.
        result: its result; None when the handler raised an unexpected exception that
            the batch raises (`unexpected_errors="raise"`).
        error: that unexpected exception, else None.
        seconds: how long the handler ran (wall clock).
    """

    call: StandardToolCall
    result: ToolCallResult[Any] | None
    error: BaseException | None
    seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolHooks:
    """Your code around each executed call (a call whose handler runs), for metrics,
    audit logs, progress, or guardrails. Pass it as `hooks=` to `run_tool_calls` /
    `run_tool_call`.

    `before(call)` runs just before the handler, `after(end)` just after it, in the
    task that runs the call. As guardrails: `before` may return `RefuseCall(text)` to
    refuse the call (the handler does not run, `after` neither; the model reads the
    text as a "refused" failure), and `after` may return `ReplaceContent(content)` to
    replace what the model sees (redaction, summary); `result.guardrail` and the
    call's span record either. Any other return value than None is a mistake in the
    hook (its `ToolHookError`). With `toolwire.aio` either may be `async def`; with
    `toolwire.core` they must be plain functions (an `async def` hook is refused before
    anything runs). Both run outside the call's `execute_tool` span (which is current
    only while the handler runs).

    An exception out of a hook is a bug in your code, not something the model did: it
    becomes that call's unexpected error, a `ToolHookError` (its `__cause__` is the
    hook's exception), handled like a handler's: `ToolBatchError` holds it next to
    every other call's result (`answer_all()` answers them all), or with
    `unexpected_errors="fail"` the call gets a generic failure and the batch goes on.
    The model never reads the result of a call whose `after` hook raised (the hook may
    have been redacting it): `ToolHookError.result` keeps it for you. A
    `CancelledError` that an async hook raises on its own (nothing cancelled the batch)
    is its call's `HandlerCancelledError`, as for a handler.
    """

    before: Callable[[StandardToolCall], object] | None = None
    after: Callable[[ToolCallEnd], object] | None = None


_provider_seen: object = None
_tracer: Tracer | None = None


_UNREADABLE = object()
_environment_checked: bool | None = None


def _provider_in_environment() -> bool:
    """Whether OTEL_PYTHON_TRACER_PROVIDER names a provider (asked once per process)."""
    global _environment_checked
    if _environment_checked is None:
        _environment_checked = "OTEL_PYTHON_TRACER_PROVIDER" in os.environ
    return _environment_checked


_untraced: ModuleType | None = None
"""`opentelemetry.trace`, once `_current_tracer` has seen it keep its provider in
`_TRACER_PROVIDER` and the environment name none: from then on a provider is set exactly
when that global is not None, which is all `observer` reads."""


def _current_tracer() -> Tracer | None:
    """The tracer of the application's provider, or None when nobody set one up."""
    global _provider_seen, _tracer, _untraced
    trace = sys.modules.get("opentelemetry.trace")
    if trace is None:  # never imported: nobody configured tracing
        return None
    # `get_tracer_provider()` reads os.environ on every call until a provider is set
    # (a few microseconds, on every batch of an application that never traces), so
    # the global it would return is read first; the environment is asked once.
    provider: Any = getattr(trace, "_TRACER_PROVIDER", _UNREADABLE)
    if provider is None:
        if not _provider_in_environment():
            _untraced = trace
            return None
        provider = trace.get_tracer_provider()
    elif provider is _UNREADABLE:  # an OpenTelemetry that keeps it elsewhere
        provider = trace.get_tracer_provider()
    if provider is not _provider_seen:
        _provider_seen = provider
        if isinstance(provider, trace.ProxyTracerProvider | trace.NoOpTracerProvider):
            _tracer = None
        else:
            from . import __version__

            _tracer = provider.get_tracer("toolwire", __version__)
    return _tracer


def observer(hooks: ToolHooks | None, *, plain: bool = False) -> Observer | None:
    """The batch's observer, or None when nothing watches (the common case). `plain`:
    the batch runs plain functions (toolwire.core), which refuses `async def` hooks."""
    # The common case inline, asked on every dispatch: no hooks, debug logging off (the
    # logger's cached answer, else the logger asked), OpenTelemetry not imported or
    # imported with no provider set. Read as little as possible: next to pydantic's
    # validation, each step here costs a visible share of a one-call dispatch.
    logs = _level_cache.get(_DEBUG) is not False and _debug_logs()
    if hooks is None and not logs:
        trace = _untraced
        if trace is None:
            if "opentelemetry.trace" not in sys.modules:
                return None
        elif trace._TRACER_PROVIDER is None:
            return None
    if hooks is not None:
        if not isinstance(hooks, ToolHooks):
            raise TypeError(
                f"hooks must be a ToolHooks, e.g. hooks=ToolHooks(before=..., after=...); "
                f"got a {type(hooks).__name__}."
            )
        if plain:
            _refuse_async_hooks(hooks)
    tracer = _current_tracer()
    if hooks is None and tracer is None and not logs:
        return None
    return Observer(hooks, tracer, logs)


class Observer:
    """Starts and ends the observation of each executed call of one batch."""

    __slots__ = ("_after", "_before", "_context", "_logs", "_tracer", "traced")

    def __init__(self, hooks: ToolHooks | None, tracer: Tracer | None, logs: bool) -> None:
        self._before = hooks.before if hooks is not None else None
        self._after = hooks.after if hooks is not None else None
        self._tracer = tracer
        self._logs = logs
        self.traced = tracer is not None
        """Whether each call gets a span (else `current` does nothing and may be skipped)."""
        self._context = (_span_context or _load_span_context()) if tracer is not None else None

    def start(self, call: StandardToolCall) -> Started:
        """Before the handler (toolwire.core): the sync hook, then the span. Raises
        `ToolHookError` if the hook raises."""
        refusal = None
        if self._before is not None:
            try:
                returned = self._before(call)
                _no_awaitable(returned, "before")
                refusal = before_verdict(returned, call)
            except Exception as error:
                raise _hook_error("before", call, error) from error
        return self._span(call), time.perf_counter(), refusal

    async def astart(self, call: StandardToolCall) -> Started:
        """Before the handler (toolwire.aio): the hook, awaited if async, then the span.
        Raises `ToolHookError` if the hook raises."""
        refusal = None
        if self._before is not None:
            try:
                refusal = before_verdict(await _awaited(self._before(call)), call)
            except Exception as error:
                raise _hook_error("before", call, error) from error
        return self._span(call), time.perf_counter(), refusal

    def end(
        self,
        started: Started,
        call: StandardToolCall,
        result: ToolCallResult[Any] | None,
        error: BaseException | None = None,
    ) -> ToolCallResult[Any] | None:
        """After the handler (toolwire.core): the hook, then the span ends (at the time
        the handler ended) and the log line. Returns the call's result: `result`, or its
        replacement by the hook (`ReplaceContent`). Raises `ToolHookError` if the hook
        raises. A call its `before` hook refused (`result` is that refusal) skips the
        `after` hook."""
        end, ended_at = self._measure(started, call, result, error)
        if self._after is not None and started[2] is None:
            try:
                returned = self._after(end)
                _no_awaitable(returned, "after")
                result = after_verdict(returned, result)
            except Exception as hook_error:
                raise self._after_failed(started, end, ended_at, result, hook_error) from hook_error
        self._record(started, end, ended_at, result, error)
        return result

    async def aend(
        self,
        started: Started,
        call: StandardToolCall,
        result: ToolCallResult[Any] | None,
        error: BaseException | None = None,
    ) -> ToolCallResult[Any] | None:
        """After the handler (toolwire.aio): `end`, with the hook awaited if async."""
        end, ended_at = self._measure(started, call, result, error)
        if self._after is not None and started[2] is None:
            try:
                result = after_verdict(await _awaited(self._after(end)), result)
            except Exception as hook_error:
                raise self._after_failed(started, end, ended_at, result, hook_error) from hook_error
        self._record(started, end, ended_at, result, error)
        return result

    def _after_failed(
        self,
        started: Started,
        end: ToolCallEnd,
        ended_at: int | None,
        result: ToolCallResult[Any] | None,
        error: Exception,
    ) -> ToolHookError:
        """The `after` hook raised: the call ends as that error (its result is never read)."""
        raised = _hook_error("after", end.call, error, result)
        self._record(started, end, ended_at, None, raised)
        return raised

    def cancelled(self, started: Started, call: StandardToolCall, error: BaseException) -> None:
        """The batch was cancelled while the handler ran: end its span and log it (the
        `after` hook does not run: nothing may be awaited in a cancelled task)."""
        end, ended_at = self._measure(started, call, None, error)
        self._record(started, end, ended_at, None, error)

    def current(self, started: Started) -> _Current | _Untraced:
        """Wrap the handler in it (`with watch.current(started): handler(...)`, or
        around `await handler(...)` in the task that runs the call): the call's span is
        the current span inside, so spans made there are its children; the previous
        context is back on exit, however the block ends (exception, timeout,
        cancellation). Enter it once, after `start`/`astart` and before `end`/`aend`/
        `cancelled`. Without a span (hooks or logging only) it does nothing."""
        span = started[0]
        if span is None or self._context is None:
            return _UNTRACED
        return _Current(span, self._context)

    def _span(self, call: StandardToolCall) -> Span | None:
        if self._tracer is None:
            return None
        return self._tracer.start_span(
            f"execute_tool {call.name}",
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": call.name,
                "gen_ai.tool.call.id": call.id,
                "gen_ai.tool.type": "function",
            },
        )

    def _measure(
        self,
        started: Started,
        call: StandardToolCall,
        result: ToolCallResult[Any] | None,
        error: BaseException | None,
    ) -> tuple[ToolCallEnd, int | None]:
        """What the `after` hook gets, and when the handler ended for the span (which
        ends once the hook has run, so that the hook's outcome is on it)."""
        span, start, _ = started
        end = ToolCallEnd(call, result, error, time.perf_counter() - start)
        return end, (time.time_ns() if span is not None else None)

    def _record(
        self,
        started: Started,
        end: ToolCallEnd,
        ended_at: int | None,
        result: ToolCallResult[Any] | None,
        error: BaseException | None,
    ) -> None:
        """End the call's span and write its log line: `result` or `error` is what the
        call came to (after the `after` hook: its own error, if it raised)."""
        span = started[0]
        outcome = _outcome(result, error)
        if span is not None:
            _end_span(span, result, error, outcome, ended_at)
        if self._logs and _logger is not None:
            _logger.debug(
                "execute_tool %s (call %s): %s in %.1f ms",
                end.call.name,
                end.call.id,
                outcome,
                end.seconds * 1000,
            )


class _SpanContext:
    """OpenTelemetry's context functions, imported once the first batch traces."""

    __slots__ = ("attach", "detach", "with_span")

    def __init__(self) -> None:
        from opentelemetry import context
        from opentelemetry.trace import set_span_in_context

        self.attach = context.attach
        self.detach = context.detach
        self.with_span = set_span_in_context


_span_context: _SpanContext | None = None


def _load_span_context() -> _SpanContext:
    global _span_context
    _span_context = _SpanContext()
    return _span_context


class _Current:
    """A call's span made current for the block: the context attached on entry is
    detached on exit, in the same thread or task (contextvars keep concurrent tasks
    apart). Not `trace.use_span`: that records the exception and sets the status
    itself, which `_end_span` does once, from the call's outcome; and its generator
    costs more than these two calls."""

    __slots__ = ("_context", "_span", "_token")

    _token: Token[Context]

    def __init__(self, span: Span, context: _SpanContext) -> None:
        self._span = span
        self._context = context

    def __enter__(self) -> None:
        self._token = self._context.attach(self._context.with_span(self._span))

    def __exit__(self, *exc_info: object) -> None:
        self._context.detach(self._token)


class _Untraced:
    """`Observer.current` when nothing traces: no context to change."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: object) -> None:
        return None


_UNTRACED = _Untraced()


def _outcome(result: ToolCallResult[Any] | None, error: BaseException | None) -> str:
    """The call's outcome: "success", the failure reason, "raised" (an unexpected
    exception the batch raises) or "cancelled" (the batch was cancelled)."""
    if result is None:
        # Only an aio batch is cancelled, and it has imported asyncio; a core dispatch
        # does not pay for importing it here.
        asyncio = sys.modules.get("asyncio")
        cancelled = asyncio is not None and isinstance(error, asyncio.CancelledError)
        return "cancelled" if cancelled else "raised"
    return result.fail_reason or "success"


def _end_span(
    span: Span,
    result: ToolCallResult[Any] | None,
    error: BaseException | None,
    outcome: str,
    ended_at: int | None,
) -> None:
    from opentelemetry.trace import Status, StatusCode

    span.set_attribute("toolwire.tool_call.outcome", outcome)
    guardrail = result.guardrail if result is not None else None
    if guardrail is not None:
        span.set_attribute("toolwire.guardrail.hook", guardrail.hook)
        span.set_attribute("toolwire.guardrail.action", guardrail.action)
    problem = error if error is not None else getattr(result, "exception", None)
    if isinstance(result, ToolCallFailure) or error is not None:
        error_type = outcome if error is None else _qualified_name(error)
        span.set_attribute("error.type", error_type)
        if problem is not None and outcome in ("raised", "unexpected_error", "cancelled"):
            span.record_exception(problem)
        span.set_status(Status(StatusCode.ERROR, outcome))
    span.end(end_time=ended_at)


def _qualified_name(error: BaseException) -> str:
    kind = type(error)
    return (
        kind.__qualname__
        if kind.__module__ == "builtins"
        else f"{kind.__module__}.{kind.__qualname__}"
    )


async def _awaited(returned: object) -> object:
    """What an aio hook returned, awaited if it is awaitable (a plain function's value
    is not)."""
    if returned is not None and inspect.isawaitable(returned):
        return await returned
    return returned


def _hook_error(
    which: Literal["before", "after"],
    call: StandardToolCall,
    error: Exception,
    result: ToolCallResult[Any] | None = None,
) -> ToolHookError:
    """The call's unexpected error for a hook that raised `error`."""
    ran = "before its handler ran" if which == "before" else "after its handler ran"
    return ToolHookError(
        f"The {which} hook raised {type(error).__name__} for call {call.id!r} "
        f"({call.name!r}), {ran}: {error}",
        hook=which,
        call=call,
        result=result,
    )


def _refuse_async_hooks(hooks: ToolHooks) -> None:
    """toolwire.core calls hooks as plain functions: an `async def` one would never be
    awaited. Refused before anything runs."""
    for which, hook in (("before", hooks.before), ("after", hooks.after)):
        if hook is not None and inspect.iscoroutinefunction(hook):
            raise TypeError(
                f"The {which} hook is async, but toolwire.core runs plain functions: it "
                "would never be awaited. Make the hook a plain function, or use "
                "toolwire.aio."
            )


def _no_awaitable(returned: object, which: str) -> None:
    if returned is not None and inspect.isawaitable(returned):
        if inspect.iscoroutine(returned):
            returned.close()  # it will never run: no "never awaited" warning
        raise TypeError(
            f"The {which} hook is async, but toolwire.core runs plain functions: it would "
            "never be awaited. Make the hook a plain function, or use toolwire.aio."
        )
