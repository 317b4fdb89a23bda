"""Every cache toolwire keeps is safe under concurrent first use.

Caches fill on first use, in whichever thread gets there first. One that published an
entry before filling it (the Responses replay's shape of each param type) let another
thread read it half-built: a message item's `id` went missing from the replay. Each
check runs in a fresh interpreter, so the caches start cold, with many threads released
at once.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.strength import scaled

RACE = textwrap.dedent(
    """
    import json, sys, threading
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: races show up
    from concurrent.futures import ThreadPoolExecutor
    from openai.types.responses import Response
    from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages
    from toolwire.core import tool_result_messages, turn_status

    class get_weather(BaseFunctionToolModel[None, None]):
        '''Get the weather.'''
        city: str
        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "sunny", None

    response = Response.model_validate({
        "id": "resp_1", "object": "response", "created_at": 1, "model": "m",
        "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto",
        "tools": [],
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "e"},
            {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": "Looking.", "annotations": []}]},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1",
             "name": "get_weather", "arguments": '{"city": "Paris"}', "status": "completed"},
        ],
    })
    threads = 32
    start = threading.Barrier(threads)

    def one(_: int) -> str:
        start.wait()
        group = ToolGroup.from_list([get_weather])
        history = [*assistant_messages(response, "responses"),
                   *tool_result_messages(group.run_tool_calls(response, None), "responses")]
        assert turn_status(response, "responses") == "tool_calls"
        definitions = group.tool_definitions("responses")
        return json.dumps([history, definitions], sort_keys=True)

    with ThreadPoolExecutor(threads) as pool:
        outcomes = set(pool.map(one, range(threads)))
    assert len(outcomes) == 1, "threads saw different replays"
    replay = json.loads(outcomes.pop())[0]
    assert replay[1]["id"] == "msg_1", replay[1]
    print("same")
    """
)


@pytest.mark.parametrize("attempt", range(scaled(6)))
def test_first_use_from_many_threads_gives_one_answer(attempt: int) -> None:
    done = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "same"
