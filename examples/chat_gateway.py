"""A gateway (OpenRouter; Google's OpenAI endpoint for Gemini works the same way): the
model behind it reasons, and the next turn must carry that reasoning back unmodified
(`reasoning_details`, with its signature; on Gemini, each call's thought signature in
`extra_content`). `assistant_messages` replays it in the same field, streamed or not."""

import os

from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.core import (
    BaseFunctionToolModel,
    ChatServer,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply, check_history

SERVER = ChatServer.OPENROUTER
OFFLINE = [  # the fake streams as OpenRouter does: reasoning_details fragments, then calls
    FakeReply(
        calls=(FakeCall("convert", {"amount": 120, "currency": "JPY"}),),
        thinking="The user wants euros in yen.",
    ),
    FakeReply(text="120 EUR is about 19,680 JPY."),
]
if os.environ.get("OPENROUTER_API_KEY"):
    client = OpenAI(base_url="https://openrouter.ai/api/v1", api_key=os.environ["OPENROUTER_API_KEY"])  # fmt: skip
else:
    client = FakeOpenAI(server=SERVER, script=OFFLINE).client()


class convert(BaseFunctionToolModel[None, None]):
    """Convert an amount of euros to another currency."""

    amount: float
    currency: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        rates = {"JPY": 164.0, "USD": 1.08}
        return f"{self.amount * rates[self.currency]:,.0f} {self.currency}", None


tools = ToolGroup.from_list([convert])


def main() -> None:
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "How many yen is 120 euros?"}
    ]
    while True:
        stream = ToolCallStream(SERVER)
        for chunk in client.chat.completions.create(
            model="anthropic/claude-sonnet-4.5",
            messages=history,
            tools=tools.tool_definitions(SERVER),
            stream=True,
        ):
            stream.feed(chunk)
        response = stream.final_response()  # reasoning_details merged, signature kept
        history.extend(assistant_messages(response, SERVER))
        results = tools.run_tool_calls(response, None, api=SERVER)
        if not results:
            print(f"Answer: {response.choices[0].message.content}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, SERVER))
    kept = dict(history[1]).get("reasoning_details")
    print(f"Replayed reasoning_details: {kept}")
    print(f"Problems the gateway would answer 400 to: {check_history(history, SERVER)}")


if __name__ == "__main__":
    main()
