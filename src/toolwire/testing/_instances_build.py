"""The walk behind `minimal_instance`: the keyword subset, the formats, the builder.

`_instances` documents the behaviour; this module holds the machinery.
`UnsupportedSchemaError` lives here so the builder can raise it; import it
from `toolwire.testing._instances`.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import math
import re
import uuid
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any, NamedTuple, cast

from ..exceptions import ToolwireError
from ._instances_check import (
    ANNOTATION_KEYWORDS,
    OBJECT_KEYWORDS,
    JsonPointerError,
    SchemaChecker,
    json_equal,
    resolve_local_ref,
)

__all__ = ["SUPPORTED_FORMATS", "SUPPORTED_KEYWORDS", "Builder", "UnsupportedSchemaError", "Want"]

_OBJECT_HINTS = OBJECT_KEYWORDS
_ARRAY_HINTS = ("items", "prefixItems", "minItems", "maxItems", "uniqueItems")
_STRING_HINTS = ("minLength", "maxLength", "format", "contentMediaType")
_NUMBER_HINTS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
"""The keywords of each type: they tell a node's type where it states none."""

_CONSTRAINT_KEYWORDS = frozenset(
    {"type", "enum", "const", "nullable", "contentSchema", "anyOf", "oneOf", "allOf", "$ref"}
).union(_OBJECT_HINTS, _ARRAY_HINTS, _STRING_HINTS, _NUMBER_HINTS)

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


def _fits_format(value: object, fmt: object) -> bool:
    """Whether a given (enum or const) string is well-formed for `fmt`, for the formats a
    validator checks by default-strict settings; any other format, or a non-string, fits.
    (The schema checker treats `format` as an annotation, as validators do by default;
    a value the fake sends must still be valid where a strict validator checks it.)"""
    if not isinstance(value, str) or not isinstance(fmt, str):
        return True
    check = _FORMAT_CHECKS.get(fmt)
    if check is None:
        return True
    try:
        return check(value) is not False
    except ValueError:
        return False


_FORMAT_CHECKS: dict[str, Callable[[str], object]] = {
    "email": lambda v: re.fullmatch(r"[^@\s]+@[^@\s]+", v) is not None,
    "date": datetime.date.fromisoformat,
    "date-time": lambda v: datetime.datetime.fromisoformat(v.replace("Z", "+00:00")),
    "uuid": uuid.UUID,
    "ipv4": ipaddress.IPv4Address,
    "ipv6": ipaddress.IPv6Address,
}

_MAX_DEPTH = 64
"""Deepest nesting built; far beyond real tool schemas, well within Python's stack."""
_SUBSCHEMA_MERGE = frozenset({"items", "additionalProperties", "propertyNames", "contentSchema"})
_LOWER_BOUNDS = frozenset({"minimum", "minLength", "minItems", "minProperties"})
_UPPER_BOUNDS = frozenset({"maximum", "maxLength", "maxItems", "maxProperties"})


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


class Want(NamedTuple):
    """What the value the builder makes at `path` is asked to be."""

    path: str
    """Where it is in the schema (a JSON pointer), for errors."""
    hint: str = ""
    """Its name (a property's), for placeholder text."""
    variant: int = 0
    """Which of its minimal values (they differ, for `uniqueItems`)."""
    refs: tuple[str, ...] = ()
    """The `$ref`s being expanded around it (one among them again is a recursion)."""
    depth: int = 0
    """How deep it nests."""

    def inner(
        self,
        path: str,
        *,
        hint: str | None = None,
        variant: int | None = None,
        refs: tuple[str, ...] | None = None,
    ) -> Want:
        """A value nested in this one, at `path`: with its own hint, variant and `$ref`s
        being expanded where given, else this one's."""
        return Want(
            path,
            self.hint if hint is None else hint,
            self.variant if variant is None else variant,
            self.refs if refs is None else refs,
            self.depth + 1,
        )


