"""Tool search: the tool that answers the model's searches over a group's deferred
tools, and toolwire's own ranking.

`group.add_tool_search()` adds a tool named "tool_search" to the group. Where the API
runs tool search itself and `execution="server"` (the default), its definition is the
API's own search tool (OpenAI Responses `{"type": "tool_search"}`, Anthropic
`tool_search_tool_bm25` or `_regex`) and the server answers. Elsewhere (Chat
Completions, Gemini, or `execution="client"`) the model calls it like any tool, and it
answers with a `ToolReference` for each match, which loads the tool the API's way (see
`_references`).

The ranking (`rank_tools`), over the deferred tools only:

- text is split into words: at anything but letters and digits, and between a lower-
  case letter and a capital (`getExchangeRate` is "get exchange rate"); words are
  lower-cased, an English plural is made singular ("rates" is "rate", "currencies"
  "currency"), and words of one letter and common English words ("the", "for", "to"...)
  are dropped;
- each word of a query scores, per tool, 3 when it is a word of the tool's name (or its
  namespace's), 2 when it is one of its argument names, 1 when it is in its description
  (or its namespace's); a query that is a tool's whole name scores 10;
- a tool's score is the sum over every query and each distinct word of it; tools that
  score nothing are left out, the rest come best first (ties in group order), at most
  `limit` of them.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast
from weakref import WeakKeyDictionary

import pydantic

from ._definition import (
    SEARCH_CONFIG,
    TOOL_SEARCH_NAME,
    ServerSearch,
    ToolSearchConfig,
    ToolSearchExecution,
    is_tool_search,
)
from ._references import ToolReference
from ._tool import FunctionToolModel
from .exceptions import ToolDefinitionError, ToolwireError

if TYPE_CHECKING:
    from ._tool import ToolModel

__all__ = [
    "SearchFunction",
    "add_tool_search",
    "rank_tools",
    "searchable_tools",
    "tool_search_class",
]

SearchFunction = Callable[[list[str], list[Any]], Any]
"""Your own search: `(queries, tools) -> tools`, the deferred tool classes of the group
in, the matches out (classes or their names), best first. In `toolwire.aio` it may be
`async def`."""

_QUERIES_DESCRIPTION = (
    "One or more searches for the tools you need: words likely to be in a tool's name, "
    "description or argument names. Each is searched on its own; the matches of all are "
    "loaded."
)
_DESCRIPTION = (
    "Search the tools that are not loaded yet. More tools exist than you see now: when "
    "you need one you do not have, search for it here. The tools found are loaded, and "
    "you can call them from then on. If nothing is found, no such tool exists: do not "
    "search for it again."
)


def searchable_tools(group: Mapping[str, type[ToolModel]]) -> list[type[ToolModel]]:
    """The deferred tools of `group`, in group order: what a search looks through."""
    return [tool for tool in group.values() if tool._deferred() and not is_tool_search(tool)]


def add_tool_search(
    group: Any,
    base: type[ToolModel],
    *,
    execution: ToolSearchExecution,
    server: ServerSearch,
    limit: int,
    search: Any,
    asynchronous: bool,
) -> None:
    """Add `group`'s tool search (see `ToolGroup.add_tool_search`), a `base` subclass."""
    group.add_tool(
        tool_search_class(
            base,
            group,
            execution=execution,
            server=server,
            limit=limit,
            search=search,
            asynchronous=asynchronous,
        )
    )


def tool_search_class(
    base: type[ToolModel],
    group: Mapping[str, type[ToolModel]],
    *,
    execution: ToolSearchExecution,
    server: ServerSearch,
    limit: int,
    search: SearchFunction | None,
    asynchronous: bool,
) -> type[ToolModel]:
    """A tool class searching `group`'s deferred tools, subclassing `base` (the
    namespace's `BaseFunctionToolModel`); its handler is `async def` when
    `asynchronous`."""
    if execution not in ("server", "client"):
        raise ToolDefinitionError(f'execution must be "server" or "client", not {execution!r}.')
    if server not in ("bm25", "regex"):
        raise ToolDefinitionError(f'server must be "bm25" or "regex", not {server!r}.')
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ToolDefinitionError(f"limit must be a whole number above 0, not {limit!r}.")
    if search is not None and not callable(search):
        raise ToolDefinitionError(
            f"search must be a function (queries, tools) -> tools, not {search!r}."
        )
    if TOOL_SEARCH_NAME in group:
        raise ToolDefinitionError(
            f"This group already has a tool named {TOOL_SEARCH_NAME!r}: a group has one tool "
            "search, and the name is reserved for it. Rename your tool "
            "(`model_tool_custom_name`)."
        )
    config = ToolSearchConfig(execution, server, limit, search)

    def found(queries: Sequence[str]) -> Any:
        tools = searchable_tools(group)
        if search is None:
            return rank_tools(queries, tools, limit)
        return search(list(queries), tools)

    async def async_handler(self: Any, context: Any, /) -> tuple[Any, Any]:
        matches = found(self.queries)
        if inspect.isawaitable(matches):
            matches = await matches
        return _answer(group, self.queries, matches, limit), context

    def handler(self: Any, context: Any, /) -> tuple[Any, Any]:
        matches = found(self.queries)
        if inspect.isawaitable(matches):
            raise ToolwireError(
                "The tool search function returned an awaitable, but this is a "
                "toolwire.core group: give it a plain function, or use toolwire.aio."
            )
        return _answer(group, self.queries, matches, limit), context

    namespace: dict[str, Any] = {
        "__module__": __name__,
        "__doc__": _DESCRIPTION,
        # Made by `type()`, the class has no source to read field docstrings from; asked
        # to, pydantic would search every frame of the call stack for one (~4 ms 80
        # frames deep, against 0.5 ms for the whole class).
        "model_config": pydantic.ConfigDict(use_attribute_docstrings=False),
        "__annotations__": {"queries": list[str]},
        "queries": pydantic.Field(min_length=1, description=_QUERIES_DESCRIPTION),
        "model_tool_custom_name": TOOL_SEARCH_NAME,
        "model_tool_custom_description": _DESCRIPTION,
        "model_tool_strict": True,
        "model_tool_handler": async_handler if asynchronous else handler,
        "one_query_is_a_list": pydantic.field_validator("queries", mode="before")(_listed),
    }
    tool = cast("type[ToolModel]", type("ToolSearch", (base,), namespace))
    setattr(tool, SEARCH_CONFIG, config)
    return tool


