"""A front-end tool on Gemini: `choose_slot` has no handler (`model_tool_external`); the
app shows the question, and the user's answer becomes the call's result. The batch waits
as JSON while the user decides, then the server's own call runs beside the answer."""

import json
import os

from google import genai
from google.genai import types

from toolwire.core import (
    BaseFunctionToolModel,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeGemini, FakeReply

# Offline, the fake replies as the model would: it looks up the free slots and asks the
# user to choose one in the app, then confirms.
OFFLINE = [
    FakeReply.tool_calls(
        ("free_slots", {"day": "Friday"}),
        ("choose_slot", {"question": "Which slot on Friday suits you?"}),
    ),
    FakeReply(text="Booked: Friday at 14:00."),
]
client = (
    genai.Client()
    if os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")
    else FakeGemini(script=OFFLINE).client()
)


class free_slots(BaseFunctionToolModel[None, None]):
    """List the free meeting slots on a day."""

    day: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.day}: 10:00, 14:00, 16:30", None


class choose_slot(BaseFunctionToolModel[None, None]):
    """Ask the user to choose a slot in the app; returns their choice."""

    model_tool_external = True  # no handler: the app answers
    question: str


tools = ToolGroup.from_list([free_slots, choose_slot])


def the_app_asks(question: str) -> str:
    """Your front end: shows the question, returns what the user picked."""
    print(f"App shows: {question}")
    return "The user chose 14:00."


def main() -> None:
    config = types.GenerateContentConfig(tools=tools.tool_definitions("gemini"))
    history = [types.Content(role="user", parts=[types.Part(text="Book me a slot on Friday.")])]
    while True:
        response = client.models.generate_content(
            model="gemini-2.5-flash", contents=history, config=config
        )
        history.extend(assistant_messages(response, "gemini"))
        pending = tools.prepare_tool_calls(response)  # validated; nothing ran yet
        if not pending:
            print("Answer:", response.text)
            break
        stored = json.dumps(tools.dump_pending(pending, as_dict=True))  # while the user decides

        # ... later, when the app sends the answer back (in any process):
        restored = tools.load_pending(stored)
        decided = [
            p.answer(the_app_asks(p.tool.question))
            if p.external and isinstance(p.tool, choose_slot)
            else p
            for p in restored
        ]
        results = tools.run_pending(decided, None)  # free_slots runs; choose_slot is answered
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, "gemini"))


if __name__ == "__main__":
    main()
