"""Media a handler returns: `ImagePart` and `FilePart`, next to plain `str` text, and
`SearchResultPart`, a search result the model may cite.

A handler returns `(text, context)` as always, or `(parts, context)` where `parts` is a
sequence of `str`, `ImagePart` and `FilePart`, in the order the model should see them.
Each adapter renders them natively where its API takes media in a tool result, and
falls back the documented way where it does not (see `toolwire._media`).

Each media part has exactly one source: `data` (bytes, with `media_type`), `url`, or
`file_id` (a file uploaded to one provider: OpenAI's `file-...`, Anthropic's
`file_...`, Gemini's file URI). Build them from a path or bytes in one call:
`ImagePart.from_path("chart.png")`, `FilePart.from_bytes(pdf_bytes)`. A part no API
could take raises `MediaError` when it is made: empty `data`, a file path given as
`url`, a type no API reads.

A `data:` URL (RFC 2397, base64 or percent-encoded) is bytes written as a URL: it is
read when the part is made (a malformed one raises `MediaError` then), and every API
gets its bytes exactly as if they were given as `data`, with the same checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from typing_extensions import TypeAliasType

from ._references import ToolReference, references_text
from .exceptions import MediaError

if TYPE_CHECKING:
    from ._image_bytes import ImageHeader

__all__ = [
    "FilePart",
    "IMAGE_TYPES",
    "ImageDetail",
    "ImagePart",
    "MediaPart",
    "ResultPart",
    "SearchResultPart",
    "ToolContent",
    "guess_media_type",
    "is_data_url",
    "media_kind",
    "media_type_of",
    "media_essence",
    "parts_text",
    "read_data_url",
    "search_result_text",
    "text_charset",
]

IMAGE_TYPES = frozenset(
    {"image/png", "image/jpeg", "image/gif", "image/webp", "image/heic", "image/heif"}
)
"""Image types some API takes (OpenAI: png, jpeg, gif, webp; Anthropic: the same;
Gemini: png, jpeg, webp, heic, heif)."""

_FILE_KINDS = ("application/pdf", "text/", "audio/", "video/")
"""Prefixes of the file types some API takes: PDFs, text, audio and video."""


def media_type_of(part: ImagePart | FilePart) -> str | None:
    """The part's media type, or the one its `data:` URL names, or the one its URL's
    extension says (`.mp3`, `.pdf`...)."""
    if part.media_type is not None or part.url is None:
        return part.media_type
    if is_data_url(part.url):
        return _data_url_header(part.url)[0] or _DATA_URL_DEFAULT_TYPE
    import mimetypes  # here, not at import: a plain dispatch guesses no media type

    guessed, _ = mimetypes.guess_type(part.url.split("?", 1)[0])
    return guessed


def media_kind(media_type: str | None) -> str:
    """ "image", "document" (PDF, text), "audio", "video", or "unknown" (no type given)."""
    if media_type is None:
        return "unknown"
    if media_type.startswith("image/"):
        return "image"
    if media_type.startswith("audio/"):
        return "audio"
    if media_type.startswith("video/"):
        return "video"
    return "document"


ImageDetail = Literal["auto", "low", "high", "original"]
"""`ImagePart.detail`: OpenAI's image detail levels."""
_DETAILS: tuple[str, ...] = get_args(ImageDetail)


