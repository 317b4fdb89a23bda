"""Plain-word phrasing of JSON-schema keywords, for descriptions the model reads.

When an API does not take a constraint (``minLength``, ``pattern``, ...), the compiler moves it
into the field's description in words, so the model can still follow it. One sentence per
field: ``"Constraints: at least 2 characters; matches the regular expression ^a."``, then any
notes (``"Default: 5."``). The wording is part of the snapshot-tested output: keep it stable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

__all__ = ["compose_description", "constraint_phrase", "json_text"]


def json_text(value: Any) -> str:
    """A value as compact JSON text (numbers plain, strings quoted)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _count(value: Any, singular: str, plural: str) -> str:
    return f"{json_text(value)} {singular if value == 1 else plural}"


def constraint_phrase(keyword: str, value: Any) -> str:
    """One constraint in words, e.g. ``minLength: 2`` -> ``"at least 2 characters"``."""
    match keyword:
        case "minLength":
            return "at least " + _count(value, "character", "characters")
        case "maxLength":
            return "at most " + _count(value, "character", "characters")
        case "pattern":
            return f"matches the regular expression {value}"
        case "format":
            return f"in {value} format"
        case "minimum":
            return f"at least {json_text(value)}"
        case "maximum":
            return f"at most {json_text(value)}"
        case "exclusiveMinimum":
            return f"greater than {json_text(value)}"
        case "exclusiveMaximum":
            return f"less than {json_text(value)}"
        case "multipleOf":
            return f"a multiple of {json_text(value)}"
        case "minItems":
            return "at least " + _count(value, "item", "items")
        case "maxItems":
            return "at most " + _count(value, "item", "items")
        case "uniqueItems":
            return "no duplicate items" if value else "duplicate items allowed"
        case "minProperties":
            return "at least " + _count(value, "entry", "entries")
        case "maxProperties":
            return "at most " + _count(value, "entry", "entries")
        case "propertyNames":
            return _key_phrase(value)
        case "const":
            return f"must be {json_text(value)}"
        case _:
            return f"{keyword}: {json_text(value)}"


def _key_phrase(schema: Any) -> str:
    """What a dict's keys must be: their allowed values, else their schema."""
    values = cast("Mapping[str, Any]", schema).get("enum") if isinstance(schema, Mapping) else None
    if isinstance(values, list):
        return "keys are one of " + ", ".join(
            json_text(value) for value in cast("list[Any]", values)
        )
    return f"keys follow the schema {json_text(schema)}"


def compose_description(
    description: str | None, constraints: Sequence[str], notes: Sequence[str]
) -> str | None:
    """The field's own description, then the moved constraints, then the notes."""
    added: list[str] = []
    if constraints:
        added.append("Constraints: " + "; ".join(constraints) + ".")
    added.extend(notes)
    if not added:
        return description
    text = " ".join(added)
    return f"{description}\n\n{text}" if description else text
