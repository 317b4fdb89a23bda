"""Vertex AI's streamed function-call arguments: the `partial_args` fragments of one call
folded into its arguments, and into the JSON text that spells them, so a Gemini stream
gives the same argument events and previews as the other APIs.

With `FunctionCallingConfig(stream_function_call_arguments=True)` Vertex AI sends one
call over several `FunctionCall` parts: the first names it with `will_continue=True`; the
next carry `partial_args`, each a `PartialArg` with an RFC 9535 JSON path (`$.path`,
`$.files[0].text`, `$['odd key']`) and one value (`string_value`, `number_value`,
`bool_value` or `null_value`); the last has `will_continue` unset. String fragments at
one path join (the fragment's own `will_continue` says more text follows there); any
other value replaces what the path held.

The arguments are assembled as the API's own merged call has them: nested objects and
arrays made from the paths, and whole numbers as ints (a Struct's JSON number `3` reads
as `3`, while `number_value` is a double). A path toolwire cannot read (a wildcard, a
filter, a negative index, an index into an object) makes the call unreadable: it is
refused as invalid JSON, never run.

Array elements a path skips are null. The nulls a call's paths add in all are bounded by
`MAX_UNSENT`, the default `ArgumentLimits.max_chars`: each null counts one character, so
arguments with more cannot fit in that limit, and a 30-character path such as
`$.a[10000000000000]` must not cost memory and time in proportion to its index. A path
past the bound makes the call unreadable, like any other. So does a path nested deeper
than any `ArgumentLimits.max_depth` allows (`MAX_DEPTH_CEILING` keys): its call fails the
depth limit, and the fold never holds a tree deep enough to recurse on.

The text: each fragment appends the JSON that writes its value where the paths so far
left off (closing and opening brackets as needed), so the fragments of a call, joined,
are its arguments as JSON, exactly what the other APIs stream. Vertex sends paths in
document order; one that goes back into a container already closed cannot be appended,
so the fold then rewrites the whole text (`add` returns `REWRITE`; the stream starts the
call's preview again from it), leaving the object open so later fragments append again.
Feeding stays linear: a rewrite waits (its fragments add no text) until the text written
since the last one is at least as long as that one, and `close` makes any that waited.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

from ..._json import copy_json
from ..._limits import DEFAULT_LIMITS, MAX_DEPTH_CEILING

__all__ = [
    "MAX_UNSENT",
    "REWRITE",
    "ArgumentsFold",
    "UnreadablePath",
    "fold_arguments",
    "parse_json_path",
    "unreadable_arguments",
]

PathKey = str | int
REWRITE: Final = "\x00rewrite"
"""What `ArgumentsFold.add` returns when the text had to be written again from the
start (read the new text from `ArgumentsFold.text()`)."""

MAX_UNSENT: Final = DEFAULT_LIMITS.max_chars
"""Most array elements one call's paths may skip (each is filled with null)."""
_MAX_INDEX: Final = 2**53 - 1
"""RFC 9535's largest index (I-JSON's exact integers); a longer one is no JSON path."""

# RFC 9535's grammar: blanks inside brackets; names with no surrogate or control character
# unescaped; in a quoted name the other quote as is, its own quote and the JSON escapes
# escaped, and \u escapes of whole characters (a surrogate only in a pair).
_S = r"[ \t\n\r]*"
_NAME = r"A-Za-z_\u0080-\ud7ff\ue000-\U0010ffff"
_UNESCAPED = r"\x20\x21\x23-\x26\x28-\x5b\x5d-\ud7ff\ue000-\U0010ffff"
_HEXCHAR = (
    r"\\u(?:[0-9a-ce-fA-CE-F][0-9a-fA-F]{3}|[dD][0-7][0-9a-fA-F]{2}"
    r"|[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})"
)
_MEMBER = re.compile(rf"\.([{_NAME}][{_NAME}0-9]*)")
_INDEX = re.compile(rf"\[{_S}(0|[1-9][0-9]*){_S}\]")
_QUOTED = re.compile(
    rf"\[{_S}(?:'((?:[{_UNESCAPED}\"]|\\[bfnrt/\\']|{_HEXCHAR})*)'"
    rf"|\"((?:[{_UNESCAPED}']|\\[bfnrt/\\\"]|{_HEXCHAR})*)\"){_S}\]"
)


