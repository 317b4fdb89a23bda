"""MCP content blocks to toolwire result parts, and back.

Both directions map onto the same parts the APIs render natively: a server's image
reaches the model as an image, not as a string of base64. A media block's type follows
its bytes where their signature tells (a JPEG labelled `image/jpg`, a PNG labelled
`image/jpeg`), and a resource whose type is text (JSON, XML, YAML...) is read as text.
What cannot be mapped (bad base64, a media type no API takes, bytes that are no image)
becomes a short note for the model instead of an exception, so one odd block never
costs the call its other content.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from typing import Any, cast

import mcp_types as types

from .._media import SIGNED_IMAGE_TYPES, image_bytes_problem, image_bytes_type, inline
from .._parts import (
    FilePart,
    ImagePart,
    ResultPart,
    SearchResultPart,
    guess_media_type,
    search_result_text,
)
from .._references import ToolReference, references_text
from ..exceptions import MediaError

__all__ = ["mcp_content", "result_parts"]

_RESOURCE_SCHEME = "toolwire://result/"
"""The URI of a file a toolwire tool returned inline (MCP resources need one)."""
_UTF8_CHARSETS = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})
"""Charsets whose bytes a text resource carries unchanged (ASCII is UTF-8)."""
_TEXT_APPLICATION_TYPES = frozenset(
    {
        "application/json",
        "application/xml",
        "application/yaml",
        "application/x-yaml",
        "application/toml",
        "application/javascript",
        "application/ecmascript",
        "application/sql",
        "application/graphql",
        "application/x-sh",
        "application/x-ndjson",
        "application/jsonl",
    }
)
"""Media types outside `text/` whose content is text (read as such, not as a file)."""
_TEXT_SUFFIXES = ("+json", "+xml", "+yaml")
_GENERIC_TYPES = frozenset({"application/octet-stream", "binary/octet-stream"})
"""Labels that say nothing about the bytes: their signature decides."""


def result_parts(result: types.CallToolResult) -> list[ResultPart]:
    """What the model sees of a server's result: its content blocks as parts. A
    `structured_content` that says more than the blocks comes first, as JSON text (the
    text blocks then hold the same JSON, so they are left out; media in it that the
    blocks carry is named, not repeated); one that only repeats the blocks (a media file
    echoed as base64) is left out."""
    blocks = result.content
    structured = result.structured_content
    if structured is None or _only_repeats(structured, blocks):
        return [_part(block) for block in blocks]
    shown = _media_named(structured, _payloads(blocks))
    parts: list[ResultPart] = [json.dumps(shown, ensure_ascii=False)]
    parts.extend(_part(block) for block in blocks if not isinstance(block, types.TextContent))
    return parts


def _only_repeats(structured: object, blocks: Sequence[types.ContentBlock]) -> bool:
    """Whether every value in `structured` is one the content blocks already carry (a
    server that sends its content again as structured content)."""
    carried: set[str] = set()
    for block in blocks:
        carried |= _values(block.model_dump(mode="json", by_alias=True, exclude_none=True))
    return _values(structured) <= carried


def _values(node: object) -> set[str]:
    """The scalar values in `node` (keys aside; an empty list or object counts as one),
    each as JSON text so that `1`, `1.0`, `true` and `"1"` stay apart."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list) and not item:
            found.add(json.dumps(item))
        elif isinstance(item, dict):
            stack.extend(cast("dict[str, Any]", item).values())
        elif isinstance(item, list):
            stack.extend(cast("list[Any]", item))
        else:
            found.add(json.dumps(item))
    return found


def _payloads(blocks: Sequence[types.ContentBlock]) -> dict[str, str]:
    """The base64 data of each media block -> what the model is told in its place."""
    named: dict[str, str] = {}
    for block in blocks:
        if isinstance(block, types.ImageContent | types.AudioContent):
            named[block.data] = f"({block.mime_type} {block.type}, sent as that {block.type})"
        elif isinstance(block, types.EmbeddedResource) and isinstance(
            block.resource, types.BlobResourceContents
        ):
            named[block.resource.blob] = f"(the content of {block.resource.uri}, sent with it)"
    return named


def _media_named(node: object, payloads: dict[str, str]) -> object:
    """`node` with each string that is a media block's base64 data replaced by a few
    words naming it."""
    if not payloads:
        return node
    if isinstance(node, str):
        return payloads.get(node, node)
    if isinstance(node, dict):
        mapping = cast("dict[str, Any]", node)
        return {key: _media_named(value, payloads) for key, value in mapping.items()}
    if isinstance(node, list):
        return [_media_named(item, payloads) for item in cast("list[Any]", node)]
    return node


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
    if _is_text(resource.mime_type):
        return _text_blob(resource)
    filename = str(resource.uri).rsplit("/", 1)[-1] or None
    return _media(resource.blob, resource.mime_type, "file", filename)


