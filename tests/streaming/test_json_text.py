"""Decoding string bodies that arrive cut at arbitrary points."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwire._streaming._json_text import _decode_whole, split_body


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", ("plain", "")),
        ("", ("", "")),
        ('a\\n\\t\\"\\\\\\/', ('a\n\t"\\/', "")),
        ("x\\", ("x", "\\")),
        ("x\\\\", ("x\\", "")),
        ("x\\\\\\", ("x\\", "\\")),
        ("x\\u", ("x", "\\u")),
        ("x\\u00e", ("x", "\\u00e")),
        ("x\\u00e9", ("xé", "")),
        ("x\\\\u00", ("x\\u00", "")),
        ("x\\ud83d", ("x", "\\ud83d")),
        ("x\\ud83d\\", ("x", "\\ud83d\\")),
        ("x\\ud83d\\ude0", ("x", "\\ud83d\\ude0")),
        ("x\\ud83d\\ude00", ("x😀", "")),
        ("😀\\n\\u00", ("😀\n", "\\u00")),
    ],
)
def test_split_body_holds_back_cut_escapes(text: str, expected: tuple[str, str]) -> None:
    """Complete escapes are decoded; an escape or surrogate pair cut by the end is held."""
    assert split_body(text) == expected


def test_split_body_refuses_what_is_not_more_of_the_body() -> None:
    """A closing quote, bad escape, control character or lone surrogate returns `None`."""
    texts = ['ab"', "a\\x", "a\\u12g4", "a\nb", "\\ud800x", "\\udc00", "\\ud83d\\n", "\ud800"]
    assert {text: split_body(text) for text in texts} == dict.fromkeys(texts)


@given(st.text(alphabet=st.characters(exclude_categories=(), exclude_characters="\\"), max_size=60))
def test_text_without_escapes_decodes_as_the_decoder_does(text: str) -> None:
    """The shortcut for plain text agrees with the C decoder on any text without a
    backslash: quotes, control characters, lone surrogates and all."""
    decoded = _decode_whole(text)
    assert split_body(text) == (None if decoded is None else (decoded, ""))
