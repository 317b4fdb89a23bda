"""Regular expressions and decoders for JSON text that arrives cut at arbitrary points.

The grammar is RFC 8259's, with one deliberate restriction that matches pydantic's
parser: no lone surrogates. A `\\u` escape of a surrogate must be a high surrogate
immediately followed by a low one, and a raw surrogate code point is not a character at
all (neither can be encoded as UTF-8; pydantic rejects both).
"""

from __future__ import annotations

import json.decoder
import re
from collections.abc import Callable

__all__ = [
    "BODY",
    "COMPLETE_SCALAR",
    "SCALAR_CHARS",
    "SCALAR_PREFIX",
    "TOKEN",
    "decode_body",
    "is_escape_prefix",
    "split_body",
]

BODY = re.compile(
    r"(?:[^\"\\\x00-\x1f\ud800-\udfff]++"  # plain characters (no raw surrogates)
    r"|\\[\"\\/bfnrt]"  # one-character escapes
    r"|\\u(?![dD][89a-fA-F])[0-9a-fA-F]{4}"  # a \u escape outside the surrogate range
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"  # a surrogate pair
    r")*+"
)
"""Matches the longest valid stretch of a JSON string body. It stops at the closing
quote, at an escape that is incomplete (or invalid), or at a character JSON forbids.

The repetition is possessive (`*+`): the alternatives never trade characters, so no
backtracking is needed, and the engine keeps no state per escape (a plain `*` made a
megabyte of escaped text cost a hundred megabytes)."""

_ESCAPE_PREFIX = re.compile(
    r"\\(?:u(?:[0-9a-fA-F]{0,3}"
    r"|[dD][89abAB][0-9a-fA-F]{2}(?:\\(?:u(?:[dD](?:[c-fC-F][0-9a-fA-F]?)?)?)?)?))?"
)
"""Matches an escape cut short by the end of the text (a lone backslash, `\\u12`, or a
high surrogate whose low half has not arrived yet), which the next fragment may finish."""

TOKEN = re.compile(r"[ \t\n\r]*(?:([{\[])|([}\]])|([:,])|(\")|([-+.0-9A-Za-z]+))?")
"""One token outside strings, after optional whitespace. Groups: 1 an opening bracket,
2 a closing bracket, 3 a colon or comma, 4 a quote opening a string, 5 a number or
literal (checked with `COMPLETE_SCALAR` once it ends). No group: whitespace only, then
the end of the text or a character that cannot start a token."""

SCALAR_CHARS = re.compile(r"[-+.0-9A-Za-z]*")
"""The continuation of a number or literal cut by the end of the previous fragment."""

COMPLETE_SCALAR = re.compile(
    r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null"
)
"""A whole JSON number or literal."""

SCALAR_PREFIX = re.compile(
    r"-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*|(?:\.[0-9]+)?[eE][-+]?[0-9]*)?)?"
    r"|t(?:r(?:ue?)?)?|f(?:a(?:l(?:se?)?)?)?|n(?:u(?:ll?)?)?"
)
"""The start of a JSON number or literal (which more characters may complete)."""

_scan_string: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")  # noqa: B009
"""The C string decoder `json.loads` runs on every string (a long-standing attribute of
`json.decoder` that typeshed leaves out, hence `getattr`); about three times faster on a
short body than a `json.loads` round trip."""


def decode_body(body: str) -> str:
    """Decode a valid string body (no quotes, only complete escapes) into its text."""
    if "\\" not in body:
        return body
    return _scan_string(body + '"', 0)[0]


_SURROGATE = re.compile(r"[\ud800-\udfff]")

_LONGEST_CUT_ESCAPE = len("\\ud83d\\udc0")
"""A high surrogate escape followed by all but the last digit of its low half."""


def split_body(text: str) -> tuple[str, str] | None:
    """Decode `text` as more of a string body, holding back an escape cut by its end.

    Returns `(decoded, held)`, where `held` is the raw tail (`\\`, `\\u12`, a high
    surrogate escape waiting for its low half...) that the next fragment completes, or
    `None` when `text` is not just more of the body (it closes the string, or holds an
    invalid escape, a control character or a lone surrogate): the caller's general path
    then decides. One pass of the C decoder: cheaper than matching `BODY`, then decoding.
    """
    maybe_cut = text.endswith("\\") or text.find("\\u", len(text) - 5) >= 0
    if not maybe_cut:
        decoded = _decode_whole(text)
        if decoded is not None:
            return decoded, ""
    # A cut escape starts at the last backslash that begins an escape (an even offset in
    # its run of backslashes; the others close a `\\\\` pair) within the longest cut.
    window = max(0, len(text) - _LONGEST_CUT_ESCAPE)
    end = len(text)
    while (last := text.rfind("\\", window, end)) >= 0:
        first = last
        while first > 0 and text[first - 1] == "\\":
            first -= 1
        if (last - first) % 2 == 0 and is_escape_prefix(text[last:]):
            head = _decode_whole(text[:last])
            if head is not None:
                return head, text[last:]
        end = first
    if maybe_cut:  # e.g. it ends with an escaped backslash: nothing was cut after all
        decoded = _decode_whole(text)
        if decoded is not None:
            return decoded, ""
    return None


def _decode_whole(text: str) -> str | None:
    """Decode `text` if all of it is a string body whose text has no surrogate."""
    try:
        decoded, end = _scan_string(text + '"', 0)
    except ValueError:  # a cut or invalid escape, or a control character
        return None
    if end != len(text) + 1:  # stopped at a closing quote inside `text`
        return None
    if not decoded.isascii() and _SURROGATE.search(decoded) is not None:
        return None  # half a pair (cut, or lone) or a raw surrogate
    return decoded


def is_escape_prefix(tail: str) -> bool:
    """Whether `tail` (which starts with a backslash) is an escape the next fragment can
    still complete, rather than an invalid one."""
    return _ESCAPE_PREFIX.fullmatch(tail) is not None
