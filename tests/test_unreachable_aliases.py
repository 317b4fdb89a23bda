"""A field whose validation alias is a path the schema does not name can never be filled by
a call: building its definition says so, with what to do, before any model is asked."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import AliasChoices, AliasPath, BaseModel, ConfigDict, Field

from toolwire.core import Api, BaseFunctionToolModel, ToolGroup
from toolwire.exceptions import ToolDefinitionError


class by_path(BaseFunctionToolModel[None, None]):
    """Greet."""

    first: str = Field(validation_alias=AliasPath("names", 0))

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.first, None


class Person(BaseModel):
    first: str = Field(validation_alias=AliasChoices(AliasPath("names", 0), AliasPath("n", 1)))


class nested(BaseFunctionToolModel[None, None]):
    """Greet."""

    people: list[Person] | None = None

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "hi", None


class by_name_too(BaseFunctionToolModel[None, None]):
    """Greet."""

    first: str = Field(validation_alias=AliasChoices("first", AliasPath("names", 0)))

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.first, None


class validated_by_name(BaseFunctionToolModel[None, None]):
    """Greet."""

    model_config = ConfigDict(validate_by_name=True)
    first: str = Field(validation_alias=AliasPath("names", 0))

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.first, None


@pytest.mark.parametrize("api", ["chat.completions", "responses", "anthropic", "gemini"])
def test_a_path_alias_the_schema_cannot_name_is_refused(api: Api) -> None:
    with pytest.raises(ToolDefinitionError) as raised:
        ToolGroup.from_list([by_path]).tool_definitions(api)
    assert str(raised.value) == (
        "by_path.first reads its value from AliasPath(path=['names', 0]) (validation_alias), "
        "but the schema the model is sent asks for 'first', so every call would fail. Let it "
        "be given by name too: validation_alias=AliasChoices('first', ...), or "
        "model_config = ConfigDict(validate_by_name=True)."
    )


def test_a_nested_model_s_path_aliases_are_refused_too() -> None:
    with pytest.raises(
        ToolDefinitionError, match=r"^Person\.first reads its value from AliasChoices"
    ):
        nested.model_tool_definition("chat.completions")


@pytest.mark.parametrize("tool", [by_name_too, validated_by_name])
def test_a_field_the_schema_names_runs(tool: type[by_name_too] | type[validated_by_name]) -> None:
    group = ToolGroup[None, None].from_list([tool])
    definition: Any = group.tool_definitions("chat.completions")[0]
    assert list(definition["function"]["parameters"]["properties"]) == ["first"]
    call = {"id": "c1", "type": "function", "function": {"name": tool.__name__, "arguments": '{"first": "Ada"}'}}  # fmt: skip
    [result] = group.run_tool_calls([call], None)
    assert (result.fail_reason, result.result_content) == (None, "Ada")
