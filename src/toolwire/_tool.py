"""What core and aio tool classes share: configuration, names, schemas, definitions.

`toolwire.core` and `toolwire.aio` each add the handler signature (plain or
`async def`) and the method that runs a call; they are siblings over these
bases, not subclasses of each other.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import sys
import warnings
from collections.abc import Callable, Sequence
from functools import partial, partialmethod
from textwrap import dedent
from types import MethodType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, cast, overload
from weakref import WeakKeyDictionary, WeakSet

import pydantic
from pydantic_core import core_schema

from ._api import Api, adapter, check_api
from ._batch import timeout_problem
from ._budget import check_tool_budget
from ._callers import ToolCallerKind, custom_tool_callers
from ._definition import CustomToolFormat, CustomToolSpec, FunctionToolSpec, ToolNamespace
from ._docstrings import describe_fields
from ._json import copy_json
from ._plan import StrictInput, forget_plan
from .exceptions import CustomToolError, ToolDefinitionError, ToolwireWarning

if TYPE_CHECKING:
    # toolcall's models load on first use: a plain dispatch never needs them.
    from anthropic.types import JSONOutputFormatParam, ToolParam
    from google.genai.types import Tool
    from openai.types.chat import ChatCompletionCustomToolParam, ChatCompletionFunctionToolParam
    from openai.types.responses import (
        CustomToolParam,
        FunctionToolParam,
        ResponseFormatTextJSONSchemaConfigParam,
    )
    from openai.types.shared_params import ResponseFormatJSONSchema

    from ._adapters.openai_chat.servers import ChatServer
    from ._approval import ApprovalRequired
    from ._budget import ResultBudget
    from ._definition import GeminiResponseFormat
    from ._schema import SchemaReport
    from ._standard import (
        StandardCustomToolDefinition,
        StandardCustomToolGrammarFormat,
        StandardCustomToolTextFormat,
        StandardFunctionToolDefinition,
    )

__all__ = ["CustomToolModel", "FunctionToolModel", "ToolModel", "missing_handler"]

_CONFIG_NAMES = (
    "model_tool_strict",
    "model_tool_custom_name",
    "model_tool_name_generator",
    "model_tool_custom_description",
    "model_tool_custom_json_schema",
    "model_tool_titles",
    "model_tool_format",
    "model_tool_type",
    "model_tool_timeout",
    "model_tool_sequential",
    "model_tool_requires_approval",
    "model_tool_external",
    "model_tool_defer_loading",
    "model_tool_namespace",
    "model_tool_eager_input_streaming",
    "model_tool_allowed_callers",
    "model_tool_result_budget",
    "model_tool_max_retries",
)


class ToolModel(pydantic.BaseModel):
    """Configuration and naming shared by every tool class (private base)."""

    # Off here, on for your subclasses: see `finish_base`.
    model_config = pydantic.ConfigDict(use_attribute_docstrings=False)

    model_tool_type: ClassVar[Literal["function", "custom"]]
    """Whether calls to this tool are function calls (JSON arguments) or custom (free text)."""

    model_tool_custom_name: ClassVar[str | None] = None
    """Class config: the tool name to use instead of the class name."""

    model_tool_name_generator: ClassVar[Callable[[str], str] | None] = None
    """Class config: a function making the tool name from the class name."""

    model_tool_custom_description: ClassVar[str | None] = None
    """Class config: the description to use instead of the class docstring."""

    model_tool_timeout: ClassVar[float | None] = None
    """Class config (toolwire.aio): seconds a call of this tool may run before it is
    cancelled and answered with a "timeout" failure; overrides the batch's `timeout=`."""

    model_tool_sequential: ClassVar[bool] = False
    """Class config (toolwire.aio): in a batch, this tool's calls run one at a time, in
    call order, while calls of other tools still run concurrently with them. (toolwire.core
    runs every call one at a time anyway.)"""

    model_tool_defer_loading: ClassVar[bool] = False
    """Class config: the model finds this tool through tool search instead of seeing it
    up front (`defer_loading: true` on OpenAI Responses and Anthropic; on Chat
    Completions and Gemini `tool_definitions` leaves it out until a search loads it).
    See the README's "Tool search"."""

    model_tool_result_budget: ClassVar[ResultBudget | None] = None
    """Class config: how much of this tool's result the model reads (`ResultBudget`):
    over it, the head and the tail with a note of what was cut; `result.cut` keeps the
    full result. Overrides the group's `result_budget`."""
    model_tool_max_retries: ClassVar[int | None] = None
    """Class config: how many failed calls in a row the model may retry before a
    `RetryBudget` tells it to stop calling this tool; None: the budget's `max_retries`."""

    model_tool_allowed_callers: ClassVar[Sequence[ToolCallerKind] | None] = None
    """Class config: who may call this tool (programmatic tool calling), e.g.
    `["programmatic"]`: the program the model runs calls it (each such call's
    `StandardToolCall.caller` says so); add "direct" to let the model call it itself
    too. None: the API's default (the model calls it directly). "programmatic" is sent
    as OpenAI Responses' "programmatic" and as Anthropic's `code_execution_20250825`
    (name another code execution version to use that one; Responses sends any version
    as "programmatic"); a function tool's schema report says where a caller is sent
    under another name. For a function tool, Chat Completions and Gemini leave it out,
    and the report says so; a custom tool takes it on Responses only (Chat Completions'
    custom tools have no `allowed_callers`: its definition there raises
    `UnsupportedToolError`)."""

    model_tool_namespace: ClassVar[ToolNamespace | None] = None
    """Class config: the `ToolNamespace` this tool belongs to. Its name is then the
    namespace's and its own joined by `__` (`crm__get_customer`) everywhere but inside
    the namespace on OpenAI Responses, which nests it there."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        config = cls.model_config
        if config.get("use_attribute_docstrings") and describe_fields(cls, sys._getframe(1)):
            # Pydantic collects the fields next, reading this very dict: the docstrings
            # are read, so it need not read them again (see `_docstrings`). Set back in
            # `__pydantic_init_subclass__`, for subclasses and `model_rebuild`.
            config["use_attribute_docstrings"] = False
            _DESCRIBED.add(cls)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if cls in _DESCRIBED:
            _DESCRIBED.discard(cls)
            cls.model_config["use_attribute_docstrings"] = True
        if getattr(cls, "_toolwire_namespace", None) == "core" and inspect.iscoroutinefunction(
            getattr(cls, "model_tool_handler", None)
        ):
            raise ToolDefinitionError(
                f"{cls.__name__}.model_tool_handler is `async def`, but {cls.__name__} is a "
                "toolwire.core tool, whose handlers are plain functions (an async one would "
                "return a coroutine nobody awaits). Import BaseFunctionToolModel / "
                "BaseCustomToolModel and ToolGroup from toolwire.aio instead."
            )
        if getattr(cls, "_toolwire_namespace", None) == "aio":
            _refuse_plain_handler(cls)
        if cls.model_tool_allowed_callers is not None:
            from ._callers import allowed_callers_of

            allowed_callers_of(cls)  # an unknown caller raises now
        if (
            getattr(cls, "_toolwire_namespace", None) == "core"
            and getattr(cls, "model_tool_timeout", None) is not None
        ):
            raise ToolDefinitionError(
                f"{cls.__name__} sets model_tool_timeout, but it is a toolwire.core tool: a "
                "plain function cannot be stopped once it runs. Make it a toolwire.aio tool "
                "(`async def model_tool_handler`), or enforce the time limit inside the "
                "handler."
            )
        timeout = getattr(cls, "model_tool_timeout", None)
        if timeout is not None and (problem := timeout_problem(timeout, zero=False)) is not None:
            import reprlib

            raise ToolDefinitionError(
                f"{cls.__name__}.model_tool_timeout is {reprlib.repr(timeout)}: {problem[1]}. "
                "Set it to a number of seconds above 0 (an int or float; math.inf: no limit, "
                "whatever the batch's `timeout=`), or None to use the batch's `timeout=`."
            )
        _check_namespace(cls)
        _check_external(cls)
        if "model_tool_result_budget" in cls.__dict__:
            check_tool_budget(cls)
        if getattr(cls, "model_tool_max_retries", None) is not None:
            from ._retry_budget import check_max_retries

            check_max_retries(cls)
        fields = [name for name in cls.model_fields if name in _CONFIG_NAMES]
        if fields:
            name = fields[0]
            raise ToolDefinitionError(
                f"{cls.__name__}.{name} is annotated, so pydantic made it a field (an argument "
                f"the model must send) instead of class configuration. Remove the annotation: "
                f"write `{name} = ...`, not `{name}: <type> = ...`."
            )

    @classmethod
    def model_rebuild(
        cls,
        *,
        force: bool = False,
        raise_errors: bool = True,
        _parent_namespace_depth: int = 2,
        _types_namespace: Any = None,
    ) -> bool | None:
        """pydantic's `model_rebuild`; dispatch then reads the new validator."""
        # pydantic resolves names in its caller's frame: one frame further up, past this one
        depth = _parent_namespace_depth + 1 if _parent_namespace_depth > 0 else 0
        rebuilt = super().model_rebuild(
            force=force,
            raise_errors=raise_errors,
            _parent_namespace_depth=depth,
            _types_namespace=_types_namespace,
        )
        forget_plan(cls)
        return rebuilt

    model_tool_requires_approval: ClassVar[bool] = False
    """Class config: calls of this tool wait for your approval in `run_with_approval`
    (and report `needs_approval` as pending calls). For a decision that depends on the
    arguments, override `model_tool_needs_approval` instead."""

    model_tool_external: ClassVar[bool] = False
    """Class config: the tool has no handler; its calls are answered elsewhere (a front
    end, another service, a person). `prepare_tool_calls` validates them as usual, and
    each waits as a `PendingCall` (`pending.external`) until you answer it with
    `pending.answer(content)`; `run_tool_calls` raises `UnhandledCallsError` for them
    before any handler runs. Such a class must not define `model_tool_handler`."""

    def model_tool_needs_approval(self) -> bool | ApprovalRequired:
        """Override to decide from the validated arguments, e.g. only deletions outside
        a scratch folder; by default `model_tool_requires_approval`. Return
        `ApprovalRequired(hint, metadata=...)` instead of True to say why (shown to the
        person deciding as `pending.approval`, stored by `dump_pending`)."""
        return self.model_tool_requires_approval

    @classmethod
    def model_tool_name(cls) -> str:
        """The tool's name: the custom name, else the generated one, else the class name;
        in a namespace, its flat name (`crm__get_customer`, see `model_tool_namespace`)."""
        namespace = cls.model_tool_namespace
        name = cls._local_name()
        return name if namespace is None else namespace.flat_name(name)

    @classmethod
    def _local_name(cls) -> str:
        """The tool's name inside its namespace (its name, without one)."""
        custom, generate = cls.model_tool_custom_name, cls.model_tool_name_generator
        return custom or (generate and generate(cls.__name__)) or cls.__name__

    @classmethod
    def _deferred(cls) -> bool:
        """Whether the tool is found through tool search (its own config or its
        namespace's)."""
        namespace = cls.model_tool_namespace
        return cls.model_tool_defer_loading or (namespace is not None and namespace.defer_loading)

    @classmethod
    def _tool_description(cls, schema_description: object = None) -> str:
        """The custom description, else the class docstring (pydantic's schema
        description), else the nearest documented base's docstring; warns once for a
        tool that has none (the model then sees only its name)."""
        description = cls.model_tool_custom_description
        if description is None:
            description = schema_description if isinstance(schema_description, str) else None
        if description is None:
            description = _inherited_doc(cls)
        if not description and cls not in _WARNED_UNDESCRIBED:
            _WARNED_UNDESCRIBED.add(cls)
            warnings.warn(
                f"The tool {cls.model_tool_name()!r} ({cls.__qualname__}) has no description: "
                "the model sees only its name. Give the class a docstring (or set "
                "`model_tool_custom_description`).",
                ToolwireWarning,
                stacklevel=4,
            )
        return dedent(description or "").strip()


