"""Streaming on Responses: text as it arrives, a growing preview of the arguments being
written, each call run as soon as it is complete, until the model answers without tools."""

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
    history: list[ResponseInputItemParam] = [
        {"role": "user", "content": "Create index.html with a friendly greeting."}
    ]
    while True:
        stream = ToolCallStream("responses")
        results: list[ToolCallResult[None]] = []
        events = client.responses.create(
            model="gpt-4.1",
            input=history,
            tools=tools.tool_definitions("responses"),
            stream=True,
        )
        for raw in events:
            for event in stream.feed(raw):
                if isinstance(event, TextDelta):
                    print(event.text, end="", flush=True)
                elif isinstance(event, ReasoningDelta):
                    print(f"(thinking: {event.text})", end="", flush=True)
                elif isinstance(event, ToolCallArgumentsDelta):
                    # The arguments parsed so far: enough to show a file as it is written.
                    print(f"[{event.name} preview: {event.partial_arguments}]")
                elif isinstance(event, ToolCallCompleted | ToolCallTruncated):
                    # Run each call as soon as it is complete (a truncated one gets a
                    # "truncated" failure asking the model to retry with less).
                    results.append(tools.run_tool_call(event.call, files))
                elif isinstance(event, TurnEnded):
                    print(f"\n[turn ended: {event.status}]")
        # The final Response carries the reasoning items the API wants back.
        history.extend(assistant_messages(stream.final_response(), "responses"))
        if not results:
            break
        history.extend(tool_result_messages(results, "responses"))
    print(f"Files: {files}")


if __name__ == "__main__":
    main()
