"""`Form`: what a value sent for a schema may look like, checked all the way down.

The input plan picks a union branch by the value's outline (`_input_plan._Shape`: the keys of
an object, the length of a list). When several branches fit that outline and would restore
the value differently (``list[Cat] | dict[str, Cat]`` sent as a list of cats with a ``null``
for a default: a list is also how a dict travels as pairs), the plan asks each branch's form
whether the value could really be one of its values, in any API's encoding: a ``null`` for
an optional property, a dict as ``{"key", "value"}`` pairs, a tuple as ``item_<i>`` objects.

A form errs on the side of admitting: anything it cannot judge (a keyword it does not read, a
reference it cannot follow) admits every value, so a tie it cannot break stays a tie.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard, cast

from ._shapes import (
    PAIR_KEY,
    PAIR_VALUE,
    Json,
    JsonMap,
    as_list,
    as_map,
    def_name,
    dict_value_schema,
    is_dict_schema,
    is_map,
    json_type_of,
    tuple_key,
)

__all__ = ["Form", "FormBuilder"]

_SCALAR_TYPES = frozenset({"null", "boolean", "integer", "number", "string"})


def _is_dict(value: object) -> TypeGuard[dict[Any, Any]]:
    return type(value) is dict


def _is_list(value: object) -> TypeGuard[list[Any]]:
    return type(value) is list


@dataclass(slots=True)
class Form:
    """One schema's values, as the tie-breaker between union branches reads them."""

    kind: str  # "any" | "ref" | "union" | "object" | "dict" | "list" | "tuple" | "scalar"
    children: tuple[Form, ...] = ()
    """union: the branches; dict: (values,); list: (items,); tuple: the positions."""
    props: dict[str, Form] = field(default_factory=dict[str, "Form"])
    required: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    """scalar: the JSON types allowed (empty: any scalar)."""
    values: tuple[Json, ...] | None = None
    """scalar: the only values allowed (``enum``, ``const``), or None."""
    ref: str = ""

    def admits(self, value: Any, forms: Mapping[str, Form]) -> bool:
        """Whether `value` could be sent for this schema (`forms`: the definitions')."""
        match self.kind:
            case "ref":
                target = forms.get(self.ref)
                return target is None or target.admits(value, forms)
            case "union":
                return any(child.admits(value, forms) for child in self.children)
            case "object":
                return self._admits_object(value, forms)
            case "dict":
                return _admits_dict(self.children[0], value, forms)
            case "list":
                return _is_list(value) and all(
                    self.children[0].admits(item, forms) for item in value
                )
            case "tuple":
                return _admits_tuple(self.children, value, forms)
            case "scalar":
                return self._admits_scalar(value)
            case _:
                return True

    def _admits_object(self, value: Any, forms: Mapping[str, Form]) -> bool:
        if not _is_dict(value):
            return False
        if not self.required.issubset(value) or not all(key in self.props for key in value):
            return False
        # A null for an optional property is how strict APIs ask for its default.
        return all(
            (item is None and key not in self.required) or self.props[key].admits(item, forms)
            for key, item in value.items()
        )

    def _admits_scalar(self, value: Any) -> bool:
        kind = json_type_of(value)  # 3.0 reads as "integer", as JSON Schema says
        if kind not in _SCALAR_TYPES:
            return False
        if self.types and not (
            kind in self.types or (kind == "integer" and "number" in self.types)
        ):
            return False
        return self.values is None or any(_same(value, allowed) for allowed in self.values)


_ANY = Form("any")


def _admits_dict(values: Form, value: Any, forms: Mapping[str, Form]) -> bool:
    if _is_dict(value):
        return all(values.admits(item, forms) for item in value.values())
    if _is_list(value):  # sent as {"key", "value"} pairs
        return all(
            _is_dict(pair)
            and len(pair) == 2
            and PAIR_KEY in pair
            and PAIR_VALUE in pair
            and values.admits(pair[PAIR_VALUE], forms)
            for pair in value
        )
    return False


def _admits_tuple(items: tuple[Form, ...], value: Any, forms: Mapping[str, Form]) -> bool:
    if _is_dict(value):  # sent as an object with item_<i> keys
        keys = [tuple_key(index) for index in range(len(items))]
        if set(value) != set(keys):
            return False
        value = [value[key] for key in keys]
    if not _is_list(value) or len(value) != len(items):
        return False
    return all(form.admits(item, forms) for form, item in zip(items, value, strict=True))


def _same(value: Any, allowed: Json) -> bool:
    """JSON equality: ``true`` is not ``1``, ``2.0`` is ``2``."""
    if isinstance(value, bool) or isinstance(allowed, bool):
        return value is allowed
    return bool(value == allowed)


class FormBuilder:
    """Builds forms from pydantic's schema; every definition's form is built once, into
    `forms`, and references to it stay references (recursion needs no bound)."""

    def __init__(self, defs: JsonMap) -> None:
        self.defs = defs
        self.forms: dict[str, Form] = {}
        self._building: set[str] = set()

    def form(self, schema: Json) -> Form:
        """The form of `schema` (references resolved through `forms`)."""
        if not is_map(schema):
            return _ANY
        name = def_name(schema.get("$ref"))
        if name is not None:
            self._define(name)
            return Form("ref", ref=name)
        branches = as_list(schema.get("anyOf")) or as_list(schema.get("oneOf"))
        if branches:
            return Form("union", children=tuple(self.form(branch) for branch in branches))
        if "allOf" in schema:
            parts = as_list(schema["allOf"])
            return self.form(parts[0]) if len(parts) == 1 else _ANY
        if is_dict_schema(schema):
            value_schema, _ = dict_value_schema(schema)
            return Form("dict", children=(self.form(value_schema),))
        if "properties" in schema:
            props = {key: self.form(prop) for key, prop in as_map(schema["properties"]).items()}
            return Form("object", props=props, required=frozenset(as_list(schema.get("required"))))
        if "prefixItems" in schema:
            items = tuple(self.form(item) for item in as_list(schema["prefixItems"]))
            return Form("tuple", children=items)
        if schema.get("type") == "array" or "items" in schema:
            return Form("list", children=(self.form(schema.get("items", True)),))
        return _scalar(schema)

    def _define(self, name: str) -> None:
        if name in self.forms or name in self._building or name not in self.defs:
            return
        self._building.add(name)
        try:
            self.forms[name] = self.form(self.defs[name])
        finally:
            self._building.discard(name)


def _scalar(schema: JsonMap) -> Form:
    kind = schema.get("type")
    names: list[Any] = as_list(kind) if _is_list(kind) else [kind] if kind else []
    types = frozenset(cast("list[str]", names))
    if not types.issubset(_SCALAR_TYPES):
        return _ANY
    values: tuple[Json, ...] | None = None
    if "const" in schema:
        values = (schema["const"],)
    elif "enum" in schema:
        values = tuple(as_list(schema["enum"]))
    if not types and values is None:
        return _ANY
    return Form("scalar", types=types, values=values)
