"""Every call of a response gets exactly one answer from `run_pending` (issue 24 items 4
and 22): two entries answering one call id, or a list that leaves calls out, are
refused before any handler runs; `dump_pending` will not store a call that already ran;
a stored dump that lists a call twice is refused. Dumps as dicts and their format
version (issue 27 item 4), and why a call needs approval, as data (issue 27 item 3)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from inline_snapshot import snapshot

from tests.pending_tools import RAN, answers, pay, use
from toolwire import __version__, aio
from toolwire.core import (
    ApprovalRequired,
    BaseFunctionToolModel,
    PendingCall,
    StandardToolCall,
    ToolGroup,
)
from toolwire.exceptions import PendingCallError


class send(aio.BaseFunctionToolModel[None, None]):
    """Send money."""

    to: str

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"send {self.to}")
        return f"Sent to {self.to}.", None


GROUP = ToolGroup.from_list([pay])
AIO_GROUP = aio.ToolGroup.from_list([send])


@pytest.fixture(autouse=True)
def clear_log() -> None:
    RAN.clear()


RESPONSE = [use("c1", "pay", invoice="A"), use("c2", "pay", invoice="B")]


# --- item 4: one call id answered twice -------------------------------------------------


def test_a_refusal_and_the_same_call_prepared_again_are_refused_before_anything_runs() -> None:
    first = GROUP.prepare_tool_calls(RESPONSE)
    again = GROUP.prepare_tool_calls(RESPONSE)
    with pytest.raises(PendingCallError) as error:
        GROUP.run_pending([first[0].refuse("no"), again[0], first[1]], None)
    assert str(error.value) == snapshot(
        "Two entries of this run_pending answer the call id 'c1' (to 'pay', 'pay'): one would run or be answered twice, and the API rejects a second answer. Give each call of a response exactly one entry: its PendingCall to run it, or one failure in its place (e.g. `pending.refuse(reason)`); do not mix calls prepared twice from the same response."
    )
    assert [call.id for call in error.value.calls] == ["c1", "c1"]
    assert RAN == []
    # Nothing was used up: the right list still runs.
    assert answers(GROUP.run_pending([first[0].refuse("no"), first[1]], None)) == [
        ("c1", "refused", "no"),
        ("c2", None, "Paid B."),
    ]


def test_two_preparations_of_one_response_cannot_both_run() -> None:
    first = GROUP.prepare_tool_calls(RESPONSE)
    again = GROUP.prepare_tool_calls(RESPONSE)
    with pytest.raises(PendingCallError, match="answer the call id 'c2'"):
        GROUP.run_pending([first[0], first[1], again[1]], None)
    assert RAN == []


def test_a_hand_made_failure_for_an_id_that_also_runs_is_refused() -> None:
    from toolwire.core import ToolCallFailure

    pending = GROUP.prepare_tool_calls(RESPONSE)
    other = ToolCallFailure.for_call(pending[0].call, "no", fail_reason="refused")
    with pytest.raises(PendingCallError, match="answer the call id 'c1'"):
        GROUP.run_pending([*pending, other], None)
    assert RAN == []


def test_calls_the_model_sent_with_one_id_are_still_answered_each() -> None:
    """The model's own repeated id: two calls, each answered once (as `run_tool_calls`)."""
    twins = GROUP.prepare_tool_calls([use("c1", "pay", invoice="A"), use("c1", "pay", invoice="B")])
    assert answers(GROUP.run_pending(twins, None)) == [
        ("c1", None, "Paid A."),
        ("c1", None, "Paid B."),
    ]


def test_dump_pending_refuses_calls_that_already_ran() -> None:
    pending = GROUP.prepare_tool_calls(RESPONSE)
    GROUP.run_pending(pending, None)
    with pytest.raises(PendingCallError) as error:
        GROUP.dump_pending(pending)
    assert str(error.value) == snapshot(
        "The pending call 'c1' to 'pay' was already given to run_pending, which answered it: storing it would let a later load run it again. Dump only the calls still waiting for a decision."
    )
    assert RAN == ["pay A", "pay B"]


