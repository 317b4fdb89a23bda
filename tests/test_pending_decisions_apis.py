"""Issue 27's "must show", on all four APIs, streamed and not: edited, answered, refused
and approved calls of one response give one result per call id, exactly once, and the
history passes `check_history` and the fake server of that API (which answers HTTP 400
for a history the live API would reject), through the real SDK clients."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from google.genai import types as genai

from toolwire.core import (
    Api,
    BaseFunctionToolModel,
    PendingCall,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic, FakeGemini, FakeOpenAI, FakeReply, check_history

RAN: list[str] = []


class send_email(BaseFunctionToolModel[None, None]):
    """Send an email."""

    model_tool_requires_approval = True
    to: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(self.to)
        return f"Sent to {self.to}.", None


class pick_color(BaseFunctionToolModel[None, None]):
    """Ask the user to pick a color in the app."""

    model_tool_external = True
    prompt: str


TOOLS = ToolGroup.from_list([send_email, pick_color])
SCRIPT = [
    FakeReply.tool_calls(
        ("send_email", {"to": "bob@example.com"}),
        ("send_email", {"to": "eve@example.com"}),
        ("pick_color", {"prompt": "Which color?"}),
        ("send_email", {"to": "ann@example.com"}),
    ),
    FakeReply(text="Done."),
]
PROMPT = "Email my friends and ask me for a color."


def decide(pending: list[PendingCall[Any]]) -> list[Any]:
    """Edited, refused, answered and approved: one of each."""
    edited, refused, color, approved = pending
    return [
        edited.edit({"to": "alice@example.com"}),
        refused.refuse("The user does not email Eve."),
        color.answer("The user picked teal."),
        approved,
    ]


def fake_of(api: Api) -> Any:
    """The API's fake server, scripted with `SCRIPT`."""
    if api in ("chat.completions", "responses"):
        return FakeOpenAI(script=SCRIPT)
    return FakeAnthropic(script=SCRIPT) if api == "anthropic" else FakeGemini(script=SCRIPT)


def ask(api: Api, fake: Any, history: list[Any], streamed: bool = False) -> Any:
    """One request to `fake` through the API's real SDK client: its response, folded by
    `ToolCallStream` when `streamed`."""
    client: Any = fake.client()
    tools: Any = TOOLS.tool_definitions(api)
    if api == "chat.completions":
        items = client.chat.completions.create(model="gpt-4.1", messages=history, tools=tools, stream=streamed)  # fmt: skip
    elif api == "responses":
        items = client.responses.create(model="gpt-4.1", input=history, tools=tools, stream=streamed)  # fmt: skip
    elif api == "anthropic":
        items = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1000,
            messages=history,
            tools=tools,
            stream=streamed,
        )
    else:
        config = genai.GenerateContentConfig(tools=tools)
        send = client.models.generate_content_stream if streamed else client.models.generate_content
        items = send(model="gemini-2.5-flash", contents=history, config=config)
    if not streamed:
        return items
    stream = ToolCallStream(api)
    for item in items:
        stream.feed(item)
    return stream.final_response()


def first_turn(api: Api) -> list[Any]:
    if api == "gemini":
        return [genai.Content(role="user", parts=[genai.Part(text=PROMPT)])]
    return [{"role": "user", "content": PROMPT}]


@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("api", ["chat.completions", "responses", "anthropic", "gemini"])
def test_every_kind_of_decision_in_one_batch_answers_each_call_once(
    api: Api, streamed: bool
) -> None:
    RAN.clear()
    history = first_turn(api)
    fake = fake_of(api)
    response = ask(api, fake, history, streamed)
    history.extend(assistant_messages(response, api))
    pending = TOOLS.prepare_tool_calls(response)
    assert [p.external for p in pending] == [False, False, True, False]
    results = TOOLS.run_pending(decide(pending), None)
    ids = [p.call.id for p in pending]
    assert [r.call_id for r in results] == ids and len(set(ids)) == 4
    assert Counter(r.call_id for r in results) == dict.fromkeys(ids, 1)
    assert [(r.fail_reason, r.result_content.splitlines()[-1]) for r in results] == [
        (None, "Sent to alice@example.com."),
        ("refused", "The user does not email Eve."),
        (None, "The user picked teal."),
        (None, "Sent to ann@example.com."),
    ]
    assert RAN == ["alice@example.com", "ann@example.com"]
    history.extend(tool_result_messages(results, api))
    assert check_history(history, api) == []
    # The fake refuses (HTTP 400) what the live API would: it takes this history.
    assert TOOLS.prepare_tool_calls(ask(api, fake, history, streamed)) == []
