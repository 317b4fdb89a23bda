"""Field docstrings become descriptions exactly as pydantic's `use_attribute_docstrings`
makes them, read by toolwire's cheaper reader (`_docstrings`) where it can.

Each case defines the same body twice, as a tool and as a plain pydantic model with
`use_attribute_docstrings=True`, and compares their whole JSON schemas; a spy on
pydantic's own reader (`pydantic_reads`, in conftest.py) says which one read the tool's
docstrings.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import pydantic

from toolwire import aio, core
from toolwire.aio import BaseFunctionToolModel as AioTool
from toolwire.core import BaseFunctionToolModel

DOCUMENTED = pydantic.ConfigDict(use_attribute_docstrings=True)


class Tool(BaseFunctionToolModel[None, None]):
    """A base for the cases (a tool without fields)."""


def _same_schema(tool: type[pydantic.BaseModel], plain: type[pydantic.BaseModel]) -> None:
    expected = plain.model_json_schema()
    got = tool.model_json_schema()
    # The titles and descriptions of the classes themselves are not what is compared.
    for schema in (expected, got):
        schema.pop("title", None)
        schema.pop("description", None)
    assert got == expected


def test_plain_fields_defaults_and_multiline_docstrings(pydantic_reads: list[str]) -> None:
    class Weather(Tool):
        """Get the weather."""

        city: str
        """The city."""
        days: int = 3
        """How many days,
            counted from today."""
        unit: str = "c"
        note: str | None = None
        """Single quotes work too."""

    class Plain(pydantic.BaseModel):
        model_config = DOCUMENTED

        city: str
        """The city."""
        days: int = 3
        """How many days,
            counted from today."""
        unit: str = "c"
        note: str | None = None
        """Single quotes work too."""

    _same_schema(Weather, Plain)
    assert Weather.model_fields["days"].description == "How many days,\ncounted from today."
    assert pydantic_reads == ["Plain"]  # the tool's were read by toolwire


def test_a_decorated_class_with_a_long_header(pydantic_reads: list[str]) -> None:
    def keep(cls: type[Tool]) -> type[Tool]:
        return cls

    @keep
    class Search(
        Tool,
    ):
        """Search."""

        query: str
        """What to look for."""

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return self.query, None

        limit: int = 10
        """At most this many."""

    class Plain(pydantic.BaseModel):
        model_config = DOCUMENTED

        query: str
        """What to look for."""
        limit: int = 10
        """At most this many."""

    _same_schema(Search, Plain)
    assert pydantic_reads == ["Plain"]


def test_forms_that_pydantic_merges_are_left_to_pydantic(pydantic_reads: list[str]) -> None:
    """Field(...), Annotated and ClassVar: pydantic reads those classes itself."""

    class WithField(Tool):
        """A tool."""

        size: int = pydantic.Field(3, ge=0)
        """The size."""
        kept: int = pydantic.Field(1, description="From Field.")
        """Not this one."""

    class WithAnnotated(Tool):
        """A tool."""

        size: Annotated[int, pydantic.Field(description="From Annotated.")]
        """Not this one."""
        shared: ClassVar[int] = 1
        """A class variable: no field."""

    class PlainField(pydantic.BaseModel):
        model_config = DOCUMENTED

        size: int = pydantic.Field(3, ge=0)
        """The size."""
        kept: int = pydantic.Field(1, description="From Field.")
        """Not this one."""

    class PlainAnnotated(pydantic.BaseModel):
        model_config = DOCUMENTED

        size: Annotated[int, pydantic.Field(description="From Annotated.")]
        """Not this one."""
        shared: ClassVar[int] = 1
        """A class variable: no field."""

    _same_schema(WithField, PlainField)
    _same_schema(WithAnnotated, PlainAnnotated)
    assert WithAnnotated.model_fields["size"].description == "From Annotated."
    assert pydantic_reads == ["WithField", "WithAnnotated", "PlainField", "PlainAnnotated"]


def test_subclasses_and_rebuilds_keep_reading_docstrings(pydantic_reads: list[str]) -> None:
    class Base(Tool):
        """A base."""

        path: str
        """Where."""

    class Child(Base):
        """A child."""

        mode: str = "r"
        """How."""

    class ForwardRef(Tool):
        """Refers to a class defined later."""

        later: Later | None = None
        """Defined below."""

    class Later(pydantic.BaseModel):
        value: int

    ForwardRef.model_rebuild()
    assert Child.model_fields["path"].description == "Where."
    assert Child.model_fields["mode"].description == "How."
    assert Child.model_config.get("use_attribute_docstrings") is True
    assert ForwardRef.model_json_schema()["properties"]["later"]["description"] == "Defined below."
    assert pydantic_reads == []


def test_a_tool_can_turn_docstrings_off(pydantic_reads: list[str]) -> None:
    class Quiet(Tool):
        """A tool whose field docstrings are notes for developers."""

        model_config = pydantic.ConfigDict(use_attribute_docstrings=False)
        path: str
        """Internal note."""

    class Louder(Quiet):
        """Inherits the setting."""

        more: str
        """Another note."""

    assert Quiet.model_fields["path"].description is None
    assert Louder.model_fields["more"].description is None
    assert pydantic_reads == []


def test_async_tools_and_classes_without_source(pydantic_reads: list[str]) -> None:
    class Fetch(AioTool[None, None]):
        """Fetch a page."""

        url: str
        """The address."""

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return self.url, None

    namespace: dict[str, Any] = {"Tool": Tool}
    exec(  # no source file: pydantic's reader, which finds nothing either
        'class Made(Tool):\n    """Made."""\n    a: int\n    """A."""\n', namespace
    )
    assert Fetch.model_fields["url"].description == "The address."
    assert namespace["Made"].model_fields["a"].description is None
    assert pydantic_reads == ["Made"]


def test_fields_under_an_if_are_left_to_pydantic(pydantic_reads: list[str]) -> None:
    """Pydantic's reader also finds docstrings of fields declared under `if`."""
    wide = True

    class Conditional(Tool):
        """A tool."""

        if wide:
            width: int = 80
            """Columns."""

    assert Conditional.model_fields["width"].description == "Columns."
    assert pydantic_reads == ["Conditional"]


def test_the_tool_search_class_is_not_searched_for_source(pydantic_reads: list[str]) -> None:
    """The class `add_tool_search` makes has no source (it is made by `type()`): pydantic's
    reader, which would walk the whole call stack looking for one, is not asked."""

    class Deferred(Tool):
        """A deferred tool."""

        model_tool_defer_loading = True

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    class AioDeferred(AioTool[None, None]):
        """A deferred tool."""

        model_tool_defer_loading = True

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    core_group = core.ToolGroup.from_list([Deferred])
    core_group.add_tool_search(execution="client")
    aio_group = aio.ToolGroup.from_list([AioDeferred])
    aio_group.add_tool_search(execution="client")
    assert pydantic_reads == []
    search = core_group["tool_search"]
    assert (
        search.model_fields["queries"].description
        == aio_group["tool_search"].model_fields["queries"].description
    )
    assert search.model_fields["queries"].description
