"""Media between MCP and the model APIs, both ways. As a client: structured content
that only repeats a media block is not sent again as base64 text; an image's type
follows its bytes (`image/jpg`, a PNG labelled JPEG); a blob resource of a text type is
read as text. As a server: images go out as the type their bytes are, and bytes that
are no image become a note. Against the SDK's own server and client, in process."""

from __future__ import annotations

import base64
import json
from typing import Any

import mcp_types as types
from inline_snapshot import snapshot
from mcp import Client

from tests.images import JPEG
from toolwire import core
from toolwire.aio import ToolGroup, tool_result_messages
from toolwire.core import FilePart, ImagePart
from toolwire.mcp import MCPTools, mcp_server

from .servers import call, lowlevel_server, run

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d4944415478da63902fdff21f00044d024acc1db5fa0000000049454e44ae426082"
)
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + b"\xff\xfb\x90\x00" * 4


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def image(data: bytes, mime_type: str) -> types.ImageContent:
    return types.ImageContent(data=b64(data), mime_type=mime_type)


def blob(uri: str, mime_type: str, data: bytes) -> types.EmbeddedResource:
    return types.EmbeddedResource(
        resource=types.BlobResourceContents(uri=uri, mime_type=mime_type, blob=b64(data))
    )


REPLIES: dict[str, types.CallToolResult] = {
    # server-filesystem's read_media_file: the block, and the block again as structured
    # content (which the SDK's client checks against the tool's outputSchema).
    "read_media_file": types.CallToolResult(
        content=[image(PNG, "image/png")],
        structured_content={
            "content": [{"type": "image", "data": b64(PNG), "mimeType": "image/png"}]
        },  # fmt: skip
    ),
    # Structured content that says more than the blocks: its text goes, the media in it
    # is named instead of repeated.
    "chart": types.CallToolResult(
        content=[types.TextContent(text="{...}"), image(PNG, "image/png")],
        structured_content={"title": "Sales", "points": 3, "png": b64(PNG)},
    ),
    "labels": types.CallToolResult(
        content=[
            image(JPEG, "image/jpg"),
            image(PNG, "image/jpeg"),
            types.AudioContent(data=b64(MP3), mime_type="audio/mp3"),
            blob("file:///report.pdf", "application/octet-stream", b"%PDF-1.7\n..."),
        ]
    ),
    "text_blobs": types.CallToolResult(
        content=[
            blob("file:///config.json", "application/json", '{"café": 1}'.encode()),
            blob("file:///feed.xml", "application/atom+xml", b"<feed/>"),
            blob(
                "file:///ci.yaml",
                "application/yaml; charset=latin-1",
                "név: Zoé".encode("latin-1"),
            ),  # fmt: skip
            blob("file:///bad.json", "application/json", b"\xff\xfe\x00"),
        ]
    ),
}


def test_a_client_sends_media_once_and_as_the_type_its_bytes_are() -> None:
    tools = [types.Tool(name=name, input_schema={"type": "object"}) for name in REPLIES]

    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return REPLIES[name]

    async def body() -> list[Any]:
        async with Client(lowlevel_server(tools, answer)) as client:
            loaded = await MCPTools.load(client)
            group = ToolGroup.from_list(loaded.tools)
            return await group.run_tool_calls([call(n, n) for n in REPLIES], None)

    media, chart, labels, text_blobs = run(body)
    assert media.result_parts == (ImagePart(data=PNG, media_type="image/png"),)
    # What the model gets: the image, and no base64 text.
    message: Any = tool_result_messages([media], "anthropic")[0]
    assert [block["type"] for block in message["content"][0]["content"]] == ["image"]
    assert chart.result_parts == (
        json.dumps({"title": "Sales", "points": 3, "png": "(image/png image, sent as that image)"}),
        ImagePart(data=PNG, media_type="image/png"),
    )
    assert labels.result_parts == (
        ImagePart(data=JPEG, media_type="image/jpeg"),
        ImagePart(data=PNG, media_type="image/png"),
        FilePart(data=MP3, media_type="audio/mpeg"),
        FilePart(data=b"%PDF-1.7\n...", media_type="application/pdf", filename="report.pdf"),
    )
    assert text_blobs.result_parts == snapshot(
        (
            """\
[resource file:///config.json]
{"café": 1}\
""",
            """\
[resource file:///feed.xml]
<feed/>\
""",
            """\
[resource file:///ci.yaml]
név: Zoé\
""",
            "[the server sent file:///bad.json as application/json, but its content is not utf-8 text; it was dropped]",
        )
    )


def picture_tool(parts: list[Any]) -> type[core.BaseFunctionToolModel[None, None]]:
    class picture(core.BaseFunctionToolModel[None, None]):
        """Pictures."""

        def model_tool_handler(self, context: None) -> tuple[list[Any], None]:
            return parts, None

    return picture


def test_a_server_sends_images_as_the_type_their_bytes_are() -> None:
    parts = [
        ImagePart(data=JPEG, media_type="image/png"),
        ImagePart(data=PNG, media_type="image/png"),
        ImagePart(data=b"<html>Not found</html>", media_type="image/png"),
        FilePart(data=MP3, media_type="audio/mp3"),
    ]
    server = mcp_server(core.ToolGroup.from_list([picture_tool(parts)]))

    async def body() -> types.CallToolResult:
        async with Client(server) as client:
            return await client.call_tool("picture", {})

    result = run(body)
    assert [block.model_dump(exclude_none=True) for block in result.content] == snapshot(
        [
            {
                "type": "image",
                "data": "/9j/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIAAgBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AP//Z",
                "mime_type": "image/jpeg",
            },
            {
                "type": "image",
                "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mOQL9/yHwAETQJKzB21+gAAAABJRU5ErkJggg==",
                "mime_type": "image/png",
            },
            {
                "type": "text",
                "text": "[an image was left out: its bytes are not a png, jpeg, gif or webp image, though its media_type says image/png]",
            },
            {
                "type": "audio",
                "data": "SUQzBAAAAAAAAP/7kAD/+5AA//uQAP/7kAA=",
                "mime_type": "audio/mpeg",
            },
        ]
    )
