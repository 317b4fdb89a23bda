"""The client-executed built-in calls the Responses fake emits (`FakeReply.builtin`).

Each is rendered as the SDK's output item types it, with the fake's ids, and only where
the request offers the tool that makes it: the live API makes no `shell_call` without
the `shell` tool, no `mcp_approval_request` without the `mcp` server of that label
asking for approval.
"""

from __future__ import annotations

import json
from typing import Any

from .._fake import FakeBuiltinCall, FakeServer, RejectedRequest
from .._rules import field

_TOOL = {
    "shell_call": (("shell",), "sh", '{"type": "shell"}'),
    "local_shell_call": (("local_shell",), "lsh", '{"type": "local_shell"}'),
    "apply_patch_call": (("apply_patch",), "apc", '{"type": "apply_patch"}'),
    "computer_call": (
        ("computer", "computer_use_preview"),
        "cu",
        '{"type": "computer"} (or the older {"type": "computer_use_preview", ...})',
    ),
}
"""Per call type: the tool types that make it, the item id's prefix, the tool to add."""


def builtin_items(
    calls: tuple[FakeBuiltinCall, ...], tools: list[Any], server: FakeServer
) -> list[dict[str, Any]]:
    """The output items of a reply's built-in calls, after its tool calls."""
    return [_item(call, tools, server) for call in calls]


def _item(call: FakeBuiltinCall, tools: list[Any], server: FakeServer) -> dict[str, Any]:
    if call.type == "mcp_approval_request":
        label = call.fields.get("server_label")
        server_tool = next(
            (t for t in tools if field(t, "type") == "mcp" and field(t, "server_label") == label),
            None,
        )
        if server_tool is None or field(server_tool, "require_approval") == "never":
            raise RejectedRequest(
                f"toolwire fake: FakeBuiltinCall('mcp_approval_request') asks to approve a "
                f"call on MCP server {label!r}, but the request offers no mcp tool of that "
                f'server_label asking for approval: add {{"type": "mcp", "server_label": '
                f'{json.dumps(label)}, "require_approval": "always", ...}} to the tools.'
            )
        return {"id": f"mcpr_fake{server.next_id()}", "type": call.type, **call.fields}
    kinds, prefix, example = _TOOL[call.type]
    if not any(field(t, "type") in kinds for t in tools):
        raise RejectedRequest(
            f"toolwire fake: FakeBuiltinCall({call.type!r}) needs the {kinds[0]} tool in the "
            f"request's tools: add {example}."
        )
    number = server.next_id()
    item: dict[str, Any] = {
        "id": f"{prefix}_fake{number}",
        "type": call.type,
        "call_id": f"call_{number}",
        "status": "completed",
    }
    if call.type == "computer_call":
        item["pending_safety_checks"] = []
    return {**item, **call.fields}
