"""Responses' client-executed built-in tools: the calls, typed, and their answers.

The Responses API runs some built-in tools on the client: `shell_call`,
`local_shell_call`, `apply_patch_call`, `computer_call`, and asks the client to approve
a hosted MCP server's call (`mcp_approval_request`). toolwire does not run them (they
need a sandbox, a screen, a person), but the caller's loop must answer each one in the
next request, with an item whose shape differs per tool. `builtin_calls` lists a
response's pending ones as the SDK's own output-item models, and the builders below
make each answer as the SDK's `ResponseInputItemParam` variant, so no answer is hand
written JSON.

The SDK is imported only where a dict item must become its SDK model
(`builtin_calls` over dict forms).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import TypeAdapter
from typing_extensions import TypeAliasType

from ..._media import data_url, inline
from ..._parts import ImagePart
from .._base import field
from .items import client_call

if TYPE_CHECKING:
    from openai.types.responses import (
        ResponseApplyPatchToolCall,
        ResponseComputerToolCall,
        ResponseComputerToolCallOutputScreenshotParam,
        ResponseFunctionShellToolCall,
    )
    from openai.types.responses.response_function_shell_call_output_content_param import (
        ResponseFunctionShellCallOutputContentParam,
    )
    from openai.types.responses.response_input_item_param import (
        ApplyPatchCallOutput,
        ComputerCallOutput,
        LocalShellCallOutput,
        McpApprovalResponse,
        ShellCallOutput,
    )
    from openai.types.responses.response_output_item import LocalShellCall, McpApprovalRequest

    BuiltinCall = TypeAliasType(
        "BuiltinCall",
        ResponseFunctionShellToolCall
        | LocalShellCall
        | ResponseApplyPatchToolCall
        | ResponseComputerToolCall
        | McpApprovalRequest,
    )
    """A client-executed built-in call of a Responses response, as the SDK's model:
    `shell_call`, `local_shell_call`, `apply_patch_call`, `computer_call`, or
    `mcp_approval_request`."""
else:
    BuiltinCall = TypeAliasType("BuiltinCall", object)

__all__ = [
    "BuiltinCall",
    "ShellCommandOutput",
    "apply_patch_call_output",
    "builtin_calls",
    "computer_call_output",
    "local_shell_call_output",
    "mcp_approval_response",
    "shell_call_output",
]

_BUILTIN_TYPES = frozenset(
    {"shell_call", "local_shell_call", "apply_patch_call", "computer_call", "mcp_approval_request"}
)


def builtin_calls(response: object) -> list[BuiltinCall]:
    """The client-executed built-in calls of a Responses `Response` (or of its output
    items, SDK models or dict forms) that the next request must answer, in order, as the
    SDK's models (dicts are validated into them): each `shell_call` (not one the
    server ran in a hosted container), `local_shell_call`, `apply_patch_call`,
    `computer_call` and `mcp_approval_request`. Answer each with its builder
    (`shell_call_output`, `local_shell_call_output`, `apply_patch_call_output`,
    `computer_call_output`, `mcp_approval_response`); then `other_calls="ignore"` lets
    `run_tool_calls` run the function calls beside them."""
    output = field(response, "output", None) if not isinstance(response, Sequence) else None
    items: Sequence[object] = (
        cast("Sequence[object]", response) if output is None else cast("Sequence[object]", output)
    )
    found: list[BuiltinCall] = []
    for item in items:
        kind = field(item, "type")
        if kind not in _BUILTIN_TYPES or client_call(kind, item) is None:
            continue
        found.append(_as_model(cast(Any, item)) if isinstance(item, Mapping) else cast(Any, item))
    return found


def _as_model(item: Mapping[Any, Any]) -> BuiltinCall:
    return _output_items().validate_python(item)


@cache
def _output_items() -> TypeAdapter[Any]:
    """The SDK's output-item union as a validator (built once: it is large)."""
    from openai.types.responses import ResponseOutputItem

    return TypeAdapter(ResponseOutputItem)


@dataclass(frozen=True, slots=True)
class ShellCommandOutput:
    """What one command of a `shell_call` printed, and how it ended.

    Attributes:
        stdout: what it wrote to standard output (cut to the call's
            `action.max_output_length` if you enforce it).
        stderr: what it wrote to standard error.
        exit_code: its exit code; None when it ran out of time (`timeout_ms`).
    """

    stdout: str = ""
    stderr: str = ""
    exit_code: int | None = 0


def shell_call_output(
    call: ResponseFunctionShellToolCall, outputs: Sequence[ShellCommandOutput]
) -> ShellCallOutput:
    """The `shell_call_output` answering `call`: one `ShellCommandOutput` per command of
    `call.action.commands`, in order (the call's `max_output_length` and programmatic
    caller are carried over)."""
    content: list[ResponseFunctionShellCallOutputContentParam] = []
    for output in outputs:
        if not isinstance(output, ShellCommandOutput):
            raise TypeError(
                f"shell_call_output takes a ShellCommandOutput per command; got a "
                f"{type(output).__name__}. Write ShellCommandOutput(stdout=..., "
                "stderr=..., exit_code=...) (exit_code=None for a command that timed out)."
            )
        content.append(
            {
                "stdout": output.stdout,
                "stderr": output.stderr,
                "outcome": {"type": "timeout"}
                if output.exit_code is None
                else {"type": "exit", "exit_code": output.exit_code},
            }
        )
    answer: ShellCallOutput = {
        "type": "shell_call_output",
        "call_id": _call_id(call, "shell_call"),
        "output": content,
    }
    limit = field(field(call, "action"), "max_output_length")
    if limit is not None:
        answer["max_output_length"] = limit
    _carry_caller(call, answer)
    return answer


