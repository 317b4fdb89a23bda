"""A linear-cost preview of a tool call's arguments (one JSON object) arriving in fragments.

Reading a partial parse of the whole buffer after every fragment is quadratic: on 100 KB
in 2,000 fragments it costs hundreds of times as much as collecting the fragments and
parsing once (`benchmarks/bench_preview.py`). This preview keeps the total linear:

- `add` only buffers a fragment; the scanner (`JsonScanner`) catches up over the pending
  fragments, as one text, when a preview is stale or a string delta is read, so a
  stream whose previews are read on every event scans each stretch once, not fragment
  by fragment. While fragments only extend the string value that is open (the usual
  case: a file's content), a fragment's `StringDelta` is just that fragment decoded,
  exact whenever it is read.
- `partial` is computed when read. While the buffer is small (`PARSED_WHOLE_UNTIL`), it
  is pydantic's partial parse of the whole buffer and nothing is scanned: the C parser
  reads a few hundred characters of arguments for less than the scanner spends
  tokenizing a few of their keys in Python. Past that size, if only the open string
  value grew since the last preview (or it ended and only closing brackets followed, as
  at the end of a file write), the new preview is the old one with that string
  replaced: the containers on its path are copied, nothing else. Otherwise the whole
  buffer is parsed again with pydantic's partial parser.
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
from bisect import bisect_right
from typing import Any, cast

from pydantic_core import from_json

from ._scanner import MAX_TRACKED_DEPTH, JsonScanner, PathKey, StringDelta

__all__ = [
    "LAG_DIVISOR",
    "MAX_TRACKED_DEPTH",
    "PARSED_WHOLE_UNTIL",
    "ArgumentsPreview",
    "StringDelta",
    "max_lag",
]

LAG_DIVISOR = 16
"""The preview may miss at most 1/LAG_DIVISOR of the buffer (see `max_lag`)."""

PARSED_WHOLE_UNTIL = 2048
"""Up to this many characters, a stale preview is a fresh parse of the whole buffer, and
the scanner catches up only when something else needs it (a string delta, a larger
buffer, or a last string value holding over 3/4 of the buffer, such as a file being
written, which the leaf shortcut then previews for less). pydantic's parser spends far fewer instructions per character than the
scanner tokenizing the same structure in Python (feeding a realistic 701-character
ticket in 4-character fragments, with a preview read after each, costs 28% fewer
instructions this way), and the leaf shortcut only pays on long strings; past this size
the scanner keeps refreshes linear."""


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

    - `add(fragment)` only buffers the fragment (a stream makes one event per fragment,
      read or not); the scanner catches up when something needs it: a preview that is
      stale, or a fragment's string delta.
    - `string_delta_at(position)` is the text fragment `position` appended to a string
      value (a `StringDelta`), exactly as if every fragment had been scanned on arrival,
      whenever and in whatever order it is read. `feed(fragment)` adds and returns it.
    - `partial()` returns the arguments parsed so far, lagging the buffer by at most
      `max_lag(len(raw))` characters while they change, and exact once `complete()`.
    - Malformed input never raises: the preview stops at the longest well-formed prefix,
      and no string delta is reported from then on. So do arguments whose top-level value
      is not an object (preview `{}`) and arguments nested deeper than
      `MAX_TRACKED_DEPTH`. (While the buffer is parsed whole, pydantic's parser either
      stops at the first bad character too, with the same preview, or refuses the text,
      and the scanner then finds where it went bad.)

    The catch-up scans all pending fragments as one text. When more than one was pending,
    the scanner's state before them is kept with them, and the first read of a string
    delta among them scans them again one by one from that state (once per batch): a
    reader of `partial()` alone pays for one scan, a reader of every string delta as it
    arrives for one scan per fragment, as before.
    """

    __slots__ = (
        "_batches",
        "_chunks",
        "_deltas",
        "_fresh_bound",
        "_fresh_until",
        "_leaf_path",
        "_pending",
        "_preview",
        "_preview_at",
        "_scanned",
        "_scanned_size",
        "_size",
        "_scanner",
        "successor",
    )

    def __init__(self) -> None:
        self._chunks: list[str] = []  # every fragment (joined by `raw`)
        self._pending: list[str] = []  # the fragments the scanner has not seen yet
        self._scanned = 0  # how many fragments the scanner has seen
        self._scanned_size = 0  # and their length
        self._size = 0
        self._scanner = JsonScanner()
        self._deltas: dict[int, tuple[tuple[PathKey, ...], str]] = {}  # known string
        # deltas by fragment position (a scanned position absent here appended none,
        # unless it lies in one of `_batches`)
        self._batches: list[tuple[int, list[str], JsonScanner]] = []  # fragments scanned
        # together, whose deltas are not known yet: first position, the fragments, and a
        # copy of the scanner from before them
        self._preview: dict[str, Any] = {}
        self._preview_at = 0  # the preview is the partial parse of raw[:_preview_at]
        self._fresh_bound = 0  # the cached preview is good enough up to this size
        self._fresh_until = 0  # the same, or -1 when a fragment may have completed the
        # arguments (they are then previewed exactly)
        self._leaf_path: tuple[PathKey, ...] | None = None  # set while the preview holds
        # the open string value at this path, and only that string grew (or ended) since
        self.successor: ArgumentsPreview | None = None
        """The preview that replaced this one when the arguments started again (the API
        sent them anew): events of the earlier fragments preview from it."""

    def replaced(self) -> ArgumentsPreview:
        """A new, empty preview for the arguments sent again, which this one's events
        preview from from now on (each keeps its own fragment's string delta).

        This preview is marked stale for good, so a read of `partial_arguments` finds it
        so in its first test and reaches `partial`, which follows `successor`: the read
        every live display makes on every event pays nothing for restarts."""
        successor = self.successor = ArgumentsPreview()
        self._fresh_until = -1
        return successor

    @property
    def scanner(self) -> JsonScanner:
        """The JSON scanner, caught up with every fragment (read its state; never feed
        it)."""
        self._catch_up()
        return self._scanner

    def add(self, fragment: str) -> int:
        """Buffer the next fragment of the arguments' JSON text (a non-empty one); return
        its position (0, 1, ...), which `string_delta_at` takes. Costs O(1): nothing is
        scanned until it is needed."""
        self._chunks.append(fragment)
        pending = self._pending
        pending.append(fragment)
        self._size += len(fragment)
        if "}" in fragment:  # the arguments may be complete: check on the next read
            self._fresh_until = -1
        return self._scanned + len(pending) - 1

    def feed(self, fragment: str) -> StringDelta | None:
        """Add the next fragment and return the text it appended to a string value as a
        `StringDelta` (see `string_delta_at`); None for an empty fragment."""
        if not fragment:
            return None
        return self.string_delta_at(self.add(fragment))

    def string_delta_at(self, position: int) -> StringDelta | None:
        """The decoded text that fragment `position` appended to a string value, with
        the value's path, or `None` if it appended none (text of keys does not count).

        An escape or surrogate pair cut by the fragment's end is held back and reported
        with the fragment that completes it. When one fragment appends to several string
        values (it closes one and opens another), the delta is for the last of them; so
        the deltas of a path always add up to the final value when that value is the
        last string of the arguments (the file-content case), and whenever no fragment
        ends one string value and starts text of the next.
        """
        if position >= self._scanned:
            self._catch_up()
        found = self._deltas.get(position)
        if found is None and self._batches:
            self._rescan_batch_of(position)
            found = self._deltas.get(position)
        return None if found is None else StringDelta(*found)

    @property
    def raw(self) -> str:
        """The JSON text fed so far (joined when first read after a feed, then cached)."""
        return self._joined()

    def _joined(self) -> str:
        """`raw`, for the refreshes: a method call costs less than a property read from
        inside the class, on the path of a stale `partial_arguments`."""
        chunks = self._chunks
        if len(chunks) != 1:
            chunks[:] = ["".join(chunks)]
        return chunks[0]

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
        if self.successor is not None:  # the arguments were sent again: the newest copy's
            newest = self.successor
            while newest.successor is not None:
                newest = newest.successor
            return newest.partial()
        if self._size <= PARSED_WHOLE_UNTIL and self._leaf_path is None and self._parsed_whole():
            return self._preview
        self._catch_up()
        scanner = self._scanner
        if self._size <= self._fresh_bound and not scanner.complete():
            self._fresh_until = self._fresh_bound  # a "}" inside a value, or an early one
        elif not scanner.tracking:
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

    def _catch_up(self) -> None:
        """Scan the pending fragments, as one text, and note what they changed."""
        pending = self._pending
        if not pending:
            return
        scanner = self._scanner
        first = self._scanned
        size_before = self._scanned_size
        self._pending = []
        self._scanned = first + len(pending)
        self._scanned_size = self._size
        if len(pending) == 1:
            text = scanner.feed(pending[0])
            if text is not None:
                self._deltas[first] = (scanner.delta_path, text)
        else:
            self._batches.append((first, pending, scanner.resumable_copy()))
            scanner.feed("".join(pending))
        if scanner.changed:
            if not scanner.only_closed_value:
                self._leaf_path = None  # else the final text of the leaf completes it
        elif self._preview_at == size_before and scanner.tracking and not scanner.in_value:
            self._moved_to(self._size)  # whitespace or key text: the parse is the same

    def _rescan_batch_of(self, position: int) -> None:
        """Learn the string deltas of the batch holding fragment `position` (if one
        does): scan its fragments again, one by one, from the state before them."""
        batches = self._batches
        at = bisect_right(batches, position, key=_first_position) - 1
        if at < 0:
            return
        first, fragments, scanner = batches[at]
        if position >= first + len(fragments):
            return
        del batches[at]
        deltas = self._deltas
        for offset, fragment in enumerate(fragments):
            text = scanner.feed(fragment)
            if text is not None:
                deltas[first + offset] = (scanner.delta_path, text)

    def _moved_to(self, size: int) -> None:
        """Record that the preview now reflects `raw[:size]`. It stays good enough while
        the buffer grows by at most `size // (LAG_DIVISOR - 1)`, which is exactly while
        `lag <= max_lag(len(raw))`."""
        self._preview_at = size
        if self.successor is not None:  # replaced (a string delta read late caught up):
            return  # stay stale, so reads go on to the successor
        self._fresh_until = self._fresh_bound = size + size // (LAG_DIVISOR - 1)

    def _settle(self) -> None:
        """Keep the preview as it is from now on."""
        self._fresh_until = self._fresh_bound = sys.maxsize

    def _parsed_whole(self) -> bool:
        """Replace the preview with a partial parse of the whole buffer, without the
        scanner; False when the text is not (the start of) a JSON object, whose preview
        the scanner works out (where the text went bad, or that the root is no object).

        The result is the documented preview itself (no lag); a fragment holding a "}"
        is parsed again whole, which stays cheap because the buffer is small."""
        raw = self._joined()
        tail = len(raw) - raw.rfind('"')  # at the end: a string body with no quote in it
        if tail >= _LONG_STRING and tail * 4 > len(raw) * 3:
            return False  # a long last string (a file being written): from here the leaf
            # shortcut costs less than parsing whole, once the scanner has caught up
        try:
            value: Any = from_json(raw, allow_partial="trailing-strings", allow_inf_nan=False)
        except (ValueError, TypeError, RecursionError):  # malformed (a raw surrogate is a
            # TypeError), or nested past the parser's limit
            return False
        if value.__class__ is not dict:  # the parser makes plain dicts (no `cast` call on
            # this path: it runs on most previews of a small call)
            return False
        self._preview = value
        self._moved_to(self._size)
        return True

    def _reparse(self) -> None:
        """Replace the preview with a partial parse of the whole buffer.

        Complete arguments go through `json.loads`, which gives the same result on text
        the scanner accepted (no NaN, no lone surrogates) and is faster on a `str`.
        """
        scanner = self._scanner
        try:
            if scanner.complete():
                value = json.loads(self.raw)
            else:
                value = from_json(self.raw, allow_partial="trailing-strings")
        except (ValueError, TypeError, RecursionError):  # not expected: the scanner accepted it
            self._settle()
            return
        if not isinstance(value, dict):  # not expected either: the root is an object
            self._settle()
            return
        self._preview = cast("dict[str, Any]", value)
        self._moved_to(self._size)
        if scanner.complete():
            self._settle()  # only whitespace may follow
        elif (
            scanner.in_value
            and _value_at(self._preview, scanner.value_path) == scanner.value_text()
        ):
            self._leaf_path = scanner.value_path

    def _stop(self) -> None:
        """Freeze the preview: at the longest well-formed prefix if the text went bad,
        as it is if the root is not an object or the nesting went too deep."""
        self._settle()
        scanner = self._scanner
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


def _first_position(batch: tuple[int, list[str], JsonScanner]) -> int:
    return batch[0]


_LONG_STRING = 256
"""Text this long after the buffer's last quote, over 3/4 of a small buffer, is taken for
a long string value and previewed by the leaf shortcut (shorter ones, such as a title
at the start, are parsed whole)."""


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
