"""Names of `toolwire.core` and `toolwire.aio` that load on first use.

A plain dispatch needs neither the schema compiler, nor streaming, nor toolcall's
definition models, nor what Chat Completions servers other than OpenAI's need;
importing them costs a fifth of `import toolwire.core`. Both
namespaces export `__all__` below and import these names for type checkers only (from
here); at run time their `__getattr__` is `lazy_getattr`, which loads each module the
first time one of its names is read.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._adapters.anthropic.callers import next_request_container
    from ._adapters.openai_chat.failed import FailedGeneration, failed_generation
    from ._adapters.openai_chat.recover import recover_text_calls
    from ._adapters.openai_chat.servers import ChatServer
    from ._adapters.openai_responses.builtin import (
        BuiltinCall,
        ShellCommandOutput,
        apply_patch_call_output,
        builtin_calls,
        computer_call_output,
        local_shell_call_output,
        mcp_approval_response,
        shell_call_output,
    )
    from ._argument_repair import ArgumentRepair, RepairKind
    from ._mcp_approval_tool import MCPApproval
    from ._repair import RepairFunction, RepairPolicy
    from ._retry_budget import RetryBudget, RetryBudgetDict
    from ._schema import SchemaChange, SchemaReport
    from ._standard import (
        StandardCustomToolDefinition,
        StandardCustomToolFormat,
        StandardCustomToolGrammarFormat,
        StandardCustomToolTextFormat,
        StandardFunctionToolDefinition,
    )
    from ._stream import ToolCallStream
    from ._streaming._events import (
        ReasoningDelta,
        StreamEvent,
        TextDelta,
        ToolCallArgumentsDelta,
        ToolCallCompleted,
        ToolCallStarted,
        ToolCallTruncated,
        TurnEnded,
    )
    from ._streaming._preview import StringDelta

__all__ = [
    "apply_patch_call_output",
    "ArgumentRepair",
    "builtin_calls",
    "BuiltinCall",
    "ChatServer",
    "computer_call_output",
    "failed_generation",
    "FailedGeneration",
    "next_request_container",
    "local_shell_call_output",
    "MCPApproval",
    "mcp_approval_response",
    "ReasoningDelta",
    "recover_text_calls",
    "RepairFunction",
    "RepairKind",
    "RepairPolicy",
    "RetryBudget",
    "RetryBudgetDict",
    "SchemaChange",
    "SchemaReport",
    "shell_call_output",
    "ShellCommandOutput",
    "StandardCustomToolDefinition",
    "StandardCustomToolFormat",
    "StandardCustomToolGrammarFormat",
    "StandardCustomToolTextFormat",
    "StandardFunctionToolDefinition",
    "StreamEvent",
    "StringDelta",
    "TextDelta",
    "ToolCallArgumentsDelta",
    "ToolCallCompleted",
    "ToolCallStarted",
    "ToolCallStream",
    "ToolCallTruncated",
    "TurnEnded",
]
"""The lazy names (only ever imported by type checkers: see `lazy_getattr`)."""

LAZY_NAMES: dict[str, str] = {
    "ArgumentRepair": "._argument_repair",
    "RepairKind": "._argument_repair",
    "RepairFunction": "._repair",
    "RepairPolicy": "._repair",
    "RetryBudget": "._retry_budget",
    "RetryBudgetDict": "._retry_budget",
    "SchemaChange": "._schema",
    "SchemaReport": "._schema",
    "StandardCustomToolDefinition": "._standard",
    "StandardCustomToolFormat": "._standard",
    "StandardCustomToolGrammarFormat": "._standard",
    "StandardCustomToolTextFormat": "._standard",
    "StandardFunctionToolDefinition": "._standard",
    "ReasoningDelta": "._streaming._events",
    "StreamEvent": "._streaming._events",
    "TextDelta": "._streaming._events",
    "ToolCallArgumentsDelta": "._streaming._events",
    "ToolCallCompleted": "._streaming._events",
    "ToolCallStarted": "._streaming._events",
    "ToolCallTruncated": "._streaming._events",
    "TurnEnded": "._streaming._events",
    "StringDelta": "._streaming._preview",
    "ToolCallStream": "._stream",
    "ChatServer": "._adapters.openai_chat.servers",
    "FailedGeneration": "._adapters.openai_chat.failed",
    "failed_generation": "._adapters.openai_chat.failed",
    "recover_text_calls": "._adapters.openai_chat.recover",
    "next_request_container": "._adapters.anthropic.callers",
    "MCPApproval": "._mcp_approval_tool",
    "BuiltinCall": "._adapters.openai_responses.builtin",
    "ShellCommandOutput": "._adapters.openai_responses.builtin",
    "apply_patch_call_output": "._adapters.openai_responses.builtin",
    "builtin_calls": "._adapters.openai_responses.builtin",
    "computer_call_output": "._adapters.openai_responses.builtin",
    "local_shell_call_output": "._adapters.openai_responses.builtin",
    "mcp_approval_response": "._adapters.openai_responses.builtin",
    "shell_call_output": "._adapters.openai_responses.builtin",
}
"""Public name -> the module (relative to `toolwire`) that defines it."""


def lazy_getattr(module: str) -> Callable[[str], object]:
    """A module `__getattr__` for `module` that loads the names above when read."""

    def __getattr__(name: str) -> object:
        source = LAZY_NAMES.get(name)
        if source is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        return getattr(importlib.import_module(source, "toolwire"), name)

    return __getattr__
