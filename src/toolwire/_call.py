"""The neutral tool call every API's call objects are read into, and the id a call
gets when it came without one."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from typing_extensions import TypeAliasType

from ._callers import ProgrammaticCaller

if TYPE_CHECKING:
    from anthropic.types import ToolUseBlock, ToolUseBlockParam
    from anthropic.types.beta import BetaToolUseBlock
    from google.genai.types import FunctionCall, FunctionCallDict, Part, PartDict
    from openai.types.chat import (
        ChatCompletionMessageCustomToolCall,
        ChatCompletionMessageCustomToolCallParam,
        ChatCompletionMessageFunctionToolCall,
        ChatCompletionMessageFunctionToolCallParam,
    )
    from openai.types.responses import (
        ResponseCustomToolCall,
        ResponseCustomToolCallParam,
        ResponseFunctionToolCall,
        ResponseFunctionToolCallParam,
    )

__all__ = [
    "CallType",
    "MCP_APPROVAL",
    "AnyCustomToolCall",
    "AnyFunctionToolCall",
    "AnyToolCall",
    "StandardToolCall",
    "synthesized_id",
]


CallType = Literal["function", "custom", "tool_search", "mcp_approval"]
"""What kind of call a call is: "function" (JSON arguments), "custom" (an OpenAI custom
tool's free text), "tool_search" (an OpenAI Responses `tool_search_call` run by the
client, which the group's tool search answers with a `tool_search_output`), or
"mcp_approval" (an OpenAI Responses `mcp_approval_request`, which `prepare_tool_calls`
makes a pending call of: see `MCPApproval`)."""

MCP_APPROVAL: Literal["mcp_approval"] = "mcp_approval"
"""The `CallType` of an MCP approval request."""


@dataclass(slots=True)
class StandardToolCall:
    """One tool call, whatever API it came from. Treat it as read-only.

    Attributes:
        type: "function" for function tools, "custom" for OpenAI custom (free-text) tools,
            "tool_search" for an OpenAI Responses `tool_search_call` the client runs
            (its name is then "tool_search": the group's tool search answers it),
            "mcp_approval" for a hosted MCP server's call waiting for approval (its
            name is then "<server_label>.<tool>", its input the `MCPApproval` fields).
        id: the id the result must answer: the provider's id, or one toolwire
            synthesized when the provider sent none (see `synthesized_id`).
        name: the tool name the model called, exactly as sent.
        input: the raw arguments: JSON text (OpenAI), a dict (Anthropic, Gemini), the
            free text of a custom tool call, or None when the model sent nothing.
        synthesized_id: True when `id` was made up by toolwire because the provider
            sent none. For Gemini such ids never go on the wire.
        truncated: True when a length limit cut the call off; it is answered with a
            "truncated" failure and never run.
        caller: None when the model made the call itself; a `ProgrammaticCaller` when
            its code did (programmatic tool calling: see `model_tool_allowed_callers`).
    """

    type: CallType
    id: str
    name: str
    input: str | Mapping[str, Any] | None
    synthesized_id: bool = False
    truncated: bool = False
    caller: ProgrammaticCaller | None = None

    @classmethod
    def from_any_call(cls, call: AnyToolCall) -> StandardToolCall:
        """Read one call object of any API (SDK model or its dict form)."""
        from ._read import read_call

        return read_call(call)


_UNSAFE_ID_CHARS = re.compile(r"[^A-Za-z0-9_-]")


def synthesized_id(response_id: str | None, index: int) -> str:
    """The id toolwire gives a call that came without one.

    Stable: the same response and position always give the same id, so the
    results and the replayed assistant turn agree. Only `[A-Za-z0-9_-]` is used,
    which every API accepts in ids.
    """
    if response_id:
        # Most ids are letters and digits already: no regex pass for them.
        safe = response_id if response_id.isalnum() and response_id.isascii() else None
        if safe is None:
            safe = _UNSAFE_ID_CHARS.sub("_", response_id)
        return f"toolwire_{safe[:64]}_{index}"
    return f"toolwire_{index}"


if TYPE_CHECKING:
    AnyFunctionToolCall = TypeAliasType(
        "AnyFunctionToolCall",
        StandardToolCall
        | ChatCompletionMessageFunctionToolCall
        | ChatCompletionMessageFunctionToolCallParam
        | ResponseFunctionToolCall
        | ResponseFunctionToolCallParam
        | ToolUseBlock
        | BetaToolUseBlock
        | ToolUseBlockParam
        | FunctionCall
        | FunctionCallDict
        | Part
        | PartDict
        | Mapping[str, Any],
    )
    """A function-tool call of any API (what `BaseFunctionToolModel` runs)."""
    AnyCustomToolCall = TypeAliasType(
        "AnyCustomToolCall",
        StandardToolCall
        | ChatCompletionMessageCustomToolCall
        | ChatCompletionMessageCustomToolCallParam
        | ResponseCustomToolCall
        | ResponseCustomToolCallParam
        | Mapping[str, Any],
    )
    """An OpenAI custom-tool call (what `BaseCustomToolModel` runs)."""
    AnyToolCall = TypeAliasType("AnyToolCall", AnyFunctionToolCall | AnyCustomToolCall)
    """A single tool call of any API: an SDK model, its param dict, or a StandardToolCall."""
else:
    AnyToolCall = TypeAliasType("AnyToolCall", object)
    AnyFunctionToolCall = TypeAliasType("AnyFunctionToolCall", object)
    AnyCustomToolCall = TypeAliasType("AnyCustomToolCall", object)
