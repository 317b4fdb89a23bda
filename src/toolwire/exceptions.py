"""Exceptions toolwire raises, and the one a handler raises to talk to the model.

Hierarchy::

    ToolwireError                      every error toolwire raises itself
    ├── ToolDefinitionError (TypeError)  a tool class or group is set up wrong
    │   ├── DuplicateToolNameError (ValueError)
    │   └── UnsupportedToolError        e.g. a custom (grammar) tool on Anthropic
    ├── SchemaError (ValueError)        a schema an API cannot take (names the field)
    ├── UnknownApiError (ValueError)    an `api=` value toolwire does not know
    ├── CallKindMismatchError (TypeError)  a custom call sent to a function tool, ...
    ├── UnhandledCallsError (ValueError)   client-side calls toolwire cannot run
    ├── StreamIncompleteError (RuntimeError)  a stream that ended without a final response
    └── ToolBatchError (ExceptionGroup)   unexpected handler exceptions in a batch

    ErrorForLLMToSee                   raised by *your* handler: its text goes to the model

Developer mistakes raise at once. Everything a model can produce (bad JSON,
unknown names, invalid arguments) becomes a failure *result*, never an exception.
"""

from __future__ import annotations

__all__ = [
    "CallKindMismatchError",
    "DuplicateToolNameError",
    "ErrorForLLMToSee",
    "SchemaError",
    "StreamIncompleteError",
    "ToolDefinitionError",
    "ToolwireError",
    "UnhandledCallsError",
    "UnknownApiError",
    "UnsupportedToolError",
]


class ErrorForLLMToSee(Exception):
    """Raise this in a handler to answer the call with an error the model can act on.

    Its text becomes the call's result content (with `is_error` on Anthropic and
    `{"error": ...}` on Gemini). It is the only handler exception toolwire catches.
    """


class ToolwireError(Exception):
    """Base class of every error toolwire raises itself."""


class ToolDefinitionError(ToolwireError, TypeError):
    """A tool class or tool group is set up in a way toolwire cannot use."""


class DuplicateToolNameError(ToolDefinitionError, ValueError):
    """Two tools in one group have the same name."""


class UnsupportedToolError(ToolDefinitionError):
    """A tool kind the API does not have (custom/grammar tools on Anthropic or Gemini)."""


class SchemaError(ToolwireError, ValueError):
    """A tool's JSON schema cannot be expressed for an API. The message names the field."""


class UnknownApiError(ToolwireError, ValueError):
    """An `api=` value that is not one of the four API names."""


class CallKindMismatchError(ToolwireError, TypeError):
    """A call's kind (function or custom) does not match the tool it names."""


class UnhandledCallsError(ToolwireError, ValueError):
    """A response holds client-side calls toolwire cannot run (computer, shell, MCP...)."""


class StreamIncompleteError(ToolwireError, RuntimeError):
    """A stream ended without the event that completes a response."""