class _WorkedOut:
    """What rendering works out from a media part once and keeps on it for the next
    placement or render of the same part (see `toolwire._media.inline` and
    `image_header`): the part with its `data:` URL read, and its image check. Slots, not
    fields: `repr`, `==`, hashing, pickling and `dataclasses.replace` never see them."""

    __slots__ = ("_image_check", "_inlined")

    _inlined: ImagePart | FilePart | None
    """`inline(part)`; None when that is the part itself."""
    _image_check: ImageHeader | str | None
    """`image_header(part)`: the image's header, why it does not decode, or None."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ImagePart(_WorkedOut):
    """An image for the model: `data` with `media_type`, or a `url`, or a provider
    `file_id`. `ImagePart.from_path(...)` and `ImagePart.from_bytes(...)` fill the media
    type in."""

    data: bytes | None = None
    """The image's bytes (sent base64-encoded, inline)."""
    media_type: str | None = None
    """`image/png`, `image/jpeg`, `image/gif`, `image/webp` (also heic/heif for Gemini).
    Required with `data`; optional with `url` or `file_id` (Gemini needs it there; a
    `data:` URL names its own)."""
    url: str | None = None
    """A URL the API fetches itself (`https://...`), or a `data:` URL
    (`data:image/png;base64,...`), whose bytes every API gets inline, as with `data`."""
    file_id: str | None = None
    """A file uploaded to the provider you send it to (it belongs to that one provider)."""
    detail: ImageDetail | None = None
    """How closely OpenAI's models look at the image (Chat Completions and Responses
    `detail`; None: the API's default, "auto"). Anthropic and Gemini have no such
    setting: there it changes nothing."""

    def __post_init__(self) -> None:
        _check_source(self)
        _keep_bytes(self)
        _normalize_type(self)
        if self.detail is not None and self.detail not in _DETAILS:
            raise MediaError(
                f"ImagePart detail={self.detail!r}: OpenAI takes "
                f"{', '.join(map(repr, _DETAILS))}, or None for its default."
            )
        media_type = self.media_type
        if self.url is not None and is_data_url(self.url):
            media_type = read_data_url(self)[0]
        if media_type is not None and media_type not in IMAGE_TYPES:
            raise MediaError(
                f"ImagePart media_type {media_type!r} is not an image type any API takes "
                f"({', '.join(sorted(IMAGE_TYPES))}). Convert the image, or send other "
                "files as FilePart."
            )

    @classmethod
    def from_bytes(cls, data: bytes, media_type: str | None = None) -> ImagePart:
        """An inline image; the media type is read from the bytes' signature when not given."""
        return cls(data=data, media_type=media_type or _required_type(data, None, "ImagePart"))

    @classmethod
    def from_path(cls, path: str | Path, media_type: str | None = None) -> ImagePart:
        """An inline image read from a file; the media type comes from its bytes or name."""
        data = Path(path).read_bytes()
        return cls(data=data, media_type=media_type or _required_type(data, path, "ImagePart"))


@dataclass(frozen=True, slots=True, kw_only=True)
class FilePart(_WorkedOut):
    """A document, audio or video file for the model: `data` with `media_type`, or a
    `url`, or a provider `file_id`; `filename` is shown where the API takes one.
    `FilePart.from_path(...)` and `FilePart.from_bytes(...)` fill the media type in."""

    data: bytes | None = None
    """The file's bytes (sent base64-encoded, inline; text documents as text)."""
    media_type: str | None = None
    """What it is: `application/pdf`, `text/plain` (or another `text/...`), `audio/...`,
    `video/...`. Required with `data`; optional with `url` or `file_id`."""
    url: str | None = None
    """A URL the API fetches itself (`https://...`), or a `data:` URL
    (`data:application/pdf;base64,...`), whose bytes every API gets inline, as with
    `data`."""
    file_id: str | None = None
    """A file uploaded to the provider you send it to (it belongs to that one provider)."""
    filename: str | None = None
    """The file's name, where the API shows one to the model."""

    def __post_init__(self) -> None:
        _check_source(self)
        _keep_bytes(self)
        _normalize_type(self)
        media_type = self.media_type
        if self.url is not None and is_data_url(self.url):
            media_type = read_data_url(self)[0]
        if media_type is None:
            return
        if media_type.startswith("image/"):
            raise MediaError(
                f"FilePart has the image type {media_type!r}: send images as ImagePart, "
                "which every API renders as an image."
            )
        if not media_type.startswith(_FILE_KINDS):
            raise MediaError(
                f"No API takes a {media_type!r} file in a tool result. Send PDFs, text "
                "(text/...), audio or video as FilePart, put the file's text in a str "
                "part, or convert it to PDF."
            )

    @classmethod
    def from_bytes(
        cls, data: bytes, media_type: str | None = None, *, filename: str | None = None
    ) -> FilePart:
        """An inline file; the media type is read from `filename` or the bytes'
        signature when not given."""
        media_type = media_type or _required_type(data, filename, "FilePart")
        return cls(data=data, media_type=media_type, filename=filename)

    @classmethod
    def from_path(
        cls, path: str | Path, media_type: str | None = None, *, filename: str | None = None
    ) -> FilePart:
        """An inline file read from disk; `filename` defaults to the file's name."""
        path = Path(path)
        data = path.read_bytes()
        media_type = media_type or _required_type(data, path, "FilePart")
        return cls(data=data, media_type=media_type, filename=filename or path.name)


