"""Seed parity: every example of toolcall's README runs on toolwire.

The code is read from ../shared/seed/toolcall-README.md at run time (never copied
into this project). Only two things change, as DESIGN.md's "Seed parity" allows:
the import (`toolcall.openai.core` -> `toolwire.core`, `.aio` -> `toolwire.aio`) and,
offline, the line that builds the client, which is pointed at the toolwire fake.
The seed uses PEP 695 syntax, so this runs under Python 3.12+ (`.ci/run` does so);
it is excluded from ruff and pyright.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import io
import re
import sys
from pathlib import Path

import pytest

from tests.shared_data import SEED_README, require_shared

pytestmark = pytest.mark.skipif(
    sys.version_info < (3, 12), reason="the seed's examples use PEP 695 syntax (Python 3.12+)"
)

BLOCK = re.compile(r"```python\n# (examples/[\w/]+\.py)\n(.*?)```", re.DOTALL)
CLIENT_LINE = re.compile(r"^openai_client = (Async)?OpenAI\(api_key=os\.environ\[\"OPENAI_API_KEY\"\]\)$", re.M)
PACKAGE = "seed_examples"


def seed_blocks() -> dict[str, str]:
    """path -> code of every example block in the seed README."""
    return {path: code for path, code in BLOCK.findall(SEED_README.read_text())}


def port(code: str) -> str:
    """The seed code with only the import renamed and the client line pointed at the fake."""
    code = code.replace("toolcall.openai.core", "toolwire.core").replace("toolcall.openai.aio", "toolwire.aio")

    def fake_client(match: re.Match[str]) -> str:
        method = "async_client" if match.group(1) else "client"
        return f"from toolwire.testing import FakeOpenAI; openai_client = FakeOpenAI().{method}()"

    return CLIENT_LINE.sub(fake_client, code)


@pytest.fixture(scope="module")
def seed_package(tmp_path_factory: pytest.TempPathFactory) -> str:
    require_shared()
    root = tmp_path_factory.mktemp("seed")
    blocks = seed_blocks()
    assert len(blocks) == 14, sorted(blocks)
    for path, code in blocks.items():
        target = root / PACKAGE / Path(path).relative_to("examples")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(port(code))
    for folder in (root / PACKAGE, root / PACKAGE / "core", root / PACKAGE / "aio"):
        (folder / "__init__.py").write_text("")
    sys.path.insert(0, str(root))
    yield PACKAGE
    sys.path.remove(str(root))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def test_client_lines_are_the_only_other_change() -> None:
    """Each common.py has exactly one client line to point at the fake."""
    require_shared()
    blocks = seed_blocks()
    for path in ("examples/core/common.py", "examples/aio/common.py"):
        assert len(CLIENT_LINE.findall(blocks[path])) == 1


EXAMPLES = [
    f"{kind}.{name}"
    for kind in ("core", "aio")
    for name in ("chat_output", "chat_tool", "chat_group", "resp_output", "resp_tool", "resp_group")
]


@pytest.mark.parametrize("example", EXAMPLES)
@pytest.mark.filterwarnings("default::toolwire.exceptions.ToolwireWarning")
def test_seed_example_runs(seed_package: str, example: str) -> None:
    """The seed example's main() completes against the fake, printing its conversation.
    (One seed tool has no docstring: toolwire warns that the model sees only its name,
    which must not stop the example, as it would not stop the user's program.)"""
    module = importlib.import_module(f"{seed_package}.{example}")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if inspect.iscoroutinefunction(module.main):
            asyncio.run(module.main())
        else:
            module.main()
    printed = out.getvalue()
    assert "=" * 80 in printed, printed[:200]
    assert "-" * 80 in printed
