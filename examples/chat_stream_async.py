"""Async streaming on Chat Completions: each call starts running as soon as it is
complete, while the rest of the turn is still streaming."""

import asyncio
import os

from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.aio import (
    BaseFunctionToolModel,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallResult,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeOpenAI

client = AsyncOpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI().async_client()


class create_file(BaseFunctionToolModel[dict[str, str], None]):
    """Create a text file."""

    path: str
    content: str

    async def model_tool_handler(self, context: dict[str, str]) -> tuple[str, None]:
        await asyncio.sleep(0)  # e.g. write it to object storage
        context[self.path] = self.content
        return f"Created {self.path} ({len(self.content)} characters).", None


tools = ToolGroup.from_list([create_file])


async def main() -> None:
    files: dict[str, str] = {}
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Create index.html with a friendly greeting."}
    ]
    while True:
        stream = ToolCallStream("chat.completions")
        running: list[asyncio.Task[ToolCallResult[None]]] = []
        chunks = await client.chat.completions.create(
            model="gpt-4.1",
            messages=history,
            tools=tools.tool_definitions("chat.completions"),
            stream=True,
        )
        async for chunk in chunks:
            for event in stream.feed(chunk):
                if isinstance(event, TextDelta):
                    print(event.text, end="", flush=True)
                elif isinstance(event, ToolCallArgumentsDelta):
                    print(f"[{event.name} preview: {event.partial_arguments}]")
                elif isinstance(event, ToolCallCompleted | ToolCallTruncated):
                    running.append(asyncio.create_task(tools.run_tool_call(event.call, files)))
        history.extend(assistant_messages(stream.final_response(), "chat.completions"))
        if not running:
            print()
            break
        results = await asyncio.gather(*running)  # in call order
        history.extend(tool_result_messages(results, "chat.completions"))
    print(f"Files: {files}")


if __name__ == "__main__":
    asyncio.run(main())
