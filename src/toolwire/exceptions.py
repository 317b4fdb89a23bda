"""Exceptions toolwire raises, and the one a handler raises to talk to the model.

Hierarchy::

    ToolwireError                      every error toolwire raises itself
    ├── ToolDefinitionError (TypeError)  a tool class or group is set up wrong
    │   ├── DuplicateToolNameError (ValueError)
    │   ├── CustomToolError (ValueError)  a custom tool's format or fields are invalid
    │   └── UnsupportedToolError        e.g. a custom (grammar) tool on Anthropic
    ├── SchemaError (ValueError)        a schema an API cannot take (names the field)
    ├── MediaError (ValueError)         an ImagePart/FilePart no API could take
    ├── UnknownApiError (ValueError)    an `api=` value toolwire does not know
    ├── ToolChoiceError (ValueError)    a tool choice the API would reject (HTTP 400)
    ├── PendingCallError (ValueError)   a stored pending call whose tool changed since,
    │                                    a pending call run twice
    ├── CallKindMismatchError (TypeError, ValueError)  a custom call sent to a function
    │                                    tool, ...
    ├── UnhandledCallsError (ValueError)   client-side calls toolwire cannot run
    ├── UnexpectedObjectError (TypeError)  another API's object, a stream where a
    │                                      finished response belongs, a coroutine...
    ├── StreamIncompleteError (RuntimeError)  a stream that ended without a final response
    ├── StreamOrderError (ValueError)   stream items in an order the API never sends
    ├── HandlerCancelledError (RuntimeError)  (aio) a call's handler or hook raised
    │                                    CancelledError itself, or other code cancelled its task
    ├── ToolHookError (RuntimeError)    a `before`/`after` hook raised: the call's
    │                                    unexpected error
    └── ToolBatchError (ExceptionGroup)   unexpected handler exceptions in a batch

    ErrorForLLMToSee                   raised by *your* handler: its text goes to the model

Developer mistakes raise at once. Everything a model can produce (bad JSON,
unknown names, invalid arguments) becomes a failure *result*, never an exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from ._call import StandardToolCall
    from ._result import ToolCallResult

__all__ = [
    "CallKindMismatchError",
    "CustomToolError",
    "DuplicateToolNameError",
    "ErrorForLLMToSee",
    "HandlerCancelledError",
    "MCPServerError",
    "MediaError",
    "PendingCallError",
    "PromptCacheWarning",
    "SchemaError",
    "StreamIncompleteError",
    "StreamOrderError",
    "ToolBatchError",
    "ToolChoiceError",
    "ToolDefinitionError",
    "ToolHookError",
    "ToolwireError",
    "ToolwireWarning",
    "UnexpectedObjectError",
    "UnhandledCallsError",
    "UnknownApiError",
    "UnsupportedToolError",
]


class ToolwireWarning(UserWarning):
    """Something toolwire can work with but you probably did not mean: a tool with no
    description (the model sees only its name)."""


class PromptCacheWarning(ToolwireWarning):
    """A request that changes what the API's prompt cache keys on: on Anthropic, a tool
    choice over a subset (`tool_choice(..., among=...)`) sends a narrower tool list, so
    it cannot reuse what requests with the whole list cached. Filter it once you mean it:
    `warnings.filterwarnings("ignore", category=PromptCacheWarning)`."""


class ErrorForLLMToSee(Exception):
    """Raise this in a handler to answer the call with an error the model can act on.

    Its text becomes the call's result content (with `is_error` on Anthropic and
    `{"error": ...}` on Gemini). It is the only handler exception toolwire catches.
    """


class ToolwireError(Exception):
    """Base class of every error toolwire raises itself."""


class ToolDefinitionError(ToolwireError, TypeError):
    """A tool class or tool group is set up in a way toolwire cannot use."""


class DuplicateToolNameError(ToolDefinitionError, ValueError):
    """Two tools in one group have the same name."""


class CustomToolError(ToolDefinitionError, ValueError):
    """A custom tool whose `model_tool_format` is not a format, or that declares fields
    besides `input` (a ValueError too, as in toolcall)."""


class UnsupportedToolError(ToolDefinitionError):
    """A tool kind the API does not have (custom/grammar tools on Anthropic or Gemini)."""


class SchemaError(ToolwireError, ValueError):
    """A tool's JSON schema cannot be expressed for an API. The message names the field."""


