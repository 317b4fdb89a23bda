"""Per-API JSON-schema compilation for tool definitions and structured-output formats.

Pydantic writes one JSON schema per tool class; each API takes a different subset of JSON
Schema. `compile_schema(schema, api, strict=...)` adapts the schema to one API and returns it
with a `SchemaReport` of every change (never silent). What cannot be expressed raises
`toolwire.exceptions.SchemaError` naming the field and the way out. `input_plan(schema)` gives
the strict tool class what it must do to incoming data so the model's answers validate back
into the class (null-for-default, dicts sent as pairs, tuples sent as objects).

How each API handles the shapes users write (details in `_openai`, `_anthropic`, `_gemini`):

============================  ===================  ===================  ====================
shape                         OpenAI strict        Anthropic strict     Gemini (strict/not)
============================  ===================  ===================  ====================
field with a default          required + nullable  stays optional       required + nullable
                              (null → default)     (default in words)   / stays optional
``Optional[T] = v``           required, null=None  stays optional       required / optional
nested / described model      ``$ref``; inlined    same                 same
                              when described
``dict[str, X]``              ``{key,value}`` list ``{key,value}`` list ``additionalProperties``
``tuple[A, B]``               ``item_<i>`` object  ``item_<i>`` object  ``prefixItems``
discriminated union           ``anyOf`` (tags)     ``anyOf`` (tags)     ``oneOf`` (tags)
``Literal["a"]``              ``const``            ``const``            one-value ``enum``
recursive model               ``$ref`` recursion   ``$ref`` recursion   only through optional
                                                                        fields, else refused
``min_length``/``max_length`` description (lossy)  description (lossy)  description (lossy)
``ge``/``le``/``pattern``     kept                 description (lossy)  ge/le kept, rest lossy
``Any`` field                 refused              refused              kept (``{}``)
============================  ===================  ===================  ====================

Non-strict OpenAI Chat and Anthropic get pydantic's schema unchanged (a recursive root is
written inline, since every API wants an object at the root); Responses also gets a tagged
``oneOf`` as ``anyOf``. A custom schema (``custom=True``) is sent as given unless strict; Gemini
restricts it to its keywords either way.
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
