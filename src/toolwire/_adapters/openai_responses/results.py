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
from typing import TYPE_CHECKING, Any

from ..._media import (
    MediaPlacement,
    Placement,
    attachments_line,
    data_url,
    image_bytes_problem,
    image_type_outside,
    inline,
    media_parts,
    note_for,
)
from ..._parts import ImagePart, MediaPart, media_kind, media_type_of
from ..openai_chat.results import OPENAI_IMAGE_TYPES, OPENAI_MAX_FILE_BYTES, OPENAI_MAX_IMAGE_BYTES

if TYPE_CHECKING:
    from openai.types.responses import (
        ResponseCustomToolCallOutputParam,
        ResponseFunctionCallOutputItemParam,
        ResponseInputFileContentParam,
        ResponseInputImageContentParam,
        ResponseInputItemParam,
        ResponseInputTextContentParam,
    )
    from openai.types.responses.response_input_param import FunctionCallOutput

    from ..._result import ToolCallResult

__all__ = ["attachments", "output_item", "place"]


def place(part: MediaPart, media: MediaPlacement) -> tuple[Placement, str]:
    """Where a part goes on Responses: inside the output item, in a user message after
    the outputs (`media="message"`), or a note where the API takes it nowhere."""
    part = inline(part)
    kind = media_kind(media_type_of(part))
    if kind in ("audio", "video"):
        return "note", f"the OpenAI APIs take no {kind} next to tool results (they answer 400)"
    if isinstance(part, ImagePart):
        outside = image_type_outside(part, OPENAI_IMAGE_TYPES)
        if outside is not None:
            return "note", f"OpenAI takes png, jpeg, gif and webp images, not {outside}"
        unreadable = image_bytes_problem(part)  # OpenAI answers 400: "unsupported image"
        if unreadable:
            return "note", unreadable
        if part.data is not None and len(part.data) > OPENAI_MAX_IMAGE_BYTES:
            return "note", "OpenAI takes images of up to 20 MB"
    elif part.data is not None and len(part.data) > OPENAI_MAX_FILE_BYTES:
        return "note", "OpenAI takes files of up to 32 MB"
    if media == "message":
        return "message", "media='message' was asked for"
    return "native", ""


def output_item(
    result: ToolCallResult[Any], media: MediaPlacement = "native"
) -> FunctionCallOutput | ResponseCustomToolCallOutputParam:
    """The `function_call_output` (or `custom_tool_call_output`) item answering `result`,
    its images and files inside it (with `media="message"`, they follow in a user
    message from `tool_result_messages` and this item's text says so)."""
    output: Any = result.result_content if not result.result_parts else _output(result, media)
    if result.type == "custom":
        return {"type": "custom_tool_call_output", "call_id": result.call_id, "output": output}
    return {"type": "function_call_output", "call_id": result.call_id, "output": output}


def _output(
    result: ToolCallResult[Any], media: MediaPlacement
) -> str | list[ResponseFunctionCallOutputItemParam]:
    items: list[ResponseFunctionCallOutputItemParam] = []
    moved = 0
    native = False
    for part in result.result_parts:
        if isinstance(part, str):
            if part:
                items.append({"type": "input_text", "text": part})
            continue
        part = inline(part)
        placement, reason = place(part, media)
        if placement == "native":
            items.append(_input_part(part))
            native = True
        elif placement == "note":
            items.append({"type": "input_text", "text": note_for(part, reason)})
        else:
            moved += 1
    if moved:
        items.append({"type": "input_text", "text": attachments_line(moved)})
    if not native:  # text and notes only: plain text, as for any text result
        return "\n".join(item["text"] for item in items if item["type"] == "input_text")
    return items


def attachments(
    results: Sequence[ToolCallResult[Any]], media: MediaPlacement
) -> list[ResponseInputItemParam]:
    """The user message holding the images and files placed after the outputs (with
    `media="message"`); none when there are none."""
    content: list[ResponseFunctionCallOutputItemParam] = []
    for result in results:
        moved = [p for p in map(inline, media_parts(result)) if place(p, media)[0] == "message"]
        if not moved:
            continue
        intro = f"From {result.name} (call {result.call_id}):"
        content.append({"type": "input_text", "text": intro})
        content.extend(_input_part(part) for part in moved)
    if not content:
        return []
    message: Any = {"role": "user", "content": content}
    return [message]


def _input_part(
    part: MediaPart,
) -> ResponseInputImageContentParam | ResponseInputFileContentParam | ResponseInputTextContentParam:
    part = inline(part)
    if isinstance(part, ImagePart):
        image: ResponseInputImageContentParam = {"type": "input_image", "detail": "auto"}
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
        assert part.data is not None
        text = part.data.decode("utf-8", errors="replace")
        return {
            "type": "input_text",
            "text": f"{part.filename}:\n{text}" if part.filename else text,
        }
    filename = part.filename or ("document.pdf" if part.media_type == "application/pdf" else "file")
    return {"type": "input_file", "file_data": data_url(part), "filename": filename}
