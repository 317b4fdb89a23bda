"""FakeOpenAI's Responses API makes the client-executed built-in calls a script asks
for (`FakeReply(builtin=...)`), as the SDK types them, so a loop's answers to them are
tested offline: read with `builtin_calls`, answered with the typed builders, taken by
the fake and by `check_history`; a missing answer or a missing tool is refused."""

from __future__ import annotations

from typing import Any

import openai
import pydantic
import pytest
from inline_snapshot import snapshot
from openai.types.responses import (
    Response,
    ResponseInputItemParam,
    ResponseOutputItem,
)

from tests.images import PNG
from tests.test_responses_builtin import each_builtin_call
from toolwire.core import (
    BaseFunctionToolModel,
    ImagePart,
    ShellCommandOutput,
    ToolGroup,
    apply_patch_call_output,
    assistant_messages,
    computer_call_output,
    local_shell_call_output,
    mcp_approval_response,
    shell_call_output,
)
from toolwire.testing import (
    FakeBuiltinCall,
    FakeOpenAI,
    FakeReply,
    check_history,
)

TOOLS: list[Any] = [
    {"type": "shell", "environment": {"type": "local"}},
    {"type": "local_shell"},
    {"type": "apply_patch"},
    {"type": "computer"},
    {
        "type": "mcp",
        "server_label": "github",
        "server_url": "https://mcp.example.invalid/",
        "require_approval": "always",
    },
]
CALLS = (
    FakeBuiltinCall("shell_call", {"action": {"commands": ["ls"]}}),
    FakeBuiltinCall("local_shell_call", {"action": {"type": "exec", "command": ["ls"], "env": {}}}),
    FakeBuiltinCall("apply_patch_call", {"operation": {"type": "delete_file", "path": "a.py"}}),
    FakeBuiltinCall("computer_call", {"action": {"type": "screenshot"}}),
    FakeBuiltinCall(
        "mcp_approval_request",
        {"server_label": "github", "name": "delete_repo", "arguments": '{"repo": "x"}'},
    ),
)
PROMPT: list[Any] = [{"role": "user", "content": "clean up"}]


def _ask(client: openai.OpenAI, stream: bool, history: list[Any]) -> Response:
    """The response, its output items validated by the SDK's model (the client itself
    does not validate): as the JSON body holds them, or as the stream's events built them."""
    if not stream:
        raw = client.responses.with_raw_response.create(
            model="gpt-test", input=history, tools=TOOLS
        )
        OUTPUT_ITEMS.validate_python(raw.http_response.json()["output"])
        return raw.parse()
    with client.responses.stream(model="gpt-test", input=history, tools=TOOLS) as events:
        response = events.get_final_response()
    OUTPUT_ITEMS.validate_python(response.model_dump(mode="json", exclude_none=True)["output"])
    return response


OUTPUT_ITEMS: pydantic.TypeAdapter[list[ResponseOutputItem]] = pydantic.TypeAdapter(
    list[ResponseOutputItem]
)


def _answers(response: Response) -> list[ResponseInputItemParam]:
    shell, local, patch, computer, approval = each_builtin_call(response)
    return [
        shell_call_output(shell, [ShellCommandOutput(stdout="a.py\n")]),
        local_shell_call_output(local, "a.py\n"),
        apply_patch_call_output(patch, status="completed"),
        computer_call_output(computer, ImagePart.from_bytes(PNG)),
        mcp_approval_response(approval, False, reason="Not this repo."),
    ]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_the_fake_makes_each_builtin_call_and_takes_its_answer(stream: bool) -> None:
    """JSON and streamed: the items are the SDK's models with the fake's ids; answered
    with the builders, the next request passes the fake and `check_history`."""
    client = FakeOpenAI(script=[FakeReply(builtin=CALLS), FakeReply(text="done")]).client()
    response = _ask(client, stream, PROMPT)
    assert [item.model_dump(mode="json", exclude_none=True) for item in response.output] == snapshot(
        [
            {"id": "sh_fake2", "action": {"commands": ["ls"]}, "call_id": "call_2", "status": "completed", "type": "shell_call"},
            {"id": "lsh_fake3", "action": {"command": ["ls"], "env": {}, "type": "exec"}, "call_id": "call_3", "status": "completed", "type": "local_shell_call"},
            {"id": "apc_fake4", "call_id": "call_4", "operation": {"path": "a.py", "type": "delete_file"}, "status": "completed", "type": "apply_patch_call"},
            {"id": "cu_fake5", "call_id": "call_5", "pending_safety_checks": [], "status": "completed", "type": "computer_call", "action": {"type": "screenshot"}},
            {"id": "mcpr_fake6", "arguments": '{"repo": "x"}', "name": "delete_repo", "server_label": "github", "type": "mcp_approval_request"},
        ]
    )  # fmt: skip
    history = [*PROMPT, *assistant_messages(response, "responses"), *_answers(response)]
    assert check_history(history, "responses") == []
    assert _ask(client, stream, history).output_text == "done"


