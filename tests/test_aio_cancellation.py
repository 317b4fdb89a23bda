"""A cancelled aio batch stops at once, its handlers cancelled and awaited, whoever
cancels it: asyncio (`task.cancel()`, `asyncio.timeout`) or anyio's real cancel scopes
(`move_on_after`, `fail_after`, a task group's cancel, nested scopes), even when every
handler had finished already. It never spins: the rounds of waiting are counted through
`toolwire._batch_wait.wait_for` (never timed).

Handlers and the code cancelling them meet through events and anyio checkpoints, and
deadlines are moved to "now" by a handler, so nothing depends on timing.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Collection, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from toolwire import _batch_wait, aio
from toolwire.core import StandardToolCall

CLEANUP_TURNS = 50
"""Turns of the event loop a stubborn handler's cleanup takes: a wait woken on every
turn would count about this many rounds."""


@dataclass
class Stage:
    """What the handlers share: a log, an event per handler that is inside, and what a
    handler does once every handler is inside (cancel a scope, move a deadline...)."""

    log: list[str] = field(default_factory=list[str])
    inside: dict[str, asyncio.Event] = field(default_factory=dict[str, asyncio.Event])
    expected_inside: int = 0
    when_all_inside: Callable[[], None] = lambda: None

    def arrived(self, name: str) -> None:
        self.inside.setdefault(name, asyncio.Event()).set()
        if len(self.inside) == self.expected_inside:
            self.when_all_inside()


class waits(aio.BaseFunctionToolModel[Stage, None]):
    """Waits until cancelled."""

    label: str

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        context.arrived(self.label)
        try:
            await asyncio.Event().wait()
        finally:
            context.log.append(f"{self.label} stopped")
        return "never", None


class stubborn(aio.BaseFunctionToolModel[Stage, None]):
    """Catches the first cancellation, cleans up over many turns of the loop, and stops
    only when cancelled again (`twice`) or returns after its cleanup."""

    label: str
    twice: bool = False

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        context.arrived(self.label)
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            context.log.append(f"{self.label} cleaning up")
            for _ in range(CLEANUP_TURNS):
                await anyio.lowlevel.checkpoint()
            if self.twice:
                try:
                    await asyncio.Event().wait()
                finally:
                    context.log.append(f"{self.label} stopped on the second request")
            context.log.append(f"{self.label} cleaned up")
        return "finished anyway", None


class quick(aio.BaseFunctionToolModel[Stage, None]):
    """Returns at once; the last one to arrive runs `when_all_inside` first."""

    label: str

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        context.arrived(self.label)
        context.log.append(f"{self.label} done")
        return "done", None


class where(aio.BaseFunctionToolModel[list[object], None]):
    """Notes the task it runs in."""

    async def model_tool_handler(self, context: list[object]) -> tuple[str, None]:
        context.append(asyncio.current_task())
        return "here", None


class where_limited(where):
    """`where`, with a time limit of its own."""

    model_tool_timeout = 60.0


GROUP = aio.ToolGroup.from_list([waits, stubborn, quick])


def calls(*specs: tuple[str, dict[str, Any]]) -> list[StandardToolCall]:
    return [
        StandardToolCall("function", f"call_{index}", name, arguments)
        for index, (name, arguments) in enumerate(specs)
    ]


@pytest.fixture
def rounds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many rounds of waiting stopping a cancelled batch took (one per cancellation
    request it received); more than a few hundred means it spins, and fails at once."""
    counted = [0]
    original = _batch_wait.wait_for

    async def counting(tasks: Collection[asyncio.Task[Any]]) -> None:
        counted[0] += 1
        if counted[0] > 300:
            raise AssertionError("the cancelled batch waits again on every turn: it spins")
        await original(tasks)

    monkeypatch.setattr(_batch_wait, "wait_for", counting)
    yield counted


