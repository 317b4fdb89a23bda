"""Reports and compiled schemas for representative models, compared whole."""

from __future__ import annotations

import pytest
from inline_snapshot import snapshot
from pydantic import BaseModel, ConfigDict

from toolwire._api import API_NAMES
from toolwire._schema import ACTIONS, SchemaChange, SchemaReport, compile_schema
from toolwire.exceptions import UnknownApiError

from ._models import CASES, Constrained, Defaults, Dicts, Discriminated, Nested, TreeNode, Tuples
from .test_schema_battery import COMBOS, compiled_or_none, tool_schema


def test_strict_openai_defaults_schema() -> None:
    """Defaults become required and nullable, with the default stated, on OpenAI strict."""
    compiled = compile_schema(tool_schema(Defaults), "chat.completions", strict=True)
    assert compiled.schema == snapshot(
        {
            "$defs": {"Unit": {"enum": ["c", "f"], "title": "Unit", "type": "string"}},
            "properties": {
                "count": {
                    "anyOf": [{"type": "integer"}, {"type": "null"}],
                    "title": "Count",
                    "description": "Send null to use the default (3).",
                },
                "label": {
                    "anyOf": [{"type": "string"}, {"type": "null"}],
                    "title": "Label",
                    "description": 'Send null to use the default ("x").',
                },
                "ratio": {
                    "anyOf": [{"type": "number"}, {"type": "null"}],
                    "title": "Ratio",
                    "description": "Send null to use the default (0.5).",
                },
                "flags": {
                    "anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}],
                    "title": "Flags",
                    "description": "Send null to use the default ([]).",
                },
                "ids": {
                    "anyOf": [{"items": {"type": "integer"}, "type": "array"}, {"type": "null"}],
                    "title": "Ids",
                    "description": "Send null to use the default.",
                },
                "unit": {
                    "anyOf": [{"$ref": "#/$defs/Unit"}, {"type": "null"}],
                    "description": 'Send null to use the default ("c").',
                },
                "active": {
                    "anyOf": [{"type": "boolean"}, {"type": "null"}],
                    "title": "Active",
                    "description": "Send null to use the default (true).",
                },
            },
            "type": "object",
            "required": ["count", "label", "ratio", "flags", "ids", "unit", "active"],
            "additionalProperties": False,
        }
    )


def test_strict_openai_defaults_report() -> None:
    """The report lists each defaulted field, the closed root, and calls it lossless."""
    report = compile_schema(tool_schema(Defaults), "chat.completions", strict=True).report
    assert str(report) == snapshot("""\
Schema report for chat.completions (strict): 8 changes, lossless.
- (root): additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway
- count: required made_required_nullable: now required and nullable; toolwire turns a null into the default 3
- label: required made_required_nullable: now required and nullable; toolwire turns a null into the default "x"
- ratio: required made_required_nullable: now required and nullable; toolwire turns a null into the default 0.5
- flags: required made_required_nullable: now required and nullable; toolwire turns a null into the default []
- ids: required made_required_nullable: now required and nullable; toolwire turns a null into its default
- unit: required made_required_nullable: now required and nullable; toolwire turns a null into the default "c"
- active: required made_required_nullable: now required and nullable; toolwire turns a null into the default true\
""")
    assert report.lossless


def test_strict_openai_nested_report_uses_field_paths() -> None:
    """Changes inside nested models are reported at field paths from the root."""
    report = compile_schema(tool_schema(Nested), "responses", strict=True).report
    assert str(report) == snapshot("""\
Schema report for responses (strict): 12 changes, lossless.
- (root): additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway
- home: $ref inlined: the reference to Address had sibling keywords (description), which responses does not take next to $ref: Address's schema is written here, with them
- home: additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway
- home.city: required made_required_nullable: now required and nullable; toolwire turns a null into the default "Paris"
- work: required made_required: now required; null means None, as leaving it out did
- work: additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway
- work.city: required made_required_nullable: now required and nullable; toolwire turns a null into the default "Paris"
- billing: required made_required_nullable: now required and nullable; toolwire turns a null into the default {"street": "1 Main St", "city": "Paris"}
- billing: additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway
- billing.city: required made_required_nullable: now required and nullable; toolwire turns a null into the default "Paris"
- plain: additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway
- plain.city: required made_required_nullable: now required and nullable; toolwire turns a null into the default "Paris"\
""")


