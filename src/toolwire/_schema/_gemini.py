"""Google Gemini schema rules (``parameters_json_schema`` and ``response_json_schema``).

Gemini documents one keyword list for its JSON-schema fields (PROVIDERS.md 4h) and toolwire
stays inside it, strict or not, custom schema or not: ``$id``, ``$defs`` (root only), ``$ref``,
``$anchor``, ``type``, ``format``, ``title``, ``description``, ``enum`` (strings and numbers),
``items``, ``prefixItems``, ``minItems``, ``maxItems``, ``minimum``, ``maximum``, ``anyOf``,
``oneOf``, ``properties``, ``additionalProperties``, ``required``, ``propertyOrdering``.

- ``const`` becomes a one-value ``enum``; ``true``/``false``/``null`` in an ``enum`` become
  ``boolean``/``null`` branches of an ``anyOf``; ``type: [a, b]`` becomes ``anyOf``;
- ``default``, ``examples``, ``minLength``, ``maxLength``, ``pattern``, ``exclusiveMinimum``,
  ``multipleOf``, ``uniqueItems``, ... move into the description in words; ``discriminator``
  goes (``oneOf`` is kept: Gemini reads it as ``anyOf``, and the tags keep branches apart);
- a ``$ref`` has no sibling keywords except ``$``-prefixed ones: a described nested model is
  written inline with its description;
- ``dict[str, X]`` keeps ``additionalProperties: X`` (listed) and ``tuple`` keeps
  ``prefixItems`` (listed);
- "cyclic references ... may only be used within non-required properties (nullable properties
  are not sufficient)": a recursive model whose recursive field is required is refused at
  definition time, naming the field; the way out is a default (``= []``, ``= None``).

Gemini has no strict flag. With ``model_tool_strict = True`` it gets the same portable strict
compilation as OpenAI (closed objects, every property required and nullable, null-for-default)
inside the list above, except recursive fields, which stay optional as Gemini requires. Pair it
with ``FunctionCallingConfigMode.VALIDATED`` for schema-checked calls. Non-strict Gemini gets
pydantic's schema restricted to the list.
"""

from __future__ import annotations

from ._profile import Profile

__all__ = ["GEMINI_KEYWORDS", "gemini_profile"]

GEMINI_KEYWORDS = frozenset(
    {
        "$id",
        "$defs",
        "$ref",
        "$anchor",
        "type",
        "format",
        "title",
        "description",
        "enum",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
        "oneOf",
        "properties",
        "additionalProperties",
        "required",
        "propertyOrdering",
    }
)


def _profile(strict: bool) -> Profile:
    return Profile(
        api="gemini",
        strict=strict,
        allowed=GEMINI_KEYWORDS,
        close_objects=strict,
        require_all=strict,
        const_as_enum=True,
        enum_strings_and_numbers=True,
        type_list_as_any_of=True,
        bare_refs=True,
        recursion_only_optional=True,
        require_tags=True,
        restricts_custom=True,
    )


_STRICT = _profile(True)
_LOOSE = _profile(False)


def gemini_profile(strict: bool) -> Profile:
    """The Gemini rules."""
    return _STRICT if strict else _LOOSE
