"""Whether an image's bytes are whole enough to decode, and its size, read from its
header and chunk structure (png, jpeg, gif, webp; no image library).

Every API answers 400 to an image it cannot decode: a PNG cut after its signature, a
chunk whose CRC is wrong, a JPEG without its end marker. `read_image` walks just the
structure (PNG chunks and their CRCs, JPEG segments up to the scan and the end marker,
the GIF trailer, the WebP RIFF length) and says what is wrong, or gives the image's
width and height, which the size rules of the APIs need.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ImageHeader", "read_image"]

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""The JPEG start-of-frame markers (the others in C0-CF are tables and arithmetic codes)."""
_JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})
"""JPEG markers without a length: TEM and the restart markers."""


@dataclass(frozen=True, slots=True)
class ImageHeader:
    """What an image's bytes say about it: its type and size in pixels."""

    media_type: str
    width: int
    height: int


class _Broken(Exception):
    """Why the bytes do not decode (the message says it in the words of a note)."""


def read_image(data: bytes) -> ImageHeader | str:
    """The header of a png, jpeg, gif or webp image, or why its bytes cannot be decoded
    (a sentence for the model's note and the media report). Bytes of none of these
    types say so too."""
    view, head = memoryview(data), bytes(data[:16])
    try:
        if head[:8] == _PNG_SIGNATURE:
            return _png(view)
        if head[:3] == b"\xff\xd8\xff":
            return _jpeg(view)
        if head[:6] in (b"GIF87a", b"GIF89a"):
            return _gif(view)
        if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
            return _webp(view)
    except _Broken as broken:
        return str(broken)
    return "its bytes are not a png, jpeg, gif or webp image"


def _png(view: memoryview) -> ImageHeader:
    import zlib  # here, not at import: only a dispatch returning images reads them

    position, size = 8, None
    while True:
        if position + 8 > len(view):
            raise _Broken("its PNG data is cut short (it ends before its IEND chunk)")
        length = int.from_bytes(view[position : position + 4], "big")
        kind = bytes(view[position + 4 : position + 8]).decode("latin-1")
        end = position + 12 + length
        if end > len(view):
            raise _Broken(f"its PNG data is cut short (inside its {kind!r} chunk)")
        if size is None and (kind != "IHDR" or length != 13):
            raise _Broken("its PNG data does not start with an IHDR chunk (it is corrupt)")
        crc = int.from_bytes(view[end - 4 : end], "big")
        if zlib.crc32(view[position + 4 : end - 4]) != crc:
            raise _Broken(f"its PNG {kind!r} chunk fails its CRC check (the file is corrupt)")
        if size is None:
            body = view[position + 8 : position + 16]
            size = (int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big"))
        if kind == "IEND":
            return ImageHeader("image/png", *size)
        position = end


def _jpeg(view: memoryview) -> ImageHeader:
    position, size = 2, None
    while True:
        if position + 2 > len(view):
            raise _Broken("its JPEG data is cut short (it ends before its image data)")
        if view[position] != 0xFF:
            raise _Broken("its JPEG segments are corrupt (a marker is missing)")
        marker = view[position + 1]
        if marker == 0xFF:  # fill bytes before a marker
            position += 1
            continue
        if marker == 0xD9:
            raise _Broken("its JPEG data ends before its image data (it holds no scan)")
        if marker in _JPEG_STANDALONE:
            position += 2
            continue
        if position + 4 > len(view):
            raise _Broken("its JPEG data is cut short (inside a segment header)")
        length = int.from_bytes(view[position + 2 : position + 4], "big")
        if length < 2 or position + 2 + length > len(view):
            raise _Broken("its JPEG data is cut short (inside a segment)")
        if marker in _JPEG_FRAMES:
            if length < 7:
                raise _Broken("its JPEG frame header is corrupt")
            body = view[position + 5 : position + 9]
            size = (int.from_bytes(body[2:4], "big"), int.from_bytes(body[0:2], "big"))
        if marker == 0xDA:  # start of scan: the entropy-coded data follows, to the end
            break
        position += 2 + length
    if size is None or 0 in size:
        raise _Broken("its JPEG data has no frame header giving its size")
    if bytes(view[-2:]) != b"\xff\xd9" and bytes(view).rstrip(b"\x00")[-2:] != b"\xff\xd9":
        raise _Broken("its JPEG data is cut short (it has no end-of-image marker)")
    return ImageHeader("image/jpeg", *size)


def _gif(view: memoryview) -> ImageHeader:
    if len(view) < 14 or view[-1] != 0x3B:
        raise _Broken("its GIF data is cut short (it has no trailer)")
    width = int.from_bytes(view[6:8], "little")
    height = int.from_bytes(view[8:10], "little")
    return ImageHeader("image/gif", width, height)


def _webp(view: memoryview) -> ImageHeader:
    declared = int.from_bytes(view[4:8], "little") + 8
    if declared > len(view):
        raise _Broken("its WebP data is cut short (shorter than its RIFF header says)")
    kind = bytes(view[12:16])
    body = view[20:]
    if kind == b"VP8X" and len(body) >= 10:
        width = 1 + int.from_bytes(body[4:7], "little")
        height = 1 + int.from_bytes(body[7:10], "little")
    elif kind == b"VP8L" and len(body) >= 5 and body[0] == 0x2F:
        bits = int.from_bytes(body[1:5], "little")
        width, height = 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    elif kind == b"VP8 " and len(body) >= 10 and bytes(body[3:6]) == b"\x9d\x01\x2a":
        width = int.from_bytes(body[6:8], "little") & 0x3FFF
        height = int.from_bytes(body[8:10], "little") & 0x3FFF
    else:
        raise _Broken("its WebP data is corrupt (no VP8, VP8L or VP8X chunk it can be read by)")
    return ImageHeader("image/webp", width, height)
