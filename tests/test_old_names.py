"""The agents and the training code are ``blackangel_env.agents`` and ``blackangel_env.training``; the wheel
installs the one top-level package ``blackangel_env`` (docs/architecture.md, "The installed names").  The old names
``agents`` and ``training`` stay usable from a source checkout (the repository's ``agents/`` and ``training/``,
deprecated, not in the wheel), and models saved under the old module paths load without them."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
POLICY_ZIP = ROOT / "results" / "ppo_solo" / "best_model.zip"
SCRIPTS = sorted(p.stem for p in (ROOT / "blackangel_env" / "training").glob("*.py")
                 if "\ndef main(" in p.read_text(encoding="utf-8"))


def _run(code: str, *args: str, path: list[Path] = (ROOT,), cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``python -c code args`` (``python args`` without code) in a fresh interpreter; ``cwd`` is on its path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in path)}
    return subprocess.run([sys.executable, *(("-c", code) if code else ()), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _modules(folder: Path) -> set[str]:
    return {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}


def test_the_wheel_ships_only_blackangel_env():
    try:
        import tomllib
    except ImportError:                                 # Python 3.10
        tomllib = pytest.importorskip("tomli")
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert setuptools["packages"] == {"find": {"include": ["blackangel_env", "blackangel_env.*"]}}
    # nothing else that would put the old names (or other files) into the wheel: the package's data files only,
    # and the build (setup.py) adds extensions of blackangel_env modules only
    assert set(setuptools) <= {"packages", "package-data", "exclude-package-data"}
    assert setuptools["package-data"] == {"blackangel_env": ["data/*", "*.pxd"], "blackangel_env.engine": ["*.pxd"]}
    from blackangel_env._compiled import COMPILED_MODULES
    assert all(m.startswith("blackangel_env.") for m in COMPILED_MODULES)
    assert (ROOT / "blackangel_env" / "agents" / "__init__.py").is_file()
    assert (ROOT / "blackangel_env" / "training" / "__init__.py").is_file()


def test_every_module_keeps_its_old_name():
    for old in ("agents", "training"):
        assert _modules(ROOT / old) == _modules(ROOT / "blackangel_env" / old), old
    assert {"train_ppo", "evaluate", "selfplay", "imitation", "game_stats", "curves", "rllib_train"} <= set(SCRIPTS)


def test_the_old_names_are_the_new_modules_with_a_deprecation_warning():
    code = """
import sys, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import agents
    from agents import make_agent, AGENT_CODES, RandomAgent
    from agents.arena import play_match, wilson_interval
    import agents.codes
    import training
    import training.policies
    from training.train_ppo import train
import blackangel_env.agents as A
import blackangel_env.agents.arena as arena
import blackangel_env.training.policies as policies
import blackangel_env.training.train_ppo as train_ppo
assert make_agent is A.make_agent and RandomAgent is A.RandomAgent and "policy:<checkpoint path>" in AGENT_CODES
assert play_match is arena.play_match and sys.modules["agents.arena"] is arena and agents.arena is arena
assert agents.codes is A.codes and sys.modules["agents.codes"] is A.codes
assert training.policies is policies and sys.modules["training.policies"] is policies
assert train is train_ppo.train and training.agent_codes is sys.modules["blackangel_env.training.agent_codes"]
# no second copy of a module under the old name
assert not [m for m, mod in sys.modules.items()
            if m.split(".")[0] in ("agents", "training") and "." in m and mod is not sys.modules["blackangel_env." + m]]
found = sorted({str(w.message).split(":")[0] for w in caught if w.category is DeprecationWarning})
assert found == ["the package 'agents' is now 'blackangel_env.agents'",
                 "the package 'training' is now 'blackangel_env.training'"], found
