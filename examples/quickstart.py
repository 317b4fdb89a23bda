"""Quickstart: a tool group and the loop that runs it, on OpenAI Chat Completions."""

import os

from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages
from toolwire.testing import FakeOpenAI, FakeReply


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the current weather in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny and 24 °C in {self.city}.", None  # call your weather service here


tools = ToolGroup.from_list([get_weather])
# The live API when OPENAI_API_KEY is set; offline, a fake that replies as the model would.
OFFLINE = [FakeReply.tool_calls(("get_weather", {"city": "Paris"})), FakeReply(text="Yes: 24 °C.")]
client = OpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).client()

history: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Is it warm in Paris?"}]
while True:
    response = client.chat.completions.create(
        model="gpt-4.1", messages=history, tools=tools.tool_definitions("chat.completions")
    )
    history += assistant_messages(response, "chat.completions")
    results = tools.run_tool_calls(response, None)  # validate, run: one result per call
    if not results:
        break
    for result in results:
        print(f"{result.name} -> {result.result_content}")
    history += tool_result_messages(results, "chat.completions")
print(response.choices[0].message.content)
