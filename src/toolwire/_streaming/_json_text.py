"""Regular expressions and decoders for JSON text that arrives cut at arbitrary points.

The grammar is RFC 8259's, with one deliberate restriction that matches pydantic's
parser: a `\\u` escape of a surrogate must be a high surrogate immediately followed by
a low one (lone surrogates cannot be encoded as UTF-8, and pydantic rejects them).
"""

from __future__ import annotations

import json.decoder
import re
from collections.abc import Callable

__all__ = [
    "BODY",
    "COMPLETE_SCALAR",
    "SCALAR_CHARS",
    "TOKEN",
    "decode_body",
    "decode_if_body",
    "is_escape_prefix",
]

BODY = re.compile(
    r"(?:[^\"\\\x00-\x1f\ud800-\udfff]+"  # plain characters (no raw surrogates)
    r"|\\[\"\\/bfnrt]"  # one-character escapes
    r"|\\u(?![dD][89a-fA-F])[0-9a-fA-F]{4}"  # a \u escape outside the surrogate range
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"  # a surrogate pair
    r")*"
)
"""Matches the longest valid stretch of a JSON string body. It stops at the closing
quote, at an escape that is incomplete (or invalid), or at a character JSON forbids."""

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

_scan_string: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")  # noqa: B009
"""CPython's C string decoder (what `json.loads` runs on every string), about three times
faster on short bodies than a `json.loads` round trip."""


def decode_body(body: str) -> str:
    """Decode a valid string body (no quotes, only complete escapes) into its text."""
    if "\\" not in body:
        return body
    return _scan_string(body + '"', 0)[0]


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def decode_if_body(text: str) -> str | None:
    """Decode `text` if all of it is a valid string body (no closing quote, no cut
    escape, no lone surrogate); `None` otherwise.

    One pass of the C decoder, so the common case (a fragment in the middle of a long
    string value) costs less than matching `BODY` and then decoding.
    """
    if text.endswith("\\") or text.find("\\u", len(text) - 5) >= 0:
        return None  # an escape cut by the end (or a backslash the slow path must count)
    try:
        decoded, end = _scan_string(text + '"', 0)
    except ValueError:  # a cut or invalid escape, or a control character
        return None
    if end != len(text) + 1:  # stopped at a closing quote inside `text`
        return None
    if not decoded.isascii() and _SURROGATE.search(decoded) is not None:
        return None  # half a pair (cut, or lone) or a raw surrogate: the slow path decides
    return decoded


def is_escape_prefix(tail: str) -> bool:
    """Whether `tail` (which starts with a backslash) is an escape the next fragment can
    still complete, rather than an invalid one."""
    return _ESCAPE_PREFIX.fullmatch(tail) is not None
