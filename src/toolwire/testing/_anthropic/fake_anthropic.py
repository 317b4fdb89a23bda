"""`FakeAnthropic`: an offline Anthropic API for the real `Anthropic` / `AsyncAnthropic`
clients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx2

from .._fake_api import FakeApi
from .fake import AnthropicCodec

if TYPE_CHECKING:
    from anthropic import Anthropic, AsyncAnthropic

__all__ = ["FakeAnthropic"]


class FakeAnthropic(FakeApi):
    """An offline stand-in for the Anthropic Messages API, serving `client.messages.create`
    (and `client.beta.messages.create`) through the real SDK clients, whose HTTP goes to
    an in-process transport. JSON or, with `stream=True`, the live API's event stream.

    By default it behaves like a cooperative model: offered tools, it calls each one
    once with minimal valid arguments derived from its `input_schema`; once results
    arrive, it answers with text; asked for structured output
    (`output_config={"format": ...}`), it answers with a minimal valid JSON value. When
    the request enables thinking, each turn starts with a signed thinking block.
    `invalid_arguments_first=True` sends invalid arguments (and invalid structured
    output) first, to exercise a retry path. `script=[FakeReply(...), ...]` gives the
    exact replies instead, in order (`FakeReply.thinking` adds a thinking block,
    `stop="length"` a `max_tokens` stop, `stop="refusal"` a refusal; either cuts the
    turn's last call, which toolwire then answers as truncated; `FakeReply.search` opens
    the turn with the server's tool search and the `tool_reference`s it found).

    Like the live API, it answers HTTP 400 in Anthropic's error shape when the history
    breaks the rules: a `tool_use` without a `tool_result` in the next user message,
    results not first in it, an unknown `tool_use_id`, results split across messages,
    an empty text block, a thinking block replayed with a changed signature, or
    (thinking on) a tool-calling turn replayed without its thinking block, a
    `tool_reference` to a tool the request does not defer, a scripted call to a deferred
    tool no search has loaded; and to a tool definition of the wrong shape. It takes
    function tools and every server tool type the installed SDK's `ToolUnionParam` and
    `BetaToolUnionParam` define (beta ones on every request: it does not read the
    `anthropic-beta` header). `requests` holds every request body.
    """

    _codecs = (AnthropicCodec,)
    _base_url = "https://fake.anthropic.invalid"

    def client(self, **options: Any) -> Anthropic:
        """A real `anthropic.Anthropic` client wired to this fake."""
        from anthropic import Anthropic

        return Anthropic(**self._client_options(httpx2.Client), **options)

    def async_client(self, **options: Any) -> AsyncAnthropic:
        """A real `anthropic.AsyncAnthropic` client wired to this fake."""
        from anthropic import AsyncAnthropic

        return AsyncAnthropic(**self._client_options(httpx2.AsyncClient), **options)
