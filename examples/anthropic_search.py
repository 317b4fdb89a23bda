"""Tool search on Anthropic: deferred tools go with `defer_loading`, and toolwire's own
search (run by the client) answers the model's searches with `tool_reference` blocks,
which load the tools they name. (`add_tool_search()` alone offers Anthropic's server-side
BM25 search instead: the API searches, and its blocks replay with the turn; see
anthropic_server_search.py.)"""

import os

from anthropic import Anthropic
from anthropic.types import MessageParam

from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages
from toolwire.testing import FakeAnthropic, FakeReply

# Offline, the fake replies as the model would: a search, the call it unlocked, the answer.
OFFLINE = [
    FakeReply.tool_calls(("tool_search", {"queries": ["exchange rate"]})),
    FakeReply.tool_calls(("get_exchange_rate", {"from_currency": "USD", "to_currency": "EUR"})),
    FakeReply(text="1 USD is 0.92 EUR."),
]
client = (
    Anthropic() if os.environ.get("ANTHROPIC_API_KEY") else FakeAnthropic(script=OFFLINE).client()
)


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
    history: list[MessageParam] = [{"role": "user", "content": "How many euros is one US dollar?"}]
    while True:
        message = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            messages=history,
            tools=tools.tool_definitions("anthropic"),
        )
        history.extend(assistant_messages(message, "anthropic"))
        results = tools.run_tool_calls(message, None)
        if not results:
            answer = "".join(block.text for block in message.content if block.type == "text")
            print(f"Answer: {answer}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "anthropic"))
        print("sent back:", history[-1]["content"])


if __name__ == "__main__":
    main()
