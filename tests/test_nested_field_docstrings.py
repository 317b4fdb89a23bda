"""Field docstrings of nested models reach the schema (issue 24, item 21).

A tool reads the docstrings under its own fields; the plain pydantic models,
dataclasses and TypedDicts its fields hold have `use_attribute_docstrings` off, and
their docstrings were dropped without a word. They are read now, on every API, unless
the class sets the option itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import pydantic
from inline_snapshot import snapshot
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from toolwire._api import API_NAMES
from toolwire.core import BaseFunctionToolModel


class Address(BaseModel):
    street: str
    """The street and house number."""
    postcode: str = Field(alias="zip")
    """The postal code, as the country writes it."""
    country: str = Field(description="ISO 3166 alpha-2 code.")
    """Not read: the description given to Field wins."""


@dataclass
class Window:
    start: str
    """ISO date the delivery window opens."""


class Parcel(TypedDict):
    kilograms: float
    """Weight, packed."""


class Quiet(BaseModel):
    model_config = pydantic.ConfigDict(use_attribute_docstrings=False)

    note: str
    """Not read: this class turned docstrings off itself."""


class ship(BaseFunctionToolModel[None, None]):
    """Ship a parcel."""

    to: Address
    """Where it goes."""
    window: Window
    parcel: Parcel
    quiet: Quiet

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "shipped", None


def descriptions(schema: dict[str, object]) -> dict[str, object]:
    """Each definition's field descriptions (None where a field has none)."""
    defs: dict[str, dict[str, dict[str, dict[str, object]]]] = schema["$defs"]  # type: ignore[assignment]
    return {
        name: {field: prop.get("description") for field, prop in body["properties"].items()}
        for name, body in defs.items()
    }


def test_nested_models_dataclasses_and_typeddicts_keep_their_field_docstrings() -> None:
    assert descriptions(ship.model_tool_json_schema()) == snapshot(
        {
            "Address": {
                "street": "The street and house number.",
                "zip": "The postal code, as the country writes it.",
                "country": "ISO 3166 alpha-2 code.",
            },
            "Parcel": {"kilograms": "Weight, packed."},
            "Quiet": {"note": None},
            "Window": {"start": "ISO date the delivery window opens."},
        }
    )


def test_every_api_s_definition_carries_them() -> None:
    for api in API_NAMES:
        text = str(ship.model_tool_definition(api))
        assert "The street and house number." in text, api
        assert "ISO date the delivery window opens." in text, api
        assert "Weight, packed." in text, api
        assert "Not read" not in text, api
