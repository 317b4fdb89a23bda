"""Run every benchmark and print its tables: `python -m benchmarks`.

    python -m benchmarks            full run (a few minutes), prints the tables
    python -m benchmarks --quick    a few repetitions each: rough figures in a minute
                                    or two
    python -m benchmarks --smoke    each row's two sides once: proves every row still
                                    runs and prints, measures nothing (CI runs this)
    python -m benchmarks --write    full run, and save toolwire's table to
                                    benchmarks/results.md and the peers' to
                                    benchmarks/peers.md, which README.md shows
                                    (generate_readme.py); peers.md only when every
                                    peer is installed

The peers (openai-agents, pydantic-ai, LangChain) are benchmark-only dependencies:
`benchmarks/requirements-peers.txt` says how to install them in a venv of their own.
Without them their columns are skipped, and the rest runs as before.

The single-topic scripts (bench_preview.py, bench_tracing.py, bench_event_floor.py,
bench_dispatch_floor.py, bench_design_options.py, tokens.py) stay for their own
questions; this suite is the one the README quotes.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from datetime import date
from importlib import metadata
from pathlib import Path

from . import peers, tokens
from ._measure import FULL, QUICK, SMOKE, Effort
from .suite import Row, rows

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results.md"
PEERS = HERE / "peers.md"
PACKAGES = ("pydantic", "openai", "anthropic", "google-genai")


def table(measured: list[Row], effort: Effort) -> str:
    lines = [
        "| what | against | baseline | toolwire | ratio (low-high) | goal |",
        "|---|---|---:|---:|---|---:|",
    ]
    for row in measured:
        unit = "us" if row.unit == 1e-6 else "ms"
        ratio = row.ratio
        goal = "" if row.goal is None else f"{row.goal:.2f}x"
        if effort.measures and row.goal is not None and ratio.median > row.goal:
            goal += " (over)"
        lines.append(
            f"| {row.what} | {row.baseline} | {ratio.baseline / row.unit:,.1f} {unit} | "
            f"{ratio.subject / row.unit:,.1f} {unit} | {ratio.median:.2f}x "
            f"({ratio.low:.2f}-{ratio.high:.2f}) | {goal} |"
        )
    return "\n".join(lines)


def load() -> str:
    """The machine's load (1-minute average) and cores: other work skews every figure."""
    if not hasattr(os, "getloadavg"):  # Windows
        return ""
    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def command(effort: Effort) -> str:
    """The command that runs the benchmarks at `effort`."""
    return "python -m benchmarks" if effort == FULL else f"python -m benchmarks --{effort.name}"


def machine(effort: Effort, started: str, extra: list[str] | None = None) -> str:
    versions = ", ".join([*(f"{name} {metadata.version(name)}" for name in PACKAGES), *(extra or [])])  # fmt: skip
    loads = f" ({started} at the start, {load()} at the end)" if started else ""
    measured = "Measured" if effort.measures else "Smoke run (each row once: no figure to trust)"
    return (
        f"{measured} {date.today().isoformat()} with `{command(effort)}` on "
        f"{platform.machine()} {platform.system()}{loads}, {sys.implementation.name} "
        f"{platform.python_version()}; {versions}."
    )


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description="Run every benchmark and print its tables."
    )
    efforts = parser.add_mutually_exclusive_group()
    efforts.add_argument(
        "--quick", dest="effort", action="store_const", const=QUICK, default=FULL,
        help="a few repetitions each: rough figures in a minute or two",
    )  # fmt: skip
    efforts.add_argument(
        "--smoke", dest="effort", action="store_const", const=SMOKE,
        help="each row's two sides once: proves every row still runs and prints (CI)",
    )  # fmt: skip
    parser.add_argument(
        "--write", action="store_true",
        help="save the tables to benchmarks/results.md and peers.md (a full run only)",
    )  # fmt: skip
    options = parser.parse_args(argv)
    if options.write and options.effort != FULL:
        parser.error("--write saves a full run's figures: run it without --quick or --smoke")
    return options


def main(argv: list[str]) -> int:
    options = parse(argv)
    effort: Effort = options.effort
    started = load()
    measured = rows(effort)
    results = f"{machine(effort, started)}\n\n{table(measured, effort)}\n"
    print(results)
    found = peers.measure(measured, effort)
    compared = f"{machine(effort, started, found.versions)}\n\n{found.markdown()}\n\n{tokens.report()}\n"  # fmt: skip
    print(compared)
    for line in found.skipped:
        print(line)
    if options.write:
        RESULTS.write_text(results)
        print(f"saved to {RESULTS}")
        if found.skipped:
            print(f"{PEERS} left as it was: install every peer to write it.")
        else:
            PEERS.write_text(compared)
            print(f"saved to {PEERS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