def test_strict_openai_dicts_schema() -> None:
    """Dict fields become key/value pair lists, keys restricted like the dict's keys."""
    compiled = compile_schema(tool_schema(Dicts), "chat.completions", strict=True)
    assert compiled.schema["properties"] == snapshot(
        {
            "scores": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"key": {"type": "string"}, "value": {"type": "integer"}},
                    "required": ["key", "value"],
                    "additionalProperties": False,
                },
                "title": "Scores",
                "description": "A mapping, sent as a list of key/value pairs.",
            },
            "meta": {
                "anyOf": [
                    {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "key": {"type": "string"},
                                "value": {"$ref": "#/$defs/Item"},
                            },
                            "required": ["key", "value"],
                            "additionalProperties": False,
                        },
                    },
                    {"type": "null"},
                ],
                "title": "Meta",
                "description": "Send null to use the default ({}). A mapping, sent as a list of key/value pairs.",
            },
            "by_letter": {
                "anyOf": [
                    {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "key": {"enum": ["a", "b"]},
                                "value": {"type": "number"},
                            },
                            "required": ["key", "value"],
                            "additionalProperties": False,
                        },
                    },
                    {"type": "null"},
                ],
                "title": "By Letter",
                "description": "Send null to use the default ({}). A mapping, sent as a list of key/value pairs.",
            },
        }
    )


def test_strict_anthropic_tuples_schema() -> None:
    """Fixed tuples become item_<i> objects on Anthropic strict; variadic ones stay lists."""
    compiled = compile_schema(tool_schema(Tuples), "anthropic", strict=True)
    assert compiled.schema == snapshot(
        {
            "properties": {
                "point": {
                    "type": "object",
                    "properties": {"item_0": {"type": "number"}, "item_1": {"type": "number"}},
                    "required": ["item_0", "item_1"],
                    "additionalProperties": False,
                    "title": "Point",
                },
                "pair": {
                    "type": "object",
                    "properties": {"item_0": {"type": "integer"}, "item_1": {"type": "string"}},
                    "required": ["item_0", "item_1"],
                    "additionalProperties": False,
                    "title": "Pair",
                    "description": 'Default: [1, "a"].',
                },
                "many": {
                    "items": {"type": "integer"},
                    "title": "Many",
                    "type": "array",
                    "description": "Default: [].",
                },
            },
            "required": ["point"],
            "type": "object",
            "additionalProperties": False,
        }
    )


def test_strict_anthropic_constrained_report() -> None:
    """Every constraint Anthropic does not take is moved to the description and lossy."""
    compiled = compile_schema(tool_schema(Constrained), "anthropic", strict=True)
    assert str(compiled.report) == snapshot("""\
Schema report for anthropic (strict): 10 changes, 9 lossy.
- (root): additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway
- code: maxLength moved_to_description [lossy]: at most 5 characters: anthropic does not take maxLength, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- code: minLength moved_to_description [lossy]: at least 2 characters: anthropic does not take minLength, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- slug: pattern moved_to_description [lossy]: matches the regular expression ^[a-z]+$: anthropic does not take pattern, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- age: maximum moved_to_description [lossy]: at most 150: anthropic does not take maximum, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- age: minimum moved_to_description [lossy]: at least 0: anthropic does not take minimum, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- ratio: exclusiveMaximum moved_to_description [lossy]: less than 1: anthropic does not take exclusiveMaximum, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- ratio: exclusiveMinimum moved_to_description [lossy]: greater than 0: anthropic does not take exclusiveMinimum, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- even: multipleOf moved_to_description [lossy]: a multiple of 2: anthropic does not take multipleOf, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- picks: maxItems moved_to_description [lossy]: at most 3 items: anthropic does not take maxItems, so it is stated in the description; the API no longer enforces it, toolwire's validation still does\
""")
    assert compiled.schema["properties"]["code"] == snapshot(
        {
            "title": "Code",
            "type": "string",
            "description": "Constraints: at least 2 characters; at most 5 characters.",
        }
    )


