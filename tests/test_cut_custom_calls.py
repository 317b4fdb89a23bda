"""A custom (free-text) call cut by a length limit never runs, on both OpenAI APIs, whether
the turn is dispatched as the SDK's response, its dict form, or a stream's final response.
A cut `apply_patch` must not be applied."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import Response

from toolwire.core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    ToolCallCompleted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
)


class apply_patch(BaseCustomToolModel[None, None]):
    """Apply a patch to the working tree."""

    applied: ClassVar[list[str]] = []

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        apply_patch.applied.append(self.input)
        return "applied", None


class read_file(BaseFunctionToolModel[None, None]):
    """Read a file."""

    path: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"contents of {self.path}", None


group = ToolGroup.from_list([apply_patch, read_file])
CUT_PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-old\n+ne"
"""A patch the length limit stopped in the middle (no `*** End Patch`)."""


@pytest.fixture(autouse=True)
def _reset() -> None:
    apply_patch.applied.clear()


def chat_completion(finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-5",
        "choices": [
            {
                "index": 0,
                "finish_reason": finish_reason,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_read",
                            "type": "function",
                            "function": {"name": "read_file", "arguments": '{"path": "a.py"}'},
                        },
                        {
                            "id": "call_patch",
                            "type": "custom",
                            "custom": {"name": "apply_patch", "input": CUT_PATCH},
                        },
                    ],
                },
            }
        ],
    }


@pytest.mark.parametrize("finish_reason", ["length", "content_filter"])
@pytest.mark.parametrize("form", ["sdk", "dict"])
def test_chat_cut_custom_call_is_truncated_not_run(finish_reason: str, form: str) -> None:
    """The last call of a cut turn is a custom call: it is answered "truncated"; the
    complete function call before it runs."""
    data = chat_completion(finish_reason)
    response: Any = ChatCompletion.model_validate(data) if form == "sdk" else data
    results = group.run_tool_calls(response, None)
    assert [(r.call_id, r.fail_reason) for r in results] == [
        ("call_read", None),
        ("call_patch", "truncated"),
    ]
    assert apply_patch.applied == []


def test_chat_custom_call_of_a_finished_turn_runs() -> None:
    """The same turn ended normally: the custom call runs with its whole input."""
    results = group.run_tool_calls(
        ChatCompletion.model_validate(chat_completion("tool_calls")), None
    )
    assert [r.fail_reason for r in results] == [None, None]
    assert apply_patch.applied == [CUT_PATCH]


def chunk(delta: dict[str, Any] | None, finish: str | None = None) -> ChatCompletionChunk:
    """Built leniently, as the SDK builds chunks from SSE: its delta type says only
    "function", yet custom-call fragments arrive with `type: "custom"`."""
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return ChatCompletionChunk.construct(
        id="chatcmpl-1", object="chat.completion.chunk", created=1, model="gpt-5", choices=choices
    )


def test_chat_stream_of_a_cut_custom_call_agrees_with_dispatch() -> None:
    """Streamed, the custom call is reported ToolCallTruncated, and dispatching the final
    response answers it "truncated" too: the handler never runs."""
    custom = {"index": 0, "id": "call_patch", "type": "custom"}
    chunks = [
        chunk(
            {
                "role": "assistant",
                "tool_calls": [
                    {**custom, "custom": {"name": "apply_patch", "input": CUT_PATCH[:20]}}
                ],
            }
        ),  # fmt: skip
        chunk({"tool_calls": [{"index": 0, "custom": {"input": CUT_PATCH[20:]}}]}),
        chunk({}, finish="length"),
    ]
    stream = ToolCallStream("chat.completions")
    events = [event for item in chunks for event in stream.feed(item)]
    ended = [e for e in events if isinstance(e, ToolCallCompleted | ToolCallTruncated)]
    assert [type(e).__name__ for e in ended] == ["ToolCallTruncated"]
    assert ended[0].call.input == CUT_PATCH
    final = stream.final_response()
    assert group.run_tool_call(ended[0].call, None).fail_reason == "truncated"
    assert [r.fail_reason for r in group.run_tool_calls(final, None)] == ["truncated"]
    assert apply_patch.applied == []


def responses_output(status: str, *, custom_last: bool) -> dict[str, Any]:
    patch = {
        "type": "custom_tool_call",
        "id": "ctc_1",
        "call_id": "call_patch",
        "name": "apply_patch",
        "input": CUT_PATCH,
    }
    read = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_read",
        "name": "read_file",
        "arguments": '{"path": "a.py"}',
        "status": "completed",
    }
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "gpt-5",
        "status": status,
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "output": [read, patch] if custom_last else [patch, read],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def test_responses_cut_custom_call_is_truncated_not_run() -> None:
    """A custom_tool_call (no status field) that is the last item of an incomplete
    response was being written when the limit hit."""
    response = Response.model_validate(responses_output("incomplete", custom_last=True))
    results = group.run_tool_calls(response, None)
    assert [(r.call_id, r.fail_reason) for r in results] == [
        ("call_read", None),
        ("call_patch", "truncated"),
    ]
    assert apply_patch.applied == []


def test_responses_custom_call_followed_by_another_item_is_whole() -> None:
    """A later item exists, so the custom call was finished before the limit hit."""
    response = Response.model_validate(responses_output("incomplete", custom_last=False))
    assert [r.fail_reason for r in group.run_tool_calls(response, None)] == [None, None]
    assert apply_patch.applied == [CUT_PATCH]
