"""Batch reliability on every API's response type (issue 7): an unexpected exception keeps
the siblings' results and every call id answerable; timeouts and cancellation under
`max_concurrency` stop the right handlers and leave nothing running.

Handlers coordinate through events, never through timing, so the order of what happens
is fixed; only the timeout tests wait for a (short) deadline.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from anthropic.types import Message
from google.genai import types
from openai.types.responses import Response

from tests.helpers import chat_completion
from tests.test_responses_support import function_call, response_json
from toolwire import aio, core
from toolwire.core import Api, ToolBatchError, assistant_messages, tool_result_messages
from toolwire.testing import check_history

APIS: tuple[Api, ...] = ("chat.completions", "responses", "anthropic", "gemini")


@dataclass
class Probe:
    """What the handlers did; the events let them meet in a fixed order."""

    started: list[str] = field(default_factory=list[str])
    finished: list[str] = field(default_factory=list[str])
    cancelled: list[str] = field(default_factory=list[str])
    sibling_running: asyncio.Event = field(default_factory=asyncio.Event)
    crashed: asyncio.Event = field(default_factory=asyncio.Event)


class Step(aio.BaseFunctionToolModel[Probe, str]):
    """One step; its label says how it behaves."""

    label: str

    async def model_tool_handler(self, context: Probe) -> tuple[str, str]:
        context.started.append(self.label)
        try:
            if self.label.startswith("crash"):
                await context.sibling_running.wait()
                context.crashed.set()
                raise RuntimeError("internal detail: password=hunter2")
            if self.label.startswith("sibling"):
                context.sibling_running.set()
                await context.crashed.wait()
                await asyncio.sleep(0)  # finish after the crash was recorded
            if "hang" in self.label:
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            context.cancelled.append(self.label)
            raise
        context.finished.append(self.label)
        return f"done {self.label}", self.label


class CoreStep(core.BaseFunctionToolModel[list[str], str]):
    """The sync twin: "crash" labels raise."""

    model_tool_custom_name = "Step"

    label: str

    def model_tool_handler(self, context: list[str]) -> tuple[str, str]:
        context.append(self.label)
        if self.label.startswith("crash"):
            raise RuntimeError("internal detail: password=hunter2")
        return f"done {self.label}", self.label


GROUP = aio.ToolGroup.from_list([Step])
CORE_GROUP = core.ToolGroup.from_list([CoreStep])


def response(api: Api, *labels: str) -> Any:
    """A whole response of `api` (the SDK's own type) calling Step once per label."""
    arguments = [{"label": label} for label in labels]
    if api == "chat.completions":
        return chat_completion(*(("Step", a) for a in arguments))
    if api == "responses":
        items = [
            function_call(f"call_{i}", "Step", json.dumps(a), item_id=f"fc_{i}")
            for i, a in enumerate(arguments)
        ]
        return Response.model_validate(response_json(*items))
    if api == "anthropic":
        blocks = [
            {"type": "tool_use", "id": f"toolu_{i}", "name": "Step", "input": a}
            for i, a in enumerate(arguments)
        ]
        return Message.model_validate(
            {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude-test",
                "content": blocks,
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            }
        )
    parts = [{"functionCall": {"name": "Step", "args": a}} for a in arguments]  # no ids
    return types.GenerateContentResponse.model_validate(
        {
            "responseId": "resp-1",
            "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        }
    )


FIRST: dict[Api, Any] = {
    "chat.completions": {"role": "user", "content": "Go."},
    "responses": {"role": "user", "content": "Go."},
    "anthropic": {"role": "user", "content": "Go."},
    "gemini": {"role": "user", "parts": [{"text": "Go."}]},
}


def leftover_tasks() -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]


@pytest.mark.parametrize("api", APIS)
def test_unexpected_exception_keeps_siblings_and_answers_every_id(api: Api) -> None:
    """With max_concurrency=2: the running sibling finishes, the queued call never starts,
    the error holds both, and answer_all() makes a history the API accepts."""
    turn = response(api, "crash", "sibling", "queued")
    probe = Probe()

    async def scenario() -> ToolBatchError:
        with pytest.raises(ToolBatchError) as caught:
            await GROUP.run_tool_calls(turn, probe, max_concurrency=2)
        assert leftover_tasks() == []
        return caught.value

    error = asyncio.run(scenario())
    assert (probe.started, probe.finished, probe.cancelled) == (
        ["crash", "sibling"],
        ["sibling"],
        [],
    )
    ids = [call.id for call in error.calls]
    assert [type(e).__name__ if e else None for e in error.errors] == ["RuntimeError", None, None]
    assert [r.result_content if r else None for r in error.results] == [None, "done sibling", None]
    assert [call.id for call in error.not_run] == ids[2:]
    answered = error.answer_all()
    assert [(r.call_id, r.fail_reason) for r in answered] == [
        (ids[0], "unexpected_error"),
        (ids[1], None),
        (ids[2], "not_run"),
    ]
    assert all("hunter2" not in r.result_content for r in answered)
    history = [
        FIRST[api],
        *assistant_messages(turn, api),
        *tool_result_messages(answered, api),
    ]
    assert check_history(history, api) == []


@pytest.mark.parametrize("api", APIS)
def test_without_a_bound_every_call_has_started_when_one_crashes(api: Api) -> None:
    """No max_concurrency: every handler starts at once, so a crash leaves no call
    `not_run` (the README's Async section says so): the others finish with results."""
    turn = response(api, "crash", "sibling", "last")
    probe = Probe()
    with pytest.raises(ToolBatchError) as caught:
        asyncio.run(GROUP.run_tool_calls(turn, probe))
    assert probe.started == ["crash", "sibling", "last"]
    assert sorted(probe.finished) == ["last", "sibling"]
    assert caught.value.not_run == ()
    assert [r.fail_reason for r in caught.value.answer_all()] == ["unexpected_error", None, None]


@pytest.mark.parametrize("api", APIS)
def test_fail_policy_under_max_concurrency_answers_every_call(api: Api) -> None:
    """unexpected_errors="fail": the crash becomes a generic failure and the rest all run."""
    probe = Probe()
    turn = response(api, "crash", "sibling", "queued")
    results = asyncio.run(
        GROUP.run_tool_calls(turn, probe, max_concurrency=2, unexpected_errors="fail")
    )
    assert [r.fail_reason for r in results] == ["unexpected_error", None, None]
    assert sorted(probe.finished) == ["queued", "sibling"]
    assert "hunter2" not in results[0].result_content


@pytest.mark.parametrize("api", APIS)
def test_core_batch_keeps_earlier_results_on_every_api(api: Api) -> None:
    """Sync: calls before the crash keep their results, later ones do not run, and
    answer_all() answers every id in a history the API accepts."""
    turn = response(api, "first", "crash", "later")
    ran: list[str] = []
    with pytest.raises(ToolBatchError) as caught:
        CORE_GROUP.run_tool_calls(turn, ran)
    assert ran == ["first", "crash"]
    answered = caught.value.answer_all()
    assert [r.fail_reason for r in answered] == [None, "unexpected_error", "not_run"]
    history = [FIRST[api], *assistant_messages(turn, api), *tool_result_messages(answered, api)]
    assert check_history(history, api) == []


def test_timeout_under_max_concurrency_stops_only_the_slow_call() -> None:
    """With one slot, a hanging call times out and is cancelled; the queued calls then run
    (their clocks start when they do) and nothing is left running."""
    probe = Probe()

    async def scenario() -> list[Any]:
        turn = response("anthropic", "hang", "ok 1", "ok 2")
        results = await GROUP.run_tool_calls(turn, probe, max_concurrency=1, timeout=0.05)
        assert leftover_tasks() == []
        return results

    results = asyncio.run(scenario())
    assert [r.fail_reason for r in results] == ["timeout", None, None]
    assert (probe.started, probe.cancelled, probe.finished) == (
        ["hang", "ok 1", "ok 2"],
        ["hang"],
        ["ok 1", "ok 2"],
    )


def test_running_sibling_that_times_out_is_kept_in_the_batch_error() -> None:
    """A crash while a sibling hangs: the sibling runs into its timeout, and the error holds
    its timeout failure, so every id is still answered."""
    probe = Probe()

    async def scenario() -> ToolBatchError:
        turn = response("gemini", "crash", "sibling then hang")
        probe.crashed.set()  # the sibling does not wait for the crash
        with pytest.raises(ToolBatchError) as caught:
            await GROUP.run_tool_calls(turn, probe, timeout=0.05)
        assert leftover_tasks() == []
        return caught.value

    error = asyncio.run(scenario())
    assert [r.fail_reason if r else None for r in error.results] == [None, "timeout"]
    assert probe.cancelled == ["sibling then hang"]
    assert [r.fail_reason for r in error.answer_all()] == ["unexpected_error", "timeout"]


@pytest.mark.parametrize("max_concurrency", [1, 2, None])
def test_cancelling_a_gated_batch_stops_running_and_queued_calls(
    max_concurrency: int | None,
) -> None:
    """Cancelling the batch cancels the handlers that run, starts no queued one, and returns
    only when nothing is left running."""
    probe = Probe()
    running = 4 if max_concurrency is None else max_concurrency

    async def scenario() -> None:
        turn = response("responses", "hang a", "hang b", "hang c", "hang d")
        task = asyncio.create_task(
            GROUP.run_tool_calls(turn, probe, max_concurrency=max_concurrency)
        )
        while len(probe.started) < running:
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert leftover_tasks() == []

    asyncio.run(scenario())
    started = ["hang a", "hang b", "hang c", "hang d"][:running]
    assert (probe.started, sorted(probe.cancelled), probe.finished) == (started, started, [])
