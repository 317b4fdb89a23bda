"""toolwire.aio: concurrent handlers, results in call order, bounded, timed, cancellable."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from tests.helpers import chat_completion
from toolwire.aio import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    StandardToolCall,
    ToolBatchError,
    ToolGroup,
)


@dataclass
class Probe:
    """Records what the handlers did, and how many ran at once."""

    running: int = 0
    peak: int = 0
    started: list[str] = field(default_factory=list[str])
    finished: list[str] = field(default_factory=list[str])
    cancelled: list[str] = field(default_factory=list[str])


class Work(BaseFunctionToolModel[Probe, int]):
    """Sleep, then answer."""

    label: str
    seconds: float = 0.0
    fail: str = ""

    async def model_tool_handler(self, context: Probe) -> tuple[str, int]:
        context.started.append(self.label)
        context.running += 1
        context.peak = max(context.peak, context.running)
        try:
            await asyncio.sleep(self.seconds)
            if self.fail == "explicit":
                raise ErrorForLLMToSee(f"{self.label} could not be done")
            if self.fail == "crash":
                raise ValueError(f"secret detail of {self.label}")
        except asyncio.CancelledError:
            context.cancelled.append(self.label)
            raise
        finally:
            context.running -= 1
        context.finished.append(self.label)
        return f"done {self.label}", len(self.label)


group = ToolGroup.from_list([Work])


def calls(*specs: Mapping[str, object]) -> list[StandardToolCall]:
    import json

    return [
        StandardToolCall("function", f"c{i}", "Work", json.dumps(s)) for i, s in enumerate(specs)
    ]


def test_handlers_run_concurrently_results_in_call_order() -> None:
    """Slow first call, fast second: both run at once, results stay in call order."""
    probe = Probe()
    batch = calls({"label": "slow", "seconds": 0.05}, {"label": "fast"})
    results = asyncio.run(group.run_tool_calls(batch, probe))
    assert [r.result_content for r in results] == ["done slow", "done fast"]
    assert probe.finished == ["fast", "slow"]
    assert probe.peak == 2


def test_max_concurrency_is_respected() -> None:
    """No more than max_concurrency handlers run at once."""
    probe = Probe()
    batch = calls(*({"label": f"w{i}", "seconds": 0.01} for i in range(8)))
    results = asyncio.run(group.run_tool_calls(batch, probe, max_concurrency=3))
    assert len(results) == 8
    assert probe.peak == 3


def test_invalid_max_concurrency_is_refused() -> None:
    """max_concurrency below 1 is a developer mistake."""
    with pytest.raises(ValueError, match="at least 1"):
        asyncio.run(group.run_tool_calls(calls({"label": "a"}), Probe(), max_concurrency=0))


def test_timeout_answers_the_slow_call_and_cancels_it() -> None:
    """A handler past the timeout is cancelled and answered with a timeout failure."""
    probe = Probe()
    batch = calls({"label": "slow", "seconds": 5}, {"label": "fast"})
    results = asyncio.run(group.run_tool_calls(batch, probe, timeout=0.05))
    assert [r.fail_reason for r in results] == ["timeout", None]
    assert results[0].result_content == (
        "The tool did not finish within 0.05 seconds and was stopped. "
        "Try again, perhaps with a smaller request, or tell the user."
    )
    assert probe.cancelled == ["slow"]


def test_a_handler_raising_timeout_error_itself_is_unexpected() -> None:
    """A TimeoutError raised by the handler (not the deadline) is an unexpected exception."""

    class Raises(BaseFunctionToolModel[None, None]):
        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            raise TimeoutError("upstream timed out")

    with pytest.raises(ToolBatchError):
        asyncio.run(
            ToolGroup.from_list([Raises]).run_tool_calls(
                [StandardToolCall("function", "c", "Raises", "{}")], None, timeout=10
            )
        )


def test_unexpected_exception_lets_running_siblings_finish_and_skips_queued() -> None:
    """Running siblings finish, queued ones never start, and every id is accounted for."""
    probe = Probe()
    batch = calls(
        {"label": "crash", "seconds": 0.01, "fail": "crash"},
        {"label": "sibling", "seconds": 0.05},
        {"label": "queued"},
    )
    with pytest.raises(ToolBatchError) as caught:
        asyncio.run(group.run_tool_calls(batch, probe, max_concurrency=2))
    error = caught.value
    assert probe.finished == ["sibling"]
    assert "queued" not in probe.started
    assert [r is not None for r in error.results] == [False, True, False]
    assert [c.id for c in error.not_run] == ["c2"]
    assert [r.fail_reason for r in error.answer_all()] == ["unexpected_error", None, "not_run"]


def test_fail_policy_keeps_going() -> None:
    """unexpected_errors="fail" answers the crashed call generically and runs the others."""
    probe = Probe()
    batch = calls(
        {"label": "crash", "fail": "crash"}, {"label": "ok"}, {"label": "no", "fail": "explicit"}
    )
    results = asyncio.run(group.run_tool_calls(batch, probe, unexpected_errors="fail"))
    assert [r.fail_reason for r in results] == ["unexpected_error", None, "explicit_handler_error"]
    assert "secret" not in results[0].result_content


def test_cancelling_the_batch_cancels_handlers_and_leaves_nothing_running() -> None:
    """Cancelling run_tool_calls cancels its handlers and waits until they have stopped."""
    probe = Probe()

    async def scenario() -> None:
        batch = calls({"label": "a", "seconds": 5}, {"label": "b", "seconds": 5})
        task = asyncio.create_task(group.run_tool_calls(batch, probe))
        await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert sorted(probe.cancelled) == ["a", "b"]
        assert probe.running == 0
        leftovers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        assert leftovers == []

    asyncio.run(scenario())


def test_whole_response_and_single_call() -> None:
    """aio reads whole responses too, and run_tool_call raises the handler's exception."""
    probe = Probe()
    completion = chat_completion(("Work", {"label": "x"}), ("Nope", "{}"))
    results = asyncio.run(group.run_tool_calls(completion, probe))
    assert [r.fail_reason for r in results] == [None, "invalid_name"]
    with pytest.raises(ValueError, match="secret"):
        asyncio.run(group.run_tool_call(calls({"label": "y", "fail": "crash"})[0], probe))


def test_a_handler_made_plain_after_definition_is_a_clear_error() -> None:
    """A plain handler is refused when the class is defined (tests/test_aio_policy_fixes);
    one swapped in afterwards still fails its call with a message saying what to do."""

    class LaterPlain(BaseFunctionToolModel[None, None]):
        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "x", None

    def plain(self: LaterPlain, context: None) -> tuple[str, None]:
        return "x", None

    setattr(LaterPlain, "model_tool_handler", plain)  # noqa: B010 (what a monkeypatch does)
    with pytest.raises(TypeError, match="is not async"):
        asyncio.run(
            LaterPlain.model_tool_run_tool_call(
                StandardToolCall("function", "c", "LaterPlain", "{}"), None
            )
        )
