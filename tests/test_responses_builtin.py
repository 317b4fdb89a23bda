"""Responses' client-executed built-in calls: read typed from real SDK responses,
answered with the SDK's own input items, and paired by `check_history` and the fake
as the live API pairs them."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import openai
import pydantic
import pytest
from inline_snapshot import snapshot
from openai.types.responses import (
    ResponseApplyPatchToolCall,
    ResponseComputerToolCall,
    ResponseFunctionShellToolCall,
    ResponseInputItemParam,
)
from openai.types.responses.response_output_item import LocalShellCall, McpApprovalRequest

from tests.images import PNG
from tests.test_responses_support import response_json, sdk_response
from toolwire import aio
from toolwire.core import (
    ApprovalRequired,
    BaseFunctionToolModel,
    ImagePart,
    MCPApproval,
    PendingCall,
    ShellCommandOutput,
    ToolGroup,
    apply_patch_call_output,
    assistant_messages,
    builtin_calls,
    computer_call_output,
    local_shell_call_output,
    mcp_approval_response,
    shell_call_output,
    tool_result_messages,
)
from toolwire.exceptions import UnhandledCallsError
from toolwire.testing import FakeOpenAI, check_history

SHELL: dict[str, Any] = {
    "type": "shell_call",
    "id": "sh_1",
    "call_id": "call_sh",
    "action": {"commands": ["ls", "false"], "max_output_length": 4096, "timeout_ms": 1000},
    "environment": {"type": "local"},
    "status": "completed",
}
LOCAL_SHELL: dict[str, Any] = {
    "type": "local_shell_call",
    "id": "lsh_1",
    "call_id": "call_lsh",
    "action": {"type": "exec", "command": ["ls"], "env": {}},
    "status": "completed",
}
PATCH: dict[str, Any] = {
    "type": "apply_patch_call",
    "id": "ap_1",
    "call_id": "call_ap",
    "operation": {"type": "update_file", "path": "a.py", "diff": "@@\n-a\n+b\n"},
    "status": "completed",
    "caller": {"type": "program", "caller_id": "ci_1"},
}
COMPUTER: dict[str, Any] = {
    "type": "computer_call",
    "id": "cu_1",
    "call_id": "call_cu",
    "action": {"type": "click", "button": "left", "x": 3, "y": 4},
    "pending_safety_checks": [
        {"id": "sc_1", "code": "malicious_instructions", "message": "Careful"}
    ],  # fmt: skip
    "status": "completed",
}
APPROVAL: dict[str, Any] = {
    "type": "mcp_approval_request",
    "id": "mcpr_1",
    "name": "delete_repo",
    "arguments": '{"repo": "x"}',
    "server_label": "github",
}
HOSTED_SHELL = {**SHELL, "call_id": "call_hosted", "environment": {"type": "container_reference", "container_id": "cntr_1"}}  # fmt: skip
FUNCTION: dict[str, Any] = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_fn",
    "name": "f",
    "arguments": "{}",
    "status": "completed",
}
RESPONSE = sdk_response(
    response_json(SHELL, LOCAL_SHELL, PATCH, COMPUTER, APPROVAL, HOSTED_SHELL, FUNCTION)
)


def each_builtin_call(
    response: object,
) -> tuple[
    ResponseFunctionShellToolCall,
    LocalShellCall,
    ResponseApplyPatchToolCall,
    ResponseComputerToolCall,
    McpApprovalRequest,
]:
    """A response's five built-in calls, one of each kind in this order, typed."""
    shell, local, patch, computer, approval = builtin_calls(response)
    assert isinstance(shell, ResponseFunctionShellToolCall)
    assert isinstance(local, LocalShellCall)
    assert isinstance(patch, ResponseApplyPatchToolCall)
    assert isinstance(computer, ResponseComputerToolCall)
    assert isinstance(approval, McpApprovalRequest)
    return shell, local, patch, computer, approval


def _answers() -> list[ResponseInputItemParam]:
    shell, local, patch, computer, approval = each_builtin_call(RESPONSE)
    return [
        shell_call_output(
            shell,
            [ShellCommandOutput(stdout="a.py\n"), ShellCommandOutput(stderr="boom", exit_code=1)],
        ),
        local_shell_call_output(local, "a.py\n"),
        apply_patch_call_output(patch, status="failed", output="a.py: hunk 1 does not apply"),
        computer_call_output(computer, ImagePart.from_bytes(PNG), acknowledge_safety_checks=True),
        mcp_approval_response(approval, False, reason="Not this repo."),
    ]


def test_builtin_calls_are_the_sdk_models_of_the_calls_to_answer() -> None:
    """Each client-executed call, in order, as the SDK's model; a shell call the server
    ran in a hosted container and function calls are not among them. Dict items come
    back as the same models."""
    calls = builtin_calls(RESPONSE)
    assert [type(c).__name__ for c in calls] == snapshot(
        [
            "ResponseFunctionShellToolCall",
            "LocalShellCall",
            "ResponseApplyPatchToolCall",
            "ResponseComputerToolCall",
            "McpApprovalRequest",
        ]
    )
    assert builtin_calls(RESPONSE.output) == calls
    dicts = [item.to_dict() for item in RESPONSE.output]
    assert builtin_calls(dicts) == calls
    assert builtin_calls({"object": "response", "output": dicts}) == calls


