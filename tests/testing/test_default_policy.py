"""The fakes' default policy (no script), shown whole on Chat Completions: what a loop
sees when it does not script the replies. The examples script theirs; this is the
behaviour they replaced, and what `toolwire.testing`'s docs describe."""

from __future__ import annotations

import json

from openai.types.chat import ChatCompletionMessageParam

from toolwire.core import (
    BaseFunctionToolModel,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeOpenAI


class say_hello(BaseFunctionToolModel[None, None]):
    """Say hello to a person."""

    name: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Message delivered to {self.name}.", None


class get_forecast(BaseFunctionToolModel[None, None]):
    """Get the forecast for a city."""

    city: str
    days: int = 3

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city} for {self.days} days.", None


GROUP = ToolGroup.from_list([say_hello, get_forecast])


class Entities(BaseFunctionToolModel[None, None]):
    """The people in the text and the year it happened."""

    people: list[str]
    year: int


def _loop(fake: FakeOpenAI) -> list[str]:
    """Run the usual loop against `fake`; return what each turn said or called."""
    client = fake.client()
    history: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Hello."}]
    seen: list[str] = []
    while True:
        response = client.chat.completions.create(
            model="gpt-4.1", messages=history, tools=GROUP.tool_definitions("chat.completions")
        )
        history += assistant_messages(response, "chat.completions")
        message = response.choices[0].message
        seen += [
            f"{c.function.name}({c.function.arguments})"
            for c in message.tool_calls or []
            if c.type == "function"
        ]
        results = GROUP.run_tool_calls(response, None)
        if not results:
            seen.append(f"text: {message.content}")
            return seen
        seen += [f"-> {r.fail_reason or 'ok'}: {r.result_content}" for r in results]
        history += tool_result_messages(results, "chat.completions")


VALID_ROUND_THEN_ANSWER = [
    'say_hello({"name": "name"})',
    'get_forecast({"city": "city"})',
    "-> ok: Message delivered to name.",
    "-> ok: Sunny in city for 3 days.",
    "text: (offline fake) The tools answered: Message delivered to name.; Sunny in city "
    "for 3 days.",
]
"""A round of calls with minimal valid arguments, their results, and the closing text."""


def test_default_policy_calls_each_tool_once_with_minimal_arguments_then_quotes_results() -> None:
    """Each offered tool is called once, in order, with minimal valid arguments (a string
    is its field's name, required fields only); then a text quotes the results."""
    assert _loop(FakeOpenAI()) == VALID_ROUND_THEN_ANSWER


def test_invalid_arguments_first_sends_invalid_arguments_then_valid_ones() -> None:
    """With `invalid_arguments_first=True`, the first round breaks each tool's schema and
    the next round repeats the calls with valid arguments."""
    assert _loop(FakeOpenAI(invalid_arguments_first=True)) == [
        'say_hello({"name": 100})',
        'get_forecast({"city": 100})',
        "-> invalid_arguments: Invalid arguments for 'say_hello': 1 error. Fix them and call "
        "the tool again.\n- name: Input should be a valid string (got 100)",
        "-> invalid_arguments: Invalid arguments for 'get_forecast': 1 error. Fix them and "
        "call the tool again.\n- city: Input should be a valid string (got 100)",
        *VALID_ROUND_THEN_ANSWER,
    ]


def test_default_policy_answers_structured_output_with_a_minimal_value() -> None:
    """Asked for structured output, the fake answers a minimal valid JSON value (empty
    lists, 1 for an integer, a string named after its field), required fields only."""
    client = FakeOpenAI().client()
    response = client.chat.completions.create(
        model="gpt-4.1",
        messages=[{"role": "user", "content": "Ada met Grace in 1843."}],
        response_format=Entities.model_tool_format("chat.completions"),
    )
    assert json.loads(response.choices[0].message.content or "") == {"people": [], "year": 1}
