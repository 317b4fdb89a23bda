"""A resumable JSON scanner: grammar, nesting path and string-value text, fragment by fragment.

It never builds the document. Each fragment is scanned once: a regular expression jumps
over string bodies, and only the text between strings is tokenized, so feeding costs
O(len(fragment)). The state it keeps (where the text stands in the grammar, the path of
keys and indices down to the current value, the decoded text of the string value being
streamed) is what the preview needs to stay cheap, and what a live file preview needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ._json_text import (
    BODY,
    COMPLETE_SCALAR,
    SCALAR_CHARS,
    SCALAR_PREFIX,
    TOKEN,
    decode_body,
    is_escape_prefix,
    split_body,
)

__all__ = ["MAX_TRACKED_DEPTH", "JsonScanner", "PathKey", "StringDelta"]

PathKey = str | int
"""One step of a path: a key of an object or an index of an array."""

MAX_TRACKED_DEPTH = 200
"""Deepest nesting (the root object is depth 1) at which paths and previews are kept;
pydantic's JSON parser refuses deeper input, so previews stop past it."""

# Where the text stands, between two characters of the input.
_VALUE = 0  # a value must follow (document start, after ":", after "," in an array)
_VALUE_OR_CLOSE = 1  # right after "["
_KEY = 2  # after "," in an object
_KEY_OR_CLOSE = 3  # right after "{"
_COLON = 4  # after a key
_COMMA_OR_CLOSE = 5  # after a value inside a container
_DONE = 6  # the top-level value is complete; only whitespace may follow
_IN_KEY = 7  # inside a key string
_IN_VALUE = 8  # inside a string value
_IN_SCALAR = 9  # inside a number or literal that the fragment end may have cut
_FAILED = 10  # the text is not a prefix of any JSON value

_VALUE_STATES = (_VALUE, _VALUE_OR_CLOSE)
_KEY_STATES = (_KEY, _KEY_OR_CLOSE)

_CHECKED_SCALAR_LENGTH = 64
"""A cut number or literal is checked for viability while at most this long."""


@dataclass(frozen=True, slots=True)
class StringDelta:
    """Text that one fragment appended to a string value of the arguments.

    Attributes:
        path: keys and indices from the root object down to the string value, e.g.
            `("content",)` or `("files", 2, "body")`.
        text: the decoded text appended (escapes resolved; never half an escape or half
            a surrogate pair: those wait for the fragment that completes them).
    """

    path: tuple[PathKey, ...]
    text: str


