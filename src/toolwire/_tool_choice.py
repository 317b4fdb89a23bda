"""Which tools the model may or must call, in each API's own words.

The four APIs spell the same choice four ways (`"required"`, `{"type": "any"}`,
`FunctionCallingConfig(mode="ANY")`...) and the switch for parallel calls lives in a
different place on each (a top-level flag, inside `tool_choice`, nowhere). This module
turns one choice into the keyword arguments of each API's create call, and refuses the
combinations the live API rejects, before the request is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NotRequired, cast

from typing_extensions import TypedDict

from ._api import Api, check_api
from ._tool import FunctionToolModel
from .exceptions import ToolChoiceError, UnsupportedToolError

if TYPE_CHECKING:
    from anthropic.types import ToolChoiceParam
    from google.genai.types import ToolConfig
    from openai.types.chat import ChatCompletionToolChoiceOptionParam
    from openai.types.responses.response_create_params import ToolChoice as ResponsesToolChoice

    from ._tool import CustomToolModel, ToolModel

__all__ = [
    "AnthropicToolChoiceParams",
    "ChatToolChoiceParams",
    "GeminiToolChoiceParams",
    "ResponsesToolChoiceParams",
    "ToolChoiceMode",
    "tool_choice_params",
]

ToolChoiceMode = Literal["auto", "none", "required"]
"""auto: the model decides; none: no tool calls; required: at least one tool call."""


class ChatToolChoiceParams(TypedDict):
    """Keyword arguments for `client.chat.completions.create(**...)`."""

    tool_choice: ChatCompletionToolChoiceOptionParam
    parallel_tool_calls: NotRequired[bool]


class ResponsesToolChoiceParams(TypedDict):
    """Keyword arguments for `client.responses.create(**...)`."""

    tool_choice: ResponsesToolChoice
    parallel_tool_calls: NotRequired[bool]


class AnthropicToolChoiceParams(TypedDict):
    """Keyword arguments for `client.messages.create(**...)` (the parallel switch lives
    inside `tool_choice` as `disable_parallel_tool_use`)."""

    tool_choice: ToolChoiceParam


class GeminiToolChoiceParams(TypedDict):
    """Keyword arguments for `types.GenerateContentConfig(**...)`."""

    tool_config: ToolConfig


def tool_choice_params(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]],
    api: Api,
    choice: ToolChoiceMode | type[ToolModel],
    *,
    parallel: bool | None,
    thinking: object,
) -> dict[str, Any]:
    """The create-call keyword arguments for `choice` over `tools` (see `tool_choice`)."""
    api = check_api(api)
    named = _named(tools, choice)
    if api == "chat.completions":
        return _openai(_chat_choice(choice, named), parallel)
    if api == "responses":
        return _openai(_responses_choice(choice, named), parallel)
    if api == "anthropic":
        return {"tool_choice": _anthropic_choice(choice, named, parallel, thinking)}
    return {"tool_config": _gemini_config(tools, choice, named, parallel)}


def _named(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]], choice: object
) -> str | None:
    """The name of the one tool `choice` forces, checked to be in the group."""
    if isinstance(choice, str):
        if choice not in ("auto", "none", "required"):
            raise ToolChoiceError(
                f"tool_choice {choice!r} is not a choice: use 'auto', 'none', 'required', "
                "or one tool class of the group."
            )
        return None
    name = getattr(choice, "model_tool_name", None)
    if name is None:
        raise ToolChoiceError(
            f"tool_choice {choice!r} is not a choice: use 'auto', 'none', 'required', "
            "or one tool class of the group."
        )
    tool_name: str = name()
    if tools.get(tool_name) is not choice:
        raise ToolChoiceError(
            f"{getattr(choice, '__name__', tool_name)} is not in this group, so the model "
            f"cannot be made to call it. Add it to the group, or choose one of: "
            f"{', '.join(tools) or '(the group is empty)'}."
        )
    return tool_name


def _kind(choice: object) -> str:
    return getattr(choice, "model_tool_type", "function")


def _openai(tool_choice: Any, parallel: bool | None) -> dict[str, Any]:
    params: dict[str, Any] = {"tool_choice": tool_choice}
    if parallel is not None:
        params["parallel_tool_calls"] = parallel
    return params


def _chat_choice(choice: object, named: str | None) -> Any:
    if named is None:
        return choice
    if _kind(choice) == "custom":
        return {"type": "custom", "custom": {"name": named}}
    return {"type": "function", "function": {"name": named}}


def _responses_choice(choice: object, named: str | None) -> Any:
    if named is None:
        return choice
    return {"type": _kind(choice), "name": named}


def _anthropic_choice(
    choice: object, named: str | None, parallel: bool | None, thinking: object
) -> Any:
    if named is not None and _kind(choice) == "custom":
        raise UnsupportedToolError(
            f"{named} is a custom (free-text) tool; Anthropic has no custom tools. "
            "Force a function tool, or use an OpenAI API."
        )
    if choice == "none":
        return {"type": "none"}  # takes no parallel switch: no call will be made
    forced = named is not None or choice == "required"
    if forced and _extended_thinking(thinking):
        raise ToolChoiceError(
            "Anthropic rejects a forced tool choice ('required' or one named tool) while "
            "extended thinking is on (HTTP 400). Use 'auto' and say in the prompt which "
            "tool to call, or turn thinking off for this request (adaptive thinking "
            "accepts a forced choice)."
        )
    block: dict[str, Any] = (
        {"type": "tool", "name": named}
        if named is not None
        else {"type": "any"}
        if choice == "required"
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


def _gemini_config(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]],
    choice: object,
    named: str | None,
    parallel: bool | None,
) -> Any:
    from google.genai import types

    if parallel is False:
        raise ToolChoiceError(
            "Gemini has no switch for parallel calls: it may return several calls in one "
            "turn whatever you ask. Leave parallel=None and run them all "
            "(group.run_tool_calls answers each), or offer one tool at a time."
        )
    if named is not None and _kind(choice) == "custom":
        raise UnsupportedToolError(
            f"{named} is a custom (free-text) tool; Gemini has no custom tools. "
            "Force a function tool, or use an OpenAI API."
        )
    if choice == "auto":
        return types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(
                mode=types.FunctionCallingConfigMode.AUTO
            )
        )
    if choice == "none":
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
        allowed_function_names=[named] if named is not None else None,
    )
    return types.ToolConfig(function_calling_config=config)
