"""The tools every dispatch benchmark calls, on two inputs: the short fixture and a
realistic one.

The short fixture's arguments (41 characters of JSON) are what the first benchmarks
measured. Real calls are larger and deeper: the realistic tool takes a nested model, an
enum, a list and a free-text field of a few hundred characters (700 characters of
JSON), the size where toolwire's short-argument paths no longer apply. Each tool exists
as a toolwire class (sync and async, sharing one argument model) and as the plain
function (sync and async) that the function-based peers wrap, all answering the same
text, so every subject does the same work.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import pydantic

from toolwire import aio, core

__all__ = ["FIXTURES", "Fixture", "get_weather"]


class WeatherArguments(pydantic.BaseModel):
    """Get the weather."""

    city: str
    days: int
    unit: str


class get_weather(WeatherArguments, core.BaseFunctionToolModel[None, None]):
    """Get the weather."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "ok", None


class aget_weather(WeatherArguments, aio.BaseFunctionToolModel[None, None]):
    """Get the weather."""

    model_tool_custom_name = "get_weather"

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "ok", None


def weather_function(city: str, days: int, unit: str) -> str:
    """Get the weather."""
    return "ok"


async def aweather_function(city: str, days: int, unit: str) -> str:
    """Get the weather."""
    return "ok"


def _weather_arguments(count: int) -> list[dict[str, Any]]:
    return [{"city": "Paris", "days": i % 7, "unit": "c"} for i in range(count)]


class Priority(StrEnum):
    """How soon support must answer."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"
    URGENT = "urgent"


class Address(pydantic.BaseModel):
    """A postal address."""

    street: str
    city: str
    postal_code: str
    country: str


class Customer(pydantic.BaseModel):
    """Who the ticket is for."""

    name: str
    email: str
    address: Address


class TicketArguments(pydantic.BaseModel):
    """File a support ticket for a customer."""

    title: str
    priority: Priority
    customer: Customer
    tags: list[str]
    description: str


def receipt(title: str, customer: Customer) -> str:
    """What every form of the realistic tool answers (it reads the nested model)."""
    return f"Filed {title!r} for {customer.email}."


class file_ticket(TicketArguments, core.BaseFunctionToolModel[None, None]):
    """File a support ticket for a customer."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return receipt(self.title, self.customer), None


class afile_ticket(TicketArguments, aio.BaseFunctionToolModel[None, None]):
    """File a support ticket for a customer."""

    model_tool_custom_name = "file_ticket"

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return receipt(self.title, self.customer), None


def ticket_function(
    title: str, priority: Priority, customer: Customer, tags: list[str], description: str
) -> str:
    """File a support ticket for a customer."""
    return receipt(title, customer)


async def aticket_function(
    title: str, priority: Priority, customer: Customer, tags: list[str], description: str
) -> str:
    """File a support ticket for a customer."""
    return receipt(title, customer)


DESCRIPTION = (
    "Since this morning's update the mobile app logs me out every time I switch to "
    "another app and back, and I have to type my password again. It happens on both my "
    "phone and my tablet. Clearing the cache did not help, and reinstalling only fixed "
    "it for an hour. I pay for the family plan and my two children have the same "
    "problem on their phones. Please look into it soon: we use the app every day."
)


def _ticket_arguments(count: int) -> list[dict[str, Any]]:
    return [
        {
            "title": f"App logs me out on every switch ({i})",
            "priority": ("normal", "high", "urgent")[i % 3],
            "customer": {
                "name": "Ada Lovelace",
                "email": "ada@example.com",
                "address": {
                    "street": "12 St James's Square",
                    "city": "London",
                    "postal_code": "SW1Y 4JH",
                    "country": "GB",
                },
            },
            "tags": ["mobile", "login", "regression"],
            "description": DESCRIPTION,
        }
        for i in range(count)
    ]


@dataclass(frozen=True)
class Fixture:
    """One input: the tool in every form the subjects take, and its calls' arguments."""

    name: str
    tool: type[core.BaseFunctionToolModel[None, None]]
    atool: type[aio.BaseFunctionToolModel[None, None]]
    function: Callable[..., str]
    afunction: Callable[..., Awaitable[str]]
    arguments: Callable[[int], list[dict[str, Any]]]
    """The arguments of `count` calls (the model's JSON is `json.dumps` of each)."""

    @property
    def tool_name(self) -> str:
        return self.tool.model_tool_name()


FIXTURES = (
    Fixture(
        "short", get_weather, aget_weather, weather_function, aweather_function, _weather_arguments
    ),
    Fixture(
        "realistic", file_ticket, afile_ticket, ticket_function, aticket_function, _ticket_arguments
    ),
)
