"""The async twin of chat_output.py (`toolwire.aio`): the same retry loop, awaited."""

import asyncio
import os

import pydantic
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.aio import BaseFunctionToolModel, assistant_messages
from toolwire.testing import FakeOpenAI, FakeReply

# Offline, the fake's first answer spells a number out, which fails validation, to show
# the retry path; the second is valid.
OFFLINE = [
    FakeReply(text='{"people": ["Ada", "Grace"], "places": ["London"], "numbers": [1843, "two"]}'),
    FakeReply(
        text='{"people": ["Ada", "Grace"], "places": ["London"], "numbers": [1843, 2], "language": "en"}'
    ),
]
client = (
    AsyncOpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).async_client()
)


class Entities(BaseFunctionToolModel[None, None]):
    """The people, places and numbers mentioned in the text."""

    people: list[str]
    places: list[str]
    numbers: list[int]
    language: str = "en"
    """ISO 639-1 code of the text's language."""


async def extract(text: str, attempts: int = 3) -> Entities:
    history: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": "Extract entities from the user's text."},
        {"role": "user", "content": text},
    ]
    for attempt in range(1, attempts + 1):
        response = await client.chat.completions.create(
            model="gpt-4.1",
            messages=history,
            response_format=Entities.model_tool_format("chat.completions"),
        )
        history.extend(assistant_messages(response, "chat.completions"))
        content = response.choices[0].message.content or ""
        try:
            return Entities.model_validate_json(content)
        except pydantic.ValidationError as error:
            print(f"Attempt {attempt} failed validation: {error.error_count()} error(s)")
            history.append({"role": "user", "content": f"Fix these errors:\n{error}"})
    raise RuntimeError(f"No valid answer after {attempts} attempts.")


async def main() -> None:
    entities = await extract("Ada met Grace in London in 1843 and again 2 years later.")
    print(repr(entities))


if __name__ == "__main__":
    asyncio.run(main())
