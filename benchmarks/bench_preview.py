"""Cost of previewing tool-call arguments while they stream (issue 6, STREAMING.md section 5).

Run from the project root: `python benchmarks/bench_preview.py` (with the package
importable, e.g. `PYTHONPATH=src`). Everything is measured in this one run; each figure
is the median of several repetitions, interleaved across variants so that a noisy moment
of the machine hits them all alike. The garbage collector is off while a repetition runs
(as `timeit` does).

Variants, all fed the same fragments:

- floor: collect the fragments, then join and `json.loads` once.
- preview: `ArgumentsPreview.feed` every fragment and read `partial()` after each one.
- deltas only: `ArgumentsPreview.feed` every fragment, no `partial()` reads.
- full parse: `pydantic_core.from_json(buffer, allow_partial="trailing-strings")` on the
  whole buffer after every fragment (the quadratic reference).

Limits from the issue: preview <= 15x floor on the 100 KiB payload, and preview on the
doubled payload (twice the text in twice as many fragments of the same size) <= 2.5x
preview on the original.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from pydantic_core import from_json

from toolwire._streaming._preview import LAG_DIVISOR, ArgumentsPreview, max_lag

SEED = 20_260_506
KIB = 1024
FLOOR_LIMIT = 15.0
DOUBLING_LIMIT = 2.5

_WORDS = (
    "tool", "stream", "preview", "fragment", "argument", "délai", "über", "naïve",
    "café", "smörgåsbord", "日本語", "ça", "déjà", "π", "—", "…", "«guillemets»",
)  # fmt: skip
_LINES = (
    '<div class="card" data-id="{n}">',
    "\t<p>{text}</p>",
    '\t<a href="/path/{n}?q=\\"{word}\\"">{word} 😀</a>',
    "\t<pre>C:\\\\Users\\\\{word}\\\\file{n}.txt</pre>",
    "\t<script>const s = '{word}\\n' + \"{text}\";</script>",
    "</div>",
)


def html_content(chars: int, rng: random.Random) -> str:
    """HTML-like text of exactly `chars` characters: quotes, newlines, tabs, backslashes,
    non-ASCII letters and an emoji, so the JSON text is full of escapes."""
    lines: list[str] = ['<!DOCTYPE html>\n<html lang="fr">\n<body>']
    size = len(lines[0])
    while size < chars:
        words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 12)))
        line = rng.choice(_LINES).format(
            n=rng.randint(0, 99_999), word=rng.choice(_WORDS), text=words
        )
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)[:chars]


def jittered_split(text: str, count: int, low: int, high: int, rng: random.Random) -> list[str]:
    """Cut `text` into exactly `count` fragments of `low`..`high` characters."""
    if not count * low <= len(text) <= count * high:
        raise ValueError(f"{len(text)} characters cannot make {count} fragments of {low}-{high}")
    sizes = [rng.randint(low, high) for _ in range(count)]
    excess = sum(sizes) - len(text)
    while excess:
        i = rng.randrange(count)
        step = 1 if excess < 0 else -1
        if low <= sizes[i] + step <= high:
            sizes[i] += step
            excess += step
    fragments: list[str] = []
    at = 0
    for size in sizes:
        fragments.append(text[at : at + size])
        at += size
    return fragments


def write_file_fragments(content_kib: int, count: int) -> list[str]:
    """STREAMING.md section 5's payload: a write_file call's arguments, `count` fragments."""
    rng = random.Random(SEED + content_kib)
    arguments = {"path": "index.html", "content": html_content(content_kib * KIB, rng)}
    return jittered_split(json.dumps(arguments, ensure_ascii=False), count, 20, 91, rng)


def rows_fragments(target_chars: int, count: int) -> list[str]:
    """A structure-heavy payload: many small row objects, `count` fragments."""
    rng = random.Random(SEED + target_chars)
    rows: list[dict[str, Any]] = []
    text = ""
    while len(text) < target_chars:
        for _ in range(50):
            rows.append(
                {
                    "id": len(rows),
                    "name": " ".join(rng.choice(_WORDS) for _ in range(2)),
                    "price": round(rng.uniform(0, 1000), 2),
                    "tags": [rng.choice(_WORDS) for _ in range(rng.randint(0, 2))],
                    "active": rng.random() < 0.5,
                    "note": None,
                }
            )
        text = json.dumps({"table": "products", "rows": rows}, ensure_ascii=False)
    low = max(1, len(text) // count // 3)
    return jittered_split(text, count, low, 3 * len(text) // count - low, rng)


def floor(fragments: Sequence[str]) -> object:
    collected: list[str] = []
    for fragment in fragments:
        collected.append(fragment)
    return json.loads("".join(collected))


def preview(fragments: Sequence[str]) -> object:
    arguments = ArgumentsPreview()
    result: object = None
    for fragment in fragments:
        arguments.feed(fragment)
        result = arguments.partial()
    return result


def deltas_only(fragments: Sequence[str]) -> object:
    arguments = ArgumentsPreview()
    result: object = None
    for fragment in fragments:
        result = arguments.feed(fragment)
    return result


def full_parse(fragments: Sequence[str]) -> object:
    buffer = ""
    result: object = None
    for fragment in fragments:
        buffer += fragment
        result = from_json(buffer, allow_partial="trailing-strings")
    return result


Variant = Callable[[Sequence[str]], object]


def measure(
    payloads: dict[str, list[str]], variants: dict[str, Variant], rounds: int
) -> dict[tuple[str, str], list[float]]:
    """CPU seconds per round for every (payload, variant).

    CPU time of this process, not wall time: on a shared machine, wall time also counts
    the slices other processes take, which penalizes long runs more than short ones
    (a 0.5 ms floor often fits in one slice). Each round runs every pair once, so what
    noise remains (caches, frequency) hits the pairs of one round alike.
    """
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for label, fragments in payloads.items():
            for name, run in variants.items():
                gc.collect()
                gc.disable()
                try:
                    start = time.process_time()
                    run(fragments)
                    elapsed = time.process_time() - start
                finally:
                    gc.enable()
                times.setdefault((label, name), []).append(elapsed)
    return times


def paired_ratio(numerators: Sequence[float], denominators: Sequence[float]) -> float:
    """Median over rounds of the ratio of two timings taken in the same round."""
    return statistics.median(a / b for a, b in zip(numerators, denominators, strict=True))


def lag_profile(fragments: Sequence[str]) -> tuple[int, int, float, int]:
    """(refreshes, reads with a lag, median lag as % of the buffer, max lag) over one run,
    checking the documented bound at every read (untimed)."""
    arguments = ArgumentsPreview()
    refreshes = 0
    lags: list[float] = []
    worst = 0
    previous: object = None
    for fragment in fragments:
        arguments.feed(fragment)
        snapshot = arguments.partial()
        refreshes += snapshot is not previous
        previous = snapshot
        size = len(arguments.raw)
        if arguments.lag > max_lag(size):
            raise AssertionError(f"lag {arguments.lag} > bound {max_lag(size)} at {size}")
        if arguments.lag:
            lags.append(100 * arguments.lag / size)
        worst = max(worst, arguments.lag)
    if arguments.partial() != json.loads(arguments.raw):
        raise AssertionError("the final preview differs from json.loads")
    return refreshes, len(lags), statistics.median(lags) if lags else 0.0, worst


def main() -> int:
    cheap: dict[str, Variant] = {"floor": floor, "preview": preview, "deltas only": deltas_only}
    reference: dict[str, Variant] = {"full parse": full_parse}
    cheap_rounds, reference_rounds = 21, 3
    small, large = "100 KiB / 2,000", "200 KiB / 4,000"
    payloads = {
        f"write_file {small}": write_file_fragments(100, 2000),
        f"write_file {large}": write_file_fragments(200, 4000),
        f"rows {small}": rows_fragments(100 * KIB, 2000),
        f"rows {large}": rows_fragments(200 * KIB, 4000),
    }
    times = measure(payloads, cheap, cheap_rounds)
    times |= measure(payloads, reference, reference_rounds)
    median = {key: statistics.median(values) for key, values in times.items()}

    print(
        f"Python {sys.version.split()[0]}; medians of {cheap_rounds} rounds "
        f"({reference_rounds} for full parse); ms, and (x floor) as the median of the "
        "per-round ratios\n"
    )
    names = [*cheap, *reference]
    print(f"{'payload':<28}{'chars':>9}" + "".join(f"{name:>20}" for name in names))
    for label, fragments in payloads.items():
        floor_times = times[label, "floor"]
        cells = [f"{1000 * median[label, 'floor']:.2f}"]
        for name in names[1:]:
            if name in cheap:
                ratio = paired_ratio(times[label, name], floor_times)
            else:
                ratio = median[label, name] / median[label, "floor"]
            cells.append(f"{1000 * median[label, name]:.2f} ({ratio:.1f}x)")
        chars = sum(map(len, fragments))
        print(f"{label:<28}{chars:>9,}" + "".join(f"{cell:>20}" for cell in cells))

    print(f"\nDoubling ({large} over {small}, median of the per-round ratios):")
    doubling: dict[tuple[str, str], float] = {}
    for kind in ("write_file", "rows"):
        for name in names:
            doubling[kind, name] = paired_ratio(
                times[f"{kind} {large}", name], times[f"{kind} {small}", name]
            )
        cells = ", ".join(f"{name} {doubling[kind, name]:.2f}x" for name in names)
        print(f"  {kind:<11}{cells}")

    print(f"\nLag of partial() read after every fragment (bound: len(raw) // {LAG_DIVISOR}):")
    for label, fragments in payloads.items():
        refreshes, lagging, median_pct, worst = lag_profile(fragments)
        print(
            f"  {label:<28}{refreshes:>5} refreshes, {lagging:>5} of {len(fragments):,} reads "
            f"lagging, median lag {median_pct:.1f}% of the buffer, max {worst:,} chars"
        )

    label = f"write_file {small}"
    vs_floor = paired_ratio(times[label, "preview"], times[label, "floor"])
    doubled = doubling["write_file", "preview"]
    verdicts = {
        "preview / floor": (vs_floor, FLOOR_LIMIT),
        "doubling": (doubled, DOUBLING_LIMIT),
    }
    print()
    for what, (value, limit) in verdicts.items():
        verdict = "ok" if value <= limit else "OVER THE LIMIT"
        print(f"write_file {what}: {value:.2f}x (limit {limit:g}x): {verdict}")
    return 0 if all(value <= limit for value, limit in verdicts.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
