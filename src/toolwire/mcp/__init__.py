"""MCP both ways: a server's tools in your loop, your tools as a server.

Install with `pip install "toolwire[mcp]"`. `MCPTools.load(session)` turns a
connected server's tools into `toolwire.aio` tool classes; `mcp_server(group)` serves a
`ToolGroup` (core or aio) to any MCP client, over stdio or streamable HTTP.
"""

from ._client import MCPSession, MCPTool, MCPTools, SyncMCPTool
from ._server import mcp_server, run_stdio

__all__ = ["MCPSession", "MCPTool", "MCPTools", "SyncMCPTool", "mcp_server", "run_stdio"]
