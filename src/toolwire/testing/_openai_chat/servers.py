"""The Chat Completions servers the fake imitates: how each sends a turn (its ids, its
chunking, its reasoning fields) and what each refuses on the next one, with the error
it answers (the recorded bodies of `tests/compat/shapes`).

What a server refuses follows its `ChatServer` profile (the rules toolwire writes for):
content `null` where it takes `""`, ids of the wrong form, reasoning fields it does not
take back, a tool-call turn that lost the reasoning it needs, a forced `tool_choice`
while it thinks. How it sends, and the exact error bodies, are known for the servers
toolwire knows (by name); a server of your own is imitated with OpenAI's wire form and
its profile's rules, answered with plain error texts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ..._adapters.openai_chat.servers import ALPHANUMERIC, ChatServer, derived_id
from .._rules import HistoryProblem, text_field
from .._rules import field as json_field

__all__ = [
    "REASONING_FIELDS",
    "Refusal",
    "ServerProblem",
    "ServerStyle",
    "chat_server_problems",
    "server_problems",
    "style_of",
]

REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_details")
"""The reasoning fields servers put on an assistant message."""

ProblemKind = Literal[
    "null_content", "call_id", "refused_field", "missing_reasoning", "forced_choice"
]


@dataclass(frozen=True, slots=True)
class ServerProblem:
    """One thing a server refuses in a request: where, what, and plain words for it."""

    index: int
    kind: ProblemKind
    message: str
    detail: str = ""
    """The offending value (an id, a field name), for the server's own error text."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """An HTTP error as a server answers it."""

    status: int
    body: object


_LOWER = "0123456789abcdefghijklmnopqrstuvwxyz"
_HEX = "0123456789abcdef"

CallIds = Callable[[int, int, str], str]
"""(the fake's counter, the call's position in its turn, its name) -> its id."""


def _openai_ids(number: int, position: int, name: str) -> str:
    return f"call_{number}"


def _error(message: str, **more: object) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", **more}}


@dataclass(frozen=True, slots=True)
class ServerStyle:
    """How one server sends a turn, and the bodies of its refusals."""

    ids: CallIds = _openai_ids
    reasoning: str | None = None
    """The message (and delta) field its reasoning text comes in; None: it sends none."""
    reasoning_details: str | None = None
    """The `format` of the `reasoning_details` it sends beside the text, if any."""
    thinks_by_default: bool = False
    """It always reasons (unless the request sends `thinking: {"type": "disabled"}`)."""
    whole_calls: bool = False
    """Streams each call whole in one chunk (id, name, all arguments)."""
    parallel_on_index_zero: bool = False
    """Streams every parallel call on index 0 (each starting with its new id)."""
    id_on_every_fragment: bool = False
    name_on_every_fragment: bool = False
    continuation_id: str | None = None
    """The id field its continuation fragments carry when not the call's (vLLM: "")."""
    signs_calls: bool = False
    """Sends `extra_content.google.thought_signature` on each turn's first call, and
    refuses that call back without it (Gemini 3)."""
    streamed_calls_finish: str = "tool_calls"
    """The finish_reason of a streamed turn with calls (Gemini's endpoint: "stop")."""
    content_with_calls: str | None = None
    """The content of a turn with calls and no text (Ollama, LM Studio: "")."""
    validates_calls: bool = False
    """Checks calls against their schema and answers 400 `tool_use_failed` (Groq)."""
    refusals: Mapping[ProblemKind, Callable[[ServerProblem], Refusal]] = field(
        default_factory=dict[ProblemKind, Callable[[ServerProblem], Refusal]]
    )
    """Its own error for a kind of problem; the others get a plain 400."""

    def refusal(self, problem: ServerProblem, server: ChatServer) -> Refusal:
        own = self.refusals.get(problem.kind)
        if own is not None:
            return own(problem)
        return Refusal(400, _error(f"{server.name} (toolwire fake): {problem.message}"))


def _ollama_null(_: ServerProblem) -> Refusal:
    return Refusal(400, _error("invalid message content type: <nil>", param=None, code=None))


def _mistral_id(problem: ServerProblem) -> Refusal:
    return Refusal(
        400,
        {
            "object": "error",
            "message": (
                f"Tool call id was {problem.detail} but must be a-z, A-Z, 0-9, with a length of 9."
            ),
            "type": "invalid_function_call",
            "param": None,
            "code": "3280",
            "raw_status_code": 400,
        },
    )


