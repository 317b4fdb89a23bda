"""Tool classes: configuration, names, schemas, definitions, and developer mistakes."""

from __future__ import annotations

from typing import Any, Literal

import pydantic
import pytest
from inline_snapshot import snapshot

from toolwire import aio
from toolwire.core import Api, BaseCustomToolModel, BaseFunctionToolModel, ToolGroup
from toolwire.exceptions import (
    CustomToolError,
    DuplicateToolNameError,
    ToolDefinitionError,
    ToolwireWarning,
    UnknownApiError,
    UnsupportedToolError,
)


class GetWeather(BaseFunctionToolModel[None, None]):
    """Get the weather somewhere."""

    model_tool_custom_name = "get_weather"

    city: str
    """City to get the weather for."""
    state: Literal["California", "New York", "Texas"]

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


class Sql(BaseCustomToolModel[None, None]):
    """Run a read-only SQL query."""

    model_tool_format = {"type": "grammar", "syntax": "lark", "definition": "start: /SELECT .+/"}


class TestNames:
    def test_class_name_is_the_default(self) -> None:
        """Without configuration the class name is the tool name."""

        class lookup_user(BaseFunctionToolModel[None, None]):
            user_id: int

        assert lookup_user.model_tool_name() == "lookup_user"

    def test_custom_name_beats_generator(self) -> None:
        """model_tool_custom_name wins over model_tool_name_generator."""

        class LookupUser(BaseFunctionToolModel[None, None]):
            model_tool_name_generator = str.lower
            user_id: int

        class Renamed(LookupUser):
            model_tool_custom_name = "find_user"

        assert LookupUser.model_tool_name() == "lookupuser"
        assert Renamed.model_tool_name() == "find_user"

    def test_invalid_openai_name_fails_at_definition(self) -> None:
        """A name OpenAI would reject raises when the definition is built, saying how to fix it."""

        class BadName(BaseFunctionToolModel[None, None]):
            """A tool (described, so no warning)."""

            model_tool_custom_name = "get weather!"

        with pytest.raises(ToolDefinitionError) as error:
            BadName.model_tool_definition("chat.completions")
        assert str(error.value) == snapshot(
            "The tool name 'get weather!' is not valid for 'chat.completions': names must be 1-64 characters of a-z, A-Z, 0-9, '_' or '-'. Set `model_tool_custom_name` (or `model_tool_name_generator`) to a valid name."
        )


class TestDefinitions:
    def test_chat_function_definition(self) -> None:
        """The chat definition nests the function and keeps pydantic's schema (non-strict)."""
        assert GetWeather.model_tool_definition("chat.completions") == snapshot(
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Get the weather somewhere.",
                    "parameters": {
                        "properties": {
                            "city": {
                                "description": "City to get the weather for.",
                                "type": "string",
                            },
                            "state": {
                                "enum": ["California", "New York", "Texas"],
                                "type": "string",
                            },
                        },
                        "required": ["city", "state"],
                        "type": "object",
                    },
                    "strict": False,
                },
            }
        )

    def test_definitions_are_fresh_objects(self) -> None:
        """Mutating a returned definition does not change the next one."""
        first = GetWeather.model_tool_definition("chat.completions")
        first["function"]["parameters"]["properties"]["city"]["cache_control"] = "x"  # pyright: ignore[reportIndexIssue, reportTypedDictNotRequiredAccess]
        second = GetWeather.model_tool_definition("chat.completions")
        assert "cache_control" not in second["function"]["parameters"]["properties"]["city"]  # pyright: ignore[reportTypedDictNotRequiredAccess, reportIndexIssue]

    def test_chat_custom_definition_nests_the_grammar(self) -> None:
        """Chat nests the grammar under format.grammar."""
        assert Sql.model_tool_definition("chat.completions") == snapshot(
            {
                "type": "custom",
                "custom": {
                    "name": "Sql",
                    "description": "Run a read-only SQL query.",
                    "format": {
                        "type": "grammar",
                        "grammar": {"syntax": "lark", "definition": "start: /SELECT .+/"},
                    },
                },
            }
        )

    def test_chat_output_format(self) -> None:
        """model_tool_format gives the response_format value."""
        fmt = GetWeather.model_tool_format("chat.completions")
        assert fmt["type"] == "json_schema"
        assert fmt["json_schema"]["name"] == "get_weather"
        assert fmt["json_schema"].get("strict") is False

    def test_unknown_api_is_refused(self) -> None:
        """An api= value that is not one of the four raises, listing the valid ones."""
        with pytest.raises(UnknownApiError) as error:
            GetWeather.model_tool_definition("openai")  # pyright: ignore[reportArgumentType, reportCallIssue]
        assert str(error.value) == snapshot(
            "Unknown api 'openai'. Use one of: 'chat.completions', 'responses', 'anthropic', 'gemini' (or a ChatServer)."
        )

    def test_custom_json_schema_is_sent_as_given(self) -> None:
        """A custom JSON schema is not altered (and not mutated) for a non-strict tool."""
        schema: dict[str, Any] = {
            "type": "object",
            "title": "Kept",
            "properties": {"ticker": {"type": "string"}},
            "required": ["ticker"],
        }

        class Stock(BaseFunctionToolModel[None, None]):
            """A tool (described, so no warning)."""

            model_tool_custom_json_schema = schema
            ticker: str

        definition = Stock.model_tool_definition("chat.completions")
        assert definition["function"].get("parameters") == schema
        assert schema["title"] == "Kept"

    def test_pretty_definition(self) -> None:
        """The debugging dump shows name, description, strictness and schema."""
        assert GetWeather.model_tool_pretty_definition().startswith(
            'GetWeather({\n    "name": "get_weather",\n    "description": "Get the weather somewhere.",\n    "strict": false,'
        )


