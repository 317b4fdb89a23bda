"""The async twin of chat_stream.py (`toolwire.aio`): each call starts running the
moment it is complete, while the rest of the turn still streams."""

import asyncio
import os

from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.aio import (
    BaseFunctionToolModel,
    ReasoningDelta,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallResult,
    ToolCallStarted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    TurnEnded,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply

PAGE = "<!doctype html>\n<h1>Hello, and welcome!</h1>\n"
# Offline, the fake streams what the model would: a sentence and a call, then the answer.
OFFLINE = [
    FakeReply(
        text="I'll write the page now.",
        calls=(FakeCall("create_file", {"path": "index.html", "content": PAGE}),),
    ),
    FakeReply(text='index.html now greets visitors with "Hello, and welcome!".'),
]
client = (
    AsyncOpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).async_client()
)


class create_file(BaseFunctionToolModel[dict[str, str], None]):
    """Create a text file."""

    path: str
    content: str

    async def model_tool_handler(self, context: dict[str, str]) -> tuple[str, None]:
        context[self.path] = self.content
        return f"Created {self.path} ({len(self.content)} characters).", None


tools = ToolGroup.from_list([create_file])


async def main() -> None:
    files: dict[str, str] = {}  # the handlers' context: an in-memory disk
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Create index.html with a friendly greeting."}
    ]
    while True:
        stream = ToolCallStream("chat.completions")
        running: list[asyncio.Task[ToolCallResult[None]]] = []
        items = await client.chat.completions.create(
            model="gpt-4.1",
            messages=history,
            tools=tools.tool_definitions("chat.completions"),
            stream=True,
        )
        async for item in items:
            for event in stream.feed(item):
                if isinstance(event, TextDelta | ReasoningDelta):
                    print(f"{type(event).__name__}: {event.text!r}")
                elif isinstance(event, ToolCallStarted):
                    print(f"ToolCallStarted: {event.name} ({event.call_id})")
                elif isinstance(event, ToolCallArgumentsDelta) and event.string_delta:
                    # A live preview: the text this fragment added to a string argument
                    # (event.partial_arguments has all the arguments parsed so far).
                    path = "/".join(map(str, event.string_delta.path))
                    print(f"ToolCallArgumentsDelta: {path} += {event.string_delta.text!r}")
                elif isinstance(event, ToolCallCompleted | ToolCallTruncated):
                    # Run each call as soon as it is complete (a truncated one gets a
                    # "truncated" failure asking the model to retry).
                    print(f"{type(event).__name__}: {event.call.name} ({event.call.id})")
                    running.append(asyncio.create_task(tools.run_tool_call(event.call, files)))
                elif isinstance(event, TurnEnded):
                    print(f"TurnEnded: {event.status} ({event.stop_reason})")
        results = await asyncio.gather(*running)  # in call order
        response = stream.final_response()  # a ChatCompletion
        history.extend(assistant_messages(response, "chat.completions"))
        if not results:
            print(f"Answer: {response.choices[0].message.content}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "chat.completions"))


if __name__ == "__main__":
    asyncio.run(main())