class JsonScanner:
    """Track a JSON text fed in fragments without parsing it into values.

    Attributes:
        changed: whether the last fragment could change a partial parse of the text,
            that is, did more than append to the string value that was already open
            or add whitespace (or key text) outside values.
        only_closed_value: whether all that came since a fragment began inside a string
            value is the rest of that string and then closing brackets and whitespace
            (a partial parse then differs by that string's final text alone).
        failed_at: offset of the first character that makes the text invalid JSON, or
            `None` while it is still a prefix of some JSON value.
        root_is_object: whether the top-level value is an object (`None` until known).
        too_deep: whether nesting ever went past `MAX_TRACKED_DEPTH`.
        tracking: whether paths and string-value text are being kept (the root is an
            object, the nesting stayed within the cap and the text is still valid).
        value_path: path of the string value that is open, or was open last.
        delta_path: path of the string value the text `feed` last returned went to.
    """

    __slots__ = (
        "_carry",
        "_key_parts",
        "_offset",
        "_path",
        "_scalar_parts",
        "_scalar_start",
        "_state",
        "_value_parts",
        "changed",
        "delta_path",
        "only_closed_value",
        "failed_at",
        "root_is_object",
        "too_deep",
        "tracking",
        "value_path",
    )

    def __init__(self) -> None:
        self._state = _VALUE
        self._path: list[PathKey | None] = []  # per open container: its key (None before
        # the first one) or the index of its current element (an int marks an array)
        self._carry = ""  # an escape cut by the end of the last fragment, raw
        self._key_parts: list[str] = []  # raw body of the key being read
        self._scalar_parts: list[str] = []  # raw text of the number or literal being read
        self._scalar_start = 0
        self._value_parts: list[str] = []  # decoded text of the open (or last) string value
        self._offset = 0
        self.changed = False
        self.only_closed_value = False
        self.failed_at: int | None = None
        self.root_is_object: bool | None = None
        self.too_deep = False
        self.tracking = True
        self.value_path: tuple[PathKey, ...] = ()
        self.delta_path: tuple[PathKey, ...] = ()

    @property
    def in_value(self) -> bool:
        """Whether the text ends inside a string value."""
        return self._state == _IN_VALUE

    def value_text(self) -> str:
        """The decoded text of the open string value so far (held-back escapes excluded).

        Joining is linear in the text; the pieces are merged so a later call only pays
        for what arrived since.
        """
        parts = self._value_parts
        if len(parts) != 1:
            parts[:] = ["".join(parts)]
        return parts[0]

    def complete(self) -> bool:
        """Whether the text fed so far is one complete JSON value (whitespace around it
        allowed)."""
        if self._state == _DONE:
            return True
        if self._state == _IN_SCALAR and not self._path:
            return COMPLETE_SCALAR.fullmatch("".join(self._scalar_parts)) is not None
        return False

    def feed(self, fragment: str) -> str | None:
        """Scan one more fragment; return the decoded text it appended to a string value
        (`delta_path` is that value's path), or None if it appended none.

        When the fragment touched several string values, the text is the last one's
        that received text (the one still open at the end, if any); text appended to an
        earlier value closed by the same fragment is not reported. Returning the text,
        not a `StringDelta`, saves an object per fragment: the stream events build one
        only when read.
        """
        start = self._offset
        self._offset = start + len(fragment)
        if self._state == _IN_VALUE and self.tracking:
            # Fast paths: the fragment only extends the open string value.
            if (
                fragment
                and not self._carry
                and '"' not in fragment
                and "\\" not in fragment
                and fragment.isprintable()
            ):
                # Plain text (no quote, no escape, no control character or lone
                # surrogate, which are not printable) decodes to itself: most fragments
                # of a file's content.
                self.changed = self.only_closed_value = False
                self._value_parts.append(fragment)
                self.delta_path = self.value_path
                return fragment
            split = split_body(self._carry + fragment if self._carry else fragment)
            if split is not None:
                text, self._carry = split
                self.changed = self.only_closed_value = False
                if not text:
                    return None
                self._value_parts.append(text)
                self.delta_path = self.value_path
                return text
        if self._state == _FAILED or not fragment:
            self.changed = False
            return None
        return self._scan(fragment, start)

    def _scan(self, fragment: str, start: int) -> str | None:
        """The general path: tokenize `fragment`, which begins at offset `start`."""
        text = fragment
        if self._carry:
            text = self._carry + fragment
            start -= len(self._carry)
            self._carry = ""
        end = len(text)
        pos = 0
        changed = False
        only_closed_value = self.only_closed_value
        delta_path: tuple[PathKey, ...] | None = None
        delta_text = ""
        path = self._path
        while pos < end:
            state = self._state
            if state in (_IN_VALUE, _IN_KEY):
                body = BODY.match(text, pos)
                assert body is not None  # the pattern matches the empty string
                stop = body.end()
                closed = stop < end and text[stop] == '"'
                if stop < end and not closed:
                    if not is_escape_prefix(text[stop:]):
                        return self._fail(start + stop)
                    self._carry = text[stop:]
                if stop > pos:
                    if state == _IN_KEY:
                        self._key_parts.append(text[pos:stop])
                    elif self.tracking:
                        delta_text = decode_body(text[pos:stop])
                        delta_path = self.value_path
                        self._value_parts.append(delta_text)
                if not closed:
                    break
                changed = True
                only_closed_value = state == _IN_VALUE and pos == 0  # open before `text`
                pos = stop + 1
                if state == _IN_KEY:
                    path[-1] = decode_body("".join(self._key_parts))
                    self._key_parts = []
                    self._state = _COLON
                else:
                    self._state = _COMMA_OR_CLOSE if path else _DONE
                continue
            if state == _IN_SCALAR:
                scalar = SCALAR_CHARS.match(text, pos)
                assert scalar is not None  # the pattern matches the empty string
                stop = scalar.end()
                changed = True
                only_closed_value = False
                if stop > pos:
                    self._scalar_parts.append(text[pos:stop])
                    pos = stop
                    if pos == end:
                        if not self._scalar_may_continue():
                            return self._fail(self._scalar_start)
                        break
                if COMPLETE_SCALAR.fullmatch("".join(self._scalar_parts)) is None:
                    return self._fail(self._scalar_start)
                self._scalar_parts = []
                self._state = _COMMA_OR_CLOSE if path else _DONE
                continue
            match = TOKEN.match(text, pos)
            assert match is not None  # the pattern matches the empty string
            kind = match.lastindex
            if kind is None:
                if match.end() == end:
                    break  # whitespace only
                return self._fail(start + match.end())
            changed = True
            only_closed_value = only_closed_value and kind == 2
            at = match.start(kind)
            char = text[at]
            pos = match.end()
            if kind == 1:  # "{" or "["
                if state not in _VALUE_STATES:
                    return self._fail(start + at)
                if not path:
                    self._set_root(char == "{")
                path.append(None if char == "{" else 0)
                if len(path) > MAX_TRACKED_DEPTH and not self.too_deep:
                    self.too_deep = True
                    self.tracking = False
                self._state = _KEY_OR_CLOSE if char == "{" else _VALUE_OR_CLOSE
            elif kind == 2:  # "}" or "]"
                in_array = bool(path) and type(path[-1]) is int
                if char == "}":
                    ok = bool(path) and not in_array and state in (_KEY_OR_CLOSE, _COMMA_OR_CLOSE)
                else:
                    ok = in_array and state in (_VALUE_OR_CLOSE, _COMMA_OR_CLOSE)
                if not ok:
                    return self._fail(start + at)
                path.pop()
                self._state = _COMMA_OR_CLOSE if path else _DONE
            elif kind == 3:  # ":" or ","
                if char == ":":
                    if state != _COLON:
                        return self._fail(start + at)
                    self._state = _VALUE
                else:
                    if state != _COMMA_OR_CLOSE:
                        return self._fail(start + at)
                    index = path[-1]
                    if type(index) is int:
                        path[-1] = index + 1
                        self._state = _VALUE
                    else:
                        self._state = _KEY
            elif kind == 4:  # '"'
                if state in _KEY_STATES:
                    self._state = _IN_KEY
                elif state in _VALUE_STATES:
                    if not path:
                        self._set_root(False)
                    self._state = _IN_VALUE
                    if self.tracking:  # every frame above a value holds its key or index
                        self.value_path = cast("tuple[PathKey, ...]", tuple(path))
                        self._value_parts = []
                else:
                    return self._fail(start + at)
            else:  # a number or literal
                if state not in _VALUE_STATES:
                    return self._fail(start + at)
                if not path:
                    self._set_root(False)
                token = match.group(5)
                if pos == end:  # the fragment may have cut it
                    self._scalar_parts = [token]
                    self._scalar_start = start + at
                    self._state = _IN_SCALAR
                    if not self._scalar_may_continue():
                        return self._fail(start + at)
                    break
                if COMPLETE_SCALAR.fullmatch(token) is None:
                    return self._fail(start + at)
                self._state = _COMMA_OR_CLOSE if path else _DONE
        self.changed = changed
        self.only_closed_value = only_closed_value
        if delta_path is None:
            return None
        self.delta_path = delta_path
        return delta_text

    def resumable_copy(self) -> JsonScanner:
        """A scanner in this one's place in the grammar, to scan the same text again
        fragment by fragment (the preview's lazy string deltas). It shares nothing this
        one mutates, and starts with no string-value text: `value_text()` of the copy
        covers only what it is fed."""
        copy = JsonScanner.__new__(JsonScanner)
        copy._state = self._state
        copy._path = list(self._path)
        copy._carry = self._carry
        copy._key_parts = list(self._key_parts)
        copy._scalar_parts = list(self._scalar_parts)
        copy._scalar_start = self._scalar_start
        copy._value_parts = []
        copy._offset = self._offset
        copy.changed = self.changed
        copy.only_closed_value = self.only_closed_value
        copy.failed_at = self.failed_at
        copy.root_is_object = self.root_is_object
        copy.too_deep = self.too_deep
        copy.tracking = self.tracking
        copy.value_path = self.value_path
        copy.delta_path = self.delta_path
        return copy

    def _scalar_may_continue(self) -> bool:
        """Whether the number or literal cut by the fragment's end can still become a
        valid one (so `NaN` fails at its `N`, before a preview could show it).

        Checked while it is short (every literal, any sensible number): a longer one is
        checked when it ends, which keeps the cost linear.
        """
        parts = self._scalar_parts
        if len(parts) > 1:
            parts[:] = ["".join(parts)]
        token = parts[0]
        return len(token) > _CHECKED_SCALAR_LENGTH or SCALAR_PREFIX.fullmatch(token) is not None

    def _set_root(self, is_object: bool) -> None:
        self.root_is_object = is_object
        if not is_object:
            self.tracking = False

    def _fail(self, offset: int) -> None:
        """Record that the text stopped being JSON at `offset`; nothing is tracked after."""
        self.failed_at = offset
        self._state = _FAILED
        self._carry = ""
        self.tracking = False
        self.changed = True
        self.only_closed_value = False
