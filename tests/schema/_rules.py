"""Each API's schema rules as code: walk a compiled schema and list every violation.

Written from PROVIDERS.md (1h, 3g/3h, 4h) and DESIGN.md, independently of the compiler's own
tables, so a compiler bug cannot hide behind the same list. Each checker returns the list of
violations (empty when the schema obeys the API's rules) so a failure shows all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

from jsonschema import Draft202012Validator

Schema = dict[str, Any]

OPENAI_STRICT_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
    "const", "$ref", "$defs", "title", "description", "pattern", "format", "minimum",
    "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
}  # fmt: skip
OPENAI_REJECTED = {
    "default", "minLength", "maxLength", "oneOf", "allOf", "discriminator", "not",
    "patternProperties", "propertyNames", "minProperties", "maxProperties", "uniqueItems",
    "contains",
}  # fmt: skip
OPENAI_FORMATS = {
    "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid",
}  # fmt: skip
ANTHROPIC_STRICT_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "allOf",
    "enum", "const", "$ref", "$defs", "title", "description", "format", "minItems",
}  # fmt: skip
ANTHROPIC_FORMATS = {
    "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid",
}  # fmt: skip
GEMINI_KEYWORDS = {
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum",
    "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf",
    "properties", "additionalProperties", "required", "propertyOrdering",
}  # fmt: skip


def _subschemas(node: Schema) -> Iterator[tuple[str, Any]]:
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            yield f"{key}", node[key]
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for index, branch in enumerate(node.get(key, [])):
            yield f"{key}[{index}]", branch
    for name, prop in node.get("properties", {}).items():
        yield f"properties.{name}", prop


def walk(schema: Schema) -> Iterator[tuple[str, Schema]]:
    """Every schema node with its JSON path (the root, its subschemas, and $defs)."""
    stack: list[tuple[str, Any]] = [("#", schema)]
    stack += [(f"#/$defs/{name}", body) for name, body in schema.get("$defs", {}).items()]
    while stack:
        where, node = stack.pop()
        if not isinstance(node, dict):
            continue
        typed = cast(Schema, node)
        yield where, typed
        stack.extend((f"{where}/{key}", child) for key, child in _subschemas(typed))


def _refs(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        typed = cast(Schema, node)
        if isinstance(typed.get("$ref"), str):
            found.add(typed["$ref"].removeprefix("#/$defs/"))
        for _, child in _subschemas(typed):
            found |= _refs(child)
    return found


def _reach(schema: Schema) -> dict[str, set[str]]:
    defs: dict[str, Any] = schema.get("$defs", {})
    direct = {name: _refs(body) for name, body in defs.items()}
    reach: dict[str, set[str]] = {}
    for start in direct:
        seen: set[str] = set()
        todo = list(direct[start])
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(direct.get(name, set()))
        reach[start] = seen
    return reach


def _is_object(node: Schema) -> bool:
    return node.get("type") == "object" and "properties" in node


def _common(schema: Schema, problems: list[str]) -> None:
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as error:  # any meta-schema failure is a violation
        problems.append(f"not a valid JSON schema: {error}")
    if schema.get("type") != "object":
        problems.append("# root is not type object")
    for where, node in walk(schema):
        if "$defs" in node and where != "#":
            problems.append(f"{where}: $defs below the root")


def _typed(node: Schema) -> bool:
    return any(key in node for key in ("type", "anyOf", "allOf", "enum", "const", "$ref"))


def check_openai_strict(schema: Schema) -> list[str]:
    """OpenAI strict: keyword subset, closed objects, all required, bare $ref, object root."""
    problems: list[str] = []
    _common(schema, problems)
    if "anyOf" in schema:
        problems.append("# anyOf at the root")
    for where, node in walk(schema):
        for key in set(node) - OPENAI_STRICT_KEYWORDS:
            problems.append(f"{where}: keyword {key} not taken")
        for key in set(node) & OPENAI_REJECTED:
            problems.append(f"{where}: keyword {key} rejected")
        if "$ref" in node and set(node) != {"$ref"}:
            problems.append(f"{where}: $ref with siblings {sorted(set(node) - {'$ref'})}")
        if not _typed(node):
            problems.append(f"{where}: accepts any value")
        if node.get("type") == "object":
            if "properties" not in node:
                problems.append(f"{where}: object without properties")
            if node.get("additionalProperties") is not False:
                problems.append(f"{where}: object not closed")
            if set(node.get("required", [])) != set(node.get("properties", {})):
                problems.append(f"{where}: not every property required")
        if node.get("type") == "array" and "items" not in node:
            problems.append(f"{where}: array without items")
        if "format" in node and node["format"] not in OPENAI_FORMATS:
            problems.append(f"{where}: format {node['format']} not taken")
    return problems


def check_anthropic_strict(schema: Schema) -> list[str]:
    """Anthropic strict: transform_schema's subset, closed objects, bare $ref, typed nodes."""
    problems: list[str] = []
    _common(schema, problems)
    for where, node in walk(schema):
        for key in set(node) - ANTHROPIC_STRICT_KEYWORDS:
            problems.append(f"{where}: keyword {key} not taken")
        if "$ref" in node and set(node) != {"$ref"}:
            problems.append(f"{where}: $ref with siblings {sorted(set(node) - {'$ref'})}")
        if not _typed(node):
            problems.append(f"{where}: accepts any value")
        if node.get("type") == "object" and node.get("additionalProperties") is not False:
            problems.append(f"{where}: object not closed")
        if not set(node.get("required", [])) <= set(node.get("properties", {})):
            problems.append(f"{where}: required names a missing property")
        if "minItems" in node and node["minItems"] not in (0, 1):
            problems.append(f"{where}: minItems {node['minItems']}")
        if "format" in node and node["format"] not in ANTHROPIC_FORMATS:
            problems.append(f"{where}: format {node['format']} not taken")
        if isinstance(node.get("type"), list):
            problems.append(f"{where}: type list")
    return problems