@dataclass(frozen=True, slots=True)
class SearchResultPart:
    """A search result a handler returns (a document, a page, a knowledge-base hit) with
    its source and title, so the model can cite it.

    Anthropic gets a `search_result` block inside the tool result (with
    `citations=True`, its answer cites the result's text by source and title); the other
    APIs, which have no such block, read `search_result_text(part)`: the title and source
    on one line, then the text (`media_report` says so). `content` is the result's text,
    or its passages in order (each one text block, cited separately).
    """

    source: str
    """Where the result comes from: a URL, a file path, a document id."""
    title: str
    """The result's title."""
    content: str | Sequence[str]
    """The result's text, or its passages."""
    citations: bool | None = None
    """Whether Anthropic may cite it (`citations.enabled`); None: the API's default (off)."""

    def __post_init__(self) -> None:
        passages = (self.content,) if isinstance(self.content, str) else tuple(self.content)
        fields = {"source": self.source, "title": self.title}
        for name, value in fields.items():
            if not isinstance(value, str) or not value:
                raise MediaError(f"SearchResultPart {name} must be a non-empty str, not {value!r}.")
        if not passages or not all(isinstance(p, str) and p for p in passages):
            raise MediaError(
                "SearchResultPart content must be a non-empty str or a sequence of non-empty "
                f"str (its passages), not {self.content!r}."
            )
        if self.citations is not None and not isinstance(self.citations, bool):
            raise MediaError(
                f"SearchResultPart citations must be a bool or None, not {self.citations!r}."
            )
        if not isinstance(self.content, str):
            object.__setattr__(self, "content", passages)  # a list given: kept as a tuple

    @property
    def passages(self) -> tuple[str, ...]:
        """The result's text blocks, in order."""
        return (self.content,) if isinstance(self.content, str) else tuple(self.content)


def search_result_text(part: SearchResultPart) -> str:
    """A search result as text, for the APIs without search result blocks."""
    return "\n".join((f"[Search result: {part.title} (source: {part.source})]", *part.passages))


MediaPart = TypeAliasType("MediaPart", ImagePart | FilePart)
"""An image or a file a handler returns."""

ResultPart = TypeAliasType(
    "ResultPart", str | ImagePart | FilePart | ToolReference | SearchResultPart
)
"""One part of a handler's result: text, an image, a file, a reference loading a
deferred tool, or a search result."""

if TYPE_CHECKING:
    ToolContent = TypeAliasType(
        "ToolContent",
        str | Sequence[str | ImagePart | FilePart | ToolReference | SearchResultPart],
    )
    """What a handler returns in the first slot: text, or parts in the order the model
    should see them."""
else:
    ToolContent = TypeAliasType("ToolContent", str | Sequence[ResultPart])


