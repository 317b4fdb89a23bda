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
from typing import TYPE_CHECKING, Any, Literal

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
from .._openai import document_text, filename, openai_media_note

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
    from openai.types.responses.response_input_text_content_param import PromptCacheBreakpoint

    from ..._result import ToolCallResult

__all__ = ["attachments", "mark_breakpoint", "output_item", "place"]


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
    message from `tool_result_messages` and this item's text says so)."""
    output: Any = laid_out(result, media, place, _input_text, _input_part)
    if result.type == "custom":
        return {"type": "custom_tool_call_output", "call_id": result.call_id, "output": output}
    return {"type": "function_call_output", "call_id": result.call_id, "output": output}


def mark_breakpoint(rendered: list[Any], ttl: str | Literal[True], *, tools: bool) -> None:
    """Mark the last content part of `rendered` (the items answering a turn) as the end of
    a reusable prompt prefix, with lifetime `ttl` (True: the request's default); tool
    definitions have no such field (`tools`: nothing to do)."""
    breakpoint: PromptCacheBreakpoint = {"mode": "explicit"}
    if ttl == "30m":
        breakpoint["ttl"] = "30m"
    elif ttl == "12h":
        breakpoint["ttl"] = "12h"
    elif ttl is not True:
        raise ValueError(
            f"cache_breakpoint={ttl!r}: a Responses breakpoint lives '30m' (the default: "
            "pass True) or '12h'."
        )
    if tools or not rendered:
        return
    last = rendered[-1]
    key = "content" if "content" in last else "output"
    if isinstance(last[key], str):
        last[key] = [_input_text(last[key])]
    last[key][-1]["prompt_cache_breakpoint"] = breakpoint


def _input_text(text: str) -> ResponseInputTextContentParam:
    return {"type": "input_text", "text": text}


def attachments(
    results: Sequence[ToolCallResult[Any]], media: MediaPlacement
) -> list[ResponseInputItemParam]:
    """The user message holding the images and files placed after the outputs (with
    `media="message"`); none when there are none."""
    content: list[ResponseFunctionCallOutputItemParam] = []
    for _, result, moved in moved_media(results, media, place):
        content.append(_input_text(attachments_intro(result)))
        content.extend(_input_part(part) for part in moved)
    if not content:
        return []
    message: Any = {"role": "user", "content": content}
    return [message]


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
