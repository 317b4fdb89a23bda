"""Review fixes of call watching: the `execute_tool` span is the current span while its
handler runs (so what the handler traces nests under it), the context is restored
however the handler ends, and an exception out of an `after` hook runs the hook and
ends the span once, then is its call's unexpected error."""

from __future__ import annotations

import asyncio
import json
import logging
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Coroutine
from typing import Any, cast

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from toolwire import _observe, aio
from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    HandlerResult,
    StandardToolCall,
    ToolCallEnd,
    ToolCallSuccess,
    ToolGroup,
    ToolHooks,
)
from toolwire.exceptions import ToolBatchError, ToolHookError


def app() -> trace.Tracer:
    """The application's own tracer (the test's provider)."""
    return trace.get_tracer("app")


def label(span: ReadableSpan) -> str:
    call_id = (span.attributes or {}).get("gen_ai.tool.call.id")
    return span.name if call_id is None else f"{span.name} ({call_id})"


def tree(exporter: InMemorySpanExporter) -> list[tuple[str, str | None]]:
    """Every finished span, in the order they ended, with its parent's label."""
    finished = exporter.get_finished_spans()
    labels = {span.context.span_id: label(span) for span in finished if span.context}
    return [
        (label(span), labels.get(span.parent.span_id, "?") if span.parent else None)
        for span in finished
    ]


def outcomes(exporter: InMemorySpanExporter) -> list[tuple[str, object]]:
    return [
        (label(span), (span.attributes or {}).get("toolwire.tool_call.outcome"))
        for span in exporter.get_finished_spans()
    ]


def current_name() -> str:
    return cast(ReadableSpan, trace.get_current_span()).name


def call(call_id: str, name: str, **arguments: object) -> dict[str, Any]:
    """An Anthropic `tool_use` block in its dict form."""
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


class fetch(BaseFunctionToolModel[None, None]):
    """Fetch a page. Pages "gone", "crash" and "shape" fail, each its own way."""

    url: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        with app().start_as_current_span(f"GET {self.url}"):
            if self.url == "gone":
                raise ErrorForLLMToSee("404")
            if self.url == "crash":
                raise RuntimeError("connection reset")
            if self.url == "shape":
                return cast(Any, 42)  # a wrong return: the call's unexpected error
        return f"fetched {self.url}", None


FETCH = ToolGroup.from_list([fetch])


def test_spans_made_in_a_core_handler_are_children_of_its_execute_tool_span(
    spans: InMemorySpanExporter,
) -> None:
    """In a batch and in `run_tool_call`, the handler's own span is the child of the
    call's `execute_tool` span; hooks run outside it; the turn is current again after."""
    seen: list[str] = []

    def before(call: StandardToolCall) -> None:
        seen.append(f"before {call.id} in {current_name()}")

    def after(end: ToolCallEnd) -> None:
        seen.append(f"after {end.call.id} in {current_name()}")

    hooks = ToolHooks(before=before, after=after)
    with app().start_as_current_span("turn") as turn:
        FETCH.run_tool_calls([call("c1", "fetch", url="a"), call("c2", "fetch", url="b")], None)
        FETCH.run_tool_calls([call("c3", "fetch", url="c")], None, hooks=hooks)
        FETCH.run_tool_call(call("c4", "fetch", url="d"), None, hooks=hooks)
        assert trace.get_current_span() is turn
    assert tree(spans) == [
        ("GET a", "execute_tool fetch (c1)"),
        ("execute_tool fetch (c1)", "turn"),
        ("GET b", "execute_tool fetch (c2)"),
        ("execute_tool fetch (c2)", "turn"),
        ("GET c", "execute_tool fetch (c3)"),
        ("execute_tool fetch (c3)", "turn"),
        ("GET d", "execute_tool fetch (c4)"),
        ("execute_tool fetch (c4)", "turn"),
        ("turn", None),
    ]
    assert seen == [
        "before c3 in turn",
        "after c3 in turn",
        "before c4 in turn",
        "after c4 in turn",
    ]


