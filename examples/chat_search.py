"""Tool search on Chat Completions: deferred tools stay out of the request until the
model finds them with the group's search, then the next request offers them."""

import os

from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages
from toolwire.testing import FakeOpenAI, FakeReply

# Offline, the fake replies as the model would: a search, the call it unlocked, the answer.
OFFLINE = [
    FakeReply.tool_calls(("tool_search", {"queries": ["exchange rate"]})),
    FakeReply.tool_calls(("get_exchange_rate", {"from_currency": "USD", "to_currency": "EUR"})),
    FakeReply(text="1 USD is 0.92 EUR."),
]
client = OpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).client()


class GetWeather(BaseFunctionToolModel[None, None]):
    """Get the current weather in a city."""

    model_tool_custom_name = "get_weather"
    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


class GetExchangeRate(BaseFunctionToolModel[None, None]):
    """Look up the current exchange rate between two currencies."""

    model_tool_custom_name = "get_exchange_rate"
    model_tool_defer_loading = True  # found through the search, not offered up front
    from_currency: str
    to_currency: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"1 {self.from_currency} = 0.92 {self.to_currency}", None


class StockLookup(BaseFunctionToolModel[None, None]):
    """Look up a stock's price by its ticker symbol."""

    model_tool_custom_name = "stock_lookup"
    model_tool_defer_loading = True
    symbol: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.symbol} trades at $231.50.", None


tools = ToolGroup.from_list([GetWeather, GetExchangeRate, StockLookup])
tools.add_tool_search()  # Chat Completions has no search of its own: toolwire's answers


def main() -> None:
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "How many euros is one US dollar?"}
    ]
    while True:
        loaded = tools.loaded_tools(history, "chat.completions")
        offered = tools.tool_definitions("chat.completions", loaded=loaded)
        print(
            "offered:", ", ".join(d["function"]["name"] for d in offered if d["type"] == "function")
        )
        response = client.chat.completions.create(model="gpt-4.1", messages=history, tools=offered)
        history.extend(assistant_messages(response, "chat.completions"))
        results = tools.run_tool_calls(response, None)
        if not results:
            print(f"Answer: {response.choices[0].message.content}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "chat.completions"))


if __name__ == "__main__":
    main()
