"""What the live APIs answer 400 to in the images and files of a history.

The pairing rules (`_rules_<api>`) say whether every call is answered in the right
place; these say whether the media in the answers (and in user messages) are of a
shape the API takes:

- Chat Completions: a tool message with anything but text parts ("tool messages
  take text only"); audio in a user message for a model that is not an audio model
  (recorded: 400); an image or file `data:` URL of a type OpenAI takes nowhere.
- Responses: an `input_file` of audio or video (by `file_data` or `file_url`; recorded:
  400), an `input_image` whose `data:` URL is not a png, jpeg, gif or webp image.
- Every API: inline image bytes (base64, or a `data:` URL) labelled png, jpeg, gif or
  webp that are another of these or none (Anthropic: "the image appears to be a
  image/png image"; Gemini: "Provided image is not valid"; OpenAI: "unsupported
  image"), read from the bytes' signature.
- Anthropic: an image of more than 5 MB of base64 ("image exceeds 5 MB maximum").
- Anthropic: an image of a type other than jpeg, png, gif, webp; a base64 document that
  is not a PDF; a content block type the API does not define for user content; an
  image or document whose URL source is a `data:` URL (URL sources are fetched: inline
  bytes go in a base64 source).
- Gemini: media in a function response's `parts` for a model before Gemini 3 (they
  answer 400; send them in a user Content with `media="message"`), or of a type other
  than png, jpeg, webp images, PDF and plain text; an image of a type Gemini does not
  read (it reads png, jpeg, webp, heic, heif: not gif), anywhere in a user Content; file
  data whose URI is a `data:` URL (inline bytes go in inline data).

`model` is the request's model name, for the rules that depend on it; without it they
are skipped.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .._api import Api
from .._parts import is_data_url
from ._rules import HistoryProblem, blocks_of, field, text_field

__all__ = ["media_problems"]

_OPENAI_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_ANTHROPIC_IMAGES = _OPENAI_IMAGES
_ANTHROPIC_USER_BLOCKS = frozenset(
    {
        "text",
        "image",
        "document",
        "search_result",
        "tool_result",
        "tool_reference",
        "container_upload",
    }
)
_GEMINI_RESPONSE_TYPES = frozenset(
    {"image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"}
)
_GEMINI_IMAGES = frozenset({"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"})
"""The API's rule, written here on purpose rather than imported from the Gemini adapter:
the checks must not agree with a mistake in what they check."""
_ANTHROPIC_MAX_IMAGE_BASE64 = 5 * 1024 * 1024
"""Characters of base64 per image ("image exceeds 5 MB maximum: 5333336 bytes > 5242880
bytes": the API counts the base64 text)."""
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)
_BEFORE_GEMINI_3 = re.compile(r"(^|/)gemini-(1|2)(\.|-)")
_AUDIO_VIDEO_EXTENSIONS = re.compile(r"\.(mp3|wav|m4a|aac|ogg|flac|opus|mp4|mov|webm|avi|mkv)$")


def media_problems(
    history: Sequence[Mapping[str, Any]], api: Api, *, model: str | None = None
) -> list[HistoryProblem]:
    """Every media shape in `history` (the request's wire JSON list) `api` rejects."""
    if api == "chat.completions":
        return _chat(history, model)
    if api == "responses":
        return _responses(history)
    if api == "anthropic":
        return _anthropic(history)
    return _gemini(history, model)


def _data_url_type(url: str) -> str | None:
    if not is_data_url(url):
        return None
    return url[5:].split(";", 1)[0].split(",", 1)[0] or None


def _image_bytes_problem(media_type: str, encoded: str) -> str:
    """What the API says of inline image bytes labelled `media_type` ("" when they are
    what the label says, or the label or the text cannot be checked): png, jpeg, gif and
    webp files all start with their own signature."""
    if media_type not in _OPENAI_IMAGES:
        return ""
    head = encoded[:16]
    try:
        start = base64.b64decode(head + "=" * (-len(head) % 4), altchars=b"-_")
    except (binascii.Error, ValueError):
        return ""
    found = next((kind for magic, kind in _SIGNATURES if start.startswith(magic)), None)
    if found is None and start[:4] == b"RIFF" and start[8:12] == b"WEBP":
        found = "image/webp"
    if found == media_type:
        return ""
    what = f"a {found.removeprefix('image/')} image" if found else "no png, jpeg, gif or webp image"
    return (
        f"image bytes labelled {media_type!r} that are {what} (the live API answers 400: it "
        "reads the bytes)"
    )


