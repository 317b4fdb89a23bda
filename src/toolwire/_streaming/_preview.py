"""A linear-cost preview of a tool call's arguments (one JSON object) arriving in fragments.

Reading a partial parse of the whole buffer after every fragment is quadratic: on 100 KB
in 2,000 fragments it costs hundreds of times as much as collecting the fragments and
parsing once (`benchmarks/bench_preview.py`). This preview keeps the total linear:

- `feed` scans only the new fragment (`JsonScanner`). While fragments only extend the
  string value that is open (the usual case: a file's content), it decodes just the
  fragment and returns it as a `StringDelta`, exact and immediate.
- `partial` is computed when read. If only the open string value grew since the last
  preview (or it ended and only closing brackets followed, as at the end of a file
  write), the new preview is the old one with that string replaced: the containers on
  its path are copied, nothing else. Otherwise the whole buffer is parsed again with
  pydantic's partial parser.
- Both refreshes are throttled geometrically: `partial` returns the cached preview while
  the characters it does not reflect stay within `max_lag(len(raw))`, 1/16 of the buffer.
  Refreshes then happen at sizes that grow by more than 1/15 each time, so all of them
  together cost about 16 times one refresh at the final size (a copy of the string, or
  a parse of the buffer): linear in the arguments, however they are cut.

The lag bound: after every `partial()` call on well-formed input, the preview equals
`pydantic_core.from_json(raw[:len(raw) - lag], allow_partial="trailing-strings")` with
`lag <= max_lag(len(raw)) == len(raw) // 16`, and `lag == 0` as soon as the arguments
are complete. (An escape cut by the end of the buffer does not count toward the lag:
the parser leaves it out too.)
"""

from __future__ import annotations

import json
import sys
from typing import Any, cast

from pydantic_core import from_json

from ._scanner import MAX_TRACKED_DEPTH, JsonScanner, PathKey, StringDelta

__all__ = ["LAG_DIVISOR", "MAX_TRACKED_DEPTH", "ArgumentsPreview", "StringDelta", "max_lag"]

LAG_DIVISOR = 16
"""The preview may miss at most 1/LAG_DIVISOR of the buffer (see `max_lag`)."""


def max_lag(size: int) -> int:
    """The most characters of a `size`-character buffer that a preview may not reflect.

    Small enough that a preview looks current; large enough that refreshing only past it
    keeps the total refresh cost within a constant multiple (about `LAG_DIVISOR`) of one
    parse of the final buffer.
    """
    return size // LAG_DIVISOR


