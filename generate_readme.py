"""Build README.md from README.template.md and the files in examples/.

Placeholders:
    {{ example: NAME }}   the code of examples/NAME.py, in a python block
    {{ output: NAME }}    what examples/NAME.py prints when run offline, in a text block

An unknown placeholder, a missing example, or an example the template does not
show is an error, so the README cannot drift from the examples. Run it with no
arguments to rewrite README.md, or with --check to fail if README.md is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from examples._runner import example_names, run

ROOT = Path(__file__).resolve().parent
TEMPLATE = ROOT / "README.template.md"
README = ROOT / "README.md"
PLACEHOLDER = re.compile(r"\{\{\s*([a-z]+)\s*:\s*([A-Za-z0-9_]+)\s*\}\}")
HEADER = "<!-- Generated from README.template.md and examples/ by generate_readme.py. Do not edit. -->\n\n"


def render() -> str:
    template = TEMPLATE.read_text()
    names = set(example_names())
    shown: set[str] = set()
    outputs: dict[str, str] = {}

    def replace(match: re.Match[str]) -> str:
        kind, name = match.group(1), match.group(2)
        if name not in names:
            raise SystemExit(f"README.template.md: no example named {name!r} ({match.group(0)}).")
        if kind == "example":
            shown.add(name)
            code = (ROOT / "examples" / f"{name}.py").read_text().rstrip()
            return f"```python\n# examples/{name}.py\n{code}\n```"
        if kind == "output":
            if name not in outputs:
                outputs[name] = run(name).rstrip()
            return f"```text\n{outputs[name]}\n```"
        raise SystemExit(f"README.template.md: unknown placeholder {match.group(0)!r}.")

    body = PLACEHOLDER.sub(replace, template)
    leftover = re.search(r"\{\{.*?\}\}", body)
    if leftover:
        raise SystemExit(f"README.template.md: malformed placeholder {leftover.group(0)!r}.")
    missing = sorted(names - shown)
    if missing:
        raise SystemExit(f"README.template.md does not show these examples: {', '.join(missing)}.")
    return HEADER + body


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if README.read_text() != text:
            print("README.md is stale: run `python generate_readme.py` and commit it.")
            return 1
        return 0
    README.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