"""
    r = _run(code)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("script", SCRIPTS)
def test_python_m_the_old_script_name(script):
    r = _run("", "-m", f"training.{script}", "--help")
    assert r.returncode == 0, r.stderr
    assert r.stdout == _run("", "-m", f"blackangel_env.training.{script}", "--help").stdout
    assert r.stdout.startswith("usage: ")
    assert (f"DeprecationWarning: python -m training.{script} is now python -m blackangel_env.training.{script}"
            in r.stderr), r.stderr


def test_python_m_the_old_script_runs_it(tmp_path):
    """Not only --help: the arguments reach the script (an unknown config is refused by the script itself)."""
    r = _run("", "-m", "training.train_ppo", "--config", str(tmp_path / "nowhere.yaml"))
    new = _run("", "-m", "blackangel_env.training.train_ppo", "--config", str(tmp_path / "nowhere.yaml"))
    assert r.returncode == new.returncode != 0
    assert new.stderr.strip() and new.stderr.strip().splitlines()[-1] == r.stderr.strip().splitlines()[-1]


def test_the_committed_model_names_the_old_module():
    """What the loading tests below are about: the model pickles its extractor under the old module path."""
    with zipfile.ZipFile(POLICY_ZIP) as z:
        data = json.loads(z.read("data"))
    pickled = base64.b64decode(data["policy_kwargs"][":serialized:"])
    assert b"training.policies" in pickled and b"EntityExtractor" in pickled
    assert b"blackangel_env.training" not in pickled


# An installed blackangel_env without the repository: the old names cannot be imported (the checkout's shims and
# any editable install of another checkout are hidden by a finder placed first).
_NO_OLD_NAMES = """
import importlib.abc, sys
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Hide())
"""

_LOAD = """
from blackangel_env.training.evaluate import load_model
from blackangel_env.training.policy_agent import PolicyAgent
from blackangel_env.training.policies import EntityExtractor
from blackangel_env.training.selfplay_env import load_policy
model = load_model(MODEL)
assert type(model.policy.features_extractor) is EntityExtractor, type(model.policy.features_extractor)
assert model.policy_kwargs["features_extractor_class"] is EntityExtractor
assert type(load_policy(MODEL).features_extractor) is EntityExtractor
agent = PolicyAgent(MODEL)
"""


def test_an_old_model_loads_without_the_old_names():
    pytest.importorskip("sb3_contrib")
    code = (f"HIDDEN = ('agents', 'training')\nMODEL = {str(POLICY_ZIP)!r}\n" + _NO_OLD_NAMES + _LOAD +
            "try:\n    import training\nexcept ModuleNotFoundError:\n    pass\n"
            "else:\n    raise AssertionError('hidden')\n"
            "assert not [m for m in sys.modules if m.split('.')[0] in HIDDEN], 'an old name left in sys.modules'\n")
    r = _run(code, cwd=Path(sys.prefix))                # cwd: not the checkout
    assert r.returncode == 0, r.stderr


def test_an_old_model_loads_beside_another_package_named_training(tmp_path):
    """Another distribution's ``training`` (the clash the rename avoids): the model still loads, and that package
    is neither imported by the load nor shadowed after it."""
    pytest.importorskip("sb3_contrib")
    other = tmp_path / "site" / "training"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("OTHER = True\n")
    (other / "policies.py").write_text("OTHER = True\n")
    code = (f"HIDDEN = ('agents',)\nMODEL = {str(POLICY_ZIP)!r}\n" + _NO_OLD_NAMES +
            "import training.policies as theirs\nassert theirs.OTHER\n" + _LOAD +
            "assert sys.modules['training.policies'] is theirs and sys.modules['training'].OTHER\n")
    r = _run(code, path=[tmp_path / "site", ROOT], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    # and when it was not imported before, the load leaves it unimported
    code = (f"HIDDEN = ('agents',)\nMODEL = {str(POLICY_ZIP)!r}\n" + _NO_OLD_NAMES + _LOAD +
            "assert 'training' not in sys.modules and 'training.policies' not in sys.modules\n"
            "import training.policies\nassert training.policies.OTHER\n")
    r = _run(code, path=[tmp_path / "site", ROOT], cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_old_module_names_restores_sys_modules():
    from blackangel_env.training import checkpoints

    before = sys.modules.pop("training.policies", None)          # the checkout's alias, if a test imported it
    sentinel = object()
    try:
        sys.modules["training.policies"] = sentinel
        with checkpoints.old_module_names("training.policies"):
            import blackangel_env.training.policies as policies
            assert sys.modules["training.policies"] is policies
        assert sys.modules["training.policies"] is sentinel
        del sys.modules["training.policies"]
        with pytest.raises(RuntimeError), checkpoints.old_module_names("training.policies"):
            raise RuntimeError
        assert "training.policies" not in sys.modules
    finally:
        sys.modules.pop("training.policies", None)
        if before is not None:
            sys.modules["training.policies"] = before
