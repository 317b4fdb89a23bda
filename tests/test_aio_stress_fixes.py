"""Fixes from the aio stress review: a call whose task other code cancels (or whose async
hook raises `CancelledError` on its own) is that call's `HandlerCancelledError`, never a
hole in the results; a batch never returns a list holding None; a hook that raises
stops the calls still queued, then propagates; batch and class settings that a batch
would take oddly are refused before anything runs.

Handlers and hooks meet through asyncio events and futures, never through timing.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from inline_snapshot import snapshot

from toolwire import aio, core
from toolwire.core import StandardToolCall, ToolCallResult
from toolwire.exceptions import HandlerCancelledError, ToolBatchError, ToolDefinitionError


@dataclass
class Stage:
    """What the handlers share: a log of what ran, the events they wait for, and the
    task that awaits the batch (which the `killer` tool leaves alone)."""

    log: list[str] = field(default_factory=list[str])
    inside: dict[str, asyncio.Event] = field(default_factory=dict[str, asyncio.Event])
    go: dict[str, asyncio.Event] = field(default_factory=dict[str, asyncio.Event])
    owner: asyncio.Task[Any] | None = None
    tasks: dict[str, asyncio.Task[Any]] = field(default_factory=dict[str, asyncio.Task[Any]])
    """The task that ran each queue call, by its log name."""

    def event(self, events: dict[str, asyncio.Event], name: str) -> asyncio.Event:
        return events.setdefault(name, asyncio.Event())


async def cancel_own_task() -> None:
    """What a home-made deadline does: cancel the running task; the next await raises."""
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    await asyncio.Event().wait()


async def await_a_cancelled_future() -> None:
    """Raise `CancelledError` without anyone cancelling this task (a request future that
    other code cancelled)."""
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    future.cancel()
    await future


class watchdog(aio.BaseFunctionToolModel[Stage, None]):
    """Runs under a home-made deadline that cancels its own task."""

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        context.log.append("watchdog")
        await cancel_own_task()
        return "finished", None


class work(aio.BaseFunctionToolModel[Stage, None]):
    """Does item n; with `wait`, waits for the event of its call to be set; `cancel`:
    cancels the task that ran that queue call."""

    n: int
    wait: bool = False
    cancel: str = ""

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        name = f"work {self.n}"
        context.log.append(name)
        if self.cancel:
            context.tasks[self.cancel].cancel()
        if self.wait:
            context.event(context.inside, name).set()
            await context.event(context.go, name).wait()
            context.log.append(f"{name} end")
        return f"did {self.n}", None


class queue(aio.BaseFunctionToolModel[Stage, None]):
    """Queues job n, one call at a time; `cancel`: its task is cancelled while it runs;
    `wait`: it waits forever."""

    model_tool_sequential = True

    n: int
    cancel: bool = False
    wait: bool = False

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        context.log.append(f"queue {self.n}")
        context.tasks[f"queue {self.n}"] = asyncio.current_task()  # pyright: ignore[reportArgumentType]
        if self.cancel:
            await cancel_own_task()
        if self.wait:
            context.event(context.inside, f"queue {self.n}").set()
            await asyncio.Event().wait()
        return f"queued {self.n}", None


class boom(aio.BaseFunctionToolModel[Stage, None]):
    """Has a bug."""

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        context.log.append("boom")
        raise RuntimeError("bug")


class killer(aio.BaseFunctionToolModel[Stage, None]):
    """Cancels every other task but the one awaiting the batch: the batch's other tasks
    have not taken their first step yet."""

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        context.log.append("killer")
        for task in asyncio.all_tasks():
            if task is not asyncio.current_task() and task is not context.owner:
                task.cancel()
        return "killed", None


GROUP = aio.ToolGroup.from_list([watchdog, work, queue, boom, killer])


def call(call_id: str, name: str, **arguments: object) -> StandardToolCall:
    import json

    return StandardToolCall("function", call_id, name, json.dumps(arguments))


def outcomes(results: Sequence[ToolCallResult[Any] | None]) -> list[tuple[str, str | None, str]]:
    """(id, fail reason, what the model sees, or the exception's type for the generic
    failures of unexpected errors) per result; fails on a hole."""
    rows: list[tuple[str, str | None, str]] = []
    for result in results:
        assert result is not None, results
        shown = result.result_content
        if result.fail_reason == "unexpected_error":
            shown = type(result.exception).__name__
        rows.append((result.call_id, result.fail_reason, str(shown)))
    return rows


def batch_summary(error: ToolBatchError) -> dict[str, Any]:
    return {
        "exceptions": [(type(e).__name__, str(e)) for e in error.exceptions],
        "not_run": [c.id for c in error.not_run],
        "answered": outcomes(error.answer_all()),
    }


def run(
    scenario: Callable[[Stage], Coroutine[Any, Any, object]],
) -> tuple[object, list[str]]:
    """Run `scenario` in a fresh loop: what it returned, or a summary of the
    `ToolBatchError` it raised; the log of what ran. Checks the caller's task was not
    cancelled and that nothing is left running."""

    async def main() -> tuple[object, list[str]]:
        stage = Stage(owner=asyncio.current_task())
        try:
            outcome: object = await scenario(stage)
        except ToolBatchError as error:
            outcome = batch_summary(error)
        task = asyncio.current_task()
        assert task is not None and task.cancelling() == 0
        await asyncio.sleep(0)  # the caller goes on
        assert [t for t in asyncio.all_tasks() if t is not task] == []
        return outcome, stage.log

    return asyncio.run(main())


NOT_RUN = (
    "This call was not run because another call in the same batch failed. "
    "Call it again if it is still needed."
)
"""What `ToolBatchError.answer_all()` tells the model for a call that did not run."""


# --- 1. a call whose task ends cancelled while the batch was not cancelled ----------

WATCHDOG_TEXT = (
    "The task running call 'a' ('watchdog') was cancelled while its handler ran, but "
    "nothing cancelled the batch: other code called its cancel() (e.g. a home-made "
    "deadline cancelling asyncio.current_task()). For a time limit pass `timeout=` or set "
    "the tool's `model_tool_timeout`; to stop the batch, cancel the task that awaits it."
)


@pytest.mark.parametrize("max_concurrency", [None, 1])
def test_a_call_whose_task_other_code_cancels_is_its_handler_cancelled_error(
    max_concurrency: int | None,
) -> None:
    """A handler that cancels its own task: its call's HandlerCancelledError, raised
    in ToolBatchError (with a bound of 1 the next call then does not start) or answered
    by a generic failure with "fail"; the caller is not cancelled."""
    batch = [call("a", "watchdog"), call("b", "work", n=1)]

    async def raising(stage: Stage) -> object:
        return await GROUP.run_tool_calls(batch, stage, max_concurrency=max_concurrency)

    async def failing(stage: Stage) -> object:
        return outcomes(
            await GROUP.run_tool_calls(
                batch, stage, max_concurrency=max_concurrency, unexpected_errors="fail"
            )
        )

    if max_concurrency is None:  # b waits for nothing: it started too
        b, ran, log = ("b", None, "did 1"), [], ["watchdog", "work 1"]
    else:  # b's slot came after the error
        b, ran, log = ("b", "not_run", NOT_RUN), ["b"], ["watchdog"]
    assert run(raising) == (
        {
            "exceptions": [("HandlerCancelledError", WATCHDOG_TEXT)],
            "not_run": ran,
            "answered": [("a", "unexpected_error", "HandlerCancelledError"), b],
        },
        log,
    )
    assert run(failing) == (
        [("a", "unexpected_error", "HandlerCancelledError"), ("b", None, "did 1")],
        ["watchdog", "work 1"],
    )


def test_not_run_lists_only_the_calls_that_never_started() -> None:
    """With another call raising, the call whose task was cancelled while it ran is one
    of the errors, not a call that did not run."""

    async def scenario(stage: Stage) -> object:
        return await GROUP.run_tool_calls([call("a", "watchdog"), call("b", "boom")], stage)

    outcome, log = run(scenario)
    assert isinstance(outcome, dict)
    assert (outcome["exceptions"], outcome["not_run"], log) == (
        [("HandlerCancelledError", WATCHDOG_TEXT), ("RuntimeError", "bug")],
        [],
        ["watchdog", "boom"],
    )


def test_a_sequential_tools_later_calls_follow_the_policy_after_a_cancelled_call() -> None:
    """The later calls of a sequential tool whose call was cancelled by other code are
    not run with "raise", and run with "fail", as after any unexpected error."""
    batch = [
        call("q0", "queue", n=0, cancel=True),
        call("q1", "queue", n=1),
        call("w", "work", n=2),
    ]

    async def raising(stage: Stage) -> object:
        return await GROUP.run_tool_calls(batch, stage)

    async def failing(stage: Stage) -> object:
        return outcomes(await GROUP.run_tool_calls(batch, stage, unexpected_errors="fail"))

    assert run(raising) == snapshot(
        (
            {
                "exceptions": [
                    (
                        "HandlerCancelledError",
                        "The task running call 'q0' ('queue') was cancelled while its handler ran, but nothing cancelled the batch: other code called its cancel() (e.g. a home-made deadline cancelling asyncio.current_task()). For a time limit pass `timeout=` or set the tool's `model_tool_timeout`; to stop the batch, cancel the task that awaits it.",
                    )
                ],
                "not_run": ["q1"],
                "answered": [
                    ("q0", "unexpected_error", "HandlerCancelledError"),
                    ("q1", "not_run", NOT_RUN),
                    ("w", None, "did 2"),
                ],
            },
            ["work 2", "queue 0"],
        )
    )
    assert run(failing) == snapshot(
        (
            [
                ("q0", "unexpected_error", "HandlerCancelledError"),
                ("q1", None, "queued 1"),
                ("w", None, "did 2"),
            ],
            ["work 2", "queue 0", "queue 1"],
        )
    )


def test_a_call_whose_task_is_cancelled_while_it_waits_for_a_slot_is_answered() -> None:
    """max_concurrency=1: the call q1 waits for its slot behind w when other code (w)
    cancels its task: q1 gets HandlerCancelledError; q2, behind it, is not run with
    "raise" and runs with "fail"."""
    batch = [
        call("q0", "queue", n=0),
        call("w", "work", n=1, cancel="queue 0"),
        call("q1", "queue", n=2),
        call("q2", "queue", n=3),
    ]

    async def raising(stage: Stage) -> object:
        return await GROUP.run_tool_calls(batch, stage, max_concurrency=1)

    async def failing(stage: Stage) -> object:
        return outcomes(
            await GROUP.run_tool_calls(batch, stage, max_concurrency=1, unexpected_errors="fail")
        )

    assert run(raising) == snapshot(
        (
            {
                "exceptions": [
                    (
                        "HandlerCancelledError",
                        "The task running call 'q1' ('queue') was cancelled while it waited for a slot (max_concurrency), but nothing cancelled the batch: other code called its cancel() (e.g. a home-made deadline cancelling asyncio.current_task()). For a time limit pass `timeout=` or set the tool's `model_tool_timeout`; to stop the batch, cancel the task that awaits it.",
                    )
                ],
                "not_run": ["q2"],
                "answered": [
                    ("q0", None, "queued 0"),
                    ("w", None, "did 1"),
                    ("q1", "unexpected_error", "HandlerCancelledError"),
                    ("q2", "not_run", NOT_RUN),
                ],
            },
            ["queue 0", "work 1"],
        )
    )
    assert run(failing) == snapshot(
        (
            [
                ("q0", None, "queued 0"),
                ("w", None, "did 1"),
                ("q1", "unexpected_error", "HandlerCancelledError"),
                ("q2", None, "queued 3"),
            ],
            ["queue 0", "work 1", "queue 3"],
        )
    )


def test_an_async_hook_that_raises_cancelled_error_on_its_own_is_its_calls_error() -> None:
    """A before hook (call c1) and an after hook (call c2) that await a future other code
    cancelled: each is that call's HandlerCancelledError (the after hook's replaces the
    result it was given), never a None in the results."""
    seen: list[str] = []

    async def before(started: StandardToolCall) -> None:
        if started.id == "c1":
            await await_a_cancelled_future()

    async def after(end: aio.ToolCallEnd) -> None:
        seen.append(f"{end.call.id}: {end.result and end.result.result_content}")
        if end.call.id == "c2":
            await await_a_cancelled_future()

    hooks = aio.ToolHooks(before=before, after=after)
    batch = [call(f"c{n}", "work", n=n) for n in range(3)]

    async def raising(stage: Stage) -> object:
        return await GROUP.run_tool_calls(batch, stage, hooks=hooks)

    async def failing(stage: Stage) -> object:
        return outcomes(await GROUP.run_tool_calls(batch, stage, hooks=hooks, unexpected_errors="fail"))  # fmt: skip

    assert run(raising) == snapshot(
        (
            {
                "exceptions": [
                    (
                        "HandlerCancelledError",
                        "The before hook of call 'c1' ('work') raised CancelledError although nothing cancelled the batch, e.g. it awaited a future or task that other code cancelled. Catch it in the hook if that is expected.",
                    ),
                    (
                        "HandlerCancelledError",
                        "The after hook of call 'c2' ('work') raised CancelledError although nothing cancelled the batch, e.g. it awaited a future or task that other code cancelled. Catch it in the hook if that is expected.",
                    ),
                ],
                "not_run": [],
                "answered": [
                    ("c0", None, "did 0"),
                    ("c1", "unexpected_error", "HandlerCancelledError"),
                    ("c2", "unexpected_error", "HandlerCancelledError"),
                ],
            },
            ["work 0", "work 2"],
        )
    )
    assert run(failing) == snapshot(
        (
            [
                ("c0", None, "did 0"),
                ("c1", "unexpected_error", "HandlerCancelledError"),
                ("c2", "unexpected_error", "HandlerCancelledError"),
            ],
            ["work 0", "work 2"],
        )
    )
    assert seen == ["c0: did 0", "c2: did 2"] * 2


def test_run_tool_call_turns_a_hooks_own_cancelled_error_into_handler_cancelled_error() -> None:
    """One call run by run_tool_call: an async before or after hook that raises
    CancelledError on its own raises HandlerCancelledError, not a CancelledError that
    would tell the caller it was cancelled."""

    async def before(started: StandardToolCall) -> None:
        if started.id == "b":
            await await_a_cancelled_future()

    async def after(end: aio.ToolCallEnd) -> None:
        if end.call.id == "a":
            await await_a_cancelled_future()

    hooks = aio.ToolHooks(before=before, after=after)

    async def scenario(stage: Stage) -> object:
        raised: list[str] = []
        for call_id in ("a", "b"):
            try:
                await GROUP.run_tool_call(call(call_id, "work", n=0), stage, hooks=hooks)
            except HandlerCancelledError as error:
                assert isinstance(error.__cause__, asyncio.CancelledError)
                raised.append(str(error))
        return raised

    assert run(scenario) == snapshot(
        (
            [
                "The after hook of call 'a' ('work') raised CancelledError although nothing cancelled the batch, e.g. it awaited a future or task that other code cancelled. Catch it in the hook if that is expected.",
                "The before hook of call 'b' ('work') raised CancelledError although nothing cancelled the batch, e.g. it awaited a future or task that other code cancelled. Catch it in the hook if that is expected.",
            ],
            ["work 0"],
        )
    )


def test_a_call_left_without_a_result_becomes_an_error_entry() -> None:
    """Calls whose tasks other code cancelled before they started (so no toolwire code
    of theirs ran) are answered with HandlerCancelledError: a batch never returns a list
    holding None."""
    batch = [
        call("k", "killer"),
        call("w", "work", n=1),
        call("q0", "queue", n=2),
        call("q1", "queue", n=3),
    ]

    async def raising(stage: Stage) -> object:
        return await GROUP.run_tool_calls(batch, stage)

    async def failing(stage: Stage) -> object:
        return outcomes(await GROUP.run_tool_calls(batch, stage, unexpected_errors="fail"))

    outcome, log = run(raising)
    assert isinstance(outcome, dict)
    assert (outcome["answered"], outcome["not_run"], log) == (
        [
            ("k", None, "killed"),
            ("w", "unexpected_error", "HandlerCancelledError"),
            ("q0", "unexpected_error", "HandlerCancelledError"),
            ("q1", "unexpected_error", "HandlerCancelledError"),
        ],
        [],
        ["killer"],
    )
    assert outcome["exceptions"][0] == snapshot(
        (
            "HandlerCancelledError",
            "Call 'w' ('work') got no result: the task that was to run it ended without one, most likely because other code cancelled it before it started (nothing cancelled the batch). Only cancel the task that awaits the batch; if nothing else cancelled it, this is a bug in toolwire: please report it.",
        )
    )
    assert run(failing) == (
        [
            ("k", None, "killed"),
            ("w", "unexpected_error", "HandlerCancelledError"),
            ("q0", "unexpected_error", "HandlerCancelledError"),
            ("q1", "unexpected_error", "HandlerCancelledError"),
        ],
        ["killer"],
    )


def test_cancelling_every_task_at_once_still_cancels_the_batch() -> None:
    """When the batch's tasks are cancelled together with the task awaiting it (as
    asyncio.run does on shutdown), that is the batch's cancellation even where a call's
    task sees it first: CancelledError propagates and the queued call never starts, even
    with "fail" (where a call's own cancellation would let the next one start)."""

    async def main() -> tuple[str, list[str]]:
        stage = Stage(owner=asyncio.current_task())
        batch = [
            call("w", "work", n=0, wait=True),
            call("q0", "queue", n=1, wait=True),
            call("q1", "queue", n=2),
        ]

        async def shut_down() -> None:
            await stage.event(stage.inside, "work 0").wait()
            await stage.event(stage.inside, "queue 1").wait()
            this = asyncio.current_task()
            owner = stage.owner
            assert owner is not None
            # The batch's tasks first, so they run before the task awaiting the batch.
            for task in [t for t in asyncio.all_tasks() if t is not this and t is not owner]:
                task.cancel()
            owner.cancel()

        killer_task = asyncio.create_task(shut_down())
        try:
            await GROUP.run_tool_calls(batch, stage, unexpected_errors="fail")
            outcome = "returned"
        except asyncio.CancelledError:
            outcome = "cancelled"
        await killer_task
        return outcome, stage.log

    assert asyncio.run(main()) == ("cancelled", ["work 0", "queue 1"])


# --- 2. a hook that raises stops the calls still queued -----------------------------


def test_an_after_hook_that_raises_stops_queued_calls_and_is_its_calls_error() -> None:
    """max_concurrency=2: the after hook of c0 raises while c1 runs; c1 finishes (its
    after hook runs too) and keeps its result, c2 and c3 never start, and c0's error is
    the hook's `ToolHookError` (issue 24 item 5: no result is lost)."""
    backend_down = RuntimeError("metrics backend down")
    after_calls: list[str] = []
    batch = [
        call("c0", "work", n=0),
        call("c1", "work", n=1, wait=True),
        call("c2", "work", n=2),
        call("c3", "work", n=3),
    ]

    async def scenario(stage: Stage) -> object:
        def after(end: aio.ToolCallEnd) -> None:
            after_calls.append(end.call.id)
            if end.call.id == "c0":
                stage.event(stage.go, "work 1").set()  # c1 may finish now
                raise backend_down

        return await GROUP.run_tool_calls(
            batch, stage, max_concurrency=2, hooks=aio.ToolHooks(after=after)
        )

    summary, log = run(scenario)
    assert summary == {
        "exceptions": [
            (
                "ToolHookError",
                "The after hook raised RuntimeError for call 'c0' ('work'), after its handler "
                "ran: metrics backend down",
            )
        ],
        "not_run": ["c2", "c3"],
        "answered": [
            ("c0", "unexpected_error", "ToolHookError"),
            ("c1", None, "did 1"),
            ("c2", "not_run", NOT_RUN),
            ("c3", "not_run", NOT_RUN),
        ],
    }
    assert (log, after_calls) == (["work 0", "work 1", "work 1 end"], ["c0", "c1"])


def test_a_before_hook_that_raises_stops_queued_calls() -> None:
    """With max_concurrency=1, and in a sequential tool's chain, no call starts after the
    one whose before hook raised; that call's error is the hook's `ToolHookError`."""

    def before(started: StandardToolCall) -> None:
        if started.id in ("c1", "q1"):
            raise ValueError(f"cannot audit {started.id}")

    hooks = aio.ToolHooks(before=before)

    async def bounded(stage: Stage) -> object:
        batch = [call(f"c{n}", "work", n=n) for n in range(4)]
        return await GROUP.run_tool_calls(batch, stage, max_concurrency=1, hooks=hooks)

    async def chained(stage: Stage) -> object:
        batch = [call(f"q{n}", "queue", n=n) for n in range(3)]
        return await GROUP.run_tool_calls(batch, stage, hooks=hooks)

    def hook_failed(call_id: str, name: str) -> tuple[str, str]:
        return (
            "ToolHookError",
            f"The before hook raised ValueError for call {call_id!r} ({name!r}), before its "
            f"handler ran: cannot audit {call_id}",
        )

    assert run(bounded) == (
        {
            "exceptions": [hook_failed("c1", "work")],
            "not_run": ["c2", "c3"],
            "answered": [
                ("c0", None, "did 0"),
                ("c1", "unexpected_error", "ToolHookError"),
                ("c2", "not_run", NOT_RUN),
                ("c3", "not_run", NOT_RUN),
            ],
        },
        ["work 0"],
    )
    assert run(chained) == (
        {
            "exceptions": [hook_failed("q1", "queue")],
            "not_run": ["q2"],
            "answered": [
                ("q0", None, "queued 0"),
                ("q1", "unexpected_error", "ToolHookError"),
                ("q2", "not_run", NOT_RUN),
            ],
        },
        ["queue 0"],
    )


# --- 3. settings a batch would take oddly are refused before anything runs ------------


class audited(core.BaseFunctionToolModel[list[str], None]):
    """Needs approval."""

    model_tool_requires_approval = True

    def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("ran")
        return "ran", None


class aaudited(aio.BaseFunctionToolModel[list[str], None]):
    """Needs approval."""

    model_tool_requires_approval = True

    async def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        await asyncio.sleep(0)  # a wait: with timeout=0 the time is up here
        context.append("ran")
        return "ran", None


def entry_points(log: list[str], **settings: Any) -> dict[str, str]:
    """What each batch entry point does with `settings`: "ran", or the error it raised
    (then nothing ran, and nobody was asked to approve)."""
    core_group = core.ToolGroup.from_list([audited])
    aio_group = aio.ToolGroup.from_list([aaudited])
    one = [call("c", "audited")]
    aone = [call("c", "aaudited")]

    def approve(pending: object) -> bool:
        log.append("asked")
        return True

    core_only = {k: v for k, v in settings.items() if k == "unexpected_errors"}
    runs: dict[str, Callable[[], list[ToolCallResult[Any]]]] = {
        "aio.run_tool_calls": lambda: asyncio.run(aio_group.run_tool_calls(aone, log, **settings)),
        "aio.run_pending": lambda: asyncio.run(
            aio_group.run_pending(aio_group.prepare_tool_calls(aone), log, **settings)
        ),
        "aio.run_with_approval": lambda: asyncio.run(
            aio_group.run_with_approval(aone, log, approve, **settings)
        ),
    }
    if core_only == settings:
        runs |= {
            "core.run_tool_calls": lambda: core_group.run_tool_calls(one, log, **settings),
            "core.run_pending": lambda: core_group.run_pending(
                core_group.prepare_tool_calls(one), log, **settings
            ),
            "core.run_with_approval": lambda: core_group.run_with_approval(
                one, log, approve, **settings
            ),
        }
    answers: dict[str, str] = {}
    for name, entry in runs.items():
        before = len(log)
        try:
            results = entry()
        except Exception as error:
            assert len(log) == before  # no handler ran, no approval was asked
            answers[name] = f"{type(error).__name__}: {error}"
        else:
            [result] = results
            reason = result.fail_reason
            answers[name] = "ran" if reason is None else f"answered: {reason}"
    return answers


def summarized(log: list[str], **settings: Any) -> str:
    """The one outcome every entry point taking `settings` gave."""
    answers = entry_points(log, **settings)
    assert len(set(answers.values())) == 1, answers
    return next(iter(answers.values()))


def test_wrong_batch_settings_are_refused_by_every_entry_point() -> None:
    """Each batch entry point (core and aio: run_tool_calls, run_pending,
    run_with_approval) refuses a mistaken unexpected_errors, max_concurrency or
    timeout before any handler or approval runs, saying what it takes."""
    log: list[str] = []
    refused = {
        f"{key}={value!r}"[:40]: summarized(log, **{key: value})
        for key, value in [
            ("unexpected_errors", "failure"),
            ("unexpected_errors", "FAIL"),
            ("unexpected_errors", None),
            ("max_concurrency", 1.5),
            ("max_concurrency", True),
            ("max_concurrency", "2"),
            ("max_concurrency", 0),
            ("timeout", -1),
            ("timeout", math.nan),
            ("timeout", "1"),
            ("timeout", True),
            ("timeout", 10**400),
        ]
    }
    assert refused == snapshot(
        {
            "unexpected_errors='failure'": 'ValueError: unexpected_errors must be "raise" (the default: an unexpected exception raises ToolBatchError) or "fail" (its call gets a generic failure and the batch goes on); got \'failure\'.',
            "unexpected_errors='FAIL'": 'ValueError: unexpected_errors must be "raise" (the default: an unexpected exception raises ToolBatchError) or "fail" (its call gets a generic failure and the batch goes on); got \'FAIL\'.',
            "unexpected_errors=None": 'TypeError: unexpected_errors must be "raise" (the default: an unexpected exception raises ToolBatchError) or "fail" (its call gets a generic failure and the batch goes on); got None.',
            "max_concurrency=1.5": "TypeError: max_concurrency must be None (no bound) or an int of at least 1 (how many handlers may run at once); got 1.5, a float.",
            "max_concurrency=True": "TypeError: max_concurrency must be None (no bound) or an int of at least 1 (how many handlers may run at once); got True, a bool.",
            "max_concurrency='2'": "TypeError: max_concurrency must be None (no bound) or an int of at least 1 (how many handlers may run at once); got '2', a str.",
            "max_concurrency=0": "ValueError: max_concurrency must be None (no bound) or an int of at least 1 (how many handlers may run at once); got 0.",
            "timeout=-1": "ValueError: timeout must be None (no time limit) or a number of seconds: an int or float, at least 0 (0: no time left; math.inf: no limit); got -1, a negative number of seconds.",
            "timeout=nan": "ValueError: timeout must be None (no time limit) or a number of seconds: an int or float, at least 0 (0: no time left; math.inf: no limit); got nan, NaN, not a number.",
            "timeout='1'": "TypeError: timeout must be None (no time limit) or a number of seconds: an int or float, at least 0 (0: no time left; math.inf: no limit); got '1', a str, not a number.",
            "timeout=True": "TypeError: timeout must be None (no time limit) or a number of seconds: an int or float, at least 0 (0: no time left; math.inf: no limit); got True, a bool, not a number.",
            "timeout=10000000000000000000000000000000": "ValueError: timeout must be None (no time limit) or a number of seconds: an int or float, at least 0 (0: no time left; math.inf: no limit); got 100000000000000000...0000000000000000000, too large for a float.",
        }
    )
    assert log == []
    accepted = {
        f"{key}={value!r}": summarized(log, **{key: value})
        for key, value in [
            ("unexpected_errors", "fail"),
            ("max_concurrency", 1),
            ("timeout", 0),
            ("timeout", 0.5),
            ("timeout", math.inf),
        ]
    }
    assert accepted == {
        "unexpected_errors='fail'": "ran",
        "max_concurrency=1": "ran",
        "timeout=0": "answered: timeout",  # no time left: the handler times out at its first wait
        "timeout=0.5": "ran",
        "timeout=inf": "ran",
    }


def test_a_wrong_model_tool_timeout_is_refused_when_the_class_is_defined() -> None:
    """model_tool_timeout must be None or a number of seconds above 0 (math.inf: no
    limit); anything else raises ToolDefinitionError naming the class."""

    def define(value: object) -> str:
        try:

            class slow(aio.BaseFunctionToolModel[None, None]):
                """Slow."""

                model_tool_timeout = value  # pyright: ignore[reportAssignmentType]

                async def model_tool_handler(self, context: None) -> tuple[str, None]:
                    return "done", None

        except ToolDefinitionError as error:
            return str(error)
        return f"accepted {slow.model_tool_timeout!r}"

    assert {repr(v)[:12]: define(v) for v in (0, -1, math.nan, "3", True, 10**400)} == snapshot(
        {
            "0": "slow.model_tool_timeout is 0: no time for its calls at all. Set it to a number of seconds above 0 (an int or float; math.inf: no limit, whatever the batch's `timeout=`), or None to use the batch's `timeout=`.",
            "-1": "slow.model_tool_timeout is -1: a negative number of seconds. Set it to a number of seconds above 0 (an int or float; math.inf: no limit, whatever the batch's `timeout=`), or None to use the batch's `timeout=`.",
            "nan": "slow.model_tool_timeout is nan: NaN, not a number. Set it to a number of seconds above 0 (an int or float; math.inf: no limit, whatever the batch's `timeout=`), or None to use the batch's `timeout=`.",
            "'3'": "slow.model_tool_timeout is '3': a str, not a number. Set it to a number of seconds above 0 (an int or float; math.inf: no limit, whatever the batch's `timeout=`), or None to use the batch's `timeout=`.",
            "True": "slow.model_tool_timeout is True: a bool, not a number. Set it to a number of seconds above 0 (an int or float; math.inf: no limit, whatever the batch's `timeout=`), or None to use the batch's `timeout=`.",
            "100000000000": "slow.model_tool_timeout is 100000000000000000...0000000000000000000: too large for a float. Set it to a number of seconds above 0 (an int or float; math.inf: no limit, whatever the batch's `timeout=`), or None to use the batch's `timeout=`.",
        }
    )
    assert [define(v) for v in (None, 2, 0.5, math.inf)] == [
        "accepted None",
        "accepted 2",
        "accepted 0.5",
        "accepted inf",
    ]


def test_wrong_other_calls_and_hooks_are_refused_at_once() -> None:
    class noop(core.BaseFunctionToolModel[None, None]):
        """Do nothing."""

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "ok", None

    group = core.ToolGroup.from_list([noop])
    call = StandardToolCall("function", "c1", "noop", "{}")
    wrong: Any = "skip"
    with pytest.raises(ValueError) as error:
        group.run_tool_calls([call], None, other_calls=wrong)
    assert str(error.value) == (
        'other_calls must be "raise" (the default: a client-side call toolwire cannot run '
        'raises UnhandledCallsError) or "ignore" (such calls are left for you to answer); '
        "got 'skip'."
    )
    hooks: Any = {"before": print}
    with pytest.raises(TypeError, match="hooks must be a ToolHooks"):
        group.run_tool_calls([call], None, hooks=hooks)
    with pytest.raises(TypeError, match="hooks must be a ToolHooks"):
        asyncio.run(aio.ToolGroup[None, None]().run_tool_calls([], None, hooks=hooks))