def run_anyio(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    anyio.run(main, backend="asyncio")


def test_move_on_after_stops_the_batch_and_its_handlers(rounds: list[int]) -> None:
    """anyio's deadline passing (moved to now once both handlers are inside) cancels the
    batch: both handlers are cancelled and have stopped when the scope exits, the
    stubborn one after its whole cleanup, in one round of waiting."""
    stage = Stage(expected_inside=2)
    outcome: list[str] = []

    async def main() -> None:
        with anyio.move_on_after(math.inf) as scope:
            stage.when_all_inside = lambda: setattr(scope, "deadline", anyio.current_time())
            await GROUP.run_tool_calls(
                calls(("waits", {"label": "a"}), ("stubborn", {"label": "b"})), stage
            )
            outcome.append("the batch returned")
        outcome.append(f"cancelled_caught={scope.cancelled_caught}")
        stage.log.append("scope exited")

    run_anyio(main)
    assert outcome == ["cancelled_caught=True"]
    assert stage.log == ["a stopped", "b cleaning up", "b cleaned up", "scope exited"]
    assert rounds == [1]


def test_fail_after_raises_timeout_after_the_handlers_stopped(rounds: list[int]) -> None:
    """`fail_after` turns the cancelled batch into TimeoutError, once its handlers
    stopped."""
    stage = Stage(expected_inside=2)

    async def main() -> None:
        with pytest.raises(TimeoutError):
            with anyio.fail_after(math.inf) as scope:
                stage.when_all_inside = lambda: setattr(scope, "deadline", anyio.current_time())
                await GROUP.run_tool_calls(
                    calls(("stubborn", {"label": "a"}), ("waits", {"label": "b"})), stage
                )
        stage.log.append("TimeoutError raised")

    run_anyio(main)
    assert stage.log[-1] == "TimeoutError raised"
    assert sorted(stage.log[:-1]) == ["a cleaned up", "a cleaning up", "b stopped"]
    assert rounds == [1]


def test_a_task_group_cancel_around_nested_scopes(rounds: list[int]) -> None:
    """The batch runs in a task group's child, inside a nested scope; cancelling the
    task group reaches it through both scopes, and the task group exits cleanly."""
    stage = Stage(expected_inside=3)
    reached: list[str] = []

    async def child() -> None:
        with anyio.CancelScope():
            with anyio.move_on_after(math.inf):
                await GROUP.run_tool_calls(
                    calls(
                        ("waits", {"label": "a"}),
                        ("stubborn", {"label": "b"}),
                        ("waits", {"label": "c"}),
                    ),
                    stage,
                )
                reached.append("after the batch")
            reached.append("after the inner scope")

    async def main() -> None:
        async with anyio.create_task_group() as group:
            stage.when_all_inside = group.cancel_scope.cancel
            group.start_soon(child)
        stage.log.append("task group exited")

    run_anyio(main)
    assert reached == []
    assert stage.log[-1] == "task group exited"
    assert sorted(stage.log[:-1]) == ["a stopped", "b cleaned up", "b cleaning up", "c stopped"]
    assert rounds == [1]


def test_cancelled_when_every_handler_has_finished(rounds: list[int]) -> None:
    """The scope is cancelled by the last handler as it returns: every task is done
    when the cancellation reaches the batch, which raises it at once (it used to wait
    again for ever, woken by anyio on every turn)."""
    stage = Stage(expected_inside=2)

    async def main() -> None:
        with anyio.CancelScope() as scope:
            stage.when_all_inside = scope.cancel
            await GROUP.run_tool_calls(
                calls(("quick", {"label": "a"}), ("quick", {"label": "b"})), stage
            )
            stage.log.append("the batch returned")
        assert scope.cancelled_caught
        stage.log.append("scope exited")

    run_anyio(main)
    assert stage.log == ["a done", "b done", "scope exited"]
    assert rounds == [0]


def test_a_second_asyncio_cancel_reaches_the_handlers_still_running(
    rounds: list[int],
) -> None:
    """asyncio: a handler that ignores the first cancellation gets the second request
    made to the task awaiting the batch; the batch raises CancelledError once it has
    stopped."""
    stage = Stage(expected_inside=2)

    async def main() -> None:
        batch = asyncio.ensure_future(
            GROUP.run_tool_calls(
                calls(("stubborn", {"label": "a", "twice": True}), ("waits", {"label": "b"})),
                stage,
            )
        )
        await asyncio.gather(*(stage.inside.setdefault(n, asyncio.Event()).wait() for n in "ab"))
        batch.cancel()
        while "a cleaning up" not in stage.log:
            await asyncio.sleep(0)
        for _ in range(CLEANUP_TURNS + 5):
            await asyncio.sleep(0)
        assert not batch.done()  # a still waits for its second request
        batch.cancel()
        for _ in range(10):  # a few turns of the loop, not a wait for ever
            if batch.done():
                break
            await asyncio.sleep(0)
        assert batch.cancelled()
        stage.log.append("batch cancelled")

    asyncio.run(main())
    assert stage.log == [
        "a cleaning up",
        "b stopped",
        "a stopped on the second request",
        "batch cancelled",
    ]
    assert rounds == [2]


def test_asyncio_timeout_around_the_batch(rounds: list[int]) -> None:
    """`asyncio.timeout` (its deadline moved to now by the last handler inside) ends
    in TimeoutError once the handlers stopped."""
    stage = Stage(expected_inside=2)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(None) as deadline:
                stage.when_all_inside = lambda: deadline.reschedule(loop.time())
                await GROUP.run_tool_calls(
                    calls(("waits", {"label": "a"}), ("stubborn", {"label": "b"})), stage
                )
        stage.log.append("TimeoutError raised")

    asyncio.run(main())
    assert stage.log == ["a stopped", "b cleaning up", "b cleaned up", "TimeoutError raised"]
    assert rounds == [1]


def test_a_batch_without_an_asyncio_loop_says_so() -> None:
    """Driven by something other than asyncio (as trio would), the batch says it needs
    an asyncio event loop instead of asyncio's bare "no running event loop"."""
    coroutine = GROUP.run_tool_calls(calls(("quick", {"label": "a"})), Stage())
    with pytest.raises(RuntimeError) as raised:
        coroutine.send(None)
    assert str(raised.value) == (
        "toolwire.aio runs a batch's handlers as asyncio tasks, but no asyncio event loop "
        "is running here (trio is not supported). Await the batch on asyncio (asyncio.run, "
        "or anyio with its asyncio backend), or, from trio, run toolwire.core tools in a "
        "worker thread (trio.to_thread.run_sync)."
    )


def test_a_lone_call_runs_in_the_task_awaiting_it() -> None:
    """One call that nothing times out or cancels apart from the awaiting task runs in
    that task (no task of its own, as a hand-written loop awaits its handler); with a
    timeout (the batch's or the tool's), or inside an anyio cancel scope, it gets its
    own task, which the batch stops and awaits when cancelled."""
    group = aio.ToolGroup.from_list([where, where_limited])
    lone = calls(("where", {}))
    seen: list[object] = []

    async def main() -> list[bool]:
        owner = asyncio.current_task()
        runs = [
            group.run_tool_calls(lone, seen),
            group.run_tool_calls(lone, seen, max_concurrency=1),
            group.run_tool_calls(lone, seen, timeout=60),
            group.run_tool_calls(calls(("where_limited", {})), seen),
            group.run_tool_calls(calls(("where", {}), ("where", {})), seen),
        ]
        for run in runs:
            await run
        return [task is owner for task in seen]

    assert asyncio.run(main()) == [True, True, False, False, False, False]
    seen.clear()

    async def in_scope() -> None:
        with anyio.CancelScope():
            await group.run_tool_calls(lone, seen)
        await group.run_tool_calls(lone, seen)  # out of the scope again
        assert [task is asyncio.current_task() for task in seen] == [False, True]

    run_anyio(in_scope)


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("waits", {"label": "a"}, ["a stopped"]),
        ("stubborn", {"label": "a"}, ["a cleaning up", "a cleaned up"]),
        (
            "stubborn",
            {"label": "a", "twice": True},
            ["a cleaning up", "a stopped on the second request"],
        ),  # fmt: skip
    ],
)
def test_a_lone_call_cancelled_with_the_task_awaiting_it(
    rounds: list[int], name: str, arguments: dict[str, Any], expected: list[str]
) -> None:
    """asyncio: cancelling the task awaiting a lone call cancels its handler where it
    waits (no round of waiting: it runs in that task); one that catches the
    cancellation and finishes its cleanup still ends the batch cancelled, and a second
    request reaches it while it cleans up."""
    stage = Stage(expected_inside=1)

    async def main() -> None:
        batch = asyncio.ensure_future(GROUP.run_tool_calls(calls((name, arguments)), stage))
        await stage.inside.setdefault("a", asyncio.Event()).wait()
        batch.cancel()
        for _ in range(CLEANUP_TURNS + 5):
            await asyncio.sleep(0)
        if not batch.done():
            batch.cancel()
        for _ in range(10):
            await asyncio.sleep(0)
        assert batch.cancelled()

    asyncio.run(main())
    assert stage.log == expected
    assert rounds == [0]


def test_a_lone_call_in_an_anyio_scope_cleans_up_whole(rounds: list[int]) -> None:
    """anyio repeats a scope's cancellation on every turn: a lone call inside a scope
    runs in its own task, so a handler cleaning up after the first request finishes
    its cleanup, as in a batch of several calls."""
    stage = Stage(expected_inside=1)

    async def main() -> None:
        with anyio.move_on_after(math.inf) as scope:
            stage.when_all_inside = lambda: setattr(scope, "deadline", anyio.current_time())
            await GROUP.run_tool_calls(calls(("stubborn", {"label": "a"})), stage)
        stage.log.append("scope exited")

    run_anyio(main)
    assert stage.log == ["a cleaning up", "a cleaned up", "scope exited"]
    assert rounds == [1]