def _mistral_field(problem: ServerProblem) -> Refusal:
    location = ["body", "messages", problem.index, "assistant", problem.detail]
    detail = {"type": "extra_forbidden", "loc": location, "msg": "Extra inputs are not permitted"}
    return Refusal(
        422,
        {
            "object": "error",
            "message": {"detail": [detail]},
            "type": "invalid_request_error",
            "param": None,
            "code": None,
        },
    )


def _groq_field(problem: ServerProblem) -> Refusal:
    where = f"'messages.{problem.index}'"
    return Refusal(
        400,
        _error(
            f"{where} : for 'role:assistant' the following must be satisfied[({where} : "
            f"property '{problem.detail}' is unsupported)]"
        ),
    )


def _deepseek_reasoning(_: ServerProblem) -> Refusal:
    text = "The `reasoning_content` in the thinking mode must be passed back to the API."
    return Refusal(400, _error(text, param=None, code="invalid_request_error"))


def _deepseek_choice(_: ServerProblem) -> Refusal:
    text = "Thinking mode does not support this tool_choice"
    return Refusal(400, _error(text, param=None, code="invalid_request_error"))


def _kimi_reasoning(problem: ServerProblem) -> Refusal:
    return Refusal(
        400,
        _error(
            "thinking is enabled but reasoning_content is missing in assistant tool call "
            f"message at index {problem.index}"
        ),
    )


def _kimi_choice(problem: ServerProblem) -> Refusal:
    return Refusal(
        400, _error(f"tool_choice '{problem.detail}' is incompatible with thinking enabled")
    )


_STYLES: dict[str, ServerStyle] = {
    ChatServer.OLLAMA.name: ServerStyle(
        ids=lambda n, p, name: "call_" + derived_id(f"ollama{n}", 8, _LOWER),
        reasoning="reasoning",
        whole_calls=True,
        content_with_calls="",
        refusals={"null_content": _ollama_null},
    ),
    ChatServer.VLLM.name: ServerStyle(
        ids=lambda n, p, name: "chatcmpl-tool-" + derived_id(f"vllm{n}", 16, _HEX),
        reasoning="reasoning",
        parallel_on_index_zero=True,
        continuation_id="",
    ),
    ChatServer.LLAMA_CPP.name: ServerStyle(
        ids=lambda n, p, name: derived_id(f"llama{n}", 32, ALPHANUMERIC),
        reasoning="reasoning_content",
    ),
    ChatServer.LM_STUDIO.name: ServerStyle(
        ids=lambda n, p, name: derived_id(f"lmstudio{n}", 9, "0123456789"), content_with_calls=""
    ),
    ChatServer.SGLANG.name: ServerStyle(
        ids=lambda n, p, name: str(p),
        reasoning="reasoning_content",
        parallel_on_index_zero=True,
        id_on_every_fragment=True,
    ),
    ChatServer.GROQ.name: ServerStyle(
        ids=lambda n, p, name: "fc_" + derived_id(f"groq{n}", 32, _HEX),
        reasoning="reasoning",
        whole_calls=True,
        validates_calls=True,
        refusals={"refused_field": _groq_field},
    ),
    ChatServer.MISTRAL.name: ServerStyle(
        ids=lambda n, p, name: derived_id(f"mistral{n}", 9, ALPHANUMERIC),
        content_with_calls="",
        refusals={"call_id": _mistral_id, "refused_field": _mistral_field},
    ),
    ChatServer.DEEPSEEK.name: ServerStyle(
        ids=lambda n, p, name: f"call_{p:02d}_" + derived_id(f"deepseek{n}", 24, ALPHANUMERIC),
        reasoning="reasoning_content",
        thinks_by_default=True,
        refusals={"missing_reasoning": _deepseek_reasoning, "forced_choice": _deepseek_choice},
    ),
    ChatServer.KIMI.name: ServerStyle(
        ids=lambda n, p, name: f"functions.{name}:{p}",
        reasoning="reasoning_content",
        thinks_by_default=True,
        content_with_calls="",
        refusals={"missing_reasoning": _kimi_reasoning, "forced_choice": _kimi_choice},
    ),
    ChatServer.ZAI.name: ServerStyle(
        ids=lambda n, p, name: "call_" + derived_id(f"zai{n}", 24, _HEX),
        reasoning="reasoning_content",
        whole_calls=True,
    ),
    ChatServer.MINIMAX.name: ServerStyle(
        ids=lambda n, p, name: f"call_function_{derived_id(f'minimax{n}', 12, _LOWER)}_{p + 1}",
        reasoning_details="MiniMax-response-v1",
        name_on_every_fragment=True,
        content_with_calls="",
    ),
    ChatServer.OPENROUTER.name: ServerStyle(
        ids=lambda n, p, name: "call_" + derived_id(f"openrouter{n}", 24, ALPHANUMERIC),
        reasoning="reasoning",
        reasoning_details="unknown",
        content_with_calls="",
    ),
    ChatServer.FIREWORKS.name: ServerStyle(
        ids=lambda n, p, name: "call_" + derived_id(f"fireworks{n}", 24, ALPHANUMERIC),
        id_on_every_fragment=True,
    ),
    ChatServer.GEMINI_OPENAI.name: ServerStyle(
        ids=lambda n, p, name: "function-call-" + derived_id(f"gemini{n}", 19, "0123456789"),
        whole_calls=True,
        signs_calls=True,
        streamed_calls_finish="stop",
    ),
}