def _data_url_image_problem(url: str) -> str:
    """`_image_bytes_problem` of a base64 `data:` URL ("" for any other URL)."""
    media_type = _data_url_type(url)
    header, comma, data = url.partition(",")
    if media_type is None or not comma or not header.endswith(";base64"):
        return ""
    return _image_bytes_problem(media_type, data)


def _chat(messages: Sequence[Mapping[str, Any]], model: str | None) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    audio_model = model is None or "audio" in model
    for index, message in enumerate(messages):
        role = text_field(message, "role")
        here = f"messages[{index}] ({role or 'no role'})"
        for part in blocks_of(message, "content"):
            kind = text_field(part, "type")
            if role == "tool" and kind != "text":
                problems.append(
                    HistoryProblem(
                        index,
                        f"{here} has a {kind!r} part, but tool messages take text only; put "
                        "images and files in a user message after the tool messages",
                    )
                )
            elif kind == "input_audio" and not audio_model:
                problems.append(
                    HistoryProblem(
                        index,
                        f"{here} has audio, which the model {model!r} does not take (the "
                        "live API answers 400); describe it in text instead",
                    )
                )
            elif kind == "image_url":
                url = text_field(field(part, "image_url"), "url")
                media_type = _data_url_type(url)
                if media_type is not None and media_type not in _OPENAI_IMAGES:
                    problems.append(
                        HistoryProblem(
                            index,
                            f"{here} has an image_url of type {media_type!r}; OpenAI takes "
                            "png, jpeg, gif and webp images",
                        )
                    )
                elif unreadable := _data_url_image_problem(url):
                    problems.append(HistoryProblem(index, f"{here} has {unreadable}"))
            elif kind == "file":
                media_type = _data_url_type(text_field(field(part, "file"), "file_data"))
                if media_type is not None and media_type.startswith(("audio/", "video/")):
                    problems.append(
                        HistoryProblem(
                            index,
                            f"{here} has a file of type {media_type!r}; OpenAI takes no "
                            "audio or video files (the live API answers 400)",
                        )
                    )
    return problems


def _responses(items: Sequence[Mapping[str, Any]]) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    for index, item in enumerate(items):
        kind = text_field(item, "type")
        if kind in ("function_call_output", "custom_tool_call_output"):
            parts, where = blocks_of(item, "output"), f"input[{index}] ({kind})"
        elif text_field(item, "role"):
            parts, where = (
                blocks_of(item, "content"),
                f"input[{index}] ({text_field(item, 'role')})",
            )
        else:
            continue
        for part in parts:
            problem = _responses_part(part)
            if problem:
                problems.append(HistoryProblem(index, f"{where} has {problem}"))
    return problems


def _responses_part(part: Mapping[str, Any]) -> str:
    kind = text_field(part, "type")
    if kind == "input_file":
        media_type = _data_url_type(text_field(part, "file_data")) or ""
        url = text_field(part, "file_url").lower().split("?", 1)[0]
        if media_type.startswith(("audio/", "video/")) or _AUDIO_VIDEO_EXTENSIONS.search(url):
            return (
                "an input_file of audio or video, which the Responses API rejects (Invalid "
                "file type: the live API answers 400)"
            )
    elif kind == "input_image":
        url = text_field(part, "image_url")
        media_type = _data_url_type(url)
        if media_type is not None and media_type not in _OPENAI_IMAGES:
            return f"an input_image of type {media_type!r}; OpenAI takes png, jpeg, gif and webp"
        return _data_url_image_problem(url)
    return ""


def _anthropic(messages: Sequence[Mapping[str, Any]]) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    for index, message in enumerate(messages):
        if text_field(message, "role") != "user":
            continue
        for block in blocks_of(message, "content"):
            found = [_anthropic_block(block)]
            if text_field(block, "type") == "tool_result":
                found += [_anthropic_block(inner) for inner in blocks_of(block, "content")]
            problems += [
                HistoryProblem(index, f"messages[{index}] (user) has {p}") for p in found if p
            ]
    return problems


