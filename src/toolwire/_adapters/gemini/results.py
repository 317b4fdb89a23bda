"""Gemini result rendering: one `function_response` Part per call.

A `FunctionResponse` carries media in its `parts` (Gemini 3 models read them): images
(png, jpeg, webp), PDFs and plain text go there, with the result's text under
`response`. Audio, video and other types go in one user `Content` right after the
function responses, where every Gemini model reads them; so do all media with
`media="message"`, which models before Gemini 3 need (they answer 400 "`function_response.parts`
is not supported for this model"). `media="auto"` (the default) picks by the model that
made the calls: "native" for Gemini 3 and later, "message" for earlier models and when
the model is not known, since every Gemini model reads media in a user Content. Inline data over 20 MB is noted instead: upload it with the Files API and
return its URI as `file_id`. So is an image of a type Gemini does not take (gif):
Gemini reads png, jpeg, webp, heic and heif images. A `data:` URL is no file URI: it
goes as the inline data it holds, with the checks bytes get. An inline image goes as
the type its bytes are; bytes that are no image (Gemini answers 400: "Provided image is
not valid") are noted.

`google.genai` is imported only when a Gemini result is rendered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import pydantic

from ..._media import (
    ChosenPlacement,
    MediaPlacement,
    Placement,
    image_bytes_type,
    inline,
    media_bytes_problem,
    moved_media,
    text_with_notes,
)
from ..._parts import ImagePart, MediaPart, media_kind, media_type_of

if TYPE_CHECKING:
    from google.genai.types import Content, FunctionResponse, FunctionResponsePart, Part

    from ..._result import ToolCallResult

__all__ = [
    "NAMELESS_CALL_NAME",
    "answer_content",
    "attachments",
    "built",
    "function_response_part",
    "media_for_model",
    "place",
]

Built = Literal["Content", "Part", "FunctionResponse"]
"""The SDK classes `built` makes."""

_BLANKS: dict[str, tuple[type[Any], dict[str, Any] | None, pydantic.BaseModel]] = {}
"""SDK class name -> the class, the values of an empty instance (None when the class
keeps values outside its `__dict__`: extra or private ones) and that empty instance,
which `built` copies."""

_MODEL_SLOTS = pydantic.BaseModel.__dict__
_set_values = _MODEL_SLOTS["__dict__"].__set__
_set_fields_set = _MODEL_SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _MODEL_SLOTS["__pydantic_extra__"].__set__
_set_private = _MODEL_SLOTS["__pydantic_private__"].__set__
"""The setters of the four slots every pydantic model instance has, called directly: a
slot's own setter costs half of `object.__setattr__`, which looks the name up first."""


def built(sdk_class: Built, /, **fields: Any) -> Any:
    """An instance of google-genai's `types.<sdk_class>` holding `fields`, values already of
    the fields' types, without validating them again.

    google-genai's models validate every field on construction (a Part has over twenty):
    building a rendered result's Content, Part and FunctionResponse that way was most of
    a Gemini response's dispatch. The copy is equal to the validated model, with the same
    fields set. Only for values toolwire made itself (strings, dicts, SDK models). The
    class is found by name once: no import statement runs per rendered result."""
    kind, empty_values, empty = _BLANKS.get(sdk_class) or _blank(sdk_class)
    if empty_values is None:
        return empty.model_copy(update=fields)
    # What `model_copy(update=fields)` makes, without its general copy machinery (a
    # third of a one-call Gemini answer): the empty model's values with `fields` over
    # them, those fields marked as set.
    made = _allocate(kind)
    _set_values(made, empty_values | fields)
    _set_fields_set(made, set(fields))
    _set_extra(made, None)
    _set_private(made, None)
    return made


def _blank(sdk_class: Built) -> tuple[type[Any], dict[str, Any] | None, pydantic.BaseModel]:
    """`sdk_class`'s entry of `_BLANKS`, made on its first use."""
    from google.genai import types

    empty: pydantic.BaseModel = getattr(types, sdk_class)()
    plain = empty.__pydantic_extra__ is None and not getattr(empty, "__pydantic_private__", None)
    blank = _BLANKS[sdk_class] = (type(empty), vars(empty) if plain else None, empty)
    return blank


_allocate = object.__new__


NAMELESS_CALL_NAME = "unnamed_function"
"""The name a function response carries when its call came without one.

The API requires a name on every function response, and pairs responses with calls
by position when they have no ids; a malformed call with no name would otherwise get
an unnamed response that breaks every later request of the conversation. The call is
answered "invalid_name" (no tool has the empty name), under this placeholder."""

FUNCTION_RESPONSE_TYPES = frozenset(
    {"image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"}
)
"""What a function response's parts take (Gemini 3); the rest goes in a user Content."""
GEMINI_IMAGE_TYPES = frozenset(
    {"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"}
)
"""The image types Gemini reads, anywhere; other images become a note."""
GEMINI_MAX_INLINE_BYTES = 20 * 1024 * 1024


