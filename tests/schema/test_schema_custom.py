"""Custom JSON schemas: sent as given unless strict; Gemini restricts them to its keywords."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from inline_snapshot import snapshot

from toolwire._api import Api
from toolwire._schema import compile_schema

from ._rules import CHECKERS

STOCK_PRICE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "ticker": {"type": "string", "description": "Ticker symbol of the company."},
        "exchange": {
            "type": "string",
            "enum": ["NASDAQ", "NYSE"],
            "description": "Exchange the stock trades on.",
        },
    },
    "required": ["ticker", "exchange"],
}
"""The custom schema of the seed README's StockPriceTool."""

ODD: dict[str, Any] = {
    "title": "Odd",
    "type": "object",
    "properties": {
        "code": {"type": ["string", "null"], "minLength": 2},
        "kind": {"const": "x"},
        "choice": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
    },
    "required": ["code", "kind", "choice"],
}
"""A hand-written schema using keywords several APIs do not take."""


@pytest.mark.parametrize("api", ["chat.completions", "responses", "anthropic"])
def test_custom_schema_is_sent_as_given_when_not_strict(api: Api) -> None:
    """OpenAI and Anthropic get a non-strict custom schema unchanged, as a copy."""
    compiled = compile_schema(ODD, api, strict=False, custom=True)
    assert compiled.schema == ODD
    assert compiled.schema is not ODD
    assert compiled.report.changes == ()


def test_seed_custom_schema_on_gemini_is_unchanged() -> None:
    """The seed's custom schema uses only keywords Gemini takes, so nothing changes."""
    compiled = compile_schema(STOCK_PRICE, "gemini", strict=False, custom=True)
    assert (compiled.schema, compiled.report.changes) == (STOCK_PRICE, ())


def test_seed_custom_schema_in_openai_strict_is_closed() -> None:
    """Strict mode closes the seed's custom schema; no extra="forbid" needed."""
    compiled = compile_schema(STOCK_PRICE, "chat.completions", strict=True, custom=True)
    assert compiled.schema == {**STOCK_PRICE, "additionalProperties": False}
    assert CHECKERS[("chat.completions", True)](compiled.schema) == []


def test_custom_schema_is_restricted_on_gemini() -> None:
    """Gemini gets a custom schema inside its keyword list, every change reported."""
    before = copy.deepcopy(ODD)
    compiled = compile_schema(ODD, "gemini", strict=False, custom=True)
    assert before == ODD
    assert CHECKERS[("gemini", False)](compiled.schema) == []
    assert compiled.schema == snapshot(
        {
            "title": "Odd",
            "type": "object",
            "properties": {
                "code": {
                    "anyOf": [
                        {"type": "string", "description": "Constraints: at least 2 characters."},
                        {"type": "null"},
                    ]
                },
                "kind": {"enum": ["x"]},
                "choice": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
            },
            "required": ["code", "kind", "choice"],
        }
    )
    assert str(compiled.report) == snapshot("""\
Schema report for gemini (non-strict): 3 changes, 1 lossy.
- code: type rewritten: the type list ["string", "null"] is written as anyOf of single types
- code: minLength moved_to_description [lossy]: at least 2 characters: gemini does not take minLength, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- kind: const rewritten: const "x" is written as a one-value enum\
""")


@pytest.mark.parametrize("api", ["chat.completions", "anthropic"])
def test_custom_schema_compiled_when_strict(api: Api) -> None:
    """With strict, a custom schema is compiled like any other, keeping its root title."""
    compiled = compile_schema(ODD, api, strict=True, custom=True)
    assert CHECKERS[(api, True)](compiled.schema) == []
    assert (
        compiled.schema
        == snapshot(
            {
                "chat.completions": {
                    "title": "Odd",
                    "type": "object",
                    "properties": {
                        "code": {
                            "type": ["string", "null"],
                            "description": "Constraints: at least 2 characters.",
                        },
                        "kind": {"const": "x"},
                        "choice": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                    },
                    "required": ["code", "kind", "choice"],
                    "additionalProperties": False,
                },
                "anthropic": {
                    "title": "Odd",
                    "type": "object",
                    "properties": {
                        "code": {
                            "anyOf": [
                                {
                                    "type": "string",
                                    "description": "Constraints: at least 2 characters.",
                                },
                                {"type": "null"},
                            ]
                        },
                        "kind": {"const": "x"},
                        "choice": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                    },
                    "required": ["code", "kind", "choice"],
                    "additionalProperties": False,
                },
            }
        )[api]
    )
    assert (
        str(compiled.report)
        == snapshot(
            {
                "chat.completions": """\
Schema report for chat.completions (strict): 3 changes, 2 lossy.
- (root): additionalProperties closed: keys not listed are refused (strict mode closes every object)
- code: minLength moved_to_description [lossy]: at least 2 characters: chat.completions does not take minLength, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- choice: oneOf rewritten [lossy]: oneOf is written as anyOf; chat.completions does not take oneOf, and a value matching several branches is now accepted by the API (toolwire's validation decides)\
""",
                "anthropic": """\
Schema report for anthropic (strict): 4 changes, 2 lossy.
- (root): additionalProperties closed: keys not listed are refused (strict mode closes every object)
- code: type rewritten: the type list ["string", "null"] is written as anyOf of single types
- code: minLength moved_to_description [lossy]: at least 2 characters: anthropic does not take minLength, so it is stated in the description; the API no longer enforces it, toolwire's validation still does
- choice: oneOf rewritten [lossy]: oneOf is written as anyOf; anthropic does not take oneOf, and a value matching several branches is now accepted by the API (toolwire's validation decides)\
""",
            }
        )[api]
    )
