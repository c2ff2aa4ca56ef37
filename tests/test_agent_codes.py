"""Agent codes (blackangel_env.agents.codes): the registry, the codes that blackangel_env.training registers from its
side of the layers, and the entry points that let ``blackangel_env.agents.make_agent("policy:...")`` find them without
importing training."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import blackangel_env.agents
from blackangel_env.agents import codes

ROOT = Path(__file__).resolve().parents[1]
POLICY_RUN = ROOT / "results" / "ppo_solo"


def _declared_entry_points() -> list[importlib.metadata.EntryPoint]:
    """The entry points of the group blackangel_env.agents as pyproject.toml declares them."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split(f'[project.entry-points."{codes.ENTRY_POINT_GROUP}"]', 1)[1].split("\n[", 1)[0]
    return [importlib.metadata.EntryPoint(m.group(1), m.group(2), codes.ENTRY_POINT_GROUP)
            for m in re.finditer(r'^(\w+)\s*=\s*"([^"]+)"', section, re.M)]


@pytest.fixture
def bare_registry(monkeypatch):
    """The registry as ``import blackangel_env.agents`` alone leaves it (only this package's kinds), with
    pyproject.toml's entry points as the installed ones."""
    builtin = {k: v for k, v in codes._REGISTRY.items() if k in ("random", "greedy", "heuristic", "mcts", "search")}
    monkeypatch.setattr(codes, "_REGISTRY", builtin)
    monkeypatch.setattr(codes, "_entry_points", _declared_entry_points)
    return builtin


def test_pyproject_declares_the_training_codes_as_entry_points():
    eps = {ep.name: ep for ep in _declared_entry_points()}
    assert set(eps) == {"policy", "pretrained", "rllib"}
    from blackangel_env.training import agent_codes
    assert eps["policy"].load() is agent_codes.POLICY and eps["rllib"].load() is agent_codes.RLLIB
    assert eps["pretrained"].load() is agent_codes.PRETRAINED


def test_an_unregistered_kind_is_loaded_from_its_entry_point(bare_registry, tmp_path):
    listed = codes.agent_codes()                  # this package's kinds listed with their usage, none registered
    assert "policy:<checkpoint path>" in listed and "pretrained" in listed and "rllib:<checkpoint path>" in listed
    assert "policy" not in bare_registry and "rllib" not in bare_registry
    assert blackangel_env.agents.parse_agent_code(f"rllib:{tmp_path}") == ("rllib", {"path": str(tmp_path)})
    assert "rllib" in bare_registry and "policy" not in bare_registry      # loaded on demand, one kind
    with pytest.raises(ValueError, match="needs an existing run directory"):
        blackangel_env.agents.parse_agent_code(f"policy:{tmp_path / 'nowhere'}")


def test_without_entry_points_an_unknown_kind_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(codes, "_REGISTRY", {k: v for k, v in codes._REGISTRY.items() if k != "policy"})
    monkeypatch.setattr(codes, "_entry_points", lambda: [])
    with pytest.raises(ValueError, match=r"unknown agent code 'policy:x'; expected one of random, greedy"):
        blackangel_env.agents.make_agent("policy:x")


def test_registering_a_kind(monkeypatch):
    monkeypatch.setattr(codes, "_REGISTRY", dict(codes._REGISTRY))
    spec = codes.AgentCode("always0", "always0", lambda opts, seed, code: (lambda obs, mask, state=None: 0))
    blackangel_env.agents.register_agent_code(spec)
    assert blackangel_env.agents.make_agent("always0")(None, None) == 0
    assert "always0" in blackangel_env.agents.AGENT_CODES
    with pytest.raises(ValueError, match="already registered"):
        blackangel_env.agents.register_agent_code(codes.AgentCode("always0", "x", spec.make))
    with pytest.raises(ValueError, match="takes no argument"):
        blackangel_env.agents.parse_agent_code("always0:3")


def test_a_policy_without_the_train_extra_names_it(monkeypatch):
    import blackangel_env.training  # noqa: F401  (registers policy:)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "sb3_contrib" else real(name, *a))
    with pytest.raises(ValueError, match=r"needs the 'train' extra \(sb3_contrib not installed\)"):
        blackangel_env.agents.make_agent(f"policy:{POLICY_RUN}")


def test_rllib_without_ray_names_the_extra(tmp_path):
    import blackangel_env.training  # noqa: F401  (registers rllib:)
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed")
    with pytest.raises(ValueError, match=r"needs the 'rllib' extra \(ray not installed\)"):
        blackangel_env.agents.make_agent(f"rllib:{tmp_path}")


def test_importing_agents_does_not_import_training():
    code = ("import sys, blackangel_env.agents, blackangel_env.agents.arena\n"
            "assert 'blackangel_env.training' not in sys.modules, 'training imported'\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_make_agent_policy_after_import_agents_alone(tmp_path):
    """A user's ``import blackangel_env.agents; make_agent("policy:...")`` in a fresh interpreter whose installed
    metadata holds pyproject.toml's entry points (written here as the dist-info an install makes, so the test does not
    depend on when the development environment was installed)."""
    pytest.importorskip("sb3_contrib")
    info = tmp_path / "blackangel_env_codes_probe-0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: blackangel-env-codes-probe\nVersion: 0.0\n")
    (info / "entry_points.txt").write_text(f"[{codes.ENTRY_POINT_GROUP}]\n" + "".join(
        f"{ep.name} = {ep.value}\n" for ep in _declared_entry_points()))
    code = ("import sys, blackangel_env.agents\n"
            f"a = blackangel_env.agents.make_agent({'policy:' + str(POLICY_RUN)!r}, seed=0)\n"
            "assert type(a).__name__ == 'PolicyAgent', a\n"
            "assert 'blackangel_env.training.agent_codes' in sys.modules\n"
            "assert 'blackangel_env.training.policy_agent' in sys.modules\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env=env)
    assert r.returncode == 0, r.stderr
