"""The one schema walker: applies a `Profile` to a JSON schema and records every change.

It builds a new schema (the input is never touched), keyword by keyword in the input's order,
so a schema the API takes as is comes out equal to the input. Definitions (``$defs``) are
compiled once, on first use; their changes are recorded relative to the definition and expanded
at every place the definition is used, so the report names field paths from the root
(``inner.weight``), not ``$defs`` paths. Errors name the path of the first use.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.exceptions import SchemaError

from ._encodings import pairs, tuple_object
from ._events import Event, NodeSite, Notes, RefSite, record
from ._keywords import (
    ANNOTATIONS,
    CONSTRAINTS,
    MISSING,
    NULL,
    TYPED,
    constraint_is_lossy,
    single_value,
)
from ._profile import Profile
from ._report import SchemaChange
from ._rewrites import rewrite
from ._shapes import (
    Json,
    JsonMap,
    accepts_null,
    all_refs,
    as_list,
    as_map,
    def_name,
    discriminator_tags,
    is_dict_schema,
    is_map,
    join_path,
    reachable_defs,
    refs_in,
)
from ._words import compose_description, constraint_phrase, json_text

__all__ = ["Walker"]


class Walker:
    """Compiles one schema under one profile. Single use: make one per compilation."""

    def __init__(
        self,
        profile: Profile,
        schema: JsonMap,
        *,
        custom: bool,
        unchecked: Callable[[str, Json], str | None] | None = None,
    ) -> None:
        defs = as_map(schema.get("$defs"))
        self.profile = profile
        self.defs = defs
        self.custom = custom
        self.unchecked = unchecked
        """Why the tool's validation does not check a constraint (see `compile_schema`)."""
        self._compiled: dict[str, Json] = {}
        self._def_events: dict[str, list[Event]] = {}
        self._in_progress: set[str] = set()
        self._referenced: set[str] = set()
        self._prefix = ""
        self._reach = reachable_defs(defs) if profile.recursion_only_optional else {}
        self._cyclic = frozenset(name for name, reach in self._reach.items() if name in reach)
        self._tags = discriminator_tags(schema) if profile.require_tags else {}

    # ------------------------------------------------------------------ results

    def defs_out(self) -> dict[str, Json]:
        """The compiled definitions still referenced by the output, in the input's order."""
        return {
            name: self._compiled[name]
            for name in self.defs
            if name in self._referenced and name in self._compiled
        }

    def changes(self, events: list[Event], stack: frozenset[str]) -> list[SchemaChange]:
        """The report's changes: definition changes expanded at every use, recursion once."""
        found: list[SchemaChange] = []
        self._expand(events, "", stack, found)
        return found

    def _expand(
        self, events: list[Event], prefix: str, stack: frozenset[str], found: list[SchemaChange]
    ) -> None:
        for event in events:
            if isinstance(event, RefSite):
                if event.name not in stack:
                    start = len(found)
                    self._expand(
                        self._def_events[event.name],
                        join_path(prefix, event.path),
                        stack | {event.name},
                        found,
                    )
                    if event.branch:
                        found[start:] = [
                            SchemaChange(
                                c.path,
                                c.keyword,
                                c.action,
                                f"(in the {event.name} branch) {c.detail}",
                                c.lossy,
                            )
                            for c in found[start:]
                        ]
            else:
                path = join_path(prefix, event.path)
                found.append(
                    event
                    if path == event.path
                    else SchemaChange(path, event.keyword, event.action, event.detail, event.lossy)
                )

    # ------------------------------------------------------------------ errors

    def fail(self, path: str, why: str, way_out: str) -> SchemaError:
        """A `SchemaError` naming the field (from the root), the reason and the way out."""
        where = join_path(self._prefix, path) or "(root)"
        mode = "strict" if self.profile.strict else "non-strict"
        return SchemaError(
            f"Cannot build the {self.profile.api} ({mode}) schema: field {where!r} {why}. "
            f"Way out: {way_out}."
        )

    # ------------------------------------------------------------------ nodes

    def node(
        self,
        schema: Json,
        path: str,
        events: list[Event],
        owner: str | None,
        *,
        nullable: bool = False,
        default_text: str | None = None,
        root: bool = False,
    ) -> Json:
        """Compile one schema node.

        `owner` is the definition the node sits in (recursion rules). `nullable` wraps the
        result in ``anyOf [..., null]`` (a field made required). `default_text`, when given,
        means the caller already reported the field's default: it is dropped and the text
        (may be empty) goes into the description.
        """
        if not is_map(schema):
            if self.profile.allowed is None:
                return schema  # kept as pydantic (or the user) wrote it
            if schema is not True:
                raise self.fail(path, "has a boolean schema", "use a schema object")
            schema = {}
        notes = Notes()
        if default_text:
            notes.notes.append(default_text)
        schema = rewrite(self, schema, path, events, notes)
        at = NodeSite(path, events, owner, notes, default_text)
        if "$ref" in schema:
            return self._ref(schema, at, nullable)
        profile = self.profile
        if not root and profile.dicts_as_pairs and is_dict_schema(schema):
            out = pairs(self, schema, at)
        elif not root and profile.tuples_as_objects and "prefixItems" in schema:
            out = tuple_object(self, schema, at)
        else:
            out = self.keywords(schema, at)
        self._describe(out, notes, out.get("description"))
        if profile.typed_schemas and not any(keyword in out for keyword in TYPED):
            raise self.fail(
                path,
                "accepts any value (a field typed Any, or a list or dict of Any), which "
                f"{profile.api} strict mode cannot express",
                "give it a concrete type, or set model_tool_strict = False",
            )
        if nullable:
            return self._nullable(out)
        return out

    def _describe(self, out: dict[str, Json], notes: Notes, base: Json) -> None:
        if notes.empty:
            return
        text = compose_description(
            base if isinstance(base, str) else None, notes.constraints, notes.notes
        )
        out["description"] = text

    @staticmethod
    def _nullable(out: dict[str, Json]) -> dict[str, Json]:
        notes = {key: value for key, value in out.items() if key in ANNOTATIONS}
        core = {key: value for key, value in out.items() if key not in ANNOTATIONS}
        if list(core) == ["anyOf"]:
            wrapped: dict[str, Json] = {"anyOf": [*as_list(core["anyOf"]), NULL]}
        else:
            wrapped = {"anyOf": [core, NULL]}
        wrapped.update(notes)
        return wrapped

    # ------------------------------------------------------------------ $ref

    def _ref(self, schema: JsonMap, at: NodeSite, nullable: bool) -> Json:
        path, events, _, notes, _ = at
        ref = schema["$ref"]
        name = def_name(ref)
        profile = self.profile
        if name is None or name not in self.defs:
            if profile.allowed is None:
                return dict(schema)
            raise self.fail(
                path,
                f"refers to {ref!r}, which is not a definition under the root's $defs",
                "put the schema under the root's $defs and refer to it as #/$defs/<name>",
            )
        self._compile_def(name, path)
        siblings = {key: value for key, value in schema.items() if key != "$ref"}
        out = self.keywords(siblings, at)
        dollar = {k: v for k, v in out.items() if k.startswith("$")}
        plain = {k: v for k, v in out.items() if not k.startswith("$")}
        site = RefSite(path, name)
        if nullable:
            self._describe(plain, notes, plain.get("description"))
            self._referenced.add(name)
            events.append(site)
            return self._nullable({"$ref": ref, **dollar, **plain})
        if not profile.bare_refs or (not plain and notes.empty):
            self._describe(out, notes, out.get("description"))
            self._referenced.add(name)
            events.append(site)
            return {"$ref": ref, **out}
        keys = ", ".join(sorted(key for key in siblings if not key.startswith("$")))
        if name in self._in_progress:
            self._describe(plain, notes, plain.get("description"))
            self._referenced.add(name)
            record(
                events,
                path,
                "$ref",
                "rewritten",
                f"the reference to {name} had sibling keywords ({keys}), which "
                f"{profile.api} does not take next to $ref; {name} refers to itself, so the "
                "reference is wrapped in a one-branch anyOf that carries them",
                lossy=False,
            )
            events.append(site)
            return {"anyOf": [{"$ref": ref, **dollar}], **plain}
        body = as_map(self._compiled[name])
        merged = dict(body)
        merged.update(plain)
        base = plain.get("description", body.get("description"))
        self._describe(merged, notes, base)
        record(
            events,
            path,
            "$ref",
            "inlined",
            f"the reference to {name} had sibling keywords ({keys}), which {profile.api} "
            f"does not take next to $ref: {name}'s schema is written here, with them",
            lossy=False,
        )
        events.append(site)
        return merged

    def _compile_def(self, name: str, site: str) -> None:
        if name in self._compiled or name in self._in_progress:
            return
        self._in_progress.add(name)
        saved = self._prefix
        self._prefix = join_path(saved, site)
        events: list[Event] = []
        self._def_events[name] = events
        try:
            self._compiled[name] = self.node(self.defs[name], "", events, name)
        finally:
            self._prefix = saved
            self._in_progress.discard(name)

    # ------------------------------------------------------------------ keyword walk

    def keywords(self, schema: JsonMap, at: NodeSite) -> dict[str, Json]:
        path, events, owner, notes, default_text = at
        profile = self.profile
        out: dict[str, Json] = {}
        self._report_closing(schema, path, events)
        required_out: list[str] | None = None
        for key, value in schema.items():
            if key == "$defs":
                if profile.allowed is None:
                    out[key] = value
                    continue
                raise self.fail(
                    path,
                    "has its own $defs; definitions are only allowed at the root",
                    "move the definitions to the root's $defs",
                )
            elif key == "default":
                self._default(value, path, events, notes, default_text, out)
            elif key == "properties":
                out[key], required_out = self._properties(schema, path, events, owner)
            elif key == "required":
                out[key] = list(as_list(value))
            elif key == "additionalProperties":
                self._additional(schema, value, path, events, owner, out)
            elif key == "items":
                out[key] = (
                    self.node(value, join_path(path, "[]"), events, owner)
                    if is_map(value) or value is True
                    else value
                )
            elif key == "prefixItems":
                out[key] = [
                    self.node(item, join_path(path, f"[{index}]"), events, owner)
                    for index, item in enumerate(as_list(value))
                ]
            elif key in ("anyOf", "oneOf", "allOf"):
                self._branches(schema, key, as_list(value), path, events, owner, out)
            elif key == "discriminator":
                self._discriminator(schema, value, path, events, out)
            elif key in ("enum", "const", "type", "title", "description"):
                out[key] = value
            elif key in CONSTRAINTS:
                self.constraint(schema, key, value, at, out)
            elif profile.takes(key):
                self._keep(key, value, path, events, out)
            else:
                self._drop(key, value, path, events, notes)
        self._object_rules(schema, out, required_out)
        return out

    def _keep(
        self, key: str, value: Json, path: str, events: list[Event], out: dict[str, Json]
    ) -> None:
        """Keep `value` as written; the definitions it refers to stay in the output.

        Pydantic puts references in keywords toolwire does not walk (``propertyNames`` of a
        ``dict[SomeEnum, X]``, ``contentSchema`` of a ``Json[Model]``, the values of a
        ``patternProperties``): dropping their definitions would send a dangling ``$ref``.
        """
        out[key] = value
        if not isinstance(value, dict | list):
            return
        for name in sorted(all_refs(value)):
            if name in self.defs:
                self._compile_def(name, path)
                self._referenced.add(name)
                events.append(RefSite(path, name))

    def _default(
        self,
        value: Json,
        path: str,
        events: list[Event],
        notes: Notes,
        default_text: str | None,
        out: dict[str, Json],
    ) -> None:
        if default_text is not None:
            return  # the field's caller reported it; node() put its text in the notes
        if self.profile.takes("default"):
            out["default"] = value
            return
        if value is None:
            record(
                events,
                path,
                "default",
                "removed",
                "the default null is not sent; leaving the field out still gives None",
                lossy=False,
            )
            return
        notes.notes.append(f"Default: {json_text(value)}.")
        record(
            events,
            path,
            "default",
            "moved_to_description",
            f"the default {json_text(value)} is stated in the description; leaving the field "
            "out still gives it",
            lossy=False,
        )

    def _properties(
        self, schema: JsonMap, path: str, events: list[Event], owner: str | None
    ) -> tuple[dict[str, Json], list[str]]:
        """The compiled properties, and the names required in the output, in order."""
        profile = self.profile
        required = set(as_list(schema.get("required")))
        no_tags: frozenset[str] = frozenset()
        tags = self._tags.get(owner, no_tags) if owner is not None else no_tags
        out: dict[str, Json] = {}
        required_out: list[str] = []
        for name, prop in as_map(schema.get("properties")).items():
            where = join_path(path, name)
            recursive = profile.recursion_only_optional and self._recursive(owner, prop)
            if name in required and recursive:
                raise self.fail(
                    where,
                    f"is required and refers back to its own model; {profile.api} takes "
                    "recursive references only in properties that are not required (a "
                    "nullable but required field is not enough)",
                    "give the field a default (e.g. `= []`, `= None`) so it is optional",
                )
            if name in required:
                out[name] = self.node(prop, where, events, owner)
            elif name in tags and profile.require_tags:
                out[name] = self._required_tag(prop, where, events, owner)
            elif not profile.require_all:
                out[name] = self.node(prop, where, events, owner)
                continue
            elif recursive:
                record(
                    events,
                    where,
                    "required",
                    "kept_optional",
                    f"left optional although strict: {profile.api} takes recursive "
                    "references only in properties that are not required; leaving it out "
                    "still gives its default",
                    lossy=False,
                )
                out[name] = self.node(prop, where, events, owner)
                continue
            else:
                out[name] = self._required_optional(prop, where, events, owner)
            required_out.append(name)
        return out, required_out

    def _required_tag(self, prop: Json, path: str, events: list[Event], owner: str | None) -> Json:
        """A discriminated union's tag with a default becomes required, never nullable.

        Where ``oneOf`` is read as ``anyOf``, only a required tag keeps the branches apart,
        and pydantic needs the tag to pick the branch: leaving it out (or a null) would fail.
        """
        default = as_map(prop).get("default", MISSING)
        shown = "" if default is MISSING else f" (leaving it out gave {json_text(default)})"
        why = f"the tag of a discriminated union is now required{shown}, so the union's "
        return self._now_required(prop, path, events, owner, why + "branches stay apart")

    def _now_required(
        self, prop: Json, path: str, events: list[Event], owner: str | None, why: str
    ) -> Json:
        """`prop` made required with nothing else changed (its value is still needed)."""
        record(events, path, "required", "made_required", why, lossy=False)
        return self.node(prop, path, events, owner, default_text="")

    def _recursive(self, owner: str | None, prop: Json) -> bool:
        """Whether `prop`, a property of definition `owner`, leads back to `owner`."""
        if owner is None or owner not in self._cyclic:
            return False
        return any(
            target == owner or owner in self._reach.get(target, frozenset())
            for target in refs_in(prop)
        )

    def _required_optional(
        self, prop: Json, path: str, events: list[Event], owner: str | None
    ) -> Json:
        """Strict mode: an optional field becomes required, nullable where it needs to be."""
        schema = as_map(prop)
        default = schema.get("default", MISSING)
        only = single_value(schema)
        if only is not MISSING and default is not MISSING and only == default:
            why = f"it can only be {json_text(only)}, its default: now required, so the model "
            return self._now_required(prop, path, events, owner, why + "sends that value")
        if accepts_null(prop, self.defs):
            if default is MISSING or default is None:
                text = ""
                detail = "now required; null means None, as leaving it out did"
            else:
                text = f"Default: {json_text(default)}."
                detail = (
                    f"now required; null still means None, so to get the default "
                    f"{json_text(default)} the model sends it (the description states it)"
                )
            record(events, path, "required", "made_required", detail, lossy=False)
            return self.node(prop, path, events, owner, default_text=text)
        if default is MISSING:
            text = "Send null to use the default."
            shown = "its default"
        else:
            text = f"Send null to use the default ({json_text(default)})."
            shown = f"the default {json_text(default)}"
        record(
            events,
            path,
            "required",
            "made_required_nullable",
            f"now required and nullable; toolwire turns a null into {shown}",
            lossy=False,
        )
        return self.node(prop, path, events, owner, nullable=True, default_text=text)

    def _additional(
        self,
        schema: JsonMap,
        value: Json,
        path: str,
        events: list[Event],
        owner: str | None,
        out: dict[str, Json],
    ) -> None:
        if not is_dict_schema(schema) and self.profile.close_objects:
            return  # _object_rules closes it and reports what was open
        if is_map(value):
            out["additionalProperties"] = self.node(value, join_path(path, "{}"), events, owner)
        else:
            out["additionalProperties"] = value

    def _object_rules(
        self, schema: JsonMap, out: dict[str, Json], required_out: list[str] | None
    ) -> None:
        if required_out is not None and set(required_out) != set(as_list(schema.get("required"))):
            out["required"] = required_out
        if "properties" in schema and self.profile.close_objects:
            out["additionalProperties"] = False

    def _report_closing(self, schema: JsonMap, path: str, events: list[Event]) -> None:
        if "properties" not in schema or not self.profile.close_objects:
            return
        before = schema.get("additionalProperties", MISSING)
        if before is False:
            return
        if before is MISSING:
            record(
                events,
                path,
                "additionalProperties",
                "closed",
                "keys not listed are refused (strict mode closes every object)"
                + ("" if self.custom else "; pydantic ignored them anyway"),
                lossy=False,
            )
            return
        record(
            events,
            path,
            "additionalProperties",
            "closed",
            "the model accepted extra keys (extra='allow'), which strict mode cannot send: "
            "only the listed keys remain",
            lossy=True,
        )

    def _branches(
        self,
        schema: JsonMap,
        key: str,
        branches: list[Json],
        path: str,
        events: list[Event],
        owner: str | None,
        out: dict[str, Json],
    ) -> None:
        if key == "oneOf" and self.profile.one_of_as_any_of:
            tagged = "discriminator" in schema
            detail = "oneOf is written as anyOf" + (
                " and its discriminator removed: the branches' tags keep them apart"
                if tagged
                else f"; {self.profile.api} does not take oneOf, and a value matching "
                "several branches is now accepted by the API (toolwire's validation decides)"
            )
            record(events, path, "oneOf", "rewritten", detail, lossy=not tagged)
            out_key = "anyOf"
        else:
            out_key = key
        compiled: list[Json] = []
        several = sum(as_map(branch).get("type") != "null" for branch in branches) > 1
        for branch in branches:
            start = len(events)
            compiled.append(self.node(branch, path, events, owner))
            if several:
                events[start:] = [
                    event._replace(branch=True)
                    if isinstance(event, RefSite) and event.path == path
                    else event
                    for event in events[start:]
                ]
        out[out_key] = compiled

    def _discriminator(
        self,
        schema: JsonMap,
        value: Json,
        path: str,
        events: list[Event],
        out: dict[str, Json],
    ) -> None:
        profile = self.profile
        if profile.one_of_as_any_of and "oneOf" in schema:
            return  # reported with the oneOf rewrite
        if profile.takes("discriminator"):
            out["discriminator"] = value
            return
        record(
            events,
            path,
            "discriminator",
            "removed",
            f"{profile.api} does not take discriminator; the branches' tags keep them apart",
            lossy=False,
        )

    def constraint(
        self, schema: JsonMap, key: str, value: Json, at: NodeSite, out: dict[str, Json]
    ) -> None:
        path, events, _, notes, _ = at
        profile = self.profile
        kept = profile.takes(key)
        if kept and key == "format" and profile.formats is not None:
            kept = value in profile.formats
        if kept and key == "minItems" and profile.min_items_values is not None:
            kept = value in profile.min_items_values
        if kept:
            self._keep(key, value, path, events, out)
            return
        if key == "patternProperties":
            self._drop(key, value, path, events, notes)
            return
        phrase = constraint_phrase(key, self._readable(value))
        lossy = constraint_is_lossy(schema, key, value)
        notes.constrain(key, phrase)
        api = profile.api
        if key == "format" and profile.takes(key):
            why = f"{api} does not take the format {json_text(value)}"
        elif key == "minItems" and profile.takes(key):
            why = f"{api} takes minItems of 0 or 1 only"
        else:
            why = f"{api} does not take {key}"
        left = None if self.unchecked is None or not lossy else self.unchecked(key, value)
        if left is not None:
            effect = f"the API no longer enforces it, and {left}"
        elif lossy:
            effect = "the API no longer enforces it, toolwire's validation still does"
        elif key == "uniqueItems":
            effect = "nothing is lost: pydantic writes uniqueItems for sets, which merge duplicates"
        else:
            effect = "nothing is lost"
        record(
            events,
            path,
            key,
            "moved_to_description",
            f"{phrase}: {why}, so it is stated in the description; {effect}",
            lossy=lossy,
        )

    def _readable(self, value: Json, seen: set[str] | None = None) -> Json:
        """`value` with its references written out (each definition once), for words the
        model reads: a pointer means nothing in prose, and its definition may not be in
        the output at all."""
        seen = set() if seen is None else seen
        if is_map(value):
            name = def_name(value.get("$ref"))
            if name is not None and name in self.defs and name not in seen:
                seen.add(name)
                body = {k: v for k, v in as_map(self.defs[name]).items() if k not in ANNOTATIONS}
                rest = {k: v for k, v in value.items() if k != "$ref"}
                return self._readable({**body, **rest}, seen)
            return {key: self._readable(item, seen) for key, item in value.items()}
        items = as_list(value)
        return [self._readable(item, seen) for item in items] if items else value

    def _drop(self, key: str, value: Json, path: str, events: list[Event], notes: Notes) -> None:
        api = self.profile.api
        if key == "examples":
            shown = ", ".join(json_text(v) for v in as_list(value)) or json_text(value)
            notes.notes.append(f"Examples: {shown}.")
            record(
                events,
                path,
                key,
                "moved_to_description",
                f"{api} does not take examples; they are listed in the description",
                lossy=False,
            )
        elif key == "deprecated":
            if value:
                notes.notes.append("Deprecated.")
            record(
                events,
                path,
                key,
                "moved_to_description",
                f"{api} does not take deprecated; the description says it",
                lossy=False,
            )
        elif key in ANNOTATIONS or key.startswith("x-"):  # "x-": extensions, by convention
            record(
                events,
                path,
                key,
                "removed",
                f"{api} does not take {key}, an annotation that does not restrict values",
                lossy=False,
            )
        else:
            phrase = constraint_phrase(key, self._readable(value))
            notes.constrain(key, phrase)
            record(
                events,
                path,
                key,
                "moved_to_description",
                f"{api} does not take {key}; it is stated in the description and no longer "
                "enforced by the API (toolwire's validation still applies)",
                lossy=True,
            )

    # ------------------------------------------------------------------ encodings
