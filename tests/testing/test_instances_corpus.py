"""Minimal and invalid values for every tool and output schema in the recorded requests."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any, cast

from inline_snapshot import snapshot

from toolwire.testing._instances import UnsupportedSchemaError, invalid_instance, minimal_instance

from ._corpus import Case, corpus_cases
from ._jsonschema import conforms, lower_types

EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


def _as_list(value: Any) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else [value]


def _object(value: Any) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _schemas(case: Case) -> Iterator[tuple[str, Any]]:
    """(name, schema) of each function tool and structured-output format the request offers."""
    request = case["request"]
    api = case["api"]
    if api == "openai-chat":
        for tool in request.get("tools", []):
            if tool["type"] == "function":
                function = tool["function"]
                yield function["name"], function.get("parameters") or EMPTY_PARAMETERS
        response_format = _object(request.get("response_format"))
        if response_format.get("type") == "json_schema":
            yield "response_format", response_format["json_schema"]["schema"]
    elif api == "openai-responses":
        for tool in request.get("tools", []):
            if tool["type"] == "function":
                yield tool["name"], tool.get("parameters") or EMPTY_PARAMETERS
        text_format = _object(_object(request.get("text")).get("format"))
        if text_format.get("type") == "json_schema":
            yield "text.format", text_format["schema"]
    elif api == "anthropic":
        for tool in request.get("tools", []):
            if "input_schema" in tool:
                yield tool["name"], tool["input_schema"]
        output_format = _object(_object(request.get("output_config")).get("format"))
        if output_format:
            yield "output_config.format", output_format["schema"]
    else:
        for tool in map(_object, _as_list(request.get("tools", []))):
            declarations = tool.get("functionDeclarations") or tool.get("function_declarations")
            for declaration in map(_object, _as_list(declarations or [])):
                schema = (
                    declaration.get("parametersJsonSchema")
                    or declaration.get("parameters_json_schema")
                    or declaration.get("parameters")
                    or EMPTY_PARAMETERS
                )
                yield declaration["name"], schema
        config = _object(request.get("generationConfig"))
        if "responseJsonSchema" in config:
            yield "responseJsonSchema", config["responseJsonSchema"]


def test_every_recorded_schema() -> None:
    """Each distinct recorded schema gets a valid minimal value, or a clear unsupported error."""
    every = [(name, schema) for case in corpus_cases() for name, schema in _schemas(case)]
    distinct = {json.dumps(schema, sort_keys=True): (name, schema) for name, schema in every}
    outcome: Counter[str] = Counter()
    for name, schema in distinct.values():
        checked = lower_types(schema)
        try:
            value = minimal_instance(schema, where=f"tool {name!r}")
        except UnsupportedSchemaError as error:
            outcome[f"unsupported: {error.keyword}"] += 1
        else:
            assert conforms(value, checked), name
            outcome["valid minimal value"] += 1
        broken = invalid_instance(schema)
        if broken is None:
            outcome["accepts every object"] += 1
        else:
            assert not conforms(broken, checked, formats=False), name
            outcome["invalid value found"] += 1
    assert (len(every), len(distinct)) == snapshot((765, 52))
    assert dict(outcome) == snapshot(
        {
            "valid minimal value": 51,
            "invalid value found": 51,
            "unsupported: pattern": 1,
            "accepts every object": 1,
        }
    )
