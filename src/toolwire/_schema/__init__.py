"""Per-API JSON-schema compilation for tool definitions and structured-output formats.

Pydantic writes one JSON schema per tool class; each API takes a different subset of JSON
Schema. `compile_schema(schema, api, strict=...)` adapts the schema to one API and returns it
with a `SchemaReport` of every change (never silent). What cannot be expressed raises
`toolwire.exceptions.SchemaError` naming the field and the way out. `input_plan(schema)` gives
the strict tool class what it must do to incoming data so the model's answers validate back
into the class (null-for-default, dicts sent as pairs, tuples sent as objects).

How each API handles the shapes users write ("words" = moved into the description, reported;
"lossy" = the API no longer enforces it, toolwire's pydantic validation still does):

- Field with a default: OpenAI strict and Gemini strict make it required and nullable, and a
  ``null`` validates to the default (`input_plan`). Anthropic strict keeps it optional (its
  subset takes optional properties), as do all non-strict modes; the default goes into words
  where ``default`` is not taken.
- ``Optional[T] = value``: where made required, ``null`` means ``None``; the model sends the
  value itself to get the default (stated in the description).
- Nested model: ``$ref``/``$defs``; a described one (``$ref`` with siblings) is written inline
  with its description wherever a bare ``$ref`` is required (all strict modes, Gemini).
- ``dict[str, X]``: OpenAI/Anthropic strict send a list of ``{"key", "value"}`` pairs, turned
  back into the dict by `input_plan`; Gemini keeps ``additionalProperties``; ``dict[str, Any]``
  is refused in OpenAI/Anthropic strict (a schema must say what it accepts).
- Fixed tuple: OpenAI/Anthropic strict send an ``item_0``, ``item_1``, ... object (restored);
  Gemini and non-strict keep ``prefixItems``.
- Discriminated union: ``anyOf`` without ``discriminator`` in OpenAI/Anthropic strict and
  Responses; Gemini keeps ``oneOf`` (read as ``anyOf``) and drops ``discriminator``. Wherever
  ``oneOf`` reads as ``anyOf``, a defaulted tag becomes required, so branches stay apart.
- ``Literal["a"]``: ``const`` for OpenAI and Anthropic, a one-value ``enum`` for Gemini (a
  boolean literal is lossy there: Gemini's ``enum`` takes strings and numbers only).
- Recursive model: ``$ref`` recursion for OpenAI and Anthropic; Gemini takes it only through
  optional fields, so a required recursive field is refused (give it a default) and strict
  Gemini leaves recursive fields optional.
- Constraints: OpenAI strict words ``minLength``/``maxLength`` and formats outside its list
  (lossy), keeps ``pattern``, bounds, ``multipleOf`` and item counts; Anthropic strict words
  every constraint except listed formats and ``minItems`` 0/1 (lossy); Gemini keeps
  ``minimum``/``maximum``/``minItems``/``maxItems`` and words the rest (lossy).
  ``uniqueItems`` (sets) is lossless in words: duplicates merge on validation.
- ``extra="allow"``: strict closes the object (lossy); ``extra="forbid"`` is never needed.
- Root: always an object (a recursive root ``$ref`` is written inline); a custom schema whose
  root is not an object is refused in strict mode and on Gemini.

Non-strict OpenAI Chat and Anthropic get pydantic's schema unchanged; Responses also gets a
tagged ``oneOf`` as ``anyOf``. A custom schema (``custom=True``) is sent as given unless strict;
Gemini restricts it to its keywords either way.
"""

from __future__ import annotations

from ._compile import CompiledSchema, compile_schema, profile_for
from ._input_plan import InputPlan, input_plan
from ._profile import Profile
from ._report import ACTIONS, SchemaAction, SchemaChange, SchemaReport

__all__ = [
    "ACTIONS",
    "CompiledSchema",
    "InputPlan",
    "Profile",
    "SchemaAction",
    "SchemaChange",
    "SchemaReport",
    "compile_schema",
    "input_plan",
    "profile_for",
]
