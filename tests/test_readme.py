"""The README's Python examples run as they are, so they cannot drift from the code; its test command is the one
CI runs; its first command installs the package without extras."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TEXT = README.read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
BASH = re.findall(r"```bash\n(.*?)```", TEXT, flags=re.S)
TRAINING = ("sb3_contrib", "training")       # examples that train a policy: marked slow


def _params():
    for i, code in enumerate(BLOCKS):
        trains = any(re.search(rf"^(from|import) {m}\b", code, flags=re.M) for m in TRAINING)
        yield pytest.param(code, id=f"block{i}", marks=[pytest.mark.slow] if trains else [])


def test_readme_has_examples():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("code", list(_params()))
def test_readme_example_runs(code, tmp_path, monkeypatch, capsys):
    """Every example runs and prints something."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))
    exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})
    assert capsys.readouterr().out.strip()


def test_first_command_installs_the_package_alone_and_plays():
    first = BASH[0].strip()
    assert "pip install -e . " in first and "[" not in first
    assert "blackangel demo" in first


def test_ci_runs_the_readmes_test_command_verbatim():
    test_command = next(b.strip() for b in BASH if "pytest" in b and '".[dev]"' in b)
    assert "\n" not in test_command
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci
