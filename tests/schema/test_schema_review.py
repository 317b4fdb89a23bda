"""Tool models written the way users write them, checked through the public API.

For each API and strictness: the definition `model_tool_definition(api)` returns obeys the
API's schema rules (tests/schema/_rules.py, written from PROVIDERS.md), every ``$ref`` in it
resolves, and what a model sends under it (drawn from the sent schema) comes back through
`run_tool_calls`, on the SDK's own call objects, as the user's values; where the report
admits a loss, a value the class rejects is an ``invalid_arguments`` failure, never a crash.
Then one test per defect this review fixed.

This module postpones its annotations on purpose: users' modules do, and field docstrings
are read from such modules too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
import pathlib
import uuid
from collections.abc import Mapping
from typing import Annotated, Any, Generic, Literal, NamedTuple, NotRequired, TypeVar, cast
from typing import ClassVar as Setting

import pytest
from anthropic.types import ToolUseBlock
from google.genai import types as genai
from hypothesis import HealthCheck, given, settings
from inline_snapshot import snapshot
from openai.types.chat import ChatCompletionMessageFunctionToolCall
from openai.types.responses import ResponseFunctionToolCall
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Json,
    PrivateAttr,
    Tag,
    computed_field,
)
from pydantic.alias_generators import to_camel
from typing_extensions import TypedDict

from tests.strength import scaled
from toolwire._api import API_NAMES, Api
from toolwire.core import AnyToolCall, BaseFunctionToolModel, ToolCallResult, ToolGroup

from ._gen import instances, validator
from ._rules import CHECKERS

Schema = dict[str, Any]


class Tool(BaseFunctionToolModel[None, None]):
    """A base for the review's tools: the handler answers with the validated arguments."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.model_dump_json(), None


class StrictTool(Tool):
    model_tool_strict = True


# ---------------------------------------------------------------------- the models


