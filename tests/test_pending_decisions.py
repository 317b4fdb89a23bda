"""Decisions beyond run or refuse (issue 27 items 1 and 2): a call run with arguments a
person edited (validated again with the same tool class, recorded on the result, an
invalid edit refused and never run), a call answered with a result produced elsewhere,
and external tools, whose calls always wait for such an answer. Each keeps one answer
per call id and survives `dump_pending` / `load_pending`."""

from __future__ import annotations

import asyncio
import json
import warnings
from typing import Any

import pydantic
import pytest
from inline_snapshot import snapshot

from toolwire import aio
from toolwire.core import (
    ArgumentEdit,
    BaseCustomToolModel,
    BaseFunctionToolModel,
    FilePart,
    ImagePart,
    PendingCall,
    ToolGroup,
    ToolHooks,
    ToolReference,
)
from toolwire.exceptions import PendingCallError, ToolDefinitionError, UnhandledCallsError

RAN: list[str] = []


class send_email(BaseFunctionToolModel[None, str]):
    """Send an email."""

    model_tool_requires_approval = True
    to: str
    subject: str

    def model_tool_handler(self, context: None) -> tuple[str, str]:
        RAN.append(f"send_email {self.to} {self.subject}")
        return f"Sent to {self.to}.", self.to


class pick_color(BaseFunctionToolModel[None, str]):
    """Ask the user to pick a color in the app; the app answers."""

    model_tool_external = True
    prompt: str


class shell(BaseCustomToolModel[None, str]):
    """Run a shell command."""

    def model_tool_handler(self, context: None) -> tuple[str, str]:
        RAN.append(f"shell {self.input}")
        return f"ran {self.input}", ""


GROUP = ToolGroup.from_list([send_email, pick_color, shell])


def use(call_id: str, name: str, **arguments: object) -> dict[str, Any]:
    """An Anthropic `tool_use` block (dict form)."""
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


RESPONSE = [
    use("e1", "send_email", to="bob@example.com", subject="Hi"),
    use("e2", "send_email", to="eve@example.com", subject="Secrets"),
    use("c1", "pick_color", prompt="Which color?"),
    use("e3", "send_email", to="ann@example.com", subject="Lunch"),
]


def answers(results: list[Any]) -> list[tuple[str, str | None, str]]:
    return [(r.call_id, r.fail_reason, r.result_content) for r in results]


@pytest.fixture(autouse=True)
def clear_log() -> None:
    RAN.clear()


# --- item 1: approve with edited arguments ------------------------------------------------


def test_an_edited_call_runs_with_the_edit_next_to_refused_answered_and_approved_siblings() -> None:
    edited, refused, color, approved = GROUP.prepare_tool_calls(RESPONSE)
    decided = [
        edited.edit({"to": "alice@example.com", "subject": "Hi"}),
        refused.refuse("The user does not email Eve."),
        color.answer("teal"),
        approved,
    ]
    results = GROUP.run_pending(decided, None)
    assert RAN == ["send_email alice@example.com Hi", "send_email ann@example.com Lunch"]
    assert answers(results) == snapshot(
        [
            (
                "e1",
                None,
                """\
Before this call ran, the user edited its arguments to: {"to": "alice@example.com", "subject": "Hi"}
Sent to alice@example.com.\
""",
            ),
            ("e2", "refused", "The user does not email Eve."),
            ("c1", None, "teal"),
            ("e3", None, "Sent to ann@example.com."),
        ]
    )
    assert results[0].edit == ArgumentEdit(
        original={"to": "bob@example.com", "subject": "Hi"},
        arguments={"to": "alice@example.com", "subject": "Hi"},
        note='Before this call ran, the user edited its arguments to: {"to": "alice@example.com", "subject": "Hi"}',
    )
    assert results[0].context == "alice@example.com"
    assert [r.edit for r in results[1:]] == [None, None, None]


