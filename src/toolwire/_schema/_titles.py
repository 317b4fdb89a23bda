"""Tool schemas without the titles pydantic makes up from names.

pydantic gives every property a `title` made from its name (`postal_code` ->
"Postal Code"), and every nested model and enum the class name as its title. Sent to a
model, they repeat what the property names and `$defs` keys already say, on every
request: about a tenth of a definition's tokens. `UntitledJsonSchema` leaves them out
and keeps every title someone chose: `Field(title=...)`, a `field_title_generator`, a
model's `ConfigDict(title=...)` or `model_title_generator`, and titles set through
`json_schema_extra`.
"""

from __future__ import annotations

from typing import Any

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode
from pydantic_core import CoreSchema, core_schema

__all__ = ["UntitledJsonSchema"]


class UntitledJsonSchema(GenerateJsonSchema):
    """pydantic's JSON schema generator, minus the titles it derives from names."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._enum_names: set[str] = set()
        """The names of the enums met: their definitions' titles are those names."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        # A title made from the field's name (explicit and generated titles of fields are
        # set before this is asked, and stay).
        return False

    def model_schema(self, schema: core_schema.ModelSchema) -> dict[str, Any]:
        json_schema = super().model_schema(schema)
        _drop_class_title(json_schema, schema["cls"], schema["cls"].model_config)
        return json_schema

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> dict[str, Any]:
        json_schema = super().dataclass_schema(schema)
        cls = schema["cls"]
        _drop_class_title(json_schema, cls, getattr(cls, "__pydantic_config__", {}))
        return json_schema

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> dict[str, Any]:
        json_schema = super().typed_dict_schema(schema)
        cls = schema.get("cls")
        if cls is not None:
            _drop_class_title(json_schema, cls, getattr(cls, "__pydantic_config__", {}))
        return json_schema

    def enum_schema(self, schema: core_schema.EnumSchema) -> dict[str, Any]:
        self._enum_names.add(schema["cls"].__name__)
        return super().enum_schema(schema)

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> dict[str, Any]:
        json_schema = super().generate(schema, mode)
        # An enum's title is written after `enum_schema` returns (pydantic adds it again
        # with its description), so it is taken out of the finished definitions.
        definitions: dict[str, dict[str, Any]] = json_schema.get("$defs", {})
        for definition in definitions.values():
            if "enum" in definition and definition.get("title") in self._enum_names:
                del definition["title"]
        return json_schema


def _drop_class_title(json_schema: dict[str, Any], cls: type, config: Any) -> None:
    """Remove the title pydantic made from the class name, unless the class chose it."""
    if config.get("title") is not None or config.get("model_title_generator"):
        return
    extra = config.get("json_schema_extra")
    if isinstance(extra, dict) and "title" in extra:
        return
    if json_schema.get("title") == cls.__name__:
        del json_schema["title"]
