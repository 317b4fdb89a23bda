"""`python -m examples`: run every example, always offline (API keys are ignored)."""

from __future__ import annotations

from examples._runner import example_names, run


def main() -> None:
    names = example_names()
    for name in names:
        print(f"=== examples/{name}.py")
        print(run(name), end="")
    print(f"=== {len(names)} examples ran offline.")


if __name__ == "__main__":
    main()
