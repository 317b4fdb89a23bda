"""Every example runs offline, and the generated pages show the current examples and
outputs.

Each example runs once per session (`output_of`): the pages and the main job are checked
against those outputs. pytest-xdist runs a file's tests on one worker (`--dist loadfile`
in pyproject.toml), so that holds with parallel workers too.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from inline_snapshot import snapshot

import examples.__main__
import generate_readme
from examples._runner import example_names, run
from tests.strength import ci_only

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def output_of(name: str) -> str:
    """What examples/NAME.py prints offline, from its one run in this session."""
    return run(name)


@pytest.mark.parametrize("name", example_names())
def test_example_runs_offline(name: str) -> None:
    """The example completes against the fake and prints something."""
    assert output_of(name).strip()


def test_pages_are_generated_from_current_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    """README.md and docs/examples.md equal what generate_readme.py renders now (run it
    and commit if not)."""
    monkeypatch.setattr(generate_readme, "run", output_of)
    pages = generate_readme.render_pages()
    assert sorted(pages) == ["README.md", "docs/examples.md"]
    for output, text in pages.items():
        assert (ROOT / output).read_text() == text, f"{output} is stale"


def test_readme_opens_with_what_it_is_install_and_the_quickstart() -> None:
    """The first screen: a sentence on what it is, `pip install`, then the quickstart
    example with its output; no section heading comes before them."""
    readme = (ROOT / "README.md").read_text()
    first_section = readme.split("\n## ", 1)[0]
    install = first_section.index('pip install "toolwire[openai]"')
    quickstart = first_section.index("# examples/quickstart.py")
    assert install < quickstart < first_section.index("```text\n")
    assert len((ROOT / "examples" / "quickstart.py").read_text().splitlines()) <= 40


def test_development_has_exactly_two_commands_and_ci_runs_both() -> None:
    """The Development section holds two one-line shell commands (run the examples, run
    the tests); .ci/run runs both verbatim."""
    readme = (ROOT / "README.md").read_text()
    development = readme.split("\n## Development\n", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", development, re.DOTALL)
    assert len(commands) == 2
    assert all("\n" not in command for command in commands)
    assert "python -m examples" in commands[0] and "pytest" in commands[1]
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[0] in ci_lines and commands[1] in ci_lines


def test_every_example_is_shown_on_exactly_the_pages_that_name_it() -> None:
    """The README shows the quickstart; docs/examples.md shows every other example."""
    readme = (ROOT / "README.md").read_text()
    gallery = (ROOT / "docs" / "examples.md").read_text()
    for name in example_names():
        marker = f"examples/{name}.py\n"
        shown_in = [
            page for page, text in (("README", readme), ("gallery", gallery)) if marker in text
        ]
        assert shown_in == (["README"] if name == "quickstart" else ["gallery"]), name


def _fake_run(name: str) -> str:
    return f"output of {name}\n"


def _same_run(name: str) -> str:
    return "the same\n"


def test_an_example_shown_nowhere_fails_the_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new example that neither template shows stops generate_readme.py with a message
    that says where to add it."""
    names = [*example_names(), "chat_brand_new"]
    monkeypatch.setattr(generate_readme, "example_names", lambda: names)
    monkeypatch.setattr(generate_readme, "run", _fake_run)
    with pytest.raises(
        SystemExit,
        match=r"No page shows these examples: chat_brand_new\. .*docs/examples\.template\.md",
    ):
        generate_readme.render_pages()


def test_check_reports_a_stale_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--check` fails when either page differs from what would be generated, and names it."""
    monkeypatch.setattr(generate_readme, "run", _fake_run)
    for page in generate_readme.PAGES:
        (tmp_path / page.template).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / page.template).write_text((ROOT / page.template).read_text())
    monkeypatch.setattr(generate_readme, "ROOT", tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    assert generate_readme.main([]) == 0
    assert generate_readme.main(["--check"]) == 0
    (tmp_path / "docs" / "examples.md").write_text("edited by hand\n")
    assert generate_readme.main(["--check"]) == 1


def _render(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, template: str) -> str:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    (tmp_path / "page.template.md").write_text(template)
    monkeypatch.setattr(generate_readme, "ROOT", tmp_path)
    page = generate_readme.Page(template="page.template.md", output="page.md")
    return generate_readme._Renderer().render(page)


def test_diff_shows_what_an_async_twin_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diff` renders the twin's changes as a unified diff, then its output, or a note
    when it prints the same as the sync example."""
    monkeypatch.setattr(generate_readme, "run", _fake_run)
    text = _render(tmp_path, monkeypatch, "{{ diff: chat_tool_async }}")
    assert "```diff\n--- examples/chat_tool.py\n+++ examples/chat_tool_async.py\n@@ " in text
    assert "\n-from toolwire.core import" in text and "\n+from toolwire.aio import" in text
    assert text.endswith("It prints:\n\n```text\noutput of chat_tool_async\n```")
    monkeypatch.setattr(generate_readme, "run", _same_run)
    same = generate_readme._Renderer().render(generate_readme.Page("page.template.md", "page.md"))
    assert same.endswith("```\n\nIt prints the same as `examples/chat_tool.py`.")


def test_diff_needs_an_async_example_with_a_sync_twin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit, match=r"needs an `_async` example whose sync twin"):
        _render(tmp_path, monkeypatch, "{{ diff: chat_tool }}")


def main_job_output() -> str:
    """What `python -m examples` prints: each example's output under its name, then how
    many ran."""
    names = example_names()
    shown = "".join(f"=== examples/{name}.py\n{output_of(name)}" for name in names)
    return f"{shown}=== {len(names)} examples ran offline.\n"


def test_main_job_runs_every_example(monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m examples` runs every example in turn and says how many."""
    monkeypatch.setattr(examples.__main__, "run", output_of)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        examples.__main__.main()
    assert printed.getvalue() == main_job_output()


