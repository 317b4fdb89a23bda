"""What the decisions issue 28 waits on would buy, on the rows that miss their goals.

    python -m benchmarks.bench_design_options

Goal 2 (one call, run and rendered, at most 2x the hand loop) is missed on Anthropic and
Gemini, and goal 4 (at most +10% inside the SDK's own stream) on Anthropic, within
DESIGN's contract and the rule that each piece of logic exists once. This script measures,
in one run and on the suite's own inputs, what each option a DESIGN owner could take
would change:

- "no dict limit walk": no size and depth walk over dict arguments (Anthropic, Gemini),
  the most that judging both from the tool's schema (and the size from the JSON the SDK
  already parsed) could save;
- "Gemini answers as dicts": `tool_result_messages(results, "gemini")` returning the
  `ContentDict` form google-genai also takes, instead of DESIGN's `types.Content`;
- both at once.

Each option replaces the one piece it would change, for this run only: none of them is a
way to run toolwire. For goal 4 it measures the floor a user's own loop sets: a
hand-written live preview at toolwire's freshness (each fragment buffered, the buffer
parsed again once it grew by 1/15 since the last parse, which keeps the preview within
1/16 of the text as toolwire's does, and parsed exactly at the end), read in the SDK's
stream as toolwire's `feed` is.

Measured (2-core VM, CPython 3.11, 2026-11-29; the range of four runs' medians), as a
ratio to the hand loop, short / realistic:

| option                  | Anthropic               | Gemini                  |
|-------------------------|-------------------------|-------------------------|
| as is                   | 2.40-2.60x / 2.40-2.45x | 3.61-3.82x / 3.05-3.21x |
| no dict limit walk      | 2.27-2.38x / 1.64-1.73x | 3.48-3.54x / 2.31-2.42x |
| Gemini answers as dicts | (as is)                 | 2.57-2.63x / 2.41-2.45x |
| both                    | (no walk)               | 2.38-2.43x / 1.74-1.77x |

So the limit decision alone brings Anthropic's realistic row under 2x, Gemini's needs
both, and no option brings a short row there: on a call of 41 characters the layers
every path shares (reading any response, the batch, the result types, rendering for any
API) cost more than the hand loop's whole work, about 2.3 us against 1.6 us.
Inside the SDK's stream (five runs): the hand-written preview adds 3-7% on the
realistic call and 1-5% on 100 KiB, toolwire's `feed` 9-15% and 9-14%; the difference
is the event the public API returns per fragment and the call's bookkeeping. Counted in
instructions (callgrind), toolwire adds 8.5% on the realistic call (`bench_event_floor`
has the earlier counts): under the goal there, at it in wall time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from pydantic_core import from_json

import toolwire._history as history
import toolwire._pipeline as pipeline
from benchmarks._measure import paired
from benchmarks._responses import build, same_messages
from benchmarks._tools import FIXTURES, Fixture
from benchmarks._wires import LARGE, REALISTIC
from benchmarks.suite import open_stream
from toolwire import core
from toolwire._limits import ArgumentLimits
from toolwire.core import Api

OPTIONS = ("as is", "no dict limit walk", "Gemini answers as dicts", "both")


def _dict_answer(result: Any) -> dict[str, Any]:
    """A text result's answer in the dict form of `types.Part`."""
    key = "output" if result.fail_reason is None else "error"
    made: dict[str, Any] = {"name": result.name, "response": {key: result.result_content}}
    if not result.synthesized_id:
        made["id"] = result.call_id
    return {"function_response": made}


def _dict_content(answers: list[Any]) -> list[Any]:
    return [{"role": "user", "parts": answers}]


def _no_walk(data: Any, limits: ArgumentLimits) -> str | None:
    return None


def apply(name: str) -> Callable[[], None]:
    """Apply option `name`; return what restores toolwire."""
    check_dict = pipeline.check_dict
    gemini = history._text_answer("gemini")
    if name in ("no dict limit walk", "both"):
        pipeline.check_dict = _no_walk
    if name in ("Gemini answers as dicts", "both"):
        history._TEXT_ANSWERS["gemini"] = (_dict_answer, _dict_content)

    def restore() -> None:
        pipeline.check_dict = check_dict
        history._TEXT_ANSWERS["gemini"] = gemini

    return restore


def dispatch() -> None:
    apis: tuple[Api, ...] = ("anthropic", "gemini")
    columns: list[tuple[Api, Fixture]] = [(api, f) for api in apis for f in FIXTURES]
    print("One call, run and rendered, as a ratio to the hand loop (goal: 2x)")
    print(f"{'option':<26}" + "".join(f"{f'{api}, {f.name}':>22}" for api, f in columns))
    for name in OPTIONS:
        cells: list[str] = []
        restore = apply(name)
        try:
            for api, fixture in columns:
                hand = build(api, fixture, 1)
                tools = core.ToolGroup.from_list([fixture.tool])

                def ours(
                    response: Any = hand.response,
                    api: Api = api,
                    group: core.ToolGroup[None, None] = tools,
                ) -> list[Any]:
                    return core.tool_result_messages(group.run_tool_calls(response, None), api)

                if api == "gemini" and name in ("Gemini answers as dicts", "both"):
                    assert ours() == hand.run_and_render()
                else:
                    assert same_messages(api, ours(), hand.run_and_render())
                ratio = paired(hand.run_and_render, ours, repeat=15)
                cells.append(f"{ratio.median:.2f}x ({ratio.low:.2f}-{ratio.high:.2f})")
        finally:
            restore()
        print(f"{name:<26}" + "".join(f"{cell:>22}" for cell in cells))


def hand_preview(items: Iterable[Any]) -> object:
    """A user's own live preview of an Anthropic stream's tool input, as fresh as
    toolwire's: buffer each fragment, parse the buffer again once it grew by 1/15 since
    the last parse, parse it exactly at the end."""
    chunks: list[str] = []
    size = fresh = 0
    preview: object = {}
    for event in items:
        if event.type == "content_block_delta":
            delta = event.delta
            if delta.type == "input_json_delta":
                part: str = delta.partial_json
                chunks.append(part)
                size += len(part)
                if size > fresh:
                    preview = from_json("".join(chunks), allow_partial="trailing-strings")
                    fresh = size + size // 15
    del preview  # what a display would show
    return json.loads("".join(chunks))


def stream() -> None:
    print("\nAnthropic's stream from bytes, reading the arguments so far on every event,")
    print("as a ratio to the SDK's stream alone (goal: 1.10x)")
    print(f"{'payload':<12}{'the SDK alone':>15}{'hand-written preview':>26}{'toolwire feed':>26}")
    for streamed in (REALISTIC, LARGE):
        opened = open_stream("anthropic", streamed)

        def hand(opened: Any = opened) -> object:
            return hand_preview(opened.open())

        assert hand() == opened.sdk_with_feed()
        sides: list[Callable[[], object]] = [hand, opened.sdk_with_feed]
        ratios = [paired(opened.sdk_alone, side, repeat=7, budget=0.2) for side in sides]
        cells = "".join(f"{f'{r.median:.3f}x ({r.low:.2f}-{r.high:.2f})':>26}" for r in ratios)
        print(f"{streamed.label:<12}{ratios[0].baseline * 1e3:>12.2f} ms{cells}")


def main() -> None:
    dispatch()
    stream()


if __name__ == "__main__":
    main()
