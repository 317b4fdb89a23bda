"""Strict structured output, end to end on every API: the compiled format goes out through
the real SDK client, the model's JSON (with nulls for defaulted fields and a dict sent as
key/value pairs) comes back, and the class's own validation restores the Python values."""

from __future__ import annotations

import json
from typing import Any

import pydantic
import pytest
from google.genai import types as genai

from toolwire.core import BaseFunctionToolModel
from toolwire.exceptions import SchemaError
from toolwire.testing import FakeAnthropic, FakeGemini, FakeOpenAI, FakeReply


class Address(pydantic.BaseModel):
    street: str
    city: str = "Paris"


class Order(BaseFunctionToolModel[None, None]):
    """An order extracted from the text."""

    model_tool_strict = True

    item: str
    quantity: int = 1
    address: Address
    notes: str | None = "none"
    prices: dict[str, float] = {}


SENT = {
    "item": "book",
    "quantity": None,
    "address": {"street": "Rue 1", "city": None},
    "notes": None,
    "prices": [{"key": "book", "value": 9.5}],
}
EXPECTED = Order(item="book", address=Address(street="Rue 1"), notes=None, prices={"book": 9.5})


def test_chat_completions() -> None:
    """response_format is strict and closed; nulls and pairs parse back."""
    fake = FakeOpenAI(script=[FakeReply(text=json.dumps(SENT))])
    fmt = Order.model_tool_format("chat.completions")
    completion = fake.client().chat.completions.create(
        model="m", messages=[{"role": "user", "content": "x"}], response_format=fmt
    )
    sent_format: Any = fake.requests[0]["response_format"]["json_schema"]
    assert sent_format["strict"] is True
    assert sent_format["schema"]["additionalProperties"] is False
    assert sorted(sent_format["schema"]["required"]) == [
        "address",
        "item",
        "notes",
        "prices",
        "quantity",
    ]
    assert Order.model_validate_json(completion.choices[0].message.content or "") == EXPECTED


def test_responses() -> None:
    """text.format is strict; the output text parses back the same way."""
    fake = FakeOpenAI(script=[FakeReply(text=json.dumps(SENT))])
    response = fake.client().responses.create(
        model="m", input="x", text={"format": Order.model_tool_format("responses")}
    )
    assert fake.requests[0]["text"]["format"]["strict"] is True
    assert Order.model_validate_json(response.output_text) == EXPECTED


def test_anthropic() -> None:
    """output_config.format is compiled to Anthropic's strict subset."""
    fake = FakeAnthropic(script=[FakeReply(text=json.dumps(SENT))])
    message = fake.client().messages.create(
        model="m",
        max_tokens=100,
        messages=[{"role": "user", "content": "x"}],
        output_config={"format": Order.model_tool_format("anthropic")},
    )
    schema: Any = fake.requests[0]["output_config"]["format"]["schema"]
    assert schema["additionalProperties"] is False
    text = "".join(b.text for b in message.content if b.type == "text")
    assert Order.model_validate_json(text) == EXPECTED


def test_gemini() -> None:
    """response_json_schema is the portable strict compilation for Gemini."""
    fake = FakeGemini(script=[FakeReply(text=json.dumps(SENT))])
    config = genai.GenerateContentConfig(**Order.model_tool_format("gemini"))
    response = fake.client().models.generate_content(model="gemini-x", contents="x", config=config)
    assert response.text is not None
    assert Order.model_validate_json(response.text) == EXPECTED


def test_non_strict_class_needing_the_plan_is_refused_for_anthropic_output() -> None:
    """Anthropic always enforces formats; a non-strict class with a dict field cannot parse
    the pairs back, so asking for its format raises, saying to make it strict."""

    class Loose(BaseFunctionToolModel[None, None]):
        prices: dict[str, float]

    with pytest.raises(SchemaError, match="Set `model_tool_strict = True` on Loose"):
        Loose.model_tool_format("anthropic")
