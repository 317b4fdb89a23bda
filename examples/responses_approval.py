"""Approval on Responses: calls that need a person's yes wait as JSON (for minutes or
days, in any process), then run or are refused; the model reads the refusal's reason.
(When the decision comes at once, `tools.run_with_approval(response, context, approve)`
does it in one call.)"""

import json
import os
from pathlib import Path
from tempfile import TemporaryDirectory

from openai import OpenAI
from openai.types.responses import ResponseInputItemParam

from toolwire.core import (
    BaseFunctionToolModel,
    PendingCall,
    ToolCallFailure,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeOpenAI, FakeReply

# Offline, the fake replies as the model would: it lists, then deletes two files.
OFFLINE = [
    FakeReply.tool_calls(
        ("list_files", {}),
        ("delete_file", {"path": "draft.txt"}),
        ("delete_file", {"path": "taxes-2025.pdf"}),
    ),
    FakeReply(text="I deleted draft.txt; you chose to keep taxes-2025.pdf."),
]
client = OpenAI() if os.environ.get("OPENAI_API_KEY") else FakeOpenAI(script=OFFLINE).client()


class list_files(BaseFunctionToolModel[None, None]):
    """List the files in the user's folder."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "draft.txt, taxes-2025.pdf", None


class delete_file(BaseFunctionToolModel[None, None]):
    """Delete one file from the user's folder."""

    model_tool_requires_approval = True  # or override model_tool_needs_approval(self)
    path: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Deleted {self.path}.", None


tools = ToolGroup.from_list([list_files, delete_file])


def ask_the_user(pending: PendingCall) -> PendingCall | ToolCallFailure:
    """Your UI: here, the user keeps anything about taxes. A refusal's text is what the
    model reads."""
    tool = pending.tool
    if isinstance(tool, delete_file) and "taxes" in tool.path:
        return pending.refuse("The user wants to keep this file; do not delete it.")
    return pending


def main() -> None:
    with TemporaryDirectory() as folder:
        store = Path(folder)  # a database row, a queue message...
        history: list[ResponseInputItemParam] = [{"role": "user", "content": "Clean up my folder."}]
        while True:
            response = client.responses.create(
                model="gpt-4.1", input=history, tools=tools.tool_definitions("responses")
            )
            history.extend(assistant_messages(response, "responses"))
            pending = tools.prepare_tool_calls(response)  # validated; nothing ran yet
            if not pending:
                print("Answer:", response.output_text)
                break
            waiting = [p.call.name for p in pending if p.needs_approval]
            print(f"Pausing: {len(waiting)} call(s) need approval: {waiting}")
            (store / "pending.json").write_text(tools.dump_pending(pending))
            (store / "history.json").write_text(json.dumps(history))

            # ... later, maybe in another process, once the user has decided:
            history = json.loads((store / "history.json").read_text())
            restored = tools.load_pending((store / "pending.json").read_text())
            decided = [ask_the_user(p) if p.needs_approval else p for p in restored]
            results = tools.run_pending(decided, None)
            for result in results:
                print(f"{result.name} -> {result.fail_reason or 'ok'}: {result.result_content}")
            history.extend(tool_result_messages(results, "responses"))


if __name__ == "__main__":
    main()
