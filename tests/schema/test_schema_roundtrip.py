"""Property-based round trips: what the compiled schema accepts, the model class accepts.

For every compilation the report calls lossless, any value valid under the compiled schema
(drawn by our own generator, checked with jsonschema) validates into the model, through the
class's own validation (null-for-default, pairs and tuple objects restored). For lossy ones,
every value the class rejects breaks pydantic's own schema at a keyword the report lists.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema.exceptions import ValidationError as SchemaViolation
from pydantic import ValidationError

from tests.strength import scaled
from toolwire._api import Api
from toolwire._schema import input_plan

from ._gen import instances, validator
from ._models import CASES, Case
from ._wire import parse
from .test_schema_battery import COMBOS, compiled_or_none

EXAMPLES = scaled(100)

_settings = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _params(lossless: bool) -> list[Any]:
    params: list[Any] = []
    for case in CASES:
        for api, strict in COMBOS:
            compiled = compiled_or_none(case, api, strict)
            if compiled is not None and compiled.report.lossless == lossless:
                mode = "strict" if strict else "loose"
                params.append(pytest.param(case, api, strict, id=f"{case.name}-{api}-{mode}"))
    return params


@pytest.mark.parametrize(("case", "api", "strict"), _params(lossless=True))
def test_lossless_compilations_round_trip(case: Case, api: Api, strict: bool) -> None:
    """Anything valid under a lossless compiled schema validates into the model."""
    compiled = compiled_or_none(case, api, strict)
    assert compiled is not None

    @_settings
    @given(instances(compiled.schema))
    def round_trip(payload: Any) -> None:
        parse(case.model, api, payload)

    round_trip()


def _broken_keywords(errors: list[SchemaViolation]) -> set[str]:
    """Every keyword on the schema paths of the violations (a propertyNames breach is an
    enum error under propertyNames), descending into anyOf/oneOf branch errors."""
    found: set[str] = set()
    for error in errors:
        if error.context:
            found |= _broken_keywords(list(error.context))
        found.add(str(error.validator))
        found |= {part for part in error.absolute_schema_path if isinstance(part, str)}
    return found


@pytest.mark.parametrize(("case", "api", "strict"), _params(lossless=False))
def test_lossy_compilations_fail_only_where_reported(case: Case, api: Api, strict: bool) -> None:
    """A value the class rejects breaks pydantic's schema at a keyword the report lists."""
    compiled = compiled_or_none(case, api, strict)
    assert compiled is not None
    reported = {change.keyword for change in compiled.report.losses}
    original = case.model.model_json_schema()
    plan = input_plan(original)
    check = validator(original)

    @_settings
    @given(instances(compiled.schema))
    def round_trip(payload: Any) -> None:
        try:
            parse(case.model, api, payload)
        except ValidationError:
            restored = json.loads(json.dumps(payload))
            restored = restored if plan is None else plan.apply(restored)
            broken = _broken_keywords(check.errors(restored))
            assert broken & reported, (broken, reported)

    round_trip()
