"""`SearchResultPart`: a search result a handler returns, as an Anthropic `search_result`
block inside the tool result, and as its text on the other APIs (said in `media_report`)."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
from anthropic.types import MessageParam, SearchResultBlockParam
from pydantic import TypeAdapter

from toolwire.core import (
    Api,
    BaseFunctionToolModel,
    SearchResultPart,
    ToolCallResult,
    ToolGroup,
    assistant_messages,
    media_report,
    tool_result_messages,
)
from toolwire.exceptions import MediaError
from toolwire.mcp._content import mcp_content
from toolwire.testing import FakeAnthropic, check_history

HANDBOOK = SearchResultPart(
    source="https://docs.example.com/handbook",
    title="Employee handbook",
    content=["Leave is 25 days.", "Carry-over ends in March."],
    citations=True,
)
WIKI = SearchResultPart(source="wiki/leave", title="Leave FAQ", content="Ask HR first.")


class search_docs(BaseFunctionToolModel[None, None]):
    """Search the company documents."""

    query: str

    def model_tool_handler(self, context: None) -> tuple[list[Any], None]:
        return ["Two results:", HANDBOOK, WIKI], None


GROUP = ToolGroup[None, None].from_list([search_docs])
CALL = {"type": "tool_use", "id": "toolu_1", "name": "search_docs", "input": {"query": "leave"}}
TEXT = (
    "Two results:\n"
    "[Search result: Employee handbook (source: https://docs.example.com/handbook)]\n"
    "Leave is 25 days.\nCarry-over ends in March.\n"
    "[Search result: Leave FAQ (source: wiki/leave)]\nAsk HR first."
)


def results() -> list[ToolCallResult[None]]:
    return GROUP.run_tool_calls([CALL], None)


def test_anthropic_gets_search_result_blocks_inside_the_tool_result() -> None:
    """The parts in order: text, then one `search_result` block per result (its passages
    as text blocks, citations only where asked), valid `SearchResultBlockParam`s."""
    [message] = tool_result_messages(results(), "anthropic")
    assert message["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": [
                {"type": "text", "text": "Two results:"},
                {
                    "type": "search_result",
                    "source": "https://docs.example.com/handbook",
                    "title": "Employee handbook",
                    "content": [
                        {"type": "text", "text": "Leave is 25 days."},
                        {"type": "text", "text": "Carry-over ends in March."},
                    ],
                    "citations": {"enabled": True},
                },
                {
                    "type": "search_result",
                    "source": "wiki/leave",
                    "title": "Leave FAQ",
                    "content": [{"type": "text", "text": "Ask HR first."}],
                },
            ],
        }
    ]
    blocks: Any = message["content"]
    for block in blocks[0]["content"][1:]:
        TypeAdapter(SearchResultBlockParam).validate_python(block)


def test_the_fake_and_check_history_take_them_through_the_real_client() -> None:
    """A real `anthropic` client sends the answer to `FakeAnthropic` (no 400), and
    `check_history` passes the whole history."""
    fake = FakeAnthropic()
    client = fake.client()
    history: list[MessageParam] = [{"role": "user", "content": "How much leave?"}]
    tools = GROUP.tool_definitions("anthropic")
    first = client.messages.create(
        model="claude-sonnet-4-6", max_tokens=256, messages=history, tools=tools
    )
    history += assistant_messages(first, "anthropic")
    history += tool_result_messages(GROUP.run_tool_calls(first, None), "anthropic")
    assert check_history(history, "anthropic") == []
    second = client.messages.create(
        model="claude-sonnet-4-6", max_tokens=256, messages=history, tools=tools
    )
    assert second.stop_reason == "end_turn"


def test_check_history_refuses_a_search_result_without_its_title() -> None:
    """The live API's required fields: a search result without a title is refused."""
    [message] = tool_result_messages(results(), "anthropic")
    block: Any = message["content"]
    del block[0]["content"][1]["title"]
    turn = {"role": "assistant", "content": [CALL]}
    [problem] = check_history([{"role": "user", "content": "q"}, turn, message], "anthropic")
    assert problem.message == (
        "messages[2] (user) has a search_result block without title (both are required)"
    )
    with pytest.raises(anthropic.BadRequestError, match="search_result block without title"):
        FakeAnthropic().client().messages.create(
            model="claude-sonnet-4-6",
            max_tokens=256,
            messages=[{"role": "user", "content": "q"}, turn, message],  # pyright: ignore[reportArgumentType]
        )


@pytest.mark.parametrize("api", ["chat.completions", "responses", "gemini"])
def test_the_other_apis_read_its_text_and_the_report_says_so(api: Api) -> None:
    """Without search result blocks, the result's text holds each one's title, source and
    passages in place; `media_report` lists them as "text"."""
    [result] = results()
    assert result.result_content == TEXT
    report = media_report([result], api)
    assert [(d.part, d.placement) for d in report.deliveries] == [
        (HANDBOOK, "text"),
        (WIKI, "text"),
    ]
    assert report.undelivered == ()
    assert f"search result 'Leave FAQ' (wiki/leave) from search_docs (toolu_1): text: {api}" in str(
        report
    )
    messages: list[Any] = list(tool_result_messages([result], api))
    message = messages[0]
    if api == "gemini":
        answer: Any = message.parts[0].function_response
        assert answer.response == {"output": TEXT}
    else:
        assert message["output" if api == "responses" else "content"] == TEXT
    anthropic_report = media_report([result], "anthropic")
    assert [d.placement for d in anthropic_report.deliveries] == ["native", "native"]


def test_mcp_gets_its_text() -> None:
    """Served over MCP (no search results there), each is a text block."""
    [result] = results()
    texts = [block.text for block in mcp_content(result.result_parts, result.result_content)]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]
    assert texts == [
        "Two results:",
        "[Search result: Employee handbook (source: https://docs.example.com/handbook)]\n"
        "Leave is 25 days.\nCarry-over ends in March.",
        "[Search result: Leave FAQ (source: wiki/leave)]\nAsk HR first.",
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"source": "", "title": "t", "content": "x"}, "source must be a non-empty str"),
        ({"source": "s", "title": None, "content": "x"}, "title must be a non-empty str"),
        ({"source": "s", "title": "t", "content": []}, "content must be a non-empty str"),
        ({"source": "s", "title": "t", "content": ["a", ""]}, "content must be a non-empty"),
        ({"source": "s", "title": "t", "content": "x", "citations": "yes"}, "citations must"),
    ],
)
def test_a_malformed_search_result_raises_when_made(kwargs: dict[str, Any], message: str) -> None:
    """What no API would take fails when the part is made, saying what it needs."""
    with pytest.raises(MediaError, match=message):
        SearchResultPart(**kwargs)
