"""History rules of the Gemini API, on the request's `contents` list (camelCase wire JSON).

A *function call turn* is a run of consecutive `role: "model"` contents
(streamed turns are often replayed one content per chunk, which the API
accepts) holding `functionCall` parts. What the live API rejects, and how
each rule reads:

- a call turn not followed by one user content holding exactly one
  `functionResponse` part per call (live: "Please ensure that the number of
  function response parts is equal to the number of function call parts of
  the function call turn"), responses split across user contents, and
  function responses with no call turn right before them;
- a response whose name does not match its call: matched by `id` when both
  the calls and the response carry ids, otherwise by position (responses in
  call order), and a response without a name (a call that came without a name is
  answered under toolwire's placeholder name, `unnamed_function`);
- a replayed `functionCall` part that lost the `thoughtSignature` the model
  sent (live: MISSING_THOUGHT_SIGNATURE, "Function call is missing a
  thought_signature"). The fake passes `signatures`, keyed by
  `gemini_signature_key(function_call)` = `"{name}:{args as canonical JSON}"`
  (sorted keys, no spaces, `{}` for missing args), for every call it signed;
  signatures compare as bytes, so standard and URL-safe base64 both match.
  Within one turn, the parts whose call has a signed key must include one
  carrying that signature and none carrying another (the model signs only
  the first of identical parallel calls). Calls with equal names and
  arguments share a key, so the fake should derive each signature from its
  key; then replays of older turns check too. Independently of `signatures`,
  a turn whose first `functionCall` part has no signature while a later one
  has is reported: the model signs the first call, so a part was lost or
  reordered.

Accepted: calls with or without ids (a response carries `id` exactly when its
call had one, but the API also accepts ids the client added to both), text
or media parts beside the responses and in later user contents, a missing
`role` (read as "user"), and snake_case keys (`function_call`...).
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..._adapters.gemini.results import NAMELESS_CALL_NAME
from ..._limits import MAX_DEPTH_CEILING, ArgumentLimits, check_dict
from .._rules import HistoryProblem, blocks_of, field, quoted, sorted_problems, text_field

__all__ = ["gemini_history_problems", "gemini_signature_key"]


def gemini_signature_key(function_call: Mapping[str, Any]) -> str:
    """The `signatures` key of a `functionCall`: its name and canonical JSON arguments.

    Arguments that are not JSON (nested past `MAX_DEPTH_CEILING` levels, cyclic, or
    holding other values) get a key no signed call has, since the API signs only what
    it sent as JSON.
    """
    name = text_field(function_call, "name")
    args: Any = field(function_call, "args") or {}
    walkable = isinstance(args, Mapping | list)  # check_dict walks a list as well
    if walkable and check_dict(cast("Mapping[str, Any]", args), _KEY_LIMITS) is not None:
        return f"{name}:(arguments nested too deep to compare)"
    try:
        canonical = json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return f"{name}:(arguments that are not JSON)"
    return f"{name}:{canonical}"


_KEY_LIMITS = ArgumentLimits(max_chars=sys.maxsize, max_depth=MAX_DEPTH_CEILING)


class _Call:
    def __init__(self, content: int, part: Mapping[str, Any], call: Mapping[str, Any]) -> None:
        self.content = content
        self.name = text_field(call, "name") or NAMELESS_CALL_NAME
        self.id = text_field(call, "id")
        self.signature: str | bytes | None = field(part, "thoughtSignature", "thought_signature")
        self.key = gemini_signature_key(call)


class _Response:
    def __init__(self, content: int, response: Mapping[str, Any]) -> None:
        self.content = content
        self.name = text_field(response, "name")
        self.id = text_field(response, "id")


def gemini_history_problems(
    contents: Sequence[Mapping[str, Any]],
    *,
    signatures: Mapping[str, bytes | str] | None = None,
) -> list[HistoryProblem]:
    """Every reason the Gemini API would reject `contents`, in order.

    `signatures` maps `gemini_signature_key(call)` to the thought signature the
    model sent with that call (bytes, or base64 text as on the wire).
    """
    expected = {key: _signature_bytes(value) for key, value in (signatures or {}).items()}
    problems: list[HistoryProblem] = []
    attributed: set[int] = set()
    index = 0
    while index < len(contents):
        if not _is_model(contents[index]):
            if index not in attributed:
                problems += _orphans(index, contents[index])
            index += 1
            continue
        end = index
        calls: list[_Call] = []
        while end < len(contents) and _is_model(contents[end]):
            calls += _calls_in(end, contents[end])
            end += 1
        if calls:
            problems += _signature_problems(calls, expected)
            turn = f"contents[{index}]" if end - index == 1 else f"contents[{index}:{end}]"
            problems += _answers(calls, turn, contents, end, attributed)
        index = end
    return sorted_problems(problems)


def _is_model(content: Mapping[str, Any]) -> bool:
    return text_field(content, "role") == "model"


def _calls_in(index: int, content: Mapping[str, Any]) -> list[_Call]:
    calls: list[_Call] = []
    for part in blocks_of(content, "parts"):
        call = field(part, "functionCall", "function_call")
        if isinstance(call, Mapping):
            calls.append(_Call(index, part, call))  # pyright: ignore[reportUnknownArgumentType]
    return calls


def _responses_in(index: int, content: Mapping[str, Any]) -> list[_Response]:
    responses: list[_Response] = []
    for part in blocks_of(content, "parts"):
        response = field(part, "functionResponse", "function_response")
        if isinstance(response, Mapping):
            responses.append(_Response(index, response))  # pyright: ignore[reportUnknownArgumentType]
    return responses


def _signature_bytes(value: bytes | str) -> bytes:
    if isinstance(value, bytes):
        return value
    text = value.strip().replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return value.encode()


def _signature_problems(calls: list[_Call], expected: Mapping[str, bytes]) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    flagged: set[int] = set()
    by_key: dict[str, list[_Call]] = {}
    for call in calls:
        by_key.setdefault(call.key, []).append(call)
    fix = "replay the model's Content exactly as received, keeping every part's thought_signature"
    for key, same in by_key.items():
        if key not in expected:
            continue
        signed = [c for c in same if c.signature is not None]
        wrong = [c for c in signed if _signature_bytes(c.signature or b"") != expected[key]]
        call = same[0] if not signed else wrong[0] if wrong else None
        if call is None:
            continue
        where = f"contents[{call.content}] (model): the functionCall part for {call.name!r}"
        if not signed:
            problems.append(
                HistoryProblem(call.content, f"{where} lost its thoughtSignature; {fix}")
            )
        else:
            problems.append(
                HistoryProblem(
                    call.content,
                    f"{where} carries a thoughtSignature different from the one the model "
                    f"sent; {fix}",
                )
            )
        flagged.add(id(call))
    first = calls[0]
    if id(first) not in flagged and first.signature is None and any(c.signature for c in calls[1:]):
        problems.append(
            HistoryProblem(
                first.content,
                f"contents[{first.content}] (model): the first functionCall part "
                f"({first.name!r}) has no thoughtSignature while a later one has; the model "
                "signs the first call of a turn, so replay its Content unchanged, without "
                "dropping or reordering parts",
            )
        )
    return problems


def _answers(
    calls: list[_Call],
    turn: str,
    contents: Sequence[Mapping[str, Any]],
    start: int,
    attributed: set[int],
) -> list[HistoryProblem]:
    names = quoted(c.name for c in calls)
    count = len(calls)
    first = calls[0].content
    if start >= len(contents):
        return [
            HistoryProblem(
                first,
                f"{turn} (model) makes {count} function call(s) ({names}) with no user content "
                "answering them; append one user content with one functionResponse part per "
                "call, in call order",
            )
        ]
    problems: list[HistoryProblem] = []
    responses: list[_Response] = []
    index = start
    while index < len(contents) and not _is_model(contents[index]):
        found = _responses_in(index, contents[index])
        if index > start and found:
            problems.append(
                HistoryProblem(
                    index,
                    f"contents[{index}] (user) continues the function responses for the calls "
                    f"of {turn}; put all {count} responses in the single user content right "
                    f"after the calls (contents[{start}])",
                )
            )
        responses += found
        attributed.add(index)
        index += 1
    if not responses:
        return [
            HistoryProblem(
                start,
                f"contents[{start}] (user) comes right after the function calls of {turn} "
                f"({names}) but has no functionResponse part; answer with one functionResponse "
                "part per call, in call order, in this user content",
            )
        ]
    if len(responses) != count:
        problems.append(
            HistoryProblem(
                start,
                f"contents[{start}] (user) answers with {len(responses)} functionResponse "
                f"part(s), but the function call turn before it ({turn}) made {count} call(s) "
                f"({names}); send exactly one functionResponse part per call, in call order",
            )
        )
    return problems + _pairing(calls, responses, turn)


def _pairing(calls: list[_Call], responses: list[_Response], turn: str) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    call_ids = {c.id: c for c in calls if c.id}
    seen: set[str] = set()
    for position, response in enumerate(responses):
        here = f"contents[{response.content}] (user)"
        if not response.name:
            problems.append(
                HistoryProblem(
                    response.content,
                    f"{here} has a functionResponse with no name; set it to the name of the "
                    "call it answers",
                )
            )
            continue
        if response.id and call_ids:
            call = call_ids.get(response.id)
            if call is None:
                problems.append(
                    HistoryProblem(
                        response.content,
                        f"{here} has a functionResponse with id {response.id!r} "
                        f"({response.name}), but no call of {turn} has that id (call ids: "
                        f"{quoted(call_ids)}); give each response the id of the call it answers",
                    )
                )
            elif response.id in seen:
                problems.append(
                    HistoryProblem(
                        response.content,
                        f"{here} answers call id {response.id!r} a second time; send exactly "
                        "one functionResponse per call",
                    )
                )
            elif call.name != response.name:
                problems.append(
                    HistoryProblem(
                        response.content,
                        f"{here} has a functionResponse named {response.name!r} for call id "
                        f"{response.id!r}, which is a call to {call.name!r}; name each "
                        "response after the call it answers",
                    )
                )
            seen.add(response.id)
        elif len(responses) == len(calls) and calls[position].name != response.name:
            problems.append(
                HistoryProblem(
                    response.content,
                    f"{here}: functionResponse #{position + 1} is for {response.name!r} but "
                    f"call #{position + 1} of {turn} is {calls[position].name!r}; list the "
                    "responses in call order, one per call",
                )
            )
    return problems


def _orphans(index: int, content: Mapping[str, Any]) -> list[HistoryProblem]:
    responses = _responses_in(index, content)
    if not responses:
        return []
    names = quoted(r.name or "unnamed" for r in responses)
    return [
        HistoryProblem(
            index,
            f"contents[{index}] (user) has function responses ({names}) but no function call "
            "turn comes right before it; send function responses in the user content that "
            "directly follows the model content with the calls",
        )
    ]
