"""A tool group on Anthropic Messages: context in, context out, errors the model can fix,
and thinking blocks kept in the replayed turns."""

import os
from dataclasses import dataclass, field
from typing import Literal

from anthropic import Anthropic
from anthropic.types import MessageParam

from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    HandlerResult,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeAnthropic, FakeCall, FakeReply

# Offline, the fake replies as the model would: two calls at once, one of them with a
# ticker the tool rejects, then the corrected call, then the answer.
OFFLINE = [
    FakeReply(
        thinking="Two lookups: the weather in Austin and Apple's stock price.",
        calls=(
            FakeCall("get_weather", {"city": "Austin"}),
            FakeCall("get_stock_price", {"ticker": "Apple"}),
        ),
    ),
    FakeReply.tool_calls(("get_stock_price", {"ticker": "AAPL"})),
    FakeReply(text="It is 20 degrees celsius in Austin, and Apple (AAPL) trades at $231.50."),
]
client = (
    Anthropic() if os.environ.get("ANTHROPIC_API_KEY") else FakeAnthropic(script=OFFLINE).client()
)


@dataclass
class Services:
    """What the loop hands every handler (context in): stand-ins for real clients."""

    prices: dict[str, float] = field(default_factory=lambda: {"AAPL": 231.5, "MSFT": 508.2})

    def temperature(self, city: str) -> int:
        return 12 + sum(map(ord, city)) % 20


class GetWeather(BaseFunctionToolModel[Services, int]):
    """Get the current temperature in a city."""

    model_tool_custom_name = "get_weather"

    city: str
    """The city, e.g. Austin."""
    unit: Literal["celsius", "fahrenheit"] = "celsius"

    def model_tool_handler(self, context: Services) -> tuple[str, int]:
        celsius = context.temperature(self.city)
        shown = celsius if self.unit == "celsius" else round(celsius * 9 / 5 + 32)
        return f"{shown} degrees {self.unit} in {self.city}.", 1  # 1 API credit used


class GetStockPrice(BaseFunctionToolModel[Services, int]):
    """Get the latest price of a stock."""

    model_tool_custom_name = "get_stock_price"

    ticker: str

    def model_tool_handler(self, context: Services) -> HandlerResult[int]:
        price = context.prices.get(self.ticker.upper())
        if price is None:
            known = ", ".join(context.prices)
            raise ErrorForLLMToSee(f"Unknown ticker {self.ticker!r}. Known tickers: {known}.")
        return HandlerResult(result_content=f"{self.ticker} trades at ${price:.2f}.", context=2)


tools = ToolGroup.from_list([GetWeather, GetStockPrice])


def main() -> None:
    services = Services()
    credits_used = 0
    history: list[MessageParam] = [
        {"role": "user", "content": "What's the weather in Austin, and Apple's stock price?"}
    ]
    while True:
        message = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            # With thinking on, each turn starts with a signed thinking block; replaying
            # the turn with assistant_messages() keeps it, as the API requires.
            thinking={"type": "enabled", "budget_tokens": 2048},
            messages=history,
            tools=tools.tool_definitions("anthropic"),
        )
        history.extend(assistant_messages(message, "anthropic"))
        if turn_status(message, "anthropic") == "paused":
            continue  # send the paused turn back unchanged to let the model go on
        results = tools.run_tool_calls(message, services)
        if not results:
            answer = "".join(block.text for block in message.content if block.type == "text")
            print(f"Answer: {answer}")
            break
        for result in results:
            if result.fail_reason is None:
                credits_used += result.context  # typed: int, from the handler
                print(f"{result.name} -> {result.result_content}")
            else:
                print(f"{result.name} failed ({result.fail_reason}): {result.result_content}")
        # One user message holding every tool_result, in call order.
        history.extend(tool_result_messages(results, "anthropic"))
    print(f"Credits used: {credits_used}")


if __name__ == "__main__":
    main()
