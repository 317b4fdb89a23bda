"""The battery: tool models as users write them, each with instances the model could send.

Tool classes derive from `StrictBase`, a strict toolwire tool class: it applies the class's
`InputPlan` inside the class's own validation, so `model_validate_json` restores defaults,
dicts and tuples; nested models keep their own, unchanged classes.
"""

from __future__ import annotations

import datetime as dt
import enum
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from toolwire.core import BaseFunctionToolModel


class StrictBase(BaseFunctionToolModel[None, None]):
    """A strict toolwire tool class: its own validation applies the input plan."""

    model_tool_strict = True


class Unit(enum.StrEnum):
    CELSIUS = "c"
    FAHRENHEIT = "f"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Optionals(StrictBase):
    """Optional fields, with and without defaults."""

    note: str | None = None
    maybe_count: int | None
    limit: int | None = 10


class Defaults(StrictBase):
    """Fields with defaults and default factories."""

    count: int = 3
    label: str = "x"
    ratio: float = 0.5
    flags: list[str] = []
    ids: list[int] = Field(default_factory=list[int])
    unit: Unit = Unit.CELSIUS
    active: bool = True


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str = "Paris"


class Nested(StrictBase):
    """Nested and described models."""

    home: Address = Field(description="Where they live.")
    work: Address | None = None
    billing: Address = Address(street="1 Main St")
    plain: Address


class Item(BaseModel):
    name: str
    qty: int = 1


class Lists(StrictBase):
    """Lists of models and of scalars."""

    items: list[Item]
    tags: list[str] = []
    matrix: list[list[int]] = []


class Enums(StrictBase):
    """Enums and multi-value literals."""

    unit: Unit
    priority: Priority = Priority.LOW
    mode: Literal["fast", "slow"] = "fast"
    maybe_unit: Unit | None = None


class Literals(StrictBase):
    """Single-value literals, with and without defaults."""

    kind: Literal["search"]
    version: Literal[2] = 2
    flag: Literal[True] = True


class Cat(BaseModel):
    kind: Literal["cat"] = "cat"
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"] = "dog"
    good: bool = True


class Discriminated(StrictBase):
    """Discriminated unions, alone and in a list."""

    pet: Cat | Dog = Field(discriminator="kind")
    pets: list[Annotated[Cat | Dog, Field(discriminator="kind")]] = []


class Circle(BaseModel):
    radius: float


class Square(BaseModel):
    side: float
    rotated: bool = False


class PlainUnions(StrictBase):
    """Plain unions of scalars and of models."""

    value: int | str
    shape: Circle | Square
    maybe: Circle | Square | None = None


class TreeNode(StrictBase):
    """A recursive tool model (its schema's root is a reference)."""

    name: str
    children: list[TreeNode] = []


class Category(BaseModel):
    name: str
    parent: Category | None = None
    subs: list[Category] = []


class Recursive(StrictBase):
    """A field holding a recursive model."""

    root: Category


class RequiredRecursion(StrictBase):
    """A recursive model whose recursive field is required."""

    name: str
    children: list[RequiredRecursion]


class Dicts(StrictBase):
    """Dict fields with scalar, model and literal-keyed values."""

    scores: dict[str, int]
    meta: dict[str, Item] = {}
    by_letter: dict[Literal["a", "b"], float] = {}


class Constrained(StrictBase):
    """Constrained strings, numbers and lists."""

    code: str = Field(min_length=2, max_length=5)
    slug: str = Field(pattern=r"^[a-z]+$")
    age: int = Field(ge=0, le=150)
    ratio: float = Field(gt=0, lt=1)
    even: int = Field(multiple_of=2)
    picks: list[int] = Field(min_length=1, max_length=3)


class Dates(StrictBase):
    """Dates, times, durations and UUIDs."""

    day: dt.date
    at: dt.datetime
    clock: dt.time
    span: dt.timedelta = dt.timedelta(hours=1)
    ident: uuid.UUID


class Aliases(StrictBase):
    """Fields with aliases."""

    user_id: int = Field(alias="user-id")
    first_name: str = Field(alias="firstName", default="Ann")


class Tuples(StrictBase):
    """Fixed and variable-length tuples."""

    point: tuple[float, float]
    pair: tuple[int, str] = (1, "a")
    many: tuple[int, ...] = ()


