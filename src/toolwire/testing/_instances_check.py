"""A small three-valued JSON Schema checker for the instances the fakes build.

`minimal_instance` uses it to confirm that a `oneOf` branch is the only one
matching and that the finished value conforms; `invalid_instance` uses it to
prove that a broken value really breaks the schema. It never needs a
dependency: it answers `True` (conforms), `False` (provably does not) or
`None` (a keyword it cannot judge, such as `pattern`, decides). A `False` is
only returned for a failure of a keyword it fully understands, so a value it
calls invalid is invalid for any JSON Schema validator. `format` is treated
as an annotation, as validators do by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from .._schema._shapes import json_type_of

__all__ = [
    "ANNOTATION_KEYWORDS",
    "OBJECT_KEYWORDS",
    "JsonPointerError",
    "SchemaChecker",
    "Verdict",
    "json_equal",
    "json_type_of",
    "resolve_local_ref",
]

Verdict = bool | None
"""`True` conforms, `False` provably does not, `None` cannot tell."""

ANNOTATION_KEYWORDS = frozenset(
    {
        "$anchor",
        "$comment",
        "$defs",
        "$id",
        "$schema",
        "definitions",
        "deprecated",
        "description",
        "discriminator",
        "default",
        "example",
        "examples",
        "propertyOrdering",
        "readOnly",
        "title",
        "writeOnly",
    }
)
"""Keywords that never constrain a value (`discriminator` only guides tools)."""

_MAX_DEPTH = 150
"""Beyond this nesting the checker answers None instead of exhausting the stack."""


class JsonPointerError(LookupError):
    """A `$ref` that is not a local JSON pointer, or points to nothing."""


def resolve_local_ref(root: Any, ref: str) -> Any:
    """Follow a local `$ref` (`#`, `#/$defs/Name`, any JSON pointer) inside `root`."""
    if not ref.startswith("#"):
        raise JsonPointerError(f"$ref {ref!r} is not a local reference (it must start with '#')")
    pointer = ref[1:]
    if pointer == "":
        return root
    if not pointer.startswith("/"):
        raise JsonPointerError(f"$ref {ref!r} names an anchor, not a JSON pointer")
    node: Any = root
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and token in node:
            node = cast(Mapping[str, Any], node)[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(cast(list[Any], node)):
            node = cast(list[Any], node)[int(token)]
        else:
            raise JsonPointerError(f"$ref {ref!r} points to nothing in this schema")
    return node


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: `1 == 1.0`, but `True != 1` and `[1] != (1,)` is still equal."""
    ta, tb = json_type_of(a), json_type_of(b)
    numeric = {"integer", "number"}
    if ta in numeric and tb in numeric:
        return bool(a == b)
    if ta != tb:
        return False
    if ta == "array":
        sa, sb = cast(Sequence[Any], a), cast(Sequence[Any], b)
        return len(sa) == len(sb) and all(json_equal(x, y) for x, y in zip(sa, sb, strict=True))
    if ta == "object":
        ma, mb = cast(Mapping[str, Any], a), cast(Mapping[str, Any], b)
        return ma.keys() == mb.keys() and all(json_equal(ma[k], mb[k]) for k in ma)
    return bool(a == b)


def _all(verdicts: list[Verdict]) -> Verdict:
    if any(v is False for v in verdicts):
        return False
    return True if all(v is True for v in verdicts) else None


def _exact(number: Any) -> Fraction:
    return Fraction(str(number)) if isinstance(number, float) else Fraction(number)


