"""Where each image and file of a result goes, per API: the neutral half.

Each API's results module decides, part by part, one of three placements:

- "native": inside the tool result itself (Responses `function_call_output.output`,
  Anthropic `tool_result.content`, Gemini `FunctionResponse.parts`);
- "message": in one user message right after the turn's results (Chat Completions,
  whose tool messages take text only; Gemini audio and video; any API with
  `media="message"`);
- "note": nowhere the API takes it (audio on the OpenAI APIs, which answer 400; a
  document URL on Chat Completions...). The model reads a short note in the result's
  text instead, and `media_report` tells the caller what was not delivered and why.

A part given as a `data:` URL is placed as the bytes it holds (`inline`): every API
gets them in its inline form (base64 source, inline data, a base64 `data:` URL), after
the same type and size checks as bytes given as `data`.

Nothing is dropped silently. Error results are text only.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from ._image_bytes import ImageHeader, read_image
from ._parts import (
    FilePart,
    ImagePart,
    MediaPart,
    ResultPart,
    SearchResultPart,
    guess_media_type,
    is_data_url,
    media_essence,
    media_kind,
    media_type_of,
    read_data_url,
    search_result_text,
    text_charset,
)
from ._references import ToolReference, references_text

if TYPE_CHECKING:
    from ._api import Api
    from ._result import ToolCallResult

__all__ = [
    "ChosenPlacement",
    "MediaDelivery",
    "MediaPlacement",
    "MediaReport",
    "Placement",
    "Rule",
    "any_parts",
    "attachments_intro",
    "attachments_line",
    "b64",
    "b64_size",
    "data_url",
    "describe",
    "image_bytes_problem",
    "image_bytes_type",
    "image_header",
    "file_text",
    "image_type_outside",
    "inline",
    "laid_out",
    "media_bytes_problem",
    "media_parts",
    "moved_media",
    "note_for",
    "plan",
    "text_bytes_problem",
    "text_of",
    "text_with_notes",
]

MediaPlacement = Literal["auto", "native", "message"]
"""What `tool_result_messages(..., media=...)` asks for: media inside the results where
the API allows ("native"), in one user message right after them ("message"), or where
the model that made the calls takes them ("auto", the default: "native" except on
Gemini, where it is "native" for Gemini 3 models and "message" for earlier or unnamed
ones, which every Gemini model reads)."""

ChosenPlacement = Literal["native", "message"]
"""A `MediaPlacement` with "auto" decided for one API and model."""

Placement = Literal["native", "message", "note"]

T = TypeVar("T")

Rule = Callable[[MediaPart, MediaPlacement], "tuple[Placement, str]"]
"""One API's decision for a part: its placement, and why when it is not "native"."""


@dataclass(frozen=True, slots=True)
class MediaDelivery:
    """Where one image, file or search result of a result went.

    Attributes:
        call_id: the call whose result it belongs to.
        name: the tool name.
        part: the `ImagePart`, `FilePart` or `SearchResultPart`.
        placement: "native" (inside the tool result), "message" (in the user message
            right after the results), "note" (not delivered: the model reads a note) or
            "text" (a search result on an API without search result blocks: the model
            reads its title, source and text in the result's text).
        reason: why it is not "native" (empty when it is).
    """

    call_id: str
    name: str
    part: MediaPart | SearchResultPart
    placement: Placement | Literal["text"]
    reason: str


@dataclass(frozen=True, slots=True)
class MediaReport:
    """What happened to every image and file of a turn's results on one API.

    Made by `media_report(results, api, media=...)`, with the same decisions
    `tool_result_messages` takes. `undelivered` lists the parts the model only reads a
    note about; check it when a tool returns media an API may not take (audio on the
    OpenAI APIs, a document URL on Chat Completions).
    """

    api: Api
    deliveries: tuple[MediaDelivery, ...]

    @property
    def undelivered(self) -> tuple[MediaDelivery, ...]:
        """The parts the API takes nowhere: the model reads a note instead."""
        return tuple(d for d in self.deliveries if d.placement == "note")

    def __str__(self) -> str:
        if not self.deliveries:
            return f"{self.api}: no images or files."
        lines = [f"{self.api}: {len(self.deliveries)} image(s) or file(s)"]
        for d in self.deliveries:
            why = f": {d.reason}" if d.reason else ""
            part = d.part
            shown = (
                f"search result {part.title!r} ({part.source})"
                if isinstance(part, SearchResultPart)
                else describe(part)
            )
            lines.append(f"- {shown} from {d.name} ({d.call_id}): {d.placement}{why}")
        return "\n".join(lines)


