"""What a batch does around its handlers when asked: argument repair before them, the
retry budget after them.

Written once for `toolwire.core` and `toolwire.aio`: each batch entry point takes the
slow path through `BatchExtras` only when `repair=` or `retries=` is passed, so a
batch without them runs exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ._limits import ArgumentLimits
from ._pipeline import prepare_all
from .exceptions import ToolBatchError

if TYPE_CHECKING:
    from ._argument_repair import ArgumentRepair
    from ._call import StandardToolCall
    from ._repair import RepairPolicy
    from ._retry_budget import RetryBudget
    from ._tool import ToolModel

__all__ = ["BatchExtras"]


class BatchExtras:
    """One batch's repair and budget. `prepared` holds the batch's validated (and
    repaired) calls for the batch to run; `finish` turns its results into the ones to
    return. Used as a context manager around the run, it also finishes the results a
    `ToolBatchError` carries."""

    __slots__ = ("_budget", "_repairs", "_tools", "prepared")

    def __init__(
        self,
        tools: Mapping[str, type[ToolModel]],
        calls: Sequence[StandardToolCall],
        limits: ArgumentLimits,
        repair: RepairPolicy | None,
        retries: RetryBudget | None,
        prepared: list[Any] | None = None,
    ) -> None:
        if retries is not None:
            from ._retry_budget import RetryBudget

            if not isinstance(retries, RetryBudget):
                raise TypeError(
                    f"retries takes a RetryBudget (e.g. retries=RetryBudget(max_retries=2), "
                    f"kept for the whole conversation), not {type(retries).__name__}."
                )
        self._tools = tools
        self._budget = retries
        self.prepared = prepare_all(tools, calls, limits) if prepared is None else prepared
        self._repairs: dict[int, tuple[ArgumentRepair, ...]] = {}
        if repair is not None:
            from ._repair import repair_batch

            self._repairs = repair_batch(tools, calls, self.prepared, repair, limits)

    def finish(self, results: Sequence[Any]) -> list[Any]:
        """The batch's results with their repairs noted and the budget counted."""
        for index, repairs in self._repairs.items():
            result = results[index]
            if result is not None:  # made by this batch, for the repaired call
                result._repairs = repairs
        if self._budget is None:
            return list(results)
        from ._retry_budget import spend

        return spend(self._budget, self._tools, results)

    def __enter__(self) -> BatchExtras:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if isinstance(error, ToolBatchError):
            error.results = tuple(self.finish(error.results))
