"""CI runs the suite at full strength; a contributor's run is the quick one
(tests/strength.py)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import settings

from tests.strength import FULL, scaled

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_every_suite_at_full_strength() -> None:
    """`.ci/run` exports TOOLWIRE_FULL_TESTS=1 before its first pytest command, so each
    suite it runs (every Python, the oldest versions) is at full strength."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    switch = lines.index("export TOOLWIRE_FULL_TESTS=1")
    first_suite = next(number for number, line in enumerate(lines) if "-m pytest" in line)
    assert switch < first_suite


def test_property_tests_follow_the_strength() -> None:
    """At full strength a property test runs its stated count and Hypothesis's default
    of 100 when it states none, drawing fresh examples each run; the quick run tries a
    tenth of them, the same ones each time. Neither keeps a database of examples."""
    profile = settings()
    if FULL:
        assert (scaled(300), profile.max_examples, profile.derandomize) == (300, 100, False)
    else:
        assert (scaled(300), profile.max_examples, profile.derandomize) == (30, 10, True)
    assert profile.database is None
