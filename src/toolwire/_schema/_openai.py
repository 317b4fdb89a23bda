"""OpenAI (Chat Completions and Responses) schema rules.

Strict (``"strict": true`` on a tool or a ``json_schema`` format), per OpenAI's structured-output
rules and toolwire's DESIGN:

- every object is closed (``additionalProperties: false``) and lists every property in
  ``required``; a field that was optional becomes required and nullable, and a ``null`` the model
  sends for it is turned back into "absent" by the tool class, so pydantic fills the default.
  ``Optional[T] = value`` already accepts ``null``: there ``null`` means ``None``, and the model
  sends the default value itself to get the default (the description states it);
- ``default``, ``minLength``, ``maxLength``, ``oneOf``, ``allOf``, ``discriminator``, ``not``,
  ``patternProperties``, ``propertyNames``, ``minProperties``/``maxProperties``, ``uniqueItems``
  and ``contains`` are not taken: constraints move into the description (toolwire's validation
  still enforces them), a tagged ``oneOf`` becomes ``anyOf``;
- kept: ``type`` (also as a list), ``properties``, ``required``, ``items``, ``anyOf``, ``enum``,
  ``const``, ``$ref``/``$defs`` (recursion allowed), ``title``, ``description``, ``pattern``,
  ``minimum``/``maximum`` (and exclusive forms), ``multipleOf``, ``minItems``/``maxItems``,
  and ``format`` for date-time, time, date, duration, email, hostname, ipv4, ipv6 and uuid;
- a ``$ref`` has no siblings: a described nested model is written inline with its description;
- ``dict[str, X]`` cannot be a closed object, so it is sent as a list of ``{"key", "value"}``
  pairs that the tool class turns back into the dict; fixed-length tuples (``prefixItems``,
  not a documented keyword) are sent as objects with ``item_0``, ``item_1``, ... keys;
- every schema says what it accepts: a field typed ``Any`` (or ``dict[str, Any]``) is refused
  at definition time, as is a root that is not an object.

Non-strict: pydantic's schema as is (what the seed library sent). The Responses API has been
reported to reject ``oneOf`` even when not strict, so there a discriminated union's ``oneOf``
becomes ``anyOf`` (its tags keep the branches apart, so nothing is lost).
"""

from __future__ import annotations

from ._profile import STRICT_STRUCTURE, Profile

__all__ = ["OPENAI_STRICT_FORMATS", "chat_profile", "responses_profile"]

OPENAI_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)

_STRICT_KEYWORDS = STRICT_STRUCTURE | {
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
}


def _strict(api: str) -> Profile:
    return Profile(
        api="responses" if api == "responses" else "chat.completions",
        strict=True,
        allowed=_STRICT_KEYWORDS,
        formats=OPENAI_STRICT_FORMATS,
        close_objects=True,
        require_all=True,
        dicts_as_pairs=True,
        tuples_as_objects=True,
        one_of_as_any_of=True,
        require_tags=True,
        bare_refs=True,
        typed_schemas=True,
    )


_CHAT_STRICT = _strict("chat.completions")
_RESPONSES_STRICT = _strict("responses")
_CHAT = Profile(api="chat.completions", strict=False, allowed=None)
_RESPONSES = Profile(
    api="responses", strict=False, allowed=None, one_of_as_any_of=True, require_tags=True
)


def chat_profile(strict: bool) -> Profile:
    """The Chat Completions rules."""
    return _CHAT_STRICT if strict else _CHAT


def responses_profile(strict: bool) -> Profile:
    """The Responses rules."""
    return _RESPONSES_STRICT if strict else _RESPONSES
