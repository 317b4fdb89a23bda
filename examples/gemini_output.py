"""Structured output on Gemini, retrying when the answer fails validation."""

import os

import pydantic
from google import genai
from google.genai import types

from toolwire.core import BaseFunctionToolModel, assistant_messages, turn_status
from toolwire.testing import FakeGemini, FakeReply

# Offline, the fake's first answer is cut off by the output token limit, to show the
# retry path (Gemini follows the schema, so a complete answer fits it).
OFFLINE = [
    FakeReply(text='{"people": ["Ada", "Grace"], "places": ["Lon', stop="length"),
    FakeReply(
        text='{"people": ["Ada", "Grace"], "places": ["London"], "numbers": [1843, 2], "language": "en"}'
    ),
]
client = (
    genai.Client()
    if os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")
    else FakeGemini(script=OFFLINE).client()
)


class Entities(BaseFunctionToolModel[None, None]):
    """The people, places and numbers mentioned in the text."""

    people: list[str]
    places: list[str]
    numbers: list[int]
    language: str = "en"
    """ISO 639-1 code of the text's language."""


def extract(text: str, attempts: int = 3) -> Entities:
    # response_mime_type="application/json" and response_json_schema=<Gemini's subset>.
    config = types.GenerateContentConfig(
        system_instruction="Extract entities from the user's text.",
        **Entities.model_tool_format("gemini"),
    )
    history: list[types.Content] = [types.Content(role="user", parts=[types.Part(text=text)])]
    for attempt in range(1, attempts + 1):
        response = client.models.generate_content(
            model="gemini-2.5-flash", contents=history, config=config
        )
        status = turn_status(response, "gemini")
        if status == "refused":
            raise RuntimeError("The model declined to answer.")
        history.extend(assistant_messages(response, "gemini"))
        try:
            return Entities.model_validate_json(response.text or "")
        except pydantic.ValidationError as error:
            print(f"Attempt {attempt} ({status}) failed validation: {error.error_count()} error(s)")
            fix = "Your answer was cut off; answer more briefly. " if status == "truncated" else ""
            fix += f"Fix these errors:\n{error}"
            history.append(types.Content(role="user", parts=[types.Part(text=fix)]))
    raise RuntimeError(f"No valid answer after {attempts} attempts.")


def main() -> None:
    entities = extract("Ada met Grace in London in 1843 and again 2 years later.")
    print(repr(entities))


if __name__ == "__main__":
    main()
