"""Whole images for tests, built here: a tool that returns an image returns one an API
can decode, and toolwire notes a cut or corrupt one instead of sending it. No image
library: each is written byte by byte (a PNG of one colour, a JPEG of mid-grey 8x8
blocks whose every coefficient is zero, the classic 1x1 GIF and WebP)."""

from __future__ import annotations

import base64
import struct
import zlib

__all__ = ["GIF", "JPEG", "PNG", "WEBP", "jpeg", "png", "png_chunk"]


def png_chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: its length, type, data and CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int = 1, height: int = 1, *, padding: int = 0) -> bytes:
    """A valid PNG of one colour; `padding` bytes more in an ancillary chunk (to reach a
    size limit with an image that is whole)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"".join(b"\x00" + b"\x10\x80\xf0" * width for _ in range(height)))
    extra = png_chunk(b"zzPd", bytes(padding)) if padding else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + extra
        + png_chunk(b"IDAT", pixels)
        + png_chunk(b"IEND", b"")
    )


def jpeg(width: int = 8, height: int = 8) -> bytes:
    """A valid baseline greyscale JPEG, mid-grey: one Huffman code (a single 0 bit) for a
    zero DC difference and one for end-of-block, so each 8x8 block is two bits."""

    def segment(marker: int, body: bytes) -> bytes:
        return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body

    blocks = -(-width // 8) * -(-height // 8)
    bits = "00" * blocks
    bits += "1" * (-len(bits) % 8)
    scan = int(bits, 2).to_bytes(len(bits) // 8, "big")
    one_code = bytes([1] + [0] * 15) + b"\x00"
    return (
        b"\xff\xd8"
        + segment(0xDB, b"\x00" + bytes([1] * 64))
        + segment(0xC0, struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00")
        + segment(0xC4, b"\x00" + one_code)
        + segment(0xC4, b"\x10" + one_code)
        + segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
        + scan
        + b"\xff\xd9"
    )


PNG = png()
JPEG = jpeg()
GIF = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")
WEBP = base64.b64decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
