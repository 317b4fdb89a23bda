"""Gemini tool choice: a `ToolConfig` whose `FunctionCallingConfig` mode is AUTO, NONE or
ANY (with the one allowed function when a tool is forced). Over a subset, the allowed
function names go with ANY ("required") or VALIDATED ("auto": calls of those functions,
checked against their schemas, or text), the modes that take them. Gemini has no parallel
switch and no custom tools: asking for either raises."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...exceptions import ToolChoiceError, UnsupportedToolError

if TYPE_CHECKING:
    from google.genai.types import ToolConfig

    from ..._tool_choice import CheckedChoice

__all__ = ["choice_params"]


def choice_params(
    choice: CheckedChoice, *, parallel: bool | None, thinking: object
) -> dict[str, Any]:
    """The `GenerateContentConfig` arguments for `choice` (`thinking` changes nothing
    here)."""
    return {"tool_config": _tool_config(choice, parallel)}


def _tool_config(choice: CheckedChoice, parallel: bool | None) -> ToolConfig:
    from google.genai import types

    if parallel is False:
        raise ToolChoiceError(
            "Gemini has no switch for parallel calls: it may return several calls in one "
            "turn whatever you ask. Leave parallel=None and run them all "
            "(group.run_tool_calls answers each), or offer one tool at a time."
        )
    if choice.tool is not None and choice.kind == "custom":
        raise UnsupportedToolError(
            f"{choice.tool} is a custom (free-text) tool; Gemini has no custom tools. "
            "Force a function tool, or use an OpenAI API."
        )
    if choice.among:
        choice.refuse_custom_among("Gemini")
        mode = (
            types.FunctionCallingConfigMode.ANY
            if choice.mode == "required"
            else types.FunctionCallingConfigMode.VALIDATED
        )
        names = [name for name, _ in choice.among]
        config = types.FunctionCallingConfig(mode=mode, allowed_function_names=names)
        return types.ToolConfig(function_calling_config=config)
    if choice.mode == "auto":
        return types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(
                mode=types.FunctionCallingConfigMode.AUTO
            )
        )
    if choice.mode == "none":
        return types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(
                mode=types.FunctionCallingConfigMode.NONE
            )
        )
    # Mode ANY with a tool that takes no arguments is fine: the 400 users hit
    # (python-genai#981) is for a declaration without any parameters, and toolwire always
    # declares an object schema. Recorded: mode ANY with a parameterless tool declared as
    # an empty object got its call back, and the follow-up was accepted.
    config = types.FunctionCallingConfig(
        mode=types.FunctionCallingConfigMode.ANY,
        allowed_function_names=[choice.tool] if choice.tool is not None else None,
    )
    return types.ToolConfig(function_calling_config=config)