class MediaError(ToolwireError, ValueError):
    """An `ImagePart` or `FilePart` that no API could take: no source or two, bytes
    without a media type, a media type no API accepts in a tool result. (A part one API
    cannot take is delivered another way or noted for the model; see `media_report`.)"""


class UnknownApiError(ToolwireError, ValueError):
    """An `api=` value that is not one of the four API names."""


class ToolChoiceError(ToolwireError, ValueError):
    """A tool choice the API would reject: a tool not in the group, a forced choice with
    Anthropic's extended thinking, or parallel calls turned off on Gemini (which has no
    such switch)."""


class PendingCallError(ToolwireError, ValueError):
    """Pending calls that cannot be restored or run as given.

    Raised by `load_pending` for text that is not `dump_pending` JSON, and (unless you
    pass `changed="refuse"`) for stored calls whose tool changed since they were
    validated: its arguments changed, it left the group, or a tool of that name was
    added. Raised by `run_pending`, before any handler runs, for a `PendingCall` given
    to `run_pending` before or listed twice, for one whose name now belongs to
    another tool class than the one it was validated with, for two entries answering
    one call id, and for a list that leaves calls of a response unanswered (unless
    `partial=True`). Raised by `dump_pending` for calls already given to `run_pending`,
    and by `load_pending` for a dump that lists a call twice or has a newer format.

    Attributes:
        calls: the calls concerned, in order (each a `StandardToolCall`, so
            `ToolCallFailure.for_call(call, ...)` answers it); empty for text that is
            not `dump_pending` JSON.
    """

    calls: tuple[StandardToolCall, ...]

    def __init__(self, message: str, *, calls: Sequence[StandardToolCall] = ()) -> None:
        super().__init__(message)
        self.calls = tuple(calls)


class CallKindMismatchError(ToolwireError, TypeError, ValueError):
    """A call's kind (function or custom) does not match the tool it names (a ValueError
    too, as in toolcall)."""


class UnhandledCallsError(ToolwireError, ValueError):
    """A response holds client-side calls toolwire cannot run (computer, shell, MCP...)."""


class UnexpectedObjectError(ToolwireError, TypeError):
    """An object that is not what the entry point takes for its API: another API's
    response, a stream (or one chunk of it) where a finished response belongs, a
    coroutine that was not awaited, a chunk fed to the stream of another API. The
    message names what was given and what to do instead."""


class StreamOrderError(ToolwireError, ValueError):
    """Stream items arrived in an order toolwire cannot fold without guessing: a fragment
    for a call it already reported complete (parallel calls interleaved), a call after
    the turn ended, a delta before its block started, a second turn in one stream. The
    message says what arrived. Feed every item of one stream, in order, to one
    `ToolCallStream`."""


class HandlerCancelledError(ToolwireError, RuntimeError):
    """(aio) A call's handler or async hook raised `asyncio.CancelledError` although
    nothing cancelled the batch, e.g. it awaited a future that other code cancelled, or
    other code cancelled the call's task. Propagating the `CancelledError`
    would tell the caller it was cancelled; instead this is the call's unexpected error
    (its `__cause__` is the `CancelledError`). A real cancellation of the caller's task
    still propagates as `CancelledError`."""