def test_the_note_can_be_yours_or_left_out_and_the_model_keeps_its_own_call() -> None:
    first, second, color, last = GROUP.prepare_tool_calls(RESPONSE)
    quiet = first.edit({"to": "a@example.com", "subject": "Hi"}, note=False)
    told = last.edit(send_email(to="b@example.com", subject="Lunch"), note="The user fixed it.")
    assert quiet.call is first.call
    assert quiet.call.input == {"to": "bob@example.com", "subject": "Hi"}
    assert isinstance(quiet.tool, send_email) and quiet.tool.to == "a@example.com"
    results = GROUP.run_pending([quiet, second.refuse(), color.answer("red"), told], None)
    assert answers(results)[0] == ("e1", None, "Sent to a@example.com.")
    assert answers(results)[3] == ("e3", None, "The user fixed it.\nSent to b@example.com.")
    assert results[0].edit is not None and results[0].edit.note is None


def test_an_edit_that_fails_validation_is_refused_with_the_reason_and_never_runs() -> None:
    first, *rest = GROUP.prepare_tool_calls(RESPONSE)
    edited = first.edit({"to": 7})
    assert edited.tool is None and edited.failure is not None
    assert edited.failure.fail_reason == "refused"
    assert isinstance(edited.failure.exception, pydantic.ValidationError)
    results = GROUP.run_pending([edited, rest[0].refuse(), rest[1].answer("red"), rest[2]], None)
    assert RAN == ["send_email ann@example.com Lunch"]
    assert answers(results)[0] == snapshot(
        (
            "e1",
            "refused",
            """\
The user edited the arguments of this call, but the edited arguments were not valid, so it was not run. Invalid arguments for 'send_email': 2 errors. Fix them and call the tool again.
- to: Input should be a valid string (got 7)
- subject: Field required\
""",
        )
    )
    assert results[0].edit is not None and results[0].edit.arguments == {"to": 7}


def test_an_edit_never_changes_the_tool() -> None:
    first = GROUP.prepare_tool_calls(RESPONSE)[0]
    with pytest.raises(PendingCallError) as error:
        first.edit(pick_color(prompt="x"))
    assert str(error.value) == snapshot(
        "The edit for call 'e1' is a pick_color, but the call is to send_email: an edit changes the arguments, never the tool. Pass a send_email (or its arguments as a dict), or refuse the call (`pending.refuse(reason)`) and let the model call the other tool."
    )
    unknown = GROUP.prepare_tool_calls([use("x1", "no_such_tool")])[0]
    with pytest.raises(PendingCallError) as error:
        unknown.edit({})
    assert str(error.value) == snapshot(
        "The pending call 'x1' to 'no_such_tool' cannot be edited: no tool of its name was in the group, so nothing would validate the new arguments. Refuse it (`pending.refuse(reason)`) and let the model call the current tool."
    )
    with pytest.raises(TypeError) as type_error:
        first.edit(["not", "arguments"])  # pyright: ignore[reportArgumentType]
    assert str(type_error.value) == snapshot(
        "pending.edit(...) for call 'e1' to send_email takes a dict of its arguments (or a send_email instance); got a list."
    )


def test_a_custom_tool_is_edited_with_its_text() -> None:
    call = {"type": "custom_tool_call", "call_id": "s1", "name": "shell", "input": "rm -rf /"}
    (pending,) = GROUP.prepare_tool_calls([call])
    (result,) = GROUP.run_pending([pending.edit("ls", note=False)], None)
    assert RAN == ["shell ls"]
    assert result.edit == ArgumentEdit(original="rm -rf /", arguments="ls", note=None)


