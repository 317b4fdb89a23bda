"""Example arguments of a tool (`model_tool_input_examples()`): checked once, sent per API.

An example shows the model a well-formed call. The tool class's classmethod
`model_tool_input_examples()` returns them as instances of the class (so the type
checker reads their fields, and building them validates them); it is called when the
class is made (or, for a class whose annotations are not resolved yet, when its
definition is first made), and each example is sent as the JSON the model would write:
field aliases, only the fields the example sets.

Anthropic takes examples in the tool definition (`input_examples`). The other APIs have
no such field: the examples are written at the end of the description instead, and the
schema report says so. Anthropic gets them there too when its strict schema sends a
field in another shape than the model's own (a dict as key/value pairs, a tuple as an
object): examples in the model's shape would not match the schema the API checks them
against.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast
from weakref import WeakKeyDictionary

import pydantic

from .exceptions import ToolDefinitionError

if TYPE_CHECKING:
    from ._api import Api
    from ._schema import SchemaReport

__all__ = ["example_arguments", "with_examples_described"]

_CHECKED: WeakKeyDictionary[type[pydantic.BaseModel], tuple[dict[str, Any], ...]] = (
    WeakKeyDictionary()
)
"""Tool class -> its examples as sent (they come from code: computed once)."""
_RESHAPED = frozenset({"encoded_as_pairs", "encoded_as_object"})
"""Schema changes after which the model's own shape of a value no longer fits the
schema sent."""


def example_arguments(cls: type[pydantic.BaseModel]) -> tuple[dict[str, Any], ...]:
    """What `cls.model_tool_input_examples()` returns, each example checked with `cls` and
    dumped as the JSON the model would send. Raises `ToolDefinitionError` for an example
    that is not valid arguments of `cls`, or for the classmethod's own errors (a
    `ValidationError` building an instance)."""
    checked = _CHECKED.get(cls)
    if checked is not None:
        return checked
    where = f"{cls.__name__}.model_tool_input_examples()"
    try:
        given: object = cast(Any, cls).model_tool_input_examples()
    except pydantic.ValidationError as error:
        raise ToolDefinitionError(
            f"{where} built an invalid example, so the model would learn a call that "
            f"fails:\n{error}\nFix the example (it is validated like a call)."
        ) from None
    if isinstance(given, str | bytes | Mapping) or not isinstance(given, Sequence):
        raise ToolDefinitionError(
            f"{where} must return a list of instances of {cls.__name__}, not "
            f"{type(cast(object, given)).__name__}."
        )
    items = cast("Sequence[object]", given)
    examples = tuple(_checked(cls, f"{where}[{i}]", example) for i, example in enumerate(items))
    _CHECKED[cls] = examples
    return examples


def _checked(cls: type[pydantic.BaseModel], where: str, example: object) -> dict[str, Any]:
    """One example as the model would send it. An instance of a base class (an example
    inherited from it) or a dict of arguments is validated with `cls` too."""
    if isinstance(example, cls):
        return example.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(example, pydantic.BaseModel) and issubclass(cls, type(example)):
        example = example.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if not isinstance(example, Mapping):
        raise ToolDefinitionError(
            f"{where} is a {type(example).__name__}; return instances of {cls.__name__} "
            "(`cls(...)` builds one)."
        )
    try:
        validated = cls.model_validate(example)
    except pydantic.ValidationError as error:
        raise ToolDefinitionError(
            f"{where} is not valid arguments of {cls.__name__}, so the model would learn a "
            f"call that fails:\n{error}\nFix the example (it is validated like a call)."
        ) from None
    return validated.model_dump(mode="json", by_alias=True, exclude_unset=True)


def with_examples_described(
    description: str,
    examples: Sequence[Mapping[str, Any]],
    report: SchemaReport,
    api: Api,
    *,
    native: bool,
) -> tuple[str, tuple[dict[str, Any], ...], SchemaReport]:
    """(description, examples sent in the definition, report) for `api`: the examples in
    the definition where the API takes them (`native`) and the schema keeps the model's
    shapes, else written at the end of the description and recorded in the report."""
    if not examples:
        return description, (), report
    if native and not any(change.action in _RESHAPED for change in report.changes):
        return description, tuple(dict(example) for example in examples), report
    from ._schema import SchemaChange, SchemaReport

    lines = "\n".join(json.dumps(example, ensure_ascii=False) for example in examples)
    written = f"{description}\n\nExample arguments:\n{lines}".lstrip()
    why = (
        f"{api} has no input_examples field"
        if not native
        else "the strict schema sends some fields in another shape than the examples"
    )
    change = SchemaChange(
        "",
        "input_examples",
        "moved_to_description",
        f"{len(examples)} input example(s) are written at the end of the tool's description: {why}",
        lossy=False,
    )
    return written, (), SchemaReport(report.api, report.strict, (*report.changes, change))
