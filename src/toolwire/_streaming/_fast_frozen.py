"""Building frozen dataclass instances at the cost of plain ones, for the per-fragment events.

A frozen dataclass sets each field in `__init__` through `object.__setattr__`, about 80
ns a field: a `ToolCallArgumentsDelta` cost 0.7 us to make, the largest single cost of
feeding one streamed fragment. The hot paths instead build the event as a private
subclass that assigns its fields plainly, then give the finished object its public
class. The instance is an ordinary frozen dataclass from then on (equality, hashing,
repr, pickling, `dataclasses.replace` and the frozen check all behave as usual); only
its making is cheaper (about 0.2 us).
"""

from __future__ import annotations

__all__ = ["AssignsPlainly"]


class AssignsPlainly:
    """Mix in first to a subclass of a frozen slots dataclass, with `__slots__ = ()`.

    It restores plain assignment for that subclass. Both methods are needed: CPython
    serves `__setattr__` and `__delattr__` from one slot, so leaving the dataclass's
    `__delattr__` in place would keep every assignment on the slow path. The subclass's
    `__init__` assigns the fields and ends with `self.__class__ = <public class>`, which
    CPython allows because the two classes have the same layout.
    """

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__