def test_the_context_is_restored_however_a_core_handler_ends(
    spans: InMemorySpanExporter,
) -> None:
    """An explicit failure, a wrong return, an unexpected exception (made a failure, or
    raised by the batch or by `run_tool_call`): the handler's span is still the call's
    child, and the turn is the current span again right after."""
    after_each: list[str] = []
    with app().start_as_current_span("turn"):
        results = FETCH.run_tool_calls(
            [
                call("c1", "fetch", url="gone"),
                call("c2", "fetch", url="shape"),
                call("c3", "fetch", url="crash"),
            ],
            None,
            unexpected_errors="fail",
        )
        after_each.append(current_name())
        with pytest.raises(ToolBatchError):
            FETCH.run_tool_calls([call("c4", "fetch", url="crash")], None)
        after_each.append(current_name())
        with pytest.raises(RuntimeError, match="connection reset"):
            FETCH.run_tool_call(call("c5", "fetch", url="crash"), None)
        after_each.append(current_name())
    assert [result.fail_reason for result in results] == [
        "explicit_handler_error",
        "unexpected_error",
        "unexpected_error",
    ]
    assert after_each == ["turn", "turn", "turn"]
    assert tree(spans) == [
        ("GET gone", "execute_tool fetch (c1)"),
        ("execute_tool fetch (c1)", "turn"),
        ("GET shape", "execute_tool fetch (c2)"),
        ("execute_tool fetch (c2)", "turn"),
        ("GET crash", "execute_tool fetch (c3)"),
        ("execute_tool fetch (c3)", "turn"),
        ("GET crash", "execute_tool fetch (c4)"),
        ("execute_tool fetch (c4)", "turn"),
        ("GET crash", "execute_tool fetch (c5)"),
        ("execute_tool fetch (c5)", "turn"),
        ("turn", None),
    ]


class report(BaseFunctionToolModel[None, None]):
    """Write a report; returns a `HandlerResult`, not the plain `(str, context)` pair."""

    def model_tool_handler(self, context: None) -> HandlerResult[None]:
        return HandlerResult("done", None)


class report_parts(BaseFunctionToolModel[None, None]):
    """Write a report; returns a list of parts."""

    def model_tool_handler(self, context: None) -> tuple[list[str], None]:
        return ["page 1", "page 2"], None


@pytest.mark.parametrize("policy", ["raise", "fail"])
@pytest.mark.parametrize("tool", [report, report_parts])
def test_an_after_hook_that_raises_runs_once_and_is_its_calls_unexpected_error(
    spans: InMemorySpanExporter,
    caplog: pytest.LogCaptureFixture,
    tool: type[BaseFunctionToolModel[None, None]],
    policy: Any,
) -> None:
    """A `TypeError` out of the `after` hook is not taken for a wrong handler return:
    one `before`, one `after` and one span end per executed call. The hook's error is
    its call's unexpected error (`ToolHookError`, caused by it), as a handler's would
    be: `ToolBatchError` with every result so far ("raise": later calls do not run), or
    a generic failure and the batch goes on ("fail")."""
    name = tool.model_tool_name()
    seen: list[str] = []

    def before(call: StandardToolCall) -> None:
        seen.append(f"before {call.id}")

    def after(end: ToolCallEnd) -> None:
        outcome = end.result.fail_reason if end.result is not None else repr(end.error)
        seen.append(f"after {end.call.id}: {outcome or 'success'}")
        if end.call.id == "c2":
            raise TypeError("bug in my metrics hook")

    group = ToolGroup.from_list([tool])
    calls = [call("c1", name), call("c2", name), call("c3", name)]
    hooks = ToolHooks(before=before, after=after)
    with caplog.at_level(logging.WARNING):
        if policy == "raise":
            with pytest.raises(ToolBatchError) as raised:
                group.run_tool_calls(calls, None, hooks=hooks)
            error = raised.value
            assert [r is not None for r in error.results] == [True, False, False]
            hook_error = error.errors[1]
            assert [c.id for c in error.not_run] == ["c3"]
            results = error.answer_all()
        else:
            results = group.run_tool_calls(calls, None, hooks=hooks, unexpected_errors="fail")
            hook_error = results[1].exception
    assert isinstance(hook_error, ToolHookError)
    assert (hook_error.hook, hook_error.call.id) == ("after", "c2")
    assert isinstance(hook_error.result, ToolCallSuccess)  # kept for you, never for the model
    assert type(hook_error.__cause__) is TypeError
    assert str(hook_error.__cause__) == "bug in my metrics hook"
    assert [(r.call_id, r.fail_reason) for r in results] == [
        ("c1", None),
        ("c2", "unexpected_error"),
        ("c3", "not_run" if policy == "raise" else None),
    ]
    ran = ["before c1", "after c1: success", "before c2", "after c2: success"]
    if policy == "fail":
        ran += ["before c3", "after c3: success"]
    assert seen == ran
    assert outcomes(spans) == [
        (f"execute_tool {name} (c1)", "success"),
        (f"execute_tool {name} (c2)", "raised"),
        *([(f"execute_tool {name} (c3)", "success")] if policy == "fail" else []),
    ]
    assert [record.getMessage() for record in caplog.records] == []  # no "ended span" warning


