"""How an aio batch waits for its handlers' tasks, and stops them when it is cancelled.

The task awaiting a batch may be cancelled by asyncio itself (`task.cancel()`,
`asyncio.timeout`, a `TaskGroup`) or by anyio's cancel scopes (`move_on_after`,
`fail_after`, a task group's `cancel_scope.cancel()`: the MCP SDK runs on them). anyio
delivers a scope's cancellation again on every turn of the event loop until the task
leaves the scope, so a wait that caught one cancellation and simply waited again would
be woken on every turn: a busy loop while the handlers stop, and an endless one when
they had all stopped already. So the batch cancels its tasks once, waits for them
inside a shielded anyio scope when anyio is loaded (a further asyncio cancellation
request is passed on to the tasks still running), and re-raises the cancellation as
soon as the last one has stopped; at once when none was running.

toolwire.aio runs on asyncio, directly or under anyio's asyncio backend. Trio is not
supported: a batch needs an asyncio event loop (`no_event_loop` says so).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Collection
from contextlib import AbstractContextManager, nullcontext
from typing import Any

__all__ = ["in_anyio_scope", "no_event_loop", "stop_all", "wait_for"]


async def wait_for(tasks: Collection[asyncio.Task[Any]]) -> None:
    """Wait until every task of `tasks` is done: one round of waiting (tests count the
    rounds to see that a cancelled batch does not spin)."""
    await asyncio.wait(tasks)


async def stop_all(tasks: Collection[asyncio.Task[Any]]) -> None:
    """Cancel each task still running and wait until every one has stopped.

    Called by the task awaiting the batch while a cancellation propagates through it;
    the caller re-raises that cancellation afterwards. A handler may take its time to
    stop (it may even catch the first cancellation to clean up): the wait takes one
    round per cancellation request that reaches it, never one per turn of the loop.
    """
    running = [task for task in tasks if not task.done()]
    for task in running:
        task.cancel()
    if not running:
        return
    with _shielded():
        while running:
            try:
                await wait_for(running)
            except asyncio.CancelledError:
                # Asked again (anyio's repeated delivery does not reach in here): the
                # handlers that ignored the first request get this one too.
                for task in running:
                    task.cancel()
            running = [task for task in running if not task.done()]


def _shielded() -> AbstractContextManager[object]:
    """A shielded anyio cancel scope when anyio is loaded (the task may be inside its
    scopes), else nothing: anyio is never imported for this."""
    anyio: Any = sys.modules.get("anyio")
    if anyio is None:
        return nullcontext()
    scope: AbstractContextManager[object] = anyio.CancelScope(shield=True)
    return scope


def in_anyio_scope(task: asyncio.Task[Any]) -> bool:
    """Whether `task` runs inside an anyio cancel scope (asyncio backend), where a
    cancellation is delivered again on every turn of the loop until the task leaves the
    scope: a batch's handlers then need tasks of their own, outside the scope, so that
    a handler cleaning up after the first request is not interrupted by the repeats.

    Read from anyio's record of its tasks (anyio is never imported for this); a record
    of another shape than anyio 4's counts as inside, where a task is always right."""
    backend = sys.modules.get("anyio._backends._asyncio")
    if backend is None:  # anyio never ran a scope on asyncio in this process
        return False
    states: Any = getattr(backend, "_task_states", None)
    if states is None:
        return True
    state = states.get(task)
    return state is not None and getattr(state, "cancel_scope", True) is not None


def no_event_loop() -> RuntimeError:
    """The error for a batch awaited where no asyncio event loop runs (under trio, or a
    coroutine driven by hand)."""
    return RuntimeError(
        "toolwire.aio runs a batch's handlers as asyncio tasks, but no asyncio event loop "
        "is running here (trio is not supported). Await the batch on asyncio (asyncio.run, "
        "or anyio with its asyncio backend), or, from trio, run toolwire.core tools in a "
        "worker thread (trio.to_thread.run_sync)."
    )
