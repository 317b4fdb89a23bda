"""The offline fake's Chat Completions endpoint (`POST /chat/completions`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NamedTuple

import httpx2

from .._fake import (
    FakeReply,
    FakeRequest,
    FakeServer,
    FakeTool,
    allow_only,
    arguments_text,
    json_list,
    latest_results,
    split_text,
    sse,
)
from .._kits import Kit
from .._rules import HistoryProblem, field
from .._tool_shapes import reject_wrong_tool_shapes
from .history import chat_history_problems
from .media import chat_media_problems
from .tools import chat_tool_definition_problem

__all__ = ["CREATED", "ChatCodec", "openai_error"]

CREATED = 1_700_000_000


class ChatCodec:
    """Reads chat requests, answers them as the live API would (JSON or SSE)."""

    api: Literal["chat.completions"] = "chat.completions"

    def handles(self, method: str, path: str) -> bool:
        return method == "POST" and path.endswith("/chat/completions")

    def problems(self, body: Mapping[str, Any], server: FakeServer) -> list[HistoryProblem]:
        messages = json_list(body.get("messages"))
        model = body.get("model")
        problems = chat_history_problems(messages)
        problems += chat_media_problems(messages, model=model if isinstance(model, str) else None)
        return sorted(problems, key=lambda p: p.index)

    def read(self, body: Mapping[str, Any], server: FakeServer, path: str) -> FakeRequest:
        reject_wrong_tool_shapes(json_list(body.get("tools")), chat_tool_definition_problem)
        tools: list[FakeTool] = []
        for tool in json_list(body.get("tools")):
            if field(tool, "type") == "custom":
                custom: Any = field(tool, "custom") or {}
                tools.append(FakeTool(field(custom, "name") or "", "custom", None, False))
            else:
                function: Any = field(tool, "function") or {}
                tools.append(
                    FakeTool(
                        field(function, "name") or "",
                        "function",
                        field(function, "parameters"),
                        bool(field(function, "strict")),
                    )
                )
        request = FakeRequest(tools=tools, stream=bool(body.get("stream")))
        request.tool_choice_none = body.get("tool_choice") == "none"
        _read_tool_choice(body.get("tool_choice"), request)
        response_format = body.get("response_format")
        if field(response_format, "type") == "json_schema":
            json_schema: Any = field(response_format, "json_schema") or {}
            request.output_schema = field(json_schema, "schema") or {}
            request.output_strict = bool(field(json_schema, "strict"))
        messages = json_list(body.get("messages"))
        last_user = max(
            (i for i, m in enumerate(messages) if field(m, "role") == "user"), default=-1
        )
        request.rounds = sum(
            1
            for m in messages[last_user + 1 :]
            if field(m, "role") == "assistant" and field(m, "tool_calls")
        )
        request.assistant_turns = sum(1 for m in messages if field(m, "role") == "assistant")
        request.results = latest_results(messages, _is_tool_message, "content")
        return request

    def render(
        self, reply: FakeReply, request: FakeRequest, body: Mapping[str, Any], server: FakeServer
    ) -> httpx2.Response:
        number = server.next_id()
        completion_id = f"chatcmpl-fake{number}"
        model = str(body.get("model") or "fake-model")
        custom_tools = {tool.name for tool in request.tools if tool.kind == "custom"}
        calls = [
            _Call(
                call.id or f"call_{server.next_id()}",
                call.name,
                arguments_text(call),
                call.name in custom_tools,
            )
            for call in reply.calls
        ]
        if reply.stop == "length":
            finish = "length"
        elif calls:
            finish = "tool_calls"
        else:
            finish = "stop"
        content = None if reply.stop == "refusal" else reply.text
        refusal = reply.text if reply.stop == "refusal" else None
        usage = {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
        if request.stream:
            chunks = _chunks(completion_id, model, content, refusal, calls, finish)
            if field(body.get("stream_options"), "include_usage"):
                chunks.append(_chunk(completion_id, model, [], usage=usage))
            events = [(None, chunk) for chunk in chunks] + [(None, "[DONE]")]
            return httpx2.Response(
                200, content=sse(events), headers={"content-type": "text/event-stream"}
            )
        message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": refusal}
        if calls:
            message["tool_calls"] = [call.param() for call in calls]
        return httpx2.Response(
            200,
            json={
                "id": completion_id,
                "object": "chat.completion",
                "created": CREATED,
                "model": model,
                "choices": [
                    {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
                ],
                "usage": usage,
            },
        )

    def error(self, status: int, message: str) -> httpx2.Response:
        return openai_error(status, message)


def _read_tool_choice(choice: Any, request: FakeRequest) -> None:
    """A forced tool (`{"type": "function", "function": {"name": ...}}`, or `"custom"`) or
    a choice over a subset (`{"type": "allowed_tools", "allowed_tools": {"mode", "tools"}}`):
    the tools the model may call, each one the request must offer."""
    kind = field(choice, "type")
    if kind in ("function", "custom"):
        allow_only(request, [field(field(choice, kind), "name")], "tool_choice")
    elif kind == "allowed_tools":
        allowed: Any = field(choice, "allowed_tools")
        names = [
            field(field(t, field(t, "type")), "name") for t in json_list(field(allowed, "tools"))
        ]
        allow_only(request, names, "tool_choice.allowed_tools.tools")


def _is_tool_message(message: Any) -> bool:
    return field(message, "role") == "tool"


def openai_error(status: int, message: str) -> httpx2.Response:
    """An error response shaped like OpenAI's."""
    error = {"message": message, "type": "invalid_request_error", "param": None, "code": None}
    return httpx2.Response(status, json={"error": error})