def _check_source(part: ImagePart | FilePart) -> None:
    kind = type(part).__name__
    sources = [name for name in ("data", "url", "file_id") if getattr(part, name) is not None]
    if len(sources) != 1:
        given = f"gets {' and '.join(sources)}" if sources else "gets none"
        raise MediaError(
            f"{kind} takes exactly one source, data (bytes), url or file_id; this one "
            f"{given}. Build one part per source."
        )
    if part.data is not None:
        if not isinstance(part.data, bytes | bytearray | memoryview):
            raise MediaError(
                f"{kind}.data must be bytes, not {type(part.data).__name__}; for text, "
                "return a str part (or encode it and give media_type='text/plain')."
            )
        if part.media_type is None:
            raise MediaError(
                f"{kind}(data=...) needs a media_type; {kind}.from_bytes(data) reads it "
                "from the bytes' signature."
            )
        if not part.data:
            raise MediaError(
                f"{kind}.data is empty: every API rejects an empty image or file. Leave "
                "the part out, or say in a str part that there is nothing to show."
            )
    for name in ("url", "file_id"):
        value = getattr(part, name)
        if value is not None and (not isinstance(value, str) or not value):
            raise MediaError(f"{kind}.{name} must be a non-empty string, not {value!r}.")
    if part.url is not None and not _is_url(part.url):
        raise MediaError(
            f"{kind}.url {part.url!r} is not a URL an API can fetch: give an https:// URL "
            f"or a data: URL, or read a file on this machine with {kind}.from_path(path)."
        )


def _is_url(text: str) -> bool:
    """Whether `text` starts with a URL scheme (RFC 3986) an API could fetch: not a
    file path (no scheme, a Windows drive letter, `file:`)."""
    scheme, colon, _ = text.partition(":")
    return (
        bool(colon)
        and len(scheme) > 1
        and scheme.isascii()
        and scheme[0].isalpha()
        and all(c.isalnum() or c in "+-." for c in scheme)
        and scheme.lower() != "file"
    )


def _keep_bytes(part: ImagePart | FilePart) -> None:
    """Store `data` given as a bytearray or memoryview as bytes: the part stays immutable
    and hashable, and every renderer reads one type."""
    if part.data is not None and not isinstance(part.data, bytes):
        object.__setattr__(part, "data", bytes(part.data))


def _normalize_type(part: ImagePart | FilePart) -> None:
    """Store the part's media type as the APIs want it: the type and subtype lowercased,
    with only a text type's `charset` kept (as `text/csv; charset=iso-8859-1`); no API
    reads other parameters. A type that is no `type/subtype`, or a charset Python does
    not know, raises `MediaError`."""
    if part.media_type is None:
        return
    kind = type(part).__name__
    given = part.media_type
    if not isinstance(given, str):
        raise MediaError(f"{kind}.media_type must be a string, not {type(given).__name__}.")
    essence, *params = given.split(";")
    essence = essence.strip().lower()
    if essence.count("/") != 1 or not all(essence.split("/")) or " " in essence:
        raise MediaError(
            f"{kind}.media_type {given!r} is not a media type: write type/subtype, such as "
            "'image/png' or 'text/csv; charset=utf-8'."
        )
    normalized = essence
    charset = _charset_param(params)
    if charset is not None and essence.startswith("text/"):
        import codecs  # see `media_type_of`

        try:
            codecs.lookup(charset)
        except LookupError:
            raise MediaError(
                f"{kind}.media_type {given!r} names the charset {charset!r}, which Python "
                "does not know: name the text's encoding as Python's codecs do ('utf-8', "
                "'iso-8859-1', 'windows-1252', 'shift_jis'...)."
            ) from None
        if not _decodes_text(charset):
            raise MediaError(
                f"{kind}.media_type {given!r} names the charset {charset!r}, a Python codec "
                "that is no text encoding (it decodes no bytes to text): name the text's "
                "encoding ('utf-8', 'iso-8859-1', 'windows-1252', 'shift_jis'...), or give "
                "the bytes it decodes to."
            )
        normalized = f"{essence}; charset={charset}"
    if normalized != given:
        object.__setattr__(part, "media_type", normalized)


