"""The shared conformance corpus, for the testing-kit tests (skips when it is absent)."""

from __future__ import annotations

import json
from typing import Any, cast

from tests.shared_data import all_cases, require_shared

Case = dict[str, Any]


def corpus_cases() -> tuple[Case, ...]:
    """Every recorded case; skips the test without `../shared`, fails if it is required."""
    require_shared()
    return all_cases()


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
