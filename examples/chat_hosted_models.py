"""A hosted open model (Groq here; DeepSeek, Mistral, Together and Fireworks have their
own `ChatServer`): the same loop, with the server's rules. Groq checks each call against
its tool's schema and answers HTTP 400 `tool_use_failed` instead of the turn;
`failed_generation(error)` makes that refusal a retry the model can act on."""

import os

import openai
from openai.types.chat import ChatCompletionMessageParam

from toolwire.core import (
    BaseFunctionToolModel,
    ChatServer,
    ToolGroup,
    assistant_messages,
    failed_generation,
    tool_result_messages,
)
from toolwire.testing import FakeOpenAI, FakeReply

SERVER = ChatServer.GROQ
# Offline, the fake answers as Groq does: the first call (a count written as text) breaks
# the schema, and the fake refuses it with Groq's 400; the model then calls correctly.
OFFLINE = [
    FakeReply.tool_calls(("book_table", {"restaurant": "Chez Anna", "people": "four"})),
    FakeReply.tool_calls(("book_table", {"restaurant": "Chez Anna", "people": 4})),
    FakeReply(text="Booked a table for 4 at Chez Anna."),
]
if os.environ.get("GROQ_API_KEY"):
    client = openai.OpenAI(base_url="https://api.groq.com/openai/v1", api_key=os.environ["GROQ_API_KEY"])  # fmt: skip
else:
    client = FakeOpenAI(server=SERVER, script=OFFLINE).client()


class book_table(BaseFunctionToolModel[None, None]):
    """Book a restaurant table."""

    restaurant: str
    people: int

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Booked {self.restaurant} for {self.people}.", None


tools = ToolGroup.from_list([book_table])


def main() -> None:
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Book Chez Anna for four people."}
    ]
    while True:
        try:
            response = client.chat.completions.create(
                model="openai/gpt-oss-20b", messages=history, tools=tools.tool_definitions(SERVER)
            )
        except openai.BadRequestError as error:
            failed = failed_generation(error)
            if failed is None:
                raise  # not a refused call: a real error
            print(f"Refused by the server: {failed.reason}")
            history.extend(failed.messages)  # the attempt, and what to fix; then ask again
            continue
        history.extend(assistant_messages(response, SERVER))
        results = tools.run_tool_calls(response, None, api=SERVER)
        if not results:
            print(f"Answer: {response.choices[0].message.content}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, SERVER))


if __name__ == "__main__":
    main()