class ToolHookError(ToolwireError, RuntimeError):
    """A `before` or `after` hook (`ToolHooks`) raised while a call ran. It is that call's
    unexpected error, as a handler's exception would be: in `ToolBatchError` (with every
    other call's result, see `answer_all()`), or, with `unexpected_errors="fail"`, a
    generic failure answering the call. A single `run_tool_call` raises it.

    The model never reads what the call returned when its `after` hook raised (the hook
    may have been the one redacting it); that result is kept here for you.

    Attributes:
        hook: "before" (the handler did not run) or "after" (it ran).
        call: the call.
        result: for an `after` hook, the call's result the hook was given (None when the
            handler raised itself); None for a `before` hook.

    Its `__cause__` is the hook's own exception.
    """

    hook: Literal["before", "after"]
    call: StandardToolCall
    result: ToolCallResult[Any] | None

    def __init__(
        self,
        message: str,
        *,
        hook: Literal["before", "after"],
        call: StandardToolCall,
        result: ToolCallResult[Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.hook = hook
        self.call = call
        self.result = result

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle rebuilds an exception as `cls(*self.args)`: pass the keywords too.
        state = {k: v for k, v in self.__dict__.items() if k not in ("hook", "call", "result")}
        rebuild = partial(type(self), hook=self.hook, call=self.call, result=self.result)
        return (rebuild, (str(self),), state or None)


class StreamIncompleteError(ToolwireError, RuntimeError):
    """A stream ended without the event that completes a response."""


class MCPServerError(ToolwireError, RuntimeError):
    """An MCP server answered `MCPTools.load` or `refresh` in a way no tool list can be
    built from: a `tools/list` whose pages never end (a cursor sent twice). A failing
    tool call never raises it: that call gets a failure result."""


_BATCH_FIELDS = frozenset({"calls", "results", "errors"})


class ToolBatchError(ExceptionGroup[Exception], ToolwireError):
    """Handlers in a batch raised exceptions other than `ErrorForLLMToSee`.

    It holds every unexpected exception (as an `ExceptionGroup`) and, for each call
    in order, what happened to it, so the caller can still answer every call id
    before the next request (the APIs reject a history with an unanswered call)::

        try:
            results = group.run_tool_calls(response, context)
        except ToolBatchError as error:
            log.exception("tool batch failed", exc_info=error)
            results = error.answer_all()   # completed results + generic failures

    In `toolwire.core`, calls after the failing one do not run. In `toolwire.aio`,
    calls already running finish, calls still queued do not start, and nothing is
    left running when this is raised.

    Attributes:
        calls: every call of the batch, in order.
        results: per call, its result, or None when it raised or did not run.
        errors: per call, the exception it raised, or None.
    """

    calls: tuple[StandardToolCall, ...]
    results: tuple[ToolCallResult[Any] | None, ...]
    errors: tuple[Exception | None, ...]

    def __new__(
        cls,
        message: str,
        exceptions: Sequence[Exception],
        *,
        calls: Sequence[StandardToolCall],
        results: Sequence[ToolCallResult[Any] | None],
        errors: Sequence[Exception | None],
    ) -> ToolBatchError:
        self = super().__new__(cls, message, exceptions)
        self.calls, self.results, self.errors = tuple(calls), tuple(results), tuple(errors)
        return self

    def __init__(self, *args: Any, **fields: Any) -> None:
        super().__init__(*args)  # `__new__` took the fields (ExceptionGroup's init takes none)

    def derive(self, excs: Sequence[Exception]) -> ToolBatchError:  # pyright: ignore[reportIncompatibleMethodOverride]
        return ToolBatchError(
            self.message, excs, calls=self.calls, results=self.results, errors=self.errors
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy rebuild an exception as `cls(*self.args)`, which lacks the
        # keyword-only calls/results/errors: rebuild it with them (process pools and error
        # reporters pickle or copy exceptions), then restore notes and other attributes.
        state = {k: v for k, v in self.__dict__.items() if k not in _BATCH_FIELDS}
        rebuild = partial(type(self), calls=self.calls, results=self.results, errors=self.errors)
        return (rebuild, (self.message, tuple(self.exceptions)), state or None)

    @property
    def not_run(self) -> tuple[StandardToolCall, ...]:
        """The calls that never started."""
        return tuple(
            call
            for call, result, error in zip(self.calls, self.results, self.errors, strict=True)
            if result is None and error is None
        )

    def answer_all(
        self,
        failed: str = (
            "This call failed with an internal error; its details are hidden. "
            "Tell the user, or try again if it is safe to repeat."
        ),
        not_run: str = (
            "This call was not run because another call in the same batch failed. "
            "Call it again if it is still needed."
        ),
    ) -> list[ToolCallResult[Any]]:
        """One result per call, in order: each completed result, and a failure with the
        given (generic, model-visible) text for each call that raised or did not run."""
        from ._result import ToolCallFailure

        answered: list[ToolCallResult[Any]] = []
        for call, result, error in zip(self.calls, self.results, self.errors, strict=True):
            if result is not None:
                answered.append(result)
            elif error is not None:
                answered.append(ToolCallFailure.for_call(call, failed, exception=error))
            else:
                answered.append(ToolCallFailure.for_call(call, not_run, fail_reason="not_run"))
        return answered