def parse_json_path(path: str) -> tuple[PathKey, ...] | None:
    """The keys and indexes of a singular RFC 9535 path (`$.a[0]['b c']`), or None for a
    path that names more than one place or is not a JSON path."""
    if not path.startswith("$"):
        return None
    keys: list[PathKey] = []
    at = 1
    while at < len(path):
        found = _MEMBER.match(path, at)
        if found is not None:
            keys.append(found.group(1))
        elif (found := _INDEX.match(path, at)) is not None:
            digits = found.group(1)
            if len(digits) > 16 or int(digits) > _MAX_INDEX:  # no int() of 5,000 digits
                return None
            keys.append(int(digits))
        elif (found := _QUOTED.match(path, at)) is not None:
            single, double = found.group(1), found.group(2)
            if single is not None:  # the same escapes as JSON's, but \' for ' and " as is
                double = single.replace("\\'", "'").replace('"', '\\"')
            keys.append(json.loads('"' + double + '"'))
        else:
            return None
        at = found.end()
    return tuple(keys)


class UnreadablePath(Exception):
    """A fragment whose path cannot be folded."""


def _value_of(partial: Any) -> tuple[Any, bool]:
    """A `PartialArg`'s value, and whether it is a string piece."""
    if partial.string_value is not None:
        return partial.string_value, True
    number = partial.number_value
    if number is not None:
        whole = isinstance(number, float) and number.is_integer() and abs(number) < 2**53
        return (int(number) if whole else number), False
    if partial.bool_value is not None:
        return partial.bool_value, False
    return None, False  # `null_value`, or no value at all: JSON null


