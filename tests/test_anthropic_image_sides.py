"""Anthropic refuses an image with a side over 8000 px, and over 2000 px once a request
holds more than 20 images (issue 24, item 12): full-page screenshots are often taller.
toolwire reads the sides from the image's header and notes such an image instead of
sending it; `check_history` and `FakeAnthropic` refuse it with the live API's words.

The images are whole PNGs (`tests.images.png`): one pixel wide and thousands tall costs
a few kilobytes. The other APIs state no side limit, and send them all.
"""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
from anthropic.types import ImageBlockParam, MessageParam, ToolResultBlockParam
from inline_snapshot import snapshot

from tests.images import png
from tests.test_media_placement import b64, group
from toolwire._api import API_NAMES
from toolwire.core import (
    ImagePart,
    StandardToolCall,
    assistant_messages,
    media_report,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic, FakeCall, FakeReply, check_history

TALL = png(1, 8001)
"""A full-page screenshot, one pixel too tall for Anthropic."""
TALLEST = png(1, 8000)
WIDE = png(2001, 1)
"""Over the 2000 px Anthropic allows a side once a request holds more than 20 images."""
SMALL = png()


def returned(*images: bytes, call_id: str = "call_1") -> Any:
    """The result of a call whose handler returned these PNGs."""
    call = StandardToolCall("function", call_id, "shot", "{}")
    return group.run_tool_call(call, [ImagePart.from_bytes(data) for data in images])


def placements(results: list[Any], api: Any = "anthropic") -> list[tuple[str, str]]:
    return [(d.placement, d.reason) for d in media_report(results, api).deliveries]


def image_block(data: bytes) -> ImageBlockParam:
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": b64(data)},
    }


# -- toolwire: notes what Anthropic refuses -------------------------------------------------


def test_an_image_over_8000_px_a_side_is_noted_on_anthropic() -> None:
    """8000 px is taken; 8001 is not: the model reads a note, the report says why."""
    assert placements([returned(TALLEST)]) == [("native", "")]
    done = returned(TALL)
    assert placements([done]) == snapshot(
        [("note", "Anthropic takes images of at most 8000 px a side; this one is 1x8001 px")]
    )
    assert tool_result_messages([done], "anthropic") == snapshot(
        [
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_1",
                        "content": "[The tool returned image (image/png, 117 bytes), which could not be shown to you: Anthropic takes images of at most 8000 px a side; this one is 1x8001 px.]",
                    }
                ],
            }
        ]
    )
    rendered: list[Any] = tool_result_messages([done], "anthropic")
    assert done.tool_result_block == rendered[0]["content"][0]


@pytest.mark.parametrize("api", [api for api in API_NAMES if api != "anthropic"])
def test_the_other_apis_state_no_side_limit(api: Any) -> None:
    results = [returned(TALL, *[WIDE] * 21)]
    assert {placement for placement, _ in placements(results, api)} <= {"native", "message"}


def test_past_20_images_in_one_answer_the_limit_is_2000_px() -> None:
    """The images of every result of the answer count together; 20 are fine."""
    twenty = [returned(WIDE), returned(*[SMALL] * 19, call_id="call_2")]
    assert {p for p, _ in placements(twenty)} == {"native"}
    many = [returned(WIDE), returned(*[SMALL] * 20, call_id="call_2")]
    assert placements(many)[0] == snapshot(
        (
            "note",
            "Anthropic takes images of at most 2000 px a side in a request of more than 20 images (this answer has 21); this one is 2001x1 px",
        )
    )
    assert {p for p, _ in placements(many)[1:]} == {"native"}
    sent: list[Any] = tool_result_messages(many, "anthropic")
    assert sent[0]["content"][0]["content"] == (
        "[The tool returned image (image/png, 91 bytes), which could not be shown to you: "
        "Anthropic takes images of at most 2000 px a side in a request of more than 20 "
        "images (this answer has 21); this one is 2001x1 px.]"
    )
    assert check_history([*_asked(many), *sent], "anthropic") == []