def _anthropic_block(block: Mapping[str, Any]) -> str:
    kind = text_field(block, "type")
    source = field(block, "source")
    source_type = text_field(source, "type")
    media_type = text_field(source, "media_type")
    if kind not in _ANTHROPIC_USER_BLOCKS:
        return f"a {kind!r} block, which the Messages API does not take in user content"
    if kind == "image" and source_type == "base64":
        if media_type not in _ANTHROPIC_IMAGES:
            return f"an image of type {media_type!r}; Anthropic takes jpeg, png, gif and webp"
        data = text_field(source, "data")
        if len(data) > _ANTHROPIC_MAX_IMAGE_BASE64:
            return (
                f"an image of {len(data):,} characters of base64; Anthropic takes at most "
                f"{_ANTHROPIC_MAX_IMAGE_BASE64:,} (5 MB, counted in base64)"
            )
        unreadable = _image_bytes_problem(media_type, data)
        if unreadable:
            return unreadable
    if kind == "document" and source_type == "base64" and media_type != "application/pdf":
        return (
            f"a base64 document of type {media_type!r}; Anthropic takes PDFs as base64 and "
            "plain text as a text source"
        )
    if kind in ("image", "document") and is_data_url(text_field(source, "url")):
        return (
            f"{'an image' if kind == 'image' else 'a document'} whose URL source is a data: "
            "URL; Anthropic fetches URL sources itself: send the bytes as a base64 source"
        )
    return ""


def _gemini(contents: Sequence[Mapping[str, Any]], model: str | None) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    before_3 = model is not None and _BEFORE_GEMINI_3.search(model) is not None
    for index, content in enumerate(contents):
        from_user = text_field(content, "role") != "model"
        for part in blocks_of(content, "parts"):
            problem = _gemini_media(part) if from_user else ""
            if problem:
                problems.append(HistoryProblem(index, f"contents[{index}] (user) has {problem}"))
            response = field(part, "functionResponse", "function_response")
            media = blocks_of(response, "parts")
            if not media:
                continue
            here = f"contents[{index}] (user): the functionResponse for {text_field(response, 'name')!r}"
            if before_3:
                problems.append(
                    HistoryProblem(
                        index,
                        f"{here} has media parts, which {model!r} does not take (models before "
                        "Gemini 3 answer 400); send them in a user Content after the "
                        "function responses: tool_result_messages(..., media='message')",
                    )
                )
                continue
            for item in media:
                blob = field(item, "inlineData", "inline_data") or field(
                    item, "fileData", "file_data"
                )
                media_type = text_field(blob, "mimeType", "mime_type")
                problem = _gemini_media(item)
                if problem:
                    problems.append(HistoryProblem(index, f"{here} has {problem}"))
                elif media_type not in _GEMINI_RESPONSE_TYPES:
                    problems.append(
                        HistoryProblem(
                            index,
                            f"{here} has a {media_type or 'untyped'!r} part; a function "
                            "response's parts take png, jpeg and webp images, PDFs and plain "
                            "text (send the rest in a user Content after the responses)",
                        )
                    )
    return problems


_GEMINI_DATA_URI = (
    "file data whose URI is a data: URL, which is no file URI; send the bytes as inline data"
)


def _gemini_media(part: Mapping[str, Any]) -> str:
    """What is wrong with an inline or file data part of a user Content or of a function
    response ("" when nothing)."""
    inline = field(part, "inlineData", "inline_data")
    data = inline or field(part, "fileData", "file_data")
    media_type = text_field(data, "mimeType", "mime_type")
    if media_type.startswith("image/") and media_type not in _GEMINI_IMAGES:
        return (
            f"an image of type {media_type!r}; Gemini reads png, jpeg, webp, heic and heif "
            "images (convert it, e.g. to png)"
        )
    if inline is None and is_data_url(text_field(data, "fileUri", "file_uri")):
        return _GEMINI_DATA_URI
    if inline is not None:
        return _image_bytes_problem(media_type, text_field(inline, "data"))
    return ""
