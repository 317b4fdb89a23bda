"""What the two OpenAI APIs (Chat Completions and Responses) share: the tool-name rule,
the arguments of a replayed call that had none, which media OpenAI takes next to a
tool result, where the parallel-calls switch goes, and where an explicit prompt-cache
breakpoint goes. No SDK import.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from .._media import file_text, image_type_outside, media_bytes_problem
from .._parts import FilePart, ImagePart, MediaPart, media_kind, media_type_of
from ._base import check_tool_name

if TYPE_CHECKING:
    from .._api import Api

__all__ = [
    "NO_ARGUMENTS",
    "check_openai_name",
    "document_text",
    "filename",
    "mark_breakpoint",
    "openai_choice_params",
    "openai_media_note",
]

_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_NAME_RULE = "names must be 1-64 characters of a-z, A-Z, 0-9, '_' or '-'"

NO_ARGUMENTS = "{}"
"""The arguments a replayed call gets when its server sent none (`null`, or no key):
what toolwire ran it with, as the string the API's param types require."""

_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_MAX_IMAGE_BYTES = 20 * 1024 * 1024
_MAX_FILE_BYTES = 32 * 1024 * 1024


def check_openai_name(name: str, api: Api) -> None:
    """Raise `ToolDefinitionError` if the OpenAI APIs would reject the tool name."""
    check_tool_name(name, api, _NAME, _NAME_RULE)


def _no_note(part: MediaPart) -> str:
    return ""


def openai_media_note(part: MediaPart, source_note: Callable[[MediaPart], str] = _no_note) -> str:
    """Why an OpenAI API takes `part` nowhere next to a tool result ("" when it takes
    it): audio and video never (they answer 400); `source_note` says which sources the
    API refuses; bytes that do not decode (an image cut short, text not in its charset);
    images of types other than png, jpeg, gif and webp; images over 20 MB and files
    over 32 MB."""
    kind = media_kind(media_type_of(part))
    if kind in ("audio", "video"):
        return f"the OpenAI APIs take no {kind} next to tool results (they answer 400)"
    refused = source_note(part)
    if refused:
        return refused
    unreadable = media_bytes_problem(part)  # OpenAI answers 400: "unsupported image"
    if unreadable:
        return unreadable
    if isinstance(part, ImagePart):
        outside = image_type_outside(part, _IMAGE_TYPES)
        if outside is not None:
            return f"OpenAI takes png, jpeg, gif and webp images, not {outside}"
        if part.data is not None and len(part.data) > _MAX_IMAGE_BYTES:
            return "OpenAI takes images of up to 20 MB"
    elif part.data is not None and len(part.data) > _MAX_FILE_BYTES:
        return "OpenAI takes files of up to 32 MB"
    return ""


def document_text(part: FilePart) -> str:
    """A text document's content as the model reads it, under its filename if it has one."""
    text = file_text(part)
    return f"{part.filename}:\n{text}" if part.filename else text


def filename(part: FilePart) -> str:
    """The filename a file goes with (the API requires one with inline data)."""
    if part.filename:
        return part.filename
    return "document.pdf" if part.media_type == "application/pdf" else "file"


def openai_choice_params(tool_choice: Any, parallel: bool | None) -> dict[str, Any]:
    """The create call's arguments: `tool_choice`, and the top-level parallel switch."""
    params: dict[str, Any] = {"tool_choice": tool_choice}
    if parallel is not None:
        params["parallel_tool_calls"] = parallel
    return params


def mark_breakpoint(
    rendered: list[Any], ttl: str | Literal[True], *, tools: bool, text_type: str, api_title: str
) -> None:
    """Mark the last content part of `rendered` (the messages or items answering a turn)
    as the end of a reusable prompt prefix, with OpenAI's `prompt_cache_breakpoint` of
    lifetime `ttl` (True: the request's `prompt_cache_options.ttl`, "30m" by default);
    tool definitions have no such field (`tools`: only the lifetime is checked). A
    content given as text becomes its one text part (`text_type`: "text" on Chat
    Completions, "input_text" on Responses); `api_title` names the API in the error for
    a lifetime OpenAI does not take.

    Only content parts take a breakpoint: items without any (the `additional_tools` a
    tool reference adds, a `tool_search_output`, an `mcp_approval_response`) may end the
    answer, so the mark goes on the last part before them, and an answer of only such
    items gets none."""
    breakpoint: dict[str, str] = {"mode": "explicit"}
    if ttl is not True:
        if ttl not in ("30m", "12h"):
            raise ValueError(
                f"cache_breakpoint={ttl!r}: a {api_title} breakpoint lives '30m' (the "
                "default: pass True) or '12h'."
            )
        breakpoint["ttl"] = ttl
    if tools:
        return
    for item in reversed(rendered):
        key = "content" if "content" in item else "output"
        parts: Any = item.get(key)
        if isinstance(parts, str):
            parts = item[key] = [{"type": text_type, "text": parts}]
        if parts:  # else an item with no content part: the mark goes on one before it
            parts[-1]["prompt_cache_breakpoint"] = breakpoint
            return
