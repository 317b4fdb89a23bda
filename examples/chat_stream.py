"""Streaming on Chat Completions: text as it arrives, a live preview of the file being
written, each call run as soon as it is complete, until the model answers without tools."""

import os

from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.core import (
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
from toolwire.testing import FakeOpenAI

client = OpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI().client()


class create_file(BaseFunctionToolModel[dict[str, str], None]):
    """Create a text file."""

    path: str
    content: str

    def model_tool_handler(self, context: dict[str, str]) -> tuple[str, None]:
        context[self.path] = self.content
        return f"Created {self.path} ({len(self.content)} characters).", None


tools = ToolGroup.from_list([create_file])


def main() -> None:
    files: dict[str, str] = {}
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Create index.html with a friendly greeting."}
    ]
    while True:
        stream = ToolCallStream("chat.completions")
        results: list[ToolCallResult[None]] = []
        chunks = client.chat.completions.create(
            model="gpt-4.1",
            messages=history,
            tools=tools.tool_definitions("chat.completions"),
            stream=True,
        )
        for chunk in chunks:
            for event in stream.feed(chunk):
                if isinstance(event, TextDelta):
                    print(event.text, end="", flush=True)
                elif isinstance(event, ToolCallArgumentsDelta) and event.string_delta:
                    # Drive a live preview cheaply: the text just appended to a string value.
                    print(
                        f"[{event.name} {'/'.join(map(str, event.string_delta.path))}"
                        f" += {event.string_delta.text!r}]"
                    )
                elif isinstance(event, ToolCallCompleted | ToolCallTruncated):
                    # Run each call as soon as it is complete (a truncated one gets a
                    # "truncated" failure asking the model to retry).
                    results.append(tools.run_tool_call(event.call, files))
                elif isinstance(event, TurnEnded):
                    print(f"\n[turn ended: {event.status}]")
        history.extend(assistant_messages(stream.final_response(), "chat.completions"))
        if not results:
            break
        history.extend(tool_result_messages(results, "chat.completions"))
    print(f"Files: {files}")


if __name__ == "__main__":
    main()
