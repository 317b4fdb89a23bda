"""`ChatServer`: what toolwire must know about an OpenAI-compatible Chat Completions
server that its traffic does not show, and the servers it knows.

Reading needs no profile: whatever a server sends (ids, chunking, reasoning fields,
arguments as objects) is read from the traffic. A profile says what a server accepts
back, which only its refusals show: the `strict` flag, a forced `tool_choice`, the
content of a tool-call message without text, the form of call ids, the reasoning fields
it takes back (and the one it requires), explicit prompt-cache breakpoints. Pass one wherever `api="chat.completions"`
goes; toolwire then writes for that server, and the testing fakes answer as it does.
No module imports an SDK here: `import toolwire.core` stays free of them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import ClassVar, Literal

__all__ = [
    "ALPHANUMERIC",
    "KNOWN_SERVERS",
    "ChatServer",
    "EmptyContent",
    "ForcedToolChoice",
    "derived_id",
]

ForcedToolChoice = Literal["accepted", "refused", "refused_while_thinking"]
"""Whether a server takes a forced `tool_choice` ("required", or one named tool):
always, never, or only with thinking off (DeepSeek V4 and Kimi K2 think by default)."""

EmptyContent = Literal["null", "empty", "absent"]
"""How an assistant message without text carries its `content`: `null` (OpenAI's own
form), `""`, or no `content` key at all."""

ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""Letters and digits: the characters of ids with a length rule (Mistral's)."""


@dataclass(frozen=True, slots=True)
class ChatServer:
    """An OpenAI-compatible Chat Completions server: accepted wherever `api` is (tool
    definitions, `tool_choice`, `assistant_messages`, `tool_result_messages`,
    `turn_status`, `ToolCallStream`, `check_history`, `FakeOpenAI(server=...)`), in place
    of `"chat.completions"`, which means `ChatServer.OPENAI`.

    Use a known one (`ChatServer.OLLAMA`, `ChatServer.DEEPSEEK`...), or describe your own,
    starting from the defaults (OpenAI's behaviour) or from a known server::

        MY_SERVER = ChatServer("my-gateway", strict=False, empty_content="empty")
        MY_OLLAMA = dataclasses.replace(ChatServer.OLLAMA, name="ollama-fork")

    Define it once, pass the same value everywhere the loop passes `api`.
    """

    name: str
    """How messages and errors name the server."""
    strict: bool = True
    """Whether tool definitions and response formats may carry `strict`. False leaves the
    flag out (the schema is the same: toolwire still validates every call against it)."""
    forced_tool_choice: ForcedToolChoice = "accepted"
    """Whether `tool_choice` may force a call ("required", or one tool); `tool_choice`
    raises `ToolChoiceError` for what the server refuses. With "refused_while_thinking",
    pass `thinking=False` when the request turns thinking off."""
    empty_content: EmptyContent = "null"
    """How `assistant_messages` writes the `content` of a turn without text (a turn that
    only calls tools): `null`, `""`, or no key. Content the server sent is replayed as
    sent."""
    call_id_length: int | None = None
    """Call ids must be exactly this many letters and digits (Mistral: 9). Any other id,
    and the ids toolwire makes for calls sent without one, are replaced by a stable id
    of that form, the same in `assistant_messages` and `tool_result_messages`."""
    replays: tuple[str, ...] = ("reasoning_content", "reasoning_details")
    """The assistant message's reasoning fields `assistant_messages` sends back when the
    server sent them (DeepSeek and Kimi answer 400 without `reasoning_content`; Groq and
    Mistral answer 400 with any of them). Each call's `extra_content` (Gemini's thought
    signature) is always sent back with its call."""
    required_reasoning: str | None = None
    """The reasoning field every assistant turn with tool calls must carry back while
    thinking is on (DeepSeek, Kimi: "reasoning_content"): `check_history` reports a turn
    that lost it once the history shows the server thinking, and the fake refuses it."""
    cache_breakpoints: bool = True
    """Whether content parts may carry OpenAI's explicit prompt-cache breakpoint
    (`prompt_cache_breakpoint`), which `tool_result_messages(..., cache_breakpoint=True)`
    puts on the answer's last content part. False: `cache_breakpoint=` adds nothing (the
    lifetime is not checked), as on Gemini: the server caches prompt prefixes on its own,
    or not at all. Of the known servers only OpenAI's documents them."""

    OPENAI: ClassVar[ChatServer]
    AZURE_OPENAI: ClassVar[ChatServer]
    OLLAMA: ClassVar[ChatServer]
    VLLM: ClassVar[ChatServer]
    LLAMA_CPP: ClassVar[ChatServer]
    LM_STUDIO: ClassVar[ChatServer]
    SGLANG: ClassVar[ChatServer]
    GROQ: ClassVar[ChatServer]
    MISTRAL: ClassVar[ChatServer]
    DEEPSEEK: ClassVar[ChatServer]
    KIMI: ClassVar[ChatServer]
    ZAI: ClassVar[ChatServer]
    MINIMAX: ClassVar[ChatServer]
    OPENROUTER: ClassVar[ChatServer]
    TOGETHER: ClassVar[ChatServer]
    FIREWORKS: ClassVar[ChatServer]
    GEMINI_OPENAI: ClassVar[ChatServer]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"A ChatServer needs a name (a non-empty str), not {self.name!r}.")
        replays = (self.replays,) if isinstance(self.replays, str) else tuple(self.replays)
        if not all(isinstance(name, str) and name for name in replays):
            raise ValueError(
                f"ChatServer {self.name!r}: replays names message fields, as strings "
                f"(such as 'reasoning_content'); got {self.replays!r}."
            )
        object.__setattr__(self, "replays", replays)
        if self.required_reasoning is not None and self.required_reasoning not in replays:
            raise ValueError(
                f"ChatServer {self.name!r} requires {self.required_reasoning!r} back but does "
                f"not replay it: add it to replays (now {replays!r})."
            )
        length = self.call_id_length
        if length is not None and (not isinstance(length, int) or not 4 <= length <= 64):
            raise ValueError(
                f"ChatServer {self.name!r}: call_id_length is a number of characters from 4 "
                f"to 64 (Mistral: 9), or None; got {length!r}."
            )

    @property
    def api(self) -> Literal["chat.completions"]:
        """The API it speaks: what `api=` means when given this server."""
        return "chat.completions"

    def call_id(self, call_id: str) -> str:
        """`call_id` in the form this server takes: itself when it fits (or the server has
        no rule), else a stable id of the right form derived from it."""
        length = self.call_id_length
        if length is None or (len(call_id) == length and call_id.isalnum() and call_id.isascii()):
            return call_id
        return derived_id(call_id, length)