def test_dump_pending_refuses_two_calls_with_one_id() -> None:
    mixed = [GROUP.prepare_tool_calls(RESPONSE)[0], GROUP.prepare_tool_calls(RESPONSE)[0]]
    with pytest.raises(PendingCallError, match="Two of the pending calls to dump have the id 'c1'"):
        GROUP.dump_pending(mixed)


def test_dump_pending_says_when_the_model_itself_gave_two_calls_one_id() -> None:
    """Not "prepare the response once": it was; the dump, keyed by id, cannot keep both.
    run_pending answers each of them, as run_tool_calls would."""
    response = [use("c1", "pay", invoice="A"), use("c1", "pay", invoice="B")]
    pending = GROUP.prepare_tool_calls(response)
    with pytest.raises(PendingCallError) as error:
        GROUP.dump_pending(pending)
    assert [call.input for call in error.value.calls] == [{"invoice": "A"}, {"invoice": "B"}]
    assert str(error.value) == snapshot(
        "The model gave two calls of this response the id 'c1': a dump keeps calls by id, so once loaded it could not tell them apart. Decide these calls now with run_pending (which answers each of them), or refuse them."
    )
    assert answers(GROUP.run_pending(pending, None)) == [
        ("c1", None, "Paid A."),
        ("c1", None, "Paid B."),
    ]


def test_a_stored_dump_that_lists_a_call_twice_is_refused() -> None:
    stored = GROUP.dump_pending(GROUP.prepare_tool_calls(RESPONSE), as_dict=True)
    stored["calls"].append(stored["calls"][0])
    with pytest.raises(PendingCallError) as error:
        GROUP.load_pending(stored)
    assert str(error.value) == snapshot(
        "This dump lists the call id 'c1' twice: loaded, both entries would answer it (a handler could run twice), and the API rejects a second answer. dump_pending never writes that; keep one entry per call."
    )
    assert error.value.calls == (
        StandardToolCall("function", "c1", "pay", {"invoice": "A"}),
        StandardToolCall("function", "c1", "pay", {"invoice": "A"}),
    )


# --- item 22: a list that leaves calls unanswered ---------------------------------------


def test_a_declined_call_left_out_instead_of_refused_is_refused_before_anything_runs() -> None:
    pending = GROUP.prepare_tool_calls(RESPONSE)
    with pytest.raises(PendingCallError) as error:
        GROUP.run_pending([pending[1]], None)
    assert str(error.value) == snapshot(
        'This run_pending leaves 1 of the response\'s calls unanswered ("c1"): the API rejects the next request when a call has no result, and only after these handlers ran. Answer each declined call in its place with `pending.refuse(reason)` rather than leaving it out; if you answer the others in another run_pending (e.g. after a later approval) and send all results together, pass `partial=True`.'
    )
    assert RAN == []
    # Nothing was used up: refused in its place, the batch runs.
    assert answers(GROUP.run_pending([pending[0].refuse("no"), pending[1]], None)) == [
        ("c1", "refused", "no"),
        ("c2", None, "Paid B."),
    ]


def test_partial_answers_the_rest_in_another_run_pending() -> None:
    pending = GROUP.prepare_tool_calls(RESPONSE)
    now = GROUP.run_pending([pending[1]], None, partial=True)
    later = GROUP.run_pending([pending[0]], None, partial=True)
    assert answers(later + now) == [("c1", None, "Paid A."), ("c2", None, "Paid B.")]


def test_a_loaded_dump_is_one_response() -> None:
    """The calls stored together must be answered together, as the response's."""
    loaded = GROUP.load_pending(GROUP.dump_pending(GROUP.prepare_tool_calls(RESPONSE)))
    with pytest.raises(PendingCallError, match=r'unanswered \("c2"\)'):
        GROUP.run_pending([loaded[0]], None)
    assert answers(GROUP.run_pending([loaded[0], loaded[1].refuse("no")], None)) == [
        ("c1", None, "Paid A."),
        ("c2", "refused", "no"),
    ]