def any_parts(results: Sequence[ToolCallResult[Any]]) -> bool:
    """Whether any of `results` holds parts (images, files, tool references, search
    results). Each adapter asks once per answer, so that an answer of text results (the
    common case) renders without any media step."""
    for result in results:  # noqa: SIM110 (a loop: `any` would start a generator per answer)
        if result.result_parts:
            return True
    return False


def media_parts(result: ToolCallResult[Any]) -> list[MediaPart]:
    """The images and files of a result, in order (none for text or a failure)."""
    return [p for p in result.result_parts if isinstance(p, ImagePart | FilePart)]


def plan(
    results: Sequence[ToolCallResult[Any]],
    api: Api,
    rule: Rule,
    media: MediaPlacement,
    *,
    native_search_results: bool = False,
) -> list[MediaDelivery]:
    """Every media part of `results`, placed by `api`'s `rule`, and every search result
    ("native" where the API takes them, else "text"), in order."""
    deliveries: list[MediaDelivery] = []
    for result in results:
        for part in result.result_parts:
            if isinstance(part, SearchResultPart):
                placement, reason = (
                    ("native", "")
                    if native_search_results
                    else ("text", f"{api} has no search result blocks: sent as text")
                )
            elif isinstance(part, ImagePart | FilePart):
                placement, reason = rule(part, media)
            else:
                continue
            deliveries.append(MediaDelivery(result.call_id, result.name, part, placement, reason))
    return deliveries


def inline(part: MediaPart) -> MediaPart:
    """`part` with its `data:` URL read into `data` and `media_type` (the filename kept),
    so that each API places and renders it as bytes, and a text file in another charset
    than UTF-8 as UTF-8 (the APIs read text as UTF-8); any other part as it is. A text
    file whose bytes are not in its charset stays as it is: `media_bytes_problem` says
    why it cannot be sent.

    Worked out once per part and kept on it (None: the part itself, which keeps no
    reference to itself), so that placing and rendering it again reads its `data:` URL
    no more, and its image check is made once (`image_header`)."""
    try:
        inlined = part._inlined
    except AttributeError:
        inlined = _inline(part)
        object.__setattr__(part, "_inlined", None if inlined is part else inlined)
        return inlined
    return part if inlined is None else inlined


def _inline(part: MediaPart) -> MediaPart:
    if part.url is None or not is_data_url(part.url):
        if isinstance(part, FilePart) and text_charset(part.media_type) is not None:
            return _as_utf8(part)
        return part
    media_type, data = read_data_url(part)
    if isinstance(part, ImagePart):
        return ImagePart(data=data, media_type=media_type, detail=part.detail)
    return FilePart(data=data, media_type=media_type, filename=part.filename)


def image_type_outside(part: MediaPart, accepted: frozenset[str]) -> str | None:
    """The image type of an `ImagePart` (given, or read off its URL) when it is not one
    of `accepted`; None when it is, or when the type is unknown or not an image's."""
    if not isinstance(part, ImagePart):
        return None
    media_type = media_type_of(part)
    if media_kind(media_type) != "image" or media_type in accepted:
        return None
    return media_type


SIGNED_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
"""Image types every file of which starts with its own signature: the bytes say which."""


def image_bytes_type(part: MediaPart) -> str | None:
    """What an inline image's bytes are, by their signature, when png, jpeg, gif or webp;
    None for other bytes (heic, or no image at all) and for a part that is not an inline
    image. The APIs read the bytes: Anthropic answers 400 to an image sent as another
    type than its bytes are."""
    if not isinstance(part, ImagePart) or part.data is None:
        return None
    found = guess_media_type(part.data)
    return found if found in SIGNED_IMAGE_TYPES else None


def image_bytes_problem(part: MediaPart) -> str:
    """Why an inline image cannot be read ("" when it can, or when neither its label nor
    its bytes have a signature to check): its bytes are no png, jpeg, gif or webp though
    its label says one (an HTML error page), or they are one but cut short or corrupt
    (a PNG cut after its signature, a bad chunk CRC, a JPEG without its end), which the
    APIs answer 400 to."""
    header = image_header(part)
    return header if isinstance(header, str) else ""


