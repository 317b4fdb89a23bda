"""Interim pass-through compiler (replaced by the schema branch)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._api import Api
from .._json import copy_json


@dataclass(frozen=True, slots=True)
class SchemaChange:
    path: str
    keyword: str
    action: str
    detail: str
    lossy: bool


@dataclass(frozen=True, slots=True)
class SchemaReport:
    api: Api
    strict: bool
    changes: tuple[SchemaChange, ...]

    @property
    def lossless(self) -> bool:
        return not any(c.lossy for c in self.changes)


@dataclass(frozen=True, slots=True)
class CompiledSchema:
    schema: dict[str, Any]
    report: SchemaReport


class InputPlan:
    def apply(self, data: Any) -> Any:
        return data


def compile_schema(
    schema: Mapping[str, Any], api: Api, *, strict: bool, custom: bool = False
) -> CompiledSchema:
    return CompiledSchema(copy_json(dict(schema)), SchemaReport(api, strict, ()))


def input_plan(model_schema: Mapping[str, Any]) -> InputPlan | None:
    return None