def test_the_mcp_approval_request_is_a_pending_call_of_the_loop() -> None:
    """`prepare_tool_calls` reads the fake's approval request as a call needing approval."""
    script = [FakeReply(builtin=CALLS[-1:])]
    response = _ask(FakeOpenAI(script=script).client(), False, PROMPT)
    no_tools: list[type[BaseFunctionToolModel[None, None]]] = []
    (asked,) = ToolGroup[None, None].from_list(no_tools).prepare_tool_calls(response)
    assert (asked.call.type, asked.call.id, asked.call.name, asked.needs_approval) == snapshot(
        ("mcp_approval", "mcpr_fake2", "github.delete_repo", True)
    )


def test_a_missing_answer_is_refused() -> None:
    """Without the computer call's answer the next request gets the live API's 400."""
    client = FakeOpenAI(script=[FakeReply(builtin=CALLS)]).client()
    response = _ask(client, False, PROMPT)
    answers = _answers(response)
    history = [*PROMPT, *assistant_messages(response, "responses"), *answers[:3], answers[4]]
    with pytest.raises(openai.BadRequestError, match="computer_call_output"):
        _ask(client, False, history)


def test_a_call_without_its_tool_is_refused_saying_what_to_add() -> None:
    """Each call needs its tool in the request: the fake's 400 names the tool to add."""
    messages: list[str] = []
    for call in CALLS:
        client = FakeOpenAI(script=[FakeReply(builtin=(call,))]).client()
        with pytest.raises(openai.BadRequestError) as refused:
            client.responses.create(model="gpt-test", input=PROMPT)
        messages.append(str(refused.value.body))
    assert messages == snapshot(
        [
            "{'message': 'toolwire fake: FakeBuiltinCall(\\'shell_call\\') needs the shell tool in the request\\'s tools: add {\"type\": \"shell\"}.', 'type': 'invalid_request_error', 'param': None, 'code': None}",
            "{'message': 'toolwire fake: FakeBuiltinCall(\\'local_shell_call\\') needs the local_shell tool in the request\\'s tools: add {\"type\": \"local_shell\"}.', 'type': 'invalid_request_error', 'param': None, 'code': None}",
            "{'message': 'toolwire fake: FakeBuiltinCall(\\'apply_patch_call\\') needs the apply_patch tool in the request\\'s tools: add {\"type\": \"apply_patch\"}.', 'type': 'invalid_request_error', 'param': None, 'code': None}",
            "{'message': 'toolwire fake: FakeBuiltinCall(\\'computer_call\\') needs the computer tool in the request\\'s tools: add {\"type\": \"computer\"} (or the older {\"type\": \"computer_use_preview\", ...}).', 'type': 'invalid_request_error', 'param': None, 'code': None}",
            "{'message': 'toolwire fake: FakeBuiltinCall(\\'mcp_approval_request\\') asks to approve a call on MCP server \\'github\\', but the request offers no mcp tool of that server_label asking for approval: add {\"type\": \"mcp\", \"server_label\": \"github\", \"require_approval\": \"always\", ...} to the tools.', 'type': 'invalid_request_error', 'param': None, 'code': None}",
        ]
    )


def test_other_fakes_refuse_a_builtin_call_script() -> None:
    """Built-in calls exist on Responses only: the Chat Completions fake refuses them (as
    the Anthropic and Gemini fakes do: the refusal is the server's, for every codec)."""
    script = [FakeReply(builtin=CALLS[:1])]
    with pytest.raises(openai.BadRequestError, match="Responses API only") as chat:
        FakeOpenAI(script=script).client().chat.completions.create(
            model="gpt-test", messages=[{"role": "user", "content": "go"}]
        )
    assert str(chat.value.body) == snapshot(
        "{'message': \"toolwire fake: the script makes a built-in shell_call (FakeReply(builtin=...)), which the chat.completions fake does not make; client-executed built-in calls exist on OpenAI's Responses API only: script them on FakeOpenAI and call client.responses.create.\", 'type': 'invalid_request_error', 'param': None, 'code': None}"
    )


def test_a_wrong_script_fails_when_written() -> None:
    with pytest.raises(ValueError, match="use one of 'shell_call'"):
        FakeBuiltinCall("bash_call", {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="give a tuple of FakeBuiltinCall"):
        FakeReply(builtin=[{"type": "shell_call"}])  # type: ignore[list-item]
