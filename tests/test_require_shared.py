"""`TOOLWIRE_REQUIRE_SHARED=1` turns every way a test could skip for a missing
`../shared` into a failure: `require_shared()` in a test, and the parameter sets built
from `all_cases()`, which otherwise come out empty (pytest skips an empty set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import shared_data


@pytest.fixture
def no_shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "shared"
    monkeypatch.setattr(shared_data, "SHARED", missing)
    monkeypatch.setattr(shared_data, "CASES", missing / "conformance" / "cases")
    shared_data.all_cases.cache_clear()


def test_required_shared_fails_every_way(no_shared: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLWIRE_REQUIRE_SHARED", "1")
    with pytest.raises(pytest.fail.Exception):
        shared_data.require_shared()
    with pytest.raises(pytest.fail.Exception):
        shared_data.round_trip_cases("anthropic", stream=False)
    with pytest.raises(pytest.fail.Exception):
        shared_data.all_cases()


def test_without_the_requirement_they_skip(
    no_shared: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLWIRE_REQUIRE_SHARED", raising=False)
    with pytest.raises(pytest.skip.Exception):
        shared_data.require_shared()
    assert shared_data.round_trip_cases("anthropic", stream=False) == []


def teardown_module() -> None:
    shared_data.all_cases.cache_clear()  # the real corpus again for later tests
