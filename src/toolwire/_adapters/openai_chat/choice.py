"""Chat Completions tool choice: the mode as it is, `{"type": "function", "function":
{"name": ...}}` (`"custom"` for a custom tool), or `{"type": "allowed_tools", ...}` over a
subset, with the top-level parallel switch; refused where the server would refuse it (a
forced choice, on servers that think)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ...exceptions import ToolChoiceError
from .._openai import openai_choice_params

if TYPE_CHECKING:
    from ..._tool_choice import CheckedChoice
    from .servers import ChatServer

__all__ = ["choice_params"]


def choice_params(
    choice: CheckedChoice, *, parallel: bool | None, thinking: object, server: ChatServer
) -> dict[str, Any]:
    """The create call's arguments for `choice` on `server`. `thinking` is the request's
    thinking switch where the server has one: False (or `{"type": "disabled"}`) when the
    request turns it off; None leaves the server's default."""
    if choice.mode == "required" and server.forced_tool_choice != "accepted":
        _refuse_forced(choice, thinking, server)
    if choice.among:
        tools = [{"type": kind, kind: {"name": name}} for name, kind in choice.among]
        allowed = {"type": "allowed_tools", "allowed_tools": {"mode": choice.mode, "tools": tools}}
        return openai_choice_params(allowed, parallel)
    if choice.tool is None:
        return openai_choice_params(choice.mode, parallel)
    forced = {"type": choice.kind, choice.kind: {"name": choice.tool}}
    return openai_choice_params(forced, parallel)


def _refuse_forced(choice: CheckedChoice, thinking: object, server: ChatServer) -> None:
    """Raise what the server would answer to a forced choice, unless it takes it here."""
    forced = f"the tool {choice.tool!r}" if choice.tool else "'required'"
    if server.forced_tool_choice == "refused":
        raise ToolChoiceError(
            f"{server.name} refuses a forced tool_choice ({forced}). Use 'auto' and say in "
            "the prompt which tool to call."
        )
    off = thinking is False or (
        isinstance(thinking, Mapping)
        and cast("Mapping[str, object]", thinking).get("type") == "disabled"
    )
    if not off:
        raise ToolChoiceError(
            f"{server.name} refuses a forced tool_choice ({forced}) while thinking is on, "
            'its default. Turn thinking off in the request (extra_body={"thinking": '
            '{"type": "disabled"}}) and pass thinking=False here, or use \'auto\'.'
        )
