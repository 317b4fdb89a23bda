"""The async twin of anthropic_output.py (`toolwire.aio`): the same retry loop, awaited."""

import asyncio
import os

import pydantic
from anthropic import AsyncAnthropic
from anthropic.types import MessageParam

from toolwire.aio import BaseFunctionToolModel, assistant_messages, turn_status
from toolwire.testing import FakeAnthropic, FakeReply

# Offline, the fake's first answer is cut off by max_tokens, to show the retry path
# (Anthropic enforces the schema, so a complete answer always fits it).
OFFLINE = [
    FakeReply(text='{"people": ["Ada", "Grace"], "places": ["Lon', stop="length"),
    FakeReply(
        text='{"people": ["Ada", "Grace"], "places": ["London"], "numbers": [1843, 2], "language": "en"}'
    ),
]
client = (
    AsyncAnthropic()
    if os.environ.get("ANTHROPIC_API_KEY")
    else FakeAnthropic(script=OFFLINE).async_client()
)


class Entities(BaseFunctionToolModel[None, None]):
    """The people, places and numbers mentioned in the text."""

    people: list[str]
    places: list[str]
    numbers: list[int]
    language: str = "en"
    """ISO 639-1 code of the text's language."""


async def extract(text: str, attempts: int = 3) -> Entities:
    history: list[MessageParam] = [{"role": "user", "content": text}]
    for attempt in range(1, attempts + 1):
        message = await client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            system="Extract entities from the user's text.",
            messages=history,
            output_config={"format": Entities.model_tool_format("anthropic")},
        )
        status = turn_status(message, "anthropic")
        if status == "refused":
            raise RuntimeError("The model declined to answer.")
        history.extend(assistant_messages(message, "anthropic"))
        content = "".join(block.text for block in message.content if block.type == "text")
        try:
            return Entities.model_validate_json(content)
        except pydantic.ValidationError as error:
            print(f"Attempt {attempt} ({status}) failed validation: {error.error_count()} error(s)")
            fix = "Your answer was cut off; answer more briefly. " if status == "truncated" else ""
            history.append({"role": "user", "content": f"{fix}Fix these errors:\n{error}"})
    raise RuntimeError(f"No valid answer after {attempts} attempts.")


async def main() -> None:
    entities = await extract("Ada met Grace in London in 1843 and again 2 years later.")
    print(repr(entities))


if __name__ == "__main__":
    asyncio.run(main())