def _gemini(schema: Schema, *, strict: bool) -> list[str]:
    problems: list[str] = []
    _common(schema, problems)
    reach = _reach(schema)
    for where, node in walk(schema):
        for key in set(node) - GEMINI_KEYWORDS:
            problems.append(f"{where}: keyword {key} not taken")
        if "$ref" in node and any(not key.startswith("$") for key in node):
            problems.append(f"{where}: $ref with non-$ siblings")
        for value in node.get("enum", []):
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                problems.append(f"{where}: enum value {value!r} is not a string or number")
        if strict and _is_object(node) and node.get("additionalProperties") is not False:
            problems.append(f"{where}: object not closed")
    if strict:  # at the root only properties leading into a recursive model may stay optional
        for prop, prop_schema in schema.get("properties", {}).items():
            recursive = any(t in reach.get(t, set()) for t in _refs(prop_schema))
            if prop not in schema.get("required", []) and not recursive:
                problems.append(f"#.{prop}: optional in strict mode")
    # Cyclic references only within non-required properties, checked per definition.
    for name, body in schema.get("$defs", {}).items():
        for where, node in walk({"$defs": {}, **body}):
            for prop, prop_schema in node.get("properties", {}).items():
                cyclic = any(t == name or name in reach.get(t, set()) for t in _refs(prop_schema))
                if cyclic and prop in node.get("required", []):
                    problems.append(f"$defs/{name}{where[1:]}.{prop}: required cyclic property")
                if strict and not cyclic and prop not in node.get("required", []):
                    problems.append(f"$defs/{name}{where[1:]}.{prop}: optional in strict mode")
    return problems


def check_gemini_strict(schema: Schema) -> list[str]:
    """Gemini, strict: its keyword list, closed objects, recursion only through optionals."""
    return _gemini(schema, strict=True)


def check_gemini(schema: Schema) -> list[str]:
    """Gemini, non-strict: its keyword list, recursion only through optional properties."""
    return _gemini(schema, strict=False)


def check_responses(schema: Schema) -> list[str]:
    """Responses, non-strict: no oneOf (reported rejected) and no orphan discriminator."""
    problems: list[str] = []
    _common(schema, problems)
    for where, node in walk(schema):
        for key in ("oneOf", "discriminator"):
            if key in node:
                problems.append(f"{where}: {key}")
    return problems


def check_json_schema(schema: Schema) -> list[str]:
    """Chat and Anthropic non-strict: any valid JSON schema with an object root."""
    problems: list[str] = []
    _common(schema, problems)
    return problems


CHECKERS: dict[tuple[str, bool], Callable[[Schema], list[str]]] = {
    ("chat.completions", True): check_openai_strict,
    ("responses", True): check_openai_strict,
    ("anthropic", True): check_anthropic_strict,
    ("gemini", True): check_gemini_strict,
    ("chat.completions", False): check_json_schema,
    ("responses", False): check_responses,
    ("anthropic", False): check_json_schema,
    ("gemini", False): check_gemini,
}
"""The rule checker for each (api, strict)."""
