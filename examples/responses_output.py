"""Structured output on Responses (`text={"format": ...}`), retrying when the answer
fails validation, and stopping on a refusal or a cut answer."""

import os

import pydantic
from openai import OpenAI
from openai.types.responses import ResponseInputItemParam

from toolwire.core import BaseFunctionToolModel, assistant_messages, turn_status
from toolwire.testing import FakeOpenAI, FakeReply

# Offline, the fake's first answer spells a number out, which fails validation, to show
# the retry path; the second is valid.
OFFLINE = [
    FakeReply(text='{"people": ["Ada", "Grace"], "places": ["London"], "numbers": [1843, "two"]}'),
    FakeReply(
        text='{"people": ["Ada", "Grace"], "places": ["London"], "numbers": [1843, 2], "language": "en"}'
    ),
]
client = OpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).client()


class Entities(BaseFunctionToolModel[None, None]):
    """The people, places and numbers mentioned in the text."""

    people: list[str]
    places: list[str]
    numbers: list[int]
    language: str = "en"
    """ISO 639-1 code of the text's language."""


def extract(text: str, attempts: int = 3) -> Entities:
    history: list[ResponseInputItemParam] = [
        {"role": "developer", "content": "Extract entities from the user's text."},
        {"role": "user", "content": text},
    ]
    for attempt in range(1, attempts + 1):
        response = client.responses.create(
            model="gpt-4.1",
            input=history,
            text={"format": Entities.model_tool_format("responses")},
        )
        status = turn_status(response, "responses")
        if status in ("refused", "truncated"):
            raise RuntimeError(f"The model gave no usable answer ({status}).")
        history.extend(assistant_messages(response, "responses"))
        try:
            return Entities.model_validate_json(response.output_text)
        except pydantic.ValidationError as error:
            print(f"Attempt {attempt} failed validation: {error.error_count()} error(s)")
            history.append({"role": "user", "content": f"Fix these errors:\n{error}"})
    raise RuntimeError(f"No valid answer after {attempts} attempts.")


def main() -> None:
    entities = extract("Ada met Grace in London in 1843 and again 2 years later.")
    print(repr(entities))


if __name__ == "__main__":
    main()
