"""Small valid (and deliberately invalid) values derived from a JSON schema.

The fake servers call every offered tool once with `minimal_instance(schema)`
and answer structured-output requests with it, so an example runs offline
without scripting anything. The value is deterministic, small, valid, and
readable in printed output:

- strings are the property's name (`"city"` for `city`), padded with `x` or
  cut to honour `minLength`/`maxLength`; the formats in `SUPPORTED_FORMATS`
  get a fixed well-formed value (`"2025-01-01"`, `"user@example.com"`...);
  `contentMediaType: application/json` gets the JSON text of its
  `contentSchema`;
- integers and numbers are the allowed value closest to 1 under `minimum`,
  `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`
  (numbers come back as floats); booleans are `False`;
- arrays have `minItems` items (empty when allowed), built from
  `prefixItems` then `items`, distinct under `uniqueItems`;
- objects hold their required properties only, plus declared then extra
  properties when `minProperties` asks for more;
- `enum` and `const` give their first value that fits the other keywords;
- `anyOf`/`oneOf` take the first branch that can be built, trying non-null
  branches before a `null` one (a value shows the tool working better than
  `null`); a `oneOf` branch is skipped when its value also matches another
  branch; `type` lists are tried the same way;
- `allOf` and a `$ref` with sibling keywords are merged into one schema;
- local `$ref`s (`#`, `#/$defs/...`, any JSON pointer) are followed; a
  reference back into itself makes that branch fail, so recursion stops at
  an optional property, a nullable branch or an empty array;
- `default` is never used: the model must send every value it is asked for;
- type names are read case-insensitively (Gemini's `Schema` dialect writes
  `"STRING"`), and `nullable: true` adds `null` (OpenAPI).

Anything else (`pattern`, `not`, `if`/`then`/`else`, `patternProperties`,
`dependentRequired`, remote references, formats outside the list, two
`allOf` branches that cannot be merged, a recursion with no way out, a
schema no value satisfies) raises `UnsupportedSchemaError` naming what the
schema belongs to, the JSON pointer and the keyword, and telling the user to
script that reply. Keywords are checked only where a value is built, so an
unsupported keyword on an optional property that is left out does no harm.

`invalid_instance(schema)` breaks a schema the way a model typically does, so
a fake can show the retry path.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import math
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, cast

from ..exceptions import ToolwireError
from ._instances_check import (
    ANNOTATION_KEYWORDS,
    JsonPointerError,
    SchemaChecker,
    json_equal,
    resolve_local_ref,
)

__all__ = [
    "SUPPORTED_FORMATS",
    "SUPPORTED_KEYWORDS",
    "UnsupportedSchemaError",
    "invalid_instance",
    "minimal_instance",
]

_CONSTRAINT_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "nullable",
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minLength",
        "maxLength",
        "format",
        "contentMediaType",
        "contentSchema",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
    }
)

SUPPORTED_KEYWORDS: frozenset[str] = _CONSTRAINT_KEYWORDS | ANNOTATION_KEYWORDS
"""The JSON Schema keywords `minimal_instance` understands (annotations included)."""

_EPOCH = datetime.datetime(2025, 1, 1, 12, 0, 0, tzinfo=datetime.UTC)


def _uuid(version: int) -> Callable[[int], str]:
    return lambda k: f"00000000-0000-{version}000-8000-{k:012x}"


def _url(k: int) -> str:
    return "https://example.com/" + (str(k + 1) if k else "")


def _email(k: int) -> str:
    return f"user{k + 1 if k else ''}@example.com"


_FIXED_FORMATS: dict[str, Callable[[int], str]] = {
    "date": lambda k: (_EPOCH.date() + datetime.timedelta(days=k)).isoformat(),
    "date-time": lambda k: (_EPOCH + datetime.timedelta(days=k)).isoformat().replace("+00:00", "Z"),
    "time": lambda k: (_EPOCH + datetime.timedelta(minutes=k)).time().isoformat() + "Z",
    "duration": lambda k: f"P{k + 1}D",
    "email": _email,
    "idn-email": _email,
    "name-email": lambda k: f"User <{_email(k)}>",
    "hostname": lambda k: f"host{k + 1}.example.com" if k else "example.com",
    "idn-hostname": lambda k: f"host{k + 1}.example.com" if k else "example.com",
    "ipv4": lambda k: str(ipaddress.IPv4Address("192.0.2.1") + k),
    "ipvanyaddress": lambda k: str(ipaddress.IPv4Address("192.0.2.1") + k),
    "ipv6": lambda k: str(ipaddress.IPv6Address("2001:db8::1") + k),
    "ipv4network": lambda k: f"10.{k // 256 % 256}.{k % 256}.0/24",
    "ipvanynetwork": lambda k: f"10.{k // 256 % 256}.{k % 256}.0/24",
    "ipv6network": lambda k: f"2001:db8:{k:x}::/48",
    "ipv4interface": lambda k: f"{ipaddress.IPv4Address('192.0.2.1') + k}/24",
    "ipvanyinterface": lambda k: f"{ipaddress.IPv4Address('192.0.2.1') + k}/24",
    "ipv6interface": lambda k: f"{ipaddress.IPv6Address('2001:db8::1') + k}/64",
    "uri": _url,
    "url": _url,
    "iri": _url,
    "uri-reference": _url,
    "iri-reference": _url,
    "uri-template": lambda k: _url(k) + "{id}",
    "json-pointer": lambda k: f"/{k}",
    "relative-json-pointer": str,
    "uuid": _uuid(4),
    **{f"uuid{v}": _uuid(v) for v in range(1, 9)},
}
_PLACEHOLDER_FORMATS = frozenset({"password", "binary", "path", "text", "regex"})
_BASE64_FORMATS = frozenset({"base64", "byte", "base64url"})

SUPPORTED_FORMATS: frozenset[str] = (
    frozenset(_FIXED_FORMATS) | _PLACEHOLDER_FORMATS | _BASE64_FORMATS
)
"""String formats `minimal_instance` can produce a well-formed value for."""

_MAX_DEPTH = 200
_SUBSCHEMA_MERGE = frozenset({"items", "additionalProperties", "propertyNames", "contentSchema"})
_LOWER_BOUNDS = frozenset({"minimum", "minLength", "minItems", "minProperties"})
_UPPER_BOUNDS = frozenset({"maximum", "maxLength", "maxItems", "maxProperties"})
_OBJECT_HINTS = (
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
)
_ARRAY_HINTS = ("items", "prefixItems", "minItems", "maxItems", "uniqueItems")
_STRING_HINTS = ("minLength", "maxLength", "format", "contentMediaType")
_NUMBER_HINTS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


class UnsupportedSchemaError(ToolwireError, ValueError):
    """A schema the fakes cannot derive a value from; script that reply instead.

    `where` is what the schema belongs to, `path` the JSON pointer of the
    part that failed, `keyword` the keyword responsible.
    """

    def __init__(self, where: str, path: str, keyword: str, detail: str) -> None:
        self.where = where
        self.path = path
        self.keyword = keyword
        self.detail = detail
        super().__init__(
            f"Cannot build a value for {where or 'this schema'} at {path} (keyword "
            f"{keyword!r}): {detail}. Script this reply instead, giving the offline fake "
            "the exact tool calls or JSON it should send."
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.where, self.path, self.keyword, self.detail))


def minimal_instance(schema: Mapping[str, Any], *, where: str = "") -> Any:
    """A small, deterministic, readable value that is valid under `schema`.

    `where` names what the schema belongs to in error messages, as a noun
    phrase (e.g. "tool 'get_weather'"). Raises `UnsupportedSchemaError` when
    the schema leaves the documented subset (see the module docstring).
    """
    builder = _Builder(schema, where)
    value = builder.build(schema, "#", "", 0, (), 0)
    checker = SchemaChecker(schema)
    if checker.check(value, schema) is False:
        path, keyword = checker.failure or ("#", "schema")
        raise builder.error(path, keyword, "no value was found that satisfies every keyword")
    return value


def invalid_instance(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """An object that breaks `schema` the way models do, or None if every object fits.

    Tried in order, the first one the schema provably rejects wins: a wrong
    type for each required property in turn (`100` where a string is
    expected, `"many"` elsewhere, then `null`), each required property left
    out, a wrong type for each optional property, an unexpected extra
    property, and finally `{}`. The other properties keep their minimal
    values, so exactly one thing is wrong.
    """
    checker = SchemaChecker(schema)
    try:
        minimal = minimal_instance(schema)
    except UnsupportedSchemaError:
        minimal = {}
    base: dict[str, Any] = (
        dict(cast(Mapping[str, Any], minimal)) if isinstance(minimal, Mapping) else {}
    )
    props, required, closed = _object_view(schema)
    candidates: list[dict[str, Any]] = []
    for name in required:
        candidates += [{**base, name: wrong} for wrong in _wrong_values(schema, props.get(name))]
    for name in required:
        candidates.append({k: v for k, v in base.items() if k != name})
    for name, sub in props.items():
        if name not in required:
            candidates += [{**base, name: wrong} for wrong in _wrong_values(schema, sub)]
    if closed:
        candidates.append({**base, _unused_name(props, base): "unexpected"})
    candidates.append({})
    for candidate in candidates:
        if checker.check(candidate, schema) is False:
            return candidate
    return None


def _unused_name(props: Mapping[str, Any], base: Mapping[str, Any]) -> str:
    name = "unexpected_argument"
    while name in props or name in base:
        name += "_"
    return name


def _object_view(schema: Mapping[str, Any]) -> tuple[dict[str, Any], list[str], bool]:
    """The root's properties, required names and closedness, as far as they can be read."""
    builder = _Builder(schema, "")
    try:
        node, path, refs = builder.flatten(schema, "#", ())
        for keyword in ("anyOf", "oneOf"):
            if keyword in node:
                rest = {k: v for k, v in node.items() if k != keyword}
                branches = cast(list[Any], node[keyword])
                order = builder.non_null_first(branches, f"{path}/{keyword}", refs)
                flat, _, _ = builder.flatten(
                    branches[order[0]], f"{path}/{keyword}/{order[0]}", refs
                )
                node = builder.merge(rest, flat, path)
                break
    except UnsupportedSchemaError:
        return {}, [], False
    props = dict(cast(Mapping[str, Any], node.get("properties", {})))
    required = list(dict.fromkeys(cast(list[str], node.get("required", []))))
    return props, required, node.get("additionalProperties") is False