class ArgumentsFold:
    """The arguments of one streamed call, fragment by fragment, and their JSON text."""

    __slots__ = (
        "_closers",
        "_counts",
        "_keys",
        "_open",
        "_behind",
        "_dumped",
        "_grown",
        "_pieces",
        "_string",
        "_unsent",
        "arguments",
    )

    def __init__(self) -> None:
        self.arguments: dict[str, Any] = {}
        self._open: list[PathKey] = []
        """The path of the innermost container the text leaves open (the root is [])."""
        self._closers: list[str] = []
        """The bracket that closes each container of `_open`."""
        self._counts: list[int] = [0]
        """Members written so far into each open container, root first."""
        self._keys: list[set[PathKey]] = [set()]
        """The keys (or indexes) written into each open container."""
        self._string: tuple[PathKey, ...] | None = None
        """The path of the string value the text leaves open, if any."""
        self._pieces: list[str] = []
        self._behind = False
        """Whether the text misses fragments (a rewrite waits, see the module)."""
        self._dumped = 0
        """The length of the last rewrite's text."""
        self._grown = 0
        """Characters folded since the last rewrite."""
        self._unsent = 0
        """Array elements the paths skipped so far (see `MAX_UNSENT`)."""

    def add(self, partial: Any) -> str:
        """Fold one `PartialArg`; the JSON text it appends, or `REWRITE`."""
        path = partial.json_path
        keys = parse_json_path(path) if isinstance(path, str) else None
        value, is_string = _value_of(partial)
        continues = bool(partial.will_continue) and is_string
        if keys is None or not keys or len(keys) > MAX_DEPTH_CEILING:
            raise UnreadablePath(path)
        try:
            self._store(keys, value, is_string)
        except (TypeError, IndexError, KeyError) as error:
            raise UnreadablePath(path) from error
        size = len(path) + (len(value) if is_string else 1)
        return self._append(keys, value, is_string, continues, size)

    def add_arguments(self, arguments: Mapping[str, Any]) -> str:
        """Fold a part's whole `args` (each top-level member set as sent, copied: later
        fragments write into it, and the caller's chunk must not change); the JSON text
        it appends, or `REWRITE`."""
        written: list[str] = []
        for name, value in arguments.items():
            self._store((name,), copy_json(value), False)
            written.append(self._append((name,), value, False, False, len(name) + 1))
        return REWRITE if REWRITE in written else "".join(written)

    def close(self) -> str:
        """The text that ends the arguments (after the last fragment), or `REWRITE`
        when a rewrite waited."""
        rewritten = self._behind
        if rewritten:
            self._rewrite()
        out = ["{" if not self._pieces else ""]
        if self._string is not None:
            out.append('"')
        out.extend(reversed(self._closers))
        out.append("}")
        self._string, self._open, self._closers = None, [], []
        piece = "".join(out)
        self._pieces.append(piece)
        return REWRITE if rewritten else piece

    def text(self) -> str:
        """The JSON text of the arguments so far (closed only after `close`; without the
        fragments folded while a rewrite waits)."""
        return "".join(self._pieces)

    def _append(
        self, keys: tuple[PathKey, ...], value: Any, is_string: bool, continues: bool, size: int
    ) -> str:
        """The text a value just stored appends: its JSON, `REWRITE`, or "" while a
        rewrite waits (`size` stands for its text until then)."""
        if not self._behind:
            piece = self._write(keys, value, is_string, continues)
            if piece is not None:
                self._pieces.append(piece)
                self._grown += len(piece)
                return piece
            self._behind = True
        self._grown += size
        return self._rewrite() if self._grown >= self._dumped else ""

    def _rewrite(self) -> str:
        """Write the text again from the arguments, leaving the object open."""
        text = json.dumps(self.arguments, ensure_ascii=False, separators=(",", ":"))[:-1]
        self._pieces = [text]
        self._open, self._closers, self._string = [], [], None
        self._counts, self._keys = [len(self.arguments)], [set(self.arguments)]
        self._behind, self._dumped, self._grown = False, len(text), 0
        return REWRITE

    def _write(
        self, keys: tuple[PathKey, ...], value: Any, is_string: bool, continues: bool
    ) -> str | None:
        """The text that writes `value` at `keys` after what was written, or None when
        it cannot be appended (a path back into a closed container or a closed value)."""
        out: list[str] = [] if self._pieces else ["{"]
        if self._string is not None:
            if is_string and keys == self._string:
                out.append(_escaped(value))
                if not continues:
                    out.append('"')
                    self._string = None
                return "".join(out)
            out.append('"')
            self._string = None
        parent = keys[:-1]
        depth = 0
        while (
            depth < len(self._open) and depth < len(parent) and self._open[depth] == parent[depth]
        ):
            depth += 1
        out.extend(reversed(self._closers[depth:]))
        del self._open[depth:], self._closers[depth:]
        del self._counts[depth + 1 :], self._keys[depth + 1 :]
        for level in range(depth, len(keys)):
            key = keys[level]
            if key in self._keys[level]:
                return None  # a member written before: the text cannot go back to it
            member = self._member(level, key)
            if member is None:
                return None
            out.append(member)
            if level < len(parent):
                array = isinstance(keys[level + 1], int)
                out.append("[" if array else "{")
                self._closers.append("]" if array else "}")
                self._open.append(key)
                self._counts.append(0)
                self._keys.append(set())
        if is_string:
            out.append('"' + _escaped(value))
            if continues:
                self._string = keys
            else:
                out.append('"')
        else:
            out.append(json.dumps(value, ensure_ascii=False))
        return "".join(out)

    def _member(self, level: int, key: PathKey) -> str | None:
        """The text that begins member `key` of the open container at `level`."""
        count = self._counts[level]
        self._keys[level].add(key)
        if isinstance(key, int):
            if key < count:
                return None
            fill = "null," * (key - count)
            self._counts[level] = key + 1
            return ("," if count else "") + fill
        self._counts[level] = count + 1
        return ("," if count else "") + json.dumps(key, ensure_ascii=False) + ":"

    def _store(self, keys: tuple[PathKey, ...], value: Any, is_string: bool) -> None:
        """Set `value` at `keys`, making the containers on the way; a string piece joins
        the string already there. Raises TypeError on a path through the wrong
        container, IndexError past `MAX_UNSENT`."""
        if not isinstance(keys[0], str):
            raise TypeError("the arguments are an object")
        container: Any = self.arguments
        for at, key in enumerate(keys[:-1]):
            empty: Any = [] if isinstance(keys[at + 1], int) else {}
            container = self._child(container, key, empty)
        last = keys[-1]
        if isinstance(container, list):
            if not isinstance(last, int):
                raise TypeError("a key into an array")
            items = cast("list[Any]", container)
            self._reach(items, last)
            previous = items[last]
            items[last] = previous + value if is_string and isinstance(previous, str) else value
            return
        if isinstance(last, int):
            raise TypeError("an index into an object")
        members = cast("dict[str, Any]", container)
        previous = members.get(last)
        members[last] = previous + value if is_string and isinstance(previous, str) else value

    def _child(self, container: Any, key: PathKey, empty: Any) -> Any:
        if isinstance(container, list):
            if not isinstance(key, int):
                raise TypeError("a key into an array")
            items = cast("list[Any]", container)
            self._reach(items, key)
            if items[key] is None:
                items[key] = empty
            found = items[key]
        else:
            if isinstance(key, int):
                raise TypeError("an index into an object")
            members = cast("dict[str, Any]", container)
            found = members.setdefault(key, empty)
        if type(found) is not type(empty):  # a path through a value, or the other container
            raise TypeError("a path through a value that is not its container")
        return found

    def _reach(self, items: list[Any], index: int) -> None:
        """Fill `items` with nulls up to `index`, within `MAX_UNSENT` (checked first)."""
        missing = index + 1 - len(items)
        if missing > 0:
            if self._unsent + missing > MAX_UNSENT:
                raise IndexError("more array elements skipped than MAX_UNSENT")
            self._unsent += missing
            items.extend([None] * missing)