class ArgumentsPreview:
    """Incremental view of one JSON object (tool-call arguments) arriving in fragments.

    Fragments may be cut anywhere, including inside escapes and surrogate pairs.

    - `feed(fragment)` costs O(len(fragment)) and returns the text the fragment added to
      a string value (a `StringDelta`), the cheap way to drive a live file preview.
    - `partial()` returns the arguments parsed so far, lagging the buffer by at most
      `max_lag(len(raw))` characters while they change, and exact once `complete()`.
    - Malformed input never raises: the preview stops at the longest well-formed prefix,
      and `feed` returns `None` from then on. So do arguments whose top-level value is
      not an object (preview `{}`) and arguments nested deeper than `MAX_TRACKED_DEPTH`.
    """

    __slots__ = (
        "_chunks",
        "_fresh_until",
        "_leaf_path",
        "_preview",
        "_preview_at",
        "_raw",
        "_size",
        "scanner",
    )

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._raw: str | None = ""
        self._size = 0
        self.scanner = JsonScanner()
        """The JSON scanner over the fragments (read its state; never feed it)."""
        self._preview: dict[str, Any] = {}
        self._preview_at = 0  # the preview is the partial parse of raw[:_preview_at]
        self._fresh_until = 0  # the cached preview is good enough up to this size
        self._leaf_path: tuple[PathKey, ...] | None = None  # set while the preview holds
        # the open string value at this path, and only that string grew (or ended) since

    def feed(self, fragment: str) -> StringDelta | None:
        """Add the next fragment of the arguments' JSON text (see `add`); return the
        text it appended to a string value as a `StringDelta`, with the value's path."""
        text = self.add(fragment)
        return None if text is None else StringDelta(self.scanner.delta_path, text)

    def add(self, fragment: str) -> str | None:
        """Add the next fragment of the arguments' JSON text.

        Returns the decoded text that the fragment appended to a string value (its path
        is then `scanner.delta_path`), or `None` if it appended none (text of keys does
        not count). The stream events call this one: they build the `StringDelta` only
        when it is read. An escape or surrogate pair cut by the fragment's end is held
        back and reported with the fragment that completes it. When one fragment appends to several string
        values (it closes one and opens another), the delta is for the last of them; so
        the deltas of a path always add up to the final value when that value is the
        last string of the arguments (the file-content case), and whenever no fragment
        ends one string value and starts text of the next.
        """
        if not fragment:
            return None
        size_before = self._size
        self._chunks.append(fragment)
        self._size = size_before + len(fragment)
        self._raw = None
        scanner = self.scanner
        delta = scanner.feed(fragment)
        if scanner.changed:
            if not scanner.only_closed_value:
                self._leaf_path = None  # else the final text of the leaf completes it
            if scanner.complete():
                self._fresh_until = -1  # complete arguments are previewed exactly
        elif self._preview_at == size_before and scanner.tracking and not scanner.in_value:
            self._moved_to(self._size)  # whitespace or key text: the parse is the same
        return delta

    @property
    def raw(self) -> str:
        """The JSON text fed so far (joined when first read after a feed, then cached)."""
        if self._raw is None:
            self._raw = "".join(self._chunks)
            self._chunks = [self._raw]
        return self._raw

    @property
    def lag(self) -> int:
        """How many trailing characters of `raw` the last `partial()` did not reflect
        (while previews run: at most `max_lag(len(raw))` right after each `partial()`)."""
        return self._size - self._preview_at

    def partial(self) -> dict[str, Any]:
        """The arguments parsed so far, as `pydantic_core.from_json(raw,
        allow_partial="trailing-strings")` would give them, up to the lag bound.

        An unfinished trailing string is included; unfinished numbers and literals follow
        the parser (`{"n": 12` gives `{"n": 12}` though `123` may follow), so use the
        preview for display only. `{}` until a key has a value.

        The result is a snapshot: it never changes after it is returned, and the same
        object is returned until the preview moves on. Consecutive snapshots share
        unchanged containers and values, so never mutate one; copy it first.
        """
        if self._size <= self._fresh_until:
            return self._preview
        scanner = self.scanner
        if not scanner.tracking:
            self._stop()
        elif self._leaf_path is not None:
            self._preview = _with_leaf(self._preview, self._leaf_path, scanner.value_text())
            self._moved_to(self._size)
        else:
            self._reparse()
        return self._preview

    def complete(self) -> bool:
        """Whether `raw` is one complete JSON value (of any type); O(1) in practice."""
        return self.scanner.complete()

    def _moved_to(self, size: int) -> None:
        """Record that the preview now reflects `raw[:size]`. It stays good enough while
        the buffer grows by at most `size // (LAG_DIVISOR - 1)`, which is exactly while
        `lag <= max_lag(len(raw))`."""
        self._preview_at = size
        self._fresh_until = size + size // (LAG_DIVISOR - 1)

    def _reparse(self) -> None:
        """Replace the preview with a partial parse of the whole buffer.

        Complete arguments go through `json.loads`, which gives the same result on text
        the scanner accepted (no NaN, no lone surrogates) and is faster on a `str`.
        """
        scanner = self.scanner
        try:
            if scanner.complete():
                value = json.loads(self.raw)
            else:
                value = from_json(self.raw, allow_partial="trailing-strings")
        except (ValueError, TypeError, RecursionError):  # not expected: the scanner accepted it
            self._fresh_until = sys.maxsize
            return
        if not isinstance(value, dict):  # not expected either: the root is an object
            self._fresh_until = sys.maxsize
            return
        self._preview = cast("dict[str, Any]", value)
        self._moved_to(self._size)
        if scanner.complete():
            self._fresh_until = sys.maxsize  # only whitespace may follow
        elif (
            scanner.in_value
            and _value_at(self._preview, scanner.value_path) == scanner.value_text()
        ):
            self._leaf_path = scanner.value_path

    def _stop(self) -> None:
        """Freeze the preview: at the longest well-formed prefix if the text went bad,
        as it is if the root is not an object or the nesting went too deep."""
        self._fresh_until = sys.maxsize
        scanner = self.scanner
        failed_at = scanner.failed_at
        if failed_at is None or not scanner.root_is_object or scanner.too_deep:
            return
        try:
            value = from_json(self.raw[:failed_at], allow_partial="trailing-strings")
        except (ValueError, TypeError, RecursionError):
            return
        if isinstance(value, dict):
            self._preview = cast("dict[str, Any]", value)
            self._preview_at = failed_at


def _value_at(root: dict[str, Any], path: tuple[PathKey, ...]) -> object:
    """The value at `path` when each step is an existing key or the last index of a list
    (where a partial parse puts the open value); otherwise `None`."""
    node: object = root
    for key in path:
        if isinstance(node, dict):
            children = cast("dict[PathKey, object]", node)
            if key not in children:
                return None
            node = children[key]
        elif isinstance(node, list) and isinstance(key, int):
            items = cast("list[object]", node)
            if key != len(items) - 1:
                return None
            node = items[key]
        else:
            return None
    return node


def _with_leaf(root: dict[str, Any], path: tuple[PathKey, ...], text: str) -> dict[str, Any]:
    """A copy of `root` with the string at `path` replaced by `text`.

    Only the containers on the path are copied (shallowly), so earlier snapshots keep
    their values and the cost is their width, not the size of the document.
    """
    new_root = dict(root)
    parent: Any = new_root
    for key in path[:-1]:
        child = parent[key].copy()
        parent[key] = child
        parent = child
    parent[path[-1]] = text
    return new_root
