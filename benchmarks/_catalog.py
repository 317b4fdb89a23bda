"""Ten realistic tools' argument models, for measuring how large their definitions are.

They use what real tools use: descriptions on fields, enums, defaults, numeric and
string constraints, optional fields, lists and nested models. The realistic dispatch
tool (`file_ticket`) is one of them.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

import pydantic
from pydantic import Field

from ._tools import Address, TicketArguments

__all__ = ["CATALOG"]


class OrderStatus(StrEnum):
    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"


class SearchOrders(pydantic.BaseModel):
    """Find a customer's orders, newest first."""

    customer_email: str = Field(description="The email address the customer ordered with.")
    status: OrderStatus | None = Field(None, description="Only orders in this state.")
    placed_after: date | None = Field(None, description="Only orders placed after this day.")
    limit: int = Field(20, ge=1, le=100, description="How many orders to return at most.")


class TemperatureUnit(StrEnum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class GetForecast(pydantic.BaseModel):
    """Get the weather forecast for a city."""

    city: str = Field(description="City name, with the country if ambiguous.")
    days: int = Field(3, ge=1, le=14, description="How many days ahead.")
    unit: TemperatureUnit = TemperatureUnit.CELSIUS


class BookMeeting(pydantic.BaseModel):
    """Book a meeting room and invite people."""

    title: str = Field(max_length=120, description="What the meeting is about.")
    attendees: list[str] = Field(min_length=1, description="Email addresses to invite.")
    start: datetime = Field(description="When it starts, with a time zone offset.")
    duration_minutes: int = Field(30, ge=15, le=480)
    room: str | None = Field(None, description="A room name; any free room when omitted.")


class Importance(StrEnum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class SendEmail(pydantic.BaseModel):
    """Send an email on the user's behalf."""

    to: list[str] = Field(min_length=1, description="Recipients' email addresses.")
    subject: str = Field(max_length=200)
    body: str = Field(description="Plain text; no HTML.")
    cc: list[str] = Field(default_factory=list[str])
    importance: Importance = Importance.NORMAL


class RefundReason(StrEnum):
    DAMAGED = "damaged"
    NOT_RECEIVED = "not_received"
    WRONG_ITEM = "wrong_item"
    OTHER = "other"


class RefundPayment(pydantic.BaseModel):
    """Refund all or part of a payment."""

    payment_id: str = Field(pattern=r"^pay_[A-Za-z0-9]{14}$", description="The payment to refund.")
    amount_cents: int = Field(gt=0, description="How much to refund, in cents.")
    reason: RefundReason
    note: str | None = Field(None, max_length=500, description="Shown to the customer.")


class UpdateShippingAddress(pydantic.BaseModel):
    """Change where an order that has not shipped yet goes."""

    order_id: str = Field(description="The order's id, as shown to the customer.")
    address: Address
    notify_customer: bool = Field(True, description="Email the customer the change.")


class Warehouse(StrEnum):
    BERLIN = "berlin"
    DALLAS = "dallas"
    SINGAPORE = "singapore"


class CheckInventory(pydantic.BaseModel):
    """Check how many units of products are in stock."""

    skus: list[str] = Field(min_length=1, max_length=50, description="Product SKUs.")
    warehouse: Warehouse | None = Field(None, description="One warehouse; all when omitted.")
    include_reserved: bool = Field(False, description="Count units reserved for open orders.")


class Formality(StrEnum):
    DEFAULT = "default"
    FORMAL = "formal"
    INFORMAL = "informal"


class TranslateText(pydantic.BaseModel):
    """Translate text into another language."""

    text: str = Field(max_length=5000)
    target_language: str = Field(pattern=r"^[a-z]{2}$", description="ISO 639-1 code, e.g. 'de'.")
    formality: Formality = Formality.DEFAULT


class CallbackWindow(pydantic.BaseModel):
    """When the customer can take a call."""

    earliest: datetime
    latest: datetime


class ScheduleCallback(pydantic.BaseModel):
    """Ask a support agent to call the customer back."""

    phone: str = Field(description="In E.164 form, e.g. +4930123456.")
    window: CallbackWindow
    language: str = Field("en", description="The language the customer wants to speak.")
    topic: str = Field(description="What the customer needs help with, in a sentence or two.")


CATALOG: dict[str, type[pydantic.BaseModel]] = {
    "file_ticket": TicketArguments,
    "search_orders": SearchOrders,
    "get_forecast": GetForecast,
    "book_meeting": BookMeeting,
    "send_email": SendEmail,
    "refund_payment": RefundPayment,
    "update_shipping_address": UpdateShippingAddress,
    "check_inventory": CheckInventory,
    "translate_text": TranslateText,
    "schedule_callback": ScheduleCallback,
}
"""Each tool's name and argument model (its docstring is the tool's description)."""
