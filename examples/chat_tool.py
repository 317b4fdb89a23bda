"""One tool, Chat Completions: the model calls it, we answer, it replies."""

import os

from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam

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
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Please say hello to Kate for me."}
    ]
    while True:
        response = client.chat.completions.create(
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
        results = [say_hello.model_tool_run_tool_call(call, None) for call in calls]
        for result in results:
            print(f"{result.name}({result.call_id}) -> {result.result_content}")
        history.extend(tool_result_messages(results, "chat.completions"))


if __name__ == "__main__":
    main()