def _decodes_text(charset: str) -> bool:
    """Whether a codec Python knows decodes bytes to text: not a bytes-to-bytes or
    text-to-text codec (`base64`, `zlib`, `rot13`: `bytes.decode` refuses them with
    `LookupError`), nor `undefined`, which refuses every input."""
    try:
        b"a".decode(charset)
    except UnicodeDecodeError:
        return True  # a text encoding that needs more bytes (UTF-16, UTF-32)
    except (LookupError, UnicodeError):
        return False
    return True


def _charset_param(params: Sequence[str]) -> str | None:
    """The `charset` among a media type's parameters, lowercased and unquoted."""
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower() or None
    return None


def media_essence(media_type: str) -> str:
    """A media type without its parameters: `text/csv` of `text/csv; charset=utf-8`."""
    return media_type.split(";", 1)[0]


def text_charset(media_type: str | None) -> str | None:
    """The charset a (normalized) text media type names, or None when it names none."""
    if media_type is None or ";" not in media_type:
        return None
    return _charset_param(media_type.split(";")[1:])


_DATA_URL_DEFAULT_TYPE = "text/plain"
"""The type of a `data:` URL that names none (RFC 2397: `text/plain;charset=US-ASCII`)."""


def is_data_url(url: str) -> bool:
    """Whether `url` is a `data:` URL (the scheme in any case, as RFC 3986 allows)."""
    return url[:5].lower() == "data:"


def read_data_url(part: ImagePart | FilePart) -> tuple[str, bytes]:
    """The media type and the bytes of the part's `data:` URL (RFC 2397).

    The type is the one the URL names (lowercased, parameters dropped), else the part's
    `media_type`, else `text/plain` (RFC 2397's default). The data is base64 (ASCII
    whitespace and missing padding forgiven) or percent-encoded; text in a `charset`
    other than UTF-8 is converted to UTF-8, as the APIs read text. A URL that cannot be
    read, holds no bytes, or names a type other than the part's `media_type` raises
    `MediaError` saying what to write instead.
    """
    kind = type(part).__name__
    assert part.url is not None
    try:
        named, data = _decode_data_url(part.url)
    except ValueError as error:
        raise MediaError(
            f"{kind}.url is a data: URL that cannot be read: {error}. Write it as "
            "data:<media type>;base64,<the bytes in base64> (RFC 2397), or give the bytes "
            f"themselves: {kind}.from_bytes(data, media_type)."
        ) from None
    given = None if part.media_type is None else media_essence(part.media_type)
    if named is not None and given is not None and named != given:
        raise MediaError(
            f"{kind}.url is a data: URL of type {named!r}, but media_type is "
            f"{part.media_type!r}. Give one type: drop media_type, or fix the URL."
        )
    media_type = named or part.media_type
    if media_type is None:
        if isinstance(part, ImagePart):
            raise MediaError(
                "ImagePart.url is a data: URL that names no media type (RFC 2397 reads it "
                "as text/plain). Write data:image/png;base64,... (or the image's own type), "
                "or pass media_type."
            )
        media_type = _DATA_URL_DEFAULT_TYPE
    return media_type, data


def _data_url_header(url: str) -> tuple[str | None, str | None, bool, int]:
    """(the named media type or None, its charset or None, base64 or not, where the data
    starts) of a `data:` URL; ValueError when it has no comma or names no valid type."""
    comma = url.find(",", 5)
    if comma < 0:
        raise ValueError("it has no comma before its data")
    params = [param.strip() for param in url[5:comma].split(";")]
    is_base64 = len(params) > 1 and params[-1].lower() == "base64"
    media_type = params[0].lower() or None
    if media_type is not None and (
        media_type.count("/") != 1 or not all(media_type.split("/")) or " " in media_type
    ):
        raise ValueError(f"{params[0]!r} is not a media type (type/subtype)")
    return media_type, _charset_param(params[1:]), is_base64, comma + 1


