"""Loading toolcall's definition models on first use, for `toolwire.core` and `.aio`.

A plain dispatch never needs them, and building their pydantic classes costs a tenth
of the import, so both namespaces list them in `__all__` and load them when read.
"""

from __future__ import annotations

from collections.abc import Callable

STANDARD_NAMES = frozenset(
    {
        "StandardCustomToolDefinition",
        "StandardCustomToolFormat",
        "StandardCustomToolGrammarFormat",
        "StandardCustomToolTextFormat",
        "StandardFunctionToolDefinition",
    }
)


def standard_getattr(module: str) -> Callable[[str], object]:
    """A module `__getattr__` for `module` that resolves the toolcall names."""

    def __getattr__(name: str) -> object:
        if name in STANDARD_NAMES:
            from . import _standard

            return getattr(_standard, name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