def _check_namespace(cls: type[ToolModel]) -> None:
    """Raise `ToolDefinitionError` for a `model_tool_namespace` that is not a
    `ToolNamespace`, or a tool named like its namespace: OpenAI Responses marks a
    top-level tool loaded by tool search with a namespace of its own name, so a call
    could not tell the two apart."""
    namespace = getattr(cls, "model_tool_namespace", None)
    if namespace is None:
        return
    if not isinstance(namespace, ToolNamespace):
        raise ToolDefinitionError(
            f"{cls.__name__}.model_tool_namespace is {namespace!r}; set it to a "
            "ToolNamespace(name, description), or None."
        )
    if cls._local_name() == namespace.name:
        raise ToolDefinitionError(
            f"{cls.__name__} is named {namespace.name!r} like its namespace: OpenAI Responses "
            "marks a top-level tool that tool search loaded with a namespace of its own "
            "name, so its calls could not be told apart. Give the tool or the namespace "
            "another name."
        )


def _check_external(cls: type[ToolModel]) -> None:
    """Raise `ToolDefinitionError` for an external tool (`model_tool_external`) that
    defines a handler: its calls never run one, so the handler would be dead code that
    looks alive."""
    if not getattr(cls, "model_tool_external", False):
        return
    owner = next((c for c in cls.__mro__ if "model_tool_handler" in c.__dict__), None)
    if owner is None or owner.__module__.split(".")[0] == "toolwire":
        return
    raise ToolDefinitionError(
        f"{cls.__name__} sets model_tool_external = True but defines model_tool_handler"
        f"{'' if owner is cls else f' (inherited from {owner.__qualname__})'}: an external "
        "tool's calls are answered elsewhere (`pending.answer(content)`), never by a "
        "handler. Remove the handler, or drop model_tool_external to run the calls here."
    )


