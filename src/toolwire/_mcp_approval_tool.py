"""`MCPApproval`: the tool of a pending MCP approval request (see `_mcp_approval`).

Its own module so that `import toolwire.core` does not build it: it loads when a
response first holds an `mcp_approval_request`, or when its name is read.
"""

from __future__ import annotations

from typing import Any

from ._approval import ApprovalRequired
from ._call import MCP_APPROVAL
from ._tool import FunctionToolModel, finish_base

__all__ = ["AsyncMCPApproval", "MCPApproval"]


class MCPApproval(FunctionToolModel):
    """A hosted MCP server's call waiting for your approval: `pending.tool` of a
    pending call whose `call.type` is "mcp_approval". Run the pending call to approve
    it, or answer it with `pending.refuse(reason)` to refuse it.

    Attributes:
        server_label: the label the MCP server was added under (`server_label`).
        name: the server's tool the model wants to run.
        arguments: its arguments, as the JSON text the model wrote.
    """

    model_tool_custom_name = MCP_APPROVAL
    model_tool_custom_description = "A hosted MCP server's call waiting for approval."

    server_label: str
    name: str
    arguments: str

    def model_tool_needs_approval(self) -> ApprovalRequired:
        """Always: the API waits for your answer."""
        return ApprovalRequired(
            hint=f"Run {self.name!r} on the MCP server {self.server_label!r}",
            metadata={
                "server_label": self.server_label,
                "name": self.name,
                "arguments": self.arguments,
            },
        )

    def model_tool_handler(self, context: Any, /) -> tuple[str, Any]:
        """Running it approves it (its answer is an approving `mcp_approval_response`)."""
        return "approved", context


class AsyncMCPApproval(MCPApproval):
    # `MCPApproval` in a `toolwire.aio` group (whose handlers are awaited). Its schema,
    # docstring included, is `MCPApproval`'s: a dump from either group loads in the other.
    __doc__ = MCPApproval.__doc__

    async def model_tool_handler(self, context: Any, /) -> tuple[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride]
        return "approved", context


finish_base(MCPApproval)
finish_base(AsyncMCPApproval)
