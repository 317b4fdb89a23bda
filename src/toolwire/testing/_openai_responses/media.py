"""What the Responses API answers 400 to in the images and files of `input`.

- an `input_file` of audio or video (by `file_data` or `file_url`; recorded: 400);
- an `input_image` whose `data:` URL is not a png, jpeg, gif or webp image, or whose
  inline bytes are not what their label says (`_rules_media`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .._openai_chat.media import OPENAI_IMAGE_TYPES
from .._rules import HistoryProblem, blocks_of, text_field
from .._rules_media import data_url_image_problem, data_url_type

__all__ = ["responses_media_problems"]

_AUDIO_VIDEO_EXTENSIONS = re.compile(r"\.(mp3|wav|m4a|aac|ogg|flac|opus|mp4|mov|webm|avi|mkv)$")


def responses_media_problems(
    items: Sequence[Mapping[str, Any]], *, model: str | None = None
) -> list[HistoryProblem]:
    """Every media shape in `items` the Responses API rejects (no rule depends on the
    `model`)."""
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
            problem = _part_problem(part)
            if problem:
                problems.append(HistoryProblem(index, f"{where} has {problem}"))
    return problems


def _part_problem(part: Mapping[str, Any]) -> str:
    kind = text_field(part, "type")
    if kind == "input_file":
        media_type = data_url_type(text_field(part, "file_data")) or ""
        url = text_field(part, "file_url").lower().split("?", 1)[0]
        if media_type.startswith(("audio/", "video/")) or _AUDIO_VIDEO_EXTENSIONS.search(url):
            return (
                "an input_file of audio or video, which the Responses API rejects (Invalid "
                "file type: the live API answers 400)"
            )
    elif kind == "input_image":
        url = text_field(part, "image_url")
        media_type = data_url_type(url)
        if media_type is not None and media_type not in OPENAI_IMAGE_TYPES:
            return f"an input_image of type {media_type!r}; OpenAI takes png, jpeg, gif and webp"
        return data_url_image_problem(url)
    return ""