def test_an_async_after_hook_in_core_is_refused_before_anything_runs(
    spans: InMemorySpanExporter,
) -> None:
    """An `async def` hook in toolwire.core would never be awaited: a developer mistake,
    refused before any handler or hook runs."""
    called: list[str] = []

    async def after(end: ToolCallEnd) -> None:
        called.append(end.call.id)

    with pytest.raises(TypeError) as raised:
        ToolGroup.from_list([report]).run_tool_calls(
            [call("c1", "report")], None, hooks=ToolHooks(after=after)
        )
    assert str(raised.value) == (
        "The after hook is async, but toolwire.core runs plain functions: it would never be "
        "awaited. Make the hook a plain function, or use toolwire.aio."
    )
    assert called == []
    assert outcomes(spans) == []


def test_a_plain_hook_returning_an_awaitable_in_core_is_its_calls_error() -> None:
    """A plain function that returns a coroutine cannot be told apart before it runs:
    its call gets the refusal as its unexpected error, once, and the coroutine is
    closed (no "never awaited" warning)."""
    called: list[str] = []

    async def nothing() -> None:
        return None

    def after(end: ToolCallEnd) -> Coroutine[Any, Any, None]:  # what an `async def` returns
        called.append(end.call.id)
        return nothing()

    results = ToolGroup.from_list([report]).run_tool_calls(
        [call("c1", "report")], None, hooks=ToolHooks(after=after), unexpected_errors="fail"
    )
    error = results[0].exception
    assert isinstance(error, ToolHookError)
    assert str(error.__cause__) == (
        "The after hook is async, but toolwire.core runs plain functions: it would never be "
        "awaited. Make the hook a plain function, or use toolwire.aio."
    )
    assert called == ["c1"]


def test_a_hook_error_after_an_explicit_failure_is_not_chained_to_it() -> None:
    """The `after` hook runs once the explicit failure is handled: its error is not
    raised "during handling of" the handler's `ErrorForLLMToSee`."""
    seen: list[str] = []

    def after(end: ToolCallEnd) -> None:
        seen.append(f"{end.call.id}: {end.result and end.result.fail_reason}")
        raise ValueError("bug in my audit hook")

    hooks = ToolHooks(after=after)
    with pytest.raises(ToolBatchError) as in_batch:
        FETCH.run_tool_calls([call("c1", "fetch", url="gone")], None, hooks=hooks)
    with pytest.raises(ToolHookError, match="bug in my audit hook") as alone:
        FETCH.run_tool_call(call("c2", "fetch", url="gone"), None, hooks=hooks)
    batched = in_batch.value.errors[0]
    assert isinstance(batched, ToolHookError)
    for error in (batched, alone.value):
        assert type(error.__cause__) is ValueError
        assert error.__cause__.__context__ is None
    assert seen == ["c1: explicit_handler_error", "c2: explicit_handler_error"]


def called(call_id: str) -> StandardToolCall:
    return StandardToolCall("function", call_id, "fetch", {})


def test_concurrent_tasks_each_see_their_own_span_current(spans: InMemorySpanExporter) -> None:
    """`Observer.current` as `toolwire.aio` uses it, around the awaited handler in each
    call's task: with three calls inside at once, each task sees its own span current
    and its spans nest under it; the turn is current again after."""
    watch = _observe.observer(None)
    assert watch is not None
    inside: dict[str, object] = {}

    async def one(call_id: str, barrier: asyncio.Barrier) -> None:
        call = called(call_id)
        started = await watch.astart(call)
        with watch.current(started):
            await barrier.wait()  # every call is inside its block now
            current = cast(ReadableSpan, trace.get_current_span())
            inside[call_id] = (current.attributes or {}).get("gen_ai.tool.call.id")
            with app().start_as_current_span(f"GET {call_id}"):
                await asyncio.sleep(0)
        await watch.aend(started, call, ToolCallSuccess(call_id, "fetch", "ok", None))

    async def turn() -> str:
        barrier = asyncio.Barrier(3)
        with app().start_as_current_span("turn"):
            await asyncio.gather(one("c1", barrier), one("c2", barrier), one("c3", barrier))
            return current_name()

    assert asyncio.run(turn()) == "turn"
    assert inside == {"c1": "c1", "c2": "c2", "c3": "c3"}
    assert sorted(tree(spans)) == [
        ("GET c1", "execute_tool fetch (c1)"),
        ("GET c2", "execute_tool fetch (c2)"),
        ("GET c3", "execute_tool fetch (c3)"),
        ("execute_tool fetch (c1)", "turn"),
        ("execute_tool fetch (c2)", "turn"),
        ("execute_tool fetch (c3)", "turn"),
        ("turn", None),
    ]


