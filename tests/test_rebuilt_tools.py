"""Dispatch remembers each function tool's validator on the class (reading it on every
call was a quarter of a one-call dispatch). `model_rebuild` replaces that validator, so
dispatch must use the new one, and a rebuild must still find names the way pydantic's
does: in the caller's frame."""

from __future__ import annotations

import asyncio
from typing import Any

import pydantic

from toolwire import aio, core
from toolwire.core import StandardToolCall


class Echo(core.BaseFunctionToolModel[None, None]):
    """Say the word back."""

    word: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.word, None


def test_a_forced_rebuild_takes_effect_on_the_next_dispatch() -> None:
    group = core.ToolGroup.from_list([Echo])
    calls: list[Any] = [
        StandardToolCall("function", "c1", "Echo", '{"word": "hi"}'),
        StandardToolCall("function", "c2", "Echo", {"word": "hi"}),
    ]
    before = [r.result_content for r in group.run_tool_calls(calls, None)]
    before += [group.run_tool_calls(call, None)[0].result_content for call in calls]
    Echo.model_config["str_to_upper"] = True
    try:
        Echo.model_rebuild(force=True)
        after = [r.result_content for r in group.run_tool_calls(calls, None)]
        after += [group.run_tool_calls(call, None)[0].result_content for call in calls]
    finally:
        Echo.model_config["str_to_upper"] = False
        Echo.model_rebuild(force=True)
    assert before == ["hi"] * 4
    assert after == ["HI"] * 4
    assert group.run_tool_call(calls[0], None).result_content == "hi"


def test_an_aio_tool_rebuilt_dispatches_with_its_new_validator() -> None:
    class Shout(aio.BaseFunctionToolModel[None, None]):
        """Say the word back."""

        word: str

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return self.word, None

    group = aio.ToolGroup.from_list([Shout])
    call = StandardToolCall("function", "c1", "Shout", '{"word": "hi"}')
    assert asyncio.run(group.run_tool_calls(call, None))[0].result_content == "hi"
    Shout.model_config["str_to_upper"] = True
    Shout.model_rebuild(force=True)
    assert asyncio.run(group.run_tool_calls(call, None))[0].result_content == "HI"


def test_model_rebuild_resolves_names_in_the_callers_frame() -> None:
    class Order(core.BaseFunctionToolModel[None, None]):
        """Order one item."""

        item: Item  # defined below: pydantic cannot build the class yet

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return f"ordered {self.item.name}", None

    class Item(pydantic.BaseModel):
        name: str

    assert not Order.__pydantic_complete__
    assert Order.model_rebuild() is True  # finds `Item` here, as pydantic's own would
    group = core.ToolGroup.from_list([Order])
    call = StandardToolCall("function", "c1", "Order", '{"item": {"name": "tea"}}')
    assert group.run_tool_call(call, None).result_content == "ordered tea"
    assert Order.model_rebuild() is None  # complete: nothing to do, as in pydantic


def test_a_subclass_does_not_run_with_its_parents_plan() -> None:
    """The plan lives on the class; a subclass inherits the attribute and must not use it."""

    class Loud(Echo):
        """Say it louder."""

        model_config = pydantic.ConfigDict(str_to_upper=True)

    parent = core.ToolGroup.from_list([Echo])
    child = core.ToolGroup.from_list([Loud])
    for arguments in ('{"word": "hi"}', {"word": "hi"}):
        assert [
            parent.run_tool_calls(StandardToolCall("function", "c", "Echo", arguments), None)[0].result_content,
            child.run_tool_calls(StandardToolCall("function", "c", "Loud", arguments), None)[0].result_content,
        ] == ["hi", "HI"]  # fmt: skip


def _answer_ok(self: object, context: None) -> tuple[str, None]:
    return "ok", None


def test_tool_classes_made_at_run_time_are_freed_after_dispatch() -> None:
    """Dispatch remembers nothing that keeps a class alive (an MCP session's tool classes
    hold the session): once the application drops the class, it is collected."""
    import gc
    import weakref

    class Payload:
        pass

    alive: list[weakref.ref[Any]] = []
    for index in range(20):
        payload = Payload()
        tool: Any = pydantic.create_model(
            f"dynamic_{index}",
            __base__=core.BaseFunctionToolModel[None, None],
            word=(Any, ...),  # Any: dict arguments are copied (the shares cache)
        )
        tool.payload = payload
        tool.model_tool_handler = _answer_ok
        group = core.ToolGroup.from_list([tool])
        for arguments in ('{"word": "hi"}', {"word": "hi"}):
            call = StandardToolCall("function", "c", f"dynamic_{index}", arguments)
            assert group.run_tool_calls(call, None)[0].result_content == "ok"
            assert group.run_tool_calls([call, call], None)[1].result_content == "ok"
        alive.append(weakref.ref(payload))
        del tool, group, payload
    gc.collect()
    assert [ref() for ref in alive] == [None] * 20
