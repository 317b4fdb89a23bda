"""API-neutral descriptions of a tool, which each adapter renders in its own shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, cast

from typing_extensions import TypedDict

if TYPE_CHECKING:
    from ._schema import SchemaReport

__all__ = [
    "CacheBreakpoint",
    "CustomToolFormat",
    "CustomToolSpec",
    "FunctionToolSpec",
    "GeminiResponseFormat",
    "GrammarFormat",
    "TextFormat",
    "cache_ttl",
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


CacheBreakpoint = bool | Literal["5m", "1h", "30m", "12h"]
"""A prompt-cache breakpoint where the API takes explicit ones (`cache_breakpoint=`):
True for the API's default lifetime, or a lifetime it takes (Anthropic "5m" or "1h",
Responses "30m" or "12h"); False for none."""

_TTLS = ("5m", "1h", "30m", "12h")


def cache_ttl(value: object) -> str | bool:
    """A `cache_breakpoint=` value checked: False (none), True (the API's default
    lifetime) or the lifetime asked for; `ValueError` for anything else."""
    if value is True or value is False or value in _TTLS:
        return cast("str | bool", value)
    raise ValueError(
        f"cache_breakpoint={value!r}: pass True (the API's default lifetime), a lifetime "
        "('5m' or '1h' on Anthropic, '30m' or '12h' on Responses), or False."
    )


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
    """The compiled JSON schema. Shared and cached: adapters hand out `fresh_parameters()`."""
    strict: bool
    report: SchemaReport
    input_examples: tuple[dict[str, Any], ...] = ()
    """Example arguments for the definition's own field (an API that has none gets them
    in `description` instead, and this stays empty)."""
    eager_input_streaming: bool = False
    """Stream the arguments as the model writes them, unbuffered (Anthropic)."""
    _copy: Callable[[], dict[str, Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The schema pickled once: unpickling is a deep copy in C, three times faster
        # than walking the tree in Python, and definitions are copied on every request.
        # The bytes are made and read in this process only. A custom schema holding
        # something that does not pickle is copied by walking it instead.
        import pickle  # specs are made on first use, not at import

        try:
            frozen = pickle.dumps(self.parameters, protocol=pickle.HIGHEST_PROTOCOL)
            copy = partial(pickle.loads, frozen)
        except Exception:  # anything pickle refuses
            from ._json import copy_json

            copy = partial(copy_json, self.parameters)
        object.__setattr__(self, "_copy", copy)

    def fresh_parameters(self) -> dict[str, Any]:
        """A deep copy of `parameters`, for a definition the caller may mutate."""
        return self._copy()


@dataclass(frozen=True, slots=True)
class CustomToolSpec:
    """An OpenAI custom (free-text) tool."""

    name: str
    description: str
    format: CustomToolFormat | None