MAIN_JOB_OUTPUT = "TOOLWIRE_MAIN_JOB_OUTPUT"
"""Names a file holding what `python -m examples` printed: CI runs the README's command
before the suite and saves its output there, so this file need not start it again."""


def fresh_main_job_output() -> str:
    """What `python -m examples` printed in a new interpreter: CI's own run of it when
    MAIN_JOB_OUTPUT names one, else a run started now."""
    saved = os.environ.get(MAIN_JOB_OUTPUT)
    if saved:
        return Path(saved).read_text()
    done = subprocess.run(
        [sys.executable, "-m", "examples"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


@ci_only
def test_main_job_prints_the_same_in_a_fresh_interpreter() -> None:
    """The command itself runs every example again, all in one new process, and each
    prints what it printed in this session."""
    assert fresh_main_job_output() == main_job_output()


def test_benchmarks_placeholder_shows_the_saved_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`benchmarks` renders benchmarks/NAME.md as saved; a missing file says how to make it."""
    page = _render(tmp_path, monkeypatch, "Before.\n\n{{ benchmarks: results }}\n")
    assert page.endswith("Before.\n\n" + (ROOT / "benchmarks" / "results.md").read_text())
    (tmp_path / "missing.template.md").write_text("{{ benchmarks: nothing }}")
    with pytest.raises(
        SystemExit, match=r"no benchmarks/nothing\.md; run `python -m benchmarks --write`"
    ):
        generate_readme._Renderer().render(
            generate_readme.Page(template="missing.template.md", output="missing.md")
        )


def test_the_server_examples_replay_what_each_server_needs() -> None:
    """The examples of servers beyond OpenAI, on fakes imitating those servers: each turn
    (a call written as text among them, a call Groq refused) is answered, and the history
    they build is one the server accepts."""
    assert output_of("chat_local_server") == snapshot(
        """\
Turn: tool_calls
read_file -> Water the plants on Friday.
Turn: calls_in_text
read_file -> Buy soil.
Turn: done
Answer: Water the plants on Friday; the todo list says to buy soil.
Replayed: content='', reasoning='Read it first.'
Problems Ollama would answer 400 to: []
"""
    )
    assert output_of("chat_hosted_models") == snapshot(
        """\
Refused by the server: Tool call validation failed: tool call validation failed: parameters for tool book_table did not match schema: errors: [at '/people': got string, want integer]
book_table -> Booked Chez Anna for 4.
Answer: Booked a table for 4 at Chez Anna.
"""
    )
    assert output_of("chat_gateway") == snapshot(
        """\
convert -> 19,680 JPY
Answer: 120 EUR is about 19,680 JPY.
Replayed reasoning_details: [{'type': 'reasoning.text', 'text': 'The user wants euros in yen.', 'format': 'unknown', 'index': 0}]
Problems the gateway would answer 400 to: []
"""
    )


def test_the_pages_can_take_the_outputs_the_main_job_printed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`generate_readme.py --check --outputs FILE` (CI, with the main job's output) reads
    each example's output from FILE, running none; what it reads is what each printed."""
    assert examples.__main__.outputs_in(main_job_output()) == {
        name: output_of(name) for name in example_names()
    }
    printed = tmp_path / "main-job.log"
    printed.write_text(main_job_output())
    monkeypatch.setattr(generate_readme, "run", _refuse_to_run)
    assert generate_readme.main(["--check", "--outputs", str(printed)]) == 0
    printed.write_text(main_job_output().replace("Sunny", "Rainy", 1))
    assert generate_readme.main(["--check", "--outputs", str(printed)]) == 1


def _refuse_to_run(name: str) -> str:
    raise AssertionError(f"ran {name}: the outputs were given")


@pytest.mark.parametrize(
    "printed",
    [
        "",
        "=== examples/quickstart.py\nhi\n",  # cut before the count
        "=== examples/quickstart.py\nhi\n=== 2 examples ran offline.\n",
        "noise\n=== examples/quickstart.py\nhi\n=== 1 examples ran offline.\n",
    ],
)
def test_outputs_that_are_not_a_whole_main_job_are_refused(printed: str) -> None:
    with pytest.raises(ValueError, match=r"Not the whole of what `python -m examples` prints"):
        examples.__main__.outputs_in(printed)
