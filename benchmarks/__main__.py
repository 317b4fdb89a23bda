"""Run every benchmark and print one table: `python -m benchmarks`.

    python -m benchmarks            full run (about a minute), prints the table
    python -m benchmarks --quick    a few repetitions each: checks they still run (CI)
    python -m benchmarks --write    full run, and save the table to benchmarks/results.md,
                                    which README.md shows (generate_readme.py)

The single-topic scripts (bench_preview.py, bench_tracing.py, bench_event_floor.py)
stay for their own questions; this suite is the one the README quotes.
"""

from __future__ import annotations

import platform
import sys
from datetime import date
from importlib import metadata
from pathlib import Path

from .suite import Row, rows

RESULTS = Path(__file__).resolve().parent / "results.md"
PACKAGES = ("pydantic", "openai", "anthropic", "google-genai")


def table(measured: list[Row]) -> str:
    lines = [
        "| what | against | baseline | toolwire | ratio (low-high) | goal |",
        "|---|---|---:|---:|---|---:|",
    ]
    for row in measured:
        unit = "us" if row.unit == 1e-6 else "ms"
        ratio = row.ratio
        goal = "" if row.goal is None else f"{row.goal:.2f}x"
        if row.goal is not None and ratio.median > row.goal:
            goal += " (over)"
        lines.append(
            f"| {row.what} | {row.baseline} | {ratio.baseline / row.unit:,.1f} {unit} | "
            f"{ratio.subject / row.unit:,.1f} {unit} | {ratio.median:.2f}x "
            f"({ratio.low:.2f}-{ratio.high:.2f}) | {goal} |"
        )
    return "\n".join(lines)


def machine() -> str:
    versions = ", ".join(f"{name} {metadata.version(name)}" for name in PACKAGES)
    return (
        f"Measured {date.today().isoformat()} with `python -m benchmarks` on "
        f"{platform.machine()} {platform.system()}, {sys.implementation.name} "
        f"{platform.python_version()}; {versions}."
    )


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    measured = rows(quick=quick)
    text = f"{machine()}\n\n{table(measured)}\n"
    print(text)
    if "--write" in argv and not quick:
        RESULTS.write_text(text)
        print(f"saved to {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
