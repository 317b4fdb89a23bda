"""The least a one-call dispatch returning toolwire's results can cost, against the hand loop.

    python -m benchmarks.bench_dispatch_floor

The suite's dispatch rows compare `run_tool_calls(response, context)` to a hand loop on
the same SDK objects: read the name and arguments, look up the class,
`model_validate_json` / `model_validate`, call the handler, build a plain dict. This
script measures that hand loop with only what toolwire's contract adds to it, done the
cheapest way: the call read into a `StandardToolCall` (results, `ToolBatchError.calls`
and hooks name it), the argument limits checked (`check_dict` on dict arguments; JSON
text this short needs no scan), the tool's validator called directly (cheaper than
`model_validate`), and a `ToolCallSuccess` instead of the dict. No reader dispatch, no
observer check, no layers, no checks of the turn (cut, other calls). toolwire's own
dispatch is measured in the same run for comparison.

Measured (2-core VM, CPython 3.11, 2026-11-26, three runs): the least dispatch costs
1.15x to 1.2x the hand loop on Chat Completions and Responses, 1.5x to 1.55x on
Anthropic and 1.4x to 1.45x on Gemini, whose dict arguments need the limit check (~240
ns of a ~1.2 us hand loop); toolwire's dispatch, same runs: 1.6x to 1.8x, 2.15x to 2.2x
and 2.2x to 2.35x. What lies between is reading the response in general (which of its
items are calls, whether the turn was cut, an id for calls without one) and the layers
that keep one set of semantics for every path, for which the goal (1.6x) leaves about
100 ns on Anthropic and 250 ns on Gemini.
"""

from __future__ import annotations

from typing import Any

from benchmarks._measure import paired
from benchmarks._responses import APIS, build
from benchmarks._tools import FIXTURES, get_weather
from toolwire import core
from toolwire._call import StandardToolCall
from toolwire._limits import DEFAULT_LIMITS, check_dict
from toolwire._result import ToolCallSuccess
from toolwire.core import Api

VALIDATOR = get_weather.__pydantic_validator__
TOOLS: dict[str, Any] = {"get_weather": get_weather}


def _answer(call: StandardToolCall) -> ToolCallSuccess[Any]:
    """Validate, run and wrap one call as cheaply as toolwire's results allow."""
    raw: Any = call.input
    if type(raw) is str:
        assert len(raw) <= DEFAULT_LIMITS.always_within  # short JSON: within every limit
        tool = VALIDATOR.validate_json(raw)
    else:
        assert check_dict(raw, DEFAULT_LIMITS) is None
        tool = VALIDATOR.validate_python(raw, strict=False)
    text, context = tool.model_tool_handler(None)
    return ToolCallSuccess(call.id, call.name, text, context, call.type, call.synthesized_id)


def least_dispatch(api: Api, response: Any) -> list[ToolCallSuccess[Any]]:
    """The hand loop's reads, each call made a `StandardToolCall` and answered."""
    calls: list[StandardToolCall] = []
    item: Any
    if api == "chat.completions":
        tool_calls: list[Any] = response.choices[0].message.tool_calls or []
        for item in tool_calls:
            function = item.function
            calls.append(StandardToolCall("function", item.id, function.name, function.arguments))
    elif api == "responses":
        for item in response.output:
            if item.type == "function_call":
                calls.append(StandardToolCall("function", item.call_id, item.name, item.arguments))
    elif api == "anthropic":
        for block in response.content:
            if block.type == "tool_use":
                calls.append(StandardToolCall("function", block.id, block.name, block.input))
    else:
        content = response.candidates[0].content
        for index, part in enumerate(content.parts):
            call = part.function_call
            if call is not None:
                call_id, synthesized = call.id, False
                if not call_id:
                    call_id, synthesized = f"toolwire_r1_{index}", True
                calls.append(StandardToolCall("function", call_id, call.name, call.args or {}, synthesized))  # fmt: skip
    return [_answer(call) for call in calls]


def main() -> None:
    group = core.ToolGroup.from_list([get_weather])
    print(f"{'API':<18} {'hand loop':>10} {'least':>7} {'toolwire':>9}")
    for api in APIS:
        hand = build(api, FIXTURES[0], 1)
        response, by_hand = hand.response, hand.run

        def least(api: Api = api, response: Any = response) -> object:
            return least_dispatch(api, response)

        def ours(response: Any = response) -> object:
            return group.run_tool_calls(response, None)

        assert [r.result_content for r in least_dispatch(api, response)] == ["ok"]
        floor = paired(by_hand, least, repeat=15)
        measured = paired(by_hand, ours, repeat=15)
        print(
            f"{api:<18} {floor.baseline * 1e6:>8.2f}us {floor.median:>6.2f}x "
            f"{measured.median:>8.2f}x"
        )


if __name__ == "__main__":
    main()
