"""Two-phase dispatch: validate now, decide (run, refuse, defer), run later, even in
another process; and the approval loop helper."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap

import pytest
from google.genai import types
from inline_snapshot import snapshot
from openai.types.responses import Response

from toolwire import aio
from toolwire.core import (
    BaseFunctionToolModel,
    PendingCall,
    ToolCallFailure,
    ToolGroup,
    tool_result_messages,
)
from toolwire.exceptions import PendingCallError


def response(*calls: tuple[str, str]) -> Response:
    """A Responses API response asking for `calls` (name, JSON arguments)."""
    return Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1,
            "model": "gpt-4.1",
            "status": "completed",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "function_call",
                    "id": f"fc_{n}",
                    "call_id": f"call_{n}",
                    "name": name,
                    "arguments": arguments,
                    "status": "completed",
                }
                for n, (name, arguments) in enumerate(calls)
            ],
        }
    )


RAN: list[str] = []


class delete_file(BaseFunctionToolModel[None, None]):
    """Delete a file."""

    model_tool_requires_approval = True
    path: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"delete {self.path}")
        return f"Deleted {self.path}.", None


class write_file(BaseFunctionToolModel[None, None]):
    """Write a file; only writes outside /tmp need approval."""

    path: str
    text: str

    def model_tool_needs_approval(self) -> bool:
        return not self.path.startswith("/tmp/")

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"write {self.path}")
        return f"Wrote {self.path}.", None


GROUP = ToolGroup.from_list([delete_file, write_file])
CALLS = response(
    ("delete_file", '{"path": "/etc/hosts"}'),
    ("write_file", '{"path": "/tmp/notes", "text": "hi"}'),
    ("write_file", '{"path": "/home/a/notes"}'),  # missing "text": invalid
    ("rename_file", "{}"),  # no such tool
    ("write_file", '{"path": "/home/a/todo", "text": "x"}'),
)


@pytest.fixture(autouse=True)
def clear_log() -> None:
    RAN.clear()


def test_prepare_validates_without_running() -> None:
    pending = GROUP.prepare_tool_calls(CALLS)
    assert RAN == []
    assert [
        (p.call.id, type(p.tool).__name__ if p.tool else None, p.failure and p.failure.fail_reason)
        for p in pending
    ] == snapshot(
        [
            ("call_0", "delete_file", None),
            ("call_1", "write_file", None),
            ("call_2", None, "invalid_arguments"),
            ("call_3", None, "invalid_name"),
            ("call_4", "write_file", None),
        ]
    )
    assert [p.needs_approval for p in pending] == [True, False, False, False, True]
    first = pending[0].tool
    assert isinstance(first, delete_file) and first.path == "/etc/hosts"


def test_refused_calls_are_answered_with_the_reason_in_order() -> None:
    pending = GROUP.prepare_tool_calls(CALLS)
    decided = [
        p.refuse("The user keeps /etc/hosts.") if p.call.id == "call_0" else p for p in pending
    ]
    results = GROUP.run_pending(decided, None)
    assert RAN == ["write /tmp/notes", "write /home/a/todo"]
    assert [(r.call_id, r.fail_reason) for r in results] == snapshot(
        [
            ("call_0", "refused"),
            ("call_1", None),
            ("call_2", "invalid_arguments"),
            ("call_3", "invalid_name"),
            ("call_4", None),
        ]
    )
    assert results[0].output_item == snapshot(
        {
            "type": "function_call_output",
            "call_id": "call_0",
            "output": "The user keeps /etc/hosts.",
        }
    )
    # Without refusals, exactly what run_tool_calls gives.
    RAN.clear()
    in_two_phases = GROUP.run_pending(GROUP.prepare_tool_calls(CALLS), None)
    assert [r.output_item for r in in_two_phases] == [
        r.output_item for r in GROUP.run_tool_calls(CALLS, None)
    ]


RESTORE = textwrap.dedent(
    """
    import json, sys
    from toolwire.core import BaseFunctionToolModel, ToolGroup

    class delete_file(BaseFunctionToolModel[None, None]):
        '''Delete a file.'''
        model_tool_requires_approval = True
        path: str
        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return f"Deleted {self.path} (in another process).", None

    class write_file(BaseFunctionToolModel[None, None]):
        '''Write a file; only writes outside /tmp need approval.'''
        path: str
        text: str
        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return f"Wrote {self.path} (in another process).", None

    group = ToolGroup.from_list([delete_file, write_file])
    pending = group.load_pending(sys.stdin.read())
    decided = [p.refuse("No.") if p.call.name == "delete_file" else p for p in pending]
    print(json.dumps([r.output_item for r in group.run_pending(decided, None)]))
    """
)


def test_pending_calls_wait_in_json_and_run_in_another_process() -> None:
    stored = GROUP.dump_pending(GROUP.prepare_tool_calls(CALLS))
    done = subprocess.run(
        [sys.executable, "-c", RESTORE], input=stored, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == snapshot(
        [
            {"type": "function_call_output", "call_id": "call_0", "output": "No."},
            {
                "type": "function_call_output",
                "call_id": "call_1",
                "output": "Wrote /tmp/notes (in another process).",
            },
            {
                "type": "function_call_output",
                "call_id": "call_2",
                "output": """\
