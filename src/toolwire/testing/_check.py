"""`check_history`: the rules the fakes enforce, run on your own history before sending."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._api import Api, check_api
from ..exceptions import UnexpectedObjectError
from ._kits import kit
from ._rules import HistoryProblem, sorted_problems
from ._wire import wire_json

if TYPE_CHECKING:
    from .._adapters.openai_chat.servers import ChatServer

__all__ = ["check_history"]


def check_history(
    history: Sequence[object],
    api: Api | ChatServer,
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

    `api` may be a `ChatServer`: what that server refuses is checked too (content null
    where it takes `""`, call ids of the wrong form, reasoning fields it does not take
    back, and, once the history shows it thinking, a tool-call turn without the reasoning
    it needs back).

    Responses chained with `previous_response_id`: pass that response as
    `previous_response` (the `Response` or its dict form). Its calls then count as
    coming before `history`, so results sent alone are checked against them; problems
    about its own items have index -1.
    """
    wire = [wire_json(entry) for entry in history]
    name = check_api(api)
    rules = kit(name)
    if previous_response is None:
        problems = rules.history_problems(wire)
    elif rules.chained_history_problems is None:
        raise UnexpectedObjectError(
            f"previous_response is for Responses chained with previous_response_id; "
            f"{name} has no stored responses. Pass the whole history instead."
        )
    else:
        problems = rules.chained_history_problems(wire, previous_response)
    if not isinstance(api, str) and rules.dialect_history_problems is not None:
        problems += rules.dialect_history_problems(wire, api)
    return sorted_problems([*problems, *rules.media_problems(wire, model=model)])
