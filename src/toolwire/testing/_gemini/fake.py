"""The offline fake's Gemini endpoints: `POST .../models/{model}:generateContent` and
`POST .../models/{model}:streamGenerateContent?alt=sse`.

Like the Gemini API, replies carry function calls without ids (unless a
`FakeCall` sets one) and a thought signature on the first function-call part
of each turn. Each signature is derived from its call (a hash of
`gemini_signature_key(function_call)`), and remembered, so a later request
that replays the call without it, or with another one, gets the API's HTTP 400
(`gemini_history_problems`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from typing import Any, cast

import httpx2

from ..._api import Api
from .._fake import FakeReply, FakeRequest, FakeServer, FakeTool, RejectedRequest, allow_only
from .._fake_search import refuse_search
from .._fake_wire import arguments_dict, json_list, split_text, sse
from .._kits import Kit
from .._rules import HistoryProblem, blocks_of, field, text_field
from .._tool_shapes import reject_wrong_tool_shapes
from .history import gemini_history_problems, gemini_signature_key
from .media import gemini_media_problems
from .tools import gemini_tool_definition_problem

__all__ = ["GeminiCodec", "fake_signature", "gemini_error"]

SIGNATURES = "gemini_signatures"
"""Key of `FakeServer.state`: signature key -> the signature bytes the fake sent."""

_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
}


def fake_signature(function_call: Mapping[str, Any]) -> bytes:
    """The thought signature the fake sends with `function_call`: derived from its
    `gemini_signature_key`, so equal calls get equal signatures in every turn."""
    key = gemini_signature_key(function_call)
    return b"toolwire-fake-thought:" + hashlib.sha256(key.encode()).digest()[:16]


def _route(path: str) -> tuple[str, str]:
    """(model, action) of a `.../models/{model}:{action}` path."""
    model, _, action = path.rpartition("/")[2].partition(":")
    return model, action


class GeminiCodec:
    """Reads Gemini requests (camelCase wire JSON) and answers as the live API would."""

    api: Api = "gemini"
    programmatic_calls = False
    builtin_calls = False

    def handles(self, method: str, path: str) -> bool:
        return method == "POST" and _route(path)[1] in ("generateContent", "streamGenerateContent")

    def problems(self, body: Mapping[str, Any], server: FakeServer) -> list[HistoryProblem]:
        signatures: dict[str, bytes] = server.state.get(SIGNATURES, {})
        contents = _contents(body)
        problems = gemini_history_problems(contents, signatures=signatures)
        return sorted([*problems, *gemini_media_problems(contents)], key=lambda p: p.index)

    def read(self, body: Mapping[str, Any], server: FakeServer, path: str) -> FakeRequest:
        reject_wrong_tool_shapes(json_list(body.get("tools")), gemini_tool_definition_problem)
        model, action = _route(path)
        request = FakeRequest(tools=_tools(body), stream=action == "streamGenerateContent")
        request.model = model or "gemini-fake"
        by_model = gemini_media_problems(_contents(body), model=request.model)
        if by_model:
            raise RejectedRequest("\n".join(p.message for p in by_model))
        calling = field(field(body, "toolConfig", "tool_config"), "functionCallingConfig")
        mode = text_field(calling, "mode").upper()
        allowed = field(calling, "allowedFunctionNames", "allowed_function_names")
        request.tool_choice_none = mode == "NONE"
        if allowed is not None:
            if mode not in ("ANY", "VALIDATED"):
                raise RejectedRequest(
                    "* GenerateContentRequest.tool_config.function_calling_config."
                    "allowed_function_names: only allowed when the mode is ANY or VALIDATED, "
                    f"not {mode or 'unset'}."
                )
            allow_only(request, json_list(allowed), "allowed_function_names")
        config = field(body, "generationConfig", "generation_config")
        schema = field(config, "responseJsonSchema", "response_json_schema")
        if schema is None:
            schema = field(config, "responseSchema", "response_schema")
        mime = text_field(config, "responseMimeType", "response_mime_type")
        if isinstance(schema, Mapping) and mime == "application/json":
            request.output_schema = dict(schema)  # pyright: ignore[reportUnknownArgumentType]
        contents = _contents(body)
        last_prompt = max(
            (i for i, c in enumerate(contents) if _is_prompt(c)),
            default=-1,
        )
        request.rounds = sum(1 for c in contents[last_prompt + 1 :] if _calls_of(c))
        request.assistant_turns = sum(1 for c in contents if text_field(c, "role") == "model")
        if contents and not _is_model(contents[-1]):
            request.results = [_result_text(r) for r in _responses_of(contents[-1])]
        return request

    def render(
        self, reply: FakeReply, request: FakeRequest, body: Mapping[str, Any], server: FakeServer
    ) -> httpx2.Response:
        refuse_search(reply, "Gemini")
        signatures: dict[str, bytes] = server.state.setdefault(SIGNATURES, {})
        call_parts = _call_parts(reply, signatures)
        response_id = f"toolwire-fake-{server.next_id()}"
        model = request.model
        if reply.stop == "refusal":
            finish = "SAFETY"
        elif reply.stop == "length":
            finish = "MAX_TOKENS"
        else:
            finish = "STOP"
        head = {"responseId": response_id, "modelVersion": model}
        usage = {"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20}
        if request.stream:
            chunks = _chunks(reply, call_parts, finish, head, usage)
            return httpx2.Response(
                200,
                content=sse((None, chunk) for chunk in chunks),
                headers={"content-type": "text/event-stream"},
            )
        candidate: dict[str, Any] = {"finishReason": finish, "index": 0}
        if reply.stop != "refusal":
            parts = _leading_parts(reply, whole=True) + call_parts
            if parts:
                candidate["content"] = {"role": "model", "parts": parts}
        return httpx2.Response(
            200, json={"candidates": [candidate], "usageMetadata": usage, **head}
        )

    def error(self, status: int, message: str) -> httpx2.Response:
        return gemini_error(status, message)


def gemini_error(status: int, message: str) -> httpx2.Response:
    """An error response shaped like Google's (`{"error": {code, message, status}}`)."""
    error = {"code": status, "message": message, "status": _STATUS_NAMES.get(status, "INTERNAL")}
    return httpx2.Response(status, json={"error": error})


