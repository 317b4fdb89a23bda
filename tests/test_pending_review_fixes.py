"""Pending calls after review: a stale stored call can be answered, a pending call runs at
most once and only with the tool it was validated with, and damaged stored JSON is a
`PendingCallError`."""

from __future__ import annotations

import asyncio
import pickle
import threading
from typing import Any

import pytest
from inline_snapshot import snapshot

from tests.pending_tools import RAN, answers, pay, use
from toolwire import aio
from toolwire.core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    PendingCall,
    StandardToolCall,
    ToolBatchError,
    ToolCallFailure,
    ToolGroup,
)
from toolwire.exceptions import PendingCallError


class lookup(BaseFunctionToolModel[None, None]):
    """Look up an invoice."""

    invoice: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"lookup {self.invoice}")
        return f"{self.invoice} is open.", None


class pay_v2(BaseFunctionToolModel[None, None]):
    """Pay an invoice (now with an amount)."""

    model_tool_custom_name = "pay"
    model_tool_requires_approval = True
    invoice: str
    amount: int = 0

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"pay_v2 {self.invoice}")
        return "Paid.", None


class pay_same_schema(BaseFunctionToolModel[None, None]):
    """Pay an invoice."""

    model_tool_custom_name = "pay"
    model_tool_requires_approval = True
    invoice: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"pay_same_schema {self.invoice}")
        return "Paid.", None


GROUP = ToolGroup.from_list([pay, lookup])


@pytest.fixture(autouse=True)
def clear_log() -> None:
    RAN.clear()


# 1. A stored call whose tool changed can be answered, and the rest of its batch restored.

STORED = GROUP.dump_pending(
    GROUP.prepare_tool_calls(
        [
            use("c1", "lookup", invoice="INV-1"),
            use("c2", "pay", invoice="INV-2"),
            use("c3", "pay", invoice="INV-3"),
        ]
    )
)
CHANGED = ToolGroup.from_list([pay_v2, lookup])


def test_the_error_holds_every_stale_call_and_says_how_to_restore_the_batch() -> None:
    with pytest.raises(PendingCallError) as caught:
        CHANGED.load_pending(STORED)
    error = caught.value
    assert error.calls == (
        StandardToolCall("function", "c2", "pay", {"invoice": "INV-2"}),
        StandardToolCall("function", "c3", "pay", {"invoice": "INV-3"}),
    )
    assert str(error) == snapshot(
        "2 pending calls were validated against tools that changed since: 'c2' to 'pay' (its tool changed its arguments); 'c3' to 'pay' (its tool changed its arguments). Their decisions were made for what they were then: answer each with a failure (e.g. `ToolCallFailure.for_call(call, ...)`) and let the model call the current tools again. The calls are on this error's `.calls`. To restore the rest of the batch too, load it with `load_pending(..., changed=\"refuse\")`: each such call then comes back in its place answered with a \"refused\" failure, ready for `run_pending`."
    )
    # The advice can be followed: each call of `.calls` answers with `for_call`.
    failures = [ToolCallFailure.for_call(call, "Changed.", fail_reason="refused") for call in error.calls]  # fmt: skip
    assert answers(failures) == [("c2", "refused", "Changed."), ("c3", "refused", "Changed.")]
    assert RAN == []


def test_changed_refuse_restores_the_batch_with_a_refusal_in_place_of_each_stale_call() -> None:
    restored = CHANGED.load_pending(STORED, changed="refuse")
    assert [(p.call.id, p.tool, p.needs_approval, p.failure is not None) for p in restored] == [
        ("c1", lookup(invoice="INV-1"), False, False),
        ("c2", None, False, True),
        ("c3", None, False, True),
    ]
    assert answers(CHANGED.run_pending(restored, None)) == snapshot(
        [
            ("c1", None, "INV-1 is open."),
            (
                "c2",
                "refused",
                "This call was not run: the tool 'pay' changed while the call waited for a decision. Call it again if it is still needed.",
            ),
            (
                "c3",
                "refused",
                "This call was not run: the tool 'pay' changed while the call waited for a decision. Call it again if it is still needed.",
            ),
        ]
    )
    assert RAN == ["lookup INV-1"]


def test_a_tool_that_left_the_group_is_refused_with_its_own_text() -> None:
    only_lookup = ToolGroup.from_list([lookup])
    with pytest.raises(PendingCallError) as caught:
        only_lookup.load_pending(STORED)
    assert [call.id for call in caught.value.calls] == ["c2", "c3"]
    restored = only_lookup.load_pending(STORED, changed="refuse")
    assert answers(only_lookup.run_pending(restored, None))[1] == (
        "c2",
        "refused",
        "This call was not run: the tool 'pay' is no longer available. Do not call it again; tell the user if it mattered.",
    )