def test_an_image_noted_for_another_reason_is_not_counted() -> None:
    """21 images, one of them over 8000 px: 20 are sent, so 2000 px is no limit."""
    results = [returned(TALL, WIDE, *[SMALL] * 19)]
    assert [p for p, _ in placements(results)] == ["note", "native", *["native"] * 19]


def test_past_20_images_they_go_after_the_results_by_the_same_rule() -> None:
    many = [returned(WIDE, *[SMALL] * 20)]
    report = media_report(many, "anthropic", media="message")
    assert [d.placement for d in report.deliveries] == ["note", *["message"] * 20]
    sent: list[Any] = tool_result_messages(many, "anthropic", media="message")
    assert sum(block["type"] == "image" for block in sent[0]["content"]) == 20


# -- check_history and the fake: refuse what the live API refuses ---------------------------


def _asked(results: list[Any]) -> list[MessageParam]:
    """The prompt and the assistant turn that made the calls `results` answer."""
    return [
        {"role": "user", "content": "Screenshot it."},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": r.call_id, "name": "shot", "input": {}} for r in results
            ],
        },
    ]


def _answer(*images: bytes) -> MessageParam:
    result: ToolResultBlockParam = {
        "type": "tool_result",
        "tool_use_id": "call_1",
        "content": [image_block(data) for data in images],
    }
    return {"role": "user", "content": [result]}


def test_check_history_flags_an_image_over_8000_px() -> None:
    history = [*_asked([returned()]), _answer(TALLEST, TALL)]
    assert [p.message for p in check_history(history, "anthropic")] == snapshot(
        [
            'messages[2] (user) has an image of 1x8001 pixels in a request of 2 image(s): the live API answers 400 ("At least one of the image dimensions exceed max allowed size: 8000 pixels"); scale it down, or send fewer images'
        ]
    )


def test_check_history_counts_the_images_of_the_whole_request() -> None:
    """20 images in an earlier prompt and one wide image in a tool result: 21 in the
    request, so the wide one is refused; with 19 earlier, it passes."""
    earlier: MessageParam = {"role": "user", "content": [image_block(SMALL)] * 20}
    history: list[MessageParam] = [
        earlier,
        {"role": "assistant", "content": "Anything else?"},
        *_asked([returned()]),
        _answer(WIDE),
    ]
    assert [p.message for p in check_history(history, "anthropic")] == snapshot(
        [
            'messages[4] (user) has an image of 2001x1 pixels in a request of 21 image(s): the live API answers 400 ("At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels"); scale it down, or send fewer images'
        ]
    )
    history[0] = {"role": "user", "content": [image_block(SMALL)] * 19}
    assert check_history(history, "anthropic") == []


def test_the_fake_answers_400_like_the_api_and_takes_the_note() -> None:
    """Through the real SDK client: the image sent by hand is refused; the loop that
    renders the same result with toolwire gets its answer."""
    fake = FakeAnthropic(script=[FakeReply.tool_calls(FakeCall("shot")), FakeReply(text="Seen.")])
    client = fake.client()

    def create(messages: list[MessageParam]) -> anthropic.types.Message:
        tools = group.tool_definitions("anthropic")
        return client.messages.create(
            model="claude-sonnet-4-6", max_tokens=1024, messages=messages, tools=tools
        )

    history: list[MessageParam] = [{"role": "user", "content": "Screenshot the page."}]
    message = create(history)
    history += assistant_messages(message, "anthropic")
    results = group.run_tool_calls(message, [ImagePart.from_bytes(TALL)])
    by_hand: ToolResultBlockParam = {
        "type": "tool_result",
        "tool_use_id": results[0].call_id,
        "content": [image_block(TALL)],
    }
    with pytest.raises(anthropic.BadRequestError) as refused:
        create([*history, {"role": "user", "content": [by_hand]}])
    assert "exceed max allowed size: 8000 pixels" in str(refused.value)
    history += tool_result_messages(results, "anthropic")
    assert create(history).content[0] == anthropic.types.TextBlock(
        type="text", text="Seen.", citations=None
    )
