"""Streaming on Responses: every event as it arrives (text, a call starting, a live preview
of its arguments, the call complete and run at once, the turn ending), then the answer
read from the final response the stream folds into."""

import os

from openai import OpenAI
from openai.types.responses import ResponseInputItemParam

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
client = OpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).client()


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
    history: list[ResponseInputItemParam] = [
        {"role": "user", "content": "Create index.html with a friendly greeting."}
    ]
    while True:
        stream = ToolCallStream("responses")
        results: list[ToolCallResult[None]] = []
        items = client.responses.create(
            model="gpt-4.1",
            input=history,
            tools=tools.tool_definitions("responses"),
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
                    print(f"TurnEnded: {event.status} ({event.stop_reason})")
        response = stream.final_response()  # a Response, reasoning items kept
        history.extend(assistant_messages(response, "responses"))
        if not results:
            print(f"Answer: {response.output_text}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "responses"))


if __name__ == "__main__":
    main()