def _wrong_values(root: Mapping[str, Any], sub: Any) -> list[Any]:
    """Wrong values to try for a property, the most typical model mistake first."""
    kind = None
    try:
        node, _, _ = _Builder(root, "").flatten(sub if sub is not None else True, "#", ())
        declared = node.get("type")
        if isinstance(declared, str):
            kind = declared
        elif isinstance(declared, list) and declared:
            kind = next((t for t in cast(list[str], declared) if t != "null"), None)
        elif "enum" in node or "const" in node:
            first = node["const"] if "const" in node else (cast(list[Any], node["enum"]) or [0])[0]
            kind = "string" if isinstance(first, str) else None
    except UnsupportedSchemaError:
        pass
    return [100, "many", None] if kind == "string" else ["many", 100, None]


class _Builder:
    """Walks one schema document; every method raises `UnsupportedSchemaError`."""

    def __init__(self, root: Any, where: str) -> None:
        self.root = root
        self.where = where

    def error(self, path: str, keyword: str, detail: str) -> UnsupportedSchemaError:
        return UnsupportedSchemaError(self.where, path, keyword, detail)

    # -- schema plumbing -------------------------------------------------------------

    def check_keywords(self, node: Mapping[str, Any], path: str) -> None:
        for keyword in node:
            if keyword not in SUPPORTED_KEYWORDS:
                raise self.error(
                    path,
                    keyword,
                    f"{keyword!r} is outside the subset of JSON Schema the fake can satisfy",
                )

    def flatten(
        self, schema: Any, path: str, refs: tuple[str, ...]
    ) -> tuple[dict[str, Any], str, tuple[str, ...]]:
        """Follow `$ref`s and merge `allOf` until the top level holds plain keywords.

        Returns the flat schema, the path errors should name, and the `$ref`s
        being expanded (a reference already among them is a recursion).
        """
        if schema is True:
            return {}, path, refs
        if schema is False:
            raise self.error(path, "false", "this part of the schema is `false`; nothing fits")
        if not isinstance(schema, Mapping):
            raise self.error(path, "schema", f"expected a schema object, found {schema!r}")
        node = cast(Mapping[str, Any], schema)
        self.check_keywords(node, path)
        if "$ref" in node:
            ref = node["$ref"]
            if not isinstance(ref, str):
                raise self.error(path, "$ref", f"$ref must be a string, found {ref!r}")
            if ref in refs:
                raise self.error(
                    path,
                    "$ref",
                    f"{ref!r} refers back into itself through required values only; "
                    "recursion stops only at an optional property, a nullable branch or "
                    "an empty array",
                )
            try:
                target = resolve_local_ref(self.root, ref)
            except JsonPointerError as exc:
                raise self.error(path, "$ref", str(exc)) from None
            flat, target_path, inner_refs = self.flatten(target, ref, (*refs, ref))
            rest = {k: v for k, v in node.items() if k != "$ref" and k not in ANNOTATION_KEYWORDS}
            if not rest:
                return flat, target_path, inner_refs
            rest_flat, _, rest_refs = self.flatten(rest, path, refs)
            merged_refs = tuple(dict.fromkeys((*inner_refs, *rest_refs)))
            return self.merge(flat, rest_flat, path), path, merged_refs
        if "allOf" in node:
            merged = {k: v for k, v in node.items() if k != "allOf"}
            branches = node["allOf"]
            if not isinstance(branches, list):
                raise self.error(path, "allOf", "allOf must be a list of schemas")
            all_refs = refs
            for i, branch in enumerate(cast(list[Any], branches)):
                flat, _, branch_refs = self.flatten(branch, f"{path}/allOf/{i}", refs)
                merged = self.merge(merged, flat, f"{path}/allOf")
                all_refs = tuple(dict.fromkeys((*all_refs, *branch_refs)))
            return self.flatten(merged, path, all_refs)
        return dict(node), path, refs

    def merge(self, a: Mapping[str, Any], b: Mapping[str, Any], path: str) -> dict[str, Any]:
        """One schema that means "`a` and `b`", or an error when they cannot be combined."""
        out = dict(a)
        for key, value in b.items():
            if key not in out or key in ANNOTATION_KEYWORDS:
                out.setdefault(key, value)
                continue
            mine = out[key]
            if json_equal(mine, value):
                continue
            if key == "properties":
                props = dict(cast(Mapping[str, Any], mine))
                for name, sub in cast(Mapping[str, Any], value).items():
                    props[name] = {"allOf": [props[name], sub]} if name in props else sub
                out[key] = props
            elif key == "required":
                out[key] = list(dict.fromkeys([*cast(list[str], mine), *cast(list[str], value)]))
            elif key == "type":
                left = [mine] if isinstance(mine, str) else cast(list[str], mine)
                right = [value] if isinstance(value, str) else cast(list[str], value)
                both = [t for t in left if t in right or (t == "integer" and "number" in right)]
                both += [
                    "integer"
                    for t in right
                    if t == "integer" and "number" in left and t not in both
                ]
                if not both:
                    raise self.error(path, "allOf", "the merged schemas share no type")
                out[key] = both
            elif key == "enum":
                out[key] = [
                    v for v in cast(list[Any], mine) if any(json_equal(v, w) for w in value)
                ]
            elif key in _LOWER_BOUNDS and not isinstance(mine, bool):
                out[key] = max(mine, value)
            elif key in _UPPER_BOUNDS and not isinstance(mine, bool):
                out[key] = min(mine, value)
            elif key == "exclusiveMinimum" and not isinstance(mine, bool):
                out[key] = max(mine, value)
            elif key == "exclusiveMaximum" and not isinstance(mine, bool):
                out[key] = min(mine, value)
            elif key in _SUBSCHEMA_MERGE:
                out[key] = {"allOf": [mine, value]}
            elif key == "prefixItems":
                left_items, right_items = cast(list[Any], mine), cast(list[Any], value)
                longest = max(len(left_items), len(right_items))
                out[key] = [
                    {
                        "allOf": [
                            s for s in (_at(left_items, i), _at(right_items, i)) if s is not None
                        ]
                    }
                    for i in range(longest)
                ]
            elif key == "uniqueItems":
                out[key] = bool(mine) or bool(value)
            elif key == "nullable":
                out[key] = bool(mine) and bool(value)
            else:
                raise self.error(
                    path, "allOf", f"two merged schemas give different values for {key!r}"
                )
        return out

    def non_null_first(self, branches: list[Any], path: str, refs: tuple[str, ...]) -> list[int]:
        """Branch positions, those that can only be `null` moved to the end."""

        def only_null(i: int) -> bool:
            try:
                flat, _, _ = self.flatten(branches[i], f"{path}/{i}", refs)
            except UnsupportedSchemaError:
                return False
            declared = flat.get("type")
            names = [declared] if isinstance(declared, str) else declared
            if (
                isinstance(names, list)
                and names
                and all(str(n).lower() == "null" for n in cast(list[Any], names))
            ):
                return True
            if "const" in flat:
                return flat["const"] is None
            enum = flat.get("enum")
            return isinstance(enum, list) and enum == [None]

        nulls = [i for i in range(len(branches)) if only_null(i)]
        return [i for i in range(len(branches)) if i not in nulls] + nulls

    # -- values ----------------------------------------------------------------------

    def build(
        self, schema: Any, path: str, hint: str, variant: int, refs: tuple[str, ...], depth: int
    ) -> Any:
        """The `variant`-th minimal value (variants differ, for `uniqueItems`)."""
        if depth > _MAX_DEPTH:
            raise self.error(path, "$ref", f"the schema nests deeper than {_MAX_DEPTH} levels")
        node, path, refs = self.flatten(schema, path, refs)
        for keyword in ("anyOf", "oneOf"):
            if keyword in node:
                return self._alternatives(node, keyword, path, hint, variant, refs, depth)
        if "const" in node:
            value = node["const"]
            if SchemaChecker(self.root).check(value, node) is False:
                raise self.error(path, "const", "the const value breaks the other keywords")
            return value
        if "enum" in node:
            fitting = [
                v
                for v in cast(list[Any], node["enum"])
                if SchemaChecker(self.root).check(v, {k: x for k, x in node.items() if k != "enum"})
                is not False
            ]
            if not fitting:
                raise self.error(path, "enum", "no enum value fits the other keywords")
            return fitting[variant % len(fitting)]
        return self._typed(node, path, hint, variant, refs, depth)

    def _alternatives(
        self,
        node: dict[str, Any],
        keyword: str,
        path: str,
        hint: str,
        variant: int,
        refs: tuple[str, ...],
        depth: int,
    ) -> Any:
        branches = node[keyword]
        if not isinstance(branches, list) or not branches:
            raise self.error(path, keyword, f"{keyword} must be a non-empty list of schemas")
        branch_list = cast(list[Any], branches)
        rest = {k: v for k, v in node.items() if k != keyword}
        failures: list[UnsupportedSchemaError] = []
        for i in self.non_null_first(branch_list, f"{path}/{keyword}", refs):
            branch_path = f"{path}/{keyword}/{i}"
            try:
                flat, flat_path, branch_refs = self.flatten(branch_list[i], branch_path, refs)
                candidate = self.merge(rest, flat, branch_path)
                value = self.build(candidate, flat_path, hint, variant, branch_refs, depth + 1)
            except UnsupportedSchemaError as exc:
                failures.append(exc)
                continue
            if keyword == "oneOf" and any(
                SchemaChecker(self.root).check(value, other) is not False
                for j, other in enumerate(branch_list)
                if j != i
            ):
                failures.append(
                    self.error(branch_path, "oneOf", "its value also matches another oneOf branch")
                )
                continue
            return value
        raise failures[0]

    def _typed(
        self,
        node: dict[str, Any],
        path: str,
        hint: str,
        variant: int,
        refs: tuple[str, ...],
        depth: int,
    ) -> Any:
        declared = node.get("type")
        if declared is None:
            kinds = [_inferred_type(node)]
        elif isinstance(declared, str):
            kinds = [declared.lower()]
        elif isinstance(declared, list) and declared:
            kinds = [str(t).lower() for t in cast(list[Any], declared)]
        else:
            raise self.error(path, "type", f"type must be a name or a list, found {declared!r}")
        if node.get("nullable") is True and "null" not in kinds:
            kinds.append("null")
        kinds = [t for t in kinds if t != "null"] + [t for t in kinds if t == "null"]
        failures: list[UnsupportedSchemaError] = []
        for kind in kinds:
            try:
                return self._of_type(kind, node, path, hint, variant, refs, depth)
            except UnsupportedSchemaError as exc:
                failures.append(exc)
        raise failures[0]

    def _of_type(
        self,
        kind: str,
        node: dict[str, Any],
        path: str,
        hint: str,
        variant: int,
        refs: tuple[str, ...],
        depth: int,
    ) -> Any:
        if kind == "object":
            return self._object(node, path, variant, refs, depth)
        if kind == "array":
            return self._array(node, path, hint, variant, refs, depth)
        if kind == "string":
            return self._string(node, path, hint, variant, refs, depth)
        if kind in ("integer", "number"):
            return self._number(node, path, kind == "integer", variant)
        if kind == "boolean":
            return variant % 2 == 1
        if kind == "null":
            return None
        raise self.error(path, "type", f"unknown type {kind!r}")

    def _object(
        self, node: dict[str, Any], path: str, variant: int, refs: tuple[str, ...], depth: int
    ) -> dict[str, Any]:
        props = cast(Mapping[str, Any], node.get("properties", {}))
        additional = node.get("additionalProperties", True)
        result: dict[str, Any] = {}

        def add(name: str) -> None:
            if name in props:
                sub, sub_path = props[name], f"{path}/properties/{_escape(name)}"
            elif additional is False:
                raise self.error(
                    f"{path}/required",
                    "additionalProperties",
                    f"required property {name!r} is not declared and additionalProperties is false",
                )
            else:
                sub, sub_path = additional, f"{path}/additionalProperties"
            first = variant if not result else 0
            result[name] = self.build(sub, sub_path, name, first, refs, depth + 1)

        for name in dict.fromkeys(cast(list[str], node.get("required", []))):
            add(name)
        wanted = int(node.get("minProperties", 0))
        for name in props:
            if len(result) >= wanted:
                break
            if name not in result:
                add(name)
        attempt = 0
        while len(result) < wanted:
            if additional is False or attempt > wanted + 16:
                raise self.error(
                    path, "minProperties", f"cannot find {wanted} distinct allowed property names"
                )
            key = self.build(
                node.get("propertyNames", {"type": "string"}),
                f"{path}/propertyNames",
                "key",
                attempt,
                refs,
                depth + 1,
            )
            attempt += 1
            if isinstance(key, str) and key not in result:
                add(key)
        limit = node.get("maxProperties")
        if limit is not None and len(result) > limit:
            raise self.error(
                path,
                "maxProperties",
                f"{len(result)} properties are required but at most {limit} allowed",
            )
        return result

    def _array(
        self,
        node: dict[str, Any],
        path: str,
        hint: str,
        variant: int,
        refs: tuple[str, ...],
        depth: int,
    ) -> list[Any]:
        count = int(node.get("minItems", 0))
        limit = node.get("maxItems")
        if limit is not None and limit < count:
            raise self.error(path, "maxItems", f"maxItems {limit} is below minItems {count}")
        prefix = cast(list[Any], node.get("prefixItems", []))
        items = node.get("items", True)
        if isinstance(items, list):
            raise self.error(
                path, "items", "the pre-2020 list form of items is not supported; use prefixItems"
            )
        unique = node.get("uniqueItems") is True
        out: list[Any] = []
        for i in range(count):
            sub, sub_path = (
                (prefix[i], f"{path}/prefixItems/{i}")
                if i < len(prefix)
                else (items, f"{path}/items")
            )
            shift = (i if unique else 0) + (variant if i == 0 else 0)
            out.append(self.build(sub, sub_path, hint, shift, refs, depth + 1))
        if unique and any(json_equal(a, b) for i, a in enumerate(out) for b in out[i + 1 :]):
            raise self.error(path, "uniqueItems", f"cannot build {count} distinct items")
        return out

    def _string(
        self,
        node: dict[str, Any],
        path: str,
        hint: str,
        variant: int,
        refs: tuple[str, ...],
        depth: int,
    ) -> str:
        low = int(node.get("minLength", 0))
        high = node.get("maxLength")
        if high is not None and high < low:
            raise self.error(path, "maxLength", f"maxLength {high} is below minLength {low}")
        media = node.get("contentMediaType")
        fmt = node.get("format")
        if media is not None:
            if media != "application/json":
                raise self.error(
                    path, "contentMediaType", f"media type {media!r} cannot be produced"
                )
            inner = self.build(
                node.get("contentSchema", True),
                f"{path}/contentSchema",
                hint,
                variant,
                refs,
                depth + 1,
            )
            return self._fixed(json.dumps(inner), low, high, path)
        if fmt in _FIXED_FORMATS:
            return self._fixed(_FIXED_FORMATS[fmt](variant), low, high, path)
        if fmt in _BASE64_FORMATS:
            raw = _placeholder(hint, variant, 0, None).encode()
            encoded = base64.urlsafe_b64encode(raw) if fmt == "base64url" else base64.b64encode(raw)
            return self._fixed(encoded.decode(), low, high, path)
        if fmt is not None and fmt not in _PLACEHOLDER_FORMATS:
            raise self.error(path, "format", f"format {fmt!r} is not one the fake can produce")
        text = _placeholder(hint, variant, low, high)
        return re.escape(text) if fmt == "regex" else text

    def _fixed(self, text: str, low: int, high: int | None, path: str) -> str:
        if len(text) < low:
            raise self.error(path, "minLength", f"{text!r} is shorter than minLength {low}")
        if high is not None and len(text) > high:
            raise self.error(path, "maxLength", f"{text!r} is longer than maxLength {high}")
        return text

    def _number(self, node: dict[str, Any], path: str, integer: bool, variant: int) -> int | float:
        low, low_strict = _bound(node, "minimum", "exclusiveMinimum", max)
        high, high_strict = _bound(node, "maximum", "exclusiveMaximum", min)
        step: Fraction | None = None
        if "multipleOf" in node:
            step = _exact(node["multipleOf"])
            if step <= 0:
                raise self.error(path, "multipleOf", "multipleOf must be greater than 0")
        if integer:
            step = Fraction(step.numerator) if step is not None else Fraction(1)

        def inside(x: Fraction) -> bool:
            above = low is None or (x > low if low_strict else x >= low)
            below = high is None or (x < high if high_strict else x <= high)
            return above and below

        if step is not None:
            first = -math.inf if low is None else math.ceil(low / step)
            last = math.inf if high is None else math.floor(high / step)
            if low is not None and low_strict and first * step == low:
                first += 1
            if high is not None and high_strict and last * step == high:
                last -= 1
            if first > last:
                raise self.error(path, "multipleOf", "no allowed value lies within the bounds")
            nearest = min(max(round(1 / step), first), last)
            chosen = _nth_near(int(nearest), variant, first, last) * step
        else:
            options = [Fraction(1)]
            if low is not None:
                options += [low, low + 1]
            if high is not None:
                options += [high, high - 1]
            if low is not None and high is not None:
                options.append((low + high) / 2)
            fitting = [x for x in options if inside(x)]
            if not fitting:
                raise self.error(path, "minimum", "no number lies within the bounds")
            chosen = fitting[0]
            for shift in (variant, -variant):
                if inside(chosen + shift):
                    chosen += shift
                    break
        return int(chosen) if integer else float(chosen)


