"""One change argument repair made to a call's arguments, as results report it.

A neutral value of its own, so results (`result.repairs`) can name it without loading
the repair policy, which only a batch run with `repair=` needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ArgumentRepair", "RepairKind"]

RepairKind = Literal["decoded_string", "unwrapped_arguments", "glued_duplicate", "repair_function"]
"""What a repair did:

- "decoded_string": a value the schema wants as an object or array (and never as text)
  came as JSON text of one, and was decoded.
- "unwrapped_arguments": the whole arguments came as a JSON string holding the JSON
  object (double-encoded), and were decoded once more.
- "glued_duplicate": the arguments were one JSON object sent several times in a row
  (`{"a":1}{"a":1}`); one was kept. Different glued objects are never merged or
  dropped: the call is refused, since each is likely a call of its own.
- "repair_function": your `RepairPolicy(fallback=...)` function gave new arguments.
"""


@dataclass(frozen=True, slots=True)
class ArgumentRepair:
    """One change made to a call's arguments before they validated.

    Attributes:
        kind: what was done (see `RepairKind`).
        path: where, as a JSON path into the arguments: "$" for the whole arguments,
            "$.filter", "$.items[0]", '$["odd key"]'.
    """

    kind: RepairKind
    path: str = "$"
