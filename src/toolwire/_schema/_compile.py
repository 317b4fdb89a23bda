"""`compile_schema`: one tool's parameters schema, adapted to one API, with its report."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolwire._api import API_ENTRIES, Api, check_api
from toolwire.exceptions import SchemaError

from ._events import Event, record
from ._profile import Profile
from ._report import SchemaChange, SchemaReport
from ._shapes import Json, as_map, def_name, is_map
from ._walk import Walker

__all__ = ["CompiledSchema", "compile_schema", "profile_for"]


@dataclass(frozen=True, slots=True)
class CompiledSchema:
    """A schema ready for one API, and the report of what compiling it changed.

    `schema` may share nested objects with other compilations' inputs; never mutate it (the
    tool class hands out deep copies).
    """

    schema: dict[str, Any]
    report: SchemaReport


def profile_for(api: Api, strict: bool) -> Profile:
    """The rules toolwire applies for `api` in strict or non-strict mode: those its
    registry entry names (`schema_rules`, in one of this package's rules modules)."""
    module, function = API_ENTRIES[check_api(api)].schema_rules.split(":")
    rules = getattr(importlib.import_module(f"toolwire._schema.{module}"), function)
    return rules(strict)


def compile_schema(
    schema: Mapping[str, Any],
    api: Api,
    *,
    strict: bool,
    custom: bool = False,
    unchecked: Callable[[str, Json], str | None] | None = None,
) -> CompiledSchema:
    """Adapt a tool's parameters schema to what `api` takes, recording every change.

    `schema` is pydantic's ``model_json_schema()`` with the root ``title`` and ``description``
    removed (``custom=False``), or a user's custom JSON schema (``custom=True``), which is sent
    as given unless `strict` is set; Gemini still restricts it to the keywords it takes.

    `unchecked(keyword, value)` says why the tool's own validation does not check a
    constraint (None when it does), for the report of a constraint the API drops: a
    server's schema checked before the call, where some formats and patterns are left to
    the server. Without it, every constraint is taken to be checked (pydantic's).

    Raises `SchemaError` naming the field and the way out when the schema cannot be expressed
    for `api` (e.g. a field typed ``Any`` in strict mode). Pure and deterministic: the input is
    never mutated, and equal inputs give equal outputs.
    """
    profile = profile_for(api, strict)
    if custom and not strict and not profile.restricts_custom:
        return CompiledSchema(copy.deepcopy(dict(schema)), SchemaReport(profile.api, strict, ()))
    defs = as_map(schema.get("$defs"))
    walker = Walker(profile, schema, custom=custom, unchecked=unchecked)
    events: list[Event] = []
    root, owner = _root(schema, defs, custom, walker, events)
    out = walker.node(root, "", events, owner, root=True)
    if not is_map(out) or (profile.allowed is not None and out.get("type") != "object"):
        raise walker.fail(
            "",
            f"is not an object schema; {profile.api} takes an object of named arguments at "
            "the root (a root-level union or scalar cannot be sent)",
            "make the tool a model whose fields are the arguments (wrap a union in a field), "
            "or give a custom JSON schema with type object",
        )
    compiled = dict(out)
    compiled_defs = walker.defs_out()
    if compiled_defs:
        compiled = {"$defs": compiled_defs, **compiled}
    changes: list[SchemaChange] = walker.changes(
        events, frozenset({owner}) if owner is not None else frozenset()
    )
    return CompiledSchema(compiled, SchemaReport(profile.api, strict, tuple(changes)))


def _root(
    schema: Mapping[str, Any],
    defs: Mapping[str, Any],
    custom: bool,
    walker: Walker,
    events: list[Event],
) -> tuple[dict[str, Json], str | None]:
    """The root object to walk, and the definition it stands for when it is a reference.

    Pydantic writes a recursive model as ``{"$ref": "#/$defs/Node", "$defs": ...}``. Every API
    wants an object at the root, so the definition is written there (its own title and
    docstring dropped, like any root's: the tool's description carries the docstring).
    """
    root: dict[str, Json] = {key: value for key, value in schema.items() if key != "$defs"}
    owner: str | None = None
    name = def_name(root.get("$ref"))
    if name is not None and name in defs:
        body = as_map(defs[name])
        siblings = {key: value for key, value in root.items() if key != "$ref"}
        if not custom:
            body = {k: v for k, v in body.items() if k not in ("title", "description")}
        root = {**body, **siblings}
        owner = name
        record(
            events,
            "",
            "$ref",
            "inlined",
            f"the root referred to {name} (a recursive model); {name}'s schema is written at "
            "the root, because the API wants an object there",
            lossy=False,
        )
    if (
        walker.profile.allowed is not None
        and root.get("type") == "object"
        and "properties" not in root
    ):
        root = {**root, "properties": {}}
    if "$ref" in root:
        raise SchemaError(
            f"Cannot build the {walker.profile.api} schema: the root refers to "
            f"{root['$ref']!r}, which is not under the root's $defs. Way out: put the "
            "definition under $defs."
        )
    return root, owner
