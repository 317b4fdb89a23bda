"""API-neutral descriptions of a tool, which each adapter renders in its own shape, and
the namespaces tools may be grouped under."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, cast

from typing_extensions import TypedDict

from .exceptions import ToolDefinitionError

if TYPE_CHECKING:
    from ._schema import SchemaReport

__all__ = [
    "NAMESPACE_SEPARATOR",
    "SEARCH_CONFIG",
    "TOOL_SEARCH_NAME",
    "CacheBreakpoint",
    "CustomToolFormat",
    "CustomToolSpec",
    "FunctionToolSpec",
    "GeminiResponseFormat",
    "GrammarFormat",
    "ServerSearch",
    "TextFormat",
    "ToolNamespace",
    "ToolSearchConfig",
    "ToolSearchExecution",
    "is_tool_search",
    "search_config",
    "cache_ttl",
]

NAMESPACE_SEPARATOR = "__"
"""What joins a namespace's name and a tool's name into the tool's flat name
(`crm__get_customer`): its name on the APIs without namespaces, and in the group."""

TOOL_SEARCH_NAME = "tool_search"
"""The name of a group's tool search, on every API (a Responses `tool_search_call` has
no name: toolwire reads it as a call to this one)."""

ToolSearchExecution = Literal["server", "client"]
"""Who runs a tool search: the API's server where it has a search tool ("server"), or
toolwire ("client")."""

ServerSearch = Literal["bm25", "regex"]
"""Anthropic's server-side search: natural-language queries (BM25) or regular
expressions."""

SEARCH_CONFIG = "_toolwire_search"
"""The class attribute holding a tool search class's `ToolSearchConfig`."""


@dataclass(frozen=True, slots=True)
class ToolSearchConfig:
    """How a group's tool search runs (see `add_tool_search`)."""

    execution: ToolSearchExecution
    server: ServerSearch
    limit: int
    search: Callable[..., Any] | None


def search_config(tool: object) -> ToolSearchConfig | None:
    """The configuration of a group's tool search class; None for any other tool."""
    config: ToolSearchConfig | None = getattr(tool, SEARCH_CONFIG, None)
    return config


def is_tool_search(tool: object) -> bool:
    """Whether `tool` is a group's tool search class."""
    return getattr(tool, SEARCH_CONFIG, None) is not None


_NAMESPACE_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class ToolNamespace:
    """Tools grouped under one name, with a description of the group: set it as the
    `model_tool_namespace` of each tool class that belongs to it.

    On OpenAI Responses the group's definitions nest under one
    `{"type": "namespace", "name", "description", "tools": [...]}` item, calls carry the
    namespace, and two namespaces may hold tools of the same name. The other APIs have
    no namespaces: each tool is offered under its flat name, the namespace's name and
    the tool's joined by `__` (`crm__get_customer`), and their calls map back to it. The
    flat name is the tool's `model_tool_name()`, its key in the group, and the name its
    results carry on every API.

    Attributes:
        name: the namespace's name (letters, digits, `_` and `-`, as a tool name).
        description: what its tools are for; the model reads it.
        defer_loading: every tool of the namespace is deferred (found through tool
            search, see `model_tool_defer_loading`).
    """

    name: str
    description: str
    defer_loading: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAMESPACE_NAME.fullmatch(self.name):
            raise ToolDefinitionError(
                f"The namespace name {self.name!r} is not valid: names must be 1-64 "
                "characters of a-z, A-Z, 0-9, '_' or '-' (the namespace is part of every "
                "tool name it holds)."
            )
        if not isinstance(self.description, str) or not self.description.strip():
            raise ToolDefinitionError(
                f"The namespace {self.name!r} has no description: say what its tools are "
                "for (OpenAI Responses requires one, and the model reads it)."
            )

    def flat_name(self, tool_name: str) -> str:
        """The name of `tool_name` in this namespace on the APIs without namespaces."""
        return f"{self.name}{NAMESPACE_SEPARATOR}{tool_name}"


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
Responses and OpenAI's Chat Completions "30m" or "12h"); False for none."""

_TTLS = ("5m", "1h", "30m", "12h")


def cache_ttl(value: object) -> str | bool:
    """A `cache_breakpoint=` value checked: False (none), True (the API's default
    lifetime) or the lifetime asked for; `ValueError` for anything else."""
    if value is True or value is False or value in _TTLS:
        return cast("str | bool", value)
    raise ValueError(
        f"cache_breakpoint={value!r}: pass True (the API's default lifetime), a lifetime "
        "('5m' or '1h' on Anthropic, '30m' or '12h' on Responses and Chat Completions), or "
        "False."
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
    namespace: ToolNamespace | None = None
    """The namespace the tool belongs to (then `name` is its flat name)."""
    local_name: str = ""
    """Its name inside its namespace (the same as `name` without one)."""
    defer_loading: bool = False
    """Whether the tool is found through tool search instead of offered up front."""
    input_examples: tuple[dict[str, Any], ...] = ()
    """Example arguments for the definition's own field (an API that has none gets them
    in `description` instead, and this stays empty)."""
    eager_input_streaming: bool = False
    """Stream the arguments as the model writes them, unbuffered (Anthropic)."""
    allowed_callers: tuple[str, ...] = ()
    """Who may call the tool (programmatic tool calling), as the API names each caller;
    empty: the API's default."""
    _copy: Callable[[], dict[str, Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.local_name:
            object.__setattr__(self, "local_name", self.name)
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
    namespace: ToolNamespace | None = None
    """The namespace the tool belongs to (then `name` is its flat name)."""
    local_name: str = ""
    """Its name inside its namespace (the same as `name` without one)."""
    defer_loading: bool = False
    """Whether the tool is found through tool search instead of offered up front."""
    allowed_callers: tuple[str, ...] = ()
    """Who may call the tool (programmatic tool calling), as the API names each caller;
    empty: the API's default."""

    def __post_init__(self) -> None:
        if not self.local_name:
            object.__setattr__(self, "local_name", self.name)
