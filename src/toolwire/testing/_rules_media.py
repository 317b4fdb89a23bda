"""What every API's media rules read the same way: `data:` URLs and inline image bytes.

The pairing rules (each API package's `history`) say whether every call is answered in
the right place; each API package's `media` says whether the images and files in the
answers (and in user messages) are of a shape that API takes. They share these readers:
every live API answers 400 to inline image bytes (base64, or a `data:` URL) labelled
png, jpeg, gif or webp that are another of these or none (Anthropic: "the image appears
to be a image/png image"; Gemini: "Provided image is not valid"; OpenAI: "unsupported
image"), read from the bytes' signature, and to images cut short or corrupt, read from
their header and chunks.
"""

from __future__ import annotations

import base64
import binascii

from .._image_bytes import ImageHeader, read_image
from .._parts import is_data_url

__all__ = ["data_url_image_problem", "data_url_type", "image_bytes_problem", "inline_image"]

_SIGNED_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
"""The image types whose files start with a signature of their own, so their bytes can
be checked against their label."""
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def data_url_type(url: str) -> str | None:
    """The media type a `data:` URL declares (None for any other URL, or none declared)."""
    if not is_data_url(url):
        return None
    return url[5:].split(";", 1)[0].split(",", 1)[0] or None


def image_bytes_problem(media_type: str, encoded: str) -> str:
    """What the API says of inline image bytes labelled `media_type` ("" when they are
    what the label says, or the label or the text cannot be checked): png, jpeg, gif and
    webp files all start with their own signature."""
    if media_type not in _SIGNED_IMAGES:
        return ""
    head = encoded[:16]
    try:
        start = base64.b64decode(head + "=" * (-len(head) % 4), altchars=b"-_")
    except (binascii.Error, ValueError):
        return ""
    found = next((kind for magic, kind in _SIGNATURES if start.startswith(magic)), None)
    if found is None and start[:4] == b"RIFF" and start[8:12] == b"WEBP":
        found = "image/webp"
    if found == media_type:
        return _structure_problem(encoded)
    what = f"a {found.removeprefix('image/')} image" if found else "no png, jpeg, gif or webp image"
    return (
        f"image bytes labelled {media_type!r} that are {what} (the live API answers 400: it "
        "reads the bytes)"
    )


def _structure_problem(encoded: str) -> str:
    """What the API says of image bytes of the right type that do not decode: cut short
    or corrupt (a PNG cut after its signature, a bad chunk CRC, a JPEG without its end)."""
    header = inline_image(encoded)
    if not isinstance(header, str):
        return ""
    return f"image bytes that do not decode: {header} (the live API answers 400)"


def inline_image(encoded: str) -> ImageHeader | str | None:
    """`read_image` of base64 image bytes: their header, or why they do not decode; None
    when the text is not base64."""
    try:
        data = base64.b64decode(encoded + "=" * (-len(encoded) % 4), altchars=b"-_")
    except (binascii.Error, ValueError):
        return None
    return read_image(data)


def data_url_image_problem(url: str) -> str:
    """`image_bytes_problem` of a base64 `data:` URL ("" for any other URL)."""
    media_type = data_url_type(url)
    header, comma, data = url.partition(",")
    if media_type is None or not comma or not header.endswith(";base64"):
        return ""
    return image_bytes_problem(media_type, data)