def test_a_refused_stale_call_stays_stale_when_stored_again() -> None:
    again = CHANGED.dump_pending(CHANGED.load_pending(STORED, changed="refuse"))
    with pytest.raises(PendingCallError) as caught:
        CHANGED.load_pending(again)
    assert [call.id for call in caught.value.calls] == ["c2", "c3"]
    # ...and the original group, whose tool it was validated with, still takes it.
    assert [p.needs_approval for p in GROUP.load_pending(again)] == [False, True, True]


def test_changed_takes_raise_or_refuse() -> None:
    with pytest.raises(ValueError) as caught:
        CHANGED.load_pending(STORED, changed="fail")  # pyright: ignore[reportArgumentType]
    assert str(caught.value) == snapshot(
        'load_pending(changed=\'fail\'): pass "raise" (a changed tool raises PendingCallError) or "refuse" (its calls come back answered with a refusal).'
    )


def test_pending_call_error_pickles_with_its_calls() -> None:
    with pytest.raises(PendingCallError) as caught:
        CHANGED.load_pending(STORED)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (type(copy), str(copy), copy.calls) == (
        PendingCallError,
        str(caught.value),
        caught.value.calls,
    )


# 2. A pending call runs at most once, and only with the tool it was validated with.


def test_a_pending_call_runs_at_most_once() -> None:
    [pending] = GROUP.prepare_tool_calls([use("c1", "pay", invoice="INV-1")])
    assert answers(GROUP.run_pending([pending], None)) == [("c1", None, "Paid INV-1.")]
    with pytest.raises(PendingCallError) as caught:
        GROUP.run_pending([pending], None)
    assert str(caught.value) == snapshot(
        "The pending call 'c1' to 'pay' was already given to run_pending, which answered it (with its result, or in the ToolBatchError it raised: see `answer_all()`). A pending call runs at most once: use that answer, and if the tool should run again, let the model call it again. If that run raised anything else (a hook's error, a cancellation), the call may have no answer: give it `pending.refuse(reason)` in the next turn."
    )
    assert caught.value.calls == (pending.call,)
    assert RAN == ["pay INV-1"]


def test_a_pending_call_listed_twice_raises_before_any_handler_runs() -> None:
    first, second = GROUP.prepare_tool_calls(
        [use("c1", "lookup", invoice="INV-1"), use("c2", "pay", invoice="INV-2")]
    )
    with pytest.raises(PendingCallError) as caught:
        GROUP.run_pending([first, second, second], None)
    assert str(caught.value) == snapshot(
        "The pending call 'c2' to 'pay' is listed twice in this run_pending, which would answer its id twice (the API rejects that). List each PendingCall once: the call itself to run it, or one answer in its place (e.g. `pending.refuse(reason)`)."
    )
    assert RAN == []
    # Nothing was used up: the corrected list runs.
    assert answers(GROUP.run_pending([first, second], None)) == [
        ("c1", None, "INV-1 is open."),
        ("c2", None, "Paid INV-2."),
    ]


def test_a_batch_that_raised_used_up_its_pending_calls() -> None:
    pending = GROUP.prepare_tool_calls(
        [use("c1", "pay", invoice="BOOM"), use("c2", "lookup", invoice="INV-2")]
    )
    with pytest.raises(ToolBatchError) as caught:
        GROUP.run_pending(pending, None)
    assert [r.fail_reason for r in caught.value.answer_all()] == ["unexpected_error", "not_run"]
    with pytest.raises(PendingCallError, match="'c2' to 'lookup' was already given"):
        GROUP.run_pending([pending[1]], None)
    assert RAN == ["pay BOOM"]


