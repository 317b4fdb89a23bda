"""`FakeOpenAI`: an offline OpenAI API for the real `OpenAI` / `AsyncOpenAI` clients."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import httpx2

from ._fake import FakeReply, FakeServer

if TYPE_CHECKING:
    from openai import AsyncOpenAI, OpenAI

__all__ = ["FakeOpenAI"]

BASE_URL = "https://fake.openai.invalid/v1"


class FakeOpenAI:
    """An offline stand-in for the OpenAI API, serving Chat Completions and Responses
    through the real SDK clients (their HTTP goes to an in-process transport).

    By default it behaves like a cooperative model: offered tools, it calls each
    one once with minimal valid arguments derived from its schema; once results
    arrive, it answers with text; asked for structured output, it answers with a
    minimal valid JSON value. `invalid_arguments_first=True` sends invalid
    arguments (and invalid structured output) first, to exercise a retry path.
    `script=[FakeReply(...), ...]` gives the exact replies instead, in order.

    Like the live API, it answers HTTP 400 when the history breaks the rules (a call
    without a result, a result without a call...). `requests` holds every request
    body it received.
    """

    def __init__(
        self, *, script: Iterable[FakeReply] | None = None, invalid_arguments_first: bool = False
    ) -> None:
        # Imported here: the codecs import this package's modules, and importing one of
        # them first must not meet a half-initialized package.
        from .._adapters.openai_chat.fake import ChatCodec
        from .._adapters.openai_responses.fake import ResponsesCodec

        self.server = FakeServer(
            [ChatCodec(), ResponsesCodec()],
            script=script,
            invalid_arguments_first=invalid_arguments_first,
        )

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every request body received, in order."""
        return self.server.requests

    def transport(self) -> httpx2.MockTransport:
        """The transport, to build your own `httpx2.Client` / `AsyncClient`."""
        return self.server.transport()

    def client(self, **options: Any) -> OpenAI:
        """A real `openai.OpenAI` client wired to this fake."""
        from openai import OpenAI

        return OpenAI(
            api_key="offline-fake",
            base_url=BASE_URL,
            http_client=httpx2.Client(transport=self.transport()),
            max_retries=0,
            **options,
        )

    def async_client(self, **options: Any) -> AsyncOpenAI:
        """A real `openai.AsyncOpenAI` client wired to this fake."""
        from openai import AsyncOpenAI

        return AsyncOpenAI(
            api_key="offline-fake",
            base_url=BASE_URL,
            http_client=httpx2.AsyncClient(transport=self.transport()),
            max_retries=0,
            **options,
        )
