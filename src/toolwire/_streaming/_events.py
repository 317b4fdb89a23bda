"""The events `ToolCallStream.feed()` returns, the same for every API.

`index` is always the call's position among the tool calls of the turn (0, 1, ...),
the same position `run_tool_calls` answers it at and synthesized ids are made from.
`provider_index` is the API's own index: the tool call's `index` in a Chat
Completions delta, the item's `output_index` in Responses, the content block's
`index` in Anthropic, and the part's position in the candidate's content in Gemini.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from typing_extensions import TypeAliasType

from .._call import StandardToolCall
from .._turn import TurnStatus
from ._fast_frozen import AssignsPlainly
from ._scanner import StringDelta

if TYPE_CHECKING:
    from ._preview import ArgumentsPreview

__all__ = [
    "ReasoningDelta",
    "StreamEvent",
    "TextDelta",
    "ToolCallArgumentsDelta",
    "ToolCallCompleted",
    "ToolCallStarted",
    "ToolCallTruncated",
    "TurnEnded",
]


@dataclass(frozen=True, slots=True)
class TextDelta:
    """Visible text the model appended to its answer."""

    text: str


@dataclass(frozen=True, slots=True)
class ReasoningDelta:
    """Reasoning the API streams in clear: Anthropic thinking, Responses reasoning
    summaries and reasoning text, Gemini thought parts."""

    text: str


class NewTextDelta(AssignsPlainly, TextDelta):
    """Makes a `TextDelta` at the cost of a plain object (one is made per streamed text
    chunk; see `_fast_frozen`)."""

    __slots__ = ()

    def __init__(self, text: str) -> None:
        this: Any = self  # the checker sees the frozen field; it is plain here
        this.text = text
        this.__class__ = TextDelta


class NewReasoningDelta(AssignsPlainly, ReasoningDelta):
    """Makes a `ReasoningDelta` at the cost of a plain object (see `NewTextDelta`)."""

    __slots__ = ()

    def __init__(self, text: str) -> None:
        this: Any = self  # the checker sees the frozen field; it is plain here
        this.text = text
        this.__class__ = ReasoningDelta


@dataclass(frozen=True, slots=True)
class ToolCallStarted:
    """The model began a tool call. Its arguments follow as `ToolCallArgumentsDelta`s.

    Match the call's later events to it by `index`: an API may send the call's id or
    name only after its start (some Chat Completions servers; a Responses item named
    only by its final copy), and then the later events and the completed call carry
    them, as the final response does, in place of the synthesized id or the empty name
    reported here."""

    index: int
    provider_index: int
    call_id: str
    name: str
    synthesized_id: bool
    """True when the API sent no id (yet) and `call_id` was made up by toolwire."""


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class ToolCallArgumentsDelta:
    """A fragment of a call's arguments (raw JSON text, split anywhere).

    `string_delta` is the decoded text this fragment appended to the string value
    being streamed, with its path (e.g. `("content",)` while a file's content
    arrives): the cheap way to drive a live preview. `partial_arguments` parses
    everything received so far; see its docstring for what it may lag by.

    One object is made per fragment, and nothing else: the event keeps its place in the
    call's arguments, and `string_delta` is worked out when read (exactly as if each
    fragment had been scanned on arrival, however late or out of order it is read).
    Events compare and hash by their public values, `string_delta` included.
    """

    index: int
    provider_index: int
    call_id: str
    name: str
    fragment: str
    _arguments: ArgumentsPreview
    _position: int

    __match_args__ = ("index", "provider_index", "call_id", "name", "fragment", "string_delta")

    def __new__(
        cls,
        index: int,
        provider_index: int,
        call_id: str,
        name: str,
        fragment: str,
        arguments: ArgumentsPreview | None = None,
        position: int | None = None,
        *,
        _arguments: ArgumentsPreview | None = None,
        _position: int | None = None,
    ) -> ToolCallArgumentsDelta:
        """An event for fragment `position` of `arguments` (what `ArgumentsPreview.add`
        returned for `fragment`). Streams make them; build one by hand only in tests.
        (`dataclasses.replace` passes the last two under their field names.)"""
        preview = arguments if arguments is not None else _arguments
        place = position if position is not None else _position
        if preview is None or place is None:
            raise TypeError(
                "ToolCallArgumentsDelta takes the call's ArgumentsPreview and the position "
                "ArgumentsPreview.add returned for the fragment; streams make these events."
            )
        return new_arguments_delta(index, provider_index, call_id, name, fragment, preview, place)

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickled and copied through the one constructor (the default would call
        # `__new__` without arguments).
        return (new_arguments_delta, (
            self.index, self.provider_index, self.call_id, self.name, self.fragment,
            self._arguments, self._position,
        ))  # fmt: skip

    @property
    def string_delta(self) -> StringDelta | None:
        """The decoded text this fragment appended to a string value, with its path, or
        None when it appended none (keys, numbers, punctuation; text that stopped being a
        JSON object). Worked out when read; equal events give equal deltas."""
        return self._arguments.string_delta_at(self._position)

    @property
    def partial_arguments(self) -> dict[str, Any]:
        """The arguments parsed so far, as a dict, computed when read from the stream's
        state at that moment (so reading it late shows later fragments too).

        Incomplete trailing strings are included; a number or literal cut mid-token
        shows as the parser reads it (`{"a": 1` gives `{"a": 1}` while 12345 may be
        coming), so treat it as display-only. It may lag the raw text by at most the
        bound documented on `ArgumentsPreview.partial`; the final arguments are exact.
        Do not mutate the returned dict.
        """
        preview = self._arguments
        # `preview.partial()`'s first case inline (read on every event by live displays):
        # while the cached preview is fresh enough, it is the answer.
        if preview._size <= preview._fresh_until:
            return preview._preview
        return preview.partial()

    def _values(self) -> tuple[int, int, str, str, str, StringDelta | None]:
        return (
            self.index, self.provider_index, self.call_id, self.name, self.fragment,
            self.string_delta,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == cast("ToolCallArgumentsDelta", other)._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (
            f"ToolCallArgumentsDelta(index={self.index!r}, provider_index="
            f"{self.provider_index!r}, call_id={self.call_id!r}, name={self.name!r}, "
            f"fragment={self.fragment!r}, string_delta={self.string_delta!r})"
        )


class NewArgumentsDelta(AssignsPlainly, ToolCallArgumentsDelta):
    """A `ToolCallArgumentsDelta` while its fields are assigned (see `_fast_frozen`)."""

    __slots__ = ()


class CallFields(Protocol):
    """What an argument delta copies from its call (`OpenCall` has these)."""

    @property
    def index(self) -> int: ...
    @property
    def provider_index(self) -> int: ...
    @property
    def call_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def preview(self) -> ArgumentsPreview: ...


@dataclass(slots=True)
class _GivenCall:
    """The fields of a call given one by one (to `new_arguments_delta`)."""

    index: int
    provider_index: int
    call_id: str
    name: str
    preview: ArgumentsPreview


def arguments_delta(call: CallFields, fragment: str, position: int = -1) -> ToolCallArgumentsDelta:
    """Append a non-empty argument fragment to `call`'s preview and return its event;
    with a `position`, append nothing and make the event of fragment `position`, already
    in the preview. It is `OpenCall.add`, the one function streams make these events
    with (a call layer per streamed fragment counts).

    The event is made at the cost of a plain object: calling a class runs its
    constructor in a new interpreter frame entered from C, and a frozen class assigns
    through `object.__setattr__`; this allocates and assigns without either."""
    preview = call.preview
    this: Any = _allocate(NewArgumentsDelta)  # its fields assign plainly, unlike the
    # frozen public class's
    this.index = call.index
    this.provider_index = call.provider_index
    this.call_id = call.call_id
    this.name = call.name
    this.fragment = fragment
    this._arguments = preview
    this._position = preview.add(fragment) if position < 0 else position
    this.__class__ = ToolCallArgumentsDelta
    return this


def new_arguments_delta(
    index: int,
    provider_index: int,
    call_id: str,
    name: str,
    fragment: str,
    arguments: ArgumentsPreview,
    position: int,
) -> ToolCallArgumentsDelta:
    """`ToolCallArgumentsDelta(...)` (the class's `__new__` and unpickling call it): the
    event for fragment `position` of `arguments` (what `ArgumentsPreview.add` returned
    for `fragment`)."""
    given = _GivenCall(index, provider_index, call_id, name, arguments)
    return arguments_delta(given, fragment, position)


_allocate = object.__new__


@dataclass(frozen=True, slots=True)
class ToolCallCompleted:
    """A call whose arguments are complete: dispatch it now with
    `group.run_tool_call(event.call, context)`, even before the stream ends."""

    index: int
    provider_index: int
    call: StandardToolCall


@dataclass(frozen=True, slots=True)
class ToolCallTruncated:
    """A call a length limit cut off. It must not run as if valid: answer it with
    `group.run_tool_call(event.call, context)`, which returns a "truncated" failure."""

    index: int
    provider_index: int
    call: StandardToolCall


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """The API said why the turn ended: `stop_reason` is its own value
    (`finish_reason`, `stop_reason`, the Responses status...), `status` the neutral one."""

    stop_reason: str | None
    status: TurnStatus


StreamEvent = TypeAliasType(
    "StreamEvent",
    TextDelta
    | ReasoningDelta
    | ToolCallStarted
    | ToolCallArgumentsDelta
    | ToolCallCompleted
    | ToolCallTruncated
    | TurnEnded,
)
"""Any event `ToolCallStream.feed()` returns."""
