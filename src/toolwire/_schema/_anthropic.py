"""Anthropic Messages schema rules.

Strict (``"strict": true`` tools and ``output_config.format``) share Anthropic's
structured-output subset. Its best machine-readable statement is the SDK's own
``anthropic.transform_schema`` (PROVIDERS.md 3g); toolwire stays inside that subset:

- kept: ``type``, ``properties``, ``required``, ``additionalProperties: false``, ``items``,
  ``anyOf``, ``allOf``, ``enum``, ``const``, ``$ref``/``$defs``, ``title``, ``description``,
  ``minItems`` of 0 or 1, and ``format`` for date-time, time, date, duration, email, hostname,
  uri, ipv4, ipv6 and uuid;
- everything else (``default``, ``minLength``, ``pattern``, ``minimum``, ``maxItems``, ...) is
  moved into the description in words; ``oneOf`` becomes ``anyOf`` and ``discriminator`` goes;
  ``type: [a, b]`` becomes ``anyOf``;
- every object is closed; ``required`` stays as pydantic wrote it (the subset takes optional
  properties), so a field with a default stays optional and pydantic fills the default;
- where ``transform_schema`` loses meaning, toolwire does not: a ``$ref`` with a description is
  written inline (the SDK drops the description), and ``dict[str, X]`` is sent as a list of
  ``{"key", "value"}`` pairs the tool class turns back into the dict (the SDK closes the dict,
  so only ``{}`` could be sent); fixed-length tuples are sent as ``item_<i>`` objects;
- a schema that does not say what it accepts (``Any``) is refused, as the SDK does.

Non-strict: pydantic's schema as is (Anthropic takes JSON Schema for ``input_schema``).
"""

from __future__ import annotations

from ._profile import STRICT_STRUCTURE, Profile

__all__ = ["ANTHROPIC_FORMATS", "anthropic_profile"]

ANTHROPIC_FORMATS = frozenset(
    {
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    }
)

_STRICT_KEYWORDS = STRICT_STRUCTURE | {"allOf", "format", "minItems"}

_STRICT = Profile(
    api="anthropic",
    strict=True,
    allowed=_STRICT_KEYWORDS,
    formats=ANTHROPIC_FORMATS,
    min_items_values=frozenset({0, 1}),
    close_objects=True,
    dicts_as_pairs=True,
    tuples_as_objects=True,
    one_of_as_any_of=True,
    require_tags=True,
    type_list_as_any_of=True,
    bare_refs=True,
    typed_schemas=True,
)
_LOOSE = Profile(api="anthropic", strict=False, allowed=None)


def anthropic_profile(strict: bool) -> Profile:
    """The Anthropic rules."""
    return _STRICT if strict else _LOOSE