def test_gemini_discriminated_schema() -> None:
    """Gemini keeps oneOf, drops the discriminator, writes const as enum, requires tags."""
    compiled = compile_schema(tool_schema(Discriminated), "gemini", strict=False)
    assert compiled.schema == snapshot(
        {
            "$defs": {
                "Cat": {
                    "properties": {
                        "kind": {"title": "Kind", "type": "string", "enum": ["cat"]},
                        "lives": {
                            "title": "Lives",
                            "type": "integer",
                            "description": "Default: 9.",
                        },
                    },
                    "title": "Cat",
                    "type": "object",
                    "required": ["kind"],
                },
                "Dog": {
                    "properties": {
                        "kind": {"title": "Kind", "type": "string", "enum": ["dog"]},
                        "good": {
                            "title": "Good",
                            "type": "boolean",
                            "description": "Default: true.",
                        },
                    },
                    "title": "Dog",
                    "type": "object",
                    "required": ["kind"],
                },
            },
            "properties": {
                "pet": {
                    "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
                    "title": "Pet",
                },
                "pets": {
                    "items": {"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]},
                    "title": "Pets",
                    "type": "array",
                    "description": "Default: [].",
                },
            },
            "required": ["pet"],
            "type": "object",
        }
    )
    assert str(compiled.report) == snapshot("""\
Schema report for gemini (non-strict): 15 changes, lossless.
- pet: discriminator removed: gemini does not take discriminator; the branches' tags keep them apart
- pet.kind: required made_required: (in the Cat branch) the tag of a discriminated union is now required (leaving it out gave "cat"), so the union's branches stay apart
- pet.kind: const rewritten: (in the Cat branch) const "cat" is written as a one-value enum
- pet.lives: default moved_to_description: (in the Cat branch) the default 9 is stated in the description; leaving the field out still gives it
- pet.kind: required made_required: (in the Dog branch) the tag of a discriminated union is now required (leaving it out gave "dog"), so the union's branches stay apart
- pet.kind: const rewritten: (in the Dog branch) const "dog" is written as a one-value enum
- pet.good: default moved_to_description: (in the Dog branch) the default true is stated in the description; leaving the field out still gives it
- pets: default moved_to_description: the default [] is stated in the description; leaving the field out still gives it
- pets[]: discriminator removed: gemini does not take discriminator; the branches' tags keep them apart
- pets[].kind: required made_required: (in the Cat branch) the tag of a discriminated union is now required (leaving it out gave "cat"), so the union's branches stay apart
- pets[].kind: const rewritten: (in the Cat branch) const "cat" is written as a one-value enum
- pets[].lives: default moved_to_description: (in the Cat branch) the default 9 is stated in the description; leaving the field out still gives it
- pets[].kind: required made_required: (in the Dog branch) the tag of a discriminated union is now required (leaving it out gave "dog"), so the union's branches stay apart
- pets[].kind: const rewritten: (in the Dog branch) const "dog" is written as a one-value enum
- pets[].good: default moved_to_description: (in the Dog branch) the default true is stated in the description; leaving the field out still gives it\
""")


def test_gemini_strict_recursive_root() -> None:
    """A recursive tool model is written at the root; its recursive field stays optional."""
    compiled = compile_schema(tool_schema(TreeNode), "gemini", strict=True)
    assert compiled.schema == snapshot(
        {
            "$defs": {
                "TreeNode": {
                    "description": "A recursive tool model (its schema's root is a reference).",
                    "properties": {
                        "name": {"title": "Name", "type": "string"},
                        "children": {
                            "items": {"$ref": "#/$defs/TreeNode"},
                            "title": "Children",
                            "type": "array",
                            "description": "Default: [].",
                        },
                    },
                    "required": ["name"],
                    "title": "TreeNode",
                    "type": "object",
                    "additionalProperties": False,
                }
            },
            "properties": {
                "name": {"title": "Name", "type": "string"},
                "children": {
                    "items": {"$ref": "#/$defs/TreeNode"},
                    "title": "Children",
                    "type": "array",
                    "description": "Default: [].",
                },
            },
            "required": ["name"],
            "type": "object",
            "additionalProperties": False,
        }
    )
    assert str(compiled.report) == snapshot("""\
Schema report for gemini (strict): 4 changes, lossless.
- (root): $ref inlined: the root referred to TreeNode (a recursive model); TreeNode's schema is written at the root, because the API wants an object there
- (root): additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway
- children: required kept_optional: left optional although strict: gemini takes recursive references only in properties that are not required; leaving it out still gives its default
- children: default moved_to_description: the default [] is stated in the description; leaving the field out still gives it\
""")


def test_non_strict_chat_and_anthropic_keep_pydantics_schema() -> None:
    """Non-strict Chat and Anthropic send pydantic's schema unchanged (recursive root inlined)."""
    for case in CASES:
        schema = tool_schema(case.model)
        for api in ("chat.completions", "anthropic"):
            compiled = compile_schema(schema, api, strict=False)
            if "$ref" in schema:
                assert [c.action for c in compiled.report.changes] == ["inlined"]
            else:
                assert compiled.schema == schema
                assert compiled.report.changes == ()


def test_non_strict_responses_only_rewrites_one_of() -> None:
    """Non-strict Responses changes a discriminated union's oneOf and nothing else."""
    report = compile_schema(tool_schema(Discriminated), "responses", strict=False).report
    assert str(report) == snapshot("""\
Schema report for responses (non-strict): 6 changes, lossless.
- pet: oneOf rewritten: oneOf is written as anyOf and its discriminator removed: the branches' tags keep them apart
- pet.kind: required made_required: (in the Cat branch) the tag of a discriminated union is now required (leaving it out gave "cat"), so the union's branches stay apart
- pet.kind: required made_required: (in the Dog branch) the tag of a discriminated union is now required (leaving it out gave "dog"), so the union's branches stay apart
- pets[]: oneOf rewritten: oneOf is written as anyOf and its discriminator removed: the branches' tags keep them apart
- pets[].kind: required made_required: (in the Cat branch) the tag of a discriminated union is now required (leaving it out gave "cat"), so the union's branches stay apart
- pets[].kind: required made_required: (in the Dog branch) the tag of a discriminated union is now required (leaving it out gave "dog"), so the union's branches stay apart\
""")


def test_report_renders_no_changes() -> None:
    """A report without changes says so in one line."""
    assert str(SchemaReport("gemini", False, ())) == snapshot(
        "Schema report for gemini (non-strict): no changes."
    )


def test_report_lossless_and_losses() -> None:
    """`lossless` is False as soon as one change is lossy, and `losses` lists those."""
    kept = SchemaChange("a", "default", "moved_to_description", "d", lossy=False)
    lost = SchemaChange("b", "minLength", "moved_to_description", "d", lossy=True)
    report = SchemaReport("anthropic", True, (kept, lost))
    assert (report.lossless, report.losses) == (False, (lost,))


def test_every_action_is_in_the_vocabulary_and_used() -> None:
    """Across the battery, changes use only documented actions, and each action occurs."""
    used: set[str] = set()
    for case in CASES:
        for api, strict in COMBOS:
            compiled = compiled_or_none(case, api, strict)
            if compiled is not None:
                used |= {change.action for change in compiled.report.changes}
    assert sorted(used) == sorted(ACTIONS)


def test_report_paths_never_name_defs() -> None:
    """Paths are field paths from the root, never $defs paths."""
    for case in CASES:
        for api in API_NAMES:
            for strict in (True, False):
                compiled = compiled_or_none(case, api, strict)
                if compiled is not None:
                    assert all("$defs" not in c.path for c in compiled.report.changes)


def test_extra_forbid_is_not_needed_for_strict() -> None:
    """A strict schema is the same with or without extra="forbid"; only the report differs."""

    class Entities(BaseModel):
        people: list[str]
        places: list[str]

    class EntitiesForbid(Entities):
        model_config = ConfigDict(extra="forbid")

    plain = compile_schema(tool_schema(Entities), "chat.completions", strict=True)
    forbid = compile_schema(tool_schema(EntitiesForbid), "chat.completions", strict=True)
    assert plain.schema == forbid.schema
    assert [c.action for c in plain.report.changes] == ["closed"]
    assert forbid.report.changes == ()


def test_unknown_api_is_refused() -> None:
    """An api name that is not one of the four raises UnknownApiError."""
    with pytest.raises(UnknownApiError):
        compile_schema({"type": "object", "properties": {}}, "vertex", strict=False)  # pyright: ignore[reportArgumentType]
