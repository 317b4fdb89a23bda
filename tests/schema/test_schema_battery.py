"""The battery of user models, compiled for every API and strictness, checked by code."""

from __future__ import annotations

import copy
import itertools

import pytest
from inline_snapshot import snapshot
from pydantic import BaseModel

from toolwire._api import API_NAMES, Api
from toolwire._schema import CompiledSchema, compile_schema
from toolwire.exceptions import SchemaError

from ._gen import validator
from ._models import CASES, Case
from ._rules import CHECKERS
from ._wire import parse, wire_for

COMBOS: list[tuple[Api, bool]] = [(api, strict) for api in API_NAMES for strict in (True, False)]


def tool_schema(model: type[BaseModel]) -> dict[str, object]:
    """The parameters schema the tool class hands the compiler (root title/description gone)."""
    schema = model.model_json_schema()
    schema.pop("title", None)
    schema.pop("description", None)
    return schema


def compiled_or_none(case: Case, api: Api, strict: bool) -> CompiledSchema | None:
    try:
        return compile_schema(tool_schema(case.model), api, strict=strict)
    except SchemaError:
        return None


PARAMS = [
    pytest.param(case, api, strict, id=f"{case.name}-{api}-{'strict' if strict else 'loose'}")
    for case, (api, strict) in itertools.product(CASES, COMBOS)
]
COMPILED = [p for p in PARAMS if compiled_or_none(*p.values) is not None]  # pyright: ignore[reportArgumentType]
"""The combinations that compile (refusals are pinned by test_what_each_api_takes)."""


def test_what_each_api_takes() -> None:
    """Every battery model compiles, lossless or lossy, or is refused, as this table says.

    Only the combinations that are not lossless are listed; lossy ones name each loss.
    """
    table: dict[str, dict[str, str]] = {}
    for case in CASES:
        row: dict[str, str] = {}
        for api, strict in COMBOS:
            compiled = compiled_or_none(case, api, strict)
            if compiled is not None and compiled.report.lossless:
                continue
            verdict = (
                "refused"
                if compiled is None
                else "lossy: "
                + ", ".join(f"{c.path or '(root)'} {c.keyword}" for c in compiled.report.losses)
            )
            row[f"{api} {'strict' if strict else 'loose'}"] = verdict
        table[case.name] = row
    assert table == snapshot(
        {
            "Optionals": {},
            "Defaults": {},
            "Nested": {},
            "Lists": {},
            "Enums": {},
            "Literals": {"gemini strict": "lossy: flag const", "gemini loose": "lossy: flag const"},
            "Discriminated": {},
            "PlainUnions": {},
            "TreeNode": {},
            "Recursive": {},
            "RequiredRecursion": {"gemini strict": "refused", "gemini loose": "refused"},
            "Dicts": {
                "gemini strict": "lossy: by_letter propertyNames",
                "gemini loose": "lossy: by_letter propertyNames",
            },
            "Constrained": {
                "chat.completions strict": "lossy: code maxLength, code minLength",
                "responses strict": "lossy: code maxLength, code minLength",
                "anthropic strict": "lossy: code maxLength, code minLength, slug pattern, age maximum, age minimum, ratio exclusiveMaximum, ratio exclusiveMinimum, even multipleOf, picks maxItems",
                "gemini strict": "lossy: code maxLength, code minLength, slug pattern, ratio exclusiveMaximum, ratio exclusiveMinimum, even multipleOf",
                "gemini loose": "lossy: code maxLength, code minLength, slug pattern, ratio exclusiveMaximum, ratio exclusiveMinimum, even multipleOf",
            },
            "Dates": {},
            "Aliases": {},
            "Tuples": {},
            "Sets": {},
            "Extras": {
                "chat.completions strict": "lossy: (root) additionalProperties",
                "responses strict": "lossy: (root) additionalProperties",
                "anthropic strict": "lossy: (root) additionalProperties",
                "gemini strict": "lossy: (root) additionalProperties",
            },
            "Forbid": {},
            "AnyField": {
                "chat.completions strict": "refused",
                "responses strict": "refused",
                "anthropic strict": "refused",
            },
            "Empty": {},
            "Described": {},
        }
    )


@pytest.mark.parametrize(("case", "api", "strict"), COMPILED)
def test_compiled_schema_obeys_the_api_rules(case: Case, api: Api, strict: bool) -> None:
    """The compiled schema passes the API's rule checker (keywords, closed objects, refs...)."""
    compiled = compile_schema(tool_schema(case.model), api, strict=strict)
    assert CHECKERS[(api, strict)](compiled.schema) == []


@pytest.mark.parametrize(("case", "api", "strict"), COMPILED)
def test_valid_calls_are_accepted_and_validate_back(case: Case, api: Api, strict: bool) -> None:
    """What the model sends for each instance is valid there and validates to the instance."""
    compiled = compile_schema(tool_schema(case.model), api, strict=strict)
    check = validator(compiled.schema)
    for instance in case.instances():
        payload = wire_for(instance, compiled.schema)
        assert check.errors(payload) == []
        assert parse(case.model, api, payload) == instance


@pytest.mark.parametrize(("case", "api", "strict"), PARAMS)
def test_compilation_is_pure(case: Case, api: Api, strict: bool) -> None:
    """Compiling leaves its input untouched and gives equal results twice."""
    schema = tool_schema(case.model)
    before = copy.deepcopy(schema)
    try:
        first = compile_schema(schema, api, strict=strict)
    except SchemaError as error:
        with pytest.raises(SchemaError) as again:
            compile_schema(schema, api, strict=strict)
        assert str(again.value) == str(error)
    else:
        assert compile_schema(schema, api, strict=strict) == first
    assert schema == before
