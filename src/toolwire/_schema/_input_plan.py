"""`InputPlan`: undo, on what the model sends, the encodings strict compilation introduced.

A strict tool class applies its plan to the incoming data inside its own validation, before
pydantic validates the fields, so ``Model.model_validate_json`` (as the seed library uses it)
returns the defaults and containers the model class declares. The plan is built from the
class's ORIGINAL pydantic schema (not from a compiled one), so one plan serves every API:

- **null for a default.** A field that is optional in pydantic's schema (it has a default or a
  default factory) and does not accept ``null`` is compiled as required-and-nullable; a
  ``null`` sent for it is turned into "field absent", so pydantic fills the default. For
  ``Optional[T] = value`` (which accepts ``null``), ``null`` means ``None``: the plan leaves it
  alone, and the model sends the default value itself to get it.
- **dicts as pairs.** A ``dict[K, V]`` field sent as a list of ``{"key": k, "value": v}``
  objects (OpenAI and Anthropic strict) becomes the dict again; a repeated key keeps its last
  value, as in a JSON object. A list that is not made of such pairs is left for pydantic to
  reject.
- **tuples as objects.** A fixed-length tuple sent as ``{"item_0": a, "item_1": b}`` becomes
  ``[a, b]`` again.

All of this applies at every nesting level: nested models, lists, tuple positions, dict values,
``$defs``/``$ref`` (recursion included) and unions. In a union the plan picks the branch by the
discriminator when pydantic wrote one, else by the keys sent (every key must be a property of the
branch, every required property present, single-value tags must match); when several branches
fit and would restore the value differently, only those whose schema the value matches all the
way down count (`_forms`: a list of cats is not a dict sent as pairs); if they still disagree,
the value is left as sent.

Data is never mutated: changed containers are copied, unchanged ones are returned as they are.
Anything that is not a dict or a list (model instances included) is left alone, and a dict key
that is not a property (e.g. a field name where the schema uses an alias) is passed through.
Property names are the ones the schema uses: pydantic's validation aliases.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from ._forms import Form, FormBuilder
from ._shapes import (
    PAIR_KEY,
    PAIR_VALUE,
    Json,
    JsonMap,
    accepts_null,
    as_list,
    as_map,
    def_name,
    dict_value_schema,
    is_dict_schema,
    is_map,
    tuple_key,
)

__all__ = ["InputPlan", "input_plan"]


def _is_dict(value: object) -> TypeGuard[dict[Any, Any]]:
    return isinstance(value, dict)


def _is_list(value: object) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


@dataclass(slots=True)
class _Shape:
    """What a union branch looks like, to tell which branch sent data belongs to."""

    kind: str  # "object" | "dict" | "tuple" | "list" | "any" | "scalar"
    keys: frozenset[str] = frozenset()
    required: frozenset[str] = frozenset()
    tags: dict[str, tuple[Json, ...]] = field(default_factory=dict[str, tuple[Json, ...]])
    length: int = 0

    def fits(self, value: Json) -> bool:
        """Whether `value` could be an instance of this branch, judged by its shape."""
        if self.kind == "any":
            return True
        if _is_dict(value):
            data = value
            if self.kind == "dict":
                return True
            if self.kind == "tuple":
                return set(data) == {tuple_key(i) for i in range(self.length)}
            if self.kind != "object":
                return False
            if not self.required.issubset(data) or not self.keys.issuperset(data):
                return False
            return all(data[key] in allowed for key, allowed in self.tags.items() if key in data)
        if _is_list(value):
            if self.kind == "tuple":
                return len(value) == self.length
            return self.kind in ("list", "dict")
        return self.kind == "scalar"


@dataclass(slots=True)
class _Object:
    props: dict[str, _Plan]
    null_is_absent: frozenset[str]


@dataclass(slots=True)
class _List:
    items: _Plan


@dataclass(slots=True)
class _Tuple:
    items: tuple[_Plan, ...]


@dataclass(slots=True)
class _Dict:
    values: _Plan


@dataclass(slots=True)
class _Branch:
    plan: _Plan
    shape: _Shape
    form: Form


@dataclass(slots=True)
class _Union:
    branches: tuple[_Branch, ...]
    tag: str | None
    by_tag: dict[str, int]
    forms: dict[str, Form]
    """The definitions' forms (shared by every union of one plan)."""


@dataclass(slots=True)
class _Ref:
    name: str


_Plan = _Object | _List | _Tuple | _Dict | _Union | _Ref | None


class InputPlan:
    """What a strict tool class does to incoming data before pydantic validates it.

    Build one with `input_plan`; see this module's docstring for the rules.
    """

    __slots__ = ("_defs", "_root")

    def __init__(self, root: _Plan, defs: dict[str, _Plan]) -> None:
        self._root = root
        self._defs = defs

    def apply(self, data: Any) -> Any:
        """The data with nulls-for-defaults removed and pairs/tuple objects restored.

        Never mutates `data`; returns it unchanged (the same object) when nothing applies.
        """
        return _apply(self._root, data, self._defs)


