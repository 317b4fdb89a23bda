"""How a Responses turn ended and which of its call items were cut: the rules the
adapter (reading a `Response`) and the stream (folding its events) both apply (the
adapter's module docstring tells them in words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...exceptions import ToolwireError
from .._base import field
from .items import CALL_KINDS, client_call, is_search_call

if TYPE_CHECKING:
    from ..._turn import TurnStatus

__all__ = ["STOPPED_EARLY", "is_cut", "status_of"]

STOPPED_EARLY = frozenset({"incomplete", "failed", "cancelled"})
"""Response statuses of a turn that stopped before the model finished it."""
_UNFINISHED = frozenset({"queued", "in_progress"})


def is_cut(status: object, stopped_early: bool, last: bool) -> bool:
    """Whether a call item with `status` was cut off.

    `stopped_early`: the response's status is incomplete, failed or cancelled;
    `last`: the item is the response's last output item.
    """
    if status == "incomplete":
        return True
    return stopped_early and (status == "in_progress" or (status is None and last))


def status_of(items: Sequence[object], status: object, incomplete_details: object) -> TurnStatus:
    """The neutral status of a response: its output items, its status and, for an
    `incomplete` one, its `incomplete_details` (whose reason tells a content filter)."""
    if status in _UNFINISHED:
        raise ToolwireError(
            f"This response is still {status!r} (background mode), so its turn has not "
            "ended. Retrieve it again (client.responses.retrieve(response.id)) until its "
            "status is final."
        )
    if status == "incomplete":
        reason = field(incomplete_details, "reason")
        return "refused" if reason == "content_filter" else "truncated"
    if status in STOPPED_EARLY:
        return "truncated"
    called = False
    for item in items:
        kind = field(item, "type")
        if kind == "message":
            parts: Sequence[object] = field(item, "content") or ()
            if isinstance(parts, list) and any(field(part, "type") == "refusal" for part in parts):
                return "refused"
        elif isinstance(kind, str) and (
            kind in CALL_KINDS or is_search_call(kind, item) or client_call(kind, item)
        ):
            called = True
    return "tool_calls" if called else "done"
