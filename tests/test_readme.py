"""README's first commands stay true: CI runs the test command README gives."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.startswith("    python3 -m venv")]


def test_readme_opens_with_server_and_test_commands():
    commands = _commands()
    assert len(commands) == 2
    assert commands[0].endswith("pbm serve")
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _commands()[1] in [line.strip() for line in ci]
