"""The generated reference pages are up to date, and the README's examples run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from blackangel_env import docgen

ROOT = Path(__file__).resolve().parents[1]


def test_generated_docs_are_current():
    """docs/actions.md, docs/state_layout.md, docs/components.md (and docs/observation.md) match the code."""
    assert docgen.main(["--check"]) == 0, "run: python -m blackangel_env.docgen"


def test_every_rule_decision_names_a_test_file_that_exists():
    text = (ROOT / "docs" / "rules.md").read_text()
    import re
    files = set(re.findall(r"tests/(test_[a-z_]+\.py)", text))
    assert files
    missing = sorted(f for f in files if not (ROOT / "tests" / f).exists())
    assert not missing, f"docs/rules.md cites missing test files: {missing}"


def test_demo_command_plays_a_whole_game():
    """The README's first command: a complete seeded game, printed, with final scores."""
    out = subprocess.run([sys.executable, "-m", "blackangel_env.cli", "demo", "--players", "2", "--seed", "3",
                          "--every", "end"], capture_output=True, text=True, timeout=120, check=True).stdout
    assert "Final scores" in out and "winner(s): player_" in out
    again = subprocess.run([sys.executable, "-m", "blackangel_env.cli", "demo", "--players", "2", "--seed", "3",
                            "--every", "end"], capture_output=True, text=True, timeout=120, check=True).stdout
    assert out == again


def test_demo_rejects_bad_arguments():
    r = subprocess.run([sys.executable, "-m", "blackangel_env.cli", "demo", "--players", "7"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "num_players" in r.stderr
