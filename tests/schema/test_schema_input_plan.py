"""The input plan: null-for-default, pairs and tuple objects restored at every level."""

from __future__ import annotations

import copy
import json
from typing import Any, Literal, cast

from pydantic import BaseModel, Field, model_validator

from toolwire._schema import input_plan

from ._models import (
    Address,
    Aliases,
    Cat,
    Category,
    Circle,
    Defaults,
    Dicts,
    Discriminated,
    Dog,
    Item,
    Lists,
    Nested,
    Optionals,
    PlainUnions,
    Recursive,
    Square,
    StrictBase,
    TreeNode,
    Tuples,
)


class AllRequired(BaseModel):
    name: str
    size: int
    tags: list[str]
    maybe: str | None


def plan_of(model: type[BaseModel]) -> Any:
    plan = input_plan(model.model_json_schema())
    assert plan is not None
    return plan


def test_no_plan_when_nothing_can_change() -> None:
    """A model with only required fields and no dicts or tuples needs no plan."""
    assert input_plan(AllRequired.model_json_schema()) is None


def test_null_means_default_at_the_root() -> None:
    """A null for every defaulted field gives every default, through model_validate_json."""
    payload = {name: None for name in Defaults.model_fields}
    assert Defaults.model_validate_json(json.dumps(payload)) == Defaults()


def test_null_for_optional_with_a_value_default_means_none() -> None:
    """For `Optional[T] = value`, null means None, not the default."""
    parsed = Optionals.model_validate_json('{"note": null, "maybe_count": null, "limit": null}')
    assert (parsed.note, parsed.maybe_count, parsed.limit) == (None, None, None)


def test_null_means_default_in_nested_models() -> None:
    """Nulls inside nested models, nullable nested models and defaulted models restore."""
    payload = {
        "home": {"street": "a", "city": None},
        "work": {"street": "w", "city": None},
        "billing": None,
        "plain": {"street": "p", "city": None},
    }
    assert Nested.model_validate_json(json.dumps(payload)) == Nested(
        home=Address(street="a"), work=Address(street="w"), plain=Address(street="p")
    )


def test_null_means_default_in_list_items() -> None:
    """Each list item's nulls restore its own defaults."""
    payload = {
        "items": [{"name": "a", "qty": None}, {"name": "b", "qty": 4}],
        "tags": None,
        "matrix": None,
    }
    assert Lists.model_validate_json(json.dumps(payload)) == Lists(
        items=[Item(name="a"), Item(name="b", qty=4)]
    )


def test_pairs_become_dicts_with_defaults_restored_in_values() -> None:
    """Pair lists become dicts (last repeated key wins) and their values restore defaults."""
    payload = {
        "scores": [{"key": "a", "value": 1}, {"key": "a", "value": 2}],
        "meta": [{"key": "x", "value": {"name": "i", "qty": None}}],
        "by_letter": None,
    }
    assert Dicts.model_validate_json(json.dumps(payload)) == Dicts(
        scores={"a": 2}, meta={"x": Item(name="i")}
    )


def test_a_list_that_is_not_pairs_is_left_for_validation() -> None:
    """A list of something else than pairs reaches pydantic unchanged (and fails there)."""
    data = {"scores": [{"key": "a"}]}
    assert plan_of(Dicts).apply(data) is data


def test_tuple_objects_become_lists() -> None:
    """item_<i> objects become tuples; nulls for defaulted tuples restore them."""
    payload = {"point": {"item_0": 1.5, "item_1": 2}, "pair": None, "many": [3]}
    assert Tuples.model_validate_json(json.dumps(payload)) == Tuples(point=(1.5, 2.0), many=(3,))


def test_tuple_object_with_other_keys_is_left_alone() -> None:
    """An object whose keys are not exactly the tuple's positions is not converted."""
    data = {"point": {"item_0": 1.0, "x": 2.0}}
    assert plan_of(Tuples).apply(data) is data


def test_discriminated_union_uses_the_tag() -> None:
    """The discriminator picks the branch whose defaults are restored."""
    payload = {"pet": {"kind": "dog", "good": None}, "pets": [{"kind": "cat", "lives": None}]}
    assert Discriminated.model_validate_json(json.dumps(payload)) == Discriminated(
        pet=Dog(), pets=[Cat()]
    )


