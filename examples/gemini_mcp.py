"""The MCP loop of chat_mcp.py on Gemini: the server's tools next to your own."""

import asyncio
import os
import sys
from pathlib import Path

from google import genai
from google.genai import types
from mcp import Client, StdioServerParameters

from toolwire.aio import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages
from toolwire.mcp import MCPTools
from toolwire.testing import FakeGemini, FakeReply

# Offline, the fake replies as the model would: a wrong order number first, then the
# right one next to a local tool, then the answer.
OFFLINE = [
    FakeReply.tool_calls(("shop_lookup_order", {"order_id": "1001"})),
    FakeReply.tool_calls(("shop_lookup_order", {"order_id": "A-1001"}), ("today", {})),
    FakeReply(text="Your order A-1001 has shipped (as of 2026-11-24)."),
]
client = (
    genai.Client()
    if os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")
    else FakeGemini(script=OFFLINE).client()
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
        config = types.GenerateContentConfig(tools=tools.tool_definitions("gemini"))
        question = types.Part(text="Where is my order 1001?")
        history: list[types.Content] = [types.Content(role="user", parts=[question])]
        for _ in range(5):  # a budget of model turns
            response = await client.aio.models.generate_content(
                model="gemini-2.5-flash", contents=history, config=config
            )
            history.extend(assistant_messages(response, "gemini"))
            results = await tools.run_tool_calls(response, None)
            if not results:
                print(f"Answer: {response.text}")
                break
            for result in results:
                print(f"{result.name} -> {result.fail_reason or 'ok'}: {result.result_content}")
            history.extend(tool_result_messages(results, "gemini"))


if __name__ == "__main__":
    asyncio.run(main())