def _chunk(completion_id: str, model: str, choices: list[Any], **extra: Any) -> dict[str, Any]:
    return {
        "id": completion_id,
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": model,
        "choices": choices,
        **extra,
    }


class _Call(NamedTuple):
    """One call of the reply: a custom tool's is a `custom` call carrying free text."""

    id: str
    name: str
    text: str
    custom: bool

    def param(self) -> dict[str, Any]:
        if self.custom:
            return {"id": self.id, "type": "custom", "custom": {"name": self.name, "input": self.text}}  # fmt: skip
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.text}}  # fmt: skip

    def start_delta(self, index: int) -> dict[str, Any]:
        """The first streamed delta of the call: its id, type and name, no text yet."""
        return {"index": index, **self._replace(text="").param()}

    def text_delta(self, index: int, piece: str) -> dict[str, Any]:
        if self.custom:  # the SDK has no typed delta for custom calls; they come as extras
            return {"index": index, "custom": {"input": piece}}
        return {"index": index, "function": {"arguments": piece}}


def _chunks(
    completion_id: str,
    model: str,
    content: str | None,
    refusal: str | None,
    calls: list[_Call],
    finish: str,
) -> list[dict[str, Any]]:
    def choice(delta: dict[str, Any], finish_reason: str | None = None) -> list[Any]:
        return [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}]

    chunks = [_chunk(completion_id, model, choice({"role": "assistant", "content": ""}))]
    for piece in split_text(content) if content else []:
        chunks.append(_chunk(completion_id, model, choice({"content": piece})))
    for piece in split_text(refusal) if refusal else []:
        chunks.append(_chunk(completion_id, model, choice({"refusal": piece})))
    for index, call in enumerate(calls):
        first = call.start_delta(index)
        chunks.append(_chunk(completion_id, model, choice({"tool_calls": [first]})))
        for piece in split_text(call.text, 16) if call.text else []:
            fragment = call.text_delta(index, piece)
            chunks.append(_chunk(completion_id, model, choice({"tool_calls": [fragment]})))
    chunks.append(_chunk(completion_id, model, choice({}, finish)))
    return chunks


KIT = Kit(ChatCodec, chat_history_problems, chat_media_problems, chat_tool_definition_problem)
"""The Chat Completions fake and the rules it enforces, for the API-neutral modules."""