def _escaped(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def unreadable_arguments(arguments: Mapping[str, Any], path: object) -> str:
    """The input of a call with a fragment toolwire cannot place: not JSON, so the call
    is answered as invalid arguments and never runs. A path nested past
    `MAX_DEPTH_CEILING` is written as the members it opens (up to one level past it), so
    the limits check refuses the call as too deep before reading it."""
    keys = parse_json_path(path) if isinstance(path, str) else None
    if keys is not None and len(keys) > MAX_DEPTH_CEILING:
        opened = (
            (json.dumps(key, ensure_ascii=False) + ":" if isinstance(key, str) else "")
            + ("[" if isinstance(inner, int) else "{")
            for key, inner in zip(keys[:MAX_DEPTH_CEILING], keys[1:], strict=False)
        )
        unreadable = "".join(opened)
    else:
        unreadable = f"<unreadable JSON path {path!r}>"
    return json.dumps(arguments, ensure_ascii=False)[:-1] + ", " + unreadable


def fold_arguments(args: Mapping[str, Any] | None, partials: Iterable[Any]) -> dict[str, Any] | str:
    """A call's arguments from its `args` and `partial_args` (a non-streamed read of a
    call Vertex sent in fragments), or the unreadable input (`unreadable_arguments`)."""
    fold = ArgumentsFold()
    if args:
        fold.add_arguments(args)
    for partial in partials:
        try:
            fold.add(partial)
        except UnreadablePath as error:
            return unreadable_arguments(fold.arguments, error.args[0])
    return fold.arguments