def test_an_edit_uses_up_the_call_it_was_made_from_and_the_other_way_round() -> None:
    pending = GROUP.prepare_tool_calls(RESPONSE)
    edited = pending[0].edit({"to": "a@example.com", "subject": "Hi"})
    with pytest.raises(PendingCallError) as twice:  # both answer e1
        GROUP.run_pending([pending[0], edited], None, partial=True)
    assert "answer the call id 'e1'" in str(twice.value)
    GROUP.run_pending([edited], None, partial=True)
    for used in (pending[0], edited):
        with pytest.raises(PendingCallError, match="already given to run_pending"):
            GROUP.run_pending([used], None, partial=True)
    with pytest.raises(PendingCallError) as again:
        pending[0].edit({"to": "b@example.com", "subject": "Hi"})
    assert str(again.value) == snapshot(
        "The pending call 'e1' to 'send_email' was already given to run_pending, which answered it: it can no longer be edited. If the tool should run again, let the model call it again."
    )
    with pytest.raises(PendingCallError, match="already given to run_pending"):
        GROUP.dump_pending([edited])
    assert RAN == ["send_email a@example.com Hi"]


def test_run_with_approval_takes_an_edit_as_the_answer() -> None:
    def approve(pending: PendingCall[Any]) -> bool | str | PendingCall[Any]:
        tool = pending.tool
        assert isinstance(tool, send_email)
        if tool.to.startswith("eve"):
            return "Not Eve."
        return pending.edit({"to": tool.to.upper(), "subject": tool.subject}, note=False)

    results = GROUP.run_with_approval([RESPONSE[0], RESPONSE[1]], None, approve)
    assert answers(results) == [
        ("e1", None, "Sent to BOB@EXAMPLE.COM."),
        ("e2", "refused", "Not Eve."),
    ]


# --- item 2: answers produced elsewhere, external tools ----------------------------------


def test_an_answer_is_a_success_for_that_call_id_and_nothing_runs() -> None:
    *emails, color = GROUP.prepare_tool_calls(RESPONSE[:3])
    assert color.external and not emails[0].external
    image = ImagePart(data=b"\x89PNG\r\n\x1a\n", media_type="image/png")
    answered = color.answer(["The user picked teal.", image], context="teal")
    assert answered.answered is not None
    results = GROUP.run_pending([e.refuse() for e in emails] + [answered], None)
    assert RAN == []
    third = results[2]
    assert (third.call_id, third.fail_reason, third.result_content) == (
        "c1",
        None,
        "The user picked teal.",
    )
    assert third.result_parts == ("The user picked teal.", image)
    assert third.context == "teal"


def test_an_answer_of_something_else_says_what_it_takes() -> None:
    color = GROUP.prepare_tool_calls([RESPONSE[2]])[0]
    with pytest.raises(TypeError) as error:
        color.answer({"color": "teal"})  # pyright: ignore[reportArgumentType]
    assert str(error.value) == snapshot(
        "pending.answer(...) for call 'c1' takes the content the model reads: text, or a list of str, ImagePart, FilePart and ToolReference; got a dict."
    )


def test_an_external_tools_calls_never_run_through_run_tool_calls() -> None:
    with pytest.raises(UnhandledCallsError) as error:
        GROUP.run_tool_calls(RESPONSE, None)
    assert RAN == []  # raised before any handler ran
    assert str(error.value) == snapshot(
        "This response holds a call 'c1' to pick_color, an external tool (model_tool_external): its calls are answered elsewhere, never run here. Validate the response with group.prepare_tool_calls(...), answer that call with pending.answer(content) once its result comes, and give the batch to group.run_pending(...)."
    )
    with pytest.raises(PendingCallError) as listed:
        GROUP.run_pending(GROUP.prepare_tool_calls(RESPONSE), None)
    assert RAN == []
    assert str(listed.value) == snapshot(
        "The pending call 'c1' to 'pick_color' is a call of an external tool (model_tool_external), which never runs here: list `pending.answer(content)` in its place once its result comes (or `pending.refuse(reason)`). To run the other calls first, leave it out and pass `partial=True`."
    )


