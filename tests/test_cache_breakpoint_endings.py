"""`tool_result_messages(..., cache_breakpoint=True)` on every API, for every item kind an
answer can end with: where the breakpoint lands (Responses: on the last content part,
before an `additional_tools` item, which has none; Chat Completions: on the tool
message's text as its one part, or on the attachments message's last part; Anthropic:
on the message's last block, the last attachment with `media="message"`; Gemini:
nothing),
and `check_history` accepting each history such an answer makes. The assistant turns
come from the fakes, so the calls and ids are the real SDK shapes."""

from __future__ import annotations

import json
from typing import Any, Literal

from google.genai import types as genai
from inline_snapshot import snapshot

from tests.images import PNG
from tests.test_responses_support import response_json, sdk_response
from toolwire.core import (
    Api,
    BaseFunctionToolModel,
    FilePart,
    ImagePart,
    MediaPlacement,
    SearchResultPart,
    ToolCallResult,
    ToolGroup,
    ToolReference,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic, FakeGemini, FakeOpenAI, FakeReply, check_history

Kind = Literal["text", "image", "pdf", "reference", "search", "reference+image"]
PDF = b"%PDF-1.4\n%%EOF\n"
MEDIA: tuple[MediaPlacement, ...] = ("native", "message", "auto")
KINDS: dict[Api, tuple[Kind, ...]] = {
    "chat.completions": ("text", "image", "pdf"),
    "responses": ("text", "image", "pdf", "reference", "reference+image"),
    "anthropic": ("text", "image", "pdf", "reference", "search", "reference+image"),
    "gemini": ("text", "image", "pdf"),
}
"""What each answer holds besides text: the parts the API takes natively (a tool
reference, a search result) only where it has them, and on the APIs that load tools both
a tool reference and an image (Responses: the `additional_tools` item then sits between
the output and the attachments message)."""
MODELS: dict[Api, str] = {
    "chat.completions": "gpt-5",
    "responses": "gpt-5",
    "anthropic": "claude-sonnet-4-6",
    "gemini": "gemini-3-flash-preview",
}


class stock_lookup(BaseFunctionToolModel[Kind, None]):
    """Look up a stock price by ticker symbol."""

    model_tool_defer_loading = True
    symbol: str

    def model_tool_handler(self, context: Kind) -> tuple[str, None]:
        return "42", None


class fetch(BaseFunctionToolModel[Kind, None]):
    """Fetch what was asked for."""

    def model_tool_handler(self, context: Kind) -> tuple[Any, None]:
        parts: dict[Kind, Any] = {
            "text": "Done.",
            "image": ["Done.", ImagePart(data=PNG, media_type="image/png")],
            "pdf": ["Done.", FilePart(data=PDF, media_type="application/pdf")],
            "reference": ["Done.", ToolReference(stock_lookup)],
            "search": ["Done.", SearchResultPart(source="wiki/x", title="X", content="x")],
            "reference+image": ["Done.", ToolReference(stock_lookup), ImagePart.from_bytes(PNG)],
        }
        return parts[context], None


GROUP = ToolGroup[Kind, None].from_list([fetch, stock_lookup])
PROMPT = "Fetch it."


def _turn(api: Api) -> tuple[list[Any], Any]:
    """The history up to the answer (the prompt, then the fake's turn calling `fetch`),
    and the response holding the call."""
    reply = [FakeReply.tool_calls(("fetch", {}))]
    model = MODELS[api]
    if api == "chat.completions":
        chat = (
            FakeOpenAI(script=reply)
            .client()
            .chat.completions.create(model=model, messages=[{"role": "user", "content": PROMPT}])
        )
        return [{"role": "user", "content": PROMPT}, *assistant_messages(chat, api)], chat
    if api == "responses":
        response = FakeOpenAI(script=reply).client().responses.create(model=model, input=PROMPT)
        return [{"role": "user", "content": PROMPT}, *assistant_messages(response, api)], response
    if api == "anthropic":
        message = (
            FakeAnthropic(script=reply)
            .client()
            .messages.create(
                model=model, max_tokens=1024, messages=[{"role": "user", "content": PROMPT}]
            )
        )
        return [{"role": "user", "content": PROMPT}, *assistant_messages(message, api)], message
    content = genai.Content(role="user", parts=[genai.Part(text=PROMPT)])
    gemini = (
        FakeGemini(script=reply).client().models.generate_content(model=model, contents=[content])
    )
    return [content, *assistant_messages(gemini, api)], gemini


def _wire(answer: list[Any]) -> list[Any]:
    """An answer as the JSON it is sent as (Gemini's `Content` objects dumped)."""
    return [
        item.model_dump(mode="json", exclude_none=True) if isinstance(item, genai.Content) else item
        for item in answer
    ]


def test_the_breakpoint_ends_every_answer_where_the_api_takes_one() -> None:
    """Each API x each part kind x each placement, rendered whole: the breakpoint on the
    last part that takes one, and each history valid. A placement rendering what an
    earlier one did (`auto` choosing inside the results, Chat Completions always using
    the message) is written as that one's name."""
    answers: dict[str, dict[str, Any]] = {}
    for api, kinds in KINDS.items():
        history, response = _turn(api)
        answers[api] = {}
        for kind in kinds:
            results: list[ToolCallResult[None]] = GROUP.run_tool_calls(response, kind)
            seen: dict[str, list[Any]] = {}
            for media in MEDIA:
                answer: list[Any] = tool_result_messages(
                    results, api, media=media, model=MODELS[api], cache_breakpoint=True
                )
                assert check_history([*history, *answer], api, model=MODELS[api]) == []
                wire = json.loads(json.dumps(_wire(answer)))
                same = [earlier for earlier, shown in seen.items() if shown == wire]
                answers[api][f"{kind} {media}"] = f"as {same[0]}" if same else wire
                seen[media] = wire
    assert answers == snapshot(
        {
            "chat.completions": {
                "text native": [
                    {
                        "role": "tool",
                        "tool_call_id": "call_2",
                        "content": [
                            {
                                "type": "text",
                                "text": "Done.",
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            }
                        ],
                    }
                ],
                "text message": "as native",
                "text auto": "as native",
                "image native": [
                    {
                        "role": "tool",
                        "tool_call_id": "call_2",
                        "content": """\
Done.
[The image or file this tool returned follows in the next message.]\
""",
                    },
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "From fetch (call call_2):"},
                            {
                                "type": "image_url",
                                "image_url": {
                                    "url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC"
                                },
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            },
                        ],
                    },
                ],
                "image message": "as native",
                "image auto": "as native",
                "pdf native": [
                    {
                        "role": "tool",
                        "tool_call_id": "call_2",
                        "content": """\
Done.
[The image or file this tool returned follows in the next message.]\
""",
                    },
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "From fetch (call call_2):"},
                            {
                                "type": "file",
                                "file": {
                                    "file_data": "data:application/pdf;base64,JVBERi0xLjQKJSVFT0YK",
                                    "filename": "document.pdf",
                                },
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            },
                        ],
                    },
                ],
                "pdf message": "as native",
                "pdf auto": "as native",
            },
            "responses": {
                "text native": [
                    {
                        "type": "function_call_output",
                        "call_id": "call_2",
                        "output": [
                            {
                                "type": "input_text",
                                "text": "Done.",
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            }
                        ],
                    }
                ],
                "text message": "as native",
                "text auto": "as native",
                "image native": [
                    {
                        "type": "function_call_output",
                        "call_id": "call_2",
                        "output": [
                            {"type": "input_text", "text": "Done."},
                            {
                                "type": "input_image",
                                "detail": "auto",
                                "image_url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            },
                        ],
                    }
                ],
                "image message": [
                    {
                        "type": "function_call_output",
                        "call_id": "call_2",
                        "output": """\
Done.
[The image or file this tool returned follows in the next message.]\
""",
                    },
                    {
                        "role": "user",
                        "content": [
                            {"type": "input_text", "text": "From fetch (call call_2):"},
                            {
                                "type": "input_image",
                                "detail": "auto",
                                "image_url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            },
                        ],
                    },
                ],
                "image auto": "as native",
                "pdf native": [
                    {
                        "type": "function_call_output",
                        "call_id": "call_2",
                        "output": [
                            {"type": "input_text", "text": "Done."},
                            {
                                "type": "input_file",
                                "file_data": "data:application/pdf;base64,JVBERi0xLjQKJSVFT0YK",
                                "filename": "document.pdf",
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            },
                        ],
                    }
                ],
                "pdf message": [
                    {
                        "type": "function_call_output",
                        "call_id": "call_2",
                        "output": """\
Done.
[The image or file this tool returned follows in the next message.]\
""",
                    },
                    {
                        "role": "user",
                        "content": [
                            {"type": "input_text", "text": "From fetch (call call_2):"},
                            {
                                "type": "input_file",
                                "file_data": "data:application/pdf;base64,JVBERi0xLjQKJSVFT0YK",
                                "filename": "document.pdf",
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            },
                        ],
                    },
                ],
                "pdf auto": "as native",
                "reference native": [
                    {
                        "type": "function_call_output",
                        "call_id": "call_2",
                        "output": [
                            {
                                "type": "input_text",
                                "text": """\
Done.
{"loaded_tools": [{"name": "stock_lookup", "description": "Look up a stock price by ticker symbol."}]}\
""",
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            }
                        ],
                    },
                    {
                        "type": "additional_tools",
                        "role": "developer",
                        "tools": [
                            {
                                "type": "function",
                                "name": "stock_lookup",
                                "description": "Look up a stock price by ticker symbol.",
                                "parameters": {
                                    "properties": {"symbol": {"type": "string"}},
                                    "required": ["symbol"],
                                    "type": "object",
                                },
                                "strict": False,
                            }
                        ],
                    },
                ],
                "reference message": "as native",
                "reference auto": "as native",
                "reference+image native": [
                    {
                        "type": "function_call_output",
                        "call_id": "call_2",
                        "output": [
                            {"type": "input_text", "text": "Done."},
                            {
                                "type": "input_image",
                                "detail": "auto",
                                "image_url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                            },
                            {
                                "type": "input_text",
                                "text": '{"loaded_tools": [{"name": "stock_lookup", "description": "Look up a stock price by ticker symbol."}]}',
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            },
                        ],
                    },
                    {
                        "type": "additional_tools",
                        "role": "developer",
                        "tools": [
                            {
                                "type": "function",
                                "name": "stock_lookup",
                                "description": "Look up a stock price by ticker symbol.",
                                "parameters": {
                                    "properties": {"symbol": {"type": "string"}},
                                    "required": ["symbol"],
                                    "type": "object",
                                },
                                "strict": False,
                            }
                        ],
                    },
                ],
                "reference+image message": [
                    {
                        "type": "function_call_output",
                        "call_id": "call_2",
                        "output": """\
Done.
{"loaded_tools": [{"name": "stock_lookup", "description": "Look up a stock price by ticker symbol."}]}
[The image or file this tool returned follows in the next message.]\
""",
                    },
                    {
                        "type": "additional_tools",
                        "role": "developer",
                        "tools": [
                            {
                                "type": "function",
                                "name": "stock_lookup",
                                "description": "Look up a stock price by ticker symbol.",
                                "parameters": {
                                    "properties": {"symbol": {"type": "string"}},
                                    "required": ["symbol"],
                                    "type": "object",
                                },
                                "strict": False,
                            }
                        ],
                    },
                    {
                        "role": "user",
                        "content": [
                            {"type": "input_text", "text": "From fetch (call call_2):"},
                            {
                                "type": "input_image",
                                "detail": "auto",
                                "image_url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                "prompt_cache_breakpoint": {"mode": "explicit"},
                            },
                        ],
                    },
                ],
                "reference+image auto": "as native",
            },
            "anthropic": {
                "text native": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": "Done.",
                                "cache_control": {"type": "ephemeral"},
                            }
                        ],
                    }
                ],
                "text message": "as native",
                "text auto": "as native",
                "image native": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": [
                                    {"type": "text", "text": "Done."},
                                    {
                                        "type": "image",
                                        "source": {
                                            "type": "base64",
                                            "media_type": "image/png",
                                            "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                        },
                                    },
                                ],
                                "cache_control": {"type": "ephemeral"},
                            }
                        ],
                    }
                ],
                "image message": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": """\
