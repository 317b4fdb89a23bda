"""Async streaming on Anthropic Messages: each call starts running as soon as it is
complete, while the rest of the turn is still streaming."""

import asyncio
import os

from anthropic import AsyncAnthropic
from anthropic.types import MessageParam

from toolwire.aio import (
    BaseFunctionToolModel,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallResult,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    TurnEnded,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic

client = AsyncAnthropic() if os.environ.get("ANTHROPIC_API_KEY") else FakeAnthropic().async_client()


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
    history: list[MessageParam] = [
        {"role": "user", "content": "Create index.html with a friendly greeting."}
    ]
    while True:
        stream = ToolCallStream("anthropic")
        running: list[asyncio.Task[ToolCallResult[None]]] = []
        paused = False
        events = await client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            messages=history,
            tools=tools.tool_definitions("anthropic"),
            stream=True,
        )
        async for raw_event in events:
            for event in stream.feed(raw_event):
                if isinstance(event, TextDelta):
                    print(event.text, end="", flush=True)
                elif isinstance(event, ToolCallArgumentsDelta):
                    print(f"[{event.name} preview: {event.partial_arguments}]")
                elif isinstance(event, ToolCallCompleted | ToolCallTruncated):
                    running.append(asyncio.create_task(tools.run_tool_call(event.call, files)))
                elif isinstance(event, TurnEnded):
                    paused = event.status == "paused"
        history.extend(assistant_messages(stream.final_response(), "anthropic"))
        if paused:
            continue  # send the paused turn back unchanged to let the model go on
        if not running:
            print()
            break
        results = await asyncio.gather(*running)  # in call order
        history.extend(tool_result_messages(results, "anthropic"))
    print(f"Files: {files}")


if __name__ == "__main__":
    asyncio.run(main())