def derived_id(seed: str, length: int, alphabet: str = ALPHANUMERIC) -> str:
    """A stable id of `length` characters of `alphabet`, derived from `seed` (the same
    seed gives the same id in every process)."""
    number = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big")
    letters: list[str] = []
    for _ in range(length):
        number, digit = divmod(number, len(alphabet))
        letters.append(alphabet[digit])
    return "".join(letters)


ChatServer.OPENAI = ChatServer("OpenAI")
"""OpenAI's own API: the default, what `"chat.completions"` means."""

ChatServer.AZURE_OPENAI = ChatServer("Azure OpenAI", cache_breakpoints=False)
"""Azure OpenAI: OpenAI's rules, but no explicit cache breakpoints: its prompt-caching
guide (GPT-5.6 included) documents `prompt_cache_key` and `prompt_cache_retention`, not
`prompt_cache_breakpoint`. Its streams open with a chunk without choices (prompt filter
results), which toolwire skips without being told."""

ChatServer.OLLAMA = ChatServer(
    "Ollama",
    empty_content="empty",
    replays=("reasoning_content", "reasoning_details", "reasoning"),
    cache_breakpoints=False,
)
"""Ollama's `/v1` endpoint: answers 400 "invalid message content type: <nil>" to
`content: null` (pydantic/pydantic-ai#5206), so a turn without text carries `""`; its
`reasoning` (thinking models) goes back, which its OpenAI layer reads as thinking."""

ChatServer.VLLM = ChatServer(
    "vLLM",
    replays=("reasoning_content", "reasoning_details", "reasoning"),
    cache_breakpoints=False,
)
"""vLLM: takes `reasoning` back on assistant messages (a recorded next turn with it was
accepted: pydantic-ai's Crusoe cassette), as well as `reasoning_content`."""

ChatServer.LLAMA_CPP = ChatServer("llama.cpp server", cache_breakpoints=False)
"""llama.cpp's `llama-server`: OpenAI's rules (but no cache breakpoints); its
`reasoning_content` goes back. Calls in object mode (arguments as objects) are read
without being told."""

ChatServer.LM_STUDIO = ChatServer("LM Studio", empty_content="empty", cache_breakpoints=False)
"""LM Studio: answers tool-call turns with content `""`, and `""` goes back for a turn
without text (null content is reported refused by LM Studio, as by Ollama)."""

