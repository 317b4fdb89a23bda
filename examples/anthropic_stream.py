"""Streaming on Anthropic Messages: thinking and text as they arrive, a live preview of the
file being written, each call run as soon as it is complete, until the model answers
without tools."""

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
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    TurnEnded,
    TurnStatus,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic

client = Anthropic() if os.environ.get("ANTHROPIC_API_KEY") else FakeAnthropic().client()


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
    history: list[MessageParam] = [
        {"role": "user", "content": "Create index.html with a friendly greeting."}
    ]
    while True:
        stream = ToolCallStream("anthropic")
        results: list[ToolCallResult[None]] = []
        status: TurnStatus = "done"
        events = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            thinking={"type": "enabled", "budget_tokens": 2048},
            messages=history,
            tools=tools.tool_definitions("anthropic"),
            stream=True,
        )
        thinking = False
        for raw_event in events:
            for event in stream.feed(raw_event):
                if isinstance(event, ReasoningDelta) != thinking:  # thinking starts or ends
                    thinking = not thinking
                    print("[thinking] " if thinking else "\n", end="")
                if isinstance(event, ReasoningDelta | TextDelta):
                    print(event.text, end="", flush=True)
                elif isinstance(event, ToolCallArgumentsDelta) and event.string_delta:
                    # Drive a live preview cheaply: the text just appended to a string value.
                    print(
                        f"[{event.name} {'/'.join(map(str, event.string_delta.path))}"
                        f" += {event.string_delta.text!r}]"
                    )
                elif isinstance(event, ToolCallCompleted | ToolCallTruncated):
                    # Run each call as soon as it is complete (one cut off by max_tokens
                    # gets a "truncated" failure asking the model to retry).
                    results.append(tools.run_tool_call(event.call, files))
                elif isinstance(event, TurnEnded):
                    status = event.status
                    print(f"\n[turn ended: {status}]")
        # The final Message keeps the thinking block and its signature for the replay.
        history.extend(assistant_messages(stream.final_response(), "anthropic"))
        if status == "paused":
            continue  # send the paused turn back unchanged to let the model go on
        if not results:
            break
        history.extend(tool_result_messages(results, "anthropic"))
    print(f"Files: {files}")


if __name__ == "__main__":
    main()
