"""README's shell completion lines: the installed `pbm` prints a completion script for bash,
zsh and fish (click's), each in a fresh process as a shell runs it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.test_cli_fresh import PBM

ROOT = Path(__file__).resolve().parent.parent

# What each shell's script must hold: its completion function, and how it is hooked in.
SCRIPTS = {
    "bash": ("_pbm_completion()", "complete -o nosort -F _pbm_completion pbm"),
    "zsh": ("#compdef pbm", "compdef _pbm_completion pbm"),
    "fish": ("function _pbm_completion", "complete --no-files --command pbm"),
}


@pytest.mark.parametrize("shell", sorted(SCRIPTS))
def test_pbm_prints_a_completion_script(shell: str, tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBM_")}
    env["_PBM_COMPLETE"] = f"{shell}_source"
    done = subprocess.run([str(PBM)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    for part in SCRIPTS[shell]:
        assert part in done.stdout, done.stdout
    assert "_PBM_COMPLETE=" in done.stdout  # it calls pbm back for the words


def test_bash_completes_the_commands(tmp_path: Path):
    """The script's own protocol, as bash's hook calls it: the words after `pbm d`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBM_")}
    env.update(_PBM_COMPLETE="bash_complete", COMP_WORDS="pbm d", COMP_CWORD="1")
    done = subprocess.run([str(PBM)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "plain,db" in done.stdout.splitlines(), done.stdout


def test_the_readme_gives_these_lines():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Shell completion", 1)[1].split("\n#", 1)[0]
    assert 'eval "$(_PBM_COMPLETE=bash_source pbm)"' in section
    assert 'eval "$(_PBM_COMPLETE=zsh_source pbm)"' in section
    assert "_PBM_COMPLETE=fish_source pbm | source" in section


def test_bash_takes_the_readme_line(tmp_path: Path):
    """The ~/.bashrc line in a real bash: afterwards bash completes `pbm` with the script."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBM_")}
    env["PATH"] = f"{PBM.parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(["bash", "--norc", "-c",
                           'eval "$(_PBM_COMPLETE=bash_source pbm)" && complete -p pbm'],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "complete -o nosort -F _pbm_completion pbm"
