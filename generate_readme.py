"""Build README.md and docs/examples.md from their templates and the files in examples/.

Pages (template -> generated file):
    README.template.md          -> README.md            what toolwire is, the quickstart, the guide
    docs/examples.template.md   -> docs/examples.md     every other example, by API and feature

Placeholders, in either template:
    {{ example: NAME }}   the code of examples/NAME.py, in a python block
    {{ output: NAME }}    what examples/NAME.py prints when run offline, in a text block
    {{ diff: NAME }}      for an `_async` example: how it differs from its sync twin (a
                          unified diff), then its output, or a note that the output is the
                          same as the twin's
    {{ benchmarks: NAME }} the table benchmarks/NAME.md that `python -m benchmarks --write`
                          saved (the last full run, with its machine and versions)

An unknown placeholder, a missing example, or an example that no page shows (with
`example` or `diff`) is an error, so the pages cannot drift from the examples. Run it
with no arguments to rewrite both pages, or with --check to fail if either is stale.
With --outputs FILE, the examples' outputs are read from FILE, what `python -m examples`
printed (CI passes its own run), instead of running each example again.
"""

from __future__ import annotations

import difflib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from examples.__main__ import outputs_in
from examples._runner import example_names, run

ROOT = Path(__file__).resolve().parent
PLACEHOLDER = re.compile(r"\{\{\s*([a-z]+)\s*:\s*([A-Za-z0-9_]+)\s*\}\}")


@dataclass(frozen=True)
class Page:
    """One generated Markdown file and the template it is rendered from."""

    template: str
    output: str

    def header(self) -> str:
        return (
            f"<!-- Generated from {self.template} and examples/ by generate_readme.py. "
            "Do not edit. -->\n\n"
        )


PAGES = (
    Page(template="README.template.md", output="README.md"),
    Page(template="docs/examples.template.md", output="docs/examples.md"),
)


class _Renderer:
    """Renders every page, running each example at most once, and remembers which
    examples a page showed."""

    def __init__(self, printed: dict[str, str] | None = None) -> None:
        self.names = set(example_names())
        self.shown: set[str] = set()
        self._printed = printed or {}
        """Outputs already printed, by example name: used instead of running it."""
        self._outputs: dict[str, str] = {}

    def output(self, name: str) -> str:
        if name not in self._outputs:
            printed = self._printed.get(name)
            self._outputs[name] = (run(name) if printed is None else printed).rstrip()
        return self._outputs[name]

    def code(self, name: str) -> str:
        return (ROOT / "examples" / f"{name}.py").read_text().rstrip()

    def render(self, page: Page) -> str:
        def replace(match: re.Match[str]) -> str:
            kind, name = match.group(1), match.group(2)
            if kind == "benchmarks":
                return self.benchmarks(page, name)
            if name not in self.names:
                raise SystemExit(f"{page.template}: no example named {name!r} ({match.group(0)}).")
            if kind == "example":
                self.shown.add(name)
                return f"```python\n# examples/{name}.py\n{self.code(name)}\n```"
            if kind == "output":
                return f"```text\n{self.output(name)}\n```"
            if kind == "diff":
                self.shown.add(name)
                return self.diff(page, name)
            raise SystemExit(f"{page.template}: unknown placeholder {match.group(0)!r}.")

        body = PLACEHOLDER.sub(replace, (ROOT / page.template).read_text())
        leftover = re.search(r"\{\{.*?\}\}", body)
        if leftover:
            raise SystemExit(f"{page.template}: malformed placeholder {leftover.group(0)!r}.")
        return page.header() + body

    def benchmarks(self, page: Page, name: str) -> str:
        """The table `python -m benchmarks --write` saved (measuring is slow and noisy,
        so pages show the last full run rather than run it)."""
        saved = ROOT / "benchmarks" / f"{name}.md"
        if not saved.is_file():
            raise SystemExit(f"{page.template}: no {saved.relative_to(ROOT)}; run `python -m benchmarks --write`.")  # fmt: skip
        return saved.read_text().rstrip()

    def diff(self, page: Page, name: str) -> str:
        twin = name.removesuffix("_async")
        if twin == name or twin not in self.names:
            raise SystemExit(
                f"{page.template}: {{{{ diff: {name} }}}} needs an `_async` example whose sync "
                f"twin examples/{twin}.py exists; show it with {{{{ example: {name} }}}} instead."
            )
        lines = difflib.unified_diff(
            self.code(twin).splitlines(),
            self.code(name).splitlines(),
            f"examples/{twin}.py",
            f"examples/{name}.py",
            n=1,
            lineterm="",
        )
        shown = "```diff\n" + "\n".join(lines) + "\n```"
        if self.output(name) == self.output(twin):
            return f"{shown}\n\nIt prints the same as `examples/{twin}.py`."
        return f"{shown}\n\nIt prints:\n\n```text\n{self.output(name)}\n```"


def render_pages(printed: dict[str, str] | None = None) -> dict[str, str]:
    """Every page's generated text, by its path relative to the project root; `printed`
    holds outputs already printed, by example name (the others run)."""
    renderer = _Renderer(printed)
    pages = {page.output: renderer.render(page) for page in PAGES}
    missing = sorted(renderer.names - renderer.shown)
    if missing:
        raise SystemExit(
            f"No page shows these examples: {', '.join(missing)}. Add each to "
            "docs/examples.template.md under its API and feature, with "
            "{{ example: NAME }} and {{ output: NAME }} (or {{ diff: NAME }} for an "
            "async twin)."
        )
    return pages


def main(argv: list[str]) -> int:
    printed = None
    if "--outputs" in argv:
        given = argv[argv.index("--outputs") + 1 :][:1]
        if not given:
            raise SystemExit("--outputs needs a file: what `python -m examples` printed.")
        printed = outputs_in(Path(given[0]).read_text())
    pages = render_pages(printed)
    if "--check" in argv:
        stale = [
            output
            for output, text in pages.items()
            if not (ROOT / output).is_file() or (ROOT / output).read_text() != text
        ]
        if stale:
            print(f"Stale: {', '.join(stale)}. Run `python generate_readme.py` and commit.")
            return 1
        return 0
    for output, text in pages.items():
        (ROOT / output).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
