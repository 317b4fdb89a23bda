"""Access to `../shared` (the recorded conformance corpus and the seed README).

Developer machines and `.ci/run` have it beside the project root; GitHub Actions
and users' clones do not. Tests that need it skip without it, unless
`TOOLWIRE_REQUIRE_SHARED=1` (set by `.ci/run`), which turns its absence into a
failure.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CASES = SHARED / "conformance" / "cases"
SEED_README = SHARED / "seed" / "toolcall-README.md"

EXCLUDED_TAGS = frozenset(
    {
        "multimodal_tool_result",
        "multimodal_sidecar_message",
        "followup_uses_item_id_as_call_id",
        "calls_not_echoed_in_followup",
    }
)


def require_shared() -> None:
    """Skip the calling test without `../shared`, or fail when it is required."""
    if SHARED.is_dir():
        return
    message = f"{SHARED} is missing (it exists on developer machines and in .ci/run)"
    if os.environ.get("TOOLWIRE_REQUIRE_SHARED") == "1":
        pytest.fail(message + " but TOOLWIRE_REQUIRE_SHARED=1")
    pytest.skip(message)


@cache
def all_cases() -> tuple[dict[str, Any], ...]:
    """Every recorded case, sorted by id (empty without `../shared`: parameter sets made
    from it come out empty, which pytest skips; with `TOOLWIRE_REQUIRE_SHARED=1` it fails
    instead, so those tests fail at collection rather than skip)."""
    if not CASES.is_dir():
        if os.environ.get("TOOLWIRE_REQUIRE_SHARED") == "1":
            pytest.fail(f"{CASES} is missing but TOOLWIRE_REQUIRE_SHARED=1", pytrace=False)
        return ()
    loaded: list[dict[str, Any]] = []
    for path in sorted(CASES.glob("*.json")):
        if path.name != "index.json":
            loaded.append(json.loads(path.read_text()))
    return tuple(loaded)


def is_round_trip(case: dict[str, Any]) -> bool:
    """The corpus README's eligibility rule for round-trip cases."""
    return (
        case["followup_status"] == 200
        and bool(case["tool_results"])
        and not EXCLUDED_TAGS.intersection(note.split(":")[0] for note in case["notes"])
    )


def round_trip_cases(api: str, *, stream: bool) -> list[Any]:
    """Eligible cases of `api` as pytest params (ids = case ids)."""
    return [
        pytest.param(case, id=case["id"])
        for case in all_cases()
        if case["api"] == api and case["stream"] == stream and is_round_trip(case)
    ]
