"""toolcall's API-neutral definitions, so code written for toolcall runs unchanged.

toolcall (toolwire's OpenAI-only ancestor) described a tool as a `Standard*Definition`
pydantic model with one method per OpenAI API. toolwire keeps those names and methods,
but renders them through its own schema compiler and adapters: a definition taken from
a tool class gives exactly what `model_tool_definition(api)` gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import pydantic
from typing_extensions import TypeAliasType

from ._api import adapter
from ._definition import CustomToolFormat, CustomToolSpec, FunctionToolSpec

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionCustomToolParam, ChatCompletionFunctionToolParam
    from openai.types.responses import (
        CustomToolParam,
        FunctionToolParam,
        ResponseFormatTextJSONSchemaConfigParam,
    )
    from openai.types.shared_params import ResponseFormatJSONSchema

    from ._api import Api

__all__ = [
    "StandardCustomToolDefinition",
    "StandardCustomToolFormat",
    "StandardCustomToolGrammarFormat",
    "StandardCustomToolTextFormat",
    "StandardFunctionToolDefinition",
]


class StandardCustomToolTextFormat(pydantic.BaseModel):
    """A custom tool taking unconstrained text; same as `{"type": "text"}`."""

    type: Literal["text"] = "text"


class StandardCustomToolGrammarFormat(pydantic.BaseModel):
    """A custom tool whose input must match a Lark grammar or a regex; same as
    `{"type": "grammar", "syntax": ..., "definition": ...}`."""

    type: Literal["grammar"] = "grammar"
    syntax: Literal["lark", "regex"]
    definition: str


StandardCustomToolFormat = TypeAliasType(
    "StandardCustomToolFormat",
    Annotated[
        StandardCustomToolTextFormat | StandardCustomToolGrammarFormat,
        pydantic.Discriminator("type"),
    ],
)
"""Either format model; `BaseCustomToolModel.model_tool_format` takes one as well as a dict."""


def plain_format(
    fmt: StandardCustomToolTextFormat | StandardCustomToolGrammarFormat,
) -> CustomToolFormat:
    """The dict form toolwire works with, of a toolcall format model."""
    if isinstance(fmt, StandardCustomToolGrammarFormat):
        return {"type": "grammar", "syntax": fmt.syntax, "definition": fmt.definition}
    return {"type": "text"}


class StandardFunctionToolDefinition(pydantic.BaseModel):
    """A function tool described once for both OpenAI APIs (toolcall's shape).

    `json_schema` is the tool's schema before it is compiled for an API (pydantic's,
    or the custom one, without root title and description); each method compiles it
    for its API as a tool class would, so strict definitions get the API's rules.
    """

    type: Literal["function"] = "function"
    name: str
    description: str
    strict: bool
    json_schema: dict[str, Any]
    _custom_schema: bool = pydantic.PrivateAttr(default=False)

    def tool_def_for_chat_completions_api(self) -> ChatCompletionFunctionToolParam:
        """The entry for the Chat Completions `tools` parameter."""
        return adapter("chat.completions").function_definition(self._spec("chat.completions"))

    def tool_def_for_responses_api(self) -> FunctionToolParam:
        """The entry for the Responses `tools` parameter."""
        return adapter("responses").function_definition(self._spec("responses"))

    def format_for_chat_completions_api(self) -> ResponseFormatJSONSchema:
        """The Chat Completions `response_format` (structured output)."""
        return adapter("chat.completions").output_format(self._spec("chat.completions"))

    def format_for_responses_api(self) -> ResponseFormatTextJSONSchemaConfigParam:
        """The Responses `text.format` (structured output)."""
        return adapter("responses").output_format(self._spec("responses"))

    def _spec(self, api: Api) -> FunctionToolSpec:
        from ._schema import compile_schema

        compiled = compile_schema(
            self.json_schema, api, strict=self.strict, custom=self._custom_schema
        )
        return FunctionToolSpec(
            name=self.name,
            description=self.description,
            parameters=compiled.schema,
            strict=self.strict,
            report=compiled.report,
        )


class StandardCustomToolDefinition(pydantic.BaseModel):
    """An OpenAI custom (free-text) tool described once for both OpenAI APIs."""

    type: Literal["custom"] = "custom"
    name: str
    description: str
    format: StandardCustomToolFormat | None

    def tool_def_for_chat_completions_api(self) -> ChatCompletionCustomToolParam:
        """The entry for the Chat Completions `tools` parameter."""
        return adapter("chat.completions").custom_definition(self._spec())

    def tool_def_for_responses_api(self) -> CustomToolParam:
        """The entry for the Responses `tools` parameter."""
        return adapter("responses").custom_definition(self._spec())

    def _spec(self) -> CustomToolSpec:
        fmt = None if self.format is None else plain_format(self.format)
        return CustomToolSpec(name=self.name, description=self.description, format=fmt)
