"""`check_history`: the rules the fakes enforce, run on your own history before sending."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .._api import Api, check_api
from ..exceptions import UnexpectedObjectError
from ._rules import HistoryProblem, sorted_problems
from ._rules_anthropic import anthropic_history_problems
from ._rules_chat import chat_history_problems
from ._rules_gemini import gemini_history_problems
from ._rules_media import media_problems
from ._rules_responses import responses_history_problems

__all__ = ["check_history"]


def check_history(
    history: Sequence[object],
    api: Api,
    *,
    model: str | None = None,
    previous_response: object | None = None,
) -> list[HistoryProblem]:
    """Problems the API would reject `history` for, in plain words; [] when it is fine.

    `history` is what you would send: chat `messages`, Responses `input` items,
    Anthropic `messages`, or Gemini `contents`, as param dicts, SDK objects, or a mix.
    The checks are the live APIs' pairing rules: every call answered exactly once, in
    the right place (chat: tool messages right after the assistant message; Anthropic:
    all tool_result blocks first in the next user message; Gemini: one user Content
    with one function response per call), no result without a call, and Gemini thought
    signatures kept on replayed calls. Images and files must be of a shape the API takes
    where they are (no media in Chat tool messages, no audio in OpenAI tool outputs...);
    `model` adds the rules that depend on it (Gemini models before 3 take no media in
    function responses; Chat audio needs an audio model).

    Responses chained with `previous_response_id`: pass that response as
    `previous_response` (the `Response` or its dict form). Its calls then count as
    coming before `history`, so results sent alone are checked against them; problems
    about its own items have index -1.
    """
    wire = [_wire(entry) for entry in history]
    api = check_api(api)
    if previous_response is not None and api != "responses":
        raise UnexpectedObjectError(
            f"previous_response is for Responses chained with previous_response_id; "
            f"{api} has no stored responses. Pass the whole history instead."
        )
    if api == "chat.completions":
        problems = chat_history_problems(wire)
    elif api == "responses":
        problems = responses_history_problems(
            wire,
            _output_items(previous_response),
            unanswerable_hint="" if previous_response is not None else _CHAINED_HINT,
        )
    elif api == "anthropic":
        problems = anthropic_history_problems(wire)
    else:
        problems = gemini_history_problems(wire)
    return sorted_problems([*problems, *media_problems(wire, api, model=model)])


_CHAINED_HINT = (
    " (chained with previous_response_id? pass that response as previous_response= so "
    "its calls count)"
)


def _output_items(response: object | None) -> list[Mapping[str, Any]]:
    """The output items of a Responses response (SDK object or dict), as wire JSON."""
    if response is None:
        return []
    data = _wire(response)
    output: Any = data.get("output")
    if data.get("object") != "response" or not isinstance(output, list):
        raise UnexpectedObjectError(
            f"previous_response must be the Response that previous_response_id names (or "
            f"its dict form), with its output; got a {type(response).__name__}."
        )
    return [_wire(item) for item in cast("list[object]", output)]


def _wire(entry: object) -> Mapping[str, Any]:
    """`entry` as the JSON the SDK would send (camelCase for google-genai objects)."""
    value = _to_json(entry)
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _to_json(value: object) -> object:
    """`value` as plain JSON-like data, every SDK model in it dumped to its wire form.

    A history holds the model's tool arguments, which may nest thousands of levels
    deep (or, built by hand, contain themselves). So the walk runs on an explicit
    stack, never recursing, and converts each container once (a cycle stays a cycle).
    """
    value = _dumped(value)
    root = _empty_like(value)
    if root is None:
        return value
    # id -> (container, its copy); the container is kept so that its id is not reused.
    converted: dict[int, tuple[object, Any]] = {id(value): (value, root)}
    stack: list[tuple[object, Any]] = [(value, root)]

    def plain(item: object) -> object:
        kind = type(item)
        if kind in _SCALARS:
            return item
        empty: Any = {} if kind is dict else [] if kind is list else None
        if empty is None:
            item = _dumped(item)
            empty = _empty_like(item)
            if empty is None:
                return item
        seen = converted.setdefault(id(item), (item, empty))
        if seen[1] is empty:
            stack.append((item, empty))
        return seen[1]

    while stack:
        source, target = stack.pop()
        if isinstance(target, dict):
            mapping = cast("Mapping[Any, Any]", source)
            cast("dict[Any, Any]", target).update((k, plain(v)) for k, v in mapping.items())
        else:
            target.extend(plain(item) for item in cast("Sequence[Any]", source))
    return root


_SCALARS = frozenset({str, int, float, bool, type(None), bytes})
"""Types `_to_json` passes through without a look (the bulk of a big history)."""


def _dumped(value: object) -> object:
    """An SDK model as its wire JSON; anything else as it is."""
    dump = getattr(value, "model_dump", None)
    if not callable(dump):
        return value
    try:
        return dump(mode="json", by_alias=True, exclude_none=True)
    except ValueError:
        # pydantic's JSON serializer stops at a depth a model's arguments can pass; the
        # Python dump does not (it keeps bytes as bytes, which the rules accept too).
        return dump(mode="python", by_alias=True, exclude_none=True)


def _empty_like(value: object) -> dict[Any, Any] | list[Any] | None:
    """A new, empty container of `value`'s kind, or None when it is not a container."""
    if isinstance(value, dict | Mapping):
        return {}
    if isinstance(value, list | tuple):
        return []
    return None