Invalid arguments for 'write_file': 1 error. Fix them and call the tool again.
- text: Field required\
""",
            },
            {
                "type": "function_call_output",
                "call_id": "call_3",
                "output": "Unknown tool 'rename_file'. Available tools: delete_file, write_file. Call one of them by its exact name.",
            },
            {
                "type": "function_call_output",
                "call_id": "call_4",
                "output": "Wrote /home/a/todo (in another process).",
            },
        ]
    )


def test_a_tool_that_changed_since_is_refused_on_restore() -> None:
    stored = GROUP.dump_pending(GROUP.prepare_tool_calls(CALLS))

    class delete_file(BaseFunctionToolModel[None, None]):  # now takes a recursive flag
        """Delete a file."""

        path: str
        recursive: bool = False

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "Deleted.", None

    with pytest.raises(PendingCallError) as error:
        ToolGroup.from_list([delete_file, write_file]).load_pending(stored)
    assert str(error.value) == snapshot(
        "The pending call 'call_0' to 'delete_file' was validated against a tool that changed its arguments since. Its decision was made for what it was then: answer it with a failure (e.g. `ToolCallFailure.for_call(call, ...)`) and let the model call the current tool again. The call is on this error's `.calls`. To restore the rest of the batch too, load it with `load_pending(..., changed=\"refuse\")`: each such call then comes back in its place answered with a \"refused\" failure, ready for `run_pending`."
    )
    with pytest.raises(PendingCallError, match="is no longer in the group"):
        ToolGroup.from_list([write_file]).load_pending(stored)
    with pytest.raises(PendingCallError, match="not toolwire pending-call JSON"):
        GROUP.load_pending('{"calls": []}')


def test_gemini_calls_keep_their_synthesized_ids_through_storage() -> None:
    reply = types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                content=types.Content(
                    role="model",
                    parts=[
                        types.Part(
                            function_call=types.FunctionCall(
                                name="delete_file", args={"path": "/etc/hosts"}
                            )
                        )
                    ],
                ),
                finish_reason=types.FinishReason.STOP,
            )
        ]
    )
    pending = GROUP.prepare_tool_calls(reply)
    restored = GROUP.load_pending(GROUP.dump_pending(pending))
    assert [p.call for p in restored] == [p.call for p in pending]
    assert restored[0].call.synthesized_id
    [content] = tool_result_messages(GROUP.run_pending(restored, None), "gemini")
    parts = content.parts or []
    assert parts[0].function_response == types.FunctionResponse(
        name="delete_file", response={"output": "Deleted /etc/hosts."}
    )


def test_run_with_approval_asks_only_for_calls_that_need_it() -> None:
    asked: list[str] = []

    def approve(pending: PendingCall) -> bool | str:
        asked.append(pending.call.id)
        return pending.call.id == "call_4" or "Not now."

    results = GROUP.run_with_approval(CALLS, None, approve)
    assert asked == ["call_0", "call_4"]
    assert [(r.call_id, r.fail_reason, r.result_content) for r in results][:2] == snapshot(
        [("call_0", "refused", "Not now."), ("call_1", None, "Wrote /tmp/notes.")]
    )
    assert RAN == ["write /tmp/notes", "write /home/a/todo"]


def test_an_approval_function_must_say_yes_no_or_why() -> None:
    with pytest.raises(TypeError, match=r"returned None for call 'call_0'"):
        GROUP.run_with_approval(CALLS, None, lambda pending: None)  # pyright: ignore[reportArgumentType]
    denied = GROUP.run_with_approval(CALLS, None, lambda pending: False)[0]
    assert isinstance(denied, ToolCallFailure)
    assert denied.result_content == snapshot(
        "The user did not approve this call, so it was not run. Do not try it again unless the user asks for it."
    )


class send_money(aio.BaseFunctionToolModel[list[str], None]):
    """Send money."""

    model_tool_requires_approval = True
    to: str
    amount: float

    async def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append(f"sent {self.amount} to {self.to}")
        return "Sent.", None


def test_aio_approval_may_be_async() -> None:
    group = aio.ToolGroup.from_list([send_money])
    calls = response(
        ("send_money", '{"to": "Ann", "amount": 5}'),
        ("send_money", '{"to": "Bob", "amount": 5000}'),
    )

    async def approve(pending: PendingCall) -> bool | str:
        await asyncio.sleep(0)  # e.g. wait for a person's click
        tool = pending.tool
        return isinstance(tool, send_money) and tool.amount < 100 or "Over the limit."

    ledger: list[str] = []
    results = asyncio.run(group.run_with_approval(calls, ledger, approve))
    assert ledger == ["sent 5.0 to Ann"]
    assert [r.fail_reason for r in results] == [None, "refused"]
