"""When a handler crashes: every call id still gets an answer, and the crash stays yours.

Only `ErrorForLLMToSee` is caught for you. Any other exception is a bug in your code:
the batch raises `ToolBatchError`, which holds the results of the calls that finished
and says which calls did not run, so the next request can still answer every id."""

import os

from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.core import (
    BaseFunctionToolModel,
    ToolBatchError,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeOpenAI, FakeReply

# Offline, the fake calls lookup_order three times; the second call hits the bug.
OFFLINE = [
    FakeReply.tool_calls(
        ("lookup_order", {"order_id": 7}),
        ("lookup_order", {"order_id": 13}),
        ("lookup_order", {"order_id": 21}),
    ),
    FakeReply(text="Order 7 has shipped; I could not look up order 13, please retry later."),
]
client = OpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).client()


class lookup_order(BaseFunctionToolModel[None, None]):
    """Look up an order's status."""

    order_id: int

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.order_id == 13:
            raise KeyError("orders table: row 13 has no status column")  # a bug, not the model's
        return f"Order {self.order_id} has shipped.", None


tools = ToolGroup.from_list([lookup_order])


def main() -> None:
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Where are my orders 7, 13 and 21?"}
    ]
    while True:
        response = client.chat.completions.create(
            model="gpt-4.1", messages=history, tools=tools.tool_definitions("chat.completions")
        )
        history.extend(assistant_messages(response, "chat.completions"))
        try:
            results = tools.run_tool_calls(response, None)
        except ToolBatchError as error:
            # Log `error` with its traceback here: the details are yours, the model never
            # sees them. Then answer every call: completed results, generic failures for
            # the call that crashed and for the calls that did not run.
            print(f"ToolBatchError: {error.exceptions!r}; not run: {[c.id for c in error.not_run]}")
            results = error.answer_all()
        if not results:
            print(f"Answer: {response.choices[0].message.content}")
            break
        for result in results:
            print(f"{result.call_id}: {result.fail_reason or 'ok'} -> {result.result_content}")
        history.extend(tool_result_messages(results, "chat.completions"))


if __name__ == "__main__":
    main()
