"""Anthropic tool choice: `{"type": "auto" | "any" | "tool" | "none"}`, with the parallel
switch inside it (`disable_parallel_tool_use`), refusing what the API answers 400 to.

Anthropic has no choice over a subset: with `among=`, the subset's definitions go as the
request's `tools`. The prompt cache starts with the tools, so a request with another tool
list misses what the requests with the whole list cached: `PromptCacheWarning` says so.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ...exceptions import PromptCacheWarning, ToolChoiceError, UnsupportedToolError

if TYPE_CHECKING:
    from ..._tool_choice import CheckedChoice

__all__ = ["choice_params"]


def choice_params(
    choice: CheckedChoice, *, parallel: bool | None, thinking: object
) -> dict[str, Any]:
    """The create call's arguments for `choice`: `tool_choice`, and with `among=` the
    subset's `tools`."""
    params: dict[str, Any] = {"tool_choice": _tool_choice(choice, parallel, thinking)}
    if choice.among:
        choice.refuse_custom_among("Anthropic")
        params["tools"] = choice.among_definitions()
        if choice.narrows_group:
            names = ", ".join(name for name, _ in choice.among)
            warnings.warn(
                f"Anthropic has no tool choice over a subset, so these params send only "
                f"{names} as `tools` (send them instead of your own tools=). The prompt cache "
                "starts with the tool list: requests with this list do not reuse what "
                "requests with the whole group cached, and the reverse. To keep the cache, "
                "send the whole group and say in the prompt which tools to use.",
                PromptCacheWarning,
                stacklevel=4,
            )
    return params


def _tool_choice(choice: CheckedChoice, parallel: bool | None, thinking: object) -> Any:
    if choice.tool is not None and choice.kind == "custom":
        raise UnsupportedToolError(
            f"{choice.tool} is a custom (free-text) tool; Anthropic has no custom tools. "
            "Force a function tool, or use an OpenAI API."
        )
    if choice.mode == "none":
        return {"type": "none"}  # takes no parallel switch: no call will be made
    if choice.mode == "required" and _extended_thinking(thinking):
        raise ToolChoiceError(
            "Anthropic rejects a forced tool choice ('required' or one named tool) while "
            "extended thinking is on (HTTP 400). Use 'auto' and say in the prompt which "
            "tool to call, or turn thinking off for this request (adaptive thinking "
            "accepts a forced choice)."
        )
    block: dict[str, Any] = (
        {"type": "tool", "name": choice.tool}
        if choice.tool is not None
        else {"type": "any"}
        if choice.mode == "required"
        else {"type": "auto"}
    )
    if parallel is not None:
        block["disable_parallel_tool_use"] = not parallel
    return block


def _extended_thinking(thinking: object) -> bool:
    """Whether `thinking` (a bool, or the request's `thinking` param) is extended
    thinking with a token budget: the mode that refuses forced tool choice."""
    if isinstance(thinking, bool):
        return thinking
    if isinstance(thinking, Mapping):
        settings = cast("Mapping[str, object]", thinking)
        return settings.get("type") == "enabled"
    return False
