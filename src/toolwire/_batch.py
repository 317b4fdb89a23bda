"""Batch bookkeeping shared by core and aio: what to do with unexpected exceptions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from ._call import StandardToolCall
from ._result import ToolCallFailure, ToolCallResult
from .exceptions import ToolBatchError

__all__ = ["UnexpectedErrors", "batch_error", "timeout_failure", "unexpected_failure"]

UnexpectedErrors = Literal["raise", "fail"]
"""What a batch does when a handler raises something other than `ErrorForLLMToSee`:
"raise" (default) raises `ToolBatchError`; "fail" answers that call with a generic
failure (reason "unexpected_error", the exception kept on `.exception`, its text
never shown to the model) and goes on."""


def unexpected_failure(call: StandardToolCall, error: Exception) -> ToolCallFailure:
    return ToolCallFailure.for_call(call, exception=error)


def timeout_failure(call: StandardToolCall, seconds: float, error: Exception) -> ToolCallFailure:
    return ToolCallFailure.for_call(
        call,
        f"The tool did not finish within {seconds:g} seconds and was stopped. "
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
