"""Every example runs offline, and the README shows the current examples and outputs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import generate_readme
from examples._runner import example_names, run

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", example_names())
def test_example_runs_offline(name: str) -> None:
    """The example's main() completes against the fake and prints something."""
    assert run(name).strip()


def test_readme_is_generated_from_current_examples() -> None:
    """README.md equals what generate_readme.py renders now (run it and commit if not)."""
    assert (ROOT / "README.md").read_text() == generate_readme.render()


def test_quickstart_has_exactly_two_commands_and_ci_runs_the_second() -> None:
    """The Quickstart holds two shell commands; .ci/run runs both verbatim."""
    readme = (ROOT / "README.md").read_text()
    quickstart = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", quickstart, re.DOTALL)
    assert len(commands) == 2
    assert all("\n" not in command for command in commands)
    assert "python -m examples" in commands[0] and "pytest" in commands[1]
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[0] in ci_lines and commands[1] in ci_lines


def test_main_job_runs_every_example() -> None:
    """`python -m examples` runs every example and says how many."""
    done = subprocess.run(
        [sys.executable, "-m", "examples"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.count("=== examples/") == len(example_names())
    assert done.stdout.rstrip().endswith(f"=== {len(example_names())} examples ran offline.")