def input_plan(model_schema: Mapping[str, Any]) -> InputPlan | None:
    """The plan for a strict tool class, from its pydantic JSON schema; None if nothing to do.

    `model_schema` is the class's ``model_json_schema()`` (validation mode, as pydantic gives
    it: the root may be a ``$ref`` for a recursive model).
    """
    defs = as_map(model_schema.get("$defs"))
    builder = _Builder(defs)
    root = builder.build({key: value for key, value in model_schema.items() if key != "$defs"})
    plans = {name: builder.build(body) for name, body in defs.items()}
    busy = _busy_defs(plans)
    root = _prune(root, busy)
    if root is None:
        return None
    return InputPlan(root, {name: _prune(plan, busy) for name, plan in plans.items()})


# ---------------------------------------------------------------------- building


class _Builder:
    def __init__(self, defs: JsonMap) -> None:
        self.defs = defs
        self.forms = FormBuilder(defs)

    def build(self, schema: Json) -> _Plan:
        if not is_map(schema):
            return None
        name = def_name(schema.get("$ref"))
        if name is not None:
            return _Ref(name) if name in self.defs else None
        branches = as_list(schema.get("anyOf")) or as_list(schema.get("oneOf"))
        if branches:
            return self._union(schema, branches)
        parts = as_list(schema.get("allOf"))
        if len(parts) == 1:
            return self.build(parts[0])
        if is_dict_schema(schema):
            value_schema, _ = dict_value_schema(schema)
            return _Dict(self.build(value_schema))
        if "properties" in schema:
            props = as_map(schema["properties"])
            required = set(as_list(schema.get("required")))
            absent = frozenset(
                name
                for name, prop in props.items()
                if name not in required and not accepts_null(prop, self.defs)
            )
            return _Object({name: self.build(prop) for name, prop in props.items()}, absent)
        if "prefixItems" in schema:
            return _Tuple(tuple(self.build(item) for item in as_list(schema["prefixItems"])))
        if schema.get("type") == "array" or "items" in schema:
            return _List(self.build(schema.get("items")))
        return None

    def _union(self, schema: JsonMap, branches: list[Any]) -> _Union:
        flat: list[Json] = []
        for branch in branches:
            nested = as_map(branch)
            inner = as_list(nested.get("anyOf")) or as_list(nested.get("oneOf"))
            flat.extend(inner if inner and "discriminator" not in nested else [branch])
        built = tuple(
            _Branch(self.build(branch), self.shape(branch), self.forms.form(branch))
            for branch in flat
        )
        discriminator = as_map(schema.get("discriminator"))
        tag = discriminator.get("propertyName")
        by_tag: dict[str, int] = {}
        for value, ref in as_map(discriminator.get("mapping")).items():
            for index, branch in enumerate(flat):
                if as_map(branch).get("$ref") == ref:
                    by_tag[value] = index
        return _Union(built, tag if isinstance(tag, str) else None, by_tag, self.forms.forms)

    def shape(self, schema: Json, seen: frozenset[str] = frozenset()) -> _Shape:
        if schema is True or not is_map(schema):
            return _Shape("any" if schema is True else "scalar")
        name = def_name(schema.get("$ref"))
        if name is not None:
            if name in seen or name not in self.defs:
                return _Shape("any")
            return self.shape(self.defs[name], seen | {name})
        if any(keyword in schema for keyword in ("anyOf", "oneOf", "allOf")):
            return _Shape("any")
        if is_dict_schema(schema):
            return _Shape("dict")
        if "properties" in schema:
            props = as_map(schema["properties"])
            tags: dict[str, tuple[Json, ...]] = {}
            for key, prop in props.items():
                prop_map = as_map(prop)
                if "const" in prop_map:
                    tags[key] = (prop_map["const"],)
                elif "enum" in prop_map:
                    tags[key] = tuple(as_list(prop_map["enum"]))
            return _Shape(
                "object",
                keys=frozenset(props),
                required=frozenset(as_list(schema.get("required"))),
                tags=tags,
            )
        if "prefixItems" in schema:
            return _Shape("tuple", length=len(as_list(schema["prefixItems"])))
        if schema.get("type") == "array" or "items" in schema:
            return _Shape("list")
        kind = schema.get("type")
        if kind is None and "enum" not in schema and "const" not in schema:
            return _Shape("any")
        return _Shape("scalar")


def _children(plan: _Plan) -> list[_Plan]:
    match plan:
        case _Object(props=props):
            return list(props.values())
        case _List(items=items):
            return [items]
        case _Tuple(items=items):
            return list(items)
        case _Dict(values=values):
            return [values]
        case _Union(branches=branches):
            return [branch.plan for branch in branches]
        case _:
            return []


def _busy(plan: _Plan, busy_defs: set[str]) -> bool:
    """Whether applying `plan` can change anything, given which definitions can."""
    match plan:
        case None:
            return False
        case _Ref(name=name):
            return name in busy_defs
        case _Dict() | _Tuple():
            return True
        case _Object(null_is_absent=absent) if absent:
            return True
        case _:
            return any(_busy(child, busy_defs) for child in _children(plan))


