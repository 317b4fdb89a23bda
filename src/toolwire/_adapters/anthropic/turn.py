"""How an Anthropic turn ended, which of its calls was cut, and how a tool input that
was not JSON is kept: the rules the adapter (reading a `Message`) and the stream
(folding its events) both apply (the adapter's module docstring tells why)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..._turn import TurnStatus

__all__ = ["CUT_STOP_REASONS", "INVALID_JSON_KEY", "status_of", "unwrapped"]

CUT_STOP_REASONS = ("max_tokens", "model_context_window_exceeded", "refusal")
"""Stop reasons that cut the turn: the tool_use being written when it stopped is cut."""

INVALID_JSON_KEY = "INVALID_JSON"
"""Anthropic's convention for replaying tool input that was not valid JSON (possible
with fine-grained tool streaming): `{"INVALID_JSON": "<the raw text>"}`. Read back,
such an input is the raw text again, so it fails validation as invalid JSON."""

_STATUS: dict[str | None, TurnStatus] = {
    "tool_use": "tool_calls",
    "end_turn": "done",
    "stop_sequence": "done",
    "max_tokens": "truncated",
    "model_context_window_exceeded": "truncated",
    "pause_turn": "paused",
    # Beta `pause_after_compaction`: the turn is handed back after its compaction block,
    # before the model answers; sent back as it is, the turn goes on (the SDK's own
    # BetaToolRunner resumes both).
    "compaction": "paused",
    "refusal": "refused",
}


def status_of(stop_reason: str | None, has_calls: bool) -> TurnStatus:
    """The neutral status of a stop reason (a message without one: by its content)."""
    status = _STATUS.get(stop_reason)
    if status is None:
        return "tool_calls" if has_calls else "done"
    return status


def unwrapped(raw: dict[str, Any]) -> Any:
    """`{"INVALID_JSON": text}` read back as the raw text (see `INVALID_JSON_KEY`)."""
    if len(raw) == 1:
        text = raw.get(INVALID_JSON_KEY)
        if isinstance(text, str):
            return text
    return raw
