"""`python -m benchmarks` at its three efforts: the full run the README shows, `--quick`
for rough figures, `--smoke` (CI) running each side of every row once.

CI runs `--smoke` itself, proving every row still runs and prints; these tests pin what
each effort repeats, so a smoke run stays a smoke run and a full run keeps its counts.
"""

from __future__ import annotations

import pytest

from benchmarks.__main__ import command, machine, parse, table
from benchmarks._measure import FULL, QUICK, SMOKE, Ratio
from benchmarks.suite import Row


def test_each_effort_repeats_what_its_rows_ask() -> None:
    """Per row kind (dispatch; a stream's feed; the SDK's stream; peers' large stream;
    the import row): a full run, a quick one, and a smoke run's single repetition."""
    kinds = [{}, {"least": 3, "share": 3}, {"least": 5, "share": 2}, {"least": 3, "share": 2, "most": 3}, {"most": 11}]  # fmt: skip
    counts = [[effort.repetitions(**kind) for kind in kinds] for effort in (FULL, QUICK, SMOKE)]
    assert counts == [[15, 5, 7, 3, 11], [3, 3, 5, 3, 3], [1, 1, 1, 1, 1]]


def test_a_smoke_comparison_runs_each_side_once() -> None:
    ran: list[str] = []
    ratio = SMOKE.compare(lambda: ran.append("baseline"), lambda: ran.append("subject"), least=5)
    assert ran == ["baseline", "subject"]
    assert ratio.low == ratio.median == ratio.high


def test_a_quick_comparison_warms_up_then_repeats() -> None:
    ran: list[str] = []
    QUICK.compare(lambda: ran.append("b"), lambda: ran.append("s"), budget=0.0)
    assert ran == ["b", "s", "b", "b", "s", "s", "b", "b", "s"]


def test_the_options_choose_the_effort() -> None:
    assert [parse(argv).effort for argv in ([], ["--quick"], ["--smoke"])] == [FULL, QUICK, SMOKE]
    assert parse(["--write"]).write
    assert [command(effort) for effort in (FULL, QUICK, SMOKE)] == [
        "python -m benchmarks",
        "python -m benchmarks --quick",
        "python -m benchmarks --smoke",
    ]


@pytest.mark.parametrize("argv", [["--smoke", "--write"], ["--quick", "--write"], ["--quick", "--smoke"], ["--fast"]])  # fmt: skip
def test_options_that_cannot_go_together_stop_with_a_message(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        parse(argv)
    assert "python -m benchmarks: error:" in capsys.readouterr().err


def test_a_smoke_run_says_so_and_judges_no_goal() -> None:
    """Its figures come from one run each: the header says so, and no row is marked over
    its goal."""
    row = Row("one call", "hand loop", Ratio(1e-6, 3e-6, 3.0, 3.0, 3.0), goal=2.0)
    assert machine(SMOKE, "").startswith("Smoke run (each row once: no figure to trust) ")
    assert "with `python -m benchmarks --smoke` on " in machine(SMOKE, "")
    assert table([row], SMOKE).endswith("| one call | hand loop | 1.0 us | 3.0 us | 3.00x (3.00-3.00) | 2.00x |")  # fmt: skip
    assert table([row], FULL).endswith("| 2.00x (over) |")
    assert machine(FULL, "").startswith("Measured ")
