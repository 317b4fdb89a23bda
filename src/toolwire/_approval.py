"""Why a call needs approval, as data: what `model_tool_needs_approval` may return.

A plain True says only "ask"; a person deciding wants to know why, and the front end
that shows the question wants something to show ("deletes 40 files", a diff, a risk
level). `ApprovalRequired` carries that, typed; `PendingCall.approval` gives it, and
`dump_pending` stores it with the call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ApprovalRequired", "approval_of"]


@dataclass(frozen=True, slots=True)
class ApprovalRequired:
    """Return it from `model_tool_needs_approval` to ask for approval and say why.

    Attributes:
        hint: a short text for the person deciding (e.g. "Deletes 40 files in /data").
        metadata: anything else the deciding side should show or check, as JSON data
            (text keys; dicts, lists, text, numbers, booleans, None): it is stored in
            `dump_pending`'s JSON.
    """

    hint: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict[str, Any])

    def __post_init__(self) -> None:
        if self.hint is not None and not isinstance(self.hint, str):
            raise TypeError(
                f"ApprovalRequired(hint=...) takes text or None; got a {type(self.hint).__name__}."
            )
        if not isinstance(self.metadata, Mapping) or any(
            type(key) is not str for key in self.metadata
        ):
            raise TypeError(
                "ApprovalRequired(metadata=...) takes a dict with text keys (JSON data, "
                f"stored with the pending call); got {self.metadata!r}."
            )


_ASK = ApprovalRequired()
"""What a plain True from `model_tool_needs_approval` means: ask, with nothing to show."""


def approval_of(tool: Any) -> ApprovalRequired | None:
    """What the validated tool instance's `model_tool_needs_approval` asks: None when
    the call may run without asking, else why it needs approval (empty for a True)."""
    verdict: object = tool.model_tool_needs_approval()
    if verdict is False:
        return None
    if verdict is True:
        return _ASK
    if isinstance(verdict, ApprovalRequired):
        return verdict
    raise TypeError(
        f"{type(tool).__name__}.model_tool_needs_approval returned {verdict!r}; return "
        "False (runs without asking), True (asks), or ApprovalRequired(hint, metadata=...) "
        "(asks, saying why)."
    )