_GEMINI_MAJOR = re.compile(r"gemini-(\d+)")
"""The major version of a Gemini model name: `gemini-3-pro-preview`, `gemini-3.1-pro`,
`models/gemini-2.5-flash`, a Vertex resource path ending in one."""


def media_for_model(model: str | None) -> ChosenPlacement:
    """What `media="auto"` means for `model` (the name the request used, or a response's
    `model_version`): media in function responses for Gemini 3 and later, which read
    them; in a user Content after them for earlier models, which answer 400 to them, and
    for a name that says no version (an alias such as `gemini-flash-latest`, a tuned
    model), where only that placement is safe."""
    found = _GEMINI_MAJOR.match(model.rpartition("/")[2]) if model else None
    return "native" if found is not None and int(found[1]) >= 3 else "message"


def place(part: MediaPart, media: MediaPlacement) -> tuple[Placement, str]:
    """Where a part goes on Gemini: inside the function response, in a user Content
    after the responses, or a note when it cannot be sent."""
    part = inline(part)
    if part.data is not None and len(part.data) > GEMINI_MAX_INLINE_BYTES:
        return "note", (
            "Gemini takes inline data of up to 20 MB; upload larger files with the Files API "
            "and return the file's URI as file_id"
        )
    media_type = _media_type(part)
    if media_type is None:
        return "note", "Gemini needs the media_type of a file given by URL or file id"
    is_image = isinstance(part, ImagePart) and media_kind(media_type) == "image"
    if is_image and media_type not in GEMINI_IMAGE_TYPES:
        return "note", f"Gemini takes png, jpeg, webp, heic and heif images, not {media_type}"
    unreadable = media_bytes_problem(part)
    if unreadable:
        return "note", unreadable
    if media == "message":
        return "message", "media='message' was asked for"
    if media_type not in FUNCTION_RESPONSE_TYPES:
        return "message", (
            f"a function response's parts take images, PDFs and plain text, not {media_type}"
        )
    return "native", ""


def answer_content(parts: list[Part]) -> list[Content]:
    """The one user Content answering a turn: its function responses, in call order."""
    answer: Content = built("Content", role="user", parts=parts)
    return [answer]


def function_response_part(result: ToolCallResult[Any], media: MediaPlacement = "native") -> Part:
    """The Part answering `result`'s call.

    `response` is always an object: the text under "output", or under "error" for a
    failure. `id` is set exactly when the call carried one: an id toolwire
    synthesized for bookkeeping never goes on the wire. Images, PDFs and text files go
    in `parts`; other media follow in the user Content `tool_result_messages` adds, and
    the text says so.
    """
    key = "output" if result.fail_reason is None else "error"
    text, parts = result.result_content, None  # a text result's (the common case)
    if result.result_parts:
        text, native = text_with_notes(result, media, place)
        parts = [_response_part(part) for part in native] or None
    response: FunctionResponse = built(
        "FunctionResponse",
        id=None if result.synthesized_id else result.call_id,
        name=result.name or NAMELESS_CALL_NAME,
        response={key: text},
        parts=parts,
    )
    part: Part = built("Part", function_response=response)
    return part


def attachments(results: Sequence[ToolCallResult[Any]], media: MediaPlacement) -> list[Content]:
    """The user Content after the function responses holding the media placed there,
    each result's introduced by its tool and call; none when there are none.

    A call is named by its id when the API gave it one. An id toolwire synthesized never
    goes on the wire, in this text either: such a call is named by its position among
    the turn's calls instead (from 1, the order of the function responses, which is how
    the API pairs calls without ids with their responses).
    """
    placed = list(moved_media(results, media, place))
    if not placed:
        return []
    from google.genai import types

    parts: list[Part] = []
    for position, result, moved in placed:
        name = result.name or NAMELESS_CALL_NAME
        call = f"function call {position}" if result.synthesized_id else f"call {result.call_id}"
        parts.append(types.Part(text=f"From {name} ({call}):"))
        for part in moved:
            media_type = _media_type(part)
            if part.data is not None:
                blob = types.Blob(mime_type=media_type, data=bytes(part.data))
                parts.append(types.Part(inline_data=blob))
            else:
                uri = part.url if part.url is not None else part.file_id
                parts.append(
                    types.Part(file_data=types.FileData(file_uri=uri, mime_type=media_type))
                )
    return [types.Content(role="user", parts=parts)]


def _response_part(part: MediaPart) -> FunctionResponsePart:
    from google.genai import types

    media_type = _media_type(part)
    if part.data is not None:
        blob = types.FunctionResponseBlob(mime_type=media_type, data=bytes(part.data))
        return types.FunctionResponsePart(inline_data=blob)
    uri = part.url if part.url is not None else part.file_id
    data = types.FunctionResponseFileData(file_uri=uri, mime_type=media_type)
    return types.FunctionResponsePart(file_data=data)


def _media_type(part: MediaPart) -> str | None:
    """Gemini needs a type with every file: what an image's bytes are, else the type
    given, or read off the URL's extension."""
    return image_bytes_type(part) or media_type_of(part)
