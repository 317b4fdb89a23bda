"""An MCP server over stdio that answers `tools/call` with replies the SDK's client
cannot use, written by hand as JSON-RPC lines (the SDK's own server would never send
them): a content block of a type MCP does not define, `content` that is not a list,
`structuredContent` that breaks the tool's `outputSchema`. Run by
tests/mcp/test_mcp_review_fixes.py as a subprocess."""

from __future__ import annotations

import json
import sys
from typing import Any

OBJECT: dict[str, Any] = {"type": "object", "properties": {}}
WEATHER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"celsius": {"type": "number"}},
    "required": ["celsius"],
}
TOOLS: list[dict[str, Any]] = [
    {"name": "echo", "inputSchema": OBJECT},
    {"name": "video", "inputSchema": OBJECT},
    {"name": "flood", "inputSchema": OBJECT},
    {"name": "not_a_list", "inputSchema": OBJECT},
    {"name": "weather", "inputSchema": OBJECT, "outputSchema": WEATHER_SCHEMA},
]
REPLIES: dict[str, dict[str, Any]] = {
    "echo": {"content": [{"type": "text", "text": "fine"}]},
    "video": {
        "content": [
            {"type": "text", "text": "the clip:"},
            {"type": "video", "data": "AAAA", "mimeType": "video/mp4"},
        ]
    },
    # A hundred blocks of a long unknown type: a validation dump of hundreds of lines.
    "flood": {"content": [{"type": "v" * 500, "data": "AAAA"}] * 100},
    "not_a_list": {"content": "not a list"},
    "weather": {
        "content": [{"type": "text", "text": '{"celsius": "warm"}'}],
        "structuredContent": {"celsius": "warm"},
    },
}


def answer(message: dict[str, Any]) -> dict[str, Any]:
    method = message.get("method")
    params: dict[str, Any] = message.get("params") or {}
    if method == "initialize":
        return {
            "result": {
                "protocolVersion": params["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "odd", "version": "1"},
            }
        }
    if method == "tools/list":
        return {"result": {"tools": TOOLS}}
    if method == "tools/call":
        return {"result": REPLIES[params["name"]]}
    if method == "ping":
        return {"result": {}}
    return {"error": {"code": -32601, "message": f"Method not found: {method}"}}


def main() -> None:
    for line in sys.stdin:
        message: dict[str, Any] = json.loads(line)
        if "id" not in message or "method" not in message:
            continue  # a notification, or a reply to a request this server never sends
        reply = {"jsonrpc": "2.0", "id": message["id"], **answer(message)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
