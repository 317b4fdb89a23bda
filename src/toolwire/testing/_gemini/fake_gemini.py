"""`FakeGemini`: an offline Gemini API for the real `google.genai.Client` (sync and `.aio`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx2

from .._fake_api import FakeApi
from .fake import GeminiCodec

if TYPE_CHECKING:
    from google import genai
    from google.genai.client import AsyncClient

__all__ = ["FakeGemini"]


class FakeGemini(FakeApi):
    """An offline stand-in for the Gemini API (`generateContent` and
    `streamGenerateContent`), serving the real `genai.Client` through an
    in-process transport: no network, no credentials.

    By default it behaves like a cooperative model: offered function
    declarations, it calls each one once with minimal valid arguments derived
    from its schema (no call ids, like the Gemini API, and a thought signature
    on the first call part of each turn); once function responses arrive, it
    answers with text; asked for JSON (`response_mime_type="application/json"`
    with `response_json_schema`), it answers with a minimal valid value.
    `invalid_arguments_first=True` sends invalid arguments (and invalid JSON
    output: Gemini's schema support is partial, so a model can break a schema)
    first, to exercise a retry path. `script=[FakeReply(...), ...]` gives the
    exact replies instead, in order.

    Like the live API, it answers HTTP 400 (`google.genai.errors.ClientError`,
    status INVALID_ARGUMENT) when the history breaks the rules: function calls
    not followed by exactly one function response per call in one user
    content, or a replayed call part that lost (or changed) the thought
    signature the fake sent. `requests` holds every request body it received
    (camelCase wire JSON).
    """

    _codecs = (GeminiCodec,)
    _base_url = "https://fake.gemini.invalid/"

    def client(self) -> genai.Client:
        """A real `genai.Client` wired to this fake; `client.aio` uses it too.

        Both HTTP clients are given explicitly, so the SDK never picks aiohttp or
        real credentials: `api_key` is a placeholder and `vertexai=False` keeps
        `GOOGLE_GENAI_USE_VERTEXAI` from switching to Vertex AI's auth.
        """
        from google import genai
        from google.genai import types

        transport = self.transport()
        options = types.HttpOptions(
            base_url=self._base_url,
            httpx_client=httpx2.Client(transport=transport),
            httpx_async_client=httpx2.AsyncClient(transport=transport),
        )
        return genai.Client(api_key="offline-fake", vertexai=False, http_options=options)

    def async_client(self) -> AsyncClient:
        """`self.client().aio`: the SDK's async client, wired to this fake."""
        return self.client().aio
