"""`FakeOpenAI`: an offline OpenAI API for the real `OpenAI` / `AsyncOpenAI` clients."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import httpx2

from ._fake import FakeReply
from ._fake_api import FakeApi
from ._openai_chat.fake import ChatCodec
from ._openai_responses.fake import ResponsesCodec

if TYPE_CHECKING:
    from openai import AsyncOpenAI, OpenAI

    from .._adapters.openai_chat.servers import ChatServer

__all__ = ["FakeOpenAI"]


class FakeOpenAI(FakeApi):
    """An offline stand-in for the OpenAI API, serving Chat Completions and Responses
    through the real SDK clients (their HTTP goes to an in-process transport).

    By default it behaves like a cooperative model: offered tools, it calls each
    one once with minimal valid arguments derived from its schema; once results
    arrive, it answers with text; asked for structured output, it answers with a
    minimal valid JSON value. `invalid_arguments_first=True` sends invalid
    arguments (and invalid structured output) first, to exercise a retry path.
    `script=[FakeReply(...), ...]` gives the exact replies instead, in order
    (`FakeReply.search` opens a Responses turn with the tool search the request's
    `tool_search` tool runs: by the server, or by the client).

    Like the live API, it answers HTTP 400 when the history breaks the rules (a call
    without a result, a result without a call...) and to a scripted Responses call to a
    deferred tool no search has loaded (the default policy calls such a tool only once
    one did). `requests` holds every request
    body it received.

    `server=ChatServer.OLLAMA` (any `ChatServer`) makes its Chat Completions endpoint
    imitate that server: its ids, its chunking, its reasoning fields (sent when a reply
    has `thinking`, always by servers that think by default), and the errors it answers
    to what its profile says it refuses (content null, ids of the wrong form, reasoning
    fields it does not take back or needs back, a forced tool_choice while thinking,
    Groq's `tool_use_failed` for arguments that break the schema, a Gemini call without
    its thought signature). A server toolwire does not know is imitated with OpenAI's
    wire form and its profile's rules.
    """

    _codecs = (ChatCodec, ResponsesCodec)
    _base_url = "https://fake.openai.invalid/v1"

    def __init__(
        self,
        *,
        server: ChatServer | None = None,
        script: Iterable[FakeReply] | None = None,
        invalid_arguments_first: bool = False,
    ) -> None:
        codecs = None if server is None else (ChatCodec(server), ResponsesCodec())
        super().__init__(
            script=script, invalid_arguments_first=invalid_arguments_first, codecs=codecs
        )
        self.chat_server = server
        """The server its Chat Completions endpoint imitates (None: OpenAI)."""

    def client(self, **options: Any) -> OpenAI:
        """A real `openai.OpenAI` client wired to this fake."""
        from openai import OpenAI

        return OpenAI(**self._client_options(httpx2.Client), **options)

    def async_client(self, **options: Any) -> AsyncOpenAI:
        """A real `openai.AsyncOpenAI` client wired to this fake."""
        from openai import AsyncOpenAI

        return AsyncOpenAI(**self._client_options(httpx2.AsyncClient), **options)