def _listed(value: object) -> object:
    """One query given as a string is a list of one."""
    return [value] if isinstance(value, str) else value


def _answer(
    group: Mapping[str, type[ToolModel]], queries: Sequence[str], matches: Any, limit: int
) -> list[ToolReference] | str:
    """The search's content: a reference to each match (at most `limit`), or the text
    saying nothing matched."""
    deferred = {id(tool): tool for tool in searchable_tools(group)}
    references: list[ToolReference] = []
    for match in cast("Iterable[Any]", matches):
        tool = group.get(match) if isinstance(match, str) else match
        if tool is None or id(tool) not in deferred:
            raise ToolwireError(
                f"The tool search function returned {match!r}, which is not a deferred tool "
                "of this group. Return deferred tool classes of the group (or their names), "
                "from the `tools` it is given."
            )
        if all(r.tool is not tool for r in references):
            references.append(ToolReference(tool))
    if not references:
        shown = "; ".join(queries)
        return (
            f"No tool matched ({shown}). No such tool exists: go on with the tools you "
            "have, or tell the user what is missing."
        )
    return references[:limit]


# -- toolwire's ranking ----------------------------------------------------------

_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "for",
        "from",
        "get",
        "has",
        "have",
        "how",
        "i",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "set",
        "the",
        "that",
        "this",
        "to",
        "use",
        "what",
        "when",
        "which",
        "with",
        "you",
        "your",
    ]
)
"""Words too common to tell tools apart. ("get" and "set" open half of all tool names.)"""

_WORDS = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

_NAME_WEIGHT = 3
_FIELD_WEIGHT = 2
_DESCRIPTION_WEIGHT = 1
_WHOLE_NAME_SCORE = 10


def words(text: str) -> list[str]:
    """`text` as search words (see the module's docstring)."""
    found: list[str] = []
    for word in _WORDS.findall(_CAMEL.sub(" ", text).lower()):
        if len(word) < 2 or word in _STOP_WORDS:
            continue
        if len(word) > 4 and word.endswith("ies"):
            word = word[:-3] + "y"
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        found.append(word)
    return found


@dataclass(frozen=True, slots=True)
class _Index:
    """One tool's words, by how much a match counts."""

    names: frozenset[str]
    whole_names: frozenset[str]
    weights: Mapping[str, int]


_INDEXES: WeakKeyDictionary[type, _Index] = WeakKeyDictionary()


def _index(tool: type[ToolModel]) -> _Index:
    known = _INDEXES.get(tool)
    if known is not None:
        return known
    namespace = tool.model_tool_namespace
    weights: dict[str, int] = {}

    def add(text: str, weight: int) -> None:
        for word in words(text):
            weights[word] = max(weights.get(word, 0), weight)

    add(tool._tool_description(), _DESCRIPTION_WEIGHT)
    if namespace is not None:
        add(namespace.description, _DESCRIPTION_WEIGHT)
    schema: dict[str, Any] = {}
    if issubclass(tool, FunctionToolModel):
        schema = tool.model_tool_json_schema()
    properties: Any = schema.get("properties")
    for field_name in cast("dict[str, Any]", properties) if isinstance(properties, dict) else ():
        add(field_name, _FIELD_WEIGHT)
    local = tool._local_name()
    add(local, _NAME_WEIGHT)
    if namespace is not None:
        add(namespace.name, _NAME_WEIGHT)
    whole = frozenset({local.lower(), tool.model_tool_name().lower()})
    index = _INDEXES[tool] = _Index(frozenset(weights), whole, weights)
    return index


def rank_tools(
    queries: Sequence[str], tools: Sequence[type[ToolModel]], limit: int
) -> list[type[ToolModel]]:
    """The tools matching `queries`, best first, at most `limit` (see the module's
    docstring for the scores)."""
    scored: list[tuple[int, int, type[ToolModel]]] = []
    query_words = [(query.strip().lower(), set(words(query))) for query in queries]
    for position, tool in enumerate(tools):
        index = _index(tool)
        score = 0
        for whole, distinct in query_words:
            if whole in index.whole_names:
                score += _WHOLE_NAME_SCORE
            score += sum(index.weights.get(word, 0) for word in distinct)
        if score > 0:
            scored.append((-score, position, tool))
    scored.sort(key=lambda entry: entry[:2])
    return [tool for _, _, tool in scored[:limit]]
