"""Streaming on Anthropic Messages: every event as it arrives (thinking, text, a call
starting, a live preview of its arguments, the call complete and run at once, the turn
ending), then the answer read from the final message the stream folds into."""

import os

from anthropic import Anthropic
from anthropic.types import MessageParam

from toolwire.core import (
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
    TurnStatus,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic, FakeCall, FakeReply

PAGE = "<!doctype html>\n<h1>Hello, and welcome!</h1>\n"
# Offline, the fake streams what the model would: a sentence and a call, then the answer.
OFFLINE = [
    FakeReply(
        thinking="A greeting page: one heading is enough.",
        text="I'll write the page now.",
        calls=(FakeCall("create_file", {"path": "index.html", "content": PAGE}),),
    ),
    FakeReply(text='index.html now greets visitors with "Hello, and welcome!".'),
]
client = (
    Anthropic() if os.environ.get("ANTHROPIC_API_KEY") else FakeAnthropic(script=OFFLINE).client()
)


class create_file(BaseFunctionToolModel[dict[str, str], None]):
    """Create a text file."""

    path: str
    content: str

    def model_tool_handler(self, context: dict[str, str]) -> tuple[str, None]:
        context[self.path] = self.content
        return f"Created {self.path} ({len(self.content)} characters).", None


tools = ToolGroup.from_list([create_file])


def main() -> None:
    files: dict[str, str] = {}  # the handlers' context: an in-memory disk
    history: list[MessageParam] = [
        {"role": "user", "content": "Create index.html with a friendly greeting."}
    ]
    while True:
        stream = ToolCallStream("anthropic")
        results: list[ToolCallResult[None]] = []
        status: TurnStatus = "done"
        items = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            thinking={"type": "enabled", "budget_tokens": 2048},
            messages=history,
            tools=tools.tool_definitions("anthropic"),
            stream=True,
        )
        for item in items:
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
                    results.append(tools.run_tool_call(event.call, files))
                elif isinstance(event, TurnEnded):
                    status = event.status
                    print(f"TurnEnded: {event.status} ({event.stop_reason})")
        response = stream.final_response()  # a Message, thinking block and signature kept
        history.extend(assistant_messages(response, "anthropic"))
        if status == "paused":
            continue  # send the paused turn back unchanged to let the model go on
        if not results:
            answer = "".join(block.text for block in response.content if block.type == "text")
            print(f"Answer: {answer}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "anthropic"))


if __name__ == "__main__":
    main()