def _refuse_plain_handler(cls: type) -> None:
    """Raise `ToolDefinitionError` if the handler of `cls`, a toolwire.aio tool, would not
    give an awaitable: a plain one would run (side effects and all) and only then fail
    its call, which the model is told to retry. A handler that is still abstract is
    left to the concrete subclasses (each is checked when defined)."""
    owner = next(c for c in cls.__mro__ if "model_tool_handler" in c.__dict__)
    handler = owner.__dict__["model_tool_handler"]  # as defined: not bound, not unwrapped
    if getattr(handler, "__isabstractmethod__", False) or _is_async_callable(handler):
        return
    where = "" if owner is cls else f" (inherited from {owner.__qualname__})"
    raise ToolDefinitionError(
        f"{cls.__name__}.model_tool_handler{where} is not `async def`, but {cls.__name__} is "
        "a toolwire.aio tool, whose handlers are awaited (a plain one would run, then fail "
        "its call, and the model would be told to call again). Define `async def "
        "model_tool_handler` (a decorator's wrapper counts when it is `async def` or wraps "
        "one with functools.wraps), or import BaseFunctionToolModel / BaseCustomToolModel "
        "and ToolGroup from toolwire.core instead."
    )


def _is_async_callable(handler: object) -> bool:
    """Whether calling `handler` gives an awaitable, judged from its definition (it is not
    called): an `async def` function (or one marked with `inspect.markcoroutinefunction`),
    found through `staticmethod`, `classmethod`, bound methods, `functools.partial` and
    `partialmethod`, decorators that keep `__wrapped__` (`functools.wraps`), and the
    `__call__` of a callable object. A plain function that merely returns a coroutine
    does not count: nothing short of calling it would tell."""
    for _ in range(100):  # a `__wrapped__` chain that never ends is not async either
        if inspect.iscoroutinefunction(handler):
            return True
        if isinstance(handler, staticmethod | classmethod | MethodType):
            handler = cast(Any, handler).__func__
        elif isinstance(handler, partial | partialmethod):
            handler = cast(Any, handler).func
        elif hasattr(handler, "__wrapped__"):
            handler = cast(Any, handler).__wrapped__
        elif callable(handler) and not isinstance(handler, type) and not inspect.isroutine(handler):
            handler = type(handler).__call__
        else:
            return False
    return False


