"""What one API (in strict or non-strict mode) takes, as data the walker reads.

A `Profile` is a set of switches: which keywords the API accepts and how to rewrite the rest.
One walker (`_walk`) applies any profile, so every rule is written once and each API module
(`_openai`, `_anthropic`, `_gemini`) only states its rules and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolwire._api import Api

__all__ = ["STRICT_STRUCTURE", "Profile"]


@dataclass(frozen=True, slots=True)
class Profile:
    """The rules the walker applies for one API and strictness."""

    api: Api
    strict: bool
    allowed: frozenset[str] | None
    """Keywords the API takes; anything else is moved to the description or removed.
    ``None`` keeps every keyword (non-strict OpenAI/Anthropic: pydantic's schema as is)."""
    formats: frozenset[str] | None = None
    """String formats kept when ``format`` is allowed; ``None`` keeps every format."""
    min_items_values: frozenset[int] | None = None
    """Values of ``minItems`` kept (Anthropic: 0 and 1); ``None`` keeps every value."""
    close_objects: bool = False
    """Set ``additionalProperties: false`` on every model object."""
    require_all: bool = False
    """Every property required; optional ones become nullable (null-for-default)."""
    dicts_as_pairs: bool = False
    """Send ``dict[str, X]`` as a list of ``{"key", "value"}`` objects."""
    tuples_as_objects: bool = False
    """Send fixed-length tuples (``prefixItems``) as objects with ``item_<i>`` keys."""
    one_of_as_any_of: bool = False
    """Rewrite ``oneOf`` as ``anyOf`` (dropping ``discriminator``)."""
    const_as_enum: bool = False
    """Rewrite ``const`` as a one-value ``enum``."""
    enum_strings_and_numbers: bool = False
    """``enum`` may hold only strings and numbers; booleans and null become types."""
    type_list_as_any_of: bool = False
    """Rewrite ``type: [a, b]`` as ``anyOf`` of single types."""
    bare_refs: bool = False
    """A ``$ref`` may have no sibling keywords (except ``$``-prefixed ones when allowed)."""
    typed_schemas: bool = False
    """Every schema must say what it accepts (``{}``, "any value", is refused)."""
    recursion_only_optional: bool = False
    """Recursive references only inside non-required properties (Gemini)."""
    require_tags: bool = False
    """Make a discriminated union's defaulted tag required (where ``oneOf`` reads as ``anyOf``,
    only a required tag keeps the branches apart, and pydantic needs it to pick one)."""
    restricts_custom: bool = False
    """Restrict a custom schema too when not strict (Gemini takes only its subset)."""

    def takes(self, keyword: str) -> bool:
        """Whether the API accepts `keyword`."""
        return self.allowed is None or keyword in self.allowed


STRICT_STRUCTURE = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "enum",
        "const",
        "$ref",
        "$defs",
        "title",
        "description",
    }
)
"""The keywords that shape a value, which every API's strict mode takes; each strict
profile adds the constraints its API checks."""