def _media(data: str, media_type: str | None, kind: str, filename: str | None) -> ResultPart:
    """A base64 block as an image or file part, or a note saying why it is not one."""
    raw = _decoded(data)
    if raw is None:
        return f"[the server sent {kind} content that is not valid base64; it was dropped]"
    actual = _actual_type(raw, media_type)
    try:
        if actual and actual.startswith("image/"):
            return ImagePart(data=raw, media_type=actual)
        if actual:
            return FilePart(data=raw, media_type=actual, filename=filename)
        return FilePart.from_bytes(raw, filename=filename)
    except MediaError:
        shown = media_type or "an unknown type"
        return (
            f"[the server sent {kind} content of {shown}, which no model API takes; it was dropped]"
        )


def _actual_type(raw: bytes, media_type: str | None) -> str | None:
    """What the bytes are: their signature's type where it tells an image (or audio)
    apart, for a block of that kind or with a label that says nothing; else the label."""
    found = guess_media_type(raw)
    if found is None:
        return media_type
    labelled = (media_type or "").split("/", 1)[0]
    if media_type is None or media_type in _GENERIC_TYPES:
        return found
    if found.split("/", 1)[0] == labelled and (labelled == "audio" or found in SIGNED_IMAGE_TYPES):
        return found
    return media_type


def _decoded(data: str) -> bytes | None:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None


def _is_text(media_type: str | None) -> bool:
    """Whether a resource of `media_type` (outside `text/`, which APIs take as files)
    holds text: JSON, XML, YAML and their kin."""
    if media_type is None:
        return False
    bare = media_type.split(";", 1)[0].strip().lower()
    return bare in _TEXT_APPLICATION_TYPES or bare.endswith(_TEXT_SUFFIXES)


def _text_blob(resource: types.BlobResourceContents) -> str:
    """A blob resource of a text type as the text it holds (in its `charset`, UTF-8 by
    default), or a note when its bytes are not that text."""
    raw = _decoded(resource.blob)
    charset = _charset(resource.mime_type or "")
    if raw is not None:
        try:
            return f"[resource {resource.uri}]\n{raw.decode(charset)}"
        except (UnicodeDecodeError, LookupError):
            pass
    return (
        f"[the server sent {resource.uri} as {resource.mime_type}, but its content is not "
        f"{charset} text; it was dropped]"
    )


def _charset(media_type: str) -> str:
    """The `charset` a media type names, lowercased ("utf-8" when it names none)."""
    return next(
        (
            value.strip().strip('"').lower()
            for key, _, value in (param.partition("=") for param in media_type.split(";")[1:])
            if key.strip().lower() == "charset"
        ),
        "utf-8",
    )


def mcp_content(parts: Sequence[ResultPart], text: str) -> list[types.ContentBlock]:
    """A toolwire result as MCP content: text, images, audio and files as the blocks MCP
    clients render (`text` when the handler returned plain text). An image goes as the
    type its bytes are (bytes that are no image as a note); a `text/*` file as a text
    resource when its bytes are text in the charset its media type names (UTF-8 when it
    names none; `inline` has made a named charset's text UTF-8), else as a blob resource,
    byte for byte, with its media type: MCP's `text` is only for content that is text,
    and text with replacement characters would hide from the client that bytes were lost."""
    if not parts:
        return [types.TextContent(text=text)]
    return [_block(part, index) for index, part in enumerate(parts)]


def _block(part: ResultPart, index: int) -> types.ContentBlock:
    if isinstance(part, str):
        return types.TextContent(text=part)
    if isinstance(part, ToolReference):  # MCP has no tool references: named in text
        return types.TextContent(text=references_text([part]))
    if isinstance(part, SearchResultPart):  # MCP has no search results: their text
        return types.TextContent(text=search_result_text(part))
    part = inline(part)  # a `data:` URL goes as the bytes it holds, not as a link
    media_type = part.media_type or "application/octet-stream"
    if part.data is None:
        uri: Any = part.url or f"{_RESOURCE_SCHEME}{part.file_id}"
        name = (isinstance(part, FilePart) and part.filename) or uri
        return types.ResourceLink(uri=uri, name=name, mime_type=part.media_type)
    data = base64.b64encode(part.data).decode("ascii")
    if isinstance(part, ImagePart):
        problem = image_bytes_problem(part)
        if problem:
            return types.TextContent(text=f"[an image was left out: {problem}]")
        return types.ImageContent(data=data, mime_type=image_bytes_type(part) or media_type)
    if media_type.startswith("audio/"):
        found = guess_media_type(part.data)
        audio_type = found if found is not None and found.startswith("audio/") else media_type
        return types.AudioContent(data=data, mime_type=audio_type)
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
    if _charset(media_type) not in _UTF8_CHARSETS:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
