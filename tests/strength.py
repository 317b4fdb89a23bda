"""How hard the suite tries: quick on a contributor's machine, everything in CI.

`python -m pytest` runs each property test with a tenth of its Hypothesis examples, each
repeated check once, and each of examples/ once, so the suite stays under a minute and a
half on two cores. CI (`.ci/run`) sets TOOLWIRE_FULL_TESTS=1: all of each property
test's examples, every repetition, and `python -m examples` again in a fresh
interpreter. Set it yourself to run the suite as CI does.

A property test states the count it runs in CI through `scaled(n)` (in `@settings`);
one that states none runs the profile's, which `tests/conftest.py` loads.
"""

from __future__ import annotations

import os

import pytest

FULL = os.environ.get("TOOLWIRE_FULL_TESTS") == "1"
"""Whether the suite runs at CI strength (TOOLWIRE_FULL_TESTS=1)."""

QUICK_SHARE = 10
"""Outside CI, a scaled count is this many times smaller."""


def scaled(full: int) -> int:
    """`full` (examples of a property, attempts at a race) at CI strength; otherwise a
    tenth of it, at least one."""
    return full if FULL else max(1, full // QUICK_SHARE)


ci_only = pytest.mark.skipif(
    not FULL, reason="runs at CI strength only: set TOOLWIRE_FULL_TESTS=1 to include it"
)
"""Marks a test that repeats, more slowly, what a quicker test already checks."""