_WARNED_UNDESCRIBED: WeakSet[type] = WeakSet()
_DESCRIBED: WeakSet[type] = WeakSet()
"""Tool classes being created whose field docstrings toolwire read (see `_docstrings`)."""


_LIBRARY_MODULES = frozenset(
    {"toolwire", "pydantic", "typing", "typing_extensions", "abc", "builtins"}
)


def _inherited_doc(cls: type) -> str | None:
    """The docstring of `cls` or of its nearest documented base, skipping toolwire's and
    pydantic's own classes, and `Generic` (their docstrings describe libraries, not tools)."""
    for base in cls.__mro__:
        if base.__module__.split(".")[0] in _LIBRARY_MODULES:
            continue
        doc = base.__dict__.get("__doc__")
        if isinstance(doc, str) and doc.strip():
            return doc
    return None


class FunctionToolModel(ToolModel):
    """A function tool: its fields are the arguments the model sends as a JSON object."""

    model_tool_type: ClassVar[Literal["function", "custom"]] = "function"

    model_tool_strict: ClassVar[bool] = False
    """Class config: send `strict: true` (OpenAI, Anthropic) and compile the schema to the
    strict subset; for Gemini, the same portable compilation. See the README's schema notes."""

    model_tool_custom_json_schema: ClassVar[dict[str, Any] | None] = None
    """Class config: a JSON schema to send instead of the one pydantic generates."""

    model_tool_titles: ClassVar[bool] = False
    """Class config: keep the titles pydantic makes up from names in the schema (each
    property's, from its name; each nested model's and enum's, from its class name).
    Left out by default: they repeat the names, on every request. Titles you set
    (`Field(title=...)`, `ConfigDict(title=...)`, title generators) are always kept."""

    model_tool_eager_input_streaming: ClassVar[bool] = False
    """Class config: stream this tool's arguments as the model writes them, without the
    API buffering them to check they are JSON (Anthropic's fine-grained tool streaming,
    `eager_input_streaming`; the other APIs stream arguments that way already). A stream
    cut by `max_tokens` may then end in partial JSON: that call is answered "truncated"
    and never runs."""

    @classmethod
    def model_tool_input_examples(cls) -> Sequence[Self]:
        """Override to show the model well-formed calls: return instances of the class,
        e.g. `[cls(city="Paris"), cls(city="Tokyo", unit="celsius")]`. Called when the
        class is made (an invalid example raises `ToolDefinitionError` then). Anthropic
        gets them as `input_examples`; the other APIs at the end of the description (the
        schema report says so). Each goes as the JSON the model would send: aliases, and
        only the fields the example sets."""
        return ()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        examples: Any = cls.model_tool_input_examples
        if cls.__pydantic_complete__ and examples.__func__ is not _NO_EXAMPLES:
            from ._examples import example_arguments

            example_arguments(cls)  # invalid examples raise now, not at the first request

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[pydantic.BaseModel], handler: pydantic.GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        schema = handler(source)
        if source is cls and cls.model_tool_strict:
            return _before_fields(schema, StrictInput(cls))
        return schema

    @classmethod
    def model_tool_json_schema(cls) -> dict[str, Any]:
        """The JSON schema of the arguments, before any per-API compilation (a fresh copy):
        pydantic's, without the titles it makes up from names (see `model_tool_titles`),
        or `model_tool_custom_json_schema` as given."""
        custom = cls.model_tool_custom_json_schema
        if custom is not None:
            return copy_json(custom)
        from ._nested_docs import DocumentedSchema, UntitledDocumentedSchema

        if cls.model_tool_titles:
            return cls.model_json_schema(schema_generator=DocumentedSchema)
        return cls.model_json_schema(schema_generator=UntitledDocumentedSchema)

    @overload
    @classmethod
    def model_tool_definition(
        cls, api: Literal["chat.completions"] | ChatServer
    ) -> ChatCompletionFunctionToolParam: ...
    @overload
    @classmethod
    def model_tool_definition(cls, api: Literal["responses"]) -> FunctionToolParam: ...
    @overload
    @classmethod
    def model_tool_definition(cls, api: Literal["anthropic"]) -> ToolParam: ...
    @overload
    @classmethod
    def model_tool_definition(cls, api: Literal["gemini"]) -> Tool: ...
    @overload
    @classmethod
    def model_tool_definition(
        cls, api: Api | ChatServer
    ) -> ChatCompletionFunctionToolParam | FunctionToolParam | ToolParam | Tool: ...
    @classmethod
    def model_tool_definition(
        cls, api: Api | ChatServer
    ) -> ChatCompletionFunctionToolParam | FunctionToolParam | ToolParam | Tool:
        """The value to put in the API's `tools` parameter (a fresh object you may mutate)."""
        return adapter(api).function_definition(_function_spec(cls, check_api(api)))

    @overload
    @classmethod
    def model_tool_format(
        cls, api: Literal["chat.completions"] | ChatServer
    ) -> ResponseFormatJSONSchema: ...
    @overload
    @classmethod
    def model_tool_format(
        cls, api: Literal["responses"]
    ) -> ResponseFormatTextJSONSchemaConfigParam: ...
    @overload
    @classmethod
    def model_tool_format(cls, api: Literal["anthropic"]) -> JSONOutputFormatParam: ...
    @overload
    @classmethod
    def model_tool_format(cls, api: Literal["gemini"]) -> GeminiResponseFormat: ...
    @overload
    @classmethod
    def model_tool_format(
        cls, api: Api | ChatServer
    ) -> (
        ResponseFormatJSONSchema
        | ResponseFormatTextJSONSchemaConfigParam
        | JSONOutputFormatParam
        | GeminiResponseFormat
    ): ...
    @classmethod
    def model_tool_format(
        cls, api: Api | ChatServer
    ) -> (
        ResponseFormatJSONSchema
        | ResponseFormatTextJSONSchemaConfigParam
        | JSONOutputFormatParam
        | GeminiResponseFormat
    ):
        """The structured-output format for this model: `response_format` (chat),
        `text={"format": ...}` (responses), `output_config={"format": ...}` (anthropic),
        or `GenerateContentConfig(**...)` fields (gemini)."""
        return adapter(api).output_format(_function_spec(cls, check_api(api), output=True))

    @classmethod
    def model_tool_schema_report(
        cls, api: Api | ChatServer, *, output: bool = False
    ) -> SchemaReport:
        """What compiling this tool's schema for `api` changed, and whether it lost anything
        (`output=True`: the structured-output format's schema)."""
        return _function_spec(cls, check_api(api), output=output).report

    @classmethod
    def model_tool_standard_definition(cls) -> StandardFunctionToolDefinition:
        """toolcall's neutral description of this tool: name, description, strictness
        and the schema before per-API compilation (its methods compile it per API)."""
        from ._standard import StandardFunctionToolDefinition

        schema, description, custom = _source_schema(cls)
        definition = StandardFunctionToolDefinition(
            name=cls.model_tool_name(),
            description=cls._tool_description(description),
            strict=cls.model_tool_strict,
            json_schema=schema,
        )
        definition._custom_schema = custom
        return definition

    @classmethod
    def model_tool_pretty_definition(cls) -> str:
        """For debugging: the tool's name, description, strictness and JSON schema."""
        schema = cls.model_tool_json_schema()
        description = cls._tool_description(schema.pop("description", None))
        schema.pop("title", None)
        body = {
            "name": cls.model_tool_name(),
            "description": description,
            "strict": cls.model_tool_strict,
            "parameters": schema,
        }
        return f"{cls.__name__}({json.dumps(body, indent=4, ensure_ascii=False)})"