class TestDeveloperMistakes:
    def test_an_async_handler_on_a_core_tool_is_refused_at_definition(self) -> None:
        """It would return a coroutine nobody awaits: say to use toolwire.aio instead."""
        with pytest.raises(ToolDefinitionError) as error:

            class Fetch(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
                """Fetch a page."""

                async def model_tool_handler(self, context: None) -> tuple[str, None]:  # pyright: ignore[reportIncompatibleMethodOverride]
                    return "", None

        assert str(error.value) == snapshot(
            "Fetch.model_tool_handler is `async def`, but Fetch is a toolwire.core tool, whose handlers are plain functions (an async one would return a coroutine nobody awaits). Import BaseFunctionToolModel / BaseCustomToolModel and ToolGroup from toolwire.aio instead."
        )

    def test_a_tool_without_handler_in_a_group_is_named_when_the_group_is_built(self) -> None:
        """Not when a call finally reaches it; a class only used as a format is fine alone."""

        class Summary(BaseFunctionToolModel[None, None]):
            """A summary (a structured-output format, no handler)."""

            text: str

        Summary.model_tool_format("chat.completions")  # no warning: formats need no handler
        with pytest.warns(ToolwireWarning) as warned:
            ToolGroup.from_list([GetWeather, Summary])
        assert [str(w.message) for w in warned] == [
            "Summary defines no model_tool_handler: the group lists it, but a call to it would "
            "fail with NotImplementedError. Define one, set `model_tool_external = True` if its "
            "calls are answered elsewhere, or keep the class out of the group if it is only a "
            "structured-output format (model_tool_format)."
        ]

    def test_annotated_config_is_refused(self) -> None:
        """An annotated model_tool_* setting would be a field; the class is refused at once."""
        with (
            pytest.raises(ToolDefinitionError) as error,
            pytest.warns(UserWarning, match="shadows an attribute"),  # pydantic's own warning
        ):

            class Oops(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
                model_tool_strict: bool = True  # pyright: ignore[reportIncompatibleVariableOverride]

        assert str(error.value) == snapshot(
            "Oops.model_tool_strict is annotated, so pydantic made it a field (an argument the model must send) instead of class configuration. Remove the annotation: write `model_tool_strict = ...`, not `model_tool_strict: <type> = ...`."
        )

    def test_custom_tool_with_extra_fields_is_refused(self) -> None:
        """A custom tool may only have `input`: a field the model can never send is refused
        at once, and the error is a ValueError too (as in toolcall)."""
        with pytest.raises(CustomToolError, match="may only have the field 'input'") as error:

            class Two(BaseCustomToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
                extra: int

        assert isinstance(error.value, ToolDefinitionError | ValueError)

    def test_bad_custom_format_warns_at_once_and_raises_where_it_is_used(self) -> None:
        """A format that is neither text nor grammar warns at class creation, and raises
        `CustomToolError` (a ValueError, as in toolcall) at definition and group build."""
        with pytest.warns(ToolwireWarning, match="BadFormat.model_tool_format is"):

            class BadFormat(BaseCustomToolModel[None, None]):
                """Bad."""

                model_tool_format = {"type": "xml"}  # pyright: ignore[reportAssignmentType]

        message = (
            "BadFormat.model_tool_format is {'type': 'xml'}; use None, {'type': 'text'}, or "
            "{'type': 'grammar', 'syntax': 'lark' or 'regex', 'definition': '...'}."
        )
        with pytest.raises(CustomToolError) as at_definition:
            BadFormat.model_tool_definition("responses")
        assert str(at_definition.value) == message
        assert isinstance(at_definition.value, ValueError)
        with pytest.raises(CustomToolError, match="BadFormat.model_tool_format"):
            ToolGroup.from_list([BadFormat])

    def test_duplicate_names_are_refused(self) -> None:
        """Two tools with one name raise, naming both classes."""

        class Other(BaseFunctionToolModel[None, None]):
            model_tool_custom_name = "get_weather"

        with pytest.raises(DuplicateToolNameError) as error:
            ToolGroup.from_list([GetWeather, Other])
        assert str(error.value) == snapshot(
            "Two tools are named 'get_weather': GetWeather and Other. Give one of them another name with `model_tool_custom_name`."
        )

    def test_aio_tool_in_core_group_is_refused(self) -> None:
        """A core group takes core tools only (and the type checker says so too)."""

        class Async(aio.BaseFunctionToolModel[None, None]):
            async def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "", None

        with pytest.raises(ToolDefinitionError) as error:
            ToolGroup.from_list([Async])  # pyright: ignore[reportArgumentType]
        assert str(error.value) == snapshot(
            "Async is a toolwire.aio tool but this is a toolwire.core ToolGroup. Use the ToolGroup of toolwire.aio, or define the tool from toolwire.core (def model_tool_handler)."
        )
        with pytest.raises(ToolDefinitionError) as error:
            aio.ToolGroup.from_list([GetWeather])  # pyright: ignore[reportArgumentType]
        assert str(error.value) == snapshot(
            "GetWeather is a toolwire.core tool but this is a toolwire.aio ToolGroup. Use the ToolGroup of toolwire.core, or define the tool from toolwire.aio (async def model_tool_handler)."
        )

    def test_duplicate_names_tell_same_named_classes_apart(self) -> None:
        """Two classes of one name (from two modules, or two made by one factory) are
        told apart by module and qualified name."""

        def make() -> type[BaseFunctionToolModel[None, None]]:
            class GetWeather(BaseFunctionToolModel[None, None]):
                model_tool_custom_name = "get_weather"

                def model_tool_handler(self, context: None) -> tuple[str, None]:
                    return "", None

            return GetWeather

        with pytest.raises(DuplicateToolNameError) as error:
            ToolGroup.from_list([GetWeather, make()])
        assert str(error.value) == snapshot(
            "Two tools are named 'get_weather': tests.test_tools.GetWeather and tests.test_tools.TestDeveloperMistakes.test_duplicate_names_tell_same_named_classes_apart.<locals>.make.<locals>.GetWeather. Give one of them another name with `model_tool_custom_name`."
        )
        with pytest.raises(DuplicateToolNameError) as error:
            ToolGroup.from_list([make(), make()])
        assert str(error.value) == snapshot(
            "Two tools are named 'get_weather': tests.test_tools.TestDeveloperMistakes.test_duplicate_names_tell_same_named_classes_apart.<locals>.make.<locals>.GetWeather and tests.test_tools.TestDeveloperMistakes.test_duplicate_names_tell_same_named_classes_apart.<locals>.make.<locals>.GetWeather (a second class made at the same place). Give one of them another name with `model_tool_custom_name`."
        )

    def test_group_rejects_non_tools(self) -> None:
        """Anything but a tool class is refused."""
        with pytest.raises(ToolDefinitionError, match="is not a tool class"):
            ToolGroup.from_list([int])  # pyright: ignore[reportArgumentType]

    def test_add_tool_checks_names(self) -> None:
        """add_tool refuses a taken name too."""
        group = ToolGroup.from_list([GetWeather])

        class Again(BaseFunctionToolModel[None, None]):
            model_tool_custom_name = "get_weather"

        with pytest.raises(DuplicateToolNameError):
            group.add_tool(Again)


def test_every_class_setting_stays_configuration() -> None:
    """Each `model_tool_*` setting written without an annotation is class configuration,
    never a field, also after a rebuild (the bases keep them out of their runtime
    annotations to make defining a tool cheaper)."""

    class Configured(aio.BaseFunctionToolModel[None, None]):
        """A tool setting every option."""

        model_tool_strict = True
        model_tool_custom_name = "configured"
        model_tool_name_generator = str.upper
        model_tool_custom_description = "Configured."
        model_tool_custom_json_schema = {"type": "object", "properties": {}}
        model_tool_timeout = 2.5
        model_tool_sequential = True
        model_tool_requires_approval = True
        city: str

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return self.city, None

    class Grammar(BaseCustomToolModel[None, None]):
        """A custom tool with a grammar."""

        model_tool_format = {"type": "text"}

    for cls in (Configured, Grammar):
        cls.model_rebuild(force=True)
    assert list(Configured.model_fields) == ["city"]
    assert list(Grammar.model_fields) == ["input"]
    assert Configured.__class_vars__ >= {
        "model_tool_strict",
        "model_tool_custom_name",
        "model_tool_name_generator",
        "model_tool_custom_description",
        "model_tool_custom_json_schema",
        "model_tool_timeout",
        "model_tool_sequential",
        "model_tool_requires_approval",
        "model_tool_type",
    }
    assert Configured.model_validate({"city": "Oslo"}).model_tool_needs_approval()
    assert (Configured.model_tool_name(), Configured.model_tool_timeout) == ("configured", 2.5)
    assert Configured.model_tool_definition("responses") == snapshot(
        {
            "type": "function",
            "name": "configured",
            "description": "Configured.",
            "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
            "strict": True,
        }
    )
    assert Grammar.model_tool_definition("responses") == snapshot(
        {
            "type": "custom",
            "name": "Grammar",
            "description": "A custom tool with a grammar.",
            "format": {"type": "text"},
        }
    )


def test_custom_tools_are_openai_only() -> None:
    """Anthropic and Gemini have no custom tools: definitions fail saying so."""
    for api in ("anthropic", "gemini"):
        with pytest.raises(UnsupportedToolError):
            Sql.model_tool_definition(api)


def test_field_docstrings_become_descriptions() -> None:
    """Attribute docstrings are the parameter descriptions the model sees."""
    schema = GetWeather.model_tool_json_schema()
    assert schema["properties"]["city"]["description"] == "City to get the weather for."


def test_seed_style_extra_forbid_still_works() -> None:
    """The seed's `extra="forbid"` on strict models keeps working."""

    class Strict(BaseFunctionToolModel[None, None]):
        """A tool (described, so no warning)."""

        model_tool_strict = True
        model_config = pydantic.ConfigDict(extra="forbid")
        name: str

    assert Strict.model_tool_definition("chat.completions")["function"].get("strict") is True


def _parameters(definition: Any, api: str) -> dict[str, Any]:
    if api == "chat.completions":
        return definition["function"]["parameters"]
    if api == "responses":
        return definition["parameters"]
    if api == "anthropic":
        return definition["input_schema"]
    return definition.function_declarations[0].parameters_json_schema


class CustomSchemaTool(BaseFunctionToolModel[None, None]):
    """A tool sent with a custom schema holding an unusual value."""

    model_tool_custom_json_schema = {
        "type": "object",
        # deepcopy keeps a function as it is; pickle refuses a lambda.
        "properties": {"city": {"type": "string", "x-note": lambda: None}},
    }
    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.city, None


@pytest.mark.parametrize(
    ("tool", "api"),
    [(GetWeather, api) for api in ("chat.completions", "responses", "anthropic", "gemini")]
    # Gemini's definitions go through JSON, which a function cannot.
    + [(CustomSchemaTool, api) for api in ("chat.completions", "responses", "anthropic")],
)
def test_definitions_are_deep_copies_on_every_call(
    api: Api, tool: type[BaseFunctionToolModel[None, None]]
) -> None:
    """Definitions are cached but handed out fresh: mutating one, however deep, changes
    neither the next call's nor the tool's (also for a schema pickle cannot copy)."""
    group = ToolGroup.from_list([tool])
    first = _parameters(group.tool_definitions(api)[0], api)
    expected = repr(first)
    first["properties"]["city"]["type"] = "integer"
    first["properties"]["extra"] = {"type": "string"}
    second = _parameters(group.tool_definitions(api)[0], api)
    assert repr(second) == expected
    assert second["properties"]["city"] is not first["properties"]["city"]
