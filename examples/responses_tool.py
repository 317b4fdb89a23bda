"""One tool, Responses: the model calls it, we answer, it replies."""

import os

from openai import OpenAI
from openai.types.responses import ResponseInputItemParam

from toolwire.core import (
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
client = OpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).client()


class say_hello(BaseFunctionToolModel[None, None]):
    """Say hello to a person."""

    name: str
    """Who to greet."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Message delivered to {self.name}.", None


def main() -> None:
    history: list[ResponseInputItemParam] = [
        {"role": "user", "content": "Please say hello to Kate for me."}
    ]
    while True:
        response = client.responses.create(
            model="gpt-4.1",
            input=history,
            tools=[say_hello.model_tool_definition("responses")],
        )
        # Replay the whole turn (reasoning items included) before the results.
        history.extend(assistant_messages(response, "responses"))
        status = turn_status(response, "responses")
        if status == "truncated":
            raise RuntimeError("The turn hit max_output_tokens; raise the limit and retry.")
        if status != "tool_calls":
            print(f"[{status}] {response.output_text}")
            break
        calls = [item for item in response.output if item.type == "function_call"]
        results = [say_hello.model_tool_run_tool_call(call, None) for call in calls]
        for result in results:
            print(f"{result.name}({result.call_id}) -> {result.result_content}")
        history.extend(tool_result_messages(results, "responses"))


if __name__ == "__main__":
    main()
