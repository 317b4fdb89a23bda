"""The four API names every `api=` parameter accepts, and their validation."""

from __future__ import annotations

from typing import Literal, TypeGuard

from .exceptions import UnknownApiError

__all__ = ["API_NAMES", "Api", "check_api", "is_api"]

Api = Literal["chat.completions", "responses", "anthropic", "gemini"]
"""An API toolwire speaks: OpenAI Chat Completions, OpenAI Responses,
Anthropic Messages, or Google Gemini (google-genai)."""

API_NAMES: tuple[Api, ...] = ("chat.completions", "responses", "anthropic", "gemini")


def is_api(value: object) -> TypeGuard[Api]:
    """Whether `value` is one of the API names."""
    return value in API_NAMES


def check_api(value: object) -> Api:
    """Return `value` as an `Api`, or raise `UnknownApiError` naming the valid ones."""
    if value in API_NAMES:
        return value
    raise UnknownApiError(
        f"Unknown api {value!r}. Use one of: {', '.join(repr(a) for a in API_NAMES)}."
    )
