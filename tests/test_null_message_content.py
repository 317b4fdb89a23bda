"""A response whose Chat `message` or Anthropic `content` is null (compatible servers
send it) reads the same on the first response of a process and on every later one (the
fast reader for SDK objects seen before): no calls. It used to give `[]` once, then a
bare AttributeError or TypeError."""

from __future__ import annotations

from typing import Any

import pytest
from anthropic.types import Message
from openai.types.chat import ChatCompletion
from openai.types.chat.chat_completion import Choice

from toolwire.core import BaseFunctionToolModel, ToolGroup


class ping(BaseFunctionToolModel[None, None]):
    """Ping."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "pong", None


GROUP = ToolGroup.from_list([ping])


def null_chat_message() -> ChatCompletion:
    choice = Choice.model_construct(index=0, finish_reason="stop", message=None)
    return ChatCompletion.model_construct(
        id="chatcmpl-1", object="chat.completion", created=0, model="m", choices=[choice]
    )


def null_anthropic_content() -> Message:
    return Message.model_construct(
        id="msg_1", type="message", role="assistant", model="m", content=None,
        stop_reason="end_turn",
    )  # fmt: skip


@pytest.mark.parametrize("make", [null_chat_message, null_anthropic_content])
def test_every_read_gives_no_calls(make: Any) -> None:
    """Three reads of fresh objects: the first may take the general path, the next ones
    the fast one; all agree."""
    assert [GROUP.run_tool_calls(make(), None) for _ in range(3)] == [[], [], []]