def test_the_context_is_restored_after_an_exception_a_timeout_and_a_cancellation(
    spans: InMemorySpanExporter,
) -> None:
    """`Observer.current` puts the previous context back when the block raises, times
    out, or its task is cancelled; each span is then ended once by the observer."""
    watch = _observe.observer(None)
    assert watch is not None
    after_each: list[str] = []

    async def cancelled_call(entered: asyncio.Event) -> None:
        call = called("c3")
        started = await watch.astart(call)
        try:
            with watch.current(started):
                entered.set()
                await asyncio.Event().wait()  # until cancelled
        except asyncio.CancelledError as cancelled:
            after_each.append(current_name())
            watch.cancelled(started, call, cancelled)
            raise

    async def turn() -> None:
        with app().start_as_current_span("turn"):
            call = called("c1")
            started = await watch.astart(call)
            with pytest.raises(RuntimeError), watch.current(started):
                raise RuntimeError("handler bug")
            after_each.append(current_name())
            await watch.aend(started, call, None, RuntimeError("handler bug"))

            call = called("c2")
            started = await watch.astart(call)
            with pytest.raises(TimeoutError), watch.current(started):
                async with asyncio.timeout(0):
                    await asyncio.Event().wait()
            after_each.append(current_name())
            await watch.aend(started, call, None, TimeoutError())

            entered = asyncio.Event()
            task = asyncio.create_task(cancelled_call(entered))
            await entered.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            after_each.append(current_name())

    asyncio.run(turn())
    assert after_each == ["turn", "turn", "turn", "turn"]
    assert outcomes(spans) == [
        ("execute_tool fetch (c1)", "raised"),
        ("execute_tool fetch (c2)", "raised"),
        ("execute_tool fetch (c3)", "cancelled"),
        ("turn", None),
    ]


