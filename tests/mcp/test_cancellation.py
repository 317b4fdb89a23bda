"""Cancellation through MCP (issue 24, item 3): a served aio group whose client cancels a
request stops that call's handler and goes on serving; a batch whose MCP server over
streamable HTTP dies mid-call stops at once when the SDK's client tears itself down; a
cancel scope around a batch waiting on a server that stopped answering ends it. Real
servers and the SDK's real client; the rounds of waiting a cancelled
batch takes are counted through `toolwire._batch_wait.wait_for` (never timed), and
every wait for something that should happen at once is bounded by `PROMPTLY` only so
that a regression fails instead of hanging.
"""

from __future__ import annotations

import math
import signal
import sys
import textwrap
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import anyio
import anyio.abc
import httpx2
import pytest
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp import Client

from tests.test_aio_cancellation import rounds as rounds  # the fixture, shared
from toolwire import aio
from toolwire.mcp import MCPTools, mcp_server

from .servers import call, run

PROMPTLY = 10
"""Seconds after which something that should happen at once counts as never happening."""


@dataclass
class Stage:
    """What the served handler shares with the test: events for "inside" and "stopped",
    and what to do once inside (cancel the client's request)."""

    inside: anyio.Event = field(default_factory=anyio.Event)
    stopped: anyio.Event = field(default_factory=anyio.Event)
    when_inside: list[anyio.CancelScope] = field(default_factory=list[anyio.CancelScope])


class waits(aio.BaseFunctionToolModel[Stage, None]):
    """Waits until cancelled."""

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        context.inside.set()
        for scope in context.when_inside:
            scope.cancel()
        try:
            await anyio.sleep_forever()
        finally:
            context.stopped.set()
        return "never", None


class answers(aio.BaseFunctionToolModel[Stage, None]):
    """Answers at once."""

    async def model_tool_handler(self, context: Stage) -> tuple[str, None]:
        return "still serving", None


def test_a_request_the_client_cancels_stops_its_handler(rounds: list[int]) -> None:
    """The SDK's client, its request cancelled by a cancel scope once the handler is
    inside, tells the server (`notifications/cancelled`); the served batch cancels the
    handler, which stops, in one round of waiting; the next call is answered."""
    stage = Stage()
    server = mcp_server(aio.ToolGroup.from_list([waits, answers]), context=lambda _: stage)

    async def body() -> tuple[bool, str]:
        async with Client(server) as client:
            with anyio.CancelScope() as request:
                stage.when_inside.append(request)
                await client.call_tool("waits", {})
            with anyio.fail_after(PROMPTLY):
                await stage.stopped.wait()
            after = await client.call_tool("answers", {})
            return request.cancelled_caught, after.content[0].model_dump()["text"]

    assert run(body) == (True, "still serving")
    assert rounds == [1]


DYING_SERVER = textwrap.dedent(
    """
    import os, signal, socket
    import anyio, uvicorn
    from toolwire.aio import BaseFunctionToolModel, ToolGroup
    from toolwire.mcp import mcp_server

    class dies(BaseFunctionToolModel[None, None]):
        '''Kills its own server in the middle of the call.'''
        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            os.kill(os.getpid(), signal.SIGKILL)
            await anyio.sleep_forever()
            return "never", None

    class hangs(BaseFunctionToolModel[None, None]):
        '''Says it is inside, then never answers.'''
        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            print("inside", flush=True)
            await anyio.sleep_forever()
            return "never", None

    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    print(listening.getsockname()[1], flush=True)
    app = mcp_server(ToolGroup.from_list([dies, hangs]), name="mortal").streamable_http_app()
    uvicorn.Server(uvicorn.Config(app, log_level="critical")).run(sockets=[listening])
    """
)


@dataclass
class HTTPServer:
    url: str
    process: anyio.abc.Process
    said: BufferedByteReceiveStream

    async def line(self) -> str:
        """The next line the server printed."""
        return (await self.said.receive_until(b"\n", 100)).decode()


@asynccontextmanager
async def dying_server() -> AsyncGenerator[HTTPServer]:
    """DYING_SERVER started over streamable HTTP; it listens before it prints its port,
    so the client may connect at once. Killed (if still alive) on the way out."""
    async with await anyio.open_process([sys.executable, "-c", DYING_SERVER]) as process:
        assert process.stdout is not None
        said = BufferedByteReceiveStream(process.stdout)
        try:
            with anyio.fail_after(30):  # a Python process importing the SDKs
                port = int(await said.receive_until(b"\n", 100))
            yield HTTPServer(f"http://127.0.0.1:{port}/mcp", process, said)
        finally:
            if process.returncode is None:
                process.kill()


def test_a_server_killed_mid_call_ends_the_batch_at_once(rounds: list[int]) -> None:
    """The server dies (SIGKILL) while it handles the call. The SDK's streamable HTTP
    transport does not answer that request: the failed POST ends its task group, which
    cancels everything inside `async with Client(...)` and then raises the connection
    error (modelcontextprotocol/python-sdk#915). The batch stops at once, its other
    handler cancelled, in one round of waiting, instead of waiting again for ever."""
    stage = Stage()
    reached: list[str] = []

    async def body() -> int | None:
        async with dying_server() as server:
            with pytest.raises(ExceptionGroup) as raised:
                async with Client(server.url) as client:
                    mortal = await MCPTools.load(client)
                    group = aio.ToolGroup.from_list([*mortal.tools, waits])
                    with anyio.fail_after(PROMPTLY):
                        await group.run_tool_calls([call("a", "dies"), call("b", "waits")], stage)
                    reached.append("after the batch")
            assert raised.group_contains(httpx2.RemoteProtocolError)
            return await server.process.wait()

    assert run(body) == -signal.SIGKILL
    assert stage.stopped.is_set()
    assert reached == []
    assert rounds == [1]


def test_a_cancel_scope_ends_a_batch_waiting_on_a_stopped_server(
    rounds: list[int],
) -> None:
    """The server stops answering (SIGSTOP) while the call is in flight, and the scope
    around the batch then expires (its deadline moved to now): the batch returns as the
    scope exits, having stopped its call in one round of waiting. (A killed server ends
    the whole client first: see the test above.)"""

    async def body() -> bool:
        async with dying_server() as server, Client(server.url) as client:
            mortal = await MCPTools.load(client, timeout=None)
            group = aio.ToolGroup.from_list(mortal.tools)
            with anyio.fail_after(PROMPTLY):
                with anyio.move_on_after(math.inf) as scope:
                    async with anyio.create_task_group() as watcher:

                        async def stop_when_inside() -> None:
                            assert await server.line() == "inside"
                            server.process.send_signal(signal.SIGSTOP)
                            scope.deadline = anyio.current_time()

                        watcher.start_soon(stop_when_inside)
                        await group.run_tool_calls([call("a", "hangs")], None)
            server.process.send_signal(signal.SIGCONT)  # so the client closes cleanly
            return scope.cancelled_caught

    assert run(body) is True
    assert rounds == [1]
