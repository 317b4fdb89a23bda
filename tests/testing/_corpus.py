"""The shared conformance corpus, for the testing-kit tests (skips when it is absent)."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any, cast

import pytest

CASES_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "cases"

Case = dict[str, Any]


@functools.cache
def _load() -> tuple[Case, ...]:
    return tuple(
        cast(Case, json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(CASES_DIR.glob("*.json"))
        if path.name != "index.json"
    )


def corpus_cases() -> tuple[Case, ...]:
    """Every recorded case; skips the test without `../shared`, fails if it is required."""
    if not CASES_DIR.is_dir():
        message = f"the shared conformance corpus is missing at {CASES_DIR}"
        if os.environ.get("TOOLWIRE_REQUIRE_SHARED") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return _load()


def corpus_case(case_id: str) -> Case:
    """One case by id, as a fresh copy a test may mutate."""
    for case in corpus_cases():
        if case["id"] == case_id:
            return cast(Case, json.loads(json.dumps(case)))
    raise LookupError(f"no corpus case {case_id!r}")


def accepted_followups(api: str) -> list[tuple[str, dict[str, Any]]]:
    """(case id, follow-up request body) of every case of `api` the live API accepted."""
    return [
        (case["id"], cast(dict[str, Any], case["followup_request"]))
        for case in corpus_cases()
        if case["api"] == api and case["followup_status"] == 200
    ]