def image_header(part: MediaPart) -> ImageHeader | str | None:
    """An inline image's header (its type and size in pixels, for the APIs' size rules),
    or why its bytes cannot be read (`image_bytes_problem`); None when there is nothing
    to read: no inline image, or neither its label nor its bytes have a signature.
    Read once per part (a big PNG's CRCs take milliseconds) and kept on it: each
    placement and render of the part asks again."""
    if not isinstance(part, ImagePart) or part.data is None:
        return None
    try:
        return part._image_check
    except AttributeError:
        header = _image_header(part)
        object.__setattr__(part, "_image_check", header)
        return header


def _image_header(part: ImagePart) -> ImageHeader | str | None:
    if image_bytes_type(part) is None:
        if part.media_type not in SIGNED_IMAGE_TYPES:
            return None
        return (
            "its bytes are not a png, jpeg, gif or webp image, though its media_type says "
            f"{part.media_type}"
        )
    assert part.data is not None  # an inline image (checked by `image_header`)
    return read_image(part.data)


def media_bytes_problem(part: MediaPart) -> str:
    """Why a part's bytes cannot be sent to any API ("" when they can): an image that does
    not decode (`image_bytes_problem`), or a text file whose bytes are not in its charset
    (`text_bytes_problem`). Of an inlined part."""
    if isinstance(part, ImagePart):
        return image_bytes_problem(part)
    return text_bytes_problem(part)


def text_bytes_problem(part: MediaPart) -> str:
    """Why a text file's bytes cannot be read as text ("" when they can, or it is no
    inline text file): they are not in the charset its media type names, or not UTF-8
    when it names none. Sent as they are, the model would read garbled text."""
    if not isinstance(part, FilePart) or part.data is None or part.media_type is None:
        return ""
    if not part.media_type.startswith("text/"):
        return ""
    charset = text_charset(part.media_type)
    try:
        part.data.decode(charset or "utf-8")
    except UnicodeDecodeError:
        if charset is not None:
            return f"its bytes are not {charset} text, the charset its media_type names"
        return (
            "its bytes are not UTF-8 text; name their charset in its media_type (e.g. "
            "'text/csv; charset=windows-1252')"
        )
    return ""


def file_text(part: FilePart) -> str:
    """The text of an inline text file (of an inlined part: UTF-8, checked by
    `text_bytes_problem` before it is placed)."""
    assert part.data is not None
    return part.data.decode(text_charset(part.media_type) or "utf-8", errors="replace")


def _as_utf8(part: FilePart) -> FilePart:
    """A text file named in another charset, as UTF-8 text of the same type (itself when
    its bytes are not in that charset)."""
    assert part.media_type is not None
    charset = text_charset(part.media_type)
    if part.data is None or charset is None:
        return part
    try:
        text = part.data.decode(charset)
    except UnicodeDecodeError:
        return part
    media_type = media_essence(part.media_type)
    return FilePart(data=text.encode("utf-8"), media_type=media_type, filename=part.filename)


def text_of(parts: Sequence[ResultPart]) -> str:
    return "\n".join(p for p in parts if isinstance(p, str))


def describe(part: MediaPart) -> str:
    """A short name for a part, for notes and reports: "image (image/png, 12 KB)"."""
    part = inline(part)
    kind = media_kind(media_type_of(part))
    noun = "image" if isinstance(part, ImagePart) else "file" if kind == "unknown" else kind
    if isinstance(part, FilePart) and part.filename:
        noun = f"{noun} {part.filename!r}"
    if part.data is not None:
        source = f"{image_bytes_type(part) or part.media_type}, {_size(len(part.data))}"
    elif part.url is not None:
        shown = part.url if len(part.url) <= 80 else part.url[:77] + "..."
        source = f"at {shown}"
    else:
        source = f"uploaded file {part.file_id}"
    return f"{noun} ({source})"


def note_for(part: MediaPart, reason: str) -> str:
    """The text the model reads where a part could not be delivered."""
    return f"[The tool returned {describe(part)}, which could not be shown to you: {reason}.]"


def attachments_line(count: int) -> str:
    """What a result's text says when its media follow in the next user message."""
    if count == 1:
        return "[The image or file this tool returned follows in the next message.]"
    return f"[The {count} images or files this tool returned follow in the next message.]"


