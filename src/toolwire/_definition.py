"""API-neutral descriptions of a tool, which each adapter renders in its own shape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from typing_extensions import TypedDict

if TYPE_CHECKING:
    from ._schema import SchemaReport

__all__ = [
    "CustomToolFormat",
    "CustomToolSpec",
    "FunctionToolSpec",
    "GeminiResponseFormat",
    "GrammarFormat",
    "TextFormat",
]


class TextFormat(TypedDict):
    """A custom tool taking unconstrained text (OpenAI's default)."""

    type: Literal["text"]


class GrammarFormat(TypedDict):
    """A custom tool whose input must match a Lark grammar or a regex."""

    type: Literal["grammar"]
    syntax: Literal["lark", "regex"]
    definition: str


CustomToolFormat = TextFormat | GrammarFormat
"""The value of `BaseCustomToolModel.model_tool_format` (the Responses API's flat shape)."""


class GeminiResponseFormat(TypedDict):
    """Gemini structured output: splat into `GenerateContentConfig(**fmt)`."""

    response_mime_type: str
    response_json_schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class FunctionToolSpec:
    """A function tool compiled for one API: what every adapter renders from."""

    name: str
    description: str
    parameters: dict[str, Any]
    """The compiled JSON schema. Shared and cached: adapters copy it before handing it out."""
    strict: bool
    report: SchemaReport


@dataclass(frozen=True, slots=True)
class CustomToolSpec:
    """An OpenAI custom (free-text) tool."""

    name: str
    description: str
    format: CustomToolFormat | None
