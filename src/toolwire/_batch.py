"""Batch bookkeeping shared by core and aio: what to do with unexpected exceptions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NoReturn

from ._call import StandardToolCall
from ._result import ToolCallFailure, ToolCallResult
from .exceptions import ErrorForLLMToSee, ToolBatchError

__all__ = [
    "CallTimedOut",
    "UnexpectedErrors",
    "batch_error",
    "check_settings",
    "check_timeout",
    "refuse_unexpected_errors",
    "timeout_failure",
    "timeout_problem",
    "unexpected_failure",
]

UnexpectedErrors = Literal["raise", "fail"]
"""What a batch does when a handler raises something other than `ErrorForLLMToSee`:
"raise" (default) raises `ToolBatchError`; "fail" answers that call with a generic
failure (reason "unexpected_error", the exception kept on `.exception`, its text
never shown to the model) and goes on."""


def refuse_unexpected_errors(value: object) -> NoReturn:
    """Raise for an `unexpected_errors=` value that is neither "raise" nor "fail" (the
    entry points compare it with both first: this runs only for a wrong value)."""
    import reprlib

    raise (ValueError if isinstance(value, str) else TypeError)(
        f'unexpected_errors must be "raise" (the default: an unexpected exception raises '
        f'ToolBatchError) or "fail" (its call gets a generic failure and the batch goes '
        f"on); got {reprlib.repr(value)}."
    )


def timeout_problem(value: object, *, zero: bool) -> tuple[type[Exception], str] | None:
    """Why `value` (not None) is not a time limit in seconds, as (the builtin error that
    fits, the reason), or None when it is one: an int or float above 0 (or 0 itself when
    `zero`: a batch whose time is up, as `asyncio.timeout(0)`: a handler times out at
    its first wait), `math.inf` meaning no limit. Refused: what `asyncio.timeout`
    would take oddly or not at all (a negative number, NaN, an int too large for a
    float, a bool, a string)."""
    if type(value) is float or type(value) is int:
        number: Any = value
    else:
        import numbers

        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return TypeError, f"a {type(value).__name__}, not a number"
        number = value
    try:
        seconds = float(number)
    except OverflowError:
        return ValueError, "too large for a float"
    if seconds > 0 or (zero and seconds == 0):
        return None
    if seconds != seconds:
        return ValueError, "NaN, not a number"
    if seconds == 0:
        return ValueError, "no time for its calls at all"
    return ValueError, "a negative number of seconds"


def check_settings(
    unexpected_errors: object, max_concurrency: object = None, timeout: object = None
) -> None:
    """Refuse, before anything runs, settings a batch would take oddly or not at all
    (`max_concurrency` and `timeout` are toolwire.aio's). The defaults cost a comparison
    each."""
    if unexpected_errors != "raise" and unexpected_errors != "fail":
        refuse_unexpected_errors(unexpected_errors)
    if max_concurrency is not None:
        _check_concurrency(max_concurrency)
    if timeout is not None:
        check_timeout(timeout)


def _check_concurrency(max_concurrency: object) -> None:
    if type(max_concurrency) is int and max_concurrency >= 1:
        return
    import reprlib

    shown = reprlib.repr(max_concurrency)
    if not isinstance(max_concurrency, int) or isinstance(max_concurrency, bool):
        raise TypeError(
            f"max_concurrency must be None (no bound) or an int of at least 1 (how many "
            f"handlers may run at once); got {shown}, a {type(max_concurrency).__name__}."
        )
    if max_concurrency < 1:
        raise ValueError(
            f"max_concurrency must be None (no bound) or an int of at least 1 (how many "
            f"handlers may run at once); got {shown}."
        )


def check_timeout(value: object) -> None:
    """Raise TypeError or ValueError for a batch's `timeout=` that is not None and not
    a time limit (see `timeout_problem`)."""
    problem = timeout_problem(value, zero=True)
    if problem is not None:
        import reprlib

        kind, reason = problem
        raise kind(
            f"timeout must be None (no time limit) or a number of seconds: an int or float, "
            f"at least 0 (0: no time left; math.inf: no limit); got "
            f"{reprlib.repr(value)}, {reason}."
        )


def unexpected_failure(call: StandardToolCall, error: Exception) -> ToolCallFailure:
    return ToolCallFailure.for_call(call, exception=error)


class CallTimedOut(ErrorForLLMToSee):
    """Raised by a handler that bounds its own work (an MCP tool waiting for its server)
    when its time is up: its call gets the same "timeout" failure as a handler the batch
    stopped."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"timed out after {seconds:g} seconds")
        self.seconds = seconds


def timeout_failure(call: StandardToolCall, seconds: float, error: Exception) -> ToolCallFailure:
    unit = "second" if seconds == 1 else "seconds"
    return ToolCallFailure.for_call(
        call,
        f"The tool did not finish within {seconds:g} {unit} and was stopped. "
        "Try again, perhaps with a smaller request, or tell the user.",
        fail_reason="timeout",
        exception=error,
    )


def batch_error(
    calls: Sequence[StandardToolCall],
    results: Sequence[ToolCallResult[Any] | None],
    errors: Sequence[Exception | None],
) -> ToolBatchError:
    raised = [e for e in errors if e is not None]
    done = sum(r is not None for r in results)
    not_run = len(calls) - done - len(raised)
    first = raised[0]
    message = (
        f"{len(raised)} of {len(calls)} tool calls raised an unexpected exception "
        f"(first: {type(first).__name__}); {done} completed, {not_run} did not run. "
        "Answer every call id before the next request: see ToolBatchError.answer_all()."
    )
    return ToolBatchError(message, raised, calls=calls, results=results, errors=errors)
