"""Tool search on Gemini: deferred tools stay out of the request until the model finds
them with the group's search, then the next request declares them."""

import os

from google import genai
from google.genai import types

from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages
from toolwire.testing import FakeGemini, FakeReply

# Offline, the fake replies as the model would: a search, the call it unlocked, the answer.
OFFLINE = [
    FakeReply.tool_calls(("tool_search", {"queries": ["ticker symbol"]})),
    FakeReply.tool_calls(("stock_lookup", {"symbol": "AAPL"})),
    FakeReply(text="Apple (AAPL) trades at $231.50."),
]
client = (
    genai.Client()
    if os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")
    else FakeGemini(script=OFFLINE).client()
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
tools.add_tool_search()  # Gemini has no search of its own: toolwire's answers


def main() -> None:
    history: list[types.Content] = [
        types.Content(role="user", parts=[types.Part(text="What does Apple's stock trade at?")])
    ]
    for _ in range(5):  # a budget of model turns
        loaded = tools.loaded_tools(history, "gemini")
        declared: types.Tool = tools.tool_definitions("gemini", loaded=loaded)[0]
        print("declared:", ", ".join(d.name or "" for d in declared.function_declarations or []))
        config = types.GenerateContentConfig(tools=[declared])
        response = client.models.generate_content(
            model="gemini-2.5-flash", contents=history, config=config
        )
        history.extend(assistant_messages(response, "gemini"))
        results = tools.run_tool_calls(response, None)
        if not results:
            print(f"Answer: {response.text}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "gemini"))


if __name__ == "__main__":
    main()
