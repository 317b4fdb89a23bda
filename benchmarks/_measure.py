"""Timing without fooling ourselves: paired, interleaved runs in one process, GC off.

These machines are noisy, so no figure is a time on its own: each is a ratio of two
callables measured in the same repetitions, alternating which runs first, with the
garbage collector paused (as `timeit` does) so a collection triggered by one side is
not billed to the other. The median of the per-repetition ratios is the result; the
spread (lowest and highest ratio) says how much to trust it.

How hard a run measures is an `Effort`: `FULL` for the figures the README shows,
`QUICK` for rough figures in a minute or two, `SMOKE` for CI, which only proves that
every row still runs and prints (each side once, no figure to trust).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["FULL", "QUICK", "SMOKE", "Effort", "Ratio", "paired"]


@dataclass(frozen=True, slots=True)
class Ratio:
    """What one comparison measured: medians in seconds per run, and the ratio."""

    baseline: float
    subject: float
    median: float
    low: float
    high: float


def _time(fn: Callable[[], object], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def paired(
    baseline: Callable[[], object],
    subject: Callable[[], object],
    *,
    repeat: int,
    budget: float = 0.02,
    warm: bool = True,
) -> Ratio:
    """`subject` against `baseline`: each repetition times both (in alternating order)
    over enough runs to last about `budget` seconds. Without `warm`, each repetition
    runs each side once, with no warm-up run before (a smoke run: `Effort.compare`)."""
    number = 1
    if warm:
        baseline()  # warm caches on both sides
        subject()
        once = max(_time(baseline, 1), 1e-7)
        number = max(1, int(budget / once))
    base_times: list[float] = []
    subject_times: list[float] = []
    ratios: list[float] = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for index in range(repeat):
            if index % 2:
                s = _time(subject, number)
                b = _time(baseline, number)
            else:
                b = _time(baseline, number)
                s = _time(subject, number)
            base_times.append(b)
            subject_times.append(s)
            ratios.append(s / b)
            if index + 1 < repeat:  # each repetition starts with no garbage of the last
                gc.collect()
    finally:
        if enabled:
            gc.enable()
    return Ratio(
        statistics.median(base_times),
        statistics.median(subject_times),
        statistics.median(ratios),
        min(ratios),
        max(ratios),
    )


@dataclass(frozen=True, slots=True)
class Effort:
    """How hard a benchmark run measures; every row asks it through `compare`."""

    name: str
    repeat: int
    """Repetitions of each comparison, before a row's own `least` and `share`."""
    measures: bool
    """False for a smoke run: each side of a comparison runs once, untimed in any way
    worth reading, so the row's code path and its line are proven and nothing more."""

    def repetitions(self, *, least: int = 1, share: int = 1, most: int | None = None) -> int:
        """A row's repetitions: `repeat // share`, at least `least` and at most `most`
        (one, smoking)."""
        if not self.measures:
            return 1
        count = max(least, self.repeat // share)
        return count if most is None else min(most, count)

    def compare(
        self,
        baseline: Callable[[], object],
        subject: Callable[[], object],
        *,
        least: int = 1,
        share: int = 1,
        most: int | None = None,
        budget: float = 0.02,
    ) -> Ratio:
        """`paired` at this effort; smoking, one timed run of each side."""
        if not self.measures:
            return paired(baseline, subject, repeat=1, budget=0.0, warm=False)
        repeat = self.repetitions(least=least, share=share, most=most)
        return paired(baseline, subject, repeat=repeat, budget=budget)


FULL = Effort("full", repeat=15, measures=True)
"""The figures the README shows (`python -m benchmarks`, a few minutes)."""
QUICK = Effort("quick", repeat=3, measures=True)
"""Rough figures (`--quick`): every row's least repetitions."""
SMOKE = Effort("smoke", repeat=1, measures=False)
"""Every row once (`--smoke`, CI): it still runs and prints; no figure to trust."""
