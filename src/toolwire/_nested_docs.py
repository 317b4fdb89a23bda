"""Field docstrings of the models a tool's fields hold, in the tool's JSON schema.

A tool class reads the docstrings under its fields as their descriptions (pydantic's
`use_attribute_docstrings`, on for every tool). A plain pydantic model or dataclass
used as a field's type has it off unless it says so, and its docstrings were dropped
without a word, though the model reads them as much as the tool's own. The schema of a
tool is made with `DocumentedSchema`, which reads them for such nested classes too. A
class that sets `use_attribute_docstrings` itself (on or off) is left as it says;
TypedDicts are read too. A class without source (defined in a REPL) keeps its fields
undescribed, as pydantic would.
"""

from __future__ import annotations

from typing import Any, cast

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from ._schema._titles import UntitledJsonSchema

__all__ = ["DocumentedSchema", "UntitledDocumentedSchema"]


class DocumentedSchema(GenerateJsonSchema):
    """pydantic's JSON schema, with the field docstrings of nested models and
    dataclasses that do not set `use_attribute_docstrings` read as descriptions."""

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        json_schema = super().model_schema(schema)
        _describe(json_schema, schema["cls"])
        return json_schema

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> JsonSchemaValue:
        json_schema = super().typed_dict_schema(schema)
        cls = schema.get("cls")
        if cls is not None:
            _describe(json_schema, cls)
        return json_schema

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        json_schema = super().dataclass_schema(schema)
        _describe(json_schema, schema["cls"])
        return json_schema


class UntitledDocumentedSchema(DocumentedSchema, UntitledJsonSchema):
    """`DocumentedSchema` without the titles pydantic derives from names (the default
    for tools: see `toolwire._schema._titles`)."""


def _describe(json_schema: JsonSchemaValue, cls: type[Any]) -> None:
    """Add the docstring of each field of `cls` that has no description yet."""
    config: Any = (
        getattr(cls, "model_config", None) or getattr(cls, "__pydantic_config__", None) or {}
    )
    if "use_attribute_docstrings" in config:
        return
    properties: Any = json_schema.get("properties")
    if not isinstance(properties, dict):
        return
    try:  # pydantic's own reader, which `use_attribute_docstrings` runs
        from pydantic._internal._docs_extraction import (
            extract_docstrings_from_cls,
        )

        docs = extract_docstrings_from_cls(cls, use_inspect=True)
    except (ImportError, OSError, TypeError, SyntaxError):  # no source (a REPL), no reader
        return
    fields: dict[str, Any] = getattr(cls, "__pydantic_fields__", {}) or {}
    for name, doc in docs.items():
        field = fields.get(name)
        alias = None if field is None else field.validation_alias
        key = alias if isinstance(alias, str) else (field.alias if field is not None else None)
        prop: Any = cast("dict[str, Any]", properties).get(key or name)
        if isinstance(prop, dict) and "description" not in prop:
            prop["description"] = doc
