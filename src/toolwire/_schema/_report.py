"""What a schema compilation changed, field by field, and whether the change loses anything.

Every change a compiler makes to pydantic's JSON schema (or to a custom schema) is one
`SchemaChange`. The changes of one compilation form a `SchemaReport`, which the tool class
hands to users (e.g. `model_tool_schema_report(api)`), so strict-mode rewrites are never silent.

Actions (the fixed vocabulary of `SchemaChange.action`):

- ``"removed"``: a keyword was dropped because the API does not take it and it carries
  nothing the model needs (e.g. ``discriminator`` next to tagged branches, ``writeOnly``,
  an ``x-`` extension keyword from ``json_schema_extra``).
- ``"moved_to_description"``: a keyword the API does not take was dropped and spelled out in
  plain words in the description, so the model still reads it (e.g. ``minLength: 2`` becomes
  "Constraints: at least 2 characters."). The API no longer enforces it; toolwire's pydantic
  validation still does, so a value breaking it comes back to the model as a failure result.
- ``"rewritten"``: the same meaning in keywords the API takes (``oneOf`` → ``anyOf``,
  ``const`` → one-value ``enum``, ``type: [a, b]`` → ``anyOf``).
- ``"inlined"``: a ``$ref`` that had sibling keywords (the API takes a bare ``$ref`` only) was
  replaced by the referenced definition written in place, keeping the siblings.
- ``"closed"``: ``additionalProperties: false`` was set on an object (strict mode closes all).
- ``"made_required"``: an optional field that already accepts ``null`` became required.
  ``null`` keeps meaning ``None`` (for ``Optional[T] = None`` that is the default).
- ``"made_required_nullable"``: an optional field became required and accepts ``null``;
  toolwire turns that ``null`` back into "field absent", so pydantic fills the default.
- ``"kept_optional"``: strict compilation left a field optional because the API cannot take
  it as required (Gemini: recursive references only in non-required properties).
- ``"encoded_as_pairs"``: a ``dict[str, X]`` field is sent as a list of ``{"key", "value"}``
  objects (strict APIs need closed objects); toolwire turns the list back into the dict.
- ``"encoded_as_object"``: a fixed-length tuple is sent as an object with keys ``item_0``,
  ``item_1``, ...; toolwire turns it back into the list.

`lossy` is True when the compiled schema accepts a value the model class rejects, or no longer
lets the model send something the class would have accepted (after toolwire's own input
restoration). A lossless report is the promise that anything valid under the compiled schema
validates into the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from toolwire._api import Api

__all__ = ["ACTIONS", "SchemaAction", "SchemaChange", "SchemaReport"]

SchemaAction = Literal[
    "removed",
    "moved_to_description",
    "rewritten",
    "inlined",
    "closed",
    "made_required",
    "made_required_nullable",
    "kept_optional",
    "encoded_as_pairs",
    "encoded_as_object",
]
"""The fixed vocabulary of `SchemaChange.action` (see the module docstring)."""

ACTIONS: tuple[SchemaAction, ...] = get_args(SchemaAction)


@dataclass(frozen=True, slots=True)
class SchemaChange:
    """One change a compiler made to the schema, at one field.

    `path` is the field path from the root as a user reads it, built from the property names
    the model sends (aliases): ``"inner.weight"``, ``"items[].name"`` (list items),
    ``"tags{}"`` (dict values), ``"point[0]"`` (tuple positions); ``""`` is the root object.
    Union branches add nothing to the path; the detail names the branch's model.
    """

    path: str
    keyword: str
    action: SchemaAction
    detail: str
    lossy: bool


@dataclass(frozen=True, slots=True)
class SchemaReport:
    """Every change one compilation made, in schema order, for one API and strictness."""

    api: Api
    strict: bool
    changes: tuple[SchemaChange, ...]

    @property
    def lossless(self) -> bool:
        """True when no change alters what the model may send (see `SchemaChange.lossy`)."""
        return not any(change.lossy for change in self.changes)

    @property
    def losses(self) -> tuple[SchemaChange, ...]:
        """Only the lossy changes."""
        return tuple(change for change in self.changes if change.lossy)

    def __str__(self) -> str:
        mode = "strict" if self.strict else "non-strict"
        head = f"Schema report for {self.api} ({mode}): "
        if not self.changes:
            return head + "no changes."
        lossy = len(self.losses)
        count = f"{len(self.changes)} change{'s' if len(self.changes) != 1 else ''}"
        verdict = "lossless" if not lossy else f"{lossy} lossy"
        lines = [f"{head}{count}, {verdict}."]
        for change in self.changes:
            mark = " [lossy]" if change.lossy else ""
            where = change.path or "(root)"
            lines.append(f"- {where}: {change.keyword} {change.action}{mark}: {change.detail}")
        return "\n".join(lines)
