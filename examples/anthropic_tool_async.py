"""The async twin of anthropic_tool.py (`toolwire.aio`): the same loop, awaited; a turn's
calls run concurrently."""

import asyncio
import os

from anthropic import AsyncAnthropic
from anthropic.types import Message, MessageParam

from toolwire.aio import (
    BaseFunctionToolModel,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeAnthropic, FakeReply

# Offline, the fake replies as the model would: it calls the tool, then answers.
OFFLINE = [
    FakeReply.tool_calls(("say_hello", {"name": "Kate"})),
    FakeReply(text="Done: I said hello to Kate for you."),
]
client = (
    AsyncAnthropic()
    if os.environ.get("ANTHROPIC_API_KEY")
    else FakeAnthropic(script=OFFLINE).async_client()
)


class say_hello(BaseFunctionToolModel[None, None]):
    """Say hello to a person."""

    name: str
    """Who to greet."""

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Message delivered to {self.name}.", None


def text_of(message: Message) -> str:
    return "".join(block.text for block in message.content if block.type == "text")


async def main() -> None:
    history: list[MessageParam] = [{"role": "user", "content": "Please say hello to Kate for me."}]
    while True:
        message = await client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=history,
            tools=[say_hello.model_tool_definition("anthropic")],
        )
        history.extend(assistant_messages(message, "anthropic"))
        status = turn_status(message, "anthropic")
        if status == "paused":
            continue  # a long server-tool turn paused: send it back unchanged to resume it
        calls = [block for block in message.content if block.type == "tool_use"]
        if not calls:  # "done", "refused", or "truncated" in the middle of its text
            print(f"[{status}] {text_of(message)}")
            break
        # On "truncated", the call cut off by max_tokens gets a "truncated" failure that
        # asks the model to retry; the complete ones run normally.
        results = await asyncio.gather(
            *(say_hello.model_tool_run_tool_call(call, None) for call in calls)
        )
        for result in results:
            print(f"{result.name}({result.call_id}) -> {result.result_content}")
        history.extend(tool_result_messages(results, "anthropic"))


if __name__ == "__main__":
    asyncio.run(main())