def test_current_without_a_tracer_imports_nothing() -> None:
    """With hooks only, a batch and `Observer.current` neither import OpenTelemetry nor
    touch the context (the observer says it does not trace)."""
    script = textwrap.dedent(
        """
        import json, sys
        from toolwire import _observe
        from toolwire.core import (
            BaseFunctionToolModel, StandardToolCall, ToolGroup, ToolHooks, ToolCallEnd
        )

        class ping(BaseFunctionToolModel[None, None]):
            '''Ping.'''
            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "pong", None

        ends: list[str] = []
        def after(end: ToolCallEnd) -> None:
            ends.append(end.call.id)

        hooks = ToolHooks(after=after)
        calls = [StandardToolCall("function", f"c{n}", "ping", "{}") for n in (1, 2)]
        results = ToolGroup.from_list([ping]).run_tool_calls(calls, None, hooks=hooks)
        watch = _observe.observer(hooks)
        started = watch.start(calls[0])
        with watch.current(started):
            pass
        print(json.dumps([
            [r.result_content for r in results], ends, watch.traced,
            "opentelemetry" in sys.modules,
        ]))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert json.loads(done.stdout) == [["pong", "pong"], ["c1", "c2"], False, False], done.stderr


Gate = asyncio.Barrier | asyncio.Event | None
"""The aio tools' context: what a handler waits for, or sets, if anything."""


class aio_fetch(aio.BaseFunctionToolModel[Gate, None]):
    """Fetch a page. With a barrier as context the batch's calls wait for each other
    (so they are inside their handlers at once); page "hang" sets an event context once
    inside its span, then never returns."""

    url: str

    async def model_tool_handler(self, context: Gate) -> tuple[str, None]:
        if isinstance(context, asyncio.Barrier):
            await context.wait()
        with app().start_as_current_span(f"GET {self.url}"):
            if self.url == "hang":
                if isinstance(context, asyncio.Event):
                    context.set()
                await asyncio.Event().wait()
            await asyncio.sleep(0)
        return f"fetched {self.url}", None


class aio_queue(aio.BaseFunctionToolModel[Gate, None]):
    """Queue a job; its calls run one after another in one task."""

    model_tool_sequential = True
    job: str

    async def model_tool_handler(self, context: Gate) -> tuple[str, None]:
        with app().start_as_current_span(f"queue {self.job}"):
            await asyncio.sleep(0)
        return "queued", None


AIO = aio.ToolGroup.from_list([aio_fetch, aio_queue])


def test_spans_made_in_an_aio_handler_are_children_of_its_execute_tool_span(
    spans: InMemorySpanExporter,
) -> None:
    """Concurrent calls (each in its task), the calls of a sequential tool (one task)
    and `run_tool_call`: each handler's span is the child of its own call's
    `execute_tool` span; the turn is current again after."""

    async def turn() -> str:
        with app().start_as_current_span("turn"):
            pages = [call(f"c{n}", "aio_fetch", url=f"page{n}") for n in (1, 2, 3)]
            await AIO.run_tool_calls(pages, asyncio.Barrier(3))
            jobs = [call("q1", "aio_queue", job="a"), call("q2", "aio_queue", job="b")]
            await AIO.run_tool_calls(jobs, None)
            await AIO.run_tool_call(call("c4", "aio_fetch", url="page4"), None)
            return current_name()

    assert asyncio.run(turn()) == "turn"
    assert sorted(tree(spans)) == [
        ("GET page1", "execute_tool aio_fetch (c1)"),
        ("GET page2", "execute_tool aio_fetch (c2)"),
        ("GET page3", "execute_tool aio_fetch (c3)"),
        ("GET page4", "execute_tool aio_fetch (c4)"),
        ("execute_tool aio_fetch (c1)", "turn"),
        ("execute_tool aio_fetch (c2)", "turn"),
        ("execute_tool aio_fetch (c3)", "turn"),
        ("execute_tool aio_fetch (c4)", "turn"),
        ("execute_tool aio_queue (q1)", "turn"),
        ("execute_tool aio_queue (q2)", "turn"),
        ("queue a", "execute_tool aio_queue (q1)"),
        ("queue b", "execute_tool aio_queue (q2)"),
        ("turn", None),
    ]


def test_an_aio_call_that_times_out_or_is_cancelled_keeps_its_spans_nested(
    spans: InMemorySpanExporter,
) -> None:
    """A handler cut by the batch timeout, and one whose batch is cancelled: the span
    it made is the child of its call's span, each span ends once, and the turn is
    current again after."""

    async def turn() -> list[str]:
        after_each: list[str] = []
        with app().start_as_current_span("turn"):
            hang = call("t1", "aio_fetch", url="hang")
            [timed_out] = await AIO.run_tool_calls([hang], None, timeout=0)
            after_each.append(f"{current_name()} ({timed_out.fail_reason})")
            inside = asyncio.Event()
            hang = call("x1", "aio_fetch", url="hang")
            batch = asyncio.ensure_future(AIO.run_tool_calls([hang], inside))
            await inside.wait()
            batch.cancel()
            with pytest.raises(asyncio.CancelledError):
                await batch
            after_each.append(current_name())
        return after_each

    assert asyncio.run(turn()) == ["turn (timeout)", "turn"]
    assert tree(spans) == [
        ("GET hang", "execute_tool aio_fetch (t1)"),
        ("execute_tool aio_fetch (t1)", "turn"),
        ("GET hang", "execute_tool aio_fetch (x1)"),
        ("execute_tool aio_fetch (x1)", "turn"),
        ("turn", None),
    ]
    assert outcomes(spans) == [
        ("GET hang", None),
        ("execute_tool aio_fetch (t1)", "timeout"),
        ("GET hang", None),
        ("execute_tool aio_fetch (x1)", "cancelled"),
        ("turn", None),
    ]


class aio_report(aio.BaseFunctionToolModel[None, None]):
    """Report."""

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "done", None


def test_an_aio_single_call_whose_after_hook_raises_raises_its_tool_hook_error() -> None:
    """`aio.run_tool_call`: the hook's error arrives as the call's `ToolHookError`, with
    the result the hook was given kept on it, and survives pickling (worker pools)."""

    async def after(end: aio.ToolCallEnd) -> None:
        raise ValueError("bug in my audit hook")

    group = aio.ToolGroup.from_list([aio_report])
    with pytest.raises(ToolHookError) as raised:
        asyncio.run(
            group.run_tool_call(call("c1", "aio_report"), None, hooks=aio.ToolHooks(after=after))
        )
    error = raised.value
    assert (str(error), error.hook, error.call.id) == (
        "The after hook raised ValueError for call 'c1' ('aio_report'), after its handler "
        "ran: bug in my audit hook",
        "after",
        "c1",
    )
    assert isinstance(error.result, ToolCallSuccess)
    assert error.result.result_content == "done"
    assert repr(error.__cause__) == "ValueError('bug in my audit hook')"
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.hook, copy.call, copy.result) == (
        ToolHookError,
        str(error),
        "after",
        error.call,
        error.result,
    )
