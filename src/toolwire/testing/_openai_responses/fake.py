"""The offline fake's Responses endpoint (`POST /responses`).

It reads `tools`, `text.format`, `tool_choice` and `input` (a string is one user
message), answers like the live API (a JSON `Response`, or its SSE events when
`stream: true`) and keeps every response it sent, so `previous_response_id` works:
the stored turn's input and output come before the new input, and the history rules
run on the whole. An unknown `previous_response_id` is rejected (HTTP 400), as is a
reasoning item whose `encrypted_content` differs from the one the fake sent.

Replies: `FakeReply.thinking` becomes a reasoning item (summary text and a
deterministic `encrypted_content`), then the text as a message (a refusal part with
`stop="refusal"`), then one `function_call` item per call (`custom_tool_call` when
the request offered a custom tool of that name). `stop="length"` answers
`status: "incomplete"` with reason `max_output_tokens`; the last call is then cut: a
function call whose arguments are not complete JSON gets status `incomplete`, and a
custom call (whose items have no status) is cut by being the last output item of an
incomplete response. Ids are
deterministic: `resp_fake<n>`, `rs_fake<n>`, `msg_fake<n>`, `fc_fake<n>`,
`ctc_fake<n>`, `tsc_fake<n>` and `tso_fake<n>`, and `call_<n>` for call ids.

`FakeReply.search` opens the calls with a tool search, as the request's `tool_search`
tool runs it: by the server (its `execution` left out or "server"), a `tool_search_call`
without a `call_id` and a `tool_search_output` holding the found deferred definitions as
the request sent them (a namespace's inside that namespace); by the client
(`execution: "client"`), a `tool_search_call` with a `call_id`, for the client to
answer. As the live API does, a call to a top-level deferred tool carries `namespace`,
the tool's own name; a call to a namespace's tool (a `FakeCall` names it by its flat
name, `crm__get_customer`) carries its own name and its namespace's (see `offered.py`).

Programmatic calls (`FakeCall(programmatic=True)`, and every call to a tool whose
`allowed_callers` leave out "direct") follow one `program` item
(`prog_fake<n>`, call id `program_<n>`, a deterministic `fingerprint`) and carry
`caller: {"type": "program", "caller_id": ...}`; once every call of a program is
answered, the next response opens with its `program_output` (`prout_fake<n>`), and a
program item replayed with another fingerprint is rejected (see `programs.py`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Literal

import httpx2

from ..._adapters.openai_responses.definitions import loaded_tool_names
from .._fake import (
    BUILTIN_TYPES,
    FakeReply,
    FakeRequest,
    FakeSearch,
    FakeServer,
    FakeTool,
    RejectedRequest,
    allow_only,
)
from .._fake_search import refuse_hidden_calls, server_search_finds
from .._fake_wire import arguments_text, json_list, latest_results, split_text, sse
from .._kits import Kit
from .._openai_chat.fake import CREATED, openai_error
from .._rules import HistoryProblem, field, text_field
from .._tool_shapes import reject_wrong_tool_shapes
from .builtin import builtin_items
from .history import (
    chained_history_problems,
    responses_history_problems,
    unchained_history_problems,
)
from .media import responses_media_problems
from .offered import offered_tools, search_output_tools
from .programs import finished_programs, program_item, with_programs
from .tools import responses_tool_definition_problem

__all__ = ["ResponsesCodec"]

_OUTPUTS = ("function_call_output", "custom_tool_call_output")
_CALLS = ("function_call", "custom_tool_call")


@dataclass(slots=True)
class _Store:
    """What the fake remembers between requests (in `server.state["responses"]`)."""

    turns: dict[str, tuple[list[Any], list[Any]]] = dataclass_field(
        default_factory=dict[str, tuple[list[Any], list[Any]]]
    )
    """Response id -> (the whole input it answered, its output items)."""
    reasoning: dict[str, str] = dataclass_field(default_factory=dict[str, str])
    """Reasoning item id -> the encrypted_content sent with it."""
    fingerprints: dict[str, str] = dataclass_field(default_factory=dict[str, str])
    """Program item id -> the fingerprint sent with it."""


class ResponsesCodec:
    """Reads Responses requests, answers them as the live API would (JSON or SSE)."""

    api: Literal["responses"] = "responses"
    programmatic_calls = True
    builtin_calls = True

    def handles(self, method: str, path: str) -> bool:
        return method == "POST" and path.endswith("/responses")

    def problems(self, body: Mapping[str, Any], server: FakeServer) -> list[HistoryProblem]:
        store = _store(server)
        previous = _previous_items(body, store)
        if previous is None:
            return []  # read() rejects the unknown previous_response_id
        items = [*previous, *_input(body)]
        problems = responses_history_problems(items)
        problems += responses_media_problems(items)
        for index in range(len(previous), len(items)):
            problem = _replayed_problem(index, items[index], store)
            if problem is not None:
                problems.append(problem)
        if previous and problems:
            note = f"(positions count the {len(previous)} items of previous_response_id first) "
            problems = [HistoryProblem(p.index, note + p.message) for p in problems]
        return sorted(problems, key=lambda p: p.index)

    def read(self, body: Mapping[str, Any], server: FakeServer, path: str) -> FakeRequest:
        previous = _previous_items(body, _store(server))
        if previous is None:
            raise RejectedRequest(
                f"Previous response with id {body.get('previous_response_id')!r} not found. "
                "Pass the id of a response this client created (and did not create with "
                "store=false)."
            )
        items = [*previous, *_input(body)]
        reject_wrong_tool_shapes(json_list(body.get("tools")), responses_tool_definition_problem)
        tools: list[FakeTool] = []
        loaded = set(loaded_tool_names(items))
        for offered in offered_tools(json_list(body.get("tools"))):
            tool, name = offered.definition, offered.name
            hidden = offered.deferred and name not in loaded
            if field(tool, "type") == "function":
                tools.append(
                    FakeTool(
                        name,
                        "function",
                        field(tool, "parameters"),
                        bool(field(tool, "strict")),
                        hidden,
                    )
                )
            else:
                tools.append(FakeTool(name, "custom", None, False, hidden))
        request = FakeRequest(tools=tools, stream=bool(body.get("stream")))
        request.tool_choice_none = body.get("tool_choice") == "none"
        _read_tool_choice(body.get("tool_choice"), request)
        fmt = field(body.get("text"), "format")
        if field(fmt, "type") == "json_schema":
            request.output_schema = field(fmt, "schema") or {}
            request.output_strict = bool(field(fmt, "strict"))
        request.rounds = _rounds_since_user(items)
        request.assistant_turns = _model_turns(items)
        request.results = latest_results(items, _is_output, "output")
        return request

    def render(
        self, reply: FakeReply, request: FakeRequest, body: Mapping[str, Any], server: FakeServer
    ) -> httpx2.Response:
        store = _store(server)
        response_id = f"resp_fake{server.next_id()}"
        tools = json_list(body.get("tools"))
        reply = with_programs(reply, tools)
        previous = _previous_items(body, store) or []
        ended = finished_programs([*previous, *_input(body)], server.next_id)
        output = [*ended, *_output_items(reply, request, server, response_id, tools)]
        for item in output:
            if item["type"] == "reasoning":
                store.reasoning[item["id"]] = item["encrypted_content"]
            elif item["type"] == "program":
                store.fingerprints[item["id"]] = item["fingerprint"]
        if body.get("store") is not False:
            store.turns[response_id] = ([*previous, *_input(body)], output)
        response = _response(response_id, body, output, reply.stop == "length")
        if not request.stream:
            return httpx2.Response(200, json=response)
        return httpx2.Response(
            200, content=sse(_events(response)), headers={"content-type": "text/event-stream"}
        )

    def error(self, status: int, message: str) -> httpx2.Response:
        return openai_error(status, message)


def _read_tool_choice(choice: Any, request: FakeRequest) -> None:
    """A forced tool (`{"type": "function" | "custom", "name": ...}`) or a choice over a
    subset (`{"type": "allowed_tools", "mode", "tools"}`): the tools the model may call,
    each one the request must offer (built-in tools named there are not checked)."""
    kind = field(choice, "type")
    if kind in ("function", "custom"):
        allow_only(request, [field(choice, "name")], "tool_choice")
    elif kind == "allowed_tools":
        listed = json_list(field(choice, "tools"))
        names = [field(t, "name") for t in listed if field(t, "type") in ("function", "custom")]
        allow_only(request, names, "tool_choice.tools")


def _store(server: FakeServer) -> _Store:
    store = server.state.get("responses")
    if not isinstance(store, _Store):
        store = server.state["responses"] = _Store()
    return store


def _previous_items(body: Mapping[str, Any], store: _Store) -> list[Any] | None:
    """The stored items `previous_response_id` stands for ([] without one, None when
    unknown)."""
    previous_id = body.get("previous_response_id")
    if not previous_id:
        return []
    turn = store.turns.get(str(previous_id))
    if turn is None:
        return None
    return [*turn[0], *turn[1]]


def _input(body: Mapping[str, Any]) -> list[Any]:
    value = body.get("input")
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    return json_list(value)


_OPAQUE = {"reasoning": "encrypted_content", "program": "fingerprint"}
"""The item types whose opaque field the API checks when they come back, and the field."""


def _replayed_problem(index: int, item: Any, store: _Store) -> HistoryProblem | None:
    """A reasoning or program item replayed with an opaque field that is not the one the
    fake sent."""
    kind = text_field(item, "type")
    key = _OPAQUE.get(kind)
    if key is None:
        return None
    sent = (store.reasoning if kind == "reasoning" else store.fingerprints).get(
        text_field(item, "id")
    )
    received = field(item, key)
    if sent is None or received is None or received == sent:
        return None
    return HistoryProblem(
        index,
        f"input[{index}] ({kind} {text_field(item, 'id')!r}) carries a {key} that differs "
        f"from the one the API sent, so it cannot be verified; replay {kind} items unchanged",
    )


def _is_output(item: Any) -> bool:
    return text_field(item, "type") in _OUTPUTS


def _is_user_turn(item: Any) -> bool:
    return field(item, "role") in ("user", "system", "developer") and text_field(item, "type") in (
        "",
        "message",
    )


def _rounds_since_user(items: list[Any]) -> int:
    """Groups of calls since the last user message (a group ends at an output)."""
    last_user = max((i for i, item in enumerate(items) if _is_user_turn(item)), default=-1)
    rounds, in_calls = 0, False
    for item in items[last_user + 1 :]:
        kind = text_field(item, "type")
        if kind in _CALLS:
            rounds += 0 if in_calls else 1
            in_calls = True
        elif kind in _OUTPUTS:
            in_calls = False
    return rounds


def _model_turns(items: list[Any]) -> int:
    """Runs of model items (assistant messages, reasoning, calls) in the history."""
    turns, in_turn = 0, False
    for item in items:
        kind = text_field(item, "type")
        is_model = kind in (*_CALLS, "reasoning") or field(item, "role") == "assistant"
        turns += 1 if is_model and not in_turn else 0
        in_turn = is_model
    return turns


def _output_items(
    reply: FakeReply,
    request: FakeRequest,
    server: FakeServer,
    response_id: str,
    tools: list[Any],
) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if reply.thinking is not None:
        item_id = f"rs_fake{server.next_id()}"
        digest = hashlib.sha256(f"{response_id}:{item_id}:{reply.thinking}".encode()).hexdigest()
        items.append(
            {
                "id": item_id,
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": reply.thinking}],
                "encrypted_content": f"fake_encrypted_{digest}",
            }
        )
    cut = reply.stop == "length"
    if reply.text is not None:
        if reply.stop == "refusal":
            part: dict[str, Any] = {"type": "refusal", "refusal": reply.text}
        else:
            part = {"type": "output_text", "text": reply.text, "annotations": [], "logprobs": []}
        items.append(
            {
                "id": f"msg_fake{server.next_id()}",
                "type": "message",
                "role": "assistant",
                "status": "incomplete" if cut and not reply.calls else "completed",
                "content": [part],
            }
        )
    found: list[str] = []
    if reply.search is not None:
        searched = _search_items(reply.search, tools, server)
        found = loaded_tool_names(searched)
        items += searched
    refuse_hidden_calls(reply.calls, request, found)
    custom_tools = {tool.name for tool in request.tools if tool.kind == "custom"}
    offered = {tool.name: tool for tool in offered_tools(tools)}
    program: dict[str, Any] | None = None
    programmatic = [call for call in reply.calls if call.programmatic]
    if programmatic:
        program = program_item(programmatic, response_id, server.next_id())
        items.append(program)
    for position, call in enumerate(reply.calls):
        number = server.next_id()
        text = arguments_text(call)
        custom = call.name in custom_tools
        last_cut = cut and position == len(reply.calls) - 1 and not _is_json(text)
        item: dict[str, Any] = {
            "id": f"{'ctc' if custom else 'fc'}_fake{number}",
            "type": "custom_tool_call" if custom else "function_call",
            "call_id": call.id or f"call_{number}",
            "name": call.name,
            ("input" if custom else "arguments"): text,
        }
        if not custom:  # custom tool call items have no status
            item["status"] = "incomplete" if last_cut else "completed"
        if call.name in offered:  # its own name and namespace, apart (see offered.py)
            item.update(offered[call.name].call_names())
        if program is not None and call.programmatic:
            item["caller"] = {"type": "program", "caller_id": program["call_id"]}
        items.append(item)
    return items + builtin_items(reply.builtin, tools, server)


def _search_items(search: FakeSearch, tools: list[Any], server: FakeServer) -> list[dict[str, Any]]:
    """The tool search opening a reply's calls: the server's call and output, or the
    call the client answers (see the module's docstring)."""
    search_tool = next((tool for tool in tools if field(tool, "type") == "tool_search"), None)
    if search_tool is None:
        raise RejectedRequest(
            "toolwire fake: FakeReply(search=...) needs the search tool in the request's "
            'tools: add {"type": "tool_search"} (group.add_tool_search()).'
        )
    call: dict[str, Any] = {
        "id": f"tsc_fake{server.next_id()}",
        "type": "tool_search_call",
        "call_id": None,
        "execution": "server",
        "arguments": {"queries": search.query_list},
        "status": "completed",
    }
    if field(search_tool, "execution") == "client":
        if search.found is not None:
            raise RejectedRequest(
                "toolwire fake: FakeSearch(found=...) is what the server's search finds, but "
                'this request\'s tool_search has execution: "client": the client answers '
                "the search. Leave found out."
            )
        return [{**call, "call_id": f"call_{server.next_id()}", "execution": "client"}]
    offered = {tool.name: tool for tool in offered_tools(tools)}
    descriptions = {
        name: text_field(tool.definition, "description")
        for name, tool in offered.items()
        if tool.deferred
    }
    found = server_search_finds(search, descriptions, offered)
    output = {
        "id": f"tso_fake{server.next_id()}",
        "type": "tool_search_output",
        "call_id": None,
        "execution": "server",
        "status": "completed",
        "tools": search_output_tools(found, offered),
    }
    return [call, output]


def _response(
    response_id: str, body: Mapping[str, Any], output: list[dict[str, Any]], cut: bool
) -> dict[str, Any]:
    fmt = field(body.get("text"), "format") or {"type": "text"}
    return {
        "id": response_id,
        "object": "response",
        "created_at": CREATED,
        "status": "incomplete" if cut else "completed",
        "completed_at": None if cut else CREATED + 1,
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
        "instructions": body.get("instructions"),
        "max_output_tokens": body.get("max_output_tokens"),
        "metadata": body.get("metadata") or {},
        "model": str(body.get("model") or "fake-model"),
        "output": output,
        "parallel_tool_calls": body.get("parallel_tool_calls") is not False,
        "previous_response_id": body.get("previous_response_id"),
        "store": body.get("store") is not False,
        "temperature": 1.0,
        "text": {"format": fmt},
        "tool_choice": body.get("tool_choice") or "auto",
        "tools": json_list(body.get("tools")),
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cache_write_tokens": 0, "cached_tokens": 0},
            "output_tokens": 10,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 20,
        },
    }