def style_of(server: ChatServer) -> ServerStyle:
    """How the fake sends for `server` (OpenAI's form for a server it does not know)."""
    return _STYLES.get(server.name, ServerStyle())


def chat_server_problems(
    messages: Sequence[Mapping[str, Any]], server: object
) -> list[HistoryProblem]:
    """What `server` (a `ChatServer`) refuses in `messages` beyond the API's own rules,
    as `check_history` reports it: the reasoning a tool-call turn lost is reported once
    the history shows the server thinking (another turn carries it)."""
    assert isinstance(server, ChatServer)
    thinking = server.required_reasoning is not None and any(
        text_field(m, "role") == "assistant" and json_field(m, server.required_reasoning)
        for m in messages
    )
    return [
        HistoryProblem(problem.index, problem.message)
        for problem in server_problems(messages, server, thinking=thinking)
    ]


def server_problems(
    messages: Sequence[Mapping[str, Any]], server: ChatServer, *, thinking: bool
) -> list[ServerProblem]:
    """Every assistant or tool message `server` refuses, in order (`thinking`: whether
    the request has the server thinking, so tool-call turns need their reasoning)."""
    problems: list[ServerProblem] = []
    refused = [name for name in REASONING_FIELDS if name not in server.replays]
    for index, message in enumerate(messages):
        role = text_field(message, "role")
        if role == "assistant":
            problems += _assistant_problems(index, message, server, refused, thinking)
        elif role == "tool" and server.call_id_length is not None:
            call_id = text_field(message, "tool_call_id")
            if call_id and server.call_id(call_id) != call_id:
                problems.append(_id_problem(index, call_id, server))
    return problems


def _assistant_problems(
    index: int,
    message: Mapping[str, Any],
    server: ChatServer,
    refused: list[str],
    thinking: bool,
) -> list[ServerProblem]:
    where = f"messages[{index}] (assistant)"
    problems: list[ServerProblem] = []
    if server.empty_content != "null" and "content" in message and message["content"] is None:
        problems.append(
            ServerProblem(
                index,
                "null_content",
                f'{where} has content null, which {server.name} refuses; send "" (as '
                "assistant_messages(response, server) does)",
            )
        )
    for name in refused:
        if message.get(name) is not None:
            problems.append(
                ServerProblem(
                    index,
                    "refused_field",
                    f"{where} carries {name!r}, which {server.name} refuses on assistant "
                    "messages; leave it out (assistant_messages(response, server) does)",
                    name,
                )
            )
    calls: object = json_field(message, "tool_calls")
    if not isinstance(calls, list):
        return problems
    calls = cast("list[object]", calls)
    wanted = server.required_reasoning
    if thinking and wanted is not None and calls and message.get(wanted) is None:
        problems.append(
            ServerProblem(
                index,
                "missing_reasoning",
                f"{where} makes tool calls without its {wanted!r}, which {server.name} needs "
                "back while it thinks; replay the turn with assistant_messages(response, "
                "server), which keeps it",
                wanted,
            )
        )
    if server.call_id_length is not None:
        for call in calls:
            call_id = text_field(call, "id")
            if call_id and server.call_id(call_id) != call_id:
                problems.append(_id_problem(index, call_id, server))
    return problems


def _id_problem(index: int, call_id: str, server: ChatServer) -> ServerProblem:
    return ServerProblem(
        index,
        "call_id",
        f"messages[{index}] uses the call id {call_id!r}, but {server.name} takes only ids "
        f"of exactly {server.call_id_length} letters and digits; send the history through "
        "assistant_messages and tool_result_messages with the server, which rewrite ids",
        call_id,
    )
