"""Definitions leave out the titles pydantic makes up from names, and keep chosen ones."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any

import pydantic
import pytest
from inline_snapshot import snapshot
from pydantic import ConfigDict, Field

from toolwire._api import API_NAMES, Api

from .test_schema_review import Tool, parameters


class Priority(Enum):
    LOW = "low"
    HIGH = "high"


class Address(pydantic.BaseModel):
    street: str
    postal_code: str


class Named(pydantic.BaseModel):
    model_config = ConfigDict(title="Chosen place")

    name: str


class Ticket(Tool):
    """File a ticket."""

    summary: str = Field(description="One line.")
    priority: Priority = Priority.LOW
    address: Address
    place: Named
    labels: list[str] = []
    owner: Annotated[str, Field(title="Login of the owner")] = "nobody"
    title: str = Field(default="", description="A property named title stays.")


class TitledTicket(Ticket):
    """File a ticket."""

    model_tool_titles = True


def titles(schema: Any) -> list[str]:
    """Every `title` keyword in a schema (not properties named "title")."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():  # pyright: ignore[reportUnknownVariableType]
            if key == "title" and isinstance(value, str):
                found.append(value)
            elif key == "properties" and isinstance(value, dict):
                for sub in value.values():  # pyright: ignore[reportUnknownVariableType]
                    found += titles(sub)
            else:
                found += titles(value)
    elif isinstance(schema, list):
        for item in schema:  # pyright: ignore[reportUnknownVariableType]
            found += titles(item)
    return found


def test_the_schema_keeps_only_chosen_titles() -> None:
    """pydantic's "Summary", "Postal Code", "Address", "Priority" are gone; the titles
    someone wrote stay, and so does everything else the model reads."""
    schema = Ticket.model_tool_json_schema()
    assert sorted(titles(schema)) == ["Chosen place", "Login of the owner"]
    assert schema == snapshot(
        {
            "$defs": {
                "Address": {
                    "properties": {
                        "street": {"type": "string"},
                        "postal_code": {"type": "string"},
                    },
                    "required": ["street", "postal_code"],
                    "type": "object",
                },
                "Named": {
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                    "title": "Chosen place",
                    "type": "object",
                },
                "Priority": {"enum": ["low", "high"], "type": "string"},
            },
            "description": "File a ticket.",
            "properties": {
                "summary": {"description": "One line.", "type": "string"},
                "priority": {"$ref": "#/$defs/Priority", "default": "low"},
                "address": {"$ref": "#/$defs/Address"},
                "place": {"$ref": "#/$defs/Named"},
                "labels": {"default": [], "items": {"type": "string"}, "type": "array"},
                "owner": {"default": "nobody", "title": "Login of the owner", "type": "string"},
                "title": {
                    "default": "",
                    "description": "A property named title stays.",
                    "type": "string",
                },
            },
            "required": ["summary", "address", "place"],
            "type": "object",
        }
    )


def test_only_titles_differ_from_pydantic() -> None:
    """Dropping titles changes nothing else: pydantic's schema minus its made-up titles."""

    def untitled(schema: Any) -> Any:
        if isinstance(schema, dict):
            return {
                key: (
                    {name: untitled(sub) for name, sub in value.items()}  # pyright: ignore[reportUnknownVariableType, reportUnknownMemberType, reportAttributeAccessIssue]
                    if key == "properties"
                    else untitled(value)
                )
                for key, value in schema.items()  # pyright: ignore[reportUnknownVariableType]
                if not (key == "title" and value not in ("Chosen place", "Login of the owner"))
            }
        if isinstance(schema, list):
            return [untitled(item) for item in schema]  # pyright: ignore[reportUnknownVariableType]
        return schema

    assert Ticket.model_tool_json_schema() == untitled(Ticket.model_json_schema())


@pytest.mark.parametrize("api", API_NAMES)
def test_no_api_gets_made_up_titles(api: Api) -> None:
    """Every API's definition, strict or not, carries only the chosen titles."""

    class StrictTicket(Ticket):
        """File a ticket."""

        model_tool_strict = True

    tools: list[type[Tool]] = [Ticket, StrictTicket]
    for tool in tools:
        assert sorted(titles(parameters(tool, api))) == ["Chosen place", "Login of the owner"]


def test_titles_come_back_when_asked_for() -> None:
    """`model_tool_titles = True` sends pydantic's schema with its titles."""
    assert TitledTicket.model_tool_json_schema() == TitledTicket.model_json_schema()
    properties = parameters(TitledTicket, "chat.completions")["properties"]
    assert properties["summary"]["title"] == "Summary"


def test_a_custom_schema_is_sent_as_given() -> None:
    """A hand-written schema keeps its titles: someone wrote them."""

    class Custom(Tool):
        """Look up a code."""

        model_tool_custom_json_schema = {
            "type": "object",
            "properties": {"code": {"type": "string", "title": "Code"}},
            "required": ["code"],
        }

    assert parameters(Custom, "chat.completions")["properties"]["code"]["title"] == "Code"


def test_generated_titles_someone_asked_for_stay() -> None:
    """A `field_title_generator` or `model_title_generator` is a choice: its titles stay."""

    class Inner(pydantic.BaseModel):
        model_config = ConfigDict(model_title_generator=lambda cls: f"The {cls.__name__}")

        code: str

    class Generated(Tool):
        """Look up."""

        model_config = ConfigDict(field_title_generator=lambda name, _: name.upper())

        code: str
        inner: Inner

    schema = Generated.model_tool_json_schema()
    assert schema["properties"]["code"]["title"] == "CODE"
    assert schema["$defs"]["Inner"]["title"] == "The Inner"
