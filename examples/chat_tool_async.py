"""The async twin of chat_tool.py (`toolwire.aio`): the same loop, awaited; a turn's
calls run concurrently."""

import asyncio
import os

from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.aio import (
    BaseFunctionToolModel,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeOpenAI, FakeReply

# Offline, the fake replies as the model would: it calls the tool, then answers.
OFFLINE = [
    FakeReply.tool_calls(("say_hello", {"name": "Kate"})),
    FakeReply(text="Done: I said hello to Kate for you."),
]
client = (
    AsyncOpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).async_client()
)


class say_hello(BaseFunctionToolModel[None, None]):
    """Say hello to a person."""

    name: str
    """Who to greet."""

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Message delivered to {self.name}.", None


async def main() -> None:
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Please say hello to Kate for me."}
    ]
    while True:
        response = await client.chat.completions.create(
            model="gpt-4.1",
            messages=history,
            tools=[say_hello.model_tool_definition("chat.completions")],
        )
        history.extend(assistant_messages(response, "chat.completions"))
        status = turn_status(response, "chat.completions")
        if status != "tool_calls":
            print(f"[{status}] {response.choices[0].message.content}")
            break
        calls = response.choices[0].message.tool_calls or []
        results = await asyncio.gather(
            *(say_hello.model_tool_run_tool_call(call, None) for call in calls)
        )
        for result in results:
            print(f"{result.name}({result.call_id}) -> {result.result_content}")
        history.extend(tool_result_messages(results, "chat.completions"))


if __name__ == "__main__":
    asyncio.run(main())
