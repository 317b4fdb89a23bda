"""The async twin of gemini_tool.py (`toolwire.aio`): the same loop, awaited; a turn's
calls run concurrently."""

import asyncio
import os

from google import genai
from google.genai import types

from toolwire.aio import (
    BaseFunctionToolModel,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeGemini, FakeReply

# Offline, the fake replies as the model would: it calls the tool, then answers.
OFFLINE = [
    FakeReply.tool_calls(("say_hello", {"name": "Kate"})),
    FakeReply(text="Done: I said hello to Kate for you."),
]
client = (
    genai.Client()
    if os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")
    else FakeGemini(script=OFFLINE).client()
)


class say_hello(BaseFunctionToolModel[None, None]):
    """Say hello to a person."""

    name: str
    """Who to greet."""

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Message delivered to {self.name}.", None


async def main() -> None:
    config = types.GenerateContentConfig(tools=[say_hello.model_tool_definition("gemini")])
    history: list[types.Content] = [
        types.Content(role="user", parts=[types.Part(text="Please say hello to Kate for me.")])
    ]
    while True:
        response = await client.aio.models.generate_content(
            model="gemini-2.5-flash", contents=history, config=config
        )
        history.extend(assistant_messages(response, "gemini"))  # thought signatures kept
        status = turn_status(response, "gemini")
        if status != "tool_calls":
            print(f"[{status}] {response.text}")
            break
        calls = response.function_calls or []
        results = await asyncio.gather(
            *(say_hello.model_tool_run_tool_call(call, None) for call in calls)
        )
        for result in results:
            # Gemini sent no call id: toolwire made one up for you, and never sends it back.
            print(
                f"{result.name}({result.call_id}, synthesized={result.synthesized_id}) -> {result.result_content}"
            )
        history.extend(tool_result_messages(results, "gemini"))


if __name__ == "__main__":
    asyncio.run(main())
