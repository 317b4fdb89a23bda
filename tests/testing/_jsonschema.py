"""jsonschema, the independent judge of the values the testing kit derives."""

from __future__ import annotations

from typing import Any, cast

import jsonschema

FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER


def conforms(value: Any, schema: Any, *, formats: bool = True) -> bool:
    """Whether jsonschema (draft 2020-12, formats checked by default) accepts `value`."""
    try:
        jsonschema.validate(
            value,
            schema,
            cls=jsonschema.Draft202012Validator,
            format_checker=FORMATS if formats else None,
        )
    except jsonschema.ValidationError:
        return False
    return True


def lower_types(schema: Any) -> Any:
    """Gemini's `Schema` dialect writes "STRING"; jsonschema wants "string"."""
    if isinstance(schema, dict):
        items = cast(dict[str, Any], schema).items()
        return {
            k: v.lower() if k == "type" and isinstance(v, str) else lower_types(v) for k, v in items
        }
    if isinstance(schema, list):
        return [lower_types(v) for v in cast(list[Any], schema)]
    return schema
