"""Which tools the model may or must call, in each API's own words.

The four APIs spell the same choice four ways (`"required"`, `{"type": "any"}`,
`FunctionCallingConfig(mode="ANY")`...) and the switch for parallel calls lives in a
different place on each (a top-level flag, inside `tool_choice`, nowhere). This module
holds the public types and checks a choice against the group; each adapter turns the
checked choice into its create call's keyword arguments (`choice.py` in its folder),
refusing the combinations its live API rejects before the request is sent.

A choice over a subset of the group (`among=`) keeps the `tools` list, and so the
prompt cache, the same from request to request where the API can say "only these"
(OpenAI `allowed_tools`, Gemini `allowed_function_names`); an API that cannot (Anthropic)
gets the subset as its `tools` instead, and `PromptCacheWarning` says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NotRequired, cast

from typing_extensions import TypedDict

from ._api import Api, adapter, check_api
from .exceptions import ToolChoiceError, UnsupportedToolError

if TYPE_CHECKING:
    from anthropic.types import ToolChoiceParam, ToolParam
    from google.genai.types import ToolConfig
    from openai.types.chat import ChatCompletionToolChoiceOptionParam
    from openai.types.responses.response_create_params import ToolChoice as ResponsesToolChoice

    from ._adapters.openai_chat.servers import ChatServer
    from ._tool import CustomToolModel, FunctionToolModel, ToolModel

__all__ = [
    "AnthropicSubsetChoiceParams",
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


class AnthropicSubsetChoiceParams(TypedDict):
    """Keyword arguments for `client.messages.create(**...)` of a choice with `among=`:
    `tools` holds the definitions of that subset (Anthropic has no other way to narrow
    the choice): send it instead of your own `tools=`."""

    tool_choice: ToolChoiceParam
    tools: list[ToolParam]


class GeminiToolChoiceParams(TypedDict):
    """Keyword arguments for `types.GenerateContentConfig(**...)`."""

    tool_config: ToolConfig


def _no_definitions() -> list[Any]:
    return []


@dataclass(frozen=True, slots=True)
class CheckedChoice:
    """A tool choice checked against the group: what an adapter renders."""

    mode: ToolChoiceMode
    """"auto", "none" or "required" ("required" when one tool is forced)."""
    tool: str | None = None
    """The name of the one tool forced, if any."""
    kind: Literal["function", "custom"] = "function"
    """The forced tool's kind."""
    among: tuple[tuple[str, Literal["function", "custom"]], ...] = ()
    """With `among=`: (name, kind) of each tool the model may call, in group order;
    `mode` ("auto" or "required") applies among them. Empty: every tool of the group."""
    among_definitions: Callable[[], list[Any]] = field(default=_no_definitions, compare=False)
    """The API's `tools` value holding only the `among` tools, for an API with no way to
    narrow the choice but its tool list (made when asked)."""
    narrows_group: bool = False
    """Whether `among` leaves some tool of the group out."""

    def refuse_custom_among(self, api_title: str) -> None:
        """`UnsupportedToolError` for a custom tool in `among`, on an API (`api_title`,
        e.g. "Gemini") that has no custom tools."""
        custom = [name for name, kind in self.among if kind == "custom"]
        if custom:
            raise UnsupportedToolError(
                f"{custom[0]} is a custom (free-text) tool; {api_title} has no custom tools. "
                "Offer function tools only, or use an OpenAI API."
            )


def tool_choice_params(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]],
    api: Api | ChatServer,
    choice: ToolChoiceMode | type[ToolModel],
    *,
    among: Iterable[type[ToolModel]] | None = None,
    parallel: bool | None,
    thinking: object,
) -> dict[str, Any]:
    """The create-call keyword arguments for `choice` over `tools` (see `tool_choice`)."""
    check_api(api)
    checked = _checked(tools, choice)
    if among is not None:
        checked = _among(tools, api, checked, among)
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
    tool_name, kind = _member(tools, choice, "the model cannot be made to call it")
    return CheckedChoice("required", tool_name, kind)


def _member(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]],
    tool: object,
    consequence: str,
) -> tuple[str, Literal["function", "custom"]]:
    """The name and kind of `tool`, a tool class of the group; `ToolChoiceError` saying
    `consequence` for anything else."""
    name = getattr(tool, "model_tool_name", None)
    tool_name = name() if callable(name) else None
    if not isinstance(tool_name, str) or tools.get(tool_name) is not tool:
        shown = getattr(tool, "__name__", None) or repr(tool)
        raise ToolChoiceError(
            f"{shown} is not in this group, so {consequence}. Add it to the group, or "
            f"choose one of: {', '.join(tools) or '(the group is empty)'}."
        )
    kind = "custom" if getattr(tool, "model_tool_type", "function") == "custom" else "function"
    return tool_name, kind


def _among(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]],
    api: Api | ChatServer,
    checked: CheckedChoice,
    among: Iterable[type[ToolModel]],
) -> CheckedChoice:
    """`checked` narrowed to the tools of `among`, in group order."""
    if checked.tool is not None or checked.mode == "none":
        what = "one tool class" if checked.tool is not None else "'none'"
        raise ToolChoiceError(
            f"among= narrows 'auto' or 'required' to some tools of the group, but the choice "
            f"is {what}. Pass choice='auto' (the model may call one of them, or none) or "
            "'required' (it must call at least one of them) with among=, or drop among=."
        )
    if isinstance(among, str | type) or not isinstance(among, Iterable):
        raise ToolChoiceError(
            f"among= takes tool classes of the group (a list or a set), not {among!r}."
        )
    chosen = {
        _member(tools, tool, "among= cannot offer it")[0]
        for tool in cast("Iterable[object]", among)
    }
    if not chosen:
        raise ToolChoiceError(
            "among= is empty: the model would have no tool to call. Name at least one tool "
            "class of the group, or use choice='none'."
        )
    subset = [entry for entry in _kinds(tools) if entry[0] in chosen]

    def definitions() -> list[Any]:
        listed: list[Any] = [tools[name].model_tool_definition(api) for name, _ in subset]
        namespaces = [tools[name].model_tool_namespace for name, _ in subset]
        return adapter(api).tool_definitions(listed, namespaces)

    return CheckedChoice(
        checked.mode,
        among=tuple(subset),
        among_definitions=definitions,
        narrows_group=len(subset) < len(tools),
    )


def _kinds(
    tools: Mapping[str, type[FunctionToolModel] | type[CustomToolModel]],
) -> list[tuple[str, Literal["function", "custom"]]]:
    kinds: list[tuple[str, Literal["function", "custom"]]] = []
    for name, tool in tools.items():
        kinds.append((name, "custom" if tool.model_tool_type == "custom" else "function"))
    return kinds
