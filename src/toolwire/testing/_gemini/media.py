"""What the Gemini API answers 400 to in the images and files of `contents`.

- media in a function response's `parts` for a model before Gemini 3 (they answer
  400 "`function_response.parts` is not supported for this model"; send them in a user
  Content: `tool_result_messages(..., media="auto", model=...)` or `media="message"`), or of a type
  other than png, jpeg, webp images, PDF and plain text;
- an image of a type Gemini does not read (it reads png, jpeg, webp, heic, heif: not
  gif), anywhere in a user Content, or whose inline bytes are not what their label
  says (`_rules_media`);
- file data whose URI is a `data:` URL (inline bytes go in inline data).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..._parts import is_data_url
from .._rules import HistoryProblem, blocks_of, field, text_field
from .._rules_media import image_bytes_problem

__all__ = ["gemini_media_problems"]

_RESPONSE_TYPES = frozenset(
    {"image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"}
)
_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"})
"""The API's rule, written here on purpose rather than imported from the Gemini adapter:
the checks must not agree with a mistake in what they check."""
_BEFORE_GEMINI_3 = re.compile(r"(^|/)gemini-(1|2)(\.|-)")
_DATA_URI = (
    "file data whose URI is a data: URL, which is no file URI; send the bytes as inline data"
)


def gemini_media_problems(
    contents: Sequence[Mapping[str, Any]], *, model: str | None = None
) -> list[HistoryProblem]:
    """Every media shape in `contents` the Gemini API rejects; `model` (the request's)
    adds the rule for models before Gemini 3, skipped without it."""
    problems: list[HistoryProblem] = []
    before_3 = model is not None and _BEFORE_GEMINI_3.search(model) is not None
    for index, content in enumerate(contents):
        from_user = text_field(content, "role") != "model"
        for part in blocks_of(content, "parts"):
            problem = _media_problem(part) if from_user else ""
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
                        "Gemini 3 answer 400: `function_response.parts` is not supported for "
                        "this model); send them in a user Content after the function "
                        'responses: tool_result_messages(..., media="auto", model=<the model>) does so for '
                        "these models",
                    )
                )
                continue
            for item in media:
                blob = field(item, "inlineData", "inline_data") or field(
                    item, "fileData", "file_data"
                )
                media_type = text_field(blob, "mimeType", "mime_type")
                problem = _media_problem(item)
                if problem:
                    problems.append(HistoryProblem(index, f"{here} has {problem}"))
                elif media_type not in _RESPONSE_TYPES:
                    problems.append(
                        HistoryProblem(
                            index,
                            f"{here} has a {media_type or 'untyped'!r} part; a function "
                            "response's parts take png, jpeg and webp images, PDFs and plain "
                            "text (send the rest in a user Content after the responses)",
                        )
                    )
    return problems


def _media_problem(part: Mapping[str, Any]) -> str:
    """What is wrong with an inline or file data part of a user Content or of a function
    response ("" when nothing)."""
    inline = field(part, "inlineData", "inline_data")
    data = inline or field(part, "fileData", "file_data")
    media_type = text_field(data, "mimeType", "mime_type")
    if media_type.startswith("image/") and media_type not in _IMAGE_TYPES:
        return (
            f"an image of type {media_type!r}; Gemini reads png, jpeg, webp, heic and heif "
            "images (convert it, e.g. to png)"
        )
    if inline is None and is_data_url(text_field(data, "fileUri", "file_uri")):
        return _DATA_URI
    if inline is not None:
        return image_bytes_problem(media_type, text_field(inline, "data"))
    return ""
