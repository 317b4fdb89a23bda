"""`FakeApi`: what the public fakes (`FakeOpenAI`, `FakeAnthropic`, `FakeGemini`) share.

Each is a `FakeServer` speaking its API's codecs, reached by a real SDK client through
an in-process transport. A public fake names its codecs and base URL, and builds its
SDK's clients; the rest is here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import httpx2

from ._fake import FakeCodec, FakeReply, FakeServer

__all__ = ["FakeApi"]


class FakeApi:
    """An offline API server for the real SDK clients; see each subclass."""

    _codecs: ClassVar[tuple[Callable[[], FakeCodec], ...]]
    """The wire formats this fake speaks (one per API it serves)."""
    _base_url: ClassVar[str]
    """Where its clients send their requests (a host that cannot resolve)."""

    def __init__(
        self,
        *,
        script: Iterable[FakeReply] | None = None,
        invalid_arguments_first: bool = False,
        codecs: Sequence[FakeCodec] | None = None,
    ) -> None:
        self.server = FakeServer(
            [make() for make in self._codecs] if codecs is None else codecs,
            script=script,
            invalid_arguments_first=invalid_arguments_first,
        )

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every request body received, in order (the JSON the SDK sent, parsed)."""
        return self.server.requests

    def transport(self) -> httpx2.MockTransport:
        """The transport, to build your own `httpx2.Client` / `AsyncClient`."""
        return self.server.transport()

    def _client_options(
        self, http_client: type[httpx2.Client] | type[httpx2.AsyncClient]
    ) -> dict[str, Any]:
        """What wires an `openai` or `anthropic` client (their constructors take the same
        options) to this fake: placeholder key, no retries, HTTP through `transport()`."""
        return {
            "api_key": "offline-fake",
            "base_url": self._base_url,
            "http_client": http_client(transport=self.transport()),
            "max_retries": 0,
        }
