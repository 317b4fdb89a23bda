"""How many failed calls in a row each tool may take, counted across turns.

A model that keeps failing with one tool (wrong arguments, the handler's
`ErrorForLLMToSee`, a timeout) burns turns until someone stops it. `RetryBudget` is the
count the caller keeps beside its history, not a global: per tool, the failed calls in a
row. Once a tool's failures pass its budget (`model_tool_max_retries`, or the budget's
`max_retries` for tools that set none), the failure text tells the model to stop calling
it, the result says so (`retries_exhausted`), and the budget answers `exhausted(...)`.
A success of that tool starts its count again. `to_dict` / `from_dict` store it as JSON
data inside the caller's own state.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from typing_extensions import TypedDict

from ._feedback import retries_exhausted
from ._result import ToolCallFailReason
from .exceptions import ToolDefinitionError

if TYPE_CHECKING:
    from ._result import ToolCallResult
    from ._tool import ToolModel

__all__ = [
    "COUNTED_FAILURES",
    "RetryBudget",
    "RetryBudgetDict",
    "check_max_retries",
    "spend",
]

COUNTED_FAILURES: Final[frozenset[ToolCallFailReason]] = frozenset(
    {"invalid_arguments", "explicit_handler_error", "truncated", "timeout"}
)
"""The failures a model's retry could fix, so they count against its budget. Not counted:
"invalid_name" (no tool to charge), and the caller's side of a call ("refused",
"unexpected_error", "not_run")."""

_FORMAT: Final = "toolwire.retries/1"


class RetryBudgetDict(TypedDict):
    """`RetryBudget.to_dict()`: JSON data (`json.dumps` takes it as it is)."""

    format: Literal["toolwire.retries/1"]
    max_retries: int
    failures: dict[str, int]
    """Tool name -> its failed calls in a row (tools at 0 are left out)."""
    exhausted: list[str]
    """The tools whose budget is spent, sorted."""


class RetryBudget:
    """Per tool, the failed calls in a row, kept across turns: pass the same budget to
    every `run_tool_calls(..., retries=budget)` (or `run_pending`, `run_with_approval`)
    of one conversation.

    `max_retries`: how many failed calls in a row a tool gets before the model is told to
    stop calling it, for tools without their own `model_tool_max_retries`. With 2, the
    first two failures read as usual, and the third (and every one after it until the
    tool succeeds) ends with a note telling the model to stop, and is marked
    `retries_exhausted=True`. 0: the first failure already says stop.
    """

    __slots__ = ("_exhausted", "_failures", "max_retries")

    def __init__(self, max_retries: int = 2) -> None:
        _check_count(max_retries, "RetryBudget(max_retries=...)")
        self.max_retries: int = max_retries
        """The budget of tools that set no `model_tool_max_retries`."""
        self._failures: dict[str, int] = {}
        self._exhausted: set[str] = set()

    def failures(self, tool: str | type[ToolModel]) -> int:
        """The failed calls in a row of `tool` (its name or class) so far."""
        return self._failures.get(_name(tool), 0)

    def exhausted(self, tool: str | type[ToolModel] | None = None) -> bool:
        """Whether `tool` (its name or class) has spent its budget: its last failure told
        the model to stop, and it has not succeeded since. Without `tool`: whether any
        tool has."""
        if tool is None:
            return bool(self._exhausted)
        return _name(tool) in self._exhausted

    @property
    def exhausted_tools(self) -> list[str]:
        """The names of the tools whose budget is spent, sorted."""
        return sorted(self._exhausted)

    def reset(self, tool: str | type[ToolModel] | None = None) -> None:
        """Start `tool`'s count again (every tool's without `tool`), e.g. after the user
        fixed what made it fail."""
        if tool is None:
            self._failures.clear()
            self._exhausted.clear()
            return
        name = _name(tool)
        self._failures.pop(name, None)
        self._exhausted.discard(name)

    def to_dict(self) -> RetryBudgetDict:
        """The budget as JSON data, to store with the conversation (see `from_dict`)."""
        return {
            "format": _FORMAT,
            "max_retries": self.max_retries,
            "failures": dict(self._failures),
            "exhausted": sorted(self._exhausted),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RetryBudget:
        """The budget `to_dict` stored. Raises `ValueError` for anything else."""
        if not isinstance(data, Mapping) or data.get("format") != _FORMAT:
            raise ValueError(
                f"RetryBudget.from_dict takes what RetryBudget.to_dict() returned (a dict "
                f'with "format": "{_FORMAT}"); got {reprlib.repr(data)}.'
            )
        failures: object = data.get("failures")
        exhausted: object = data.get("exhausted")
        max_retries: object = data.get("max_retries")
        counts = _counts(failures)
        if (
            counts is None
            or not isinstance(exhausted, list)
            or not all(name in counts for name in cast("list[object]", exhausted))
            or not (type(max_retries) is int and max_retries >= 0)
        ):
            raise ValueError(
                'A stored RetryBudget holds "max_retries" (an int >= 0), "failures" (tool '
                'name -> an int > 0) and "exhausted" (names listed in "failures"); this one '
                f"does not: {reprlib.repr(data)}. Store what to_dict() returns, unchanged."
            )
        budget = cls(max_retries)
        budget._failures = counts
        budget._exhausted = set(cast("list[str]", exhausted))
        return budget

    def __repr__(self) -> str:
        return (
            f"RetryBudget(max_retries={self.max_retries}, failures={self._failures!r}, "
            f"exhausted={sorted(self._exhausted)!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RetryBudget):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # pyright: ignore[reportAssignmentType]  # mutable

    def _record(self, result: ToolCallResult[Any], limit: int | None) -> ToolCallResult[Any]:
        """Count one result of a tool of the group (`limit`: its own budget, if set): the
        result to give the model (a spent budget's failure carries the stop note)."""
        name = result.name
        reason = result.fail_reason
        if reason is None:
            self._failures.pop(name, None)
            self._exhausted.discard(name)
            return result
        if reason not in COUNTED_FAILURES:
            return result
        count = self._failures[name] = self._failures.get(name, 0) + 1
        if count <= (self.max_retries if limit is None else limit):
            return result
        self._exhausted.add(name)
        # `replace` keeps what the result records of its call (its repairs, a guardrail's
        # verdict, an edit), as it would for any copy answering the same call.
        spent = replace(
            result, result_content=f"{result.result_content}\n\n{retries_exhausted(name, count)}"
        )
        spent._retries_exhausted = True
        return spent


def spend(
    budget: RetryBudget,
    tools: Mapping[str, type[ToolModel]],
    results: Sequence[ToolCallResult[Any] | None],
) -> list[Any]:
    """Count a batch's results in call order (None: a call a `ToolBatchError` left
    unanswered, skipped); the results to return, spent budgets' failures noted."""
    counted: list[Any] = []
    for result in results:
        if result is not None:
            tool = tools.get(result.name)
            if tool is not None:
                result = budget._record(result, tool.model_tool_max_retries)
        counted.append(result)
    return counted


def check_max_retries(cls: type) -> None:
    """Raise `ToolDefinitionError` for a `model_tool_max_retries` that is not None or an
    int >= 0."""
    value = getattr(cls, "model_tool_max_retries", None)
    if value is not None:
        _check_count(value, f"{cls.__name__}.model_tool_max_retries", ToolDefinitionError)


def _check_count(value: object, where: str, error: type[Exception] = ValueError) -> None:
    if not _is_count(value):
        wrong_type = not isinstance(value, int) or isinstance(value, bool)
        raise (TypeError if wrong_type else error)(
            f"{where} is {reprlib.repr(value)}; set it to how many failed calls in a row "
            "the model may retry: an int >= 0 (0: the first failure already tells it to "
            "stop)."
        )


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def _counts(stored: object) -> dict[str, int] | None:
    """Stored failure counts (tool name -> an int > 0), or None when they are not."""
    if not isinstance(stored, Mapping):
        return None
    counts: dict[str, int] = {}
    for name, count in cast("Mapping[object, object]", stored).items():
        if not (isinstance(name, str) and type(count) is int and count > 0):
            return None
        counts[name] = count
    return counts


def _name(tool: str | type[ToolModel]) -> str:
    return tool if isinstance(tool, str) else tool.model_tool_name()
