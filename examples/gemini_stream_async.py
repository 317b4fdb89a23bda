"""Async streaming on Gemini (`client.aio`): text as it arrives, each call started the
moment it lands, until the model answers without tools."""

import asyncio
import os

from google import genai
from google.genai import types

from toolwire.aio import (
    BaseFunctionToolModel,
    ReasoningDelta,
    TextDelta,
    ToolCallCompleted,
    ToolCallResult,
    ToolCallStream,
    ToolGroup,
    TurnEnded,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeGemini

client = (
    genai.Client()
    if os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")
    else FakeGemini().client()
)


class CreateFile(BaseFunctionToolModel[dict[str, str], None]):
    """Create a text file."""

    model_tool_custom_name = "create_file"

    path: str
    content: str

    async def model_tool_handler(self, context: dict[str, str]) -> tuple[str, None]:
        context[self.path] = self.content
        return f"Wrote {len(self.content)} characters to {self.path}.", None


tools = ToolGroup.from_list([CreateFile])


async def main() -> None:
    files: dict[str, str] = {}  # the handlers' context: an in-memory disk
    config = types.GenerateContentConfig(tools=tools.tool_definitions("gemini"))
    history: list[types.Content] = [
        types.Content(role="user", parts=[types.Part(text="Write a haiku to haiku.txt.")])
    ]
    while True:
        stream = ToolCallStream("gemini")
        mid_line = False  # streamed text has started a line
        running: list[asyncio.Task[ToolCallResult[None]]] = []
        async for chunk in await client.aio.models.generate_content_stream(
            model="gemini-2.5-flash", contents=history, config=config
        ):
            for event in stream.feed(chunk):
                if isinstance(event, TextDelta):
                    print(event.text, end="", flush=True)
                    mid_line = True
                    continue
                if mid_line:  # end the text line before anything else
                    print()
                    mid_line = False
                if isinstance(event, ReasoningDelta):
                    print(f"(thinking) {event.text}")
                elif isinstance(event, ToolCallCompleted):
                    # Gemini streams whole calls: each one starts while the stream goes on.
                    print(f"-> {event.call.name}({event.call.input})")
                    running.append(asyncio.create_task(tools.run_tool_call(event.call, files)))
                elif isinstance(event, TurnEnded):
                    print(f"[{event.status}]")
        response = stream.final_response()  # a GenerateContentResponse, as if not streamed
        results = list(await asyncio.gather(*running))  # in call order
        history.extend(assistant_messages(response, "gemini"))  # signatures kept
        if not results:
            break
        history.extend(tool_result_messages(results, "gemini"))
    print(f"Files: {files}")


if __name__ == "__main__":
    asyncio.run(main())
