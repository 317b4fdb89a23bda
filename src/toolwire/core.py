"""toolwire for plain (synchronous) handlers.

`toolwire.aio` has the same names for `async def` handlers. Results, calls,
errors, history helpers and streams are the same objects in both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _core, _lazy, _shared_names
from ._core import *  # noqa: F403  # each module lists its names in __all__
from ._shared_names import *  # noqa: F403

if TYPE_CHECKING:
    from ._lazy import *  # noqa: F403
else:
    __getattr__ = _lazy.lazy_getattr(__name__)  # the schema compiler, streaming, toolcall's models

__all__: list[str] = []
__all__ += _core.__all__  # the tool bases and group of plain handlers
__all__ += _shared_names.__all__
__all__ += _lazy.__all__
if not TYPE_CHECKING:  # type checkers read the names as added above; only the order changes
    __all__.sort(key=str.casefold)
