"""The README's servers table stays backed by the corpus: one row per `ChatServer`
toolwire knows, each shape it cites a recorded shape (with its public source) that
`test_shapes.py` runs, cited in the row of a server that sends it, and every shape
cited somewhere."""

from __future__ import annotations

import re
from pathlib import Path

from tests.compat.shapes import all_shapes
from toolwire._adapters.openai_chat.servers import KNOWN_SERVERS
from toolwire.core import ChatServer

README = Path(__file__).resolve().parents[2] / "README.md"
MARKER = "<!-- servers table:"
LINK = re.compile(r"\[([a-z_]+/[a-z_0-9]+)\]\(tests/compat/shapes/\1\.json\)")


def table_rows() -> list[list[str]]:
    """The table's body rows, as cells."""
    text = README.read_text(encoding="utf-8")
    start = text.index(MARKER)
    lines = text[start:].splitlines()[1:]
    rows: list[list[str]] = []
    for line in lines[2:]:  # after the header and its rule
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def profile_of(cell: str) -> ChatServer | None:
    """The `ChatServer` a row's profile cell names (`OLLAMA`), or None (no profile)."""
    found = re.match(r"`([A-Z_]+)`", cell)
    if found is None:
        return None
    profile = getattr(ChatServer, found.group(1))
    assert isinstance(profile, ChatServer), cell
    return profile


def test_one_row_per_known_server_and_each_cited_shape_is_its_own() -> None:
    rows = table_rows()
    assert all(len(row) == 5 for row in rows), [row[0] for row in rows if len(row) != 5]
    profiles = [profile_of(row[1]) for row in rows]
    assert [p for p in profiles if p is not None] == list(KNOWN_SERVERS)
    shapes = {shape.id: shape for shape in all_shapes()}
    cited: set[str] = set()
    for row, profile in zip(rows, profiles, strict=True):
        ids = LINK.findall(row[4])
        assert ids or row[4] == "none found", row[0]
        for shape_id in ids:
            shape = shapes[shape_id]  # a file of the corpus
            assert shape.data["source"]["url"].startswith("https://"), shape_id
            directory = shape_id.split("/")[0]
            if profile is None:  # gateways: the proxies' shapes
                assert directory == "proxies", (row[0], shape_id)
                continue
            own_folder = profile.name.split()[0].lower().replace(".", "") == directory
            named = profile.name.split()[0].lower() in str(shape.data["server"]).lower()
            assert own_folder or named, (row[0], shape_id, shape.data["server"])
        cited.update(ids)
    assert cited == set(shapes), sorted(set(shapes) - cited)
