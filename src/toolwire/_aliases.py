"""Fields no call can fill: a validation alias the schema the model is sent does not name.

pydantic's JSON schema names a field by its validation alias when that is a string (or
an `AliasChoices` holding one); for an `AliasPath`, or choices made of paths only, it
names the field itself, which validation never reads. The model then sends what the
schema asks for and every call fails with "Field required". Found when the definitions
are first built, so the developer hears of it before any model does.
"""

from __future__ import annotations

import typing
from typing import Any

import pydantic
from pydantic import AliasChoices, AliasPath

from .exceptions import ToolDefinitionError

__all__ = ["refuse_unreachable_aliases"]


def refuse_unreachable_aliases(tool: type[pydantic.BaseModel]) -> None:
    """Raise `ToolDefinitionError` for the first field of `tool`, or of a model nested in
    its fields, whose value the arguments the schema asks for can never carry."""
    seen: set[type] = set()
    pending: list[type[pydantic.BaseModel]] = [tool]
    while pending:
        model = pending.pop()
        if model in seen:
            continue
        seen.add(model)
        by_name = bool(
            model.model_config.get("validate_by_name") or model.model_config.get("populate_by_name")
        )
        for name, info in model.model_fields.items():
            alias = info.validation_alias
            if not by_name and _names_only_paths(alias):
                raise ToolDefinitionError(
                    f"{model.__name__}.{name} reads its value from {alias!r} "
                    f"(validation_alias), but the schema the model is sent asks for "
                    f"{name!r}, so every call would fail. Let it be given by name too: "
                    f"validation_alias=AliasChoices({name!r}, ...), or "
                    f"model_config = ConfigDict(validate_by_name=True)."
                )
            pending.extend(_models_in(info.annotation))


def _names_only_paths(alias: object) -> bool:
    if isinstance(alias, AliasPath):
        return True
    if isinstance(alias, AliasChoices):
        return not any(isinstance(choice, str) for choice in alias.choices)
    return False


def _models_in(annotation: Any) -> list[type[pydantic.BaseModel]]:
    """The pydantic models an annotation holds (`list[User]`, `User | None`...)."""
    found: list[type[pydantic.BaseModel]] = []
    stack = [annotation]
    while stack:
        current = stack.pop()
        if isinstance(current, type) and issubclass(current, pydantic.BaseModel):
            found.append(current)
        else:
            stack.extend(typing.get_args(current))
    return found
