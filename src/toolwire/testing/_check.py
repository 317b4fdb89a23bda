"""`check_history`: the rules the fakes enforce, run on your own history before sending."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .._api import Api, check_api
from ._rules import HistoryProblem
from ._rules_anthropic import anthropic_history_problems
from ._rules_chat import chat_history_problems
from ._rules_gemini import gemini_history_problems
from ._rules_responses import responses_history_problems

__all__ = ["check_history"]


def check_history(history: Sequence[object], api: Api) -> list[HistoryProblem]:
    """Problems the API would reject `history` for, in plain words; [] when it is fine.

    `history` is what you would send: chat `messages`, Responses `input` items,
    Anthropic `messages`, or Gemini `contents`, as param dicts, SDK objects, or a mix.
    The checks are the live APIs' pairing rules: every call answered exactly once, in
    the right place (chat: tool messages right after the assistant message; Anthropic:
    all tool_result blocks first in the next user message; Gemini: one user Content
    with one function response per call), no result without a call, and Gemini thought
    signatures kept on replayed calls.
    """
    wire = [_wire(entry) for entry in history]
    api = check_api(api)
    if api == "chat.completions":
        return chat_history_problems(wire)
    if api == "responses":
        return responses_history_problems(wire)
    if api == "anthropic":
        return anthropic_history_problems(wire)
    return gemini_history_problems(wire)


def _wire(entry: object) -> Mapping[str, Any]:
    """`entry` as the JSON the SDK would send (camelCase for google-genai objects)."""
    value = _to_json(entry)
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _to_json(value: object) -> object:
    if isinstance(value, Mapping):
        mapping = cast("Mapping[str, Any]", value)
        return {key: _to_json(item) for key, item in mapping.items()}
    if isinstance(value, list | tuple):
        return [_to_json(item) for item in cast("Sequence[Any]", value)]
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        dumped: Any = dump(mode="json", by_alias=True, exclude_none=True)
        return _to_json(dumped)
    return value