def test_plain_union_picks_the_branch_by_keys() -> None:
    """Without a tag, the branch whose properties hold every key sent is used."""
    payload = {"value": 1, "shape": {"side": 2.0, "rotated": None}, "maybe": None}
    assert PlainUnions.model_validate_json(json.dumps(payload)) == PlainUnions(
        value=1, shape=Square(side=2.0)
    )


def test_ambiguous_union_is_left_as_sent() -> None:
    """When several branches fit and would restore differently, the value is left alone."""

    class A(BaseModel):
        x: int = 1

    class B(BaseModel):
        x: int | None = 2

    class Either(BaseModel):
        v: A | B

    data = {"v": {"x": None}}
    assert plan_of(Either).apply(data) is data


def test_recursive_models_restore_at_every_depth() -> None:
    """Nulls are restored down a recursive tree, from a recursive root or a field."""
    tree = {"name": "r", "children": [{"name": "a", "children": [{"name": "b", "children": None}]}]}
    assert TreeNode.model_validate_json(json.dumps(tree)) == TreeNode(
        name="r", children=[TreeNode(name="a", children=[TreeNode(name="b")])]
    )
    category = {
        "root": {"name": "c", "parent": {"name": "p", "parent": None, "subs": None}, "subs": None}
    }
    assert Recursive.model_validate_json(json.dumps(category)) == Recursive(
        root=Category(name="c", parent=Category(name="p"))
    )


def test_aliases_are_the_keys() -> None:
    """The plan works on the aliases the schema uses; a null for an alias gives the default."""
    assert Aliases.model_validate_json(
        '{"user-id": 3, "firstName": null}'
    ) == Aliases.model_validate({"user-id": 3})


def test_dict_input_as_anthropic_and_gemini_send_it() -> None:
    """Dict arguments (validated with strict=False) restore the same way as JSON text."""
    payload = {"value": "x", "shape": {"radius": 1}, "maybe": None}
    assert PlainUnions.model_validate(payload, strict=False) == PlainUnions(
        value="x", shape=Circle(radius=1)
    )


def test_apply_never_mutates_and_keeps_unchanged_objects() -> None:
    """Applying copies what it changes, leaves the input intact, and returns untouched parts."""
    data: dict[str, Any] = {
        "home": {"street": "a", "city": None},
        "work": None,
        "billing": {"street": "b", "city": "Oslo"},
        "plain": {"street": "p", "city": "Rome"},
    }
    before = copy.deepcopy(data)
    out = plan_of(Nested).apply(data)
    assert data == before
    assert out == {**data, "home": {"street": "a"}}
    assert out["billing"] is data["billing"]
    unchanged = {"home": {"street": "a", "city": "x"}, "plain": {"street": "p", "city": "y"}}
    assert plan_of(Nested).apply(unchanged) is unchanged


def test_non_containers_and_model_instances_are_left_alone() -> None:
    """Scalars, None and model instances pass through untouched."""
    plan = plan_of(Nested)
    instance = Nested(home=Address(street="a"), plain=Address(street="p"))
    for value in (None, 3, "x", instance, [instance]):
        assert plan.apply(value) is value
    assert Nested.model_validate(instance) is instance


def test_keys_that_are_not_properties_pass_through() -> None:
    """Unknown keys (extras, field names instead of aliases) are not touched."""
    data = {"user_id": None, "firstName": None, "extra": None}
    assert plan_of(Aliases).apply(data) == {"user_id": None, "extra": None}


def test_default_factory_fields_are_restored() -> None:
    """A field with a default factory (no default in the schema) restores from null too."""

    class Factory(StrictBase):
        ids: list[int] = Field(default_factory=lambda: [7])
        mode: Literal["a", "b"] = "b"

    assert Factory.model_validate_json('{"ids": null, "mode": null}') == Factory()


class Checked(StrictBase):
    """A strict tool with its own validators around the model."""

    count: int = 3
    seen: list[str] = []

    @model_validator(mode="before")
    @classmethod
    def record_raw(cls, data: Any) -> Any:
        if isinstance(data, dict):
            raw = cast("dict[str, Any]", data)
            return {**raw, "seen": [repr(raw.get("count"))]}
        return data

    @model_validator(mode="after")
    def still_restored(self) -> Checked:
        assert self.count == 3
        return self


def test_plan_runs_after_the_classs_own_before_validators() -> None:
    """The class's validators run as written: before ones see the raw null, after ones the default."""
    parsed = Checked.model_validate_json('{"count": null, "seen": null}')
    assert (parsed.count, parsed.seen) == (3, ["None"])