_NO_EXAMPLES: Any = cast(Any, FunctionToolModel.model_tool_input_examples).__func__
"""The base's `model_tool_input_examples`, which gives none."""


class CustomToolModel(ToolModel):
    """An OpenAI custom tool: the model sends free text (optionally grammar-constrained)."""

    model_tool_type: ClassVar[Literal["function", "custom"]] = "custom"

    input: str | Any  # `| Any`: a subclass may narrow it (`input: Literal["a", "b"]`)
    """The text the model sent. Override the type, or add a field validator, to validate it."""

    model_tool_format: ClassVar[
        CustomToolFormat | StandardCustomToolTextFormat | StandardCustomToolGrammarFormat | None
    ] = None
    """Class config: `{"type": "text"}` or `{"type": "grammar", "syntax": "lark" | "regex",
    "definition": "..."}` (or toolcall's `StandardCustomToolTextFormat()` /
    `StandardCustomToolGrammarFormat(...)`); None sends no format (unconstrained text)."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        extra = extra_fields(cls)
        if any(cls.model_fields[name].is_required() for name in extra):
            raise CustomToolError(_extra_fields_message(cls, extra))
        if extra:
            # toolcall defined such a class and refused its calls; keep that (its users'
            # code defines them), but say so now.
            warnings.warn(
                _extra_fields_message(cls, extra) + " Calls to it raise CustomToolError.",
                ToolwireWarning,
                stacklevel=3,
            )
        try:
            normalize_format(cls, cls.model_tool_format)
        except CustomToolError as error:
            # Raised again where the format is used (definitions, group build), where
            # toolcall raised it; said now so it is seen early.
            warnings.warn(str(error), ToolwireWarning, stacklevel=3)

    @overload
    @classmethod
    def model_tool_definition(
        cls, api: Literal["chat.completions"] | ChatServer
    ) -> ChatCompletionCustomToolParam: ...
    @overload
    @classmethod
    def model_tool_definition(cls, api: Literal["responses"]) -> CustomToolParam: ...
    @overload
    @classmethod
    def model_tool_definition(
        cls, api: Api | ChatServer
    ) -> ChatCompletionCustomToolParam | CustomToolParam: ...
    @classmethod
    def model_tool_definition(
        cls, api: Api | ChatServer
    ) -> ChatCompletionCustomToolParam | CustomToolParam:
        """The value to put in the API's `tools` parameter. OpenAI only: Anthropic and Gemini
        have no custom tools, so asking for them raises `UnsupportedToolError`."""
        bound = adapter(api)
        spec = CustomToolSpec(
            name=cls.model_tool_name(),
            description=cls._tool_description(),
            format=normalize_format(cls, cls.model_tool_format),
            namespace=cls.model_tool_namespace,
            local_name=cls._local_name(),
            defer_loading=cls._deferred(),
        )
        definition = bound.custom_definition(spec)  # an API without custom tools raises
        if cls.model_tool_allowed_callers is None:
            return definition
        callers = custom_tool_callers(cls, bound.api, bound.caller_names)
        return bound.custom_definition(dataclasses.replace(spec, allowed_callers=callers))

    @classmethod
    def model_tool_standard_definition(cls) -> StandardCustomToolDefinition:
        """toolcall's neutral description of this tool: name, description and format."""
        from ._standard import (
            StandardCustomToolDefinition,
            StandardCustomToolGrammarFormat,
            StandardCustomToolTextFormat,
        )

        fmt = normalize_format(cls, cls.model_tool_format)
        return StandardCustomToolDefinition(
            name=cls.model_tool_name(),
            description=cls._tool_description(),
            format=None
            if fmt is None
            else StandardCustomToolTextFormat()
            if fmt["type"] == "text"
            else StandardCustomToolGrammarFormat(
                syntax=fmt["syntax"], definition=fmt["definition"]
            ),
        )

    @classmethod
    def model_tool_pretty_definition(cls) -> str:
        """For debugging: the tool's name, description and input format."""
        body = {
            "name": cls.model_tool_name(),
            "description": cls._tool_description(),
            "format": normalize_format(cls, cls.model_tool_format),
        }
        return f"{cls.__name__}({json.dumps(body, indent=4, ensure_ascii=False)})"


