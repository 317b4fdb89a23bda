"""ArgumentsPreview: string deltas, partial previews within the lag bound, malformed input."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import cycle
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inline_snapshot import snapshot
from pydantic_core import from_json

from tests.strength import scaled
from toolwire._streaming._preview import (
    LAG_DIVISOR,
    MAX_TRACKED_DEPTH,
    PARSED_WHOLE_UNTIL,
    ArgumentsPreview,
    StringDelta,
    max_lag,
)
from toolwire._streaming._scanner import JsonScanner

Path = tuple[str | int, ...]

_TRICKY = st.sampled_from(
    ['"', "\\", "{", "}", "[", "]", ":", ",", "/", "\n", "\t", "\x00", "\x1f", "\x7f", " ", "u"]
    + ["é", "ß", "中", "😀", "𝄞", "\u2028", "\ud7ff", "\ue000", "\uffff", "\U0010ffff"]
)
_TEXT = st.text(alphabet=st.one_of(_TRICKY, st.characters(codec="utf-8")), max_size=24)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    _TEXT,
)
_VALUES = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(_TEXT, children, max_size=5),
    max_leaves=25,
)
DOCUMENTS = st.dictionaries(_TEXT, _VALUES, max_size=6)
"""Tool-call arguments: an object whose keys and strings are full of quotes, backslashes,
brackets, control characters and characters outside the BMP (surrogate pairs once
escaped)."""

FILE_DOCUMENTS = st.fixed_dictionaries(
    {"path": _TEXT, "content": st.text(alphabet=_TRICKY, min_size=200, max_size=3000)},
    optional={"mode": _SCALARS, "lines": st.lists(_TEXT, max_size=3)},
)
"""write_file-like arguments: a long string value, so the preview lags and refreshes
through many fragments, and sometimes more values after it."""

LAYOUTS = st.sampled_from(
    [
        {"ensure_ascii": True},
        {"ensure_ascii": False},
        {"ensure_ascii": True, "indent": 2},
        {"ensure_ascii": False, "separators": (",", ":")},
    ]
)
"""How a document is written: `\\uXXXX` escapes (so escapes and surrogate pairs get cut)
or raw characters, with or without whitespace between tokens."""

CUTS = st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=40) | st.lists(
    st.integers(min_value=0, max_value=60), min_size=1, max_size=40
)
"""Fragment sizes, used in a cycle; 0 feeds an empty fragment."""

READS = st.lists(st.booleans(), min_size=1, max_size=10)
"""Whether `partial()` is read after a fragment, used in a cycle."""


def fragments(text: str, sizes: Sequence[int]) -> Iterator[str]:
    """`text` cut into fragments of the given sizes, repeated as needed."""
    if not any(sizes):
        sizes = [1]
    at = 0
    for size in cycle(sizes):
        if at >= len(text):
            return
        yield text[at : at + size]
        at += size


def expected_preview(prefix: str) -> dict[str, Any]:
    """The reference: pydantic's partial parse, `{}` before the first token."""
    if not prefix.strip(" \t\n\r"):
        return {}
    value = from_json(prefix, allow_partial="trailing-strings")
    assert isinstance(value, dict)
    return cast("dict[str, Any]", value)


def strict_json_loads(text: str) -> Any:
    """`json.loads` without its extensions to JSON: NaN and Infinity, lone surrogates."""

    def reject(constant: str) -> Any:
        raise ValueError(f"{constant} is not JSON")

    value = json.loads(text, parse_constant=reject)
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError("a lone surrogate") from error
    return value


