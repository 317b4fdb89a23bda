"""Property tests: well-formed histories pass every API's rules; dropping a result is caught."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolwire.testing._anthropic.history import anthropic_history_problems
from toolwire.testing._gemini.history import gemini_history_problems
from toolwire.testing._openai_chat.history import chat_history_problems
from toolwire.testing._openai_responses.history import responses_history_problems
from toolwire.testing._rules import HistoryProblem

Entry = dict[str, Any]
Turns = list[list[str]]
"""Each turn is the list of tool names the model called (one or more)."""

TURNS = st.lists(
    st.lists(st.sampled_from(["get_weather", "lookup", "sql"]), min_size=1, max_size=3),
    min_size=1,
    max_size=4,
)


def _chat(turns: Turns) -> tuple[list[Entry], list[tuple[int, str]]]:
    history: list[Entry] = [{"role": "user", "content": "go"}]
    results: list[tuple[int, str]] = []
    for t, names in enumerate(turns):
        ids = [f"call_{t}_{i}" for i in range(len(names))]
        calls = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": "{}"}}
            for i, n in zip(ids, names, strict=True)
        ]
        history.append({"role": "assistant", "content": None, "tool_calls": calls})
        for call_id in ids:
            results.append((len(history), call_id))
            history.append({"role": "tool", "tool_call_id": call_id, "content": "ok"})
    return history, results


def _responses(turns: Turns) -> tuple[list[Entry], list[tuple[int, str]]]:
    history: list[Entry] = [{"role": "user", "content": "go"}]
    results: list[tuple[int, str]] = []
    for t, names in enumerate(turns):
        ids = [f"call_{t}_{i}" for i in range(len(names))]
        history += [
            {"type": "function_call", "call_id": i, "name": n, "arguments": "{}"}
            for i, n in zip(ids, names, strict=True)
        ]
        for call_id in ids:
            results.append((len(history), call_id))
            history.append({"type": "function_call_output", "call_id": call_id, "output": "ok"})
    return history, results


def _anthropic(turns: Turns) -> tuple[list[Entry], list[tuple[int, str]]]:
    history: list[Entry] = [{"role": "user", "content": "go"}]
    results: list[tuple[int, str]] = []
    for t, names in enumerate(turns):
        ids = [f"toolu_{t}_{i}" for i in range(len(names))]
        uses: list[Entry] = [
            {"type": "tool_use", "id": i, "name": n, "input": {}}
            for i, n in zip(ids, names, strict=True)
        ]
        history.append(
            {"role": "assistant", "content": [{"type": "text", "text": "calling"}, *uses]}
        )
        results += [(len(history), i) for i in ids]  # the user message that answers
        blocks = [{"type": "tool_result", "tool_use_id": i, "content": "ok"} for i in ids]
        history.append({"role": "user", "content": [*blocks, {"type": "text", "text": "next"}]})
    return history, results


def _gemini(turns: Turns) -> tuple[list[Entry], list[tuple[int, str]]]:
    history: list[Entry] = [{"role": "user", "parts": [{"text": "go"}]}]
    results: list[tuple[int, str]] = []
    for names in turns:
        calls: list[Entry] = [{"functionCall": {"name": n, "args": {}}} for n in names]
        calls[0]["thoughtSignature"] = "c2ln"
        history.append({"role": "model", "parts": calls})
        results += [(len(history), n) for n in names]  # the user content that answers
        responses = [{"functionResponse": {"name": n, "response": {"output": "ok"}}} for n in names]
        history.append({"role": "user", "parts": responses})
    return history, results


def _drop_result(history: list[Entry], where: tuple[int, str], api: str) -> list[Entry]:
    index, _ = where
    if api in ("chat", "responses"):
        return history[:index] + history[index + 1 :]
    copy = [dict(entry) for entry in history]
    key = "content" if api == "anthropic" else "parts"
    copy[index] = {**copy[index], key: list(copy[index][key])[1:]}
    return copy


Build = Callable[[Turns], tuple[list[Entry], list[tuple[int, str]]]]
Check = Callable[[Sequence[Entry]], list[HistoryProblem]]
APIS: list[tuple[str, Build, Check]] = [
    ("chat", _chat, chat_history_problems),
    ("responses", _responses, responses_history_problems),
    ("anthropic", _anthropic, anthropic_history_problems),
    ("gemini", _gemini, gemini_history_problems),
]


@given(TURNS, st.data())
def test_well_formed_histories_pass_and_a_dropped_result_is_named(
    turns: Turns, data: st.DataObject
) -> None:
    """Every API accepts a history with all results in place, and names the call whose result goes."""
    for api, build, check in APIS:
        history, results = build(turns)
        assert check(history) == [], api
        if api in ("anthropic", "gemini"):  # drop the first result block of one answering message
            results = [r for r in results if r == next(x for x in results if x[0] == r[0])]
        dropped = data.draw(st.sampled_from(results), label=f"{api} result")
        problems = check(_drop_result(history, dropped, api))
        named = [repr(dropped[1]) in p.message for p in problems]
        if api in ("chat", "responses"):
            assert named == [True], problems
        else:
            assert any(named), problems


JUNK = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.text(max_size=5),
        st.sampled_from(
            ["model", "user", "assistant", "tool", "tool_use", "tool_result"]
            + ["function_call", "function_call_output", "custom_tool_call_output", "c2ln"]
        ),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                [
                    "role",
                    "content",
                    "parts",
                    "tool_calls",
                    "type",
                    "id",
                    "call_id",
                    "tool_use_id",
                    "functionCall",
                    "functionResponse",
                    "name",
                    "thoughtSignature",
                    "function",
                    "args",
                ]
            ),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=20,
)


@given(st.lists(JUNK, max_size=6))
def test_malformed_bodies_never_crash(history: list[Any]) -> None:
    """Request bodies of any shape give problems or none, never an exception."""
    for _, _, check in APIS:
        problems = check(history)
        assert all(isinstance(p.index, int) and p.message for p in problems)
    signatures = {"x:{}": b"sig", "y:{}": "not base64!"}
    gemini_history_problems(history, signatures=signatures)