def test_each_answer_is_the_sdk_input_item() -> None:
    """The answers, whole: each is a valid `ResponseInputItemParam` of its kind, the
    screenshot inline as a data URL, the safety checks acknowledged, a program's call
    answered to that program."""
    answers = _answers()
    checker: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(ResponseInputItemParam)
    for answer in answers:
        checker.validate_python(answer)
    png = "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert answers[3]["output"] == {"type": "computer_screenshot", "image_url": png}  # type: ignore[typeddict-item]
    answers[3]["output"] = "(the screenshot)"  # type: ignore[typeddict-item]
    assert answers == snapshot(
        [
            {
                "type": "shell_call_output",
                "call_id": "call_sh",
                "output": [
                    {"stdout": "a.py\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}},
                    {"stdout": "", "stderr": "boom", "outcome": {"type": "exit", "exit_code": 1}},
                ],
                "max_output_length": 4096,
            },
            {"type": "local_shell_call_output", "id": "call_lsh", "output": "a.py\n"},
            {
                "type": "apply_patch_call_output",
                "call_id": "call_ap",
                "status": "failed",
                "output": "a.py: hunk 1 does not apply",
                "caller": {"type": "program", "caller_id": "ci_1"},
            },
            {
                "type": "computer_call_output",
                "call_id": "call_cu",
                "output": "(the screenshot)",
                "acknowledged_safety_checks": [
                    {"id": "sc_1", "code": "malicious_instructions", "message": "Careful"}
                ],
            },
            {
                "type": "mcp_approval_response",
                "approval_request_id": "mcpr_1",
                "approve": False,
                "reason": "Not this repo.",
            },
        ]
    )


def test_answer_builders_refuse_what_the_api_would() -> None:
    """Unacknowledged safety checks, a timed-out command, a file screenshot and a wrong
    item: each says what to do."""
    computer = builtin_calls(RESPONSE)[3]
    assert isinstance(computer, ResponseComputerToolCall)
    with pytest.raises(ValueError, match="acknowledge_safety_checks=True"):
        computer_call_output(computer, ImagePart(file_id="file_1"))
    safe = computer.model_copy(update={"pending_safety_checks": []})
    assert computer_call_output(safe, ImagePart(file_id="file_1")) == snapshot(
        {
            "type": "computer_call_output",
            "call_id": "call_cu",
            "output": {"type": "computer_screenshot", "file_id": "file_1"},
        }
    )
    shell = builtin_calls(RESPONSE)[0]
    assert isinstance(shell, ResponseFunctionShellToolCall)
    assert shell_call_output(shell, [ShellCommandOutput(exit_code=None)])["output"] == snapshot(
        [{"stdout": "", "stderr": "", "outcome": {"type": "timeout"}}]
    )
    with pytest.raises(TypeError, match="Expected a shell_call item"):
        shell_call_output(computer, [])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="answers an mcp_approval_request"):
        mcp_approval_response(shell, True)  # type: ignore[arg-type]


def _history() -> list[Any]:
    return [
        {"role": "user", "content": "go"},
        *(item.to_dict() for item in RESPONSE.output if item.type != "function_call"),
    ]


def test_check_history_pairs_builtin_calls_with_their_answers() -> None:
    """Answered, the history is fine; an unanswered shell call, a second answer and an
    answer to no call are refused. An MCP approval request may stay unanswered."""
    history = [*_history(), *_answers()]
    assert check_history(history, "responses") == []
    assert [p.message for p in check_history(history[:-5] + history[-4:], "responses")] == snapshot(
        [
            "input[1] (shell_call 'call_sh', unnamed) has no shell_call_output with call_id 'call_sh' after it; append one shell_call_output item per call, carrying its call_id"
        ]
    )
    assert check_history(history[:-1], "responses") == []
    assert [p.message for p in check_history([*history, history[-4]], "responses")] == snapshot(
        [
            "input[12] (local_shell_call_output) answers call_id 'call_lsh' a second time (input[8] already did); send exactly one output per call"
        ]
    )
    stray = mcp_approval_response(McpApprovalRequest.model_validate({**APPROVAL, "id": "mcpr_9"}), True)  # fmt: skip
    assert [p.message for p in check_history([*history, stray], "responses")] == snapshot(
        [
            "input[12] (mcp_approval_response) has approval_request_id 'mcpr_9', but no mcp_approval_request before it has that call_id; give each output the call_id of a call that comes before it in the input (chained with previous_response_id? pass that response as previous_response= so its calls count)"
        ]
    )