def laid_out(
    result: ToolCallResult[Any],
    media: MediaPlacement,
    place: Rule,
    text: Callable[[str], T],
    medium: Callable[[MediaPart], T],
    reference: Callable[[ToolReference], T] | None = None,
    search_result: Callable[[SearchResultPart], T] | None = None,
) -> str | list[T]:
    """A result's content for an API whose tool result holds text and media, in the
    order the handler returned them (see `_placed`): each text made by `text`, each part
    placed "native" by `medium`, each tool reference by `reference` (where the API takes
    references; else they are named in text), each search result by `search_result`
    (where the API takes them; else as its text). Plain text when no part is native, as
    for a text result."""
    if not result.result_parts:
        return result.result_content
    items = _placed(
        result.result_parts,
        media,
        place,
        native_references=reference is not None,
        native_search_results=search_result is not None,
    )
    if any(not isinstance(item, str) for item in items):
        return [
            text(item)
            if isinstance(item, str)
            else reference(item)
            if isinstance(item, ToolReference) and reference is not None
            else search_result(item)
            if isinstance(item, SearchResultPart) and search_result is not None
            else medium(cast(MediaPart, item))
            for item in items
        ]
    return "\n".join(cast("list[str]", items))


def text_with_notes(
    result: ToolCallResult[Any], media: MediaPlacement, place: Rule
) -> tuple[str, list[MediaPart]]:
    """A result's text for an API whose tool result keeps its media apart: the text, then
    a note for each part sent nowhere and a line counting the parts that follow in a
    message; and the parts placed "native", in order."""
    if not result.result_parts:
        return result.result_content, []
    items = _placed(
        [result.result_content, *media_parts(result)], media, place, native_references=False
    )
    lines = [item for item in items if isinstance(item, str)]
    return "\n".join(lines), [item for item in items if isinstance(item, ImagePart | FilePart)]


def _placed(
    parts: Iterable[ResultPart],
    media: MediaPlacement,
    place: Rule,
    *,
    native_references: bool,
    native_search_results: bool = False,
) -> list[str | MediaPart | ToolReference | SearchResultPart]:
    """`parts` in order as an API takes them with a tool result: each text (empty ones
    left out), a note in place of each part sent nowhere, each part placed "native" as
    itself (inlined), each tool reference as itself where the API takes them (else one
    line of text naming them all, after the rest), each search result as itself where
    the API takes them (else as its text), then a line counting the parts that follow
    in a message."""
    items: list[str | MediaPart | ToolReference | SearchResultPart] = []
    moved = 0
    references: list[ToolReference] = []
    for part in parts:
        if isinstance(part, str):
            if part:
                items.append(part)
            continue
        if isinstance(part, ToolReference):
            if native_references:
                items.append(part)
            else:
                references.append(part)
            continue
        if isinstance(part, SearchResultPart):
            items.append(part if native_search_results else search_result_text(part))
            continue
        part = inline(part)
        placement, reason = place(part, media)
        if placement == "native":
            items.append(part)
        elif placement == "note":
            items.append(note_for(part, reason))
        else:
            moved += 1
    if references:  # where the API takes no references (see `_references`)
        items.append(references_text(references))
    if moved:
        items.append(attachments_line(moved))
    return items


def moved_media(
    results: Sequence[ToolCallResult[Any]], media: MediaPlacement, place: Rule
) -> Iterator[tuple[int, ToolCallResult[Any], list[MediaPart]]]:
    """For each result with parts placed in the message after the results: its position
    among `results` (from 1), the result, and those parts (inlined), in order."""
    for position, result in enumerate(results, 1):
        if not result.result_parts:  # a text result (the common case) has none
            continue
        moved = [p for p in map(inline, media_parts(result)) if place(p, media)[0] == "message"]
        if moved:
            yield position, result, moved


def attachments_intro(result: ToolCallResult[Any]) -> str:
    """The text introducing a result's media in the message after the results."""
    return f"From {result.name} (call {result.call_id}):"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64_size(data: bytes) -> int:
    """The length of `data` base64-encoded: what the APIs count against their limits."""
    return (len(data) + 2) // 3 * 4


def data_url(part: MediaPart) -> str:
    """The part's bytes as a `data:` URL (`data:image/png;base64,...`), an image's of the
    type its bytes are."""
    assert part.data is not None
    return f"data:{image_bytes_type(part) or part.media_type};base64,{b64(part.data)}"


def _size(count: int) -> str:
    if count < 1024:
        return f"{count} bytes"
    if count < 1024 * 1024:
        return f"{count / 1024:.0f} KB"
    return f"{count / (1024 * 1024):.1f} MB"