def test_only_one_thread_runs_a_pending_call() -> None:
    [pending] = GROUP.prepare_tool_calls([use("c1", "pay", invoice="INV-1")])
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def attempt() -> None:
        start.wait()
        try:
            GROUP.run_pending([pending], None)
        except PendingCallError:
            outcomes.append("refused")
        else:
            outcomes.append("ran")

    threads = [threading.Thread(target=attempt) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ran"] + ["refused"] * 7
    assert RAN == ["pay INV-1"]


def test_a_call_whose_tool_left_the_group_gets_what_run_tool_calls_gives() -> None:
    raw = use("c1", "pay", invoice="INV-1")
    [pending] = GROUP.prepare_tool_calls([raw])
    only_lookup = ToolGroup.from_list([lookup])
    assert [r.tool_result_block for r in only_lookup.run_pending([pending], None)] == [
        r.tool_result_block for r in only_lookup.run_tool_calls([raw], None)
    ]
    assert answers(only_lookup.run_pending(GROUP.prepare_tool_calls([raw]), None)) == [
        (
            "c1",
            "invalid_name",
            "Unknown tool 'pay'. Available tools: lookup. Call one of them by its exact name.",
        ),  # fmt: skip
    ]
    # The same group, after the tool was taken out of it.
    group = ToolGroup.from_list([pay, lookup])
    [pending] = group.prepare_tool_calls([raw])
    del group["pay"]
    assert [r.fail_reason for r in group.run_pending([pending], None)] == ["invalid_name"]
    assert RAN == []


def test_a_call_whose_name_now_belongs_to_another_tool_class_raises() -> None:
    [pending] = GROUP.prepare_tool_calls([use("c1", "pay", invoice="INV-1")])
    for other in (pay_v2, pay_same_schema):
        with pytest.raises(PendingCallError) as caught:
            ToolGroup.from_list([other, lookup]).run_pending([pending], None)
        assert caught.value.calls == (pending.call,)
    assert str(caught.value) == snapshot(
        "The pending call 'c1' to 'pay' was validated with tests.pending_tools.pay, but this group's tool of that name is tests.test_pending_review_fixes.pay_same_schema: what was validated (and approved) is not what would run. Run pending calls with the group that prepared them, or answer this one with a failure (e.g. `pending.refuse(reason)`) and let the model call the current tool again."
    )
    assert RAN == []
    # It was not used up: refused, it is answered; or run by its own group.
    assert answers(GROUP.run_pending([pending], None)) == [("c1", None, "Paid INV-1.")]


def test_run_with_approval_runs_each_call_once() -> None:
    asked: list[PendingCall[Any]] = []

    def approve(pending: PendingCall[Any]) -> bool:
        asked.append(pending)
        return True

    calls = [use("c1", "pay", invoice="INV-1"), use("c2", "lookup", invoice="INV-2")]
    assert [r.fail_reason for r in GROUP.run_with_approval(calls, None, approve)] == [None, None]
    assert [r.fail_reason for r in GROUP.run_with_approval(calls, None, approve)] == [None, None]
    assert RAN == ["pay INV-1", "lookup INV-2"] * 2
    with pytest.raises(PendingCallError, match="already given to run_pending"):
        GROUP.run_pending([asked[0]], None)


class send(aio.BaseFunctionToolModel[None, None]):
    """Send money."""

    model_tool_requires_approval = True
    to: str

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"send {self.to}")
        return f"Sent to {self.to}.", None


AIO_GROUP = aio.ToolGroup.from_list([send])


def test_aio_a_pending_call_runs_at_most_once() -> None:
    [pending] = AIO_GROUP.prepare_tool_calls([use("c1", "send", to="Ann")])

    async def twice() -> list[Any]:
        results = await AIO_GROUP.run_pending([pending], None)
        with pytest.raises(PendingCallError, match="'c1' to 'send' was already given"):
            await AIO_GROUP.run_pending([pending], None)
        with pytest.raises(PendingCallError, match="listed twice"):
            await AIO_GROUP.run_pending(AIO_GROUP.prepare_tool_calls([use("c2", "send", to="Bob")]) * 2, None)  # fmt: skip
        return results

    assert answers(asyncio.run(twice())) == [("c1", None, "Sent to Ann.")]
    assert RAN == ["send Ann"]


def test_aio_a_call_whose_tool_left_the_group_gets_invalid_name() -> None:
    [pending] = AIO_GROUP.prepare_tool_calls([use("c1", "send", to="Ann")])
    empty = aio.ToolGroup[None, None]()
    results = asyncio.run(empty.run_pending([pending], None))
    assert [r.fail_reason for r in results] == ["invalid_name"]
    assert RAN == []


