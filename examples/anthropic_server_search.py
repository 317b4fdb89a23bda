"""Tool search run by Anthropic's server: deferred tools go with `defer_loading`, the
server's BM25 search finds them within the turn (`server_tool_use` and
`tool_search_tool_result` blocks, which are no calls and replay with the turn), and the
model calls the tool it found in the same response."""

import os

from anthropic import Anthropic
from anthropic.types import MessageParam

from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages
from toolwire.testing import FakeAnthropic, FakeCall, FakeReply, FakeSearch

# Offline, the fake replies as the model would: the server's search and the call it
# unlocked in one turn, then the answer.
OFFLINE = [
    FakeReply(
        search=FakeSearch("exchange rate"),
        calls=(FakeCall("get_exchange_rate", {"from_currency": "USD", "to_currency": "EUR"}),),
    ),
    FakeReply(text="1 USD is 0.92 EUR."),
]
client = (
    Anthropic() if os.environ.get("ANTHROPIC_API_KEY") else FakeAnthropic(script=OFFLINE).client()
)


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


tools = ToolGroup.from_list([GetExchangeRate, StockLookup])
tools.add_tool_search()  # tool_search_tool_bm25 (server="regex": the regex search)


def main() -> None:
    history: list[MessageParam] = [{"role": "user", "content": "How many euros is one US dollar?"}]
    for _ in range(5):  # a budget of model turns
        message = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            messages=history,
            tools=tools.tool_definitions("anthropic"),
        )
        print("turn:", ", ".join(block.type for block in message.content))
        history.extend(assistant_messages(message, "anthropic"))
        results = tools.run_tool_calls(message, None)
        if not results:
            answer = "".join(block.text for block in message.content if block.type == "text")
            print(f"Answer: {answer}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "anthropic"))
        loaded = tools.loaded_tools(history, "anthropic")
        print("loaded:", ", ".join(tool.model_tool_name() for tool in loaded))


if __name__ == "__main__":
    main()
