"""The offline fake's Chat Completions endpoint (`POST /chat/completions`), as OpenAI
answers it, or as another server does (`servers.py`: its ids, chunking, reasoning fields
and refusals)."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple

import httpx2

from ..._adapters.openai_chat.servers import ChatServer
from .._fake import (
    FakeCall,
    FakeReply,
    FakeRequest,
    FakeServer,
    FakeTool,
    RejectedRequest,
    allow_only,
)
from .._fake_search import refuse_search
from .._fake_wire import arguments_text, json_list, latest_results, split_text, sse
from .._instances_check import SchemaChecker, json_type_of
from .._kits import Kit
from .._rules import HistoryProblem, field
from .._tool_shapes import reject_wrong_tool_shapes
from .history import chat_history_problems
from .media import chat_media_problems
from .servers import (
    ServerProblem,
    ServerStyle,
    chat_server_problems,
    server_problems,
    style_of,
)
from .tools import chat_tool_definition_problem

__all__ = ["CREATED", "ChatCodec", "openai_error"]

CREATED = 1_700_000_000
DEFAULT_THINKING = "(offline fake) Thinking it over."
"""The reasoning a server that always thinks sends when the reply has none."""


class ChatCodec:
    """Reads chat requests, answers them as the live server would (JSON or SSE)."""

    api: Literal["chat.completions"] = "chat.completions"
    programmatic_calls = False
    builtin_calls = False

    def __init__(self, server: ChatServer = ChatServer.OPENAI) -> None:
        self.chat_server = server
        self.style: ServerStyle = style_of(server)

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
        self._refuse_what_the_server_refuses(body, server)
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
        if server.state.pop("chat_failed_generation", False):  # the model tries again, and
            request.rounds = max(request.rounds, 1)  # (with invalid_arguments_first) gets it right
        return request

    def _thinking(self, body: Mapping[str, Any]) -> bool:
        """Whether the server thinks on this request (servers that think by default do,
        unless the request sends `thinking: {"type": "disabled"}`)."""
        return self.style.thinks_by_default and field(body.get("thinking"), "type") != "disabled"

    def _refuse_what_the_server_refuses(self, body: Mapping[str, Any], server: FakeServer) -> None:
        """Raise the server's own error for the first thing its profile says it refuses."""
        profile, thinking = self.chat_server, self._thinking(body)
        found = server_problems(json_list(body.get("messages")), profile, thinking=thinking)
        choice = body.get("tool_choice")
        forced = choice == "required" or isinstance(choice, Mapping)
        refuses = profile.forced_tool_choice == "refused" or (
            profile.forced_tool_choice == "refused_while_thinking" and thinking
        )
        if forced and refuses:
            detail = "required" if choice == "required" else "specified"
            message = f"{profile.name} refuses this tool_choice ({detail})"
            found.insert(0, ServerProblem(-1, "forced_choice", message, detail))
        if found:
            refusal = self.style.refusal(found[0], profile)
            raise RejectedRequest(found[0].message, status=refusal.status, body=refusal.body)
        if self.style.signs_calls:
            _check_signatures(json_list(body.get("messages")), server)

    def render(
        self, reply: FakeReply, request: FakeRequest, body: Mapping[str, Any], server: FakeServer
    ) -> httpx2.Response:
        refuse_search(reply, "Chat Completions")
        style = self.style
        number = server.next_id()
        completion_id = f"chatcmpl-fake{number}"
        model = str(body.get("model") or "fake-model")
        failed = _failed_call(reply.calls, request.tools) if style.validates_calls else None
        if failed is not None:
            server.state["chat_failed_generation"] = True
            if not request.stream:
                raise RejectedRequest(failed["message"], body={"error": failed})
        custom_tools = {tool.name for tool in request.tools if tool.kind == "custom"}
        calls = [
            _Call(
                call.id or style.ids(server.next_id(), position, call.name),
                call.name,
                arguments_text(call),
                call.name in custom_tools,
            )
            for position, call in enumerate(reply.calls)
        ]
        signature = None
        if style.signs_calls and calls:
            signature = _signature(calls[0].id)
            server.state.setdefault("chat_signatures", {})[calls[0].id] = signature
        if reply.stop == "length":
            finish = "length"
        elif calls:
            finish = "tool_calls"
        else:
            finish = "stop"
        content = None if reply.stop == "refusal" else reply.text
        if content is None and calls and reply.stop != "refusal":
            content = style.content_with_calls
        refusal = reply.text if reply.stop == "refusal" else None
        thinking = reply.thinking or (DEFAULT_THINKING if self._thinking(body) else None)
        reasoning = thinking if style.reasoning or style.reasoning_details else None
        usage = {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
        turn = _Turn(completion_id, model, content, refusal, reasoning, calls, signature)
        if request.stream:
            if calls and finish == "tool_calls":
                finish = style.streamed_calls_finish
            chunks = turn.chunks(style, finish)
            if field(body.get("stream_options"), "include_usage"):
                chunks.append(_chunk(completion_id, model, [], usage=usage))
            events: list[tuple[str | None, Any]] = [(None, chunk) for chunk in chunks]
            if failed is not None:  # Groq: the reasoning so far, then an error event
                events = events[: 1 + len(split_text(reasoning) if reasoning else [])]
                events.append(("error", {"error": {**failed, "status_code": 400}}))
            else:
                events.append((None, "[DONE]"))
            return httpx2.Response(
                200, content=sse(events), headers={"content-type": "text/event-stream"}
            )
        return httpx2.Response(
            200,
            json={
                "id": completion_id,
                "object": "chat.completion",
                "created": CREATED,
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": turn.message(style),
                        "finish_reason": finish,
                        "logprobs": None,
                    }
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


def _signature(call_id: str) -> str:
    """The thought signature the fake gives a call: derived from its id, so stable."""
    return base64.b64encode(f"fake-signature:{call_id}".encode()).decode()


def _check_signatures(messages: list[Any], server: FakeServer) -> None:
    """Gemini 3 on its OpenAI endpoint: a call the fake sent with a thought signature
    must come back with it (the live error, position counted from 1)."""
    sent: dict[str, str] = server.state.get("chat_signatures", {})
    for index, message in enumerate(messages):
        for call in json_list(field(message, "tool_calls")) if field(message, "role") == "assistant" else []:  # fmt: skip
            call_id = field(call, "id")
            kept = field(field(field(call, "extra_content"), "google"), "thought_signature")
            if call_id in sent and kept != sent[call_id]:
                name = field(field(call, "function"), "name")
                text = (
                    "Function call is missing a thought_signature in functionCall parts. This "
                    "is required for tools to work correctly, and missing thought_signature may "
                    "lead to degraded model performance. Additional data, function call "
                    f"`default_api:{name}` , position {index + 1}. please refer to "
                    "https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
                )
                body = [{"error": {"code": 400, "message": text, "status": "INVALID_ARGUMENT"}}]
                raise RejectedRequest(text, body=body)


def _failed_call(calls: tuple[FakeCall, ...], tools: list[FakeTool]) -> dict[str, Any] | None:
    """Groq checks each call against its tool's schema and answers `tool_use_failed` with
    what the model wrote, instead of the turn: the error for the first call that breaks
    its schema, in Groq's words, or None."""
    schemas = {tool.name: tool.schema for tool in tools if tool.schema is not None}
    for call in calls:
        schema = schemas.get(call.name)
        if schema is None or isinstance(call.arguments, str):
            continue
        arguments = dict(call.arguments)
        checker = SchemaChecker(schema)
        if checker.check(arguments, schema) is not False:
            continue
        errors = _schema_errors(arguments, schema) or "{}: {}".format(*(checker.failure or ("#", "schema")))  # fmt: skip
        generation = f'{{"name": {json.dumps(call.name)}, "arguments": {json.dumps(arguments, indent=2)}}}'  # fmt: skip
        return {
            "code": "tool_use_failed",
            "failed_generation": generation,
            "message": (
                "Tool call validation failed: tool call validation failed: parameters for "
                f"tool {call.name} did not match schema: errors: [{errors}]"
            ),
            "type": "invalid_request_error",
        }
    return None


def _schema_errors(arguments: dict[str, Any], schema: Mapping[str, Any]) -> str:
    """Groq's words for the top-level problems: missing and unexpected properties, and
    values of the wrong type."""
    required: Any = schema.get("required") or []
    properties: Any = schema.get("properties") or {}
    words: list[str] = []
    missing = [name for name in required if name not in arguments]
    if missing:
        words.append("missing properties: " + ", ".join(f"'{name}'" for name in missing))
    if schema.get("additionalProperties") is False:
        words += [f"additionalProperties '{name}' not allowed" for name in arguments if name not in properties]  # fmt: skip
    for name, value in arguments.items():
        wanted = field(properties.get(name), "type")
        got = json_type_of(value)
        if isinstance(wanted, str) and got != wanted and not (wanted == "number" and got == "integer"):  # fmt: skip
            words.append(f"at '/{name}': got {got}, want {wanted}")
    return ", ".join(words)


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

    def text_delta(self, index: int, piece: str, style: ServerStyle) -> dict[str, Any]:
        if self.custom:  # the SDK has no typed delta for custom calls; they come as extras
            return {"index": index, "custom": {"input": piece}}
        delta: dict[str, Any] = {"index": index, "function": {"arguments": piece}}
        if style.id_on_every_fragment:
            delta.update(id=self.id, type="function")
        elif style.continuation_id is not None:
            delta.update(id=style.continuation_id, type="function")
        if style.name_on_every_fragment:
            delta["function"]["name"] = self.name
        return delta


class _Turn(NamedTuple):
    """One reply, ready to render as a message or as chunks."""

    id: str
    model: str
    content: str | None
    refusal: str | None
    reasoning: str | None
    calls: list[_Call]
    signature: str | None

    def message(self, style: ServerStyle) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.content, "refusal": self.refusal}  # fmt: skip
        if self.reasoning is not None:
            if style.reasoning:
                message[style.reasoning] = self.reasoning
            if style.reasoning_details:
                message["reasoning_details"] = [self._detail(style, self.reasoning)]
        if self.calls:
            message["tool_calls"] = [self._signed(call.param(), i) for i, call in enumerate(self.calls)]  # fmt: skip
        return message

    def _detail(self, style: ServerStyle, text: str) -> dict[str, Any]:
        return {"type": "reasoning.text", "text": text, "format": style.reasoning_details, "index": 0}  # fmt: skip

    def _signed(self, call: dict[str, Any], position: int) -> dict[str, Any]:
        if position == 0 and self.signature is not None:
            call["extra_content"] = {"google": {"thought_signature": self.signature}}
        return call

    def chunks(self, style: ServerStyle, finish: str) -> list[dict[str, Any]]:
        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            choices = [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}]  # fmt: skip
            return _chunk(self.id, self.model, choices)

        opening = "" if self.content is not None else None  # OpenAI: null before calls only
        chunks = [chunk({"role": "assistant", "content": opening})]
        for piece in split_text(self.reasoning) if self.reasoning else []:
            delta: dict[str, Any] = {}
            if style.reasoning:
                delta[style.reasoning] = piece
            if style.reasoning_details:
                delta["reasoning_details"] = [self._detail(style, piece)]
            chunks.append(chunk(delta))
        for piece in split_text(self.content) if self.content else []:
            chunks.append(chunk({"content": piece}))
        for piece in split_text(self.refusal) if self.refusal else []:
            chunks.append(chunk({"refusal": piece}))
        for position, call in enumerate(self.calls):
            index = 0 if style.parallel_on_index_zero else position
            if style.whole_calls and not call.custom:
                whole = self._signed({"index": index, **call.param()}, position)
                chunks.append(chunk({"tool_calls": [whole]}))
                continue
            first = self._signed(call.start_delta(index), position)
            chunks.append(chunk({"tool_calls": [first]}))
            for piece in split_text(call.text, 16) if call.text else []:
                fragment = call.text_delta(index, piece, style)
                chunks.append(chunk({"tool_calls": [fragment]}))
        chunks.append(chunk({}, finish))
        return chunks


KIT = Kit(
    ChatCodec,
    chat_history_problems,
    chat_media_problems,
    chat_tool_definition_problem,
    dialect_history_problems=chat_server_problems,
)
"""The Chat Completions fake and the rules it enforces, for the API-neutral modules."""
