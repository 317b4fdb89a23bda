"""The MCP loop of chat_mcp.py on the Responses API: the server's tools next to your own."""

import asyncio
import os
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters
from openai import AsyncOpenAI
from openai.types.responses import ResponseInputItemParam

from toolwire.aio import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages
from toolwire.mcp import MCPTools
from toolwire.testing import FakeOpenAI, FakeReply

# Offline, the fake replies as the model would: a wrong order number first, then the
# right one next to a local tool, then the answer.
OFFLINE = [
    FakeReply.tool_calls(("shop_lookup_order", {"order_id": "1001"})),
    FakeReply.tool_calls(("shop_lookup_order", {"order_id": "A-1001"}), ("today", {})),
    FakeReply(text="Your order A-1001 has shipped (as of 2026-11-24)."),
]
client = (
    AsyncOpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).async_client()
)
SHOP = StdioServerParameters(
    command=sys.executable, args=[str(Path(__file__).with_name("mcp_server.py")), "--stdio"]
)


class today(BaseFunctionToolModel[None, None]):
    """Today's date."""

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "2026-11-24", None


async def main() -> None:
    async with Client(SHOP) as shop:
        server = await MCPTools.load(shop, prefix="shop_", timeout=20)
        tools = ToolGroup.from_list([*server.tools, today])
        history: list[ResponseInputItemParam] = [
            {"role": "user", "content": "Where is my order 1001?"}
        ]
        while True:
            response = await client.responses.create(
                model="gpt-4.1", input=history, tools=tools.tool_definitions("responses")
            )
            history.extend(assistant_messages(response, "responses"))
            results = await tools.run_tool_calls(response, None)
            if not results:
                print(f"Answer: {response.output_text}")
                break
            for result in results:
                print(f"{result.name} -> {result.fail_reason or 'ok'}: {result.result_content}")
            history.extend(tool_result_messages(results, "responses"))


if __name__ == "__main__":
    asyncio.run(main())
