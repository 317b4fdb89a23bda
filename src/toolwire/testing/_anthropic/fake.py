"""The offline fake's Messages endpoint (`POST /v1/messages`), as the live API answers.

Replies are `Message` JSON, or with `stream: true` the live event sequence
(`message_start`, `ping`, `content_block_start` / `content_block_delta` /
`content_block_stop` per block, `message_delta`, `message_stop`). Ids are
deterministic (`msg_fake1`, `toolu_fake2`...). A thinking block carries a signature
derived from its text, and a replayed thinking block whose signature no longer
matches is rejected, like the live API rejects an edited or re-signed block.

`FakeReply.search` opens the calls with the request's server search tool
(`tool_search_tool_bm25_*` or `_regex_*`): a `server_tool_use` block (`srvtoolu_fake<n>`,
its `query` the search's queries joined with spaces) and its `tool_search_tool_result`,
a `tool_reference` per deferred tool found (see `_fake_search`).

Programmatic calls (`FakeCall(programmatic=True)`, and every call to a tool whose
`allowed_callers` leave out "direct") are made by a program the code execution tool
runs: its `server_tool_use` block (`srvtoolu_fake<n>`, `name: "code_execution"`) opens
them, each `tool_use` names it in `caller`, and the response's `container`
(`container_fake<n>`) must come back with the results; once a reply makes no more
programmatic calls, it opens with the program's `code_execution_tool_result` (see
`programs.py`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from typing import Any

import httpx2
from pydantic_core import from_json

from ..._adapters.anthropic.search import loaded_tool_names
from ..._api import Api
from .._fake import (
    FakeCall,
    FakeReply,
    FakeRequest,
    FakeSearch,
    FakeServer,
    FakeTool,
    RejectedRequest,
    allow_only,
)
from .._fake_search import refuse_hidden_calls, server_search_finds
from .._fake_wire import arguments_text, joined_text, json_list, split_text, sse
from .._kits import Kit
from .._rules import HistoryProblem, blocks_of, field, text_field
from .._tool_shapes import reject_wrong_tool_shapes
from .cache import breakpoint_count
from .history import anthropic_history_problems
from .media import anthropic_media_problems
from .programs import (
    Program,
    open_container,
    pending_program,
    program_blocks,
    program_result,
    program_version,
    refuse_missing_container,
)
from .tools import (
    anthropic_callers_problem,
    anthropic_reference_problems,
    anthropic_tool_definition_problem,
)

__all__ = ["AnthropicCodec", "anthropic_error", "thinking_signature"]

DEFAULT_THINKING = "(offline fake) Working out which tools to call, then answering."
"""The thinking text that opens an assistant turn when the request enables thinking and
the reply has none. Like the live API (without interleaved thinking), the fake does not
think again when it continues a turn after tool results."""

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


class AnthropicCodec:
    """Reads Messages requests, answers them as the live API would (JSON or SSE)."""

    api: Api = "anthropic"
    programmatic_calls = True
    builtin_calls = False

    def handles(self, method: str, path: str) -> bool:
        return method == "POST" and path.endswith("/messages")

    def problems(self, body: Mapping[str, Any], server: FakeServer) -> list[HistoryProblem]:
        messages = json_list(body.get("messages"))
        system = body.get("system")
        outside = breakpoint_count(body.get("tools")) + breakpoint_count(system)
        problems = anthropic_history_problems(messages, outside_breakpoints=outside)
        problems += anthropic_media_problems(messages)
        problems += _signature_problems(messages)
        problems += anthropic_reference_problems(messages, json_list(body.get("tools")))
        if _thinking_enabled(body):
            problems += _missing_thinking(messages)
        return sorted(problems, key=lambda p: p.index)

    def read(self, body: Mapping[str, Any], server: FakeServer, path: str) -> FakeRequest:
        reject_wrong_tool_shapes(json_list(body.get("tools")), anthropic_tool_definition_problem)
        if (problem := anthropic_callers_problem(json_list(body.get("tools")))) is not None:
            raise RejectedRequest(problem)
        refuse_missing_container(body, server)
        loaded = set(loaded_tool_names(json_list(body.get("messages"))))
        tools = [
            FakeTool(
                text_field(tool, "name"),
                "function",
                field(tool, "input_schema"),
                field(tool, "strict") is True,
                field(tool, "defer_loading") is True and text_field(tool, "name") not in loaded,
            )
            for tool in json_list(body.get("tools"))
            if isinstance(field(tool, "input_schema"), Mapping)  # server tools have none
        ]
        request = FakeRequest(tools=tools, stream=body.get("stream") is True)
        request.tool_choice_none = text_field(body.get("tool_choice"), "type") == "none"
        if text_field(body.get("tool_choice"), "type") == "tool":
            allow_only(request, [field(body.get("tool_choice"), "name")], "tool_choice.name")
        fmt = field(body.get("output_config"), "format")
        if text_field(fmt, "type") == "json_schema":
            request.output_schema = field(fmt, "schema") or {}
        messages = json_list(body.get("messages"))
        request.rounds = sum(
            1
            for m in messages[_last_prompt(messages) + 1 :]
            if text_field(m, "role") == "assistant"
            and any(text_field(b, "type") == "tool_use" for b in blocks_of(m, "content"))
        )
        request.assistant_turns = sum(1 for m in messages if text_field(m, "role") == "assistant")
        if messages and text_field(messages[-1], "role") == "user":
            request.results = [
                joined_text(field(b, "content")) for b in _tool_results(messages[-1])
            ]
        return request

    def render(
        self, reply: FakeReply, request: FakeRequest, body: Mapping[str, Any], server: FakeServer
    ) -> httpx2.Response:
        message_id = f"msg_fake{server.next_id()}"
        model = str(body.get("model") or "fake-model")
        thinking = reply.thinking
        if thinking is None and request.rounds == 0 and _thinking_enabled(body):
            thinking = DEFAULT_THINKING
        blocks: list[tuple[dict[str, Any], str]] = []  # (final block, streamed input JSON)
        if thinking is not None:
            signature = thinking_signature(thinking)
            blocks.append(({"type": "thinking", "thinking": thinking, "signature": signature}, ""))
        if reply.text:
            blocks.append(({"type": "text", "text": reply.text}, ""))
        tools = json_list(body.get("tools"))
        reply, version = program_version(reply, tools)
        pending = pending_program(json_list(body.get("messages")))
        if pending is not None and version is None:  # the program ends with its output
            blocks.insert(0, (program_result(pending, request.results), ""))
        found: list[str] = []
        if reply.search is not None:
            searched = _search_blocks(reply.search, tools, server)
            references = field(field(searched[-1][0], "content"), "tool_references")
            found = [text_field(r, "tool_name") for r in json_list(references)]
            blocks += searched
        refuse_hidden_calls(reply.calls, request, found)
        program: Program | None = None
        for call in reply.calls:
            caller: dict[str, Any] = {"type": "direct"}
            if call.programmatic and version is not None:
                if program is None:
                    program, opening = program_blocks(reply.calls, version, pending, server)
                    blocks += opening
                caller = {"type": program.version, "tool_id": program.tool_id}
            block = {
                "type": "tool_use",
                "id": call.id or f"toolu_fake{server.next_id()}",
                "name": call.name,
                "input": _input(call),
                "caller": caller,
            }
            blocks.append((block, arguments_text(call)))
        if reply.stop == "length":
            stop_reason = "max_tokens"
        elif reply.stop == "refusal":
            stop_reason = "refusal"
        elif reply.calls:
            stop_reason = "tool_use"
        else:
            stop_reason = "end_turn"
        message: dict[str, Any] = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [block for block, _ in blocks],
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": _usage(10),
        }
        container = open_container(body, program, server)
        if container is not None:
            message["container"] = container
        if not request.stream:
            return httpx2.Response(200, json=message)
        return httpx2.Response(
            200,
            content=sse(_events(message, blocks)),
            headers={"content-type": "text/event-stream"},
        )

    def error(self, status: int, message: str) -> httpx2.Response:
        return anthropic_error(status, message)


def anthropic_error(status: int, message: str) -> httpx2.Response:
    """An error response shaped like Anthropic's."""
    error = {"type": _ERROR_TYPES.get(status, "api_error"), "message": message}
    return httpx2.Response(status, json={"type": "error", "error": error, "request_id": "req_fake"})