def string_values(value: object, path: Path = ()) -> list[tuple[Path, str]]:
    """Every string value of a document with its path, in the order JSON text holds them."""
    if isinstance(value, str):
        return [(path, value)]
    found: list[tuple[Path, str]] = []
    if isinstance(value, dict):
        for key, item in cast("dict[str, object]", value).items():
            found += string_values(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(cast("list[object]", value)):
            found += string_values(item, (*path, index))
    return found


def feed_all(preview: ArgumentsPreview, parts: Sequence[str]) -> dict[Path, str]:
    """Feed every fragment; return the concatenated deltas per path."""
    streamed: dict[Path, str] = {}
    for part in parts:
        delta = preview.feed(part)
        if delta is not None:
            streamed[delta.path] = streamed.get(delta.path, "") + delta.text
    return streamed


@settings(max_examples=scaled(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=DOCUMENTS | FILE_DOCUMENTS, layout=LAYOUTS, cuts=CUTS, reads=READS)
def test_fuzz_preview_matches_pydantic_within_the_lag_bound(
    document: dict[str, Any], layout: dict[str, Any], cuts: list[int], reads: list[bool]
) -> None:
    """Every read equals pydantic's parse of raw minus `lag` chars, within the bound; ends exact."""
    text = json.dumps(document, **layout)
    preview = ArgumentsPreview()
    streamed: dict[Path, str] = {}
    fed = 0
    for part, read in zip(fragments(text, cuts), cycle(reads), strict=False):
        delta = preview.feed(part)
        fed += len(part)
        assert preview.raw == text[:fed]
        if delta is not None:
            assert delta.text
            streamed[delta.path] = streamed.get(delta.path, "") + delta.text
        if read:
            snapshot_ = preview.partial()
            assert 0 <= preview.lag <= max_lag(fed)
            assert snapshot_ == expected_preview(text[: fed - preview.lag])
    assert preview.complete()
    assert preview.partial() == document
    assert preview.lag == 0
    values = string_values(document)
    assert set(streamed) <= {path for path, _ in values}
    for path, value in values:
        assert value.startswith(streamed.get(path, ""))
    non_empty = [(path, value) for path, value in values if value]
    if non_empty:
        last_path, last_value = non_empty[-1]
        assert streamed[last_path] == last_value


@settings(max_examples=scaled(300), deadline=None)
@given(
    document=DOCUMENTS,
    layout=LAYOUTS,
    cuts=CUTS,
    where=st.floats(min_value=0, max_value=1),
    edit=st.sampled_from(["insert", "replace", "delete"]),
    char=st.sampled_from(list('"\\{}[]:, \n\x01x1-.e') + ["tru", "NaN", "\\ud800", "\ufeff"]),
)
def test_fuzz_malformed_input_never_raises_and_freezes(
    document: dict[str, Any],
    layout: dict[str, Any],
    cuts: list[int],
    where: float,
    edit: str,
    char: str,
) -> None:
    """Corrupted text never raises, freezes the preview, and `complete()` matches `json.loads`."""
    text = json.dumps(document, **layout)
    at = round(where * len(text))
    if edit == "insert":
        text = text[:at] + char + text[at:]
    elif edit == "replace":
        text = text[:at] + char + text[at + 1 :]
    else:
        text = text[:at] + text[at + 1 :]
    preview = ArgumentsPreview()
    frozen: dict[str, Any] | None = None
    for part in fragments(text, cuts):
        preview.feed(part)
        current = preview.partial()
        assert current == expected_preview(preview.raw[: len(preview.raw) - preview.lag])
        if frozen is not None:
            assert current is frozen
        elif preview.lag > max_lag(len(preview.raw)):  # only a stopped preview lags more
            frozen = current
    try:
        loaded = strict_json_loads(text)
    except ValueError:
        assert not preview.complete()
    else:
        assert preview.complete()
        if isinstance(loaded, dict):
            assert preview.partial() == loaded


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_every_cut_of_escapes_and_surrogate_pairs(ensure_ascii: bool) -> None:
    """Cut anywhere, escapes and surrogate pairs are never split in deltas, which add up."""
    value = 'q"b\\s/ \n\t\x00é中😀𝄞\u2028"\\\\u12'
    text = json.dumps({"k": "x", "content": value}, ensure_ascii=ensure_ascii)
    for cut in range(len(text) + 1):
        preview = ArgumentsPreview()
        assert feed_all(preview, [text[:cut], text[cut:]])[("content",)] == value
        assert preview.partial() == {"k": "x", "content": value}
    preview = ArgumentsPreview()
    deltas = [preview.feed(char) for char in text]
    texts = [delta.text for delta in deltas if delta is not None and delta.path == ("content",)]
    assert "".join(texts) == value
    assert [piece for piece in texts if any("\ud800" <= char <= "\udfff" for char in piece)] == []


def test_write_file_deltas_and_previews() -> None:
    """A write_file call: each fragment's delta, then the preview and its lag; exact at the end."""
    preview = ArgumentsPreview()
    parts = [' {"path": "a.ht', 'ml", "content": "<p', "x" * 100, "\\n\\u00e9", '"}']
    steps: list[tuple[StringDelta | None, dict[str, Any], int]] = []
    for part in parts:
        delta = preview.feed(part)
        steps.append((delta, preview.partial(), preview.lag))
    assert steps == snapshot(
        [
            (StringDelta(path=("path",), text="a.ht"), {"path": "a.ht"}, 0),
            (StringDelta(path=("content",), text="<p"), {"path": "a.html", "content": "<p"}, 0),
            (
                StringDelta(
                    path=("content",),
                    text="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                ),
                {
                    "path": "a.html",
                    "content": "<pxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                },
                0,
            ),
            (
                StringDelta(
                    path=("content",),
                    text="""\

é\
""",
                ),
                {
                    "path": "a.html",
                    "content": "<pxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                },
                8,
            ),
            (
                None,
                {
                    "path": "a.html",
                    "content": """\
<pxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
é\
""",
                },
                0,
            ),
        ]
    )
    assert preview.complete()


def test_string_value_growth_lags_by_at_most_a_sixteenth() -> None:
    """A growing string refreshes the preview only past 1/16 of lag; deltas stay immediate."""
    preview = ArgumentsPreview()
    preview.feed('{"content": "')
    refreshed_at: list[int] = []
    last = preview.partial()
    for _ in range(400):
        delta = preview.feed("abcdefghij")
        assert delta == StringDelta(("content",), "abcdefghij")
        current = preview.partial()
        if current is not last:
            refreshed_at.append(len(preview.raw))
        last = current
        assert preview.lag <= len(preview.raw) // LAG_DIVISOR
        assert current == {"content": preview.raw[13 : len(preview.raw) - preview.lag]}
    assert refreshed_at[-4:] == snapshot([3193, 3413, 3643, 3893])
    assert len(refreshed_at) == snapshot(58)


def test_snapshots_never_change_and_repeat_until_the_preview_moves() -> None:
    """A returned preview never changes later, and is returned again until the preview
    moves; past `PARSED_WHOLE_UNTIL`, a preview that only the open string moved shares
    every value off that string's path with the one before (below it, a small buffer is
    parsed whole, so sharing there is pydantic's business, not a property)."""
    long = "x" * PARSED_WHOLE_UNTIL
    name = "a.txt: " + "the first file of the batch, " * 3  # past pydantic's 64-char cache
    preview = ArgumentsPreview()
    preview.feed('{"files": [{"name": "' + name + '", "body": "' + long)
    first = preview.partial()
    assert preview.partial() is first
    preview.feed(" two three four five six seven eight nine ten" * 8)
    second = preview.partial()
    assert second is not first
    assert first == {"files": [{"name": name, "body": long}]}
    assert second == {
        "files": [
            {
                "name": name,
                "body": long + " two three four five six seven eight nine ten" * 8,
            }
        ]
    }
    assert second["files"][0]["name"] is first["files"][0]["name"]


def test_closing_the_last_string_reuses_its_text() -> None:
    """Closing the streamed string and its containers reuses its text instead of reparsing."""
    preview = ArgumentsPreview()
    preview.feed('{"files": [{"name": "a", "body": "' + "x" * PARSED_WHOLE_UNTIL)
    preview.partial()
    preview.feed("y" * 200)
    body = preview.partial()["files"][0]["body"]
    assert body == "x" * PARSED_WHOLE_UNTIL + "y" * 200
    for part in ['"', "}", " ]", "}\n"]:
        assert preview.feed(part) is None
    final = preview.partial()
    assert (final, preview.lag, preview.complete()) == (json.loads(preview.raw), 0, True)
    assert final["files"][0]["body"] is body


def test_a_fragment_that_ends_one_string_and_starts_another_reports_the_later() -> None:
    """When one fragment appends to two string values, the delta is the later one's."""
    preview = ArgumentsPreview()
    assert preview.feed('{"a": "x') == StringDelta(("a",), "x")
    assert preview.feed('y", "b": "z') == StringDelta(("b",), "z")
    assert preview.feed('", "c": 1, "d": ["p", "q') == StringDelta(("d", 1), "q")
    assert preview.feed('r"], "e": "s"}') == StringDelta(("e",), "s")
    assert preview.partial() == {"a": "xy", "b": "z", "c": 1, "d": ["p", "qr"], "e": "s"}


def test_keys_with_escapes_and_nested_paths() -> None:
    """Paths hold decoded keys (escapes cut across fragments too) and array indices."""
    preview = ArgumentsPreview()
    parts = ['{"k\\"', "e\\u00", 'e9y": [1, {"\\\\": ["', "x", '", "y', 'z"]}]}']
    assert [preview.feed(part) for part in parts] == snapshot(
        [
            None,
            None,
            None,
            StringDelta(path=('k"eéy', 1, "\\", 0), text="x"),
            StringDelta(path=('k"eéy', 1, "\\", 1), text="y"),
            StringDelta(path=('k"eéy', 1, "\\", 1), text="z"),
        ]
    )
    assert preview.partial() == {'k"eéy': [1, {"\\": ["x", "yz"]}]}


def test_empty_fragments_and_leading_whitespace() -> None:
    """Empty fragments change nothing; whitespace before the object is fine."""
    preview = ArgumentsPreview()
    assert preview.feed("") is None
    assert preview.feed(" \n\t ") is None
    assert (preview.partial(), preview.lag, preview.complete()) == ({}, 0, False)
    assert preview.feed('{"a": "') is None
    assert preview.feed("") is None
    assert preview.feed("b") == StringDelta(("a",), "b")
    assert preview.feed('"} \n') is None
    assert (preview.partial(), preview.raw, preview.complete()) == (
        {"a": "b"},
        ' \n\t {"a": "b"} \n',
        True,
    )


@pytest.mark.parametrize(
    ("text", "complete"),
    [
        ('["a", "b"]', True),
        ('"abc"', True),
        ("12", True),
        ("-0.5e3", True),
        ("null", True),
        ("1.", False),
        ("tru", False),
        ('"ab', False),
        ("[1, 2", False),
    ],
)
def test_a_top_level_value_that_is_not_an_object(text: str, complete: bool) -> None:
    """A non-object top-level value previews as `{}` with no deltas; `complete()` still works."""
    preview = ArgumentsPreview()
    assert [preview.feed(char) for char in text] == [None] * len(text)
    assert preview.partial() == {}
    assert preview.complete() is complete


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1 2}',
        '{"a": 1,}',
        '{"a" 1}',
        '{"a": NaN}',
        '{"a": "x\\q"}',
        '{"a": "x\ny"}',
        '{"a": "\\ud800x"}',
        '{"a": "\\udc00"}',
        '{"a": 01}',
        '{"a": 1} x',
        '{"a": 1}}',
        '{"a": [1]]',
        '\ufeff{"a": 1}',
        '{"a": "\ud800"}',
    ],
)
def test_malformed_input_freezes_the_preview(text: str) -> None:
    """Malformed text never raises, freezes the preview and deltas, and is never complete."""
    preview = ArgumentsPreview()
    for char in text:
        preview.feed(char)
        preview.partial()
    assert preview.feed('"more"') is None
    assert not preview.complete()
    frozen = preview.partial()
    assert frozen == expected_preview(preview.raw[: len(preview.raw) - preview.lag])
    assert preview.partial() is frozen


@pytest.mark.parametrize("size", [2, PARSED_WHOLE_UNTIL])
def test_malformed_previews_show_the_good_prefix(size: int) -> None:
    """The preview is the partial parse up to the first bad character. A small buffer is
    parsed whole, and pydantic's parser stops there too; past `PARSED_WHOLE_UNTIL` the
    scanner finds the bad character and the preview freezes, lagging by what follows."""
    preview = ArgumentsPreview()
    preview.feed('{"a": "' + "o" * size + '", "b": [1, 2 3], "c": "never"}')
    frozen = preview.partial()
    assert frozen == {"a": "o" * size, "b": [1, 2]}
    if size > 2:
        assert preview.lag == len('3], "c": "never"}')
        preview.feed("more")
        assert preview.partial() is frozen


def test_a_number_or_literal_that_cannot_be_json_stops_at_once() -> None:
    """`NaN` (which pydantic accepts) stops the preview at its first letter; `1.5e` does not."""
    preview = ArgumentsPreview()
    preview.feed('{"a": 1.5e')
    assert (preview.partial(), preview.lag) == ({}, 0)
    preview.feed('3, "b": N')
    assert (preview.partial(), preview.lag) == ({"a": 1500.0}, 1)
    preview.feed("aN}")
    assert (preview.partial(), preview.lag, preview.complete()) == ({"a": 1500.0}, 4, False)


def test_huge_single_fragment() -> None:
    """A megabyte in one fragment is one delta and an exact preview."""
    content = 'line \\ "quoted" é😀\n' * 50_000
    text = json.dumps({"path": "big.txt", "content": content}, ensure_ascii=False)
    preview = ArgumentsPreview()
    delta = preview.feed(text[:-2])
    assert delta == StringDelta(("content",), content)
    assert preview.partial() == {"path": "big.txt", "content": content}
    assert preview.feed(text[-2:]) is None
    assert preview.complete()
    assert preview.partial() == {"path": "big.txt", "content": content}


def test_deep_nesting_stops_previews_without_recursion_errors() -> None:
    """Nesting 100,000 deep stops deltas and previews without recursion; completeness is known."""
    depth = 100_000
    preview = ArgumentsPreview()
    preview.feed('{"a": "x", "deep": ')
    assert preview.partial() == {"a": "x"}
    for _ in range(depth):
        preview.feed('{"k": ')
    assert preview.feed('"leaf"') is None
    assert preview.partial() == {"a": "x"}
    preview.feed("}" * (depth + 1))
    assert preview.complete()
    assert preview.partial() == {"a": "x"}


def test_tracked_depth_limit() -> None:
    """Deltas keep their path up to the tracked depth, and stop one level deeper."""
    assert MAX_TRACKED_DEPTH == 200
    at_limit = ArgumentsPreview()
    at_limit.feed('{"k": ' * MAX_TRACKED_DEPTH)
    assert at_limit.feed('"v') == StringDelta(("k",) * MAX_TRACKED_DEPTH, "v")
    assert at_limit.partial() == expected_preview(at_limit.raw)
    too_deep = ArgumentsPreview()
    too_deep.feed('{"k": ' * MAX_TRACKED_DEPTH + "[")
    assert too_deep.feed('"v') is None


def test_raw_is_joined_lazily_and_cached() -> None:
    """`raw` is the text fed so far, the same object until the next feed."""
    preview = ArgumentsPreview()
    preview.feed('{"a"')
    preview.feed(": 1")
    raw = preview.raw
    assert raw == '{"a": 1'
    assert preview.raw is raw
    preview.feed("}")
    assert preview.raw == '{"a": 1}'


def test_max_lag_is_a_sixteenth() -> None:
    """The documented bound, in characters, for a few buffer sizes."""
    assert [max_lag(size) for size in (0, 15, 16, 1000, 100_000)] == [0, 0, 1, 62, 6250]


def test_a_small_buffer_is_previewed_without_scanning(monkeypatch: pytest.MonkeyPatch) -> None:
    """Up to `PARSED_WHOLE_UNTIL` characters a stale preview is pydantic's parse of the
    whole buffer and nothing is scanned; past it the scanner catches up once, each
    character scanned one time, and string deltas read afterwards are still exact. A
    file being written (a last string holding most of the buffer) is scanned early, so
    the leaf shortcut previews it."""
    scanned: list[str] = []
    feed = JsonScanner.feed

    def counting(scanner: JsonScanner, fragment: str) -> str | None:
        scanned.append(fragment)
        return feed(scanner, fragment)

    monkeypatch.setattr(JsonScanner, "feed", counting)
    items = [{"name": f"item {n}", "tags": ["a", "b"]} for n in range(60)]
    title = "App logs me out every time I switch to another app and back"
    ticket = {"title": title, "items": items, "body": "x" * 3000}
    file = {"path": "notes.md", "content": "x" * 3000}
    for document, scanned_after in ((ticket, range(PARSED_WHOLE_UNTIL, 2200)), (file, range(400))):
        scanned.clear()
        first_scan = 0
        text = json.dumps(document)
        preview = ArgumentsPreview()
        positions: list[int] = []
        for at in range(0, len(text), 4):
            positions.append(preview.add(text[at : at + 4]))
            size = min(at + 4, len(text))
            value = preview.partial()
            assert 0 <= preview.lag <= max_lag(size)
            assert value == expected_preview(text[: size - preview.lag])
            first_scan = first_scan or (size if scanned else 0)
        assert first_scan in scanned_after
        assert (preview.partial(), preview.lag) == (document, 0)
        assert "".join(scanned) == text
        deltas = [preview.string_delta_at(position) for position in positions]
        streamed = "".join(d.text for d in deltas if d is not None and d.path[-1] == "body")
        assert streamed == ("x" * 3000 if document is ticket else "")