def test_aio_run_pending_refuses_the_same_lists() -> None:
    response = [use("c1", "send", to="Ann"), use("c2", "send", to="Bo")]

    async def scenario() -> list[Any]:
        pending = AIO_GROUP.prepare_tool_calls(response)
        with pytest.raises(PendingCallError, match="unanswered"):
            await AIO_GROUP.run_pending([pending[0]], None)
        again = AIO_GROUP.prepare_tool_calls(response)
        with pytest.raises(PendingCallError, match="answer the call id 'c1'"):
            await AIO_GROUP.run_pending([*pending, again[0]], None)
        return await AIO_GROUP.run_pending(pending, None)

    assert answers(asyncio.run(scenario())) == [
        ("c1", None, "Sent to Ann."),
        ("c2", None, "Sent to Bo."),
    ]
    assert RAN == ["send Ann", "send Bo"]


# --- dumps as dicts, versioned ------------------------------------------------------------


def test_a_dump_as_a_dict_is_the_text_parsed_and_loads_like_it() -> None:
    pending = GROUP.prepare_tool_calls(RESPONSE)
    as_dict = GROUP.dump_pending(pending, as_dict=True)
    assert json.loads(GROUP.dump_pending(pending)) == as_dict
    assert as_dict["format"] == "toolwire.pending/2"
    assert as_dict["toolwire"] == __version__
    state = json.loads(json.dumps({"conversation": [], "pending": as_dict}))
    loaded = GROUP.load_pending(state["pending"])
    state["pending"]["calls"][0]["input"]["invoice"] = "changed later"  # shares nothing
    assert [p.call for p in loaded] == [p.call for p in pending]
    assert answers(GROUP.run_pending(loaded, None)) == [
        ("c1", None, "Paid A."),
        ("c2", None, "Paid B."),
    ]


def test_a_dump_without_the_version_field_loads() -> None:
    """Dumps written before the `toolwire` field existed load as they did."""
    as_dict = GROUP.dump_pending(GROUP.prepare_tool_calls(RESPONSE), as_dict=True)
    del as_dict["toolwire"]
    assert [p.call.id for p in GROUP.load_pending(json.dumps(as_dict))] == ["c1", "c2"]


def test_a_dump_of_a_newer_format_says_to_upgrade_once() -> None:
    """One message, not wrapped in the "not toolwire pending-call JSON" one: the dump is
    fine, this toolwire is too old for it (with or without the version that wrote it)."""
    as_dict = GROUP.dump_pending(GROUP.prepare_tool_calls(RESPONSE), as_dict=True)
    as_dict.update(format="toolwire.pending/99", toolwire="9.0.0")
    messages: list[str] = []
    for dump in (as_dict, json.dumps(as_dict), {**as_dict, "toolwire": None}):
        with pytest.raises(PendingCallError) as error:
            GROUP.load_pending(dump)
        messages.append(str(error.value))
    assert messages == snapshot(
        [
            "This pending-call dump has format 'toolwire.pending/99', written by toolwire 9.0.0; this toolwire (0.1.0) reads formats up to 'toolwire.pending/2'. Upgrade toolwire to 9.0.0 or later (`pip install -U toolwire`) to load it.",
            "This pending-call dump has format 'toolwire.pending/99', written by toolwire 9.0.0; this toolwire (0.1.0) reads formats up to 'toolwire.pending/2'. Upgrade toolwire to 9.0.0 or later (`pip install -U toolwire`) to load it.",
            "This pending-call dump has format 'toolwire.pending/99', written by a newer toolwire; this toolwire (0.1.0) reads formats up to 'toolwire.pending/2'. Upgrade toolwire (`pip install -U toolwire`) to load it.",
        ]
    )


def test_a_dict_that_is_not_json_data_is_refused() -> None:
    as_dict = GROUP.dump_pending(GROUP.prepare_tool_calls(RESPONSE), as_dict=True)
    as_dict["calls"][0]["input"] = {"invoice": b"A"}
    with pytest.raises(PendingCallError, match="This is not toolwire pending-call JSON"):
        GROUP.load_pending(as_dict)