def thinking_signature(thinking: str) -> str:
    """The fake's signature of a thinking text: deterministic, so a replayed block can be
    checked, and opaque like the real one."""
    digest = hashlib.sha256(f"toolwire-fake-thinking\0{thinking}".encode()).digest()
    return base64.b64encode(digest).decode()


_WHOLE_BLOCKS = frozenset({"tool_search_tool_result", "code_execution_tool_result"})
"""Server tool results: streamed whole in their `content_block_start`."""


def _events(
    message: dict[str, Any], blocks: list[tuple[dict[str, Any], str]]
) -> list[tuple[str | None, Any]]:
    start: dict[str, Any] = {**message, "content": [], "stop_reason": None, "usage": _usage(1)}
    events: list[tuple[str | None, Any]] = [
        ("message_start", {"type": "message_start", "message": start}),
        ("ping", {"type": "ping"}),
    ]

    def delta(index: int, payload: dict[str, Any]) -> None:
        body = {"type": "content_block_delta", "index": index, "delta": payload}
        events.append(("content_block_delta", body))

    for index, (block, input_json) in enumerate(blocks):
        kind = block["type"]
        if kind == "thinking":
            opening: dict[str, Any] = {"type": "thinking", "thinking": "", "signature": ""}
        elif kind == "text":
            opening = {"type": "text", "text": ""}
        elif kind in _WHOLE_BLOCKS:
            opening = block  # a server tool's result comes whole
        else:
            opening = {**block, "input": {}}
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opening},
            )
        )
        if kind == "thinking":
            for piece in split_text(block["thinking"]):
                delta(index, {"type": "thinking_delta", "thinking": piece})
            delta(index, {"type": "signature_delta", "signature": block["signature"]})
        elif kind == "text":
            for piece in split_text(block["text"]):
                delta(index, {"type": "text_delta", "text": piece})
        elif kind in _WHOLE_BLOCKS:
            pass
        else:
            delta(index, {"type": "input_json_delta", "partial_json": ""})
            for piece in split_text(input_json, 16) if input_json else []:
                delta(index, {"type": "input_json_delta", "partial_json": piece})
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    final: dict[str, Any] = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    if "container" in message:
        final["container"] = message["container"]
    events.append(
        (
            "message_delta",
            {"type": "message_delta", "delta": final, "usage": {"output_tokens": 10}},
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def _search_blocks(
    search: FakeSearch, tools: list[Any], server: FakeServer
) -> list[tuple[dict[str, Any], str]]:
    """The server's tool search opening a reply's calls: its `server_tool_use` block and
    the `tool_search_tool_result` with a `tool_reference` per deferred tool found."""
    search_tool = next(
        (
            tool
            for tool in tools
            if text_field(tool, "type").startswith(
                ("tool_search_tool_bm25", "tool_search_tool_regex")
            )
        ),
        None,
    )
    if search_tool is None:
        raise RejectedRequest(
            "toolwire fake: FakeReply(search=...) is a search the server runs, and the "
            "request offers no server search tool (tool_search_tool_bm25_* or _regex_*; "
            "group.add_tool_search()). A search the client runs is a plain tool: script its "
            'call, FakeCall("tool_search", {"queries": [...]}).'
        )
    deferred = {
        text_field(tool, "name"): text_field(tool, "description")
        for tool in tools
        if isinstance(field(tool, "input_schema"), Mapping) and field(tool, "defer_loading") is True
    }
    offered = {text_field(tool, "name") for tool in tools}
    found = server_search_finds(search, deferred, offered)
    query = {"query": " ".join(search.query_list)}
    use: dict[str, Any] = {
        "type": "server_tool_use",
        "id": f"srvtoolu_fake{server.next_id()}",
        "name": text_field(search_tool, "name"),
        "input": query,
        "caller": {"type": "direct"},
    }
    result = {
        "type": "tool_search_tool_result",
        "tool_use_id": use["id"],
        "content": {
            "type": "tool_search_tool_search_result",
            "tool_references": [{"type": "tool_reference", "tool_name": name} for name in found],
        },
    }
    return [(use, json.dumps(query)), (result, "")]


def _usage(output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": 10,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def _input(call: FakeCall) -> dict[str, Any]:
    """The call's input as the live API returns it: always an object; cut-off JSON text
    shows its complete members only."""
    if not isinstance(call.arguments, str):
        return dict(call.arguments)
    try:
        value = from_json(call.arguments, allow_partial=True)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}  # pyright: ignore[reportUnknownVariableType]


def _thinking_enabled(body: Mapping[str, Any]) -> bool:
    return text_field(body.get("thinking"), "type") in ("enabled", "adaptive")


def _signature_problems(messages: list[Any]) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    for index, message in enumerate(messages):
        if text_field(message, "role") != "assistant":
            continue
        for position, block in enumerate(blocks_of(message, "content")):
            if text_field(block, "type") != "thinking":
                continue
            if text_field(block, "signature") != thinking_signature(text_field(block, "thinking")):
                problems.append(
                    HistoryProblem(
                        index,
                        f"messages.{index}.content.{position}: Invalid `signature` in "
                        "`thinking` block; replay thinking blocks exactly as the API returned "
                        "them (text and signature unchanged)",
                    )
                )
    return problems


def _missing_thinking(messages: list[Any]) -> list[HistoryProblem]:
    """With thinking on, an assistant turn still in its tool loop (the request ends with
    tool results) must start with its thinking block: the first assistant message after
    the last user prompt."""
    if not messages or not _tool_results(messages[-1]):
        return []
    index = next(
        (
            i
            for i in range(_last_prompt(messages) + 1, len(messages))
            if text_field(messages[i], "role") == "assistant"
        ),
        None,
    )
    if index is None:
        return []
    blocks = blocks_of(messages[index], "content")
    if not blocks:
        return []
    first = text_field(blocks[0], "type")
    if first in ("thinking", "redacted_thinking"):
        return []
    return [
        HistoryProblem(
            index,
            f"messages.{index}.content.0.type: Expected `thinking` or `redacted_thinking`, but "
            f"found `{first}`. When `thinking` is enabled, a final `assistant` message must "
            "start with a thinking block; replay the assistant turn with its thinking blocks",
        )
    ]


def _last_prompt(messages: list[Any]) -> int:
    """Index of the last user message that is not tool results (-1 if none)."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if text_field(message, "role") == "user" and not _tool_results(message):
            return index
    return -1


def _tool_results(message: Any) -> list[Mapping[str, Any]]:
    return [b for b in blocks_of(message, "content") if text_field(b, "type") == "tool_result"]


KIT = Kit(
    AnthropicCodec,
    anthropic_history_problems,
    anthropic_media_problems,
    anthropic_tool_definition_problem,
)
"""The Anthropic Messages fake and the rules it enforces, for the API-neutral modules."""