_SPECS: WeakKeyDictionary[type[FunctionToolModel], dict[tuple[Api, bool], FunctionToolSpec]] = (
    WeakKeyDictionary()
)


_NEEDS_INPUT_PLAN = frozenset({"made_required_nullable", "encoded_as_pairs", "encoded_as_object"})


def _function_spec(
    cls: type[FunctionToolModel], api: Api, *, output: bool = False
) -> FunctionToolSpec:
    """The tool (or, with `output`, its structured-output format) compiled for `api`,
    computed once per class, API and purpose.

    Class configuration is read on first use; set it in the class body.
    """
    per_api = _SPECS.get(cls)
    if per_api is None:
        per_api = _SPECS[cls] = {}
    # Where the API always constrains structured output, formats compile strict.
    key = (api, output and adapter(api).output_always_strict)
    spec = per_api.get(key)
    if spec is None:
        from ._schema import compile_schema

        schema, description, custom = _source_schema(cls)
        if not custom:
            from ._aliases import refuse_unreachable_aliases

            refuse_unreachable_aliases(cls)
        strict = cls.model_tool_strict or key[1]
        # A class that checks its arguments by other means (an MCP tool) says which
        # constraints it leaves unchecked, for the report.
        unchecked = getattr(cls, "_toolwire_unchecked", None)
        compiled = compile_schema(schema, api, strict=strict, custom=custom, unchecked=unchecked)
        if strict and not cls.model_tool_strict:
            _check_output_needs(cls, api, compiled.report)
        text, report, examples = cls._tool_description(description), compiled.report, ()
        callers: tuple[str, ...] = ()
        if not output:
            from ._examples import example_arguments, with_examples_described

            text, examples, report = with_examples_described(
                text,
                example_arguments(cls),
                report,
                api,
                native=adapter(api).native_input_examples,
            )
            if cls.model_tool_allowed_callers is not None:
                from ._callers import allowed_callers_of, with_callers_reported

                callers, report = with_callers_reported(
                    allowed_callers_of(cls), report, api, adapter(api).caller_names
                )
        spec = per_api[key] = FunctionToolSpec(
            name=cls.model_tool_name(),
            description=text,
            parameters=compiled.schema,
            strict=strict,
            report=report,
            namespace=None if output else cls.model_tool_namespace,
            local_name="" if output else cls._local_name(),
            defer_loading=not output and cls._deferred(),
            input_examples=examples,
            eager_input_streaming=not output and cls.model_tool_eager_input_streaming,
            allowed_callers=callers,
        )
    return spec


