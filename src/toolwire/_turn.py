"""`TurnStatus`: why a model turn ended, in words every API's turns map to.

It sits at the bottom: the adapters compute it, the stream events carry it, and
`turn_status` returns it.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["TurnStatus"]

TurnStatus = Literal[
    "tool_calls", "done", "truncated", "paused", "refused", "malformed", "calls_in_text"
]
"""Why a turn ended.

- "tool_calls": the model called tools; run them and send the results.
- "done": the model answered without calling tools.
- "truncated": the turn stopped early: a length limit (chat `length`, Responses
  `incomplete`, Anthropic `max_tokens` / `model_context_window_exceeded`, Gemini
  `MAX_TOKENS`), or a Responses turn that `failed` or was `cancelled`. Calls it holds
  still need results: a cut call is answered with a "truncated" failure.
- "paused": Anthropic `pause_turn`, or beta `compaction` (`pause_after_compaction`):
  send the turn back as it is to let the model continue.
- "refused": a refusal or a content filter stopped the turn; a call it cut off is
  answered with a "truncated" failure too.
- "malformed": Gemini `MALFORMED_FUNCTION_CALL`: the model produced a call it could not
  encode; there is nothing to run, retry the request.
- "calls_in_text": a Chat Completions answer whose text holds tool calls in a known text
  format (Hermes/Qwen `<tool_call>{...}</tool_call>`, GLM): the server did not parse
  them (its tool parser is off, or its chat template lacks tools). Turn its tool parser
  on, or read them with `recover_text_calls(response)` and run them.
"""
