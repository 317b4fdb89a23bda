"""Serve a toolwire group to MCP clients (editors, desktop assistants, other agents) over
stdio. `python examples/mcp_server.py --stdio` is the command a client starts; run
without it, the script starts itself that way and calls its own tools as a client would.
Over HTTP: `uvicorn` on `mcp_server(tools).streamable_http_app()`."""

import asyncio
import sys
from dataclasses import dataclass

from mcp import Client, StdioServerParameters

from toolwire.core import BaseFunctionToolModel, ErrorForLLMToSee, ImagePart, ToolGroup
from toolwire.mcp import mcp_server, run_stdio

# A 1x1 PNG (one blue pixel): what a chart tool would draw.
PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d4944415478da63902fdff21f00044d024acc1db5fa0000000049454e44ae426082"
)


@dataclass
class Shop:
    """Handed to every handler: here, a stand-in for the order database."""

    orders: dict[str, str]


class lookup_order(BaseFunctionToolModel[Shop, None]):
    """Look up the status of an order by its number."""

    order_id: str
    """The order number, e.g. A-1001."""

    def model_tool_handler(self, context: Shop) -> tuple[str, None]:
        status = context.orders.get(self.order_id)
        if status is None:
            raise ErrorForLLMToSee(f"No order {self.order_id!r}; order numbers look like A-1001.")
        return f"Order {self.order_id}: {status}.", None


class sales_chart(BaseFunctionToolModel[Shop, None]):
    """Draw this month's sales as a chart (an image)."""

    def model_tool_handler(self, context: Shop) -> tuple[list[str | ImagePart], None]:
        return ["Sales by day, this month:", ImagePart(data=PIXEL, media_type="image/png")], None


tools = ToolGroup.from_list([lookup_order, sales_chart])
server = mcp_server(
    tools,
    name="shop",
    # Called for every tool call: a database session, the user behind the request...
    context=lambda request: Shop(orders={"A-1001": "shipped", "A-1002": "packing"}),
)


async def main() -> None:
    """Start this script as a client would, then list and call its tools."""
    command = StdioServerParameters(command=sys.executable, args=[__file__, "--stdio"])
    async with Client(command) as client:
        listed = await client.list_tools()
        print("Tools:", [tool.name for tool in listed.tools])
        for name, arguments in [
            ("lookup_order", {"order_id": "A-1001"}),
            ("lookup_order", {"order_id": "B-7"}),
            ("lookup_order", {}),
            ("sales_chart", {}),
        ]:
            result = await client.call_tool(name, arguments)
            shown = [getattr(block, "text", None) or block.type for block in result.content]
            print(f"{name}({arguments}) -> is_error={result.is_error}: {shown}")


if __name__ == "__main__":
    if "--stdio" in sys.argv:
        run_stdio(server)
    else:
        asyncio.run(main())
