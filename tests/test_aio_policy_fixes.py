"""toolwire.aio policy fixes: a tool class whose handler is not async is refused when it
is defined (like `async def` on a core tool), and a sequential tool's calls are left
not run after another call's unexpected error only when they were queued behind a
sibling whose turn came after the error, never because of task scheduling.

Handlers meet through asyncio events, never through timing.
"""

from __future__ import annotations

import abc
import asyncio
import functools
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, cast

import pydantic
import pytest
from inline_snapshot import snapshot

from tests.helpers import chat_completion
from toolwire import aio
from toolwire.exceptions import ToolBatchError, ToolDefinitionError

In = TypeVar("In")
Out = TypeVar("Out")
Handler = TypeVar("Handler", bound=Callable[..., Any])


# --- A handler that is not async is refused when the class is defined ---------------


def test_a_plain_handler_on_an_aio_tool_is_refused_when_the_class_is_defined() -> None:
    """Function and custom aio tools with a plain `def` handler raise at once."""
    ran: list[str] = []
    with pytest.raises(ToolDefinitionError) as function_tool:

        class save(aio.BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """Saves."""

            def model_tool_handler(self, context: None) -> tuple[str, None]:  # pyright: ignore[reportIncompatibleMethodOverride]
                ran.append("saved")
                return "saved", None

    assert str(function_tool.value) == snapshot(
        "save.model_tool_handler is not `async def`, but save is a toolwire.aio tool, whose handlers are awaited (a plain one would run, then fail its call, and the model would be told to call again). Define `async def model_tool_handler` (a decorator's wrapper counts when it is `async def` or wraps one with functools.wraps), or import BaseFunctionToolModel / BaseCustomToolModel and ToolGroup from toolwire.core instead."
    )
    with pytest.raises(ToolDefinitionError) as custom_tool:

        class shell(aio.BaseCustomToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """Runs a command."""

            def model_tool_handler(self, context: None) -> tuple[str, None]:  # pyright: ignore[reportIncompatibleMethodOverride]
                ran.append("ran")
                return "ran", None

    assert str(custom_tool.value).startswith(
        "shell.model_tool_handler is not `async def`, but shell is a toolwire.aio tool"
    )
    assert ran == []


class LogsMixin:
    """A plain mixin whose handler is a plain function."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "logged", None


def test_an_inherited_plain_handler_is_refused_naming_the_class_that_defines_it() -> None:
    """The handler a tool inherits is checked too, and the error says where it comes from."""
    with pytest.raises(ToolDefinitionError) as error:

        class log_line(LogsMixin, aio.BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass, reportIncompatibleMethodOverride]
            """Logs a line."""

    assert str(error.value) == snapshot(
        "log_line.model_tool_handler (inherited from LogsMixin) is not `async def`, but log_line is a toolwire.aio tool, whose handlers are awaited (a plain one would run, then fail its call, and the model would be told to call again). Define `async def model_tool_handler` (a decorator's wrapper counts when it is `async def` or wraps one with functools.wraps), or import BaseFunctionToolModel / BaseCustomToolModel and ToolGroup from toolwire.core instead."
    )


class Abstract(aio.BaseFunctionToolModel[None, None], abc.ABC):
    """A base whose handler is still abstract: each concrete tool defines it."""

    @abc.abstractmethod
    def model_tool_handler(self, context: None) -> tuple[str, None]:  # pyright: ignore[reportIncompatibleMethodOverride]
        """Left to subclasses."""


class Echo(aio.BaseFunctionToolModel[In, Out], Generic[In, Out]):
    """Echoes its text (a generic tool: its subscriptions are tool classes too)."""

    text: str

    async def model_tool_handler(self, context: In) -> tuple[str, Out]:
        return self.text, context  # pyright: ignore[reportReturnType]


def test_abstract_and_generic_bases_pass_and_their_concrete_tools_are_checked() -> None:
    """An abstract handler is left to subclasses, which are checked; a generic tool's
    subscriptions run; a generic tool with a plain handler is refused at its own class."""

    class concrete(Abstract):
        """Async, as it should be."""

        async def model_tool_handler(self, context: None) -> tuple[str, None]:  # pyright: ignore[reportIncompatibleMethodOverride]
            return "concrete", None

    with pytest.raises(ToolDefinitionError, match=r"^wrong\.model_tool_handler is not"):

        class wrong(Abstract):  # pyright: ignore[reportUnusedClass]
            """Plain, like the abstract declaration."""

            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "wrong", None

    with pytest.raises(ToolDefinitionError, match=r"^PlainEcho\.model_tool_handler is not"):

        class PlainEcho(aio.BaseFunctionToolModel[In, Out], Generic[In, Out]):  # pyright: ignore[reportUnusedClass]
            """A generic tool with a plain handler."""

            def model_tool_handler(self, context: In) -> tuple[str, Out]:  # pyright: ignore[reportIncompatibleMethodOverride]
                return "", context  # pyright: ignore[reportReturnType]

    group = aio.ToolGroup.from_list([concrete, Echo[None, None]])
    response = chat_completion(("concrete", {}), ("Echo[NoneType, NoneType]", {"text": "hi"}))
    results = asyncio.run(group.run_tool_calls(response, None))
    assert [(r.call_id, r.fail_reason, r.result_content) for r in results] == [
        ("call_0", None, "concrete"),
        ("call_1", None, "hi"),
    ]


async def _answer(tool: object, context: None, text: str = "") -> tuple[str, None]:
    return f"{text or type(tool).__name__} answered", None


def _logged(handler: Handler) -> Handler:
    """A decorator whose wrapper is a plain function returning the coroutine."""

    @functools.wraps(handler)
    def wrapper(*args: Any) -> Any:
        return handler(*args)

    return cast(Handler, wrapper)


class _Answerer:
    """A callable object whose `__call__` is `async def` (not bound to the tool)."""

    async def __call__(self, context: None) -> tuple[str, None]:
        return "object answered", None


class wrapped(aio.BaseFunctionToolModel[None, None]):
    """A decorated handler that keeps `__wrapped__`."""

    @_logged
    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "wrapped answered", None


class partial_method(aio.BaseFunctionToolModel[None, None]):
    """A `functools.partialmethod` of an async function."""

    model_tool_handler = functools.partialmethod(_answer, text="partial method")  # pyright: ignore[reportAssignmentType]


class static(aio.BaseFunctionToolModel[None, None]):
    """A static async handler."""

    @staticmethod
    async def model_tool_handler(context: None) -> tuple[str, None]:  # pyright: ignore[reportIncompatibleMethodOverride]
        return "static answered", None


class callable_object(aio.BaseFunctionToolModel[None, None]):
    """An object with an async `__call__`."""

    model_tool_handler: ClassVar[Callable[[None], Coroutine[Any, Any, tuple[str, None]]]] = (  # pyright: ignore[reportIncompatibleMethodOverride]
        _Answerer()
    )


def test_handlers_that_give_awaitables_are_judged_by_what_they_wrap() -> None:
    """Decorated (functools.wraps), partialmethod, static and callable-object handlers of
    async functions pass and run; a plain function that returns a coroutine is refused."""
    group = aio.ToolGroup.from_list([wrapped, partial_method, static, callable_object])
    response = chat_completion(
        ("wrapped", {}), ("partial_method", {}), ("static", {}), ("callable_object", {})
    )
    results = asyncio.run(group.run_tool_calls(response, None))
    assert [r.result_content for r in results] == [
        "wrapped answered",
        "partial method answered",
        "static answered",
        "object answered",
    ]
    with pytest.raises(ToolDefinitionError, match=r"^forwards\.model_tool_handler is not"):

        class forwards(aio.BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """Returns a coroutine from a plain function: only a call would tell."""

            def model_tool_handler(self, context: None) -> Coroutine[Any, Any, tuple[str, None]]:  # pyright: ignore[reportIncompatibleMethodOverride]
                return _answer(self, context)


# --- Sequential tools after an unexpected error ----------------------------------------


@dataclass
class Scene:
    """What the handlers did, in order, and the events they meet at."""

    events: list[str] = field(default_factory=list[str])
    reached: dict[str, asyncio.Event] = field(default_factory=dict[str, asyncio.Event])

    def point(self, name: str) -> asyncio.Event:
        return self.reached.setdefault(name, asyncio.Event())

    def mark(self, name: str) -> None:
        self.events.append(name)
        self.point(name).set()


class write(aio.BaseFunctionToolModel[Scene, None]):
    """Writes a line; one writer at a time, in call order."""

    model_tool_sequential = True
    line: str
    after: str = ""
    """Finish only once this point was reached."""

    async def model_tool_handler(self, context: Scene) -> tuple[str, None]:
        context.mark(f"start {self.line}")
        if self.after:
            await context.point(self.after).wait()
        context.mark(f"end {self.line}")
        return f"wrote {self.line}", None


class lookup(aio.BaseFunctionToolModel[Scene, None]):
    """Looks something up; `crash` raises an unexpected error."""

    name: str
    crash: bool = False
    after: str = ""
    """Start only once this point was reached."""

    async def model_tool_handler(self, context: Scene) -> tuple[str, None]:
        if self.after:
            await context.point(self.after).wait()
        context.mark(f"lookup {self.name}")
        if self.crash:
            raise RuntimeError("bug")
        return f"found {self.name}", None


class broken(aio.BaseFunctionToolModel[Scene, None]):
    """Its validator raises an unexpected error before any handler starts."""

    path: str

    @pydantic.field_validator("path")
    @classmethod
    def _resolve(cls, value: str) -> str:
        raise FileNotFoundError(value)

    async def model_tool_handler(self, context: Scene) -> tuple[str, None]:
        return "never", None


GROUP = aio.ToolGroup.from_list([write, lookup, broken])


def answered(error: ToolBatchError) -> list[tuple[str, str | None]]:
    return [(r.call_id, r.fail_reason or r.result_content) for r in error.answer_all()]


def run_failing(response: Any, scene: Scene, max_concurrency: int | None = None) -> ToolBatchError:
    with pytest.raises(ToolBatchError) as caught:
        asyncio.run(GROUP.run_tool_calls(response, scene, max_concurrency=max_concurrency))
    return caught.value


def test_without_a_bound_only_calls_whose_turn_comes_after_a_crash_are_not_run() -> None:
    """No max_concurrency: a sequential tool's first call starts with everybody else, so
    another tool's crash (listed after or before it, or in a validator) leaves only the
    calls queued behind a sibling that finished after the crash not run."""
    # a finishes only after x crashed, so b's turn comes after the crash.
    scene = Scene()
    error = run_failing(
        chat_completion(
            ("write", {"line": "a", "after": "lookup x"}),
            ("write", {"line": "b"}),
            ("lookup", {"name": "x", "crash": True}),
        ),
        scene,
    )
    assert sorted(scene.events) == ["end a", "lookup x", "start a"]
    assert [c.id for c in error.not_run] == ["call_1"]
    assert answered(error) == snapshot(
        [("call_0", "wrote a"), ("call_1", "not_run"), ("call_2", "unexpected_error")]
    )

    scene = Scene()
    error = run_failing(
        chat_completion(
            ("lookup", {"name": "x", "crash": True}),
            ("write", {"line": "a", "after": "lookup x"}),
            ("write", {"line": "b"}),
        ),
        scene,
    )
    assert sorted(scene.events) == ["end a", "lookup x", "start a"]
    assert [c.id for c in error.not_run] == ["call_2"]
    assert answered(error) == snapshot(
        [("call_0", "unexpected_error"), ("call_1", "wrote a"), ("call_2", "not_run")]
    )

    scene = Scene()
    error = run_failing(
        chat_completion(
            ("broken", {"path": "/nowhere"}),
            ("write", {"line": "a"}),
            ("write", {"line": "b"}),
            ("lookup", {"name": "y"}),
        ),
        scene,
    )
    assert sorted(scene.events) == ["end a", "lookup y", "start a"]
    assert answered(error) == snapshot(
        [
            ("call_0", "unexpected_error"),
            ("call_1", "wrote a"),
            ("call_2", "not_run"),
            ("call_3", "found y"),
        ]
    )

    # b starts before the crash (a finished first) and finishes after it: only c waits.
    scene = Scene()
    error = run_failing(
        chat_completion(
            ("write", {"line": "a"}),
            ("write", {"line": "b", "after": "lookup x"}),
            ("write", {"line": "c"}),
            ("lookup", {"name": "x", "crash": True, "after": "start b"}),
        ),
        scene,
    )
    assert scene.events == ["start a", "end a", "start b", "lookup x", "end b"]
    assert answered(error) == snapshot(
        [
            ("call_0", "wrote a"),
            ("call_1", "wrote b"),
            ("call_2", "not_run"),
            ("call_3", "unexpected_error"),
        ]
    )


def test_with_one_slot_the_batch_runs_in_call_order() -> None:
    """max_concurrency=1: free slots go to the waiting call that comes first in call order,
    a sequential tool's later calls included, so the batch runs as listed."""
    scene = Scene()
    response = chat_completion(
        ("lookup", {"name": "x"}),
        ("write", {"line": "a"}),
        ("write", {"line": "b"}),
        ("lookup", {"name": "y"}),
    )
    results = asyncio.run(GROUP.run_tool_calls(response, scene, max_concurrency=1))
    assert [(r.call_id, r.result_content) for r in results] == snapshot(
        [("call_0", "found x"), ("call_1", "wrote a"), ("call_2", "wrote b"), ("call_3", "found y")]
    )
    assert scene.events == ["lookup x", "start a", "end a", "start b", "end b", "lookup y"]


def test_with_a_bound_the_calls_whose_turn_comes_after_a_crash_do_not_run() -> None:
    """max_concurrency: a sequential tool's first call gets its slot in call order, so it
    runs when it comes before the crash; the calls whose slot comes after it do not."""
    scene = Scene()
    error = run_failing(
        chat_completion(
            ("write", {"line": "a"}),
            ("lookup", {"name": "x", "crash": True}),
            ("write", {"line": "b"}),
            ("lookup", {"name": "y"}),
        ),
        scene,
        max_concurrency=1,
    )
    assert scene.events == ["start a", "end a", "lookup x"]
    assert answered(error) == snapshot(
        [
            ("call_0", "wrote a"),
            ("call_1", "unexpected_error"),
            ("call_2", "not_run"),
            ("call_3", "not_run"),
        ]
    )
    # Two slots: a holds one until x crashed; then b's turn and y's slot come after it.
    scene = Scene()
    error = run_failing(
        chat_completion(
            ("write", {"line": "a", "after": "lookup x"}),
            ("write", {"line": "b"}),
            ("lookup", {"name": "x", "crash": True}),
            ("lookup", {"name": "y"}),
        ),
        scene,
        max_concurrency=2,
    )
    assert sorted(scene.events) == ["end a", "lookup x", "start a"]
    assert answered(error) == snapshot(
        [
            ("call_0", "wrote a"),
            ("call_1", "not_run"),
            ("call_2", "unexpected_error"),
            ("call_3", "not_run"),
        ]
    )