def test_an_external_tool_defines_no_handler_and_is_not_warned_about() -> None:
    with pytest.raises(ToolDefinitionError) as error:

        class confirm(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """Ask the user to confirm."""

            model_tool_external = True

            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "yes", None

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "defines no model_tool_handler" warning
        ToolGroup.from_list([pick_color])
    assert str(error.value) == snapshot(
        "confirm sets model_tool_external = True but defines model_tool_handler: an external tool's calls are answered elsewhere (`pending.answer(content)`), never by a handler. Remove the handler, or drop model_tool_external to run the calls here."
    )


def test_aio_runs_edits_and_answers_too() -> None:
    class book(aio.BaseFunctionToolModel[None, None]):
        """Book a table."""

        people: int

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return f"Booked for {self.people}.", None

    class ask(aio.BaseFunctionToolModel[None, None]):
        """Ask the user."""

        model_tool_external = True
        question: str

    group = aio.ToolGroup.from_list([book, ask])
    pending = group.prepare_tool_calls(
        [use("b1", "book", people=2), use("a1", "ask", question="When?")]
    )
    results = asyncio.run(
        group.run_pending(
            [pending[0].edit({"people": 4}, note=False), pending[1].answer("At 8.")], None
        )
    )
    assert answers(results) == [("b1", None, "Booked for 4."), ("a1", None, "At 8.")]
    assert results[0].edit is not None


# --- dumps --------------------------------------------------------------------------------


def test_edits_and_answers_survive_a_dump_and_a_load() -> None:
    first, second, color, last = GROUP.prepare_tool_calls(RESPONSE)
    data = b"%PDF-1.4 a tiny file"
    decided = [
        first.edit({"to": "alice@example.com", "subject": "Hi"}),
        second,
        color.answer(
            ["teal", FilePart(data=data, media_type="application/pdf")], context={"hex": "#008080"}
        ),
        last.edit({"to": 7}),
    ]
    dump = GROUP.dump_pending(decided, as_dict=True)
    assert dump["format"] == "toolwire.pending/2"
    assert [(c["edit"], c["answer"]) for c in dump["calls"]] == snapshot(
        [
            (
                {
                    "arguments": {"to": "alice@example.com", "subject": "Hi"},
                    "note": 'Before this call ran, the user edited its arguments to: {"to": "alice@example.com", "subject": "Hi"}',
                },
                None,
            ),
            (None, None),
            (
                None,
                {
                    "content": [
                        {"type": "text", "text": "teal"},
                        {
                            "type": "file",
                            "data": "JVBERi0xLjQgYSB0aW55IGZpbGU=",
                            "media_type": "application/pdf",
                        },
                    ],
                    "context": {"hex": "#008080"},
                },
            ),
            (
                {
                    "arguments": {"to": 7},
                    "note": 'Before this call ran, the user edited its arguments to: {"to": 7}',
                },
                None,
            ),
        ]
    )
    loaded = GROUP.load_pending(json.dumps(dump))
    assert [p.edited for p in loaded] == [p.edited for p in decided]
    assert loaded[2].answered is not None and loaded[2].answered.context == {"hex": "#008080"}
    results = GROUP.run_pending([loaded[0], loaded[1].refuse(), loaded[2], loaded[3]], None)
    assert RAN == ["send_email alice@example.com Hi"]
    assert [(r.call_id, r.fail_reason) for r in results] == [
        ("e1", None),
        ("e2", "refused"),
        ("c1", None),
        ("e3", "refused"),
    ]
    assert results[2].result_parts == ("teal", FilePart(data=data, media_type="application/pdf"))


def test_a_dump_of_format_1_still_loads() -> None:
    old: dict[str, Any] = {
        "format": "toolwire.pending/1",
        "toolwire": "0.1.0",
        "calls": [
            {
                "type": "function",
                "id": "e1",
                "name": "send_email",
                "input": {"to": "bob@example.com", "subject": "Hi"},
                "synthesized_id": False,
                "truncated": False,
                "schema": GROUP.dump_pending(GROUP.prepare_tool_calls(RESPONSE[:1]), as_dict=True)[
                    "calls"
                ][0]["schema"],
                "approval": {"hint": None, "metadata": {}},
            }
        ],
    }
    (pending,) = GROUP.load_pending(old)
    assert pending.edited is None and pending.answered is None
    assert answers(GROUP.run_pending([pending], None)) == [("e1", None, "Sent to bob@example.com.")]


def test_an_answer_json_cannot_keep_is_refused_when_dumped() -> None:
    color = GROUP.prepare_tool_calls([RESPONSE[2]])[0]
    with pytest.raises(PendingCallError) as error:
        GROUP.dump_pending([color.answer("teal", context={1, 2})])
    assert str(error.value) == snapshot(
        "The answer of call 'c1' to 'pick_color' cannot be stored: the data in its context hold a set value, which JSON cannot keep as they are. Give pending.answer(...) a context of JSON data (or None)."
    )
    with pytest.raises(PendingCallError) as reference:
        GROUP.dump_pending([color.answer([ToolReference(send_email)])])
    assert str(reference.value) == snapshot(
        "The answer of call 'c1' to 'pick_color' holds a ToolReference, which a dump cannot keep: store answers of text, ImagePart and FilePart, or run this batch before storing it."
    )


def test_an_answered_call_loads_even_when_its_tool_changed() -> None:
    """The answer came from elsewhere: it does not depend on the tool's arguments."""
    color = GROUP.prepare_tool_calls([RESPONSE[2]])[0]
    dump = GROUP.dump_pending([color.answer("teal")])
    (loaded,) = ToolGroup.from_list([send_email]).load_pending(dump)
    assert answers(ToolGroup.from_list([send_email]).run_pending([loaded], None)) == [
        ("c1", None, "teal")
    ]


class pick_color_as_text(BaseCustomToolModel[None, str]):
    """Pick a color, described in words."""

    model_tool_custom_name = "pick_color"

    def model_tool_handler(self, context: None) -> tuple[str, str]:
        RAN.append(f"pick_color_as_text {self.input}")
        return self.input, "text"


def test_an_answered_call_loads_even_when_its_tool_became_another_kind() -> None:
    """Nothing validates an answer against today's tool: it keeps its stored fingerprint."""
    color = GROUP.prepare_tool_calls([RESPONSE[2]])[0]
    dump = GROUP.dump_pending([color.answer("teal")])
    group = ToolGroup.from_list([pick_color_as_text])
    (loaded,) = group.load_pending(dump)
    assert (loaded.tool, loaded.failure, group.dump_pending([loaded]) == dump) == (None, None, True)
    assert (answers(group.run_pending([loaded], None)), RAN) == ([("c1", None, "teal")], [])


def test_a_person_may_fix_arguments_the_model_got_wrong() -> None:
    (broken,) = GROUP.prepare_tool_calls([use("e9", "send_email", to="bob@example.com")])
    assert broken.failure is not None and broken.failure.fail_reason == "invalid_arguments"
    (result,) = GROUP.run_pending([broken.edit({"to": "bob@example.com", "subject": "Hi"}, note=False)], None)  # fmt: skip
    assert (result.fail_reason, result.result_content) == (None, "Sent to bob@example.com.")


def test_an_answered_call_runs_no_hook_and_an_edited_one_runs_its_edit() -> None:
    seen: list[str] = []
    hooks = ToolHooks(before=lambda call: seen.append(call.id))
    first, second, color, last = GROUP.prepare_tool_calls(RESPONSE)
    decided = [first.edit({"to": "a@example.com", "subject": "Hi"}), second.refuse(), color.answer("red"), last]  # fmt: skip
    GROUP.run_pending(decided, None, hooks=hooks)
    assert seen == ["e1", "e3"]
    assert RAN == ["send_email a@example.com Hi", "send_email ann@example.com Lunch"]
