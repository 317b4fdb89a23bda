"""Field docstrings read from a tool class's own source, cheaply.

A docstring under a field is its description (pydantic's `use_attribute_docstrings`).
Pydantic finds the class's source by walking the call stack and tokenizing what it
finds: over half the cost of defining a tool, paid by every process for every tool
at start. Here the frame running the `class` statement is known, so the class body is
a slice of the file's cached lines, parsed once.

Whenever the fast reading is unsure (no source, a body it cannot cut by indentation,
a field whose description could also come from elsewhere), it answers None and
pydantic reads the docstrings itself, exactly as before.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import linecache
import re
import typing
from collections.abc import Mapping
from textwrap import dedent
from types import FrameType, ModuleType
from typing import Any

import pydantic
from pydantic.fields import FieldInfo

__all__ = ["describe_fields"]

_CLASS_MACHINERY = frozenset({"__new__", "__init_subclass__"})

_NESTING = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.Try,
    ast.TryStar,
    ast.With,
    ast.AsyncWith,
    ast.Match,
)
"""Statements whose bodies pydantic's reader also looks into (it skips only functions
and classes): a class using them is left to pydantic."""

_SPECIAL_FORMS = ("ClassVar", "Annotated", "Final", "InitVar")
"""Annotations whose field (if any) pydantic builds differently: left to pydantic."""

_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_TYPING_MODULES = frozenset({"typing", "typing_extensions"})


def describe_fields(cls: type, frame: FrameType | None) -> bool:
    """Set the description of each documented field of `cls` (being created: its
    fields are not collected yet) from its docstring. False when pydantic should read
    the docstrings itself.

    `frame` is the caller of `__init_subclass__`: the metaclasses' `__new__` (and any
    `__init_subclass__` above) are skipped to reach the `class` statement.
    """
    while frame is not None and frame.f_code.co_name in _CLASS_MACHINERY:
        frame = frame.f_back
    namespace = cls.__dict__
    annotations: dict[str, Any] = namespace.get("__annotations__") or {}
    if not annotations:
        return True  # no fields of its own: nothing to document
    docs = _attribute_docstrings(cls.__name__, frame)
    if docs is None:
        return False
    described: dict[str, Any] = {}
    for field, doc in docs.items():
        if field.startswith("_") or field not in annotations:
            continue
        annotation = annotations[field]
        text = annotation if isinstance(annotation, str) else repr(annotation)
        if any(form in text for form in _SPECIAL_FORMS):
            return False
        if isinstance(annotation, str) and _names_a_special_form(annotation, namespace, frame):
            return False
        if field not in namespace:
            described[field] = pydantic.Field(description=doc)
            continue
        value: object = namespace[field]
        if isinstance(value, FieldInfo) or hasattr(type(value), "__get__"):
            return False  # Field(...), a descriptor, a method: pydantic knows how to merge
        described[field] = pydantic.Field(value, description=doc)
    for field, info in described.items():
        # Read by pydantic as the field's assigned value, then removed from the class.
        type.__setattr__(cls, field, info)
    return True


def _names_a_special_form(text: str, namespace: Mapping[str, Any], frame: FrameType | None) -> bool:
    """Whether a name in a postponed annotation stands for a special form.

    With `from __future__ import annotations` the text hides aliases that pydantic sees
    once it evaluates it: `Described = Annotated[int, Field(description=...)]` (the
    alias's description wins over the docstring in pydantic), `from typing import
    ClassVar as CV` (no field at all). Names that cannot be found yet (a model defined
    further down, the class itself) are classes in practice, not aliases.
    """
    scopes = (namespace, frame.f_locals, frame.f_globals) if frame is not None else (namespace,)
    for dotted in set(_DOTTED_NAME.findall(text)):
        value = _lookup(dotted, (*scopes, vars(builtins)))
        if value is None or isinstance(value, type):
            continue
        if typing.get_origin(value) is None and type(value).__module__ not in _TYPING_MODULES:
            continue
        shown = repr(getattr(value, "__value__", value))  # a `type X = ...` alias's value
        if any(form in shown for form in _SPECIAL_FORMS):
            return True
    return False


def _lookup(dotted: str, scopes: tuple[Mapping[str, Any], ...]) -> object:
    """The object `dotted` names in the first scope that has it, through modules only."""
    first, *rest = dotted.split(".")
    for scope in scopes:
        if first in scope:
            value: object = scope[first]
            break
    else:
        return None
    for part in rest:
        if not isinstance(value, ModuleType):
            return None
        value = getattr(value, part, None)
    return value


def _attribute_docstrings(name: str, frame: FrameType | None) -> dict[str, str] | None:
    """Field name -> its docstring, as pydantic reads them (a string statement right
    after an annotated assignment), or None when the source cannot be read here."""
    body = _class_body(name, frame)
    if body is None:
        return None
    docs: dict[str, str] = {}
    previous: ast.stmt | None = None
    for statement in body:
        if isinstance(statement, _NESTING):
            return None  # fields under an `if`, `try`...: pydantic reads into those
        if (
            isinstance(previous, ast.AnnAssign)
            and isinstance(previous.target, ast.Name)
            and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            docs[previous.target.id] = inspect.cleandoc(statement.value.value)
        previous = statement
    return docs


def _class_body(name: str, frame: FrameType | None) -> list[ast.stmt] | None:
    if frame is None:
        return None
    lines = linecache.getlines(frame.f_code.co_filename, frame.f_globals)
    start = frame.f_lineno - 1
    if not 0 <= start < len(lines):
        return None
    header = lines[start]
    if re.match(rf"\s*class\s+{re.escape(name)}\b", header) is None:
        return None
    indent = len(header) - len(header.lstrip())
    end = start + 1
    while end < len(lines):
        line = lines[end]
        stripped = line.lstrip()
        # A line at the class's own indentation ends the body, unless it closes the
        # header's brackets. A string or bracket cut this way fails to parse below.
        if stripped and stripped[0] not in "#)]}" and len(line) - len(stripped) <= indent:
            break
        end += 1
    try:
        tree = ast.parse(dedent("".join(lines[start:end])))
    except SyntaxError:
        return None
    statement = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(statement, ast.ClassDef) or statement.name != name:
        return None
    return statement.body