def _source_schema(cls: type[FunctionToolModel]) -> tuple[dict[str, Any], object, bool]:
    """The schema every API compiles from, its description, and whether it is the
    class's custom schema (sent as given, so its root title and description stay)."""
    custom = cls.model_tool_custom_json_schema is not None
    schema = cls.model_tool_json_schema()
    description = schema.get("description")
    if not custom:
        schema.pop("title", None)
        schema.pop("description", None)
    return schema, description, custom


def extra_fields(cls: type[pydantic.BaseModel]) -> list[str]:
    """A custom tool's fields besides `input` (it may have none)."""
    return [name for name in cls.model_fields if name != "input"]


def missing_handler(tool: object) -> str:
    """The error for a tool class that defines no `model_tool_handler`."""
    name = type(tool).__name__
    if getattr(tool, "model_tool_external", False):
        return f"{name} is an external tool (model_tool_external): its calls are answered elsewhere. Prepare them with group.prepare_tool_calls(...) and answer each with pending.answer(content)."  # fmt: skip
    if isinstance(tool, FunctionToolModel):
        return f"{name} defines no model_tool_handler; define one to use it as a tool, or use the class only with model_tool_format()."  # fmt: skip
    return f"{name} defines no model_tool_handler; define one to use it as a tool."


def refuse_extra_fields(cls: type[pydantic.BaseModel]) -> None:
    """Raise `CustomToolError` for a custom tool with fields besides `input` (its calls
    cannot be answered: the model sends only the text)."""
    extra = extra_fields(cls)
    if extra:
        raise CustomToolError(_extra_fields_message(cls, extra))


