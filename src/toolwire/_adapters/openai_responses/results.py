"""Responses result rendering: one output item per call. No SDK import.

A `function_call_output` (or `custom_tool_call_output`) takes a list of `input_text`,
`input_image` and `input_file` parts, so a result's images and files go inside it, in
the order the handler returned them. With `media="message"` they go in one user
message after the outputs instead. Audio and video reach the model nowhere on this API
(it answers 400): a note takes their place, as it does for an image of a type OpenAI
does not take (heic, heif). A `data:` URL goes as the bytes it holds (a base64 `data:`
URL, a file's `file_data`, never a `file_url`), with the checks bytes get.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ..._media import (
    MediaPlacement,
    Placement,
    attachments_intro,
    data_url,
    inline,
    laid_out,
    moved_media,
)
from ..._parts import ImagePart, MediaPart
from ..._references import ToolReference
from .._openai import document_text, filename, openai_media_note
from .definitions import nested

if TYPE_CHECKING:
    from openai.types.responses import (
        ResponseCustomToolCallOutputParam,
        ResponseFunctionCallOutputItemParam,
        ResponseInputFileContentParam,
        ResponseInputImageContentParam,
        ResponseInputItemParam,
        ResponseInputTextContentParam,
        ResponseToolSearchOutputItemParamParam,
    )
    from openai.types.responses.response_input_param import (
        AdditionalTools,
        FunctionCallOutput,
        McpApprovalResponse,
    )

    from ..._result import ToolCallResult

__all__ = [
    "approval_response",
    "attachments",
    "loaded_definitions",
    "output_item",
    "place",
    "search_output",
]


def place(part: MediaPart, media: MediaPlacement) -> tuple[Placement, str]:
    """Where a part goes on Responses: inside the output item, in a user message after
    the outputs (`media="message"`), or a note where the API takes it nowhere."""
    note = openai_media_note(inline(part))
    if note:
        return "note", note
    if media == "message":
        return "message", "media='message' was asked for"
    return "native", ""


def output_item(
    result: ToolCallResult[Any], media: MediaPlacement = "native"
) -> FunctionCallOutput | ResponseCustomToolCallOutputParam:
    """The `function_call_output` (or `custom_tool_call_output`) item answering `result`,
    its images and files inside it (with `media="message"`, they follow in a user
    message from `tool_result_messages` and this item's text says so). A `tool_search`
    call gets its `tool_search_output`, holding the definitions of the tools it loads."""
    if result.type == "tool_search":
        return cast(Any, search_output(result))
    if result.type == "mcp_approval":
        return cast(Any, approval_response(result))
    output: Any = result.result_content  # a text result's (the common case)
    if result.result_parts:
        output = laid_out(result, media, place, _input_text, _input_part)
    if result.type == "custom":
        return {"type": "custom_tool_call_output", "call_id": result.call_id, "output": output}
    return {"type": "function_call_output", "call_id": result.call_id, "output": output}


def _input_text(text: str) -> ResponseInputTextContentParam:
    return {"type": "input_text", "text": text}


def attachments(
    results: Sequence[ToolCallResult[Any]], media: MediaPlacement
) -> list[ResponseInputItemParam]:
    """What follows the outputs: one `additional_tools` item with the definitions of the
    tools that function and custom results load (a tool search's output holds its own),
    then the user message holding the images and files placed after the outputs (with
    `media="message"`); none when there are none."""
    items: list[ResponseInputItemParam] = []
    loaded = [
        reference
        for result in results
        if result.result_parts and result.type != "tool_search"
        for reference in references_of(result)
    ]
    if loaded:
        added: AdditionalTools = {
            "type": "additional_tools",
            "role": "developer",
            "tools": loaded_definitions(loaded, defer=False),
        }
        items.append(added)
    content: list[ResponseFunctionCallOutputItemParam] = []
    for _, result, moved in moved_media(results, media, place):
        content.append(_input_text(attachments_intro(result)))
        content.extend(_input_part(part) for part in moved)
    if content:
        message: Any = {"role": "user", "content": content}
        items.append(message)
    return items


def approval_response(result: ToolCallResult[Any]) -> McpApprovalResponse:
    """The `mcp_approval_response` answering an MCP approval request's pending call:
    approving when it ran, refusing (the failure's text as the reason) otherwise."""
    if result.fail_reason is None:
        return {"type": "mcp_approval_response", "approval_request_id": result.call_id, "approve": True}  # fmt: skip
    return {
        "type": "mcp_approval_response",
        "approval_request_id": result.call_id,
        "approve": False,
        "reason": result.result_content,
    }


def search_output(result: ToolCallResult[Any]) -> ResponseToolSearchOutputItemParamParam:
    """The `tool_search_output` answering a client `tool_search_call`: the definitions of
    the tools it found, as deferred tools (none for a failure, or when nothing matched:
    the item has no place for text)."""
    return {
        "type": "tool_search_output",
        "call_id": result.call_id,
        "execution": "client",
        "status": "completed",
        "tools": loaded_definitions(references_of(result), defer=True),
    }


def references_of(result: ToolCallResult[Any]) -> list[ToolReference]:
    """The tool references among a result's parts, in order."""
    return [p for p in result.result_parts if isinstance(p, ToolReference)]


def loaded_definitions(references: Sequence[ToolReference], *, defer: bool) -> list[Any]:
    """The Responses definitions of the referenced tools (each once), a namespace's nested
    in its item; `defer`: as deferred tools (`defer_loading: true`, the shape tool search
    loads), else as tools added outright."""
    tools: list[Any] = []
    for reference in references:
        if all(t is not reference.tool for t in tools):
            tools.append(reference.tool)
    definitions: list[Any] = []
    for tool in tools:
        definition = tool.model_tool_definition("responses")
        if defer:
            definition["defer_loading"] = True
        else:
            definition.pop("defer_loading", None)
        definitions.append(definition)
    return nested(definitions, [tool.model_tool_namespace for tool in tools])


def _input_part(
    part: MediaPart,
) -> ResponseInputImageContentParam | ResponseInputFileContentParam | ResponseInputTextContentParam:
    if isinstance(part, ImagePart):
        image: ResponseInputImageContentParam = {
            "type": "input_image",
            "detail": part.detail or "auto",
        }
        if part.file_id is not None:
            image["file_id"] = part.file_id
        else:
            image["image_url"] = part.url if part.url is not None else data_url(part)
        return image
    if part.file_id is not None:
        return {"type": "input_file", "file_id": part.file_id}
    if part.url is not None:
        return {"type": "input_file", "file_url": part.url}
    if (part.media_type or "").startswith("text/"):
        return {"type": "input_text", "text": document_text(part)}
    return {"type": "input_file", "file_data": data_url(part), "filename": filename(part)}