def _decode_data_url(url: str) -> tuple[str | None, bytes]:
    import binascii  # here, not at import: see `media_type_of`
    from urllib.parse import unquote_to_bytes

    media_type, charset, is_base64, start = _data_url_header(url)
    raw = unquote_to_bytes(url[start:])
    if is_base64:
        compact = raw.translate(None, b" \t\n\r\f")
        if len(compact) % 4 == 1:
            raise ValueError("its base64 data has a length no base64 text can have")
        try:
            raw = binascii.a2b_base64(compact + b"=" * (-len(compact) % 4), strict_mode=True)
        except binascii.Error:
            raise ValueError(
                "its data is not base64 (a character outside it, or padding inside)"
            ) from None
    if not raw:
        raise ValueError("it holds no data")
    if charset is not None and (media_type or "text/").startswith("text/"):
        import codecs

        try:
            if codecs.lookup(charset).name != "ascii":  # the APIs read UTF-8 (ASCII is)
                raw = raw.decode(charset).encode("utf-8")
        except LookupError:
            raise ValueError(f"its charset {charset!r} is not one Python knows") from None
        except UnicodeDecodeError:
            raise ValueError(f"its text is not {charset}, the charset it names") from None
    return media_type, raw


_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"%PDF-", 0, "application/pdf"),
    (b"ID3", 0, "audio/mpeg"),
    (b"OggS", 0, "audio/ogg"),
    (b"fLaC", 0, "audio/flac"),
    (b"\x1a\x45\xdf\xa3", 0, "video/webm"),
)
"""Magic bytes at an offset, and the media type they announce."""


def guess_media_type(data: bytes, filename: str | Path | None = None) -> str | None:
    """The media type of `data`, from its signature, else from `filename`'s extension;
    None when neither says."""
    head = bytes(data[:16])
    for magic, offset, media_type in _SIGNATURES:
        if head[offset : offset + len(magic)] == magic:
            return media_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "audio/wav"
    if head[4:8] == b"ftyp":  # ISO media: mp4, mov, heic, m4a
        brand = head[8:12]
        if brand in (b"heic", b"heix", b"mif1"):
            return "image/heic"
        if brand == b"M4A ":
            return "audio/mp4"
        if brand == b"qt  ":
            return "video/quicktime"
        return "video/mp4"
    if head[:2] in (b"\xff\xfb", b"\xff\xf3", b"\xff\xf2"):
        return "audio/mpeg"
    if filename is not None:
        import mimetypes  # see `media_type_of`

        guessed, _ = mimetypes.guess_type(str(filename))
        if guessed is not None:
            return guessed
    return None


def _required_type(data: bytes, filename: str | Path | None, kind: str) -> str:
    media_type = guess_media_type(data, filename)
    if media_type is None:
        named = f" or the name {str(filename)!r}" if filename is not None else ""
        raise MediaError(
            f"Cannot tell what these {len(data):,} bytes are from their signature{named}. "
            f"Pass media_type= to {kind}.from_bytes / from_path (e.g. 'application/pdf', "
            "'text/plain', 'image/png')."
        )
    return media_type


def parts_text(parts: Sequence[ResultPart]) -> str:
    """A result's `result_content` for `parts`: its text and search-result parts (as
    text) joined by newlines, then the text naming the tools its `ToolReference` parts
    load, on its own line."""
    text = "\n".join(
        p if isinstance(p, str) else search_result_text(p)
        for p in parts
        if isinstance(p, str | SearchResultPart)
    )
    references = [p for p in parts if isinstance(p, ToolReference)]
    if references:  # the text the APIs without references read, on its own line
        text = "\n".join(t for t in (text, references_text(references)) if t)
    return text
