"""A loop resumed in a new process from a dump holding an edit and an external answer
(issue 27's "must show"): this process prepares the model's calls, edits one, answers
the external one and dumps the batch with one call still undecided; a child Python
process loads the dump, approves the last call, runs the batch and sends the results
as the next Anthropic request would carry them, which `check_history` takes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages


class send_email(BaseFunctionToolModel[None, None]):
    """Send an email."""

    model_tool_requires_approval = True
    to: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sent to {self.to}.", None


class pick_color(BaseFunctionToolModel[None, None]):
    """Ask the user to pick a color in the app."""

    model_tool_external = True
    prompt: str


TOOLS = ToolGroup.from_list([send_email, pick_color])

CHILD = """
import json, sys
from tests.test_pending_resume import TOOLS
from toolwire.core import tool_result_messages
from toolwire.testing import check_history

state = json.load(sys.stdin)
pending = TOOLS.load_pending(state["dump"])
assert [bool(p.edited) for p in pending] == [True, False, False]
assert [bool(p.answered) for p in pending] == [False, True, False]
results = TOOLS.run_pending(pending, None)  # the edit and the answer as stored; the last: approved

history = [*state["history"], *tool_result_messages(results, "anthropic")]
print(json.dumps({
    "results": [[r.call_id, r.fail_reason, r.result_content, r.edit and r.edit.arguments] for r in results],
    "problems": [str(problem) for problem in check_history(history, "anthropic")],
}))
"""


def test_a_dump_with_an_edit_and_an_answer_is_finished_in_another_process() -> None:
    from anthropic.types import Message  # here: the child imports this module, not the SDK

    response = Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-6",
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 10, "output_tokens": 20},
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "send_email",
                    "input": {"to": "bob@example.com"},
                },  # fmt: skip
                {
                    "type": "tool_use",
                    "id": "toolu_2",
                    "name": "pick_color",
                    "input": {"prompt": "Color?"},
                },  # fmt: skip
                {
                    "type": "tool_use",
                    "id": "toolu_3",
                    "name": "send_email",
                    "input": {"to": "ann@example.com"},
                },  # fmt: skip
            ],
        }
    )
    history: list[Any] = [{"role": "user", "content": "Email Bob and Ann; ask me for a color."}]
    history.extend(assistant_messages(response, "anthropic"))
    edited, color, undecided = TOOLS.prepare_tool_calls(response)
    decided = [edited.edit({"to": "alice@example.com"}), color.answer("teal"), undecided]
    state = {"dump": TOOLS.dump_pending(decided, as_dict=True), "history": history}
    root = Path(__file__).resolve().parents[1]
    child = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps(state),
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)])},
        timeout=120,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    assert json.loads(child.stdout) == {
        "results": [
            [
                "toolu_1",
                None,
                'Before this call ran, the user edited its arguments to: {"to": "alice@example.com"}\n'
                "Sent to alice@example.com.",
                {"to": "alice@example.com"},
            ],
            ["toolu_2", None, "teal", None],
            ["toolu_3", None, "Sent to ann@example.com.", None],
        ],
        "problems": [],
    }
