"""What the fakes' programmatic tool calling shares: a call to a tool only programs may
call (its `allowed_callers` leave out "direct") is made by a program, as the live model
could only make it, scripted or not."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ._fake import FakeReply

__all__ = ["with_program_only_calls"]


def with_program_only_calls(reply: FakeReply, callers: Mapping[str, Sequence[Any]]) -> FakeReply:
    """`reply` with its calls to a tool only programs may call made by a program;
    `callers`: each tool's `allowed_callers`, by the name a call uses."""
    calls = tuple(
        replace(call, programmatic=True)
        if not call.programmatic and _program_only(callers.get(call.name))
        else call
        for call in reply.calls
    )
    return reply if calls == reply.calls else replace(reply, calls=calls)


def _program_only(callers: Sequence[Any] | None) -> bool:
    """Whether a tool's `allowed_callers` let only programs call it."""
    return bool(callers) and "direct" not in callers