def test_the_fake_takes_the_answers_and_refuses_a_missing_one() -> None:
    """Through the real client: the answered history gets a reply; one without the
    computer call's answer gets the 400 the live API sends."""
    client = FakeOpenAI().client()
    history = [*_history(), *_answers()]
    reply = client.responses.create(model="gpt-test", input=history)
    assert reply.status == "completed"
    with pytest.raises(openai.BadRequestError, match="computer_call_output"):
        client.responses.create(model="gpt-test", input=[*history[:-2], history[-1]])


# -- MCP approval requests in the approval flow ----------------------------------------


class lookup(BaseFunctionToolModel[None, None]):
    """Look something up."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "found", None


class alookup(aio.BaseFunctionToolModel[None, None]):
    """Look something up."""

    model_tool_custom_name = "lookup"

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "found", None


LOOKUP: dict[str, Any] = {**FUNCTION, "name": "lookup"}
ASKING = sdk_response(response_json(APPROVAL, LOOKUP))


def test_an_mcp_approval_request_is_a_pending_call_that_needs_approval() -> None:
    """`prepare_tool_calls` makes the request a pending call: its tool is the typed
    `MCPApproval`, it always needs approval and says why."""
    group = ToolGroup[None, None].from_list([lookup])
    asked, plain = group.prepare_tool_calls(ASKING)
    assert (asked.call.type, asked.call.id, asked.call.name) == snapshot(
        ("mcp_approval", "mcpr_1", "github.delete_repo")
    )
    assert isinstance(asked.tool, MCPApproval)
    assert (asked.tool.server_label, asked.tool.name, asked.tool.arguments) == snapshot(
        ("github", "delete_repo", '{"repo": "x"}')
    )
    assert asked.approval == snapshot(
        ApprovalRequired(
            hint="Run 'delete_repo' on the MCP server 'github'",
            metadata={
                "server_label": "github",
                "name": "delete_repo",
                "arguments": '{"repo": "x"}',
            },
        )
    )
    assert not plain.needs_approval


def test_approved_or_refused_it_is_answered_with_an_mcp_approval_response() -> None:
    """Run, it approves; refused, it refuses with the reason. The next input, replayed
    with the answers, is what the live API takes (`check_history`, the fake)."""
    group = ToolGroup[None, None].from_list([lookup])
    approved = tool_result_messages(group.run_pending(group.prepare_tool_calls(ASKING), None), "responses")  # fmt: skip
    asked, plain = group.prepare_tool_calls(ASKING)
    refused = tool_result_messages(group.run_pending([asked.refuse("Not this repo."), plain], None), "responses")  # fmt: skip
    assert [approved, refused] == snapshot(
        [
            [
                {"type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": True},
                {"type": "function_call_output", "call_id": "call_fn", "output": "found"},
            ],
            [
                {
                    "type": "mcp_approval_response",
                    "approval_request_id": "mcpr_1",
                    "approve": False,
                    "reason": "Not this repo.",
                },
                {"type": "function_call_output", "call_id": "call_fn", "output": "found"},
            ],
        ]
    )
    checker: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(ResponseInputItemParam)
    checker.validate_python(approved[0])
    history: list[Any] = [
        {"role": "user", "content": "go"},
        *assistant_messages(ASKING, "responses"),
        *refused,
    ]
    assert check_history(history, "responses") == []
    client = FakeOpenAI().client()
    assert client.responses.create(model="gpt-test", input=history).status == "completed"


def test_it_is_stored_and_restored_like_any_pending_call() -> None:
    """`dump_pending` keeps it as JSON; `load_pending` (in an aio group too) restores it
    needing approval, and `run_with_approval` asks for it."""
    group = ToolGroup[None, None].from_list([lookup])
    text = group.dump_pending(group.prepare_tool_calls(ASKING))
    restored = group.load_pending(text)
    assert [p.needs_approval for p in restored] == [True, False]
    assert isinstance(restored[0].tool, MCPApproval)
    asynchronous = aio.ToolGroup[None, None].from_list([alookup])
    again = asynchronous.load_pending(text)
    results = asyncio.run(asynchronous.run_pending(again, None))
    assert [r.fail_reason for r in results] == [None, None]
    asked: list[str] = []

    def approve(pending: PendingCall[Any]) -> bool:
        asked.append(pending.call.name)
        return False

    results = asyncio.run(asynchronous.run_with_approval(ASKING, None, approve))
    assert asked == ["github.delete_repo"]
    assert tool_result_messages(results, "responses")[0] == snapshot(
        {
            "type": "mcp_approval_response",
            "approval_request_id": "mcpr_1",
            "approve": False,
            "reason": "The user did not approve this call, so it was not run. Do not try it again unless the user asks for it.",
        }
    )


def test_run_tool_calls_asks_for_a_decision_first() -> None:
    """`run_tool_calls` never approves on its own: it raises before anything runs,
    saying how to decide; `other_calls="ignore"` leaves the request to you."""
    group = ToolGroup[None, None].from_list([lookup])
    with pytest.raises(UnhandledCallsError, match=r"prepare_tool_calls\(response\)"):
        group.run_tool_calls(ASKING, None)
    assert [r.call_id for r in group.run_tool_calls(ASKING, None, other_calls="ignore")] == ["call_fn"]  # fmt: skip