def _extra_fields_message(cls: type, extra: list[str]) -> str:
    return (
        f"Custom tool {cls.__name__} may only have the field 'input' (the text the model "
        f"sends), but it also declares {extra}. Derive other values from `input` with "
        "computed fields or validators, or make it a function tool "
        "(BaseFunctionToolModel) if it takes several arguments."
    )


def _check_output_needs(cls: type, api: Api, report: SchemaReport) -> None:
    """An always-enforced format whose compilation needs the strict input plan (nulls
    for defaults, dicts sent as pairs) can only parse back on a strict class."""
    fields = sorted({c.path or "(root)" for c in report.changes if c.action in _NEEDS_INPUT_PLAN})
    if fields:
        from .exceptions import SchemaError

        raise SchemaError(
            f"{cls.__name__} as {api} structured output: {api} always enforces the schema, "
            f"so {', '.join(fields)} must be sent in a form only a strict tool class turns "
            f"back into your values. Set `model_tool_strict = True` on {cls.__name__}."
        )


def normalize_format(cls: type, value: object) -> CustomToolFormat | None:
    """Accept the Responses (flat) or Chat (nested) grammar shape; raise on anything else."""
    if value is None:
        return None
    standard = sys.modules.get("toolwire._standard")  # loaded if the value is one of its models
    if standard is not None and isinstance(
        value, standard.StandardCustomToolTextFormat | standard.StandardCustomToolGrammarFormat
    ):
        return standard.plain_format(value)
    if isinstance(value, dict):
        fmt: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
        if fmt.get("type") == "text" and set(fmt) == {"type"}:
            return {"type": "text"}
        grammar: Any = fmt.get("grammar", fmt)
        if fmt.get("type") == "grammar" and isinstance(grammar, dict):
            inner = cast("dict[str, Any]", grammar)
            syntax, definition = inner.get("syntax"), inner.get("definition")
            if syntax in ("lark", "regex") and isinstance(definition, str):
                return {"type": "grammar", "syntax": syntax, "definition": definition}
    raise CustomToolError(
        f"{cls.__name__}.model_tool_format is {value!r}; use None, {{'type': 'text'}}, or "
        "{'type': 'grammar', 'syntax': 'lark' or 'regex', 'definition': '...'}."
    )


def _before_fields(schema: core_schema.CoreSchema, apply: StrictInput) -> core_schema.CoreSchema:
    """`schema` with `apply` run just before the model's fields validate.

    The wrapper goes on the model's inner fields schema, not around the model: the
    class's own validators still see the raw data first, and `model_json_schema()`
    keeps working for recursive models.
    """
    if schema["type"] == "model":
        inner = core_schema.no_info_before_validator_function(apply, schema["schema"])
        return {**schema, "schema": inner}
    if "schema" in schema:
        nested: Any = schema["schema"]
        wrapped: Any = {**schema, "schema": _before_fields(nested, apply)}
        return wrapped
    return core_schema.no_info_before_validator_function(apply, schema)


def finish_base(cls: type[pydantic.BaseModel], *, public: bool = False) -> None:
    """Make a tool base class cheap to subclass; `public` bases also turn on field
    docstrings (a docstring under a field becomes its description) for subclasses.

    Pydantic evaluates every base's annotations again for each subclass it builds, and
    ours are strings (postponed evaluation): a compile each, most of the cost of
    defining a tool. Most are `ClassVar`s, which pydantic has recorded in
    `__class_vars__` by now (subclasses inherit that set, and it is what pydantic checks
    their class attributes against), so they leave the runtime annotations (type
    checkers read the source and still see them); the rest are evaluated here once.
    The bases have no fields, but pydantic would still tokenize their long bodies to
    look for docstrings (a fifth of `import toolwire.core`), so the option is switched
    on only once they exist.
    """
    own: dict[str, Any] = cls.__dict__.get("__annotations__", {})
    for name in cls.__class_vars__ & own.keys():
        del own[name]
    module = vars(sys.modules[cls.__module__])
    for name, annotation in own.items():
        if isinstance(annotation, str):
            # A name imported for type checkers only stays text (pydantic copes).
            with contextlib.suppress(NameError):
                own[name] = eval(annotation, module)
    if public:
        cls.model_config["use_attribute_docstrings"] = True


for _base in (ToolModel, FunctionToolModel, CustomToolModel):
    finish_base(_base)