def _busy_defs(plans: dict[str, _Plan]) -> set[str]:
    """The definitions whose plans can change data (a fixpoint, so recursion is handled)."""
    busy: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, plan in plans.items():
            if name not in busy and _busy(plan, busy):
                busy.add(name)
                changed = True
    return busy


def _prune(plan: _Plan, busy_defs: set[str]) -> _Plan:
    """`plan` with every part that cannot change anything replaced by None."""
    if not _busy(plan, busy_defs):
        return None
    match plan:
        case _Object(props=props, null_is_absent=absent):
            return _Object(
                {
                    name: pruned
                    for name, prop in props.items()
                    if (pruned := _prune(prop, busy_defs)) is not None
                },
                absent,
            )
        case _List(items=items):
            return _List(_prune(items, busy_defs))
        case _Tuple(items=items):
            return _Tuple(tuple(_prune(item, busy_defs) for item in items))
        case _Dict(values=values):
            return _Dict(_prune(values, busy_defs))
        case _Union(branches=branches, tag=tag, by_tag=by_tag, forms=forms):
            pruned = tuple(_Branch(_prune(b.plan, busy_defs), b.shape, b.form) for b in branches)
            return _Union(pruned, tag, by_tag, forms)
        case _:
            return plan


# ---------------------------------------------------------------------- applying


def _apply(plan: _Plan, value: Any, defs: dict[str, _Plan]) -> Any:
    while isinstance(plan, _Ref):
        plan = defs.get(plan.name)
    match plan:
        case None:
            return value
        case _Object():
            return _apply_object(plan, value, defs)
        case _List(items=items):
            return _apply_list(items, value, defs)
        case _Tuple():
            return _apply_tuple(plan, value, defs)
        case _Dict():
            return _apply_dict(plan, value, defs)
        case _Union():
            return _apply_union(plan, value, defs)


def _apply_object(plan: _Object, value: Any, defs: dict[str, _Plan]) -> Any:
    if not _is_dict(value):
        return value
    out: dict[Any, Any] = {}
    changed = False
    for key, item in value.items():
        if item is None and key in plan.null_is_absent:
            changed = True
            continue
        sub = plan.props.get(key)
        if sub is not None:
            new = _apply(sub, item, defs)
            if new is not item:
                changed = True
                item = new
        out[key] = item
    return out if changed else value


def _apply_list(items: _Plan, value: Any, defs: dict[str, _Plan]) -> Any:
    if not _is_list(value) or items is None:
        return value
    new = [_apply(items, item, defs) for item in value]
    return new if any(a is not b for a, b in zip(new, value, strict=True)) else value


def _apply_tuple(plan: _Tuple, value: Any, defs: dict[str, _Plan]) -> Any:
    if _is_dict(value):
        keys = [tuple_key(index) for index in range(len(plan.items))]
        if set(value) != set(keys):
            return value
        return _apply_tuple(plan, [value[key] for key in keys], defs)
    if not _is_list(value):
        return value
    new = [
        _apply(plan.items[index], item, defs) if index < len(plan.items) else item
        for index, item in enumerate(value)
    ]
    return new if any(a is not b for a, b in zip(new, value, strict=True)) else value


def _is_pair(item: Any) -> bool:
    return _is_dict(item) and len(item) == 2 and PAIR_KEY in item and PAIR_VALUE in item


def _apply_dict(plan: _Dict, value: Any, defs: dict[str, _Plan]) -> Any:
    if _is_list(value):
        if not all(_is_pair(pair) for pair in value):
            return value
        try:
            restored: dict[Any, Any] = {pair[PAIR_KEY]: pair[PAIR_VALUE] for pair in value}
        except TypeError:  # an unhashable key: leave it for pydantic to reject
            return value
        if plan.values is None:
            return restored
        return {key: _apply(plan.values, item, defs) for key, item in restored.items()}
    if plan.values is None or not _is_dict(value):
        return value
    new = {key: _apply(plan.values, item, defs) for key, item in value.items()}
    return new if any(new[key] is not item for key, item in value.items()) else value


def _apply_union(plan: _Union, value: Any, defs: dict[str, _Plan]) -> Any:
    if plan.tag is not None and _is_dict(value):
        tag = value.get(plan.tag)
        if isinstance(tag, str) and tag in plan.by_tag:
            return _apply(plan.branches[plan.by_tag[tag]].plan, value, defs)
    fitting = [branch for branch in plan.branches if branch.shape.fits(value)]
    results = [_apply(branch.plan, value, defs) for branch in fitting]
    if _agree(results):
        return results[0]
    # The outlines tie: keep the branches whose values the sent one can really be.
    exact = [
        result
        for branch, result in zip(fitting, results, strict=True)
        if branch.form.admits(value, plan.forms)
    ]
    return exact[0] if _agree(exact) else value


def _agree(results: list[Any]) -> bool:
    """Whether there is a result and every result is the same."""
    return bool(results) and all(result == results[0] for result in results[1:])
