"""Tools that answer recorded calls with the recorded results, for the round trips."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any, cast

import pydantic

from toolwire.core import BaseFunctionToolModel, ErrorForLLMToSee, ToolGroup


class Answers:
    """The handler context: hands out the recorded results in call order."""

    def __init__(self, results: list[dict[str, Any]]) -> None:
        self._results: Iterator[dict[str, Any]] = iter(results)
        self.served = 0

    def next(self) -> dict[str, Any]:
        self.served += 1
        return next(self._results)


def recorded_text(result: Mapping[str, Any]) -> str:
    """The recorded result as one text: strings as they are, text parts joined,
    a Gemini response object's single string value (or the object as JSON)."""
    content: Any = result["content"]
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = cast("list[dict[str, Any]]", content)
        texts: list[Any] = [p.get("text", "") for p in parts]
        return "".join(t for t in texts if isinstance(t, str))
    if isinstance(content, dict):
        values: list[Any] = list(cast("dict[str, Any]", content).values())
        if len(values) == 1 and isinstance(values[0], str):
            return values[0]
        return json.dumps(content)
    return json.dumps(content)


def is_error(case: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
    notes = {n.split(":")[0] for n in case["notes"]}
    return bool(result.get("is_error")) or (
        "retry_prompt_result" in notes and "Fix the errors" in recorded_text(result)
    )


def recorded_group(
    case: Mapping[str, Any], tools: list[tuple[str, dict[str, Any]]]
) -> ToolGroup[Answers, None]:
    """A group with one permissive tool per recorded tool (extra fields allowed)."""
    classes: list[type[BaseFunctionToolModel[Answers, None]]] = []
    for name, schema in tools:

        class Recorded(BaseFunctionToolModel[Answers, None]):
            model_config = pydantic.ConfigDict(extra="allow")
            model_tool_custom_name = name
            model_tool_custom_json_schema = schema

            def model_tool_handler(self, context: Answers) -> tuple[str, None]:
                result = context.next()
                text = recorded_text(result)
                if is_error(case, result):
                    raise ErrorForLLMToSee(text)
                return text, None

        classes.append(Recorded)
    return ToolGroup.from_list(classes)