def _events(response: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """The SSE events of `response`, in the live API's order."""
    events: list[dict[str, Any]] = []

    def emit(kind: str, **data: Any) -> None:
        events.append({"type": kind, **data, "sequence_number": len(events)})

    started: dict[str, Any] = {
        **response,
        "status": "in_progress",
        "completed_at": None,
        "incomplete_details": None,
        "output": [],
        "usage": None,
    }
    emit("response.created", response=started)
    emit("response.in_progress", response=started)
    for index, item in enumerate(response["output"]):
        _item_events(index, item, emit)
    terminal = "response.incomplete" if response["status"] == "incomplete" else "response.completed"
    emit(terminal, response=response)
    return [(event["type"], event) for event in events]


def _item_events(index: int, item: dict[str, Any], emit: Any) -> None:
    kind, item_id = item["type"], item["id"]
    at = {"item_id": item_id, "output_index": index}
    if kind == "reasoning":
        emit(
            "response.output_item.added",
            output_index=index,
            item={**item, "summary": [], "encrypted_content": None},
        )
        for number, part in enumerate(item["summary"]):
            empty = {"type": "summary_text", "text": ""}
            emit("response.reasoning_summary_part.added", **at, summary_index=number, part=empty)
            for piece in split_text(part["text"]):
                emit(
                    "response.reasoning_summary_text.delta", **at, summary_index=number, delta=piece
                )
            emit(
                "response.reasoning_summary_text.done",
                **at,
                summary_index=number,
                text=part["text"],
            )
            emit("response.reasoning_summary_part.done", **at, summary_index=number, part=part)
    elif kind in ("program", "program_output", *BUILTIN_TYPES):  # no deltas: whole when added
        emit("response.output_item.added", output_index=index, item=item)
    elif kind == "message":
        emit(
            "response.output_item.added",
            output_index=index,
            item={**item, "status": "in_progress", "content": []},
        )
        for number, part in enumerate(item["content"]):
            refusal = part["type"] == "refusal"
            text = part["refusal"] if refusal else part["text"]
            empty = {**part, ("refusal" if refusal else "text"): ""}
            emit("response.content_part.added", **at, content_index=number, part=empty)
            for piece in split_text(text):
                if refusal:
                    emit("response.refusal.delta", **at, content_index=number, delta=piece)
                else:
                    emit(
                        "response.output_text.delta",
                        **at,
                        content_index=number,
                        delta=piece,
                        logprobs=[],
                    )
            if refusal:
                emit("response.refusal.done", **at, content_index=number, refusal=text)
            else:
                emit(
                    "response.output_text.done", **at, content_index=number, text=text, logprobs=[]
                )
            emit("response.content_part.done", **at, content_index=number, part=part)
    elif kind in ("tool_search_call", "tool_search_output"):
        empty: dict[str, Any] = {"arguments": {}} if kind == "tool_search_call" else {"tools": []}
        emit(
            "response.output_item.added",
            output_index=index,
            item={**item, **empty, "status": "in_progress"},
        )
    else:
        custom = kind == "custom_tool_call"
        key = "input" if custom else "arguments"
        event = "response.custom_tool_call_input" if custom else "response.function_call_arguments"
        emit(
            "response.output_item.added",
            output_index=index,
            item={**item, key: ""} if custom else {**item, key: "", "status": "in_progress"},
        )
        for piece in split_text(item[key], 16) if item[key] else []:
            emit(f"{event}.delta", **at, delta=piece)
        if item.get("status") != "incomplete":
            emit(f"{event}.done", **at, **{key: item[key]})
    emit("response.output_item.done", output_index=index, item=item)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


KIT = Kit(
    ResponsesCodec,
    unchained_history_problems,
    responses_media_problems,
    responses_tool_definition_problem,
    chained_history_problems,
)
"""The Responses fake and the rules it enforces, for the API-neutral modules."""
