"""Opt-in argument repair: fix the ways models of every family mangle arguments.

Models send an object or array argument as JSON text (`"filter": "{\\"a\\": 1}"`),
encode the whole arguments twice (`"{\\"city\\": \\"Paris\\"}"` as a JSON string), or
glue objects together (`{"a": 1}{"a": 1}`). Strict validation refuses all three, and is
the default. `RepairPolicy` is the opt-in: only for a call that failed validation, it
makes the changes the tool's JSON schema asks for, validates again, and reports each
change on the result (`result.repairs`). A call that validated is never touched, a
value the schema also takes as text is never decoded, and a repair that still does not
validate leaves the call with its original failure (what the model sent, not what
toolwire tried). A function of yours may run last, before the call is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import pydantic

from . import _feedback
from ._argument_repair import ArgumentRepair
from ._call import StandardToolCall
from ._json import copy_json
from ._limits import ArgumentLimits
from ._pipeline import Crashed, prepare
from ._result import ToolCallFailure
from .exceptions import ErrorForLLMToSee

if TYPE_CHECKING:
    from ._tool import ToolModel

__all__ = ["RepairFunction", "RepairPolicy", "repair_batch"]

RepairFunction = Callable[[StandardToolCall, ToolCallFailure], "Mapping[str, Any] | str | None"]
"""Your last repair: `(the call as the model sent it, its failure) -> new arguments`
(a dict, or JSON text) or None to leave the call refused."""


@dataclass(frozen=True, slots=True)
class RepairPolicy:
    """Which repairs `run_tool_calls(..., repair=RepairPolicy())` may make to a call that
    failed validation (each on by default), and your own function to try last.

    Attributes:
        decode_strings: decode a value sent as JSON text where the schema wants an
            object or array and does not take text.
        unwrap: decode arguments sent as a JSON string holding the JSON object.
        glued: keep one of several identical objects glued together. Different glued
            objects are never run: the call is refused with a text asking for one call
            per object, since each is likely a call the model meant to make.
        fallback: `(call, failure) -> arguments or None`, run when the repairs above
            left the call invalid (or made none); its arguments are validated like the
            model's. An exception it raises, or a return value of another kind, is
            the call's unexpected error (see `unexpected_errors`).
    """

    decode_strings: bool = True
    unwrap: bool = True
    glued: bool = True
    fallback: RepairFunction | None = None


def repair_batch(
    tools: Mapping[str, type[ToolModel]],
    calls: Sequence[StandardToolCall],
    prepared: list[Any],
    policy: RepairPolicy,
    limits: ArgumentLimits,
) -> dict[int, tuple[ArgumentRepair, ...]]:
    """Repair, in place in `prepared`, each function call that failed validation; the
    repairs made, by call index."""
    if not isinstance(policy, RepairPolicy):
        raise TypeError(
            f"repair takes a RepairPolicy (e.g. repair=RepairPolicy()), not "
            f"{type(policy).__name__}."
        )
    made: dict[int, tuple[ArgumentRepair, ...]] = {}
    for index, item in enumerate(prepared):
        if type(item) is not ToolCallFailure or item.fail_reason != "invalid_arguments":
            continue
        call = calls[index]
        tool = tools.get(call.name)
        if (
            tool is None
            or call.type != "function"
            or call.truncated
            or tool.model_tool_type != "function"
        ):
            continue
        try:
            outcome = _repair_call(tool, call, item, policy, limits, tools)
        except Exception as error:  # the caller's fallback raised
            prepared[index] = Crashed(error)
            continue
        if outcome is not None:
            prepared[index], repairs = outcome
            if repairs:
                made[index] = repairs
    return made


def _repair_call(
    tool: type[ToolModel],
    call: StandardToolCall,
    failure: ToolCallFailure,
    policy: RepairPolicy,
    limits: ArgumentLimits,
    tools: Mapping[str, type[ToolModel]],
) -> tuple[Any, tuple[ArgumentRepair, ...]] | None:
    """(the new prepared item, the repairs made), or None to keep `failure`."""
    answer: tuple[Any, tuple[ArgumentRepair, ...]] | None = None
    raw = call.input
    if (isinstance(failure.exception, pydantic.ValidationError) or _is_string(raw)) and not (
        isinstance(raw, str) and len(raw) > limits.max_chars  # never parse what breaks a limit
    ):
        arguments, repairs = _parsed(call.input, policy)
        if isinstance(arguments, _Glued):
            answer = (_glued_failure(call, arguments.count), ())
        else:
            if arguments is not None and policy.decode_strings:
                arguments = _decode_values(arguments, tool.model_json_schema(), repairs)
            if repairs and arguments is not None:
                item = prepare(tool, _with_input(call, arguments), limits, tools)
                if not isinstance(item, ToolCallFailure):
                    return item, tuple(repairs)
    if policy.fallback is None:
        return answer
    fixed: object = policy.fallback(call, failure if answer is None else answer[0])
    if fixed is None:
        return answer
    if not isinstance(fixed, Mapping | str):  # else it would quietly stay refused
        raise TypeError(
            f"RepairPolicy's fallback returned a {type(fixed).__name__} for call "
            f"{call.id!r} to {call.name!r}; return the new arguments (a dict, or JSON "
            "text), or None to leave the call refused."
        )
    item = prepare(tool, _with_input(call, fixed), limits, tools)
    if isinstance(item, ToolCallFailure):
        return answer
    return item, (ArgumentRepair("repair_function"),)


def _is_string(raw: object) -> bool:
    return isinstance(raw, str) and raw.lstrip()[:1] == '"'


class _Glued:
    __slots__ = ("count",)

    def __init__(self, count: int) -> None:
        self.count = count


def _parsed(
    raw: object, policy: RepairPolicy
) -> tuple[dict[str, Any] | _Glued | None, list[ArgumentRepair]]:
    """The call's arguments as a dict (unwrapped, glued duplicates dropped, as `policy`
    allows), with the repairs that took; None when they are no object."""
    repairs: list[ArgumentRepair] = []
    if isinstance(raw, Mapping):  # the SDK response's own: decoding must not change it
        return copy_json(dict(cast("Mapping[str, Any]", raw))), repairs
    if not isinstance(raw, str):
        return None, repairs
    objects = _json_values(raw)
    if objects is None:
        return None, repairs
    if len(objects) > 1:
        if not policy.glued or not all(isinstance(o, dict) for o in objects):
            return None, repairs
        if any(o != objects[0] for o in objects[1:]):
            return _Glued(len(objects)), repairs
        repairs.append(ArgumentRepair("glued_duplicate"))
    value: Any = objects[0]
    if isinstance(value, str) and policy.unwrap:
        inner = _json_values(value)
        if inner is not None and len(inner) == 1 and isinstance(inner[0], dict):
            repairs.append(ArgumentRepair("unwrapped_arguments"))
            value = cast("Any", inner[0])
    if not isinstance(value, dict):
        return None, repairs
    return cast("dict[str, Any]", value), repairs


def _json_values(text: str) -> list[Any] | None:
    """The JSON values `text` holds one after the other (whitespace between), or None
    when it is not such a sequence."""
    decode = _DECODER.raw_decode
    values: list[Any] = []
    end = len(text)
    at = _skip_space(text, 0)
    try:
        while at < end:
            value, at = decode(text, at)
            values.append(value)
            at = _skip_space(text, at)
    except (ValueError, RecursionError):
        return None
    return values or None


_DECODER = json.JSONDecoder()


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\n\r":
        at += 1
    return at


def _decode_values(
    arguments: dict[str, Any], schema: dict[str, Any], repairs: list[ArgumentRepair]
) -> dict[str, Any]:
    """`arguments` with each JSON-text value decoded where `schema` wants an object or
    array there and takes no text (recorded in `repairs`). Walks without recursion."""
    definitions = cast("dict[str, Any]", schema.get("$defs", {}))
    root: list[Any] = [arguments]
    # (the container, the key or index in it, the schema of that value, its path)
    stack: list[tuple[Any, Any, dict[str, Any], str]] = [(root, 0, schema, "$")]
    while stack:
        holder, key, node, path = stack.pop()
        options = _options(node, definitions)
        value: Any = holder[key]
        if isinstance(value, str) and _wants_container(options):
            decoded = _json_values(value)
            if decoded is not None and len(decoded) == 1:
                kinds = _kinds(options)
                found: Any = decoded[0]
                if (isinstance(found, dict) and "object" in kinds) or (
                    isinstance(found, list) and "array" in kinds
                ):
                    holder[key] = value = cast("Any", found)
                    repairs.append(ArgumentRepair("decoded_string", path))
        if isinstance(value, dict):
            fields = cast("dict[str, Any]", value)
            for name in reversed(fields):  # popped in argument order
                child = _child_schema(options, name)
                if child is not None:
                    stack.append((fields, name, child, _key_path(path, name)))
        elif isinstance(value, list):
            items = cast("list[Any]", value)
            for index in reversed(range(len(items))):
                child = _child_schema(options, index)
                if child is not None:
                    stack.append((items, index, child, f"{path}[{index}]"))
    return cast("dict[str, Any]", root[0])


def _options(node: dict[str, Any], definitions: dict[str, Any]) -> list[dict[str, Any]]:
    """The schemas a value at `node` may match: its `anyOf`/`oneOf` branches (and
    `allOf` parts), with `$ref`s resolved."""
    out: list[dict[str, Any]] = []
    pending = [node]
    seen = 0
    while pending and seen < 64:  # a bounded walk, whatever the schema
        seen += 1
        current = pending.pop()
        ref = current.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = definitions.get(ref[len("#/$defs/") :])
            if isinstance(target, dict):
                pending.append(cast("dict[str, Any]", target))
            continue
        branches = [
            cast("dict[str, Any]", b)
            for word in ("anyOf", "oneOf", "allOf")
            for b in cast("list[Any]", current.get(word, []))
            if isinstance(b, dict)
        ]
        if branches:
            pending.extend(branches)
        else:
            out.append(current)
    return out


def _kinds(options: list[dict[str, Any]]) -> set[str]:
    kinds: set[str] = set()
    for option in options:
        kind = option.get("type")
        if isinstance(kind, str):
            kinds.add(kind)
        elif isinstance(kind, list):
            kinds.update(k for k in cast("list[Any]", kind) if isinstance(k, str))
        elif "properties" in option:
            kinds.add("object")
        elif "items" in option or "prefixItems" in option:
            kinds.add("array")
        else:  # no type: anything, text too
            kinds.add("string")
    return kinds


def _wants_container(options: list[dict[str, Any]]) -> bool:
    kinds = _kinds(options)
    return "string" not in kinds and ("object" in kinds or "array" in kinds)


def _child_schema(options: list[dict[str, Any]], key: str | int) -> dict[str, Any] | None:
    """The schema of one member (a property name, or an array index) in the first option
    that describes it: listed (`properties`, `prefixItems`), else the rest's
    (`additionalProperties`, `items`)."""
    listed_in, rest_in = ("properties", "additionalProperties") if isinstance(key, str) else ("prefixItems", "items")  # fmt: skip
    for option in options:
        listed: Any = option.get(listed_in)
        if isinstance(key, str):
            found = isinstance(listed, dict) and key in listed
        else:
            found = isinstance(listed, list) and key < len(cast("list[Any]", listed))
        if found:
            child: Any = cast("Any", listed)[key]
            return cast("dict[str, Any]", child) if isinstance(child, dict) else None
        rest: Any = option.get(rest_in)
        if isinstance(rest, dict):
            return cast("dict[str, Any]", rest)
    return None


def _key_path(path: str, name: str) -> str:
    if name.isidentifier():
        return f"{path}.{name}"
    return f"{path}[{json.dumps(name, ensure_ascii=False)}]"


def _with_input(call: StandardToolCall, arguments: Mapping[str, Any] | str) -> StandardToolCall:
    return StandardToolCall(call.type, call.id, call.name, arguments, call.synthesized_id)


def _glued_failure(call: StandardToolCall, count: int) -> ToolCallFailure:
    text = _feedback.glued_objects(call.name, count)
    return ToolCallFailure(
        call.id,
        call.name,
        text,
        "invalid_arguments",
        ErrorForLLMToSee(text),
        call.type,
        call.synthesized_id,
    )