Done.
[The image or file this tool returned follows in the next message.]\
""",
                            },
                            {"type": "text", "text": "From fetch (call toolu_fake2):"},
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                },
                                "cache_control": {"type": "ephemeral"},
                            },
                        ],
                    }
                ],
                "image auto": "as native",
                "pdf native": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": [
                                    {"type": "text", "text": "Done."},
                                    {
                                        "type": "document",
                                        "source": {
                                            "type": "base64",
                                            "media_type": "application/pdf",
                                            "data": "JVBERi0xLjQKJSVFT0YK",
                                        },
                                    },
                                ],
                                "cache_control": {"type": "ephemeral"},
                            }
                        ],
                    }
                ],
                "pdf message": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": """\
Done.
[The image or file this tool returned follows in the next message.]\
""",
                            },
                            {"type": "text", "text": "From fetch (call toolu_fake2):"},
                            {
                                "type": "document",
                                "source": {
                                    "type": "base64",
                                    "media_type": "application/pdf",
                                    "data": "JVBERi0xLjQKJSVFT0YK",
                                },
                                "cache_control": {"type": "ephemeral"},
                            },
                        ],
                    }
                ],
                "pdf auto": "as native",
                "reference native": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": [
                                    {"type": "text", "text": "Done."},
                                    {"type": "tool_reference", "tool_name": "stock_lookup"},
                                ],
                                "cache_control": {"type": "ephemeral"},
                            }
                        ],
                    }
                ],
                "reference message": "as native",
                "reference auto": "as native",
                "search native": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": [
                                    {"type": "text", "text": "Done."},
                                    {
                                        "type": "search_result",
                                        "source": "wiki/x",
                                        "title": "X",
                                        "content": [{"type": "text", "text": "x"}],
                                    },
                                ],
                                "cache_control": {"type": "ephemeral"},
                            }
                        ],
                    }
                ],
                "search message": "as native",
                "search auto": "as native",
                "reference+image native": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": [
                                    {"type": "text", "text": "Done."},
                                    {"type": "tool_reference", "tool_name": "stock_lookup"},
                                    {
                                        "type": "image",
                                        "source": {
                                            "type": "base64",
                                            "media_type": "image/png",
                                            "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                        },
                                    },
                                ],
                                "cache_control": {"type": "ephemeral"},
                            }
                        ],
                    }
                ],
                "reference+image message": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": "toolu_fake2",
                                "content": [
                                    {"type": "text", "text": "Done."},
                                    {"type": "tool_reference", "tool_name": "stock_lookup"},
                                    {
                                        "type": "text",
                                        "text": "[The image or file this tool returned follows in the next message.]",
                                    },
                                ],
                            },
                            {"type": "text", "text": "From fetch (call toolu_fake2):"},
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                },
                                "cache_control": {"type": "ephemeral"},
                            },
                        ],
                    }
                ],
                "reference+image auto": "as native",
            },
            "gemini": {
                "text native": [
                    {
                        "parts": [
                            {
                                "function_response": {
                                    "name": "fetch",
                                    "response": {"output": "Done."},
                                }
                            }
                        ],
                        "role": "user",
                    }
                ],
                "text message": "as native",
                "text auto": "as native",
                "image native": [
                    {
                        "parts": [
                            {
                                "function_response": {
                                    "parts": [
                                        {
                                            "inline_data": {
                                                "mime_type": "image/png",
                                                "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                            }
                                        }
                                    ],
                                    "name": "fetch",
                                    "response": {"output": "Done."},
                                }
                            }
                        ],
                        "role": "user",
                    }
                ],
                "image message": [
                    {
                        "parts": [
                            {
                                "function_response": {
                                    "name": "fetch",
                                    "response": {
                                        "output": """\
