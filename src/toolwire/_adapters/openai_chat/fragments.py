"""How the argument fragments of one streamed Chat Completions call join, read from the
fragments themselves (no server needs naming).

OpenAI appends: each fragment is new text. Some compatible servers resend the whole
arguments so far in every chunk (DeepSeek and Baidu Qianfan in cumulative mode), send
them as JSON objects instead of text (Z.AI's GLM, llama.cpp's object mode), or put a
second call's arguments after the first's on the same index with no new id (gateways in
front of Gemini). Nothing on the wire says which: the fragments are read until only one
reading is left, and never guessed.

- A resend starts with the fragment before it. A fragment that does not (the second
  fragment of nearly every OpenAI stream) settles the call as appended; from then on the
  stream's fast path folds it, and nothing here runs again.
- While every fragment extends the one before, both readings stay open: the fragments
  after the first are held back. The first one that breaks the JSON of one reading (and
  not of the other) settles it. Held fragments are then released: appended, or as the
  text each resend adds (so live previews stay right in both cases).
- Object fragments are merged key by key (a later snapshot of the same keys replaces
  the earlier one) and read as their JSON text.
- What has no reading (text and objects mixed in one call, resends that stop resending)
  is not guessed: the call's arguments are its fragments joined as sent, which fail
  validation with the parse error, and `mixed` says so.
- Two or more complete JSON objects back to back (`{...}{...}`) are split when the call
  ends (`split_glued`): each is a call of its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from ..._streaming._scanner import JsonScanner

__all__ = ["FragmentJoin", "arguments_text", "split_glued"]

_WAITING = 0
"""No text fragment yet (or only the first): the reading is open."""
_HOLDING = 1
"""Every fragment so far extended the one before: later ones are held back."""
_APPENDED = 2
_RESENT = 3
_OBJECTS = 4
_MIXED = 5
_MAX_HELD = 64
"""Fragments held back at most: past them, the call's text is taken as sent (appended),
so that checking both readings never costs more than linear time."""


def arguments_text(value: Mapping[str, Any]) -> str:
    """Arguments a server sent as a JSON object, as the JSON text the API's types carry."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class FragmentJoin:
    """The reading of one call's argument fragments: `take` each fragment, and append the
    text it returns to the call's buffer (`reset` says the buffer must be replaced)."""

    __slots__ = ("_held", "_last", "_merged", "_mode", "_resent", "_sent")

    def __init__(self) -> None:
        self._mode = _WAITING
        self._last = ""
        """The latest text fragment: while the reading is open, what the next resend must
        start with."""
        self._held: list[str] = []
        self._sent = ""
        """What the buffer holds: the fragments appended to it so far."""
        self._merged: dict[str, Any] | None = None
        self._resent: list[str] = []
        """Every text fragment as sent, once they are read as resends."""

    @property
    def mixed(self) -> bool:
        """Whether the fragments had no reading: the call's text is them joined as sent."""
        return self._mode == _MIXED

    @property
    def settled(self) -> bool:
        """Whether fragments are known to be appended as they come (the fast path may
        fold the rest of the call)."""
        return self._mode == _APPENDED

    def take(self, fragment: object) -> tuple[bool, str]:
        """`(reset, text)`: the text this fragment adds to the call's buffer (`""` when
        it adds none yet), and whether the buffer must first be emptied (an object
        snapshot replaces the one before)."""
        if isinstance(fragment, str):
            if not fragment:
                return False, ""
            if self._mode == _RESENT and not fragment.startswith(self._last):
                self._mode = _MIXED  # a resend that does not resend: no reading is left
                return True, "".join(self._resent) + fragment
            return False, self._text(fragment)
        if isinstance(fragment, Mapping):
            return self._object(cast("Mapping[str, Any]", fragment))
        return False, ""  # None, or nothing a server sends: no arguments in this fragment

    def finish(self, cut: bool) -> str:
        """The text still held back when the call ends, settled by whichever reading gives
        complete JSON (appended when neither does: the text as sent). In a turn a length
        limit `cut`, appended: its text is unfinished, and a resend that happens to be
        complete must not make a cut call look whole."""
        if self._mode != _HOLDING:
            return ""
        joined = self._sent + "".join(self._held)
        if not cut and not _scan(joined).complete() and _scan(self._last).complete():
            return self._settle_resent()
        return self._settle_appended()

    def _text(self, fragment: str) -> str:
        mode = self._mode
        if mode in (_APPENDED, _MIXED):
            return fragment
        if mode == _RESENT:  # `take` checked that it extends the copy before it
            self._resent.append(fragment)
            added = fragment[len(self._last) :]
            self._last = fragment
            return added
        if mode == _OBJECTS:
            self._mode = _MIXED
            return fragment
        if not self._sent:  # the first text fragment
            self._last = self._sent = fragment
            return fragment
        if not fragment.startswith(self._last):
            self._mode = _APPENDED
            self._held.append(fragment)
            return self._release()
        self._mode = _HOLDING
        self._held.append(fragment)
        self._last = fragment
        if len(self._held) > _MAX_HELD:
            return self._settle_appended()
        appended = _scan(self._sent + "".join(self._held))
        resent = _scan(fragment)
        if appended.failed_at is not None and resent.failed_at is None:
            return self._settle_resent()
        if resent.failed_at is not None:
            return self._settle_appended()
        return ""  # both readings still hold: wait for the next fragment

    def _settle_appended(self) -> str:
        self._mode = _APPENDED
        return self._release()

    def _settle_resent(self) -> str:
        self._mode = _RESENT
        added = self._last[len(self._sent) :] if self._last.startswith(self._sent) else ""
        self._resent = [self._sent, *self._held]
        self._held = []
        self._sent = self._last
        return added

    def _release(self) -> str:
        released = "".join(self._held)
        self._held = []
        self._sent += released
        return released

    def _object(self, fragment: Mapping[str, Any]) -> tuple[bool, str]:
        if self._mode == _WAITING and not self._sent:
            self._mode = _OBJECTS
            self._merged = dict(fragment)
            return False, arguments_text(self._merged)
        if self._mode == _OBJECTS and self._merged is not None:
            self._merged.update(fragment)
            return True, arguments_text(self._merged)
        self._mode = _MIXED  # an object after text: no reading joins them
        return False, arguments_text(fragment)


def _scan(text: str) -> JsonScanner:
    scanner = JsonScanner()
    scanner.feed(text)
    return scanner


def split_glued(text: str) -> list[str] | None:
    """`text` as the calls it holds when it is two or more complete JSON objects back to
    back (`{...}{...}`, whitespace between them allowed); None otherwise."""
    decoder = json.JSONDecoder()
    parts: list[str] = []
    position, end = 0, len(text)
    while position < end:
        while position < end and text[position] in " \t\r\n":
            position += 1
        if position == end:
            break
        try:
            value, stop = decoder.raw_decode(text, position)
        except (ValueError, RecursionError):
            return None
        if not isinstance(value, dict):
            return None
        parts.append(text[position:stop])
        position = stop
    return parts if len(parts) > 1 else None
