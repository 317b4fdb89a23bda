"""Which tools the model may or must call, in each API's own words.

The four APIs spell the same choice four ways (`"required"`, `{"type": "any"}`,
`FunctionCallingConfig(mode="ANY")`...) and the switch for parallel calls lives in a
different place on each (a top-level flag, inside `tool_choice`, nowhere). This module
holds the public types and checks a choice against the group; each adapter turns the
checked choice into its create call's keyword arguments (`choice.py` in its folder),
refusing the combinations its live API rejects before the request is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NotRequired

from typing_extensions import TypedDict

from ._api import Api, adapter, check_api
from .exceptions import ToolChoiceError

if TYPE_CHECKING:
    from anthropic.types import ToolChoiceParam
    from google.genai.types import ToolConfig
    from openai.types.chat import ChatCompletionToolChoiceOptionParam
    from openai.types.responses.response_create_params import ToolChoice as ResponsesToolChoice

    from ._adapters.openai_chat.servers import ChatServer
    from ._tool import CustomToolModel, FunctionToolModel, ToolModel

__all__ = [
    "AnthropicToolChoiceParams",
    "CheckedChoice",
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


@dataclass(frozen=True, slots=True)
class CheckedChoice:
    """A tool choice checked against the group: what an adapter renders."""

    mode: ToolChoiceMode
    """"auto", "none" or "required" ("required" when one tool is forced)."""
    tool: str | None = None
    """The name of the one tool forced, if any."""
    kind: Literal["function", "custom"] = "function"
    """The forced tool's kind."""


def tool_choice_params(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]],
    api: Api | ChatServer,
    choice: ToolChoiceMode | type[ToolModel],
    *,
    parallel: bool | None,
    thinking: object,
) -> dict[str, Any]:
    """The create-call keyword arguments for `choice` over `tools` (see `tool_choice`)."""
    check_api(api)
    checked = _checked(tools, choice)
    return adapter(api).tool_choice_params(checked, parallel=parallel, thinking=thinking)


def _checked(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]], choice: object
) -> CheckedChoice:
    """`choice` checked: a mode, or one tool class of the group."""
    if isinstance(choice, str):
        if choice not in ("auto", "none", "required"):
            raise ToolChoiceError(
                f"tool_choice {choice!r} is not a choice: use 'auto', 'none', 'required', "
                "or one tool class of the group."
            )
        return CheckedChoice(choice)
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
    kind = "custom" if getattr(choice, "model_tool_type", "function") == "custom" else "function"
    return CheckedChoice("required", tool_name, kind)