class Color(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Cat(BaseModel):
    kind: Literal["cat"] = "cat"
    meow: bool = True


class Dog(BaseModel):
    kind: Literal["dog"] = "dog"
    bark: int = 1


class Node(BaseModel):
    value: int = 0
    children: list[Node] = []


def by_kind(value: Any) -> str:
    """A callable discriminator, reading the tag of raw data and of instances alike."""
    tag: object = getattr(value, "kind", None)
    if isinstance(value, Mapping):
        tag = cast("Mapping[str, object]", value).get("kind")
    return "dog" if tag == "dog" else "cat"


class Aliases(StrictTool):
    """Aliases of every kind."""

    model_config = ConfigDict(populate_by_name=True)
    user_id: int = Field(alias="userId")
    full_name: str = Field(validation_alias="fullName")
    email: str = Field(serialization_alias="mail")
    nick: str = Field("anon", validation_alias=AliasChoices("nick", "nickname"))


class Camel(StrictTool):
    """An alias generator."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)
    user_name: str
    max_count: int = 3


class Optionals(StrictTool):
    """Optional, nullable and defaulted fields."""

    maybe: int | None = None
    nullable: int | None
    none_default: int = None  # pyright: ignore[reportAssignmentType]
    factory: list[int] = Field(default_factory=list[int])
    value_default: str | None = "hi"


class Enums(StrictTool):
    """Enums and literals."""

    color: Color
    level: Level = Level.HIGH
    mixed: Literal[1, "a", None] = None
    modes: list[Literal["fast", "slow"]] = []


class Unions(StrictTool):
    """Discriminated (three ways), plain and nullable unions."""

    pet: Cat | Dog = Field(discriminator="kind")
    pet2: Annotated[Cat | Dog, Discriminator("kind")] = Cat()
    pet3: Annotated[
        Annotated[Cat, Tag("cat")] | Annotated[Dog, Tag("dog")], Discriminator(by_kind)
    ] = Dog()
    plain: Cat | Dog | None = None
    pets: list[Annotated[Cat | Dog, Field(discriminator="kind")]] = []


class Recursive(StrictTool):
    """A recursive model, required and optional."""

    root: Node
    maybe: Node | None = None


class Containers(StrictTool):
    """Dicts, tuples, sets and lists of models, nested and optional."""

    scores: dict[str, int]
    pair: tuple[int, str]
    tags: set[str] = set()
    ids: frozenset[int] = frozenset()
    nodes: list[Node] = []
    litters: dict[str, list[Cat]] = {}
    by_color: dict[Color, int] = {}
    maybe_scores: dict[str, int] | None = None
    maybe_pair: tuple[int, int] | None = None


class ContainerUnions(StrictTool):
    """Unions whose branches are containers: a list, a dict, a tuple, a model."""

    cats: list[Cat] | dict[str, Cat] = []
    mix: Cat | dict[str, int] = Field(default_factory=dict[str, int])
    row: tuple[Cat, int] | list[Cat] = []


class Scalars(StrictTool):
    """Dates, times, UUIDs and paths."""

    when: dt.datetime
    day: dt.date = dt.date(2024, 1, 1)
    span: dt.timedelta = dt.timedelta(hours=1)
    ident: uuid.UUID
    path: pathlib.Path = pathlib.Path("notes.txt")


class Constrained(StrictTool):
    """Constrained values."""

    count: Annotated[int, Field(ge=1, le=10)] = 5
    code: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
    picks: Annotated[list[int], Field(min_length=2)]


class Forbid(StrictTool):
    """extra='forbid'."""

    model_config = ConfigDict(extra="forbid")
    a: int = 1


class Allow(StrictTool):
    """extra='allow'."""

    model_config = ConfigDict(extra="allow")
    a: int = 1


class JsonText(StrictTool):
    """Json fields: the model sends JSON text."""

    numbers: Json[list[int]]
    cat: Json[Cat] = '{"kind": "cat"}'  # pyright: ignore[reportAssignmentType]


class Computed(StrictTool):
    """Computed fields and private attributes are not arguments."""

    a: int
    _secret: int = PrivateAttr(default=3)

    @computed_field
    @property
    def double(self) -> int:
        return self.a * 2


Described = Annotated[int, Field(description="Described by the alias.")]


class Documented(StrictTool):
    """Descriptions from docstrings, Field, an alias, and json_schema_extra."""

    a: int = Field(description="The a.")
    b: int = 2
    """The b."""
    c: Described = 3
    """Documented under the field too."""
    d: int = Field(4, json_schema_extra={"examples": [1, 2], "x-internal": True})
    limit: Setting[int] = 7
    """A class setting, imported under another name: not a field."""


ItemT = TypeVar("ItemT")


class Page(BaseModel, Generic[ItemT]):
    items: list[ItemT]
    total: int = 0


class Generics(StrictTool):
    """Generic models."""

    cats: Page[Cat]
    numbers: Page[int] | None = None


class Parent(StrictTool):
    """A tool other tools inherit from."""

    a: int = 1


class Child(Parent):
    """A tool inheriting another tool's fields and strictness."""

    b: str


class Point(NamedTuple):
    x: int
    y: int = 0


class Row(TypedDict):
    a: int
    b: NotRequired[str]


@dataclasses.dataclass
class Box:
    n: int
    tags: list[str] = dataclasses.field(default_factory=list[str])


class Search(StrictTool):
    """A strict tool used as a field of another."""

    query: str
    limit: int = 10
    filters: dict[str, str] = {}


class Shapes(StrictTool):
    """NamedTuple, TypedDict, dataclass and a nested strict tool."""

    point: Point
    row: Row
    box: Box
    searches: list[Search] = []


MODELS: list[type[Tool]] = [
    Aliases,
    Camel,
    Optionals,
    Enums,
    Unions,
    Recursive,
    Containers,
    ContainerUnions,
    Scalars,
    Constrained,
    Forbid,
    Allow,
    JsonText,
    Computed,
    Documented,
    Generics,
    Child,
    Shapes,
]


def loose(model: type[Tool]) -> type[Tool]:
    """The same tool with `model_tool_strict = False`."""
    namespace = {"model_tool_strict": False, "__doc__": model.__doc__, "__module__": __name__}
    return type(f"Loose{model.__name__}", (model,), namespace)


TOOLS = [*MODELS, *(loose(model) for model in MODELS)]
CASES = [
    pytest.param(tool, api, id=f"{tool.__name__}-{api}") for tool in TOOLS for api in API_NAMES
]


# ---------------------------------------------------------------------- the public API


def parameters(tool: type[Tool], api: Api) -> Schema:
    """The schema `model_tool_definition(api)` sends."""
    match api:
        case "chat.completions":
            schema: Any = tool.model_tool_definition(api)["function"].get("parameters")
        case "responses":
            schema = tool.model_tool_definition(api)["parameters"]
        case "anthropic":
            schema = tool.model_tool_definition(api)["input_schema"]
        case "gemini":
            declarations = tool.model_tool_definition(api).function_declarations or []
            schema = declarations[0].parameters_json_schema
    assert isinstance(schema, dict)
    return dict(schema)  # pyright: ignore[reportUnknownArgumentType]


def sdk_call(api: Api, name: str, arguments: Mapping[str, Any]) -> AnyToolCall:
    """One call as the API's SDK gives it: JSON text on OpenAI, a dict otherwise."""
    match api:
        case "chat.completions":
            function = {"name": name, "arguments": json.dumps(arguments)}
            return ChatCompletionMessageFunctionToolCall.model_validate(
                {"id": "call_1", "type": "function", "function": function}
            )
        case "responses":
            return ResponseFunctionToolCall.model_validate(
                {"type": "function_call", "call_id": "call_1", "name": name}
                | {"arguments": json.dumps(arguments)}
            )
        case "anthropic":
            return ToolUseBlock.model_validate(
                {"type": "tool_use", "id": "toolu_1", "name": name, "input": dict(arguments)}
            )
        case "gemini":
            return genai.FunctionCall(name=name, args=dict(arguments))


def dispatch(tool: type[Tool], api: Api, arguments: Mapping[str, Any]) -> ToolCallResult[None]:
    """The one result `run_tool_calls` gives for one call of `tool` with `arguments`."""
    group = ToolGroup.from_list([tool])
    (result,) = group.run_tool_calls([sdk_call(api, tool.model_tool_name(), arguments)], None)
    return result


def dangling_refs(schema: Schema) -> set[str]:
    """The references in `schema` that its $defs do not define."""
    found: set[str] = set()
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            typed: dict[str, Any] = node  # pyright: ignore[reportUnknownVariableType]
            ref = typed.get("$ref")
            if isinstance(ref, str):
                found.add(ref.removeprefix("#/$defs/"))
            stack.extend(typed.values())
        elif isinstance(node, list):
            stack.extend(node)  # pyright: ignore[reportUnknownArgumentType]
    return found - set(schema.get("$defs", {}))


# ---------------------------------------------------------------------- the battery


@pytest.mark.parametrize(("tool", "api"), CASES)
def test_definitions_obey_the_api_rules(tool: type[Tool], api: Api) -> None:
    schema = parameters(tool, api)
    assert CHECKERS[(api, tool.model_tool_strict)](schema) == []
    assert dangling_refs(schema) == set()


SAYS_LESS = frozenset({"LooseJsonText"})
"""Tools whose pydantic schema, sent as is, does not say all the class checks: to a JSON
Schema validator `contentSchema` is an annotation, so the API may send any string."""

_settings = settings(
    max_examples=scaled(25),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.parametrize(("tool", "api"), CASES)
def test_what_the_model_sends_validates_back(tool: type[Tool], api: Api) -> None:
    """A lossless definition: everything valid under it runs. A lossy one: what the class
    rejects is an invalid_arguments failure (a crash would raise out of the batch)."""
    schema = parameters(tool, api)
    lossless = tool.model_tool_schema_report(api).lossless and tool.__name__ not in SAYS_LESS

    @_settings
    @given(instances(schema))
    def round_trip(arguments: dict[str, Any]) -> None:
        result = dispatch(tool, api, arguments)
        if lossless:
            assert result.fail_reason is None, result.result_content
        else:
            assert result.fail_reason in (None, "invalid_arguments")

    round_trip()


def test_which_definitions_lose_something() -> None:
    """The battery's losses, by tool and API (strict tools, then their loose twins)."""
    losses = {
        f"{tool.__name__} {api}": ", ".join(
            f"{change.path or '(root)'} {change.keyword}" for change in report.losses
        )
        for tool in TOOLS
        for api in API_NAMES
        if not (report := tool.model_tool_schema_report(api)).lossless
    }
    assert losses == snapshot(
        {
            "Unions chat.completions": "pet3 oneOf",
            "Unions responses": "pet3 oneOf",
            "Unions anthropic": "pet3 oneOf",
            "Containers gemini": "by_color propertyNames",
            "Scalars chat.completions": "path format",
            "Scalars responses": "path format",
            "Scalars anthropic": "path format",
            "Constrained anthropic": "count maximum, count minimum, code pattern, picks minItems",
            "Constrained gemini": "code pattern",
            "Allow chat.completions": "(root) additionalProperties",
            "Allow responses": "(root) additionalProperties",
            "Allow anthropic": "(root) additionalProperties",
            "Allow gemini": "(root) additionalProperties",
            "JsonText chat.completions": "numbers contentSchema, cat contentSchema",
            "JsonText responses": "numbers contentSchema, cat contentSchema",
            "JsonText anthropic": "numbers contentSchema, cat contentSchema",
            "JsonText gemini": "numbers contentSchema, cat contentSchema",
            "LooseUnions responses": "pet3 oneOf",
            "LooseContainers gemini": "by_color propertyNames",
            "LooseConstrained gemini": "code pattern",
            "LooseJsonText gemini": "numbers contentSchema, cat contentSchema",
        }
    )


# ---------------------------------------------------------------------- the defects


def test_loose_definitions_keep_the_definitions_their_keywords_refer_to() -> None:
    """`dict[Color, int]` refers to Color in `propertyNames`, `Json[Cat]` to Cat in
    `contentSchema`: those definitions were dropped, and the API got a dangling $ref."""
    tool = loose(Containers)
    expected = tool.model_tool_json_schema()
    del expected["description"]
    for api in ("chat.completions", "responses", "anthropic"):
        assert parameters(tool, api) == expected
    cat = loose(JsonText).model_tool_json_schema()["$defs"]["Cat"]
    assert "title" not in cat
    assert parameters(loose(JsonText), "chat.completions")["$defs"] == {"Cat": cat}


def test_gemini_words_spell_out_the_keys_a_dict_takes() -> None:
    """Gemini takes no `propertyNames`: the words named `#/$defs/Color`, a definition the
    schema sent does not even hold."""
    by_color = parameters(Containers, "gemini")["properties"]["by_color"]
    assert by_color == snapshot(
        {
            "anyOf": [
                {"additionalProperties": {"type": "integer"}, "type": "object"},
                {"type": "null"},
            ],
            "description": 'Constraints: keys are one of "red", "blue". Send null to use the default ({}).',
        }
    )


CAT = {"kind": "cat", "meow": True}


@pytest.mark.parametrize("api", ["chat.completions", "responses", "gemini"])
def test_unions_of_containers_take_null_for_a_default(api: Api) -> None:
    """A list of cats is not a dict sent as pairs, a cat is not a dict of ints, two cats are
    not a (cat, int) tuple: each null for a default was left in, and validation failed.
    (Anthropic strict leaves defaulted fields optional: its model sends no such null.)"""
    pairs = api != "gemini"
    arguments = {
        "cats": [{"kind": "cat", "meow": None}],
        "mix": {"kind": "cat", "meow": None},
        "row": [{"kind": "cat", "meow": None}, {"kind": "cat", "meow": False}],
    }
    assert validator(parameters(ContainerUnions, api)).errors(arguments) == []
    result = dispatch(ContainerUnions, api, arguments)
    assert json.loads(result.result_content) == {
        "cats": [CAT],
        "mix": CAT,
        "row": [CAT, {"kind": "cat", "meow": False}],
    }
    as_dict: dict[str, Any] = {"cats": {"tom": {"kind": "cat", "meow": None}}, "mix": {"a": 1}}
    if pairs:
        as_dict = {
            "cats": [{"key": "tom", "value": {"kind": "cat", "meow": None}}],
            "mix": [{"key": "a", "value": 1}],
        }
    arguments = {**as_dict, "row": {"item_0": {"kind": "cat", "meow": None}, "item_1": 2}}
    if not pairs:
        arguments["row"] = [{"kind": "cat", "meow": None}, 2]
    assert validator(parameters(ContainerUnions, api)).errors(arguments) == []
    result = dispatch(ContainerUnions, api, arguments)
    assert json.loads(result.result_content) == {
        "cats": {"tom": CAT},
        "mix": {"a": 1},
        "row": [CAT, 2],
    }


class Plain(BaseModel):
    """The same fields as `Documented`, read by pydantic itself."""

    model_config = ConfigDict(use_attribute_docstrings=True)
    a: int = Field(description="The a.")
    b: int = 2
    """The b."""
    c: Described = 3
    """Documented under the field too."""
    d: int = Field(4, json_schema_extra={"examples": [1, 2], "x-internal": True})
    limit: Setting[int] = 7
    """A class setting, imported under another name: not a field."""


def test_docstrings_in_postponed_annotations_read_as_pydantic_reads_them() -> None:
    """Behind a postponed annotation, an `Annotated` alias's description lost to the field's
    docstring (pydantic keeps the alias's), and a `ClassVar` imported under another name
    became a field description object instead of the class's value."""
    expected = Plain.model_json_schema()
    got = Documented.model_json_schema()
    for schema in (expected, got):
        del schema["title"], schema["description"]
    assert got == expected
    assert got["properties"]["c"]["description"] == "Described by the alias."
    assert Documented.limit == 7
    assert "limit" not in Documented.model_fields


def test_extension_keywords_are_annotations() -> None:
    """An `x-` keyword from `json_schema_extra` restricts nothing: it was reported lossy and
    shown to the model as a constraint."""
    d = parameters(Documented, "chat.completions")["properties"]["d"]
    assert d == snapshot(
        {
            "anyOf": [{"type": "integer"}, {"type": "null"}],
            "description": "Send null to use the default (4). Examples: 1, 2.",
        }
    )
    changes = [c for c in Documented.model_tool_schema_report("chat.completions").changes]
    assert [(c.path, c.keyword, c.action, c.lossy) for c in changes if c.path == "d"] == [
        ("d", "required", "made_required_nullable", False),
        ("d", "examples", "moved_to_description", False),
        ("d", "x-internal", "removed", False),
    ]
