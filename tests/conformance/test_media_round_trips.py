"""Recorded multimodal tool results: every image, document, audio and video the API
accepted reaches the model through toolwire, once, byte for byte (or the same URL or
file id), in the order the handler returned it, in a shape the API takes; what the API
rejected (audio on OpenAI: 400) is never sent, and the model reads a note instead.

Each case (tags `multimodal_tool_result` and `multimodal_sidecar_message`) is replayed
through the real SDK client over a mock transport. Its tool returns, as toolwire parts,
exactly the media and text the recorded follow-up carried for it (the recorder's own
placeholder texts, "See file ..." and "This is file ...:", left out). toolwire builds
the turn and its results, the SDK sends them, and the wire body is read back the same
way. The recorder placed some media inside the results and some in a separate message;
where toolwire puts them is its own documented choice (native where the API takes it;
Gemini models before 3 need `media="message"`), checked by `check_history`'s media rules.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from typing import Any, cast

import httpx2
import pytest

from tests.helpers import offline_gemini_client
from tests.shared_data import all_cases, require_shared
from toolwire._api import Api
from toolwire.core import (
    BaseFunctionToolModel,
    FilePart,
    ImagePart,
    MediaPlacement,
    ResultPart,
    ToolGroup,
    assistant_messages,
    media_report,
    tool_result_messages,
)
from toolwire.testing import check_history

API_OF = {
    "openai-chat": "chat.completions",
    "openai-responses": "responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
}
MEDIA_TAGS = {"multimodal_tool_result", "multimodal_sidecar_message"}
PLACEHOLDER = re.compile(r"(See file [0-9a-f]+\.|This is file [0-9a-f]+:)")
NOT_MEDIA = {
    "test_tool_search__test_anthropic_custom_callable_round_trip__i0": (
        "its 'multimodal' result is an Anthropic tool_reference block (tool search), not "
        "an image or file"
    )
}

Media = tuple[str, str, object]
"""(image or file, data / url / file_id, bytes or the URL or the id): what must arrive."""


def media_cases() -> list[str]:
    return [
        case["id"]
        for case in all_cases()
        if MEDIA_TAGS & set(case["notes"]) and case["id"] not in NOT_MEDIA
    ]


def _bytes(text: str) -> bytes:
    """Standard or URL-safe base64 (the recorder re-encoded Gemini's as URL-safe)."""
    text = text.replace("-", "+").replace("_", "/")
    return base64.b64decode(text + "=" * (-len(text) % 4))


def _data_url(url: str) -> tuple[str, bytes] | None:
    if not url.startswith("data:"):
        return None
    header, _, payload = url.partition(",")
    return header[5:].split(";")[0], base64.b64decode(payload)


# -- reading the media and texts of results out of a wire body -------------------------


class Found:
    """What a history tail gives the model for the one call: texts, then media in order."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.media: list[Media] = []
        self.parts: list[ResultPart] = []
        """The same as handler parts (to replay a recorded result as a tool's return)."""

    def text(self, text: str) -> None:
        if text and not PLACEHOLDER.fullmatch(text.strip()):
            for line in text.split("\n"):
                if line and not PLACEHOLDER.fullmatch(line.strip()):
                    self.texts.append(line)
                    self.parts.append(line)

    def image(self, *, data: bytes | None = None, media_type: str | None = None,
              url: str | None = None, file_id: str | None = None) -> None:  # fmt: skip
        self._add("image", ImagePart(data=data, media_type=media_type if data or file_id else None, url=url, file_id=file_id))  # fmt: skip

    def file(self, *, data: bytes | None = None, media_type: str | None = None,
             url: str | None = None, file_id: str | None = None, filename: str | None = None) -> None:  # fmt: skip
        part = FilePart(data=data, media_type=media_type, url=url, file_id=file_id, filename=filename)  # fmt: skip
        self._add("file", part)

    def _add(self, kind: str, part: ImagePart | FilePart) -> None:
        if part.data is not None:
            self.media.append((kind, "data", bytes(part.data)))
        elif part.url is not None:
            self.media.append((kind, "url", part.url))
        else:
            self.media.append((kind, "file_id", part.file_id))
        self.parts.append(part)


def _openai_part(found: Found, part: dict[str, Any]) -> None:
    kind = part.get("type")
    if kind in ("text", "input_text"):
        found.text(part["text"])
    elif kind == "image_url":
        _image_url(found, part["image_url"]["url"])
    elif kind == "input_image":
        if part.get("file_id"):
            found.image(file_id=part["file_id"])
        else:
            _image_url(found, part["image_url"])
    elif kind in ("file", "input_file"):
        spec = part.get("file", part)
        decoded = _data_url(spec.get("file_data", ""))
        if decoded is not None:
            found.file(data=decoded[1], media_type=decoded[0], filename=spec.get("filename"))
        elif spec.get("file_id"):
            found.file(file_id=spec["file_id"])
        else:
            found.file(url=spec["file_url"])
    elif kind == "input_audio":
        audio = part["input_audio"]
        media_type = "audio/mpeg" if audio["format"] == "mp3" else f"audio/{audio['format']}"
        found.file(data=base64.b64decode(audio["data"]), media_type=media_type)


def _image_url(found: Found, url: str) -> None:
    decoded = _data_url(url)
    if decoded is None:
        found.image(url=url)
    else:
        found.image(data=decoded[1], media_type=decoded[0])


def _anthropic_block(found: Found, block: dict[str, Any]) -> None:
    kind = block.get("type")
    source: dict[str, Any] = block.get("source") or {}
    if kind == "text":
        found.text(block["text"])
    elif kind in ("image", "document"):
        add = found.image if kind == "image" else found.file
        if source["type"] == "base64":
            add(data=base64.b64decode(source["data"]), media_type=source["media_type"])
        elif source["type"] == "text":
            found.file(data=source["data"].encode(), media_type=source["media_type"])
        elif source["type"] == "url":
            add(url=source["url"])
        else:
            add(file_id=source["file_id"])


def _gemini_part(found: Found, part: dict[str, Any]) -> None:
    blob = part.get("inlineData") or part.get("inline_data")
    uri = part.get("fileData") or part.get("file_data")
    if "text" in part:
        found.text(part["text"])
    elif blob is not None:
        media_type = blob.get("mimeType") or blob.get("mime_type")
        add = found.image if media_type.startswith("image/") else found.file
        add(data=_bytes(blob["data"]), media_type=media_type)
    elif uri is not None:
        media_type = uri.get("mimeType") or uri.get("mime_type")
        add = found.image if media_type.startswith("image/") else found.file
        add(file_id=uri.get("fileUri") or uri.get("file_uri"), media_type=media_type)


def _gemini_response_texts(found: Found, value: Any) -> None:
    if isinstance(value, str):
        found.text(value)
    elif isinstance(value, list):
        for item in cast("list[Any]", value):
            _gemini_response_texts(found, item)
    elif isinstance(value, dict) and value:
        mapping = cast("dict[str, Any]", value)
        if set(mapping) <= {"return_value", "files", "output", "error"}:
            for item in mapping.values():
                _gemini_response_texts(found, item)
        else:  # a structured value the tool returned, shown to the model as JSON
            found.text(json.dumps(mapping, separators=(",", ":")))


def found_in(api: Api, tail: list[dict[str, Any]]) -> Found:
    """Texts and media a history tail (the turn and what follows it) gives the model."""
    found = Found()
    for entry in tail:
        if api in ("chat.completions", "responses"):
            role = entry.get("role")
            if role == "assistant" or entry.get("type") in ("reasoning", "function_call"):
                continue
            body: Any = entry.get("content", entry.get("output"))
            if isinstance(body, str):
                found.text(body)
            else:
                for part in cast("list[dict[str, Any]]", body or []):
                    _openai_part(found, part)
        elif api == "anthropic":
            if entry["role"] != "user":
                continue
            for block in entry["content"]:
                if block["type"] == "tool_result":
                    inner = block.get("content")
                    if isinstance(inner, str):
                        found.text(inner)
                    else:
                        for item in cast("list[dict[str, Any]]", inner or []):
                            _anthropic_block(found, item)
                else:
                    _anthropic_block(found, block)
        else:
            if entry.get("role") == "model":
                continue
            for part in entry.get("parts", []):
                response = part.get("functionResponse") or part.get("function_response")
                if response is None:
                    _gemini_part(found, part)
                    continue
                _gemini_response_texts(found, response.get("response"))
                for media in cast("list[dict[str, Any]]", response.get("parts") or []):
                    _gemini_part(found, media)
    return found


# -- replaying a case through the real SDK client ------------------------------------


def _client(api: Api, replies: list[Any], sent: list[dict[str, Any]], model: str) -> Callable[[list[Any]], Any]:  # fmt: skip
    """A function sending a history through the real client; bodies land in `sent`."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        return httpx2.Response(200, json=replies[0])

    http = httpx2.Client(transport=httpx2.MockTransport(handle))
    if api in ("chat.completions", "responses"):
        from openai import OpenAI

        openai = OpenAI(api_key="k", http_client=http)
        if api == "chat.completions":
            return lambda history: openai.chat.completions.create(model=model, messages=history)
        return lambda history: openai.responses.create(model=model, input=history)
    if api == "anthropic":
        from anthropic import Anthropic

        claude = Anthropic(api_key="k", http_client=http)
        return lambda history: claude.messages.create(model=model, max_tokens=64, messages=history)
    gemini = offline_gemini_client(http)
    return lambda history: gemini.models.generate_content(model=model, contents=history)


HISTORY_KEY = {"chat.completions": "messages", "responses": "input", "anthropic": "messages", "gemini": "contents"}  # fmt: skip


def _prompt(api: Api) -> Any:
    if api == "gemini":
        return {"role": "user", "parts": [{"text": "Go."}]}
    return {"role": "user", "content": "Go."}


@pytest.mark.parametrize("case_id", media_cases())
def test_recorded_media_reach_the_model(case_id: str) -> None:
    require_shared()
    case = next(case for case in all_cases() if case["id"] == case_id)
    api: Api = API_OF[case["api"]]  # pyright: ignore[reportAssignmentType]
    model = case["endpoint"].rsplit("/models/", 1)[-1].split(":")[0] if api == "gemini" else "m"
    key = HISTORY_KEY[api]
    recorded_history: list[Any] = case["followup_request"][key]
    before: Any = case["request"][key]
    start = len(cast("list[Any]", before)) if isinstance(before, list) else 1
    recorded = found_in(api, recorded_history[start:])

    assert recorded.media, "every case carries at least one image or file"
    name = case["tool_results"][0]["name"]

    class Tool(BaseFunctionToolModel[None, None]):
        """Returns what the recorded tool returned."""

        model_tool_custom_name = name
        model_tool_custom_json_schema = {"type": "object", "properties": {}}

        def model_tool_handler(self, context: None) -> tuple[list[ResultPart], None]:
            return recorded.parts, None

    group = ToolGroup.from_list([Tool])
    sent: list[dict[str, Any]] = []
    send = _client(api, [case["response"]], sent, model)
    response = send([_prompt(api)])
    results = group.run_tool_calls(response, None)
    assert [r.fail_reason for r in results] == [None]
    media: MediaPlacement = "message" if model.startswith("gemini-2") else "native"
    tail = [*assistant_messages(response, api), *tool_result_messages(results, api, media=media)]
    send([_prompt(api), *tail])
    wire_tail: list[dict[str, Any]] = sent[-1][key][1:]
    delivered = found_in(api, wire_tail)
    report = media_report(results, api, media=media)
    history = [_prompt(api), *tail]

    assert all(text in delivered.texts for text in recorded.texts), (
        recorded.texts,
        delivered.texts,
    )
    if case["followup_status"] == 200:
        assert report.undelivered == ()
        assert delivered.media == recorded.media  # each once, in order, byte for byte
        assert check_history(history, api, model=model) == []
    else:  # the API answered 400 to what was sent: toolwire must not send it
        rejected = {m[2] for m in recorded.media}
        assert [d.part for d in report.undelivered] == [
            p for p in recorded.parts if not isinstance(p, str)
        ]
        assert not rejected & {m[2] for m in delivered.media}
        assert any("could not be shown to you" in text for text in delivered.texts)
        assert check_history(history, api, model=model) == []
