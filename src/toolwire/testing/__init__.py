"""Offline testing kit: fake API servers for the real SDK clients, and a history checker.

Point a real client at a fake and run your own loop without network or keys::

    from toolwire.testing import FakeGemini, FakeOpenAI
    client = FakeOpenAI().client()          # a real openai.OpenAI
    gemini = FakeGemini().client()          # a real google.genai.Client (and .aio)
    response = client.chat.completions.create(model="any", messages=[...], tools=[...])

`FakeAnthropic().client()` does the same for a real `anthropic.Anthropic`.

The fakes call each offered tool once with minimal valid arguments, answer with
text once results arrive, answer structured-output requests with a minimal valid
value, and reject (HTTP 400, like the live APIs) a history the API would reject.
`script=[FakeReply(...)]` gives exact replies; `invalid_arguments_first=True`
shows a retry path. See each class for details.
"""

from __future__ import annotations

from ._anthropic.fake_anthropic import FakeAnthropic
from ._check import check_history
from ._fake import FakeBuiltinCall, FakeCall, FakeReply, FakeSearch
from ._gemini.fake_gemini import FakeGemini
from ._instances import UnsupportedSchemaError
from ._openai import FakeOpenAI
from ._rules import HistoryProblem

__all__ = [
    "check_history",
    "FakeAnthropic",
    "FakeBuiltinCall",
    "FakeCall",
    "FakeGemini",
    "FakeOpenAI",
    "FakeReply",
    "FakeSearch",
    "HistoryProblem",
    "UnsupportedSchemaError",
]
