"""`python -m examples`: run every example, always offline (API keys are ignored)."""

from __future__ import annotations

import re

from examples._runner import example_names, run

HEADING = re.compile(r"^=== examples/(\w+)\.py\n", re.MULTILINE)
"""What opens each example's output in what `main` prints."""
CLOSING = re.compile(r"^=== (\d+) examples ran offline\.\n\Z", re.MULTILINE)
"""What closes it."""


def main() -> None:
    names = example_names()
    for name in names:
        print(f"=== examples/{name}.py")
        print(run(name), end="")
    print(f"=== {len(names)} examples ran offline.")


def outputs_in(printed: str) -> dict[str, str]:
    """Each example's output, by name, in what `main` printed (generate_readme.py
    --outputs reads CI's run of it instead of running every example again)."""
    closing = CLOSING.search(printed)
    parts = HEADING.split(printed[: closing.start()] if closing else "")
    if closing is None or parts[0] or len(parts) // 2 != int(closing[1]):
        raise ValueError(
            "Not the whole of what `python -m examples` prints (each example's output "
            "under === examples/NAME.py, then === N examples ran offline.): run it again."
        )
    return dict(zip(parts[1::2], parts[2::2], strict=True))


if __name__ == "__main__":
    main()
