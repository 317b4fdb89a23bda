"""MCP content blocks to toolwire result parts, and back.

Both directions map onto the same parts the APIs render natively: a server's image
reaches the model as an image, not as a string of base64. What cannot be mapped (bad
base64, a media type no API takes) becomes a short note for the model instead of an
exception, so one odd block never costs the call its other content.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from typing import Any

import mcp_types as types

from .._media import inline
from .._parts import FilePart, ImagePart, ResultPart
from .._references import ToolReference, references_text
from ..exceptions import MediaError

__all__ = ["mcp_content", "result_parts"]

_RESOURCE_SCHEME = "toolwire://result/"
"""The URI of a file a toolwire tool returned inline (MCP resources need one)."""
_UTF8_CHARSETS = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})
"""Charsets whose bytes a text resource carries unchanged (ASCII is UTF-8)."""


def result_parts(result: types.CallToolResult) -> list[ResultPart]:
    """What the model sees of a server's result: its content blocks as parts, with
    `structured_content` as the text when the server sent it (the text blocks then
    hold the same JSON, so they are not repeated)."""
    parts: list[ResultPart] = []
    structured = result.structured_content
    if structured is not None:
        parts.append(json.dumps(structured, ensure_ascii=False))
    for block in result.content:
        if structured is not None and isinstance(block, types.TextContent):
            continue
        parts.append(_part(block))
    return parts


def _part(block: types.ContentBlock) -> ResultPart:
    if isinstance(block, types.TextContent):
        return block.text
    if isinstance(block, types.ImageContent):
        return _media(block.data, block.mime_type, "image", None)
    if isinstance(block, types.AudioContent):
        return _media(block.data, block.mime_type, "audio", None)
    if isinstance(block, types.ResourceLink):
        about = f" ({block.description})" if block.description else ""
        return f"[resource {block.name}: {block.uri}{about}]"
    resource = block.resource
    if isinstance(resource, types.TextResourceContents):
        return f"[resource {resource.uri}]\n{resource.text}"
    filename = str(resource.uri).rsplit("/", 1)[-1] or None
    return _media(resource.blob, resource.mime_type, "file", filename)


def _media(data: str, media_type: str | None, kind: str, filename: str | None) -> ResultPart:
    """A base64 block as an image or file part, or a note saying why it is not one."""
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return f"[the server sent {kind} content that is not valid base64; it was dropped]"
    try:
        if media_type and media_type.startswith("image/"):
            return ImagePart(data=raw, media_type=media_type)
        if media_type:
            return FilePart(data=raw, media_type=media_type, filename=filename)
        return FilePart.from_bytes(raw, filename=filename)
    except MediaError:
        shown = media_type or "an unknown type"
        return (
            f"[the server sent {kind} content of {shown}, which no model API takes; it was dropped]"
        )


def mcp_content(parts: Sequence[ResultPart], text: str) -> list[types.ContentBlock]:
    """A toolwire result as MCP content: text, images, audio and files as the blocks MCP
    clients render (`text` when the handler returned plain text). A `text/*` file goes
    as a text resource when its bytes are UTF-8 (and its media type names no other
    charset), else as a blob resource, byte for byte."""
    if not parts:
        return [types.TextContent(text=text)]
    return [_block(part, index) for index, part in enumerate(parts)]


def _block(part: ResultPart, index: int) -> types.ContentBlock:
    if isinstance(part, str):
        return types.TextContent(text=part)
    if isinstance(part, ToolReference):  # MCP has no tool references: named in text
        return types.TextContent(text=references_text([part]))
    part = inline(part)  # a `data:` URL goes as the bytes it holds, not as a link
    media_type = part.media_type or "application/octet-stream"
    if part.data is None:
        uri: Any = part.url or f"{_RESOURCE_SCHEME}{part.file_id}"
        name = (isinstance(part, FilePart) and part.filename) or uri
        return types.ResourceLink(uri=uri, name=name, mime_type=part.media_type)
    data = base64.b64encode(part.data).decode("ascii")
    if isinstance(part, ImagePart):
        return types.ImageContent(data=data, mime_type=media_type)
    if media_type.startswith("audio/"):
        return types.AudioContent(data=data, mime_type=media_type)
    filename = part.filename or f"file-{index}"
    uri = f"{_RESOURCE_SCHEME}{filename}"
    text = _utf8(part.data, media_type) if media_type.startswith("text/") else None
    if text is not None:
        return types.EmbeddedResource(
            resource=types.TextResourceContents(uri=uri, mime_type=media_type, text=text)
        )
    # Not text, or text in another encoding (a Latin-1 CSV, a UTF-16 log): the bytes as
    # they are, which a text resource (a JSON string) cannot carry.
    return types.EmbeddedResource(
        resource=types.BlobResourceContents(uri=uri, mime_type=media_type, blob=data)
    )


def _utf8(data: bytes, media_type: str) -> str | None:
    """`data` as text when it is valid UTF-8 and `media_type` names no other charset,
    else None."""
    charset = next(
        (
            value.strip().strip('"').lower()
            for key, _, value in (param.partition("=") for param in media_type.split(";")[1:])
            if key.strip().lower() == "charset"
        ),
        "utf-8",
    )
    if charset not in _UTF8_CHARSETS:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
