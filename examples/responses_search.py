"""Tool search on Responses: deferred tools go with `defer_loading`, and toolwire's own
search (run by the client) answers each `tool_search_call` with a `tool_search_output`
holding the matched definitions, which loads them. (`add_tool_search()` alone offers the
server's `{"type": "tool_search"}` instead: the server searches within the turn, and its
items replay with the turn.)"""

import os

from openai import OpenAI
from openai.types.responses import ResponseInputItemParam

from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages
from toolwire.testing import FakeOpenAI, FakeReply, FakeSearch

# Offline, the fake replies as the model would: a search, the call it unlocked, the answer.
OFFLINE = [
    FakeReply(search=FakeSearch("exchange rate")),
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
tools.add_tool_search(execution="client")


def main() -> None:
    history: list[ResponseInputItemParam] = [
        {"role": "user", "content": "How many euros is one US dollar?"}
    ]
    for _ in range(5):  # a budget of model turns
        response = client.responses.create(
            model="gpt-5.4", input=history, tools=tools.tool_definitions("responses")
        )
        history.extend(assistant_messages(response, "responses"))
        results = tools.run_tool_calls(response, None)
        if not results:
            print(f"Answer: {response.output_text}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "responses"))
        if any(result.type == "tool_search" for result in results):  # a tool_search_output
            loaded = tools.loaded_tools(history, "responses")
            print("loaded:", ", ".join(tool.model_tool_name() for tool in loaded))


if __name__ == "__main__":
    main()
