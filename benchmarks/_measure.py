"""Timing without fooling ourselves: paired, interleaved runs in one process, GC off.

These machines are noisy, so no figure is a time on its own: each is a ratio of two
callables measured in the same repetitions, alternating which runs first, with the
garbage collector paused (as `timeit` does) so a collection triggered by one side is
not billed to the other. The median of the per-repetition ratios is the result; the
spread (lowest and highest ratio) says how much to trust it.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Ratio", "paired"]


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
) -> Ratio:
    """`subject` against `baseline`: each repetition times both (in alternating order)
    over enough runs to last about `budget` seconds."""
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
