"""Where the testing wing finds what it knows of each API: its kit.

Each API has one package in the wing, named after its adapter folder
(`toolwire.testing._openai_chat` for `_adapters/openai_chat`...), holding that API's
fake server codec and the rules it enforces (history, media, tool definitions). The
package exposes them as one `Kit`, `KIT`; the API-neutral modules (`check_history`)
and the tests that run every API's rules reach them only through `kit(api)`, so no
module outside an API's package needs to know which API is which.

Adding an API to the wing: one package `_<adapter folder>/` (`fake.py` ending in its
`KIT`, `history.py`, `media.py`, `tools.py`, an `__init__.py` exposing `KIT`) and
its registry entry in `toolwire._api` (which names the adapter folder).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

from .._api import API_ENTRIES, Api
from ._fake import FakeCodec
from ._rules import HistoryProblem
from ._tool_shapes import ToolDefinitionCheck

__all__ = ["HistoryRules", "Kit", "MediaRules", "kit"]

HistoryRules = Callable[[Sequence[Mapping[str, Any]]], list[HistoryProblem]]
"""One API's rules on a history (its request's list, as wire JSON): every problem."""


class MediaRules(Protocol):
    """One API's rules on the images and files of a history; `model` (the request's)
    adds the rules that depend on it, skipped without it."""

    def __call__(
        self, history: Sequence[Mapping[str, Any]], /, *, model: str | None = None
    ) -> list[HistoryProblem]: ...


ChainedHistoryRules = Callable[[Sequence[Mapping[str, Any]], object], list[HistoryProblem]]
"""An API's rules on a history that continues a stored response (the SDK object or its
dict form), whose items count as coming first."""

DialectHistoryRules = Callable[[Sequence[Mapping[str, Any]], object], list[HistoryProblem]]
"""What one server speaking the API (a dialect, such as a `ChatServer`) refuses in a
history beyond the API's own rules."""


@dataclass(frozen=True, slots=True)
class Kit:
    """What the testing wing knows of one API."""

    codec: Callable[[], FakeCodec]
    """A new codec of the API's fake server: its wire format and the rules it enforces."""
    history_problems: HistoryRules
    """The pairing rules, as `check_history` runs them on a history of its own."""
    media_problems: MediaRules
    """The media rules (`check_history` and the fake run the same)."""
    tool_definition_problem: ToolDefinitionCheck
    """The live API's error for one tool definition of the wrong shape, or None."""
    chained_history_problems: ChainedHistoryRules | None = None
    """For an API that stores responses a request can continue (Responses'
    `previous_response_id`): the pairing rules with that response's items first
    (`check_history(..., previous_response=...)`); None for the others."""
    dialect_history_problems: DialectHistoryRules | None = None
    """For an API with dialects (`check_history(history, ChatServer.MISTRAL)`): what that
    server refuses beyond the API's rules; None for the others."""


def kit(api: Api) -> Kit:
    """The kit of `api`: `KIT` of the wing's package named after its adapter folder."""
    folder = API_ENTRIES[api].folder
    found: Kit = import_module(f"{__package__}._{folder}").KIT
    return found
