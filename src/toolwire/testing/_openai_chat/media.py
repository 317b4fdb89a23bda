"""What Chat Completions answers 400 to in the images and files of `messages`.

- a tool message with anything but text parts ("tool messages take text only");
- audio in a user message for a model that is not an audio model (recorded: 400);
- an image or file `data:` URL of a type OpenAI takes nowhere, and inline image bytes
  that are not what their label says (`_rules_media`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._rules import HistoryProblem, blocks_of, field, text_field
from .._rules_media import data_url_image_problem, data_url_type

__all__ = ["OPENAI_IMAGE_TYPES", "chat_media_problems"]

OPENAI_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
"""The image types both OpenAI APIs take."""


def chat_media_problems(
    messages: Sequence[Mapping[str, Any]], *, model: str | None = None
) -> list[HistoryProblem]:
    """Every media shape in `messages` Chat Completions rejects; `model` (the request's)
    adds the audio rule, skipped without it."""
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
                media_type = data_url_type(url)
                if media_type is not None and media_type not in OPENAI_IMAGE_TYPES:
                    problems.append(
                        HistoryProblem(
                            index,
                            f"{here} has an image_url of type {media_type!r}; OpenAI takes "
                            "png, jpeg, gif and webp images",
                        )
                    )
                elif unreadable := data_url_image_problem(url):
                    problems.append(HistoryProblem(index, f"{here} has {unreadable}"))
            elif kind == "file":
                media_type = data_url_type(text_field(field(part, "file"), "file_data"))
                if media_type is not None and media_type.startswith(("audio/", "video/")):
                    problems.append(
                        HistoryProblem(
                            index,
                            f"{here} has a file of type {media_type!r}; OpenAI takes no "
                            "audio or video files (the live API answers 400)",
                        )
                    )
    return problems
