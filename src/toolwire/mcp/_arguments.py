"""The check of a server tool's arguments against its `inputSchema`, before the call goes
out: a bad call is answered at once, with the same texts as any tool's.

A server's schema is untrusted input. Its references are resolved inside the schema
only: a `$ref` (or `$dynamicRef`, `$recursiveRef`) to anything else (an `https:` or
`file:` URL, another document) is never retrieved, and a schema with one is refused
when the tools are listed. Patterns are ECMA-262 regular expressions: one Python's `re`
cannot compile is left to the server, as is a `format` outside `CHECKED_FORMATS`.
Whatever still goes wrong while checking (a reference that loops forever) fails that
one call, never the batch.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import pydantic
import referencing.jsonschema
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, validators
from jsonschema import SchemaError as JsonSchemaError
from pydantic_core import InitErrorDetails, PydanticCustomError
from referencing import Registry
from referencing.exceptions import Unresolvable

__all__ = [
    "CHECKED_FORMATS",
    "ArgumentCheck",
    "UncheckableArguments",
    "output_schema_problem",
    "schema_problem",
    "unchecked_by_toolwire",
]

CHECKED_FORMATS = frozenset({"date", "email", "idn-email", "ipv4", "ipv6", "uuid"})
"""The `format`s checked before a call goes out: the ones jsonschema checks without extra
packages (the same checks, whatever else is installed). Any other format (`uri`,
`date-time`...) is left to the server, and the schema report says so where an API
drops it."""

_FORMAT_CHECKER = FormatChecker(CHECKED_FORMATS)
_SCHEMA_FORMAT_CHECKER = FormatChecker(name for name in FormatChecker.checkers if name != "regex")
"""The meta-schema check of a server's schema: jsonschema's, except that a pattern need
not compile as a Python regular expression (it is ECMA-262)."""
_REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")


class UncheckableArguments(Exception):
    """The server's schema could not be applied to these arguments (a reference that
    loops without end, say): the call is not sent, and the model is told why."""


def schema_problem(schema: Mapping[str, Any]) -> str | None:
    """Why the arguments of a tool with this `inputSchema` cannot be checked, or None:
    it is not valid JSON Schema, or one of its references leads outside it (or nowhere)."""
    cls = _validator_class(schema)
    try:
        cls.check_schema(schema, format_checker=_SCHEMA_FORMAT_CHECKER)
    except JsonSchemaError as error:
        return f"its inputSchema is not valid JSON Schema ({error.message})."
    problem = _outside_reference(schema, cls)
    if problem is not None:
        return f"its inputSchema {problem}; only references inside the schema are followed."
    return None


def output_schema_problem(schema: Mapping[str, Any]) -> str | None:
    """Why the MCP SDK cannot check a tool's results against this `outputSchema`, or
    None. The SDK checks every result before `call_tool` returns it: with a schema it
    refuses (a pattern Python cannot compile counts), every call would run on the server
    and lose its answer; older SDKs also fetched the references outside the schema."""
    cls = validators.validator_for(schema, default=Draft202012Validator)
    try:
        cls.check_schema(dict(schema))  # as the SDK checks it, patterns compiled by Python
    except JsonSchemaError as error:
        return (
            f"its outputSchema is not valid JSON Schema ({error.message}), so the MCP SDK "
            "refuses every result it returns."
        )
    problem = _outside_reference(schema, _lenient(cls))
    if problem is not None:
        return f"its outputSchema {problem}, so its results cannot be checked safely."
    return None


def _outside_reference(schema: Mapping[str, Any], cls: type[Any]) -> str | None:
    """The first reference the check could follow that does not resolve to a schema
    inside `schema`, described; None when every one does. Each reference is resolved as
    the validator resolves it (a subschema's `$id` sets the base URI of what is inside
    it), against a registry that holds this schema alone and retrieves nothing."""
    specification = _specification(cls)
    registry: Registry[Any] = Registry()
    resolver = registry.resolver_with_root(specification.create_resource(schema))
    stack: list[tuple[Any, object]] = [(resolver, schema)]  # (resolver at the node, node)
    seen: set[int] = set()
    while stack:
        resolver, node = stack.pop()
        key = id(node)
        if key in seen or not isinstance(node, dict):
            continue
        seen.add(key)
        subschema = cast("dict[str, Any]", node)
        for keyword in _REF_KEYWORDS:
            ref = subschema.get(keyword)
            if not isinstance(ref, str):
                continue
            try:
                resolved = resolver.lookup(ref)
            except Unresolvable:
                return f"refers to {ref!r} ({keyword}), which is not inside it"
            target: object = resolved.contents
            if not isinstance(target, dict | bool):
                return f"refers to {ref!r} ({keyword}), which is not a schema"
            stack.append((resolved.resolver, cast(object, target)))
        for child in specification.subresources_of(subschema):
            inner = resolver.in_subresource(specification.create_resource(child))
            stack.append((inner, child))
    return None


class ArgumentCheck:
    """One server schema as a validator: built once, used for every call."""

    __slots__ = ("_validator",)

    def __init__(self, schema: Mapping[str, Any]) -> None:
        cls = _validator_class(schema)
        # A registry of its own: nothing outside the schema is ever retrieved (the
        # default one fetches remote references).
        registry: Registry[Any] = Registry()
        self._validator: Any = cls(schema, registry=registry, format_checker=_FORMAT_CHECKER)

    def problems(self, data: object) -> list[InitErrorDetails]:
        """Each way `data` breaks the schema, as pydantic's error lines (none: it is
        valid). Raises `UncheckableArguments` when the schema cannot be applied."""
        try:
            errors = list(self._validator.iter_errors(data))
        except RecursionError as error:
            raise UncheckableArguments(
                "its references loop without end or nest too deeply to follow"
            ) from error
        except Unresolvable as error:
            raise UncheckableArguments(f"its reference {error.ref!r} cannot be resolved") from error
        except Exception as error:  # the schema is the server's: no crash for its sake
            cause = error.__cause__ if isinstance(error.__cause__, Unresolvable) else error
            raise UncheckableArguments(f"checking it failed ({type(cause).__name__})") from error
        # In jsonschema's order (the schema's): paths mix names and indexes, which do
        # not sort together.
        return [problem for error in errors for problem in _problems(error)]


def unchecked_by_toolwire(keyword: str, value: object) -> str | None:
    """Why a constraint an API does not take is not checked before the call either (the
    schema report's words), or None when it is."""
    if keyword == "format" and value not in CHECKED_FORMATS:
        return f"toolwire does not check the format {value!r} (the server does)"
    if keyword == "pattern" and isinstance(value, str) and _python_regex(value) is None:
        return "toolwire does not check this pattern, which Python cannot compile (the server does)"
    return None


def problem(loc: tuple[Any, ...], message: str, value: object) -> InitErrorDetails:
    """One error line with jsonschema's `message`, at `loc`."""
    return InitErrorDetails(
        type=PydanticCustomError("json_schema", "{reason}", {"reason": message}),
        loc=loc,
        input=value,
    )


def validation_error(title: str, problems: list[InitErrorDetails]) -> pydantic.ValidationError:
    return pydantic.ValidationError.from_exception_data(title, problems)


def _problems(error: ValidationError) -> list[InitErrorDetails]:
    """One jsonschema error as pydantic's error lines, so the model reads the same texts
    as for any tool: a missing or unexpected property at its own path."""
    loc = tuple(error.absolute_path)
    instance: Any = error.instance
    if error.validator == "required" and isinstance(instance, dict):
        required = cast("list[Any]", error.validator_value)
        names = [n for n in required if n not in instance and error.message.startswith(repr(n))]
        return [InitErrorDetails(type="missing", loc=(*loc, n), input=instance) for n in names[:1]]
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        given = cast("dict[str, Any]", instance)
        schema = cast("Mapping[str, Any]", error.schema)
        known = schema.get("properties", {})
        extra = [key for key in given if key not in known]
        if extra and "patternProperties" not in schema:
            return [
                InitErrorDetails(type="extra_forbidden", loc=(*loc, key), input=given[key])
                for key in extra
            ]
    return [problem(loc, error.message, error.instance)]


@functools.cache
def _python_regex(pattern: str) -> re.Pattern[str] | None:
    """`pattern` compiled by Python's `re`, or None when it cannot be (ECMA-262 syntax
    such as `\\p{L}` or `(?<year>...)`)."""
    try:
        return re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        return None


def _pattern(validator: Any, pattern: str, instance: object, schema: object) -> Iterator[Any]:
    regex = _python_regex(pattern)
    if regex is not None and isinstance(instance, str) and not regex.search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Mapping[str, Any], instance: object, schema: object
) -> Iterator[Any]:
    if not isinstance(instance, dict):
        return
    given = cast("dict[str, Any]", instance)
    for pattern, subschema in patterns.items():
        regex = _python_regex(pattern)
        if regex is None:
            continue
        for key, value in given.items():
            if regex.search(key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _unless_a_pattern_fails(keyword: Callable[..., Any]) -> Callable[..., Iterator[Any]]:
    """`keyword` (additionalProperties, unevaluatedProperties: they match property names
    against patternProperties), skipped where Python cannot compile one of the patterns:
    which names they match is then the server's to say."""

    def check(validator: Any, value: object, instance: object, schema: object) -> Iterator[Any]:
        try:
            errors = list(keyword(validator, value, instance, schema) or ())
        except re.error:
            return
        yield from errors

    return check


@functools.cache
def _lenient(base: type[Any]) -> type[Any]:
    """`base` (a jsonschema validator class) with patterns Python cannot compile left to
    the server."""
    keywords: dict[str, Callable[..., Any]] = {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
    }
    for name in ("additionalProperties", "unevaluatedProperties"):
        if name in base.VALIDATORS:
            keywords[name] = _unless_a_pattern_fails(base.VALIDATORS[name])
    extend: Callable[..., type[Any]] = validators.extend  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return extend(base, keywords)


def _validator_class(schema: Mapping[str, Any]) -> type[Any]:
    """The validator of the schema's `$schema` dialect (2020-12 when it names none or
    one jsonschema does not know), lenient with patterns."""
    base = validators.validator_for(schema, default=Draft202012Validator)
    return _lenient(base)


def _specification(cls: type[Any]) -> Any:
    """The `referencing` specification the validator class resolves references with."""
    return referencing.jsonschema.specification_with(
        cls.ID_OF(cls.META_SCHEMA) or "urn:unknown-dialect",
        default=referencing.Specification.OPAQUE,
    )