# 3. Damaged stored JSON, and a call stored as an unknown tool.


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("not json", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"),
        ("[]", "TypeError: the JSON is a list, not an object"),
        ('{"calls": []}', "ValueError: format is None, not 'toolwire.pending/2'"),
        (
            '{"format": "toolwire.pending/1", "calls": "x"}',
            'TypeError: "calls" is a str, not a list',
        ),  # fmt: skip
        (
            '{"format": "toolwire.pending/1", "calls": ["x"]}',
            "TypeError: calls[0] is a str, not an object",
        ),  # fmt: skip
        (
            '{"format": "toolwire.pending/1", "calls": [{"id": "x"}]}',
            "ValueError: calls[0] has no 'type'",
        ),  # fmt: skip
        (
            '{"format": "toolwire.pending/1", "calls": [{"type": "function", "id": 7, "name": "pay", "input": null, "synthesized_id": false, "truncated": false, "schema": null}]}',
            "TypeError: calls[0]['id'] is a int",
        ),
        (
            '{"format": "toolwire.pending/1", "calls": [{"type": "mcp", "id": "x", "name": "pay", "input": null, "synthesized_id": false, "truncated": false, "schema": null}]}',
            "ValueError: calls[0]['type'] is 'mcp'",
        ),
    ],
)
def test_damaged_stored_json_is_a_pending_call_error(text: str, problem: str) -> None:
    with pytest.raises(PendingCallError) as caught:
        GROUP.load_pending(text)
    assert str(caught.value) == (
        f"This is not toolwire pending-call JSON (made by dump_pending): {problem}. "
        "Pass load_pending the text or dict dump_pending returned, unchanged."
    )
    assert caught.value.calls == ()


