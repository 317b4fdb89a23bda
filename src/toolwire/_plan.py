"""How dispatch validates a tool class's arguments, decided once per class.

A call is validated with its tool class's pydantic validator. What dispatch needs to
know about a class (that validator, whether the class is a complete function tool,
whether its dict arguments must be copied first) is worked out on the first call and
kept on the class as its plan, so each later call reads one attribute.

Dict arguments (Anthropic, Gemini) live inside the SDK's response object, which
`assistant_messages` replays. pydantic copies what it validates into typed fields, but
passes some input through by reference: values of `Any` (and of `dict[str, Any]`,
`list[Any]`...), extra fields of a model that allows them, and the raw input a
before/wrap/plain validator receives. A validator that renames a key, or a handler that
edits a nested dict, would then rewrite the model's turn in the history. Such classes
get a deep copy of their dict arguments; the others (most tools: typed fields, no
before-validators) are validated without one. `StrictInput`, the before-validator of
strict tool classes, is toolwire's own and never mutates its input.

`ToolModel.model_rebuild` calls `forget_plan`: a rebuild replaces the validator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import pydantic

    from ._schema import InputPlan
    from ._tool import ToolModel

__all__ = ["PLAN", "UNPLANNED", "StrictInput", "forget_plan", "make_plan", "shares_input"]

PLAN = "_toolwire_plan"
"""The class attribute holding a tool class's plan: `(the class, its validator or None
when it is not a function tool, whether dict input needs a copy)`.

A class attribute of a pydantic model costs about 60 ns to read (its metaclass hooks
attribute lookup): dispatch needs two (the validator, the tool type), so it reads this
one instead. It lives on the class, not in a module-level dict, so classes made at run
time (an MCP session's tools, `create_model`) are freed with everything they hold. The
plan names its class: a subclass inherits its parent's attribute, and must not use it."""

UNPLANNED: tuple[Any, Any, bool] = (None, None, False)
"""What dispatch reads for no tool, or for a class without a plan of its own yet."""

_PASS_THROUGH_VALIDATORS = frozenset({"function-before", "function-wrap", "function-plain"})


def make_plan(tool: type[ToolModel] | None) -> tuple[Any, Any, bool] | None:
    """The plan of `tool` (see `PLAN`), made and remembered on the class; None when there
    is no such tool, or for a class pydantic has not finished building (its validator is
    a placeholder), which dispatch validates the slow way."""
    if tool is None or not tool.__pydantic_complete__:
        return None
    function = tool.model_tool_type == "function"
    # An external tool's calls take the slow way, where `prepare` stops them from running.
    validator = tool.__pydantic_validator__ if function and not tool.model_tool_external else None
    copies = function and _schema_shares(tool.__pydantic_core_schema__)
    plan = (tool, validator, copies)
    setattr(tool, PLAN, plan)
    return plan


def forget_plan(tool: type) -> None:
    """Drop the plan remembered on `tool` (its validator was rebuilt)."""
    if PLAN in tool.__dict__:
        delattr(tool, PLAN)


def shares_input(tool: type[ToolModel]) -> bool:
    """Whether validating dict input for `tool` may leave parts of that input in the
    instance, or let a validator mutate it (then dispatch validates a deep copy). A class
    pydantic has not finished building is assumed to."""
    plan = tool.__dict__.get(PLAN) or make_plan(tool)
    return True if plan is None else plan[2]


def _schema_shares(schema: object) -> bool:
    """Whether the core `schema` passes any of its input through by reference."""
    stack: list[object] = [schema]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            fields = cast("dict[str, Any]", node)
            kind = fields.get("type")
            if kind == "any" or "allow" in (
                fields.get("extra_behavior"),  # model-fields, typed-dict...
                fields.get("extra_fields_behavior"),  # a model's config
            ):
                return True
            if kind in _PASS_THROUGH_VALIDATORS:
                function = fields.get("function")
                called = (
                    cast("dict[str, object]", function).get("function")
                    if isinstance(function, dict)
                    else None
                )
                if not isinstance(called, StrictInput):  # toolwire's own never mutates
                    return True
            stack.extend(fields.values())
        elif isinstance(node, list):
            stack.extend(cast("list[object]", node))
    return False


class StrictInput:
    """Before-validator of strict tool classes: applies the schema compiler's input plan
    (a `null` sent for a defaulted field means "use the default", at every level)."""

    __slots__ = ("_cls", "_plan", "_ready")

    def __init__(self, cls: type[pydantic.BaseModel]) -> None:
        self._cls = cls
        self._plan: InputPlan | None = None
        self._ready = False

    def __call__(self, data: Any) -> Any:
        if not self._ready:
            from ._schema import input_plan

            self._plan = input_plan(self._cls.model_json_schema())
            self._ready = True
        return data if self._plan is None else self._plan.apply(data)