def _nth_near(center: int, n: int, first: float, last: float) -> int:
    """The n-th integer in [first, last] by distance from `center` (center, +1, -1, +2...)."""
    found = 0
    offset = 0
    while True:
        for candidate in (center + offset, center - offset) if offset else (center,):
            if first <= candidate <= last:
                if found == n:
                    return candidate
                found += 1
        offset += 1
        if center - offset < first and center + offset > last:
            return center


def _bound(
    node: Mapping[str, Any], plain: str, exclusive: str, tighter: Callable[..., Fraction]
) -> tuple[Fraction | None, bool]:
    """A numeric bound and whether it is strict, reading both JSON Schema spellings."""
    candidates: list[tuple[Fraction, bool]] = []
    if plain in node:
        candidates.append((_exact(node[plain]), node.get(exclusive) is True))
    value = node.get(exclusive)
    if value is not None and not isinstance(value, bool):
        candidates.append((_exact(value), True))
    if not candidates:
        return None, False
    best = tighter(c[0] for c in candidates)
    return best, any(strict for bound, strict in candidates if bound == best)


def _exact(number: Any) -> Fraction:
    return Fraction(str(number)) if isinstance(number, float) else Fraction(number)


def _at(items: list[Any], i: int) -> Any:
    return items[i] if i < len(items) else None


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _placeholder(hint: str, variant: int, low: int, high: int | None) -> str:
    """The property name as a value: `city` -> "city", the second variant "city_2"."""
    base = hint or "text"
    suffix = f"_{variant + 1}" if variant else ""
    if high is not None and len(suffix) > high:
        suffix = ""
    room = None if high is None else high - len(suffix)
    if room is not None:
        base = base[:room]
    base += "x" * max(0, low - len(base) - len(suffix))
    return base + suffix


def _inferred_type(node: Mapping[str, Any]) -> str:
    """The type a schema without `type` most plausibly describes (a string when unsure)."""
    for kind, hints in (
        ("object", _OBJECT_HINTS),
        ("array", _ARRAY_HINTS),
        ("string", _STRING_HINTS),
        ("number", _NUMBER_HINTS),
    ):
        if any(h in node for h in hints):
            return kind
    return "string"
