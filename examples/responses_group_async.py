"""The async twin of responses_group.py (`toolwire.aio`): the batch's handlers run
concurrently, at most four at once, each stopped after ten seconds."""

import asyncio
import os
from dataclasses import dataclass, field
from typing import Literal

from openai import AsyncOpenAI
from openai.types.responses import ResponseInputItemParam

from toolwire.aio import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    HandlerResult,
    ToolGroup,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeOpenAI, FakeReply

# Offline, the fake replies as the model would: two calls at once, one of them with a
# ticker the tool rejects, then the corrected call, then the answer.
OFFLINE = [
    FakeReply.tool_calls(
        ("get_weather", {"city": "Austin"}), ("get_stock_price", {"ticker": "Apple"})
    ),
    FakeReply.tool_calls(("get_stock_price", {"ticker": "AAPL"})),
    FakeReply(text="It is 20 degrees celsius in Austin, and Apple (AAPL) trades at $231.50."),
]
client = (
    AsyncOpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).async_client()
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

    async def model_tool_handler(self, context: Services) -> tuple[str, int]:
        celsius = context.temperature(self.city)
        shown = celsius if self.unit == "celsius" else round(celsius * 9 / 5 + 32)
        return f"{shown} degrees {self.unit} in {self.city}.", 1  # 1 API credit used


class GetStockPrice(BaseFunctionToolModel[Services, int]):
    """Get the latest price of a stock."""

    model_tool_custom_name = "get_stock_price"

    ticker: str

    async def model_tool_handler(self, context: Services) -> HandlerResult[int]:
        price = context.prices.get(self.ticker.upper())
        if price is None:
            known = ", ".join(context.prices)
            raise ErrorForLLMToSee(f"Unknown ticker {self.ticker!r}. Known tickers: {known}.")
        return HandlerResult(result_content=f"{self.ticker} trades at ${price:.2f}.", context=2)


tools = ToolGroup.from_list([GetWeather, GetStockPrice])


async def main() -> None:
    services = Services()
    credits_used = 0
    new_items: list[ResponseInputItemParam] = [
        {"role": "user", "content": "What's the weather in Austin, and Apple's stock price?"}
    ]
    previous_id: str | None = None
    while True:
        # The server keeps the earlier turns: send only what is new since `previous_id`.
        response = await client.responses.create(
            model="gpt-4.1",
            input=new_items,
            previous_response_id=previous_id,
            tools=tools.tool_definitions("responses"),
        )
        previous_id = response.id
        if turn_status(response, "responses") != "tool_calls":
            print(f"Answer: {response.output_text}")
            break
        results = await tools.run_tool_calls(response, services, max_concurrency=4, timeout=10)
        for result in results:
            if result.fail_reason is None:
                credits_used += result.context  # typed: int, from the handler
                print(f"{result.name} -> {result.result_content}")
            else:
                print(f"{result.name} failed ({result.fail_reason}): {result.result_content}")
        new_items = tool_result_messages(results, "responses")
    print(f"Credits used: {credits_used}")


if __name__ == "__main__":
    asyncio.run(main())