ChatServer.SGLANG = ChatServer("SGLang", cache_breakpoints=False)
"""SGLang: OpenAI's rules (but no cache breakpoints); its `reasoning_content` goes
back."""

ChatServer.GROQ = ChatServer("Groq", replays=(), cache_breakpoints=False)
"""Groq: answers 400 "property 'reasoning' is unsupported" (or 'reasoning_content') to
any reasoning field on an assistant message (karthink/gptel#774, janhq/jan#8136), so
none goes back. A call that fails its server-side check comes as a 400
`tool_use_failed`: see `failed_generation`."""

ChatServer.MISTRAL = ChatServer("Mistral", call_id_length=9, replays=(), cache_breakpoints=False)
"""Mistral: call ids are exactly 9 letters and digits (400 "Tool call id was ... but
must be a-z, A-Z, 0-9, with a length of 9", nearai/ironclaw#1241), and it answers 422
`extra_forbidden` to reasoning fields on assistant messages (charmbracelet/crush#1590)."""

ChatServer.DEEPSEEK = ChatServer(
    "DeepSeek",
    forced_tool_choice="refused_while_thinking",
    required_reasoning="reasoning_content",
    cache_breakpoints=False,
)
"""DeepSeek: in thinking mode (V4's default) every tool-call turn must carry its
`reasoning_content` back (400 "The `reasoning_content` in the thinking mode must be
passed back to the API."), and a forced tool_choice is refused (400 "Thinking mode does
not support this tool_choice", deepseek-ai/DeepSeek-V3#1376)."""

ChatServer.KIMI = ChatServer(
    "Kimi (Moonshot)",
    strict=False,
    forced_tool_choice="refused_while_thinking",
    required_reasoning="reasoning_content",
    cache_breakpoints=False,
)
"""Kimi / Moonshot: with thinking on (K2.6's default) tool-call turns need their
`reasoning_content` back (400 "thinking is enabled but reasoning_content is missing in
assistant tool call message", bytedance/deer-flow#3043) and a forced tool_choice is
refused (400 "tool_choice 'required' is incompatible with thinking enabled",
AstrBotDevs/AstrBot#7805); its tools take no `strict` (pydantic/pydantic-ai#2211)."""

ChatServer.ZAI = ChatServer("Z.AI (GLM)", cache_breakpoints=False)
"""Z.AI: its `reasoning_content` goes back. Arguments streamed as objects are read
without being told."""

ChatServer.MINIMAX = ChatServer("MiniMax", cache_breakpoints=False)
"""MiniMax: its `reasoning_details` (with reasoning_split) go back whole, as its
function-calling guide asks."""

ChatServer.OPENROUTER = ChatServer("OpenRouter", cache_breakpoints=False)
"""OpenRouter: its `reasoning_details` go back unmodified with the tool calls, as its
reasoning guide asks (signatures included)."""

ChatServer.TOGETHER = ChatServer("Together AI", cache_breakpoints=False)
"""Together AI: OpenAI's rules (no refusal of them is recorded), but no cache
breakpoints."""

ChatServer.FIREWORKS = ChatServer("Fireworks", cache_breakpoints=False)
"""Fireworks: OpenAI's rules (but no cache breakpoints). It repeats a call's id on each fragment, and Kimi there
sends the name after the id: both are read without being told."""

ChatServer.GEMINI_OPENAI = ChatServer("Gemini (OpenAI endpoint)", cache_breakpoints=False)
"""Google's OpenAI-compatible Gemini endpoint: each call's `extra_content` (its thought
signature) goes back with the call; Gemini 3 answers 400 without it."""

KNOWN_SERVERS: tuple[ChatServer, ...] = (
    ChatServer.OPENAI,
    ChatServer.AZURE_OPENAI,
    ChatServer.OLLAMA,
    ChatServer.VLLM,
    ChatServer.LLAMA_CPP,
    ChatServer.LM_STUDIO,
    ChatServer.SGLANG,
    ChatServer.GROQ,
    ChatServer.MISTRAL,
    ChatServer.DEEPSEEK,
    ChatServer.KIMI,
    ChatServer.ZAI,
    ChatServer.MINIMAX,
    ChatServer.OPENROUTER,
    ChatServer.TOGETHER,
    ChatServer.FIREWORKS,
    ChatServer.GEMINI_OPENAI,
)
"""Every server toolwire knows, in the order the README lists them."""
