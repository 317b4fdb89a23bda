"""Which Responses output items are calls toolwire runs, which are client-side calls
it must not skip silently, and which it can ignore. No SDK import.

A `tool_search_call` the client runs (`execution: "client"`) is a call toolwire runs:
it is read as a "tool_search" call to the group's tool search (`TOOL_SEARCH_NAME`),
answered by a `tool_search_output`. One the server ran is not a call.
"""

from __future__ import annotations

from typing import Any

from ..._api import RESPONSES_ITEM_TYPES
from ..._definition import NAMESPACE_SEPARATOR
from .._base import field

__all__ = [
    "CALL_KINDS",
    "NOT_CALLS",
    "ClientCall",
    "client_call",
    "flat_name",
    "is_search_call",
    "unhandled_message",
]

CALL_KINDS: dict[str, str] = {"function_call": "function", "custom_tool_call": "custom"}
"""Item type -> `StandardToolCall.type`, for the calls toolwire runs."""


def flat_name(name: str, namespace: str | None) -> str:
    """The group's name for a call to `name` in `namespace`: the namespace's and the
    tool's joined (`crm__get_customer`, see `ToolNamespace`). The API marks a top-level
    tool that tool search loaded with a namespace of its own name: that is the name."""
    if namespace and namespace != name:
        return f"{namespace}{NAMESPACE_SEPARATOR}{name}"
    return name


_CLIENT_CALL_ANSWERS: dict[str, str] = {
    "computer_call": "computer_call_output",
    "local_shell_call": "local_shell_call_output",
    "shell_call": "shell_call_output",
    "apply_patch_call": "apply_patch_call_output",
    "mcp_approval_request": "mcp_approval_response",
}
"""Client-side calls of the SDK's `ResponseOutputItem` union, and the item answering each."""

NOT_CALLS = (
    RESPONSES_ITEM_TYPES - CALL_KINDS.keys() - _CLIENT_CALL_ANSWERS.keys() - {"tool_search_call"}
)
"""Items with nothing for the client to run: text, reasoning, server-side tool calls
(the server ran them) and outputs (every other item type toolwire knows)."""


def is_search_call(kind: object, item: Any) -> bool:
    """Whether `item` (of type `kind`) is a tool search the client runs."""
    return kind == "tool_search_call" and field(item, "execution") == "client"


class ClientCall:
    """A client-side call toolwire does not run, as named in the error."""

    __slots__ = ("answer", "call_id", "kind")

    def __init__(self, kind: str, call_id: str, answer: str) -> None:
        self.kind = kind
        self.call_id = call_id
        self.answer = answer

    def __repr__(self) -> str:
        return f"{self.kind} {self.call_id!r}"


def client_call(kind: str, item: Any) -> ClientCall | None:
    """The client-side call `item` is, or None when the client has nothing to run.

    Server-run variants are not client calls: a `shell_call` running in a hosted
    container (and a `tool_search_call`, which is a call toolwire runs when the client
    runs it, and nothing to run when the server did). An item
    type toolwire does not know is a client call when it carries a `call_id` and is
    not an output (the developer enabled a tool this version does not describe).
    """
    if kind in NOT_CALLS or kind == "tool_search_call":  # a client one is a call (above)
        return None
    answer = _CLIENT_CALL_ANSWERS.get(kind)
    if answer is None:
        call_id = field(item, "call_id")
        if not call_id or kind.endswith("_output"):
            return None
        return ClientCall(kind, str(call_id), f"{kind}_output")
    if kind == "shell_call" and field(field(item, "environment"), "type") == "container_reference":
        return None
    call_id = field(item, "call_id") or field(item, "id") or "(no id)"
    return ClientCall(kind, str(call_id), answer)


def unhandled_message(calls: list[ClientCall]) -> str:
    """What `UnhandledCallsError` says: which calls, and what to do about them."""
    listed = ", ".join(repr(call) for call in calls)
    answers = sorted({f"a {call.answer} for each {call.kind}" for call in calls})
    builders = sorted({_BUILDERS[call.kind] for call in calls if call.kind in _BUILDERS})
    typed = (
        f" `builtin_calls(response)` lists them typed; {', '.join(builders)} build the answers."
        if builders
        else ""
    )
    return (
        f"This response holds client-side calls toolwire does not run: {listed}. Handle "
        f"them first (the next request needs {' and '.join(answers)}), then pass "
        'other_calls="ignore" to run the function and custom tool calls with toolwire.'
        f"{typed}"
    )


_BUILDERS = {kind: f"{answer}()" for kind, answer in _CLIENT_CALL_ANSWERS.items()}
"""The `toolwire.core` function that builds each built-in call's answer (`builtin.py`)."""
