"""What a compilation records while it walks: changes, uses of definitions, description notes."""

from __future__ import annotations

from typing import NamedTuple

from ._keywords import CONSTRAINT_RANK
from ._report import SchemaAction, SchemaChange

__all__ = ["Event", "NodeSite", "Notes", "RefSite", "record"]


class RefSite(NamedTuple):
    """A place where a definition is used: its changes are reported under `path`.

    `branch` marks a union branch: the path cannot tell branches apart, so each expanded
    change's detail names the branch's model.
    """

    path: str
    name: str
    branch: bool = False


Event = SchemaChange | RefSite
"""What the walker records, in schema order; definitions' changes are expanded at the end."""


def record(
    events: list[Event],
    path: str,
    keyword: str,
    action: SchemaAction,
    detail: str,
    *,
    lossy: bool,
) -> None:
    """Record one change at `path` (relative to the definition being compiled)."""
    events.append(SchemaChange(path, keyword, action, detail, lossy))


class Notes:
    """What a node's description gains: constraints in words, then notes."""

    __slots__ = ("_constraints", "notes")

    def __init__(self) -> None:
        self._constraints: list[tuple[str, str]] = []
        self.notes: list[str] = []

    def constrain(self, keyword: str, phrase: str) -> None:
        """Add a constraint the API does not take, in words."""
        self._constraints.append((keyword, phrase))

    @property
    def empty(self) -> bool:
        """Whether the description gains nothing."""
        return not self._constraints and not self.notes

    @property
    def constraints(self) -> list[str]:
        """The constraints in a reading order (lower bounds before upper bounds)."""
        last = len(CONSTRAINT_RANK)
        ordered = sorted(self._constraints, key=lambda item: CONSTRAINT_RANK.get(item[0], last))
        return [phrase for _, phrase in ordered]


class NodeSite(NamedTuple):
    """Where the walker compiles one node, as its keyword handlers (`keywords`, a `$ref`,
    the pair and tuple encodings) read it."""

    path: str
    events: list[Event]
    owner: str | None
    """The definition the node sits in (recursion rules)."""
    notes: Notes
    """What the node's description gains."""
    default_text: str | None
    """The text of a default its field's caller reported already (None: not reported)."""
