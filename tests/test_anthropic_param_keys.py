"""A checker for "only keys the SDK's param TypedDicts define", and its own tests.

`undefined_keys(value, annotation)` walks a plain JSON-like value against an SDK
param annotation (e.g. `anthropic.types.MessageParam`) with
`typing.get_type_hints`: unions of TypedDicts are resolved by their `type` (or
`role`) literal, and every key the chosen TypedDict does not define, every `None`
its annotation does not allow, and every dict no TypedDict of the union accepts is
reported with its path.
"""

from __future__ import annotations

import collections.abc as cabc
import types
import typing
from typing import Any, cast

import typing_extensions
from anthropic.types import MessageParam, ToolParam
from anthropic.types.beta import BetaMessageParam

from toolwire.core import BaseFunctionToolModel

__all__ = ["undefined_keys"]

_WRAPPERS = (
    typing_extensions.Required,
    typing_extensions.NotRequired,
    typing_extensions.ReadOnly,
)


def _options(annotation: Any) -> list[Any]:
    """The alternatives of an annotation (or a list of them), with Required, Annotated and
    unions unwrapped."""
    if isinstance(annotation, list):
        return [option for item in cast("list[Any]", annotation) for option in _options(item)]
    origin = typing.get_origin(annotation)
    if origin in _WRAPPERS or origin is typing_extensions.Annotated:
        return _options(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        found: list[Any] = []
        for arg in typing.get_args(annotation):
            found += _options(arg)
        return found
    if isinstance(annotation, typing_extensions.TypeAliasType):
        return _options(annotation.__value__)
    return [annotation]


def _literal_values(annotation: Any) -> set[object]:
    values: set[object] = set()
    for option in _options(annotation):
        if typing.get_origin(option) is typing.Literal:
            values.update(typing.get_args(option))
    return values


def _typed_dict_for(value: dict[str, Any], options: list[Any]) -> Any:
    typed = [o for o in options if typing_extensions.is_typeddict(o)]
    for discriminator in ("type", "role"):
        if discriminator in value:
            matching = [
                t
                for t in typed
                if value[discriminator]
                in _literal_values(typing.get_type_hints(t, include_extras=True).get(discriminator))
            ]
            if matching:
                return matching[0]
    return typed[0] if len(typed) == 1 else None


def _allows_free_dict(options: list[Any]) -> bool:
    return any(
        o is dict or o is object or o is Any or typing.get_origin(o) in (dict, cabc.Mapping)
        for o in options
    )


def undefined_keys(value: object, annotation: Any, path: str = "$") -> list[str]:
    """Every place where `value` strays from what `annotation` defines."""
    options = _options(annotation)
    if value is None:
        return [] if type(None) in options or Any in options else [f"{path}: None not allowed"]
    if isinstance(value, dict):
        data = cast("dict[str, Any]", value)
        typed = _typed_dict_for(data, options)
        if typed is None:
            if _allows_free_dict(options):
                return []
            return [f"{path}: no TypedDict of {options} matches {sorted(data)}"]
        hints = typing.get_type_hints(typed, include_extras=True)
        problems: list[str] = []
        for key, item in data.items():
            if key not in hints:
                problems.append(f"{path}.{key}: not defined by {typed.__name__}")
            else:
                problems += undefined_keys(item, hints[key], f"{path}.{key}")
        if problems and _allows_free_dict(options):
            return []  # e.g. InputSchema = InputSchemaTyped | Dict[str, object]
        return problems
    if isinstance(value, list):
        items = cast("list[Any]", value)
        element_types = [
            typing.get_args(o)[0]
            for o in options
            if typing.get_origin(o)
            in (list, cabc.Iterable, cabc.Sequence, typing.Iterable, typing.Sequence)
        ]
        if not element_types:
            return [f"{path}: a list where {options} is expected"]
        problems = []
        for position, item in enumerate(items):
            problems += undefined_keys(item, element_types, f"{path}[{position}]")
        return problems
    return []


def test_checker_accepts_a_valid_message() -> None:
    """A tool_use turn with only defined keys passes against MessageParam and BetaMessageParam."""
    message: dict[str, Any] = {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "t", "signature": "s"},
            {"type": "text", "text": "hi", "citations": None},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": None}},
        ],
    }
    assert undefined_keys(message, MessageParam) == []
    assert undefined_keys(message, BetaMessageParam) == []


def test_checker_reports_caller_none_and_unknown_keys() -> None:
    """`caller: None`, `parsed_output` and a citation's `file_id` are each reported."""
    message: dict[str, Any] = {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}, "caller": None},
            {
                "type": "text",
                "text": "hi",
                "parsed_output": None,
                "citations": [
                    {
                        "type": "char_location",
                        "cited_text": "x",
                        "document_index": 0,
                        "document_title": None,
                        "start_char_index": 0,
                        "end_char_index": 1,
                        "file_id": "f",
                    }
                ],
            },
        ],
    }
    assert undefined_keys(message, MessageParam) == [
        "$.content[0].caller: None not allowed",
        "$.content[1].parsed_output: not defined by TextBlockParam",
        "$.content[1].citations[0].file_id: not defined by CitationCharLocationParam",
    ]


def test_definitions_have_only_tool_param_keys() -> None:
    """A strict tool's definition is a ToolParam with nothing undefined."""

    class lookup(BaseFunctionToolModel[None, None]):
        """Look a word up."""

        model_tool_strict = True
        word: str

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return self.word, None

    assert undefined_keys(lookup.model_tool_definition("anthropic"), ToolParam) == []