def _call_parts(reply: FakeReply, signatures: dict[str, bytes]) -> list[dict[str, Any]]:
    """The reply's function-call parts; the first one carries the turn's signature."""
    parts: list[dict[str, Any]] = []
    for call in reply.calls:
        args = arguments_dict(call)
        if not isinstance(args, dict):
            if reply.stop == "length":
                continue  # a call cut by the length limit is absent on Gemini, never partial
            raise RejectedRequest(
                f"toolwire fake: FakeCall({call.name!r}) has arguments that are not a JSON "
                "object; Gemini sends function call args as an object. Give a dict."
            )
        function_call: dict[str, Any] = {"name": call.name, "args": args}
        if call.id is not None:
            function_call["id"] = call.id
        part: dict[str, Any] = {"functionCall": function_call}
        if not parts:
            signature = fake_signature(function_call)
            signatures[gemini_signature_key(function_call)] = signature
            part["thoughtSignature"] = base64.b64encode(signature).decode()
        parts.append(part)
    return parts


def _leading_parts(reply: FakeReply, *, whole: bool) -> list[dict[str, Any]]:
    """The thought summary and text parts before the calls (one part each when `whole`)."""
    parts: list[dict[str, Any]] = []
    if reply.thinking:
        pieces = [reply.thinking] if whole else split_text(reply.thinking)
        parts += [{"text": piece, "thought": True} for piece in pieces]
    if reply.text:
        pieces = [reply.text] if whole else split_text(reply.text)
        parts += [{"text": piece} for piece in pieces]
        if reply.thinking and not reply.calls:
            # a thinking turn without calls signs its answer, at the end of the text
            signature = hashlib.sha256(reply.thinking.encode()).digest()[:16]
            parts[-1]["thoughtSignature"] = base64.b64encode(signature).decode()
    return parts


def _chunks(
    reply: FakeReply,
    call_parts: list[dict[str, Any]],
    finish: str,
    head: dict[str, Any],
    usage: dict[str, Any],
) -> list[dict[str, Any]]:
    """One chunk per text piece and per call, then a closing chunk with the finish
    reason on an empty text part (as Gemini 3 streams end)."""

    def chunk(parts: list[dict[str, Any]] | None, **candidate: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"index": 0, **candidate}
        if parts is not None:
            body["content"] = {"role": "model", "parts": parts}
        return {"candidates": [body], "usageMetadata": usage, **head}

    if reply.stop == "refusal":
        return [chunk(None, finishReason=finish)]
    parts = _leading_parts(reply, whole=False) + call_parts
    return [chunk([part]) for part in parts] + [chunk([{"text": ""}], finishReason=finish)]


def _tools(body: Mapping[str, Any]) -> list[FakeTool]:
    tools: list[FakeTool] = []
    listed: Any = field(body, "tools")
    entries = cast("list[Any]", listed) if isinstance(listed, list) else [listed]
    for tool in entries:
        declarations: Any = field(tool, "functionDeclarations", "function_declarations")
        for declaration in cast(
            "list[Any]", declarations if isinstance(declarations, list) else []
        ):
            schema: Any = field(
                declaration, "parameters_json_schema", "parametersJsonSchema", "parameters"
            )
            tools.append(
                FakeTool(
                    text_field(declaration, "name"),
                    "function",
                    cast("Mapping[str, Any]", schema) if isinstance(schema, Mapping) else None,
                    False,
                )
            )
    return tools


def _contents(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return blocks_of(body, "contents")


def _is_model(content: Mapping[str, Any]) -> bool:
    return text_field(content, "role") == "model"


def _calls_of(content: Mapping[str, Any]) -> list[Any]:
    if not _is_model(content):
        return []
    parts = blocks_of(content, "parts")
    return [c for p in parts if (c := field(p, "functionCall", "function_call")) is not None]


def _responses_of(content: Mapping[str, Any]) -> list[Any]:
    parts = blocks_of(content, "parts")
    return [
        r for p in parts if (r := field(p, "functionResponse", "function_response")) is not None
    ]


def _is_prompt(content: Mapping[str, Any]) -> bool:
    """A user content that asks something (not only function responses)."""
    return not _is_model(content) and not _responses_of(content)


def _result_text(response: Any) -> str:
    value: Any = field(response, "response")
    if isinstance(value, Mapping):
        mapping = cast("Mapping[str, Any]", value)
        inner = field(mapping, "output")
        if inner is None:
            inner = field(mapping, "error")
        if inner is not None:
            value = inner
    return value if isinstance(value, str) else json.dumps(value)


KIT = Kit(
    GeminiCodec, gemini_history_problems, gemini_media_problems, gemini_tool_definition_problem
)
"""The Gemini fake and the rules it enforces, for the API-neutral modules."""