# --- why approval is needed, as data (issue 27 item 3) ------------------------------------


class delete_files(BaseFunctionToolModel[None, None]):
    """Delete files matching a pattern."""

    pattern: str

    def model_tool_needs_approval(self) -> bool | ApprovalRequired:
        if self.pattern.startswith("/tmp/"):
            return False
        if self.pattern == "*":
            return True
        return ApprovalRequired(
            f"Deletes everything matching {self.pattern}", metadata={"risk": "high", "n": 40}
        )

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"delete {self.pattern}")
        return "Deleted.", None


class odd_rule(BaseFunctionToolModel[None, None]):
    """A rule that returns the wrong thing."""

    def model_tool_needs_approval(self) -> bool | ApprovalRequired:
        return "yes"  # pyright: ignore[reportReturnType]

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "Done.", None


class binary_metadata(BaseFunctionToolModel[None, None]):
    """Metadata JSON cannot keep."""

    def model_tool_needs_approval(self) -> ApprovalRequired:
        return ApprovalRequired("Look", metadata={"preview": b"\x89PNG"})

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "Done.", None


DELETING = ToolGroup.from_list([delete_files, odd_rule, binary_metadata])


def test_the_approval_rule_says_why_and_the_dump_keeps_it() -> None:
    pending = DELETING.prepare_tool_calls(
        [
            use("c1", "delete_files", pattern="/tmp/x"),
            use("c2", "delete_files", pattern="*"),
            use("c3", "delete_files", pattern="/data/*"),
        ]
    )
    assert [(p.needs_approval, p.approval) for p in pending] == [
        (False, None),
        (True, ApprovalRequired()),
        (True, ApprovalRequired("Deletes everything matching /data/*", {"risk": "high", "n": 40})),
    ]
    stored = DELETING.dump_pending(pending, as_dict=True)
    assert [entry["approval"] for entry in stored["calls"]] == [
        None,
        {"hint": None, "metadata": {}},
        {"hint": "Deletes everything matching /data/*", "metadata": {"risk": "high", "n": 40}},
    ]
    loaded = DELETING.load_pending(json.dumps(stored))
    assert [p.approval for p in loaded] == [p.approval for p in pending]
    # `run_with_approval` asks only where needed, and the hint is there to show.
    shown: list[str | None] = []

    def approve(p: PendingCall[Any]) -> bool:
        assert p.approval is not None
        shown.append(p.approval.hint)
        return p.approval.hint is None

    calls = [use("c4", "delete_files", pattern="*"), use("c5", "delete_files", pattern="/x")]
    results = DELETING.run_with_approval(calls, None, approve)
    assert [r.fail_reason for r in results] == [None, "refused"]
    assert shown == [None, "Deletes everything matching /x"]


def test_an_approval_rule_returning_something_else_says_what_to_return() -> None:
    [pending] = DELETING.prepare_tool_calls([use("c1", "odd_rule")])
    with pytest.raises(TypeError) as error:
        _ = pending.needs_approval
    assert str(error.value) == snapshot(
        "odd_rule.model_tool_needs_approval returned 'yes'; return False (runs without asking), True (asks), or ApprovalRequired(hint, metadata=...) (asks, saying why)."
    )


def test_metadata_json_cannot_keep_is_refused() -> None:
    with pytest.raises(TypeError, match="takes a dict with text keys"):
        ApprovalRequired("x", metadata={1: "a"})  # pyright: ignore[reportArgumentType]
    pending = DELETING.prepare_tool_calls([use("c1", "binary_metadata")])
    with pytest.raises(PendingCallError) as error:
        DELETING.dump_pending(pending)
    assert str(error.value) == snapshot(
        "The pending call 'c1' to 'binary_metadata' cannot be stored: the metadata of its ApprovalRequired hold a bytes value, which JSON cannot keep as they are. Give ApprovalRequired JSON data (dicts, lists, text, numbers, booleans, None)."
    )