class Sets(StrictBase):
    """A set field."""

    tags: set[str] = set()


class Extras(StrictBase):
    """A model that accepts extra keys."""

    model_config = ConfigDict(extra="allow")
    a: int


class Forbid(StrictBase):
    """A model that forbids extra keys, as the seed's strict example did by hand."""

    model_config = ConfigDict(extra="forbid")
    a: int = 1


class AnyField(StrictBase):
    """A field typed Any."""

    payload: Any


class Empty(StrictBase):
    """A tool without arguments."""


class Described(StrictBase):
    """A field with a description and examples."""

    x: int = Field(default=3, description="An x.", examples=[1, 2])


@dataclass(frozen=True)
class Case:
    """One battery model and instances of it."""

    model: type[StrictBase]
    instances: Callable[[], Sequence[StrictBase]]

    @property
    def name(self) -> str:
        return self.model.__name__


CASES: list[Case] = [
    Case(
        Optionals,
        lambda: [Optionals(maybe_count=None), Optionals(note="n", maybe_count=2, limit=None)],
    ),
    Case(
        Defaults,
        lambda: [Defaults(), Defaults(count=1, flags=["a"], ids=[2], unit=Unit.FAHRENHEIT)],
    ),
    Case(
        Nested,
        lambda: [
            Nested(home=Address(street="a"), plain=Address(street="b", city="Rome")),
            Nested(home=Address(street="a"), work=Address(street="w"), plain=Address(street="p")),
        ],
    ),
    Case(Lists, lambda: [Lists(items=[Item(name="a"), Item(name="b", qty=3)], matrix=[[1], []])]),
    Case(
        Enums,
        lambda: [
            Enums(unit=Unit.CELSIUS),
            Enums(
                unit=Unit.FAHRENHEIT, priority=Priority.HIGH, mode="slow", maybe_unit=Unit.CELSIUS
            ),
        ],
    ),
    Case(Literals, lambda: [Literals(kind="search")]),
    Case(Discriminated, lambda: [Discriminated(pet=Cat(), pets=[Dog(good=False), Cat(lives=3)])]),
    Case(
        PlainUnions,
        lambda: [
            PlainUnions(value=1, shape=Circle(radius=1.5)),
            PlainUnions(value="x", shape=Square(side=2), maybe=Square(side=1, rotated=True)),
        ],
    ),
    Case(
        TreeNode,
        lambda: [TreeNode(name="r", children=[TreeNode(name="a", children=[TreeNode(name="b")])])],
    ),
    Case(
        Recursive,
        lambda: [
            Recursive(root=Category(name="c", parent=Category(name="p"), subs=[Category(name="s")]))
        ],
    ),
    Case(
        RequiredRecursion,
        lambda: [RequiredRecursion(name="r", children=[RequiredRecursion(name="c", children=[])])],
    ),
    Case(
        Dicts,
        lambda: [Dicts(scores={"a": 1, "b": 2}, meta={"x": Item(name="i")}, by_letter={"a": 0.5})],
    ),
    Case(
        Constrained,
        lambda: [Constrained(code="ab", slug="abc", age=30, ratio=0.5, even=4, picks=[1, 2])],
    ),
    Case(
        Dates,
        lambda: [
            Dates(
                day=dt.date(2024, 2, 29),
                at=dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.UTC),
                clock=dt.time(12, 30),
                ident=uuid.UUID(int=7),
            )
        ],
    ),
    Case(
        Aliases,
        lambda: [
            Aliases.model_validate({"user-id": 7}),
            Aliases.model_validate({"user-id": 1, "firstName": "Bo"}),
        ],
    ),
    Case(
        Tuples,
        lambda: [Tuples(point=(1.0, 2.5)), Tuples(point=(0.0, 0.0), pair=(3, "c"), many=(1, 2))],
    ),
    Case(Sets, lambda: [Sets(tags={"a", "b"})]),
    Case(Extras, lambda: [Extras(a=1)]),
    Case(Forbid, lambda: [Forbid(), Forbid(a=2)]),
    Case(AnyField, lambda: [AnyField(payload={"k": [1, "x", None]}), AnyField(payload=3)]),
    Case(Empty, lambda: [Empty()]),
    Case(Described, lambda: [Described(), Described(x=5)]),
]
"""Every battery model, in a stable order."""

CASE_BY_NAME = {case.name: case for case in CASES}
