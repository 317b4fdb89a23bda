"""One async tool, Chat Completions: the same loop as chat_tool.py, awaited."""

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
from toolwire.testing import FakeOpenAI

client = AsyncOpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI().async_client()


class say_hello(BaseFunctionToolModel[None, None]):
    """Say hello to a person."""

    name: str
    """Who to greet."""

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        await asyncio.sleep(0)  # e.g. an HTTP call
        return f"Message delivered to {self.name}.", None


async def main() -> None:
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Please say hello to Kate and to John for me."}
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