Done.
[The image or file this tool returned follows in the next message.]\
"""
                                    },
                                }
                            }
                        ],
                        "role": "user",
                    },
                    {
                        "parts": [
                            {"text": "From fetch (function call 1):"},
                            {
                                "inline_data": {
                                    "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                    "mime_type": "image/png",
                                }
                            },
                        ],
                        "role": "user",
                    },
                ],
                "image auto": "as native",
                "pdf native": [
                    {
                        "parts": [
                            {
                                "function_response": {
                                    "parts": [
                                        {
                                            "inline_data": {
                                                "mime_type": "application/pdf",
                                                "data": "JVBERi0xLjQKJSVFT0YK",
                                            }
                                        }
                                    ],
                                    "name": "fetch",
                                    "response": {"output": "Done."},
                                }
                            }
                        ],
                        "role": "user",
                    }
                ],
                "pdf message": [
                    {
                        "parts": [
                            {
                                "function_response": {
                                    "name": "fetch",
                                    "response": {
                                        "output": """\
Done.
[The image or file this tool returned follows in the next message.]\
"""
                                    },
                                }
                            }
                        ],
                        "role": "user",
                    },
                    {
                        "parts": [
                            {"text": "From fetch (function call 1):"},
                            {
                                "inline_data": {
                                    "data": "JVBERi0xLjQKJSVFT0YK",
                                    "mime_type": "application/pdf",
                                }
                            },
                        ],
                        "role": "user",
                    },
                ],
                "pdf auto": "as native",
            },
        }
    )


def test_responses_marks_the_last_part_before_an_item_that_holds_none() -> None:
    """A `tool_search_output` has no content part: after a function output the mark goes
    on the output's text; an answer of only the search output gets none."""
    group = ToolGroup[Kind, None].from_list([fetch, stock_lookup])
    group.add_tool_search(execution="client")
    call = {"type": "function_call", "call_id": "call_f", "name": "fetch", "arguments": "{}"}
    search = {
        "type": "tool_search_call",
        "call_id": "call_s",
        "arguments": {"queries": ["stock"]},
        "execution": "client",
        "status": "completed",
    }
    response = sdk_response(response_json(call, search))
    results = group.run_tool_calls(response, "text")
    answer = tool_result_messages(results, "responses", cache_breakpoint=True)
    assert check_history([*assistant_messages(response, "responses"), *answer], "responses") == []
    assert answer == snapshot(
        [
            {
                "type": "function_call_output",
                "call_id": "call_f",
                "output": [
                    {
                        "type": "input_text",
                        "text": "Done.",
                        "prompt_cache_breakpoint": {"mode": "explicit"},
                    }
                ],
            },
            {
                "type": "tool_search_output",
                "call_id": "call_s",
                "execution": "client",
                "status": "completed",
                "tools": [
                    {
                        "type": "function",
                        "name": "stock_lookup",
                        "description": "Look up a stock price by ticker symbol.",
                        "parameters": {
                            "properties": {"symbol": {"type": "string"}},
                            "required": ["symbol"],
                            "type": "object",
                        },
                        "strict": False,
                        "defer_loading": True,
                    }
                ],
            },
        ]
    )
    search_only = results[1:]
    unmarked = tool_result_messages(search_only, "responses")
    assert tool_result_messages(search_only, "responses", cache_breakpoint=True) == unmarked
