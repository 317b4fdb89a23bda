"""Approve with edits on Anthropic: a person reviews each call that needs approval and
runs it as the model sent it, runs it with arguments they changed (validated again by the
tool), or refuses it. The model reads a short note saying what was edited."""

import os

from anthropic import Anthropic
from anthropic.types import Message, MessageParam

from toolwire.core import (
    ApprovalRequired,
    BaseFunctionToolModel,
    PendingCall,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic, FakeReply

# Offline, the fake replies as the model would: three invitations, then the summary.
OFFLINE = [
    FakeReply.tool_calls(
        ("send_invite", {"email": "bob@example.com", "time": "09:00"}),
        ("send_invite", {"email": "eve@competitor.com", "time": "09:00"}),
        ("send_invite", {"email": "ann@example.com", "time": "09:00"}),
    ),
    FakeReply(text="Bob is invited for 10:30, Ann for 09:00; Eve was not invited."),
]
client = (
    Anthropic() if os.environ.get("ANTHROPIC_API_KEY") else FakeAnthropic(script=OFFLINE).client()
)


class send_invite(BaseFunctionToolModel[None, None]):
    """Invite someone to the team meeting."""

    email: str
    time: str
    """Start time, HH:MM."""

    def model_tool_needs_approval(self) -> ApprovalRequired:
        return ApprovalRequired(f"Invite {self.email} at {self.time}?")

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Invited {self.email} for {self.time}.", None


tools = ToolGroup.from_list([send_invite])


def review(pending: PendingCall[send_invite]) -> PendingCall[send_invite] | str:
    """Your UI: the person moves Bob's slot, declines outsiders, approves the rest."""
    invite = pending.tool
    assert invite is not None and pending.approval is not None
    print(f"Asked: {pending.approval.hint}")
    if invite.email.startswith("bob@"):
        return pending.edit({"email": invite.email, "time": "10:30"})
    if not invite.email.endswith("@example.com"):
        return "The user only invites colleagues; do not invite outsiders."
    return pending


def text_of(message: Message) -> str:
    return "".join(block.text for block in message.content if block.type == "text")


def main() -> None:
    history: list[MessageParam] = [
        {"role": "user", "content": "Invite Bob, Eve and Ann to the 9:00 meeting."}
    ]
    while True:
        response = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=history,
            tools=tools.tool_definitions("anthropic"),
        )
        history.extend(assistant_messages(response, "anthropic"))
        results = tools.run_with_approval(response, None, review)
        if not results:
            print("Answer:", text_of(response))
            break
        for result in results:
            print(f"{result.name} -> {result.fail_reason or 'ok'}")
            if result.edit:  # what the model sent, and what ran instead
                print(f"  edited: {result.edit.original} -> {result.edit.arguments}")
            print(f"  the model reads: {result.result_content!r}")
        history.extend(tool_result_messages(results, "anthropic"))


if __name__ == "__main__":
    main()
