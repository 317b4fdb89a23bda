"""How a Gemini turn ended: the rules the adapter (reading a `GenerateContentResponse`)
and the stream (folding its chunks) both apply (the adapter's module docstring maps every
reason)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..._turn import TurnStatus

__all__ = ["enum_text", "status_of"]

_REFUSED = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "LANGUAGE",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
        "ESCALATION",
        "PUP_LIMITED_DISABLED",
        "MODEL_ARMOR",
        "MISSING_THOUGHT_SIGNATURE",
    }
)
_TRUNCATED = frozenset({"MAX_TOKENS", "CONTINUATION", "TOO_MANY_TOOL_CALLS"})
_MALFORMED = frozenset({"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "MALFORMED_RESPONSE"})


def status_of(
    finish_reason: str | None, has_calls: bool, block_reason: str | None, has_candidate: bool
) -> TurnStatus:
    """The neutral turn status (see the adapter's module docstring for the mapping)."""
    if not has_candidate and block_reason:
        return "refused"
    if finish_reason in _REFUSED:
        return "refused"
    if finish_reason in _TRUNCATED:
        return "truncated"
    if finish_reason in _MALFORMED:
        return "malformed"
    return "tool_calls" if has_calls else "done"


def enum_text(value: object) -> str | None:
    """An enum member's value, or the string itself (unknown values stay strings)."""
    if value is None:
        return None
    found = getattr(value, "value", value)
    return found if isinstance(found, str) else str(found)
