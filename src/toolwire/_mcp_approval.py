"""A hosted MCP server's call waiting for your approval, as a pending call.

OpenAI Responses runs a hosted MCP server's tools itself, but asks first when the
server was added with `require_approval`: an `mcp_approval_request` item, answered in
the next request by an `mcp_approval_response` (approve or not). That is the same
decision `prepare_tool_calls` puts before a person for the group's own tools, so the
request becomes a `PendingCall` of its own kind ("mcp_approval"): its `tool` is an
`MCPApproval` (the server, the tool, the arguments; `_mcp_approval_tool.py`, loaded
only when a response holds such a request), it always needs approval, running
it approves (the adapter renders an approving `mcp_approval_response`), and
`pending.refuse(reason)` refuses (a refusing one, with the reason). It is stored by
`dump_pending` and restored by `load_pending` like any pending call.

The group has no tool for these calls: `with_mcp_approvals` lays the approval tool
over the group's tools for the calls of that kind only, so validating, running and
restoring them go through the one pipeline. No SDK import.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ._call import MCP_APPROVAL, StandardToolCall
from ._tool import ToolModel

__all__ = ["MCP_APPROVAL", "approval_call", "is_approval_tool", "with_mcp_approvals"]


def approval_call(
    item_id: str, server_label: str, name: str, arguments: object
) -> StandardToolCall:
    """The pending call an `mcp_approval_request` item is (answered by its `id`)."""
    return StandardToolCall(
        MCP_APPROVAL,
        item_id,
        f"{server_label}.{name}",
        {"server_label": server_label, "name": name, "arguments": arguments},
    )


class _WithApprovals(Mapping[str, type[ToolModel]]):
    """The group's tools, with the approval tool under the names of the MCP approval
    requests among the calls (a name with a dot, which no Responses tool has)."""

    __slots__ = ("_approval", "_names", "_tools")

    def __init__(
        self, tools: Mapping[str, type[ToolModel]], names: frozenset[str], approval: type[ToolModel]
    ) -> None:
        self._tools = tools
        self._names = names
        self._approval = approval

    def __getitem__(self, name: str) -> type[ToolModel]:
        if name in self._names:
            return self._approval
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)


def with_mcp_approvals(
    tools: Mapping[str, type[ToolModel]], calls: list[StandardToolCall]
) -> Mapping[str, type[ToolModel]]:
    """`tools`, with the approval tool for the MCP approval requests among `calls` (the
    group's own tools, unchanged, when there are none)."""
    names = frozenset(call.name for call in calls if call.type == MCP_APPROVAL)
    if not names:
        return tools
    from ._mcp_approval_tool import AsyncMCPApproval, MCPApproval

    if isinstance(tools, _WithApprovals):
        tools = tools._tools
    asynchronous = getattr(tools, "_toolwire_namespace", "core") == "aio"
    return _WithApprovals(tools, names, AsyncMCPApproval if asynchronous else MCPApproval)


def is_approval_tool(tool: type[ToolModel]) -> bool:
    """Whether `tool` is the approval tool (`with_mcp_approvals` lays it over a group)."""
    from ._mcp_approval_tool import MCPApproval

    return issubclass(tool, MCPApproval)
