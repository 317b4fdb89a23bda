"""An answer of text results renders through each API's one-pass text path
(`native_result` per result, enclosed by `enclose_answers`): it must equal what the
adapter's general rendering makes of the same results, on every API and dialect."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire._adapters.openai_chat.servers import KNOWN_SERVERS, ChatServer
from toolwire.core import (
    Api,
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    StandardToolCall,
    ToolGroup,
    tool_result_messages,
)


class echo(BaseFunctionToolModel[str, None]):
    """Say what the test hands in ("fail" fails)."""

    def model_tool_handler(self, context: str) -> tuple[str, None]:
        if context == "fail":
            raise ErrorForLLMToSee("it broke")
        return context, None


group = ToolGroup.from_list([echo])
RESULTS = [
    group.run_tool_call(StandardToolCall("function", "call_a1", "echo", "{}"), "first"),
    group.run_tool_call(StandardToolCall("function", "call_b2", "echo", "{}"), "fail"),
    group.run_tool_call(StandardToolCall("function", "call_c3", "nope", "{}"), ""),
    group.run_tool_call(
        StandardToolCall("function", "toolwire_r_3", "echo", "{}", synthesized_id=True), ""
    ),
]
SHORT_IDS = next(server for server in KNOWN_SERVERS if server.call_id_length is not None)


def dumped(messages: list[Any]) -> list[Any]:
    return [
        m.model_dump(mode="json", exclude_none=True) if hasattr(m, "model_dump") else m
        for m in messages
    ]


@pytest.mark.parametrize(
    "api", ["chat.completions", "responses", "anthropic", "gemini", SHORT_IDS], ids=str
)
def test_text_results_render_as_the_general_path_renders_them(api: Api | ChatServer) -> None:
    text_path: list[Any] = tool_result_messages(RESULTS, api)
    general: list[Any] = tool_result_messages(RESULTS, api, media="message")  # not the text path
    assert dumped(text_path) == dumped(general)
    assert [type(m) for m in text_path] == [type(m) for m in general]


def test_a_dialect_with_short_ids_answers_under_its_own_ids() -> None:
    ids = [m.get("tool_call_id") for m in tool_result_messages(RESULTS, SHORT_IDS)]
    assert ids == [SHORT_IDS.call_id(r.call_id) for r in RESULTS]
    assert ids != [r.call_id for r in RESULTS]