class note(BaseCustomToolModel[None, None]):
    """Write a note."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"note {self.input}")
        return "Noted.", None


def test_a_stored_call_of_the_wrong_kind_for_its_tool_is_a_pending_call_error() -> None:
    """dump_pending never writes one; only a damaged dump holds it."""
    group = ToolGroup.from_list([pay, note])
    [paying] = group.prepare_tool_calls([use("c1", "pay", invoice="A")])
    [noting] = group.prepare_tool_calls(
        [{"type": "custom_tool_call", "call_id": "c2", "name": "note", "input": "hi"}]
    )
    custom_call = group.dump_pending([paying], as_dict=True)
    custom_call["calls"][0]["type"] = "custom"
    dict_edit = group.dump_pending([noting.edit("bye")], as_dict=True)
    dict_edit["calls"][0]["edit"]["arguments"] = {"input": "bye"}
    problems: list[str] = []
    for damaged in (custom_call, dict_edit):
        with pytest.raises(PendingCallError) as caught:
            group.load_pending(damaged)
        problems.append(str(caught.value))
    assert (problems, RAN) == snapshot(
        (
            [
                "This is not toolwire pending-call JSON (made by dump_pending): CallKindMismatchError: The model sent a custom call to 'pay', but pay is a function tool. Offer each tool in the kind it is defined as: use BaseCustomToolModel for custom (free-text) tools and BaseFunctionToolModel for function tools. Pass load_pending the text or dict dump_pending returned, unchanged.",
                "This is not toolwire pending-call JSON (made by dump_pending): TypeError: calls[0]['edit'] is not a custom tool's edit. Pass load_pending the text or dict dump_pending returned, unchanged.",
            ],
            [],
        )
    )


def test_a_call_stored_as_an_unknown_tool_is_stale_once_a_tool_of_its_name_exists() -> None:
    only_lookup = ToolGroup.from_list([lookup])
    [unknown] = only_lookup.prepare_tool_calls([use("c5", "pay", invoice="INV-5")])
    assert unknown.failure is not None and unknown.failure.fail_reason == "invalid_name"
    stored = only_lookup.dump_pending([unknown])
    with pytest.raises(PendingCallError) as caught:
        GROUP.load_pending(stored)
    assert str(caught.value) == snapshot(
        "The pending call 'c5' to 'pay' was validated when the group had no tool of that name (so it was to be answered as an unknown tool); one was added since. Its decision was made for what it was then: answer it with a failure (e.g. `ToolCallFailure.for_call(call, ...)`) and let the model call the current tool again. The call is on this error's `.calls`. To restore the rest of the batch too, load it with `load_pending(..., changed=\"refuse\")`: each such call then comes back in its place answered with a \"refused\" failure, ready for `run_pending`."
    )
    # Dumped by the group that has the tool now, it is still tied to what validated it.
    with pytest.raises(PendingCallError, match="had no tool of that name"):
        GROUP.load_pending(GROUP.dump_pending([unknown]))
    assert answers(GROUP.run_pending(GROUP.load_pending(stored, changed="refuse"), None)) == [
        (
            "c5",
            "refused",
            "This call was not run: there was no tool 'pay' when you called it. Call it again if it is still needed.",
        ),  # fmt: skip
    ]
    # Where the tool still does not exist, it stays the unknown-tool failure it was.
    assert answers(only_lookup.run_pending(only_lookup.load_pending(stored), None)) == [
        (
            "c5",
            "invalid_name",
            "Unknown tool 'pay'. Available tools: lookup. Call one of them by its exact name.",
        ),  # fmt: skip
    ]
    assert RAN == []


def test_aio_changed_refuse_restores_the_batch() -> None:
    stored = AIO_GROUP.dump_pending(AIO_GROUP.prepare_tool_calls([use("c1", "send", to="Ann")]))
    empty = aio.ToolGroup[None, None]()
    restored: list[PendingCall[Any]] = empty.load_pending(stored, changed="refuse")
    assert answers(asyncio.run(AIO_GROUP.run_pending(restored, None))) == [
        (
            "c1",
            "refused",
            "This call was not run: the tool 'send' is no longer available. Do not call it again; tell the user if it mattered.",
        ),
    ]


def test_a_call_listed_with_its_own_refusal_raises_before_anything_runs() -> None:
    [pending] = GROUP.prepare_tool_calls([use("c1", "pay", invoice="A")])
    with pytest.raises(PendingCallError, match="listed with its own refusal") as error:
        GROUP.run_pending([pending, pending.refuse("no")], None)
    assert (RAN, [call.id for call in error.value.calls]) == ([], ["c1"])
    # Two calls the model sent with one id are two calls: one refused, one run.
    twins = GROUP.prepare_tool_calls([use("c1", "pay", invoice="A"), use("c1", "pay", invoice="B")])
    results = GROUP.run_pending([twins[0].refuse("no"), twins[1]], None)
    assert answers(results) == [("c1", "refused", "no"), ("c1", None, "Paid B.")]


def test_a_refusal_sent_uses_up_the_call_it_refuses() -> None:
    [pending] = GROUP.prepare_tool_calls([use("c1", "pay", invoice="A")])
    edited = pending.edit({"invoice": "B"})
    assert answers(GROUP.run_pending([pending.refuse("no")], None)) == [("c1", "refused", "no")]
    outcomes: list[str] = []
    for attempt in (
        lambda: GROUP.run_pending([pending], None),
        lambda: GROUP.run_pending([edited], None),
        lambda: GROUP.dump_pending([pending]),
        lambda: pending.edit({"invoice": "C"}),
    ):
        with pytest.raises(PendingCallError) as caught:
            attempt()
        outcomes.append(str(caught.value).split(":")[0])
    assert (RAN, outcomes) == snapshot(
        (
            [],
            [
                "The pending call 'c1' to 'pay' was already given to run_pending, which answered it (with its result, or in the ToolBatchError it raised",
                "The pending call 'c1' to 'pay' was already given to run_pending, which answered it (with its result, or in the ToolBatchError it raised",
                "The pending call 'c1' to 'pay' was already given to run_pending, which answered it",
                "The pending call 'c1' to 'pay' was already given to run_pending, which answered it",
            ],
        )
    )
    # An edit's refusal uses up the call it was made from too.
    [pending] = GROUP.prepare_tool_calls([use("c2", "pay", invoice="A")])
    asyncio.run(
        aio.ToolGroup[None, None]().run_pending([pending.edit({"invoice": "B"}).refuse()], None)
    )
    with pytest.raises(PendingCallError, match="already given"):
        GROUP.run_pending([pending], None)
    assert RAN == []


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"invoice": b"A"}, "hold a bytes value"),
        ({"invoice": "A", 1: "x"}, "have a key that is not text"),
        ({"invoice": "A", "nested": {"1": "b", 1: "a"}}, "have a key that is not text"),
        ({"invoice": "A", "rows": ("a",)}, "hold a tuple value"),
    ],
)
def test_arguments_json_cannot_keep_as_they_are_are_not_stored(
    arguments: dict[Any, Any], problem: str
) -> None:
    """Stored and restored, they would come back different from what was approved."""
    call = StandardToolCall("function", "c1", "pay", arguments)
    pending = GROUP.prepare_tool_calls([call])
    with pytest.raises(PendingCallError) as error:
        GROUP.dump_pending(pending)
    assert str(error.value) == (
        f"The pending call 'c1' to 'pay' cannot be stored: its arguments {problem}, which "
        "JSON cannot keep as they are (what was approved must be exactly what runs). Decide "
        "it now with run_pending, or answer it with `pending.refuse(reason)`."
    )


def test_cyclic_and_shared_arguments() -> None:
    cyclic: dict[str, Any] = {"invoice": "A"}
    cyclic["self"] = cyclic
    with pytest.raises(PendingCallError, match="contain themselves"):
        GROUP.dump_pending(GROUP.prepare_tool_calls([StandardToolCall("function", "c1", "pay", cyclic)]))  # fmt: skip
    shared = ["x"]
    call = StandardToolCall("function", "c1", "pay", {"invoice": "A", "a": shared, "b": shared})
    restored = GROUP.load_pending(GROUP.dump_pending(GROUP.prepare_tool_calls([call])))
    assert restored[0].call.input == {"invoice": "A", "a": ["x"], "b": ["x"]}