class SchemaChecker:
    """Checks values against one schema document (local `$ref`s resolve in `root`)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.failure: tuple[str, str] | None = None
        """(path, keyword) of the first provable failure seen by the last `check`."""

    def check(self, value: Any, schema: Any, path: str = "#") -> Verdict:
        """Whether `value` conforms to `schema` (a node of `root`)."""
        self.failure = None
        return self._check(value, schema, path, 0)

    def _fail(self, path: str, keyword: str) -> bool:
        if self.failure is None:
            self.failure = (path, keyword)
        return False

    def _check(self, value: Any, schema: Any, path: str, depth: int) -> Verdict:
        if depth > _MAX_DEPTH:
            return None
        if schema is True:
            return True
        if schema is False:
            return self._fail(path, "false")
        if not isinstance(schema, Mapping):
            return None
        node = cast(Mapping[str, Any], schema)
        verdicts: list[Verdict] = []
        for keyword, argument in node.items():
            if keyword in ANNOTATION_KEYWORDS or keyword in _IGNORED_HERE:
                continue
            verdict = self._keyword(value, node, keyword, argument, path, depth)
            if verdict is False:
                return False
            verdicts.append(verdict)
        return _all(verdicts)

    def _keyword(
        self, value: Any, node: Mapping[str, Any], keyword: str, arg: Any, path: str, depth: int
    ) -> Verdict:
        kind = json_type_of(value)
        here = f"{path}/{keyword}"
        if keyword == "$ref":
            try:
                target = resolve_local_ref(self.root, str(arg))
            except JsonPointerError:
                return None
            return self._check(value, target, str(arg), depth + 1)
        if keyword == "type":
            names = [arg] if isinstance(arg, str) else list(cast(list[str], arg))
            allowed = [str(name).lower() for name in names]  # Gemini's Schema says "STRING"
            if node.get("nullable") is True:
                allowed.append("null")
            fits = kind in allowed or (kind == "integer" and "number" in allowed)
            return True if fits else self._fail(here, keyword)
        if keyword == "enum":
            options = cast(list[Any], arg)
            return True if any(json_equal(value, o) for o in options) else self._fail(here, keyword)
        if keyword == "const":
            return True if json_equal(value, arg) else self._fail(here, keyword)
        if keyword in ("anyOf", "oneOf", "allOf"):
            return self._combinator(value, keyword, cast(list[Any], arg), here, depth)
        if keyword == "not":
            inner = SchemaChecker(self.root)._check(value, arg, here, depth + 1)
            if inner is None:
                return None
            return True if inner is False else self._fail(here, keyword)
        if keyword == "if":
            condition = SchemaChecker(self.root)._check(value, arg, here, depth + 1)
            if condition is None:
                return None
            branch = "then" if condition else "else"
            if branch not in node:
                return True
            return self._check(value, node[branch], f"{path}/{branch}", depth + 1)
        if keyword in _NUMBER_KEYWORDS:
            return self._number(value, kind, node, keyword, arg, here)
        if keyword in _STRING_KEYWORDS:
            return self._string(value, kind, keyword, arg, here)
        if keyword in _ARRAY_KEYWORDS:
            return self._array(value, node, keyword, arg, here, depth) if kind == "array" else True
        if keyword in _OBJECT_KEYWORDS:
            return (
                self._object(value, node, keyword, arg, here, depth) if kind == "object" else True
            )
        return None

    def _combinator(
        self, value: Any, keyword: str, branches: list[Any], here: str, depth: int
    ) -> Verdict:
        results = [
            SchemaChecker(self.root)._check(value, b, f"{here}/{i}", depth + 1)
            for i, b in enumerate(branches)
        ]
        if keyword == "allOf":
            for i, result in enumerate(results):
                if result is False:
                    return self._check(value, branches[i], f"{here}/{i}", depth + 1)
            return _all(results)
        passed = results.count(True)
        unknown = results.count(None)
        if keyword == "anyOf":
            if passed:
                return True
            return None if unknown else self._fail(here, keyword)
        if passed > 1 or (passed == 0 and unknown == 0):
            return self._fail(here, keyword)
        return True if passed == 1 and unknown == 0 else None

    def _number(
        self, value: Any, kind: str, node: Mapping[str, Any], keyword: str, arg: Any, here: str
    ) -> Verdict:
        if kind not in ("integer", "number"):
            return True
        if isinstance(arg, bool):
            # draft-4 style `exclusiveMinimum: true` is folded into `minimum` below.
            return True
        x, bound = _exact(value), _exact(arg)
        if keyword == "minimum":
            strict = node.get("exclusiveMinimum") is True
            ok = x > bound if strict else x >= bound
        elif keyword == "maximum":
            strict = node.get("exclusiveMaximum") is True
            ok = x < bound if strict else x <= bound
        elif keyword == "exclusiveMinimum":
            ok = x > bound
        elif keyword == "exclusiveMaximum":
            ok = x < bound
        else:
            ok = bound != 0 and (x / bound).denominator == 1
        return True if ok else self._fail(here, keyword)

    def _string(self, value: Any, kind: str, keyword: str, arg: Any, here: str) -> Verdict:
        if kind != "string":
            return True
        if keyword == "minLength":
            return True if len(value) >= arg else self._fail(here, keyword)
        if keyword == "maxLength":
            return True if len(value) <= arg else self._fail(here, keyword)
        return None  # pattern: regular-expression dialects differ; do not judge

    def _array(
        self, value: Any, node: Mapping[str, Any], keyword: str, arg: Any, here: str, depth: int
    ) -> Verdict:
        """An array keyword's verdict on an array."""
        items = cast(Sequence[Any], value)
        if keyword == "minItems":
            return True if len(items) >= arg else self._fail(here, keyword)
        if keyword == "maxItems":
            return True if len(items) <= arg else self._fail(here, keyword)
        if keyword == "uniqueItems":
            if not arg:
                return True
            for i, a in enumerate(items):
                if any(json_equal(a, b) for b in items[i + 1 :]):
                    return self._fail(here, keyword)
            return True
        if keyword == "prefixItems":
            prefix = cast(list[Any], arg)
            return _all(
                [
                    self._check(v, prefix[i], f"{here}/{i}", depth + 1)
                    for i, v in enumerate(items[: len(prefix)])
                ]
            )
        if keyword == "items":
            if isinstance(arg, list):
                return None  # the pre-2020 tuple form
            start = len(cast(list[Any], node.get("prefixItems", [])))
            return _all([self._check(v, arg, here, depth + 1) for v in items[start:]])
        if keyword == "contains":
            results = [SchemaChecker(self.root)._check(v, arg, here, depth + 1) for v in items]
            if "minContains" in node or "maxContains" in node:
                return None
            if any(r is True for r in results):
                return True
            return None if any(r is None for r in results) else self._fail(here, keyword)
        return None

    def _object(
        self, value: Any, node: Mapping[str, Any], keyword: str, arg: Any, here: str, depth: int
    ) -> Verdict:
        """An object keyword's verdict on an object."""
        obj = cast(Mapping[str, Any], value)
        if keyword == "required":
            names = cast(list[str], arg)
            return True if all(n in obj for n in names) else self._fail(here, keyword)
        if keyword == "minProperties":
            return True if len(obj) >= arg else self._fail(here, keyword)
        if keyword == "maxProperties":
            return True if len(obj) <= arg else self._fail(here, keyword)
        if keyword == "properties":
            props = cast(Mapping[str, Any], arg)
            return _all(
                [
                    self._check(obj[name], sub, f"{here}/{_escape(name)}", depth + 1)
                    for name, sub in props.items()
                    if name in obj
                ]
            )
        if keyword == "additionalProperties":
            if "patternProperties" in node:
                return None
            declared = cast(Mapping[str, Any], node.get("properties", {}))
            extra = [name for name in obj if name not in declared]
            return _all([self._check(obj[name], arg, here, depth + 1) for name in extra])
        if keyword == "propertyNames":
            return _all([self._check(name, arg, here, depth + 1) for name in obj])
        if keyword == "dependentRequired":
            deps = cast(Mapping[str, list[str]], arg)
            ok = all(all(d in obj for d in deps[name]) for name in obj if name in deps)
            return True if ok else self._fail(here, keyword)
        return None


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


_IGNORED_HERE = frozenset(
    {
        "then",
        "else",
        "nullable",
        "format",
        "contentMediaType",
        "contentEncoding",
        "contentSchema",
        "minContains",
        "maxContains",
    }
)
_NUMBER_KEYWORDS = frozenset(
    {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
)
_STRING_KEYWORDS = frozenset({"minLength", "maxLength", "pattern"})
_ARRAY_KEYWORDS = frozenset(
    {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"}
)
OBJECT_KEYWORDS = (
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
)
"""The object keywords the checker judges and the builder can satisfy."""
_OBJECT_KEYWORDS = frozenset({*OBJECT_KEYWORDS, "dependentRequired"})