def local_shell_call_output(call: LocalShellCall, output: str) -> LocalShellCallOutput:
    """The `local_shell_call_output` answering `call`, with what its command printed."""
    if not isinstance(output, str):
        raise TypeError(
            f"local_shell_call_output takes the command's output as text; got a "
            f"{type(output).__name__}."
        )
    return {
        "type": "local_shell_call_output",
        "id": _call_id(call, "local_shell_call"),
        "output": output,
    }


def apply_patch_call_output(
    call: ResponseApplyPatchToolCall,
    *,
    status: Literal["completed", "failed"] = "completed",
    output: str | None = None,
) -> ApplyPatchCallOutput:
    """The `apply_patch_call_output` answering `call`: whether its operation
    (`call.operation`: create, update or delete a file) was applied, and a log the model
    reads (e.g. why it failed)."""
    if status not in ("completed", "failed"):
        raise ValueError(
            f'apply_patch_call_output(status={status!r}): pass "completed" (applied) or '
            '"failed" (not applied; say why in output=).'
        )
    answer: ApplyPatchCallOutput = {
        "type": "apply_patch_call_output",
        "call_id": _call_id(call, "apply_patch_call"),
        "status": status,
    }
    if output is not None:
        answer["output"] = output
    _carry_caller(call, answer)
    return answer


def computer_call_output(
    call: ResponseComputerToolCall,
    screenshot: ImagePart,
    *,
    acknowledge_safety_checks: bool = False,
) -> ComputerCallOutput:
    """The `computer_call_output` answering `call`: the screenshot taken after its
    actions ran (an `ImagePart`: bytes, a URL, or an uploaded `file_id`).

    A call with `pending_safety_checks` must have them acknowledged: show them to a
    person, then pass `acknowledge_safety_checks=True` (the answer carries them);
    without it such a call raises `ValueError` rather than send an answer the API
    refuses."""
    if not isinstance(screenshot, ImagePart):
        raise TypeError(
            f"computer_call_output takes the screenshot as an ImagePart; got a "
            f"{type(screenshot).__name__}. Write ImagePart.from_bytes(png_bytes), "
            "ImagePart(url=...) or ImagePart(file_id=...)."
        )
    call_id = _call_id(call, "computer_call")
    image = cast(ImagePart, inline(screenshot))
    shown: ResponseComputerToolCallOutputScreenshotParam = {"type": "computer_screenshot"}
    if image.file_id is not None:
        shown["file_id"] = image.file_id
    elif image.data is not None:
        shown["image_url"] = data_url(image)
    elif image.url is not None:
        shown["image_url"] = image.url
    answer: ComputerCallOutput = {
        "type": "computer_call_output",
        "call_id": call_id,
        "output": shown,
    }
    checks = field(call, "pending_safety_checks") or ()
    if checks:
        if not acknowledge_safety_checks:
            listed = "; ".join(
                str(field(check, "message") or field(check, "code") or field(check, "id"))
                for check in checks
            )
            raise ValueError(
                f"The computer_call {call_id!r} has pending safety checks ({listed}). Show "
                "them to a person; if they agree, pass acknowledge_safety_checks=True, else "
                "stop the loop (the API refuses an answer that does not acknowledge them)."
            )
        answer["acknowledged_safety_checks"] = [
            {
                "id": field(check, "id"),
                "code": field(check, "code"),
                "message": field(check, "message"),
            }
            for check in checks
        ]
    return answer


def mcp_approval_response(
    request: McpApprovalRequest, approve: bool, *, reason: str | None = None
) -> McpApprovalResponse:
    """The `mcp_approval_response` answering `request` (a hosted MCP server's call
    waiting for approval): `approve=True` lets the server run it, False refuses it;
    `reason` says why (optional)."""
    if type(approve) is not bool:
        raise TypeError(
            f"mcp_approval_response(approve={approve!r}): pass True (run the MCP call) or "
            "False (refuse it)."
        )
    request_id = field(request, "id")
    if field(request, "type") != "mcp_approval_request" or not isinstance(request_id, str):
        raise TypeError(
            "mcp_approval_response answers an mcp_approval_request item (from "
            f"builtin_calls(response)); got {_described(request)}."
        )
    answer: McpApprovalResponse = {
        "type": "mcp_approval_response",
        "approval_request_id": request_id,
        "approve": approve,
    }
    if reason is not None:
        answer["reason"] = reason
    return answer


def _call_id(call: object, kind: str) -> str:
    """The `call_id` of a built-in call of `kind`; TypeError for anything else."""
    call_id = field(call, "call_id")
    if field(call, "type") != kind or not isinstance(call_id, str) or not call_id:
        raise TypeError(
            f"Expected a {kind} item (from builtin_calls(response)); got {_described(call)}."
        )
    return call_id


def _described(item: object) -> str:
    kind = field(item, "type")
    return f"a {kind} item" if isinstance(kind, str) else f"a {type(item).__name__}"


def _carry_caller(call: object, answer: Any) -> None:
    """A call a program made (`caller.type == "program"`) is answered to that program."""
    caller = field(call, "caller")
    if field(caller, "type") == "program":
        answer["caller"] = {"type": "program", "caller_id": field(caller, "caller_id")}