class Builder:
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
            if len(refs) > _MAX_DEPTH:
                raise self.error(path, "depth", f"more than {_MAX_DEPTH} nested $refs")
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

    def build(self, schema: Any, want: Want) -> Any:
        """The `want.variant`-th minimal value (variants differ, for `uniqueItems`)."""
        if want.depth > _MAX_DEPTH:
            raise self.error(want.path, "depth", f"values nest deeper than {_MAX_DEPTH} levels")
        node, path, refs = self.flatten(schema, want.path, want.refs)
        want = want._replace(path=path, refs=refs)
        variant = want.variant
        for keyword in ("anyOf", "oneOf"):
            if keyword in node:
                return self._alternatives(node, keyword, want)
        if "const" in node:
            value = node["const"]
            if SchemaChecker(self.root).check(value, node) is False or not _fits_format(
                value, node.get("format")
            ):
                raise self.error(path, "const", "the const value breaks the other keywords")
            return value
        if "enum" in node:
            others = {k: x for k, x in node.items() if k != "enum"}
            fitting = [
                v
                for v in cast(list[Any], node["enum"])
                if SchemaChecker(self.root).check(v, others) is not False
                and _fits_format(v, node.get("format"))
            ]
            if not fitting:
                raise self.error(path, "enum", "no enum value fits the other keywords")
            return fitting[variant % len(fitting)]
        return self._typed(node, want)

    def _alternatives(self, node: dict[str, Any], keyword: str, want: Want) -> Any:
        path, refs = want.path, want.refs
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
                value = self.build(candidate, want.inner(flat_path, refs=branch_refs))
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

    def _typed(self, node: dict[str, Any], want: Want) -> Any:
        path = want.path
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
                return self._of_type(kind, node, want)
            except UnsupportedSchemaError as exc:
                failures.append(exc)
        raise failures[0]

    def _of_type(self, kind: str, node: dict[str, Any], want: Want) -> Any:
        if kind == "object":
            return self._object(node, want)
        if kind == "array":
            return self._array(node, want)
        if kind == "string":
            return self._string(node, want)
        if kind in ("integer", "number"):
            return self._number(node, want.path, kind == "integer", want.variant)
        if kind == "boolean":
            return want.variant % 2 == 1
        if kind == "null":
            return None
        raise self.error(want.path, "type", f"unknown type {kind!r}")

    def _object(self, node: dict[str, Any], want: Want) -> dict[str, Any]:
        path = want.path
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
            first = want.variant if not result else 0
            result[name] = self.build(sub, want.inner(sub_path, hint=name, variant=first))

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
            names = node.get("propertyNames", {"type": "string"})
            key = self.build(
                names, want.inner(f"{path}/propertyNames", hint="key", variant=attempt)
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

    def _array(self, node: dict[str, Any], want: Want) -> list[Any]:
        path = want.path
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
            shift = (i if unique else 0) + (want.variant if i == 0 else 0)
            out.append(self.build(sub, want.inner(sub_path, variant=shift)))
        if unique and any(json_equal(a, b) for i, a in enumerate(out) for b in out[i + 1 :]):
            raise self.error(path, "uniqueItems", f"cannot build {count} distinct items")
        return out

    def _string(self, node: dict[str, Any], want: Want) -> str:
        path, hint, variant = want.path, want.hint, want.variant
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
            inner = self.build(node.get("contentSchema", True), want.inner(f"{path}/contentSchema"))
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
            nearest = int(min(max(round(1 / step), first), last))
            chosen = _nth_multiple(step, nearest, first, last, variant)
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


def _nth_multiple(step: Fraction, center: int, first: float, last: float, n: int) -> Fraction:
    """The n-th multiple `k * step` (k in [first, last]) by distance of k from `center`.

    Validators check `multipleOf` by float division, where `0.3 / 0.1` is not
    whole; multiples that pass that check too are preferred when any turn up.
    """
    seen: list[Fraction] = []
    clean = 0
    for k in _near(center, first, last):
        value = k * step
        seen.append(value)
        if step.denominator == 1 or (float(value) / float(step)).is_integer():
            if clean == n:
                return value
            clean += 1
        if len(seen) > n + 1000:
            break
    return seen[min(n, len(seen) - 1)]


def _near(center: int, first: float, last: float) -> Iterator[int]:
    """The integers of [first, last] by distance from `center`: center, +1, -1, +2..."""
    offset = 0
    while center - offset >= first or center + offset <= last:
        for k in (center + offset, center - offset) if offset else (center,):
            if first <= k <= last:
                yield k
        offset += 1


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
