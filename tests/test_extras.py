"""A missing optional extra is named, with the command to install it: the training scripts exit with code 2 and
one line, before any work (``blackangel eval``'s ``policy:``, ``rllib:`` and ``--plot`` are in test_cli_errors)."""

from __future__ import annotations

import importlib
import sys

import pytest

from blackangel_env.extras import EXTRAS, missing_extra


@pytest.mark.parametrize("module, argv, extra", [
    ("blackangel_env.training.train_ppo", ["--config", "configs/train/ppo_solo_tiny.yaml"], "train"),
    ("blackangel_env.training.selfplay", ["--config", "configs/train/selfplay_tiny.yaml"], "train"),
    ("blackangel_env.training.selfplay", ["--evaluate", "results/ppo_solo", "--games", "1"], "train"),
    ("blackangel_env.training.imitation", ["--agent", "random", "--games", "1"], "train"),
    ("blackangel_env.training.evaluate", ["results/ppo_solo", "--games", "1"], "train"),
    ("blackangel_env.training.curves", ["results/ppo_solo", "--out", "curve.png"], "plot"),
])
def test_training_script_without_its_extra(module, argv, extra, monkeypatch, capsys, tmp_path):
    for name in EXTRAS[extra]:
        monkeypatch.setitem(sys.modules, name, None)          # as if it were not installed
    main = importlib.import_module(module).main
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert err.startswith(f"python -m {module}: needs the '{extra}' extra") and f"[{extra}]" in err


def test_missing_extra_names_what_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)
    line = missing_extra("train")
    assert line.startswith("needs the 'train' extra (sb3_contrib not installed)")
    assert "constraints-cpu.txt" in line and "download.pytorch.org/whl/cpu" not in line
    monkeypatch.setitem(sys.modules, "torch", None)
    line = missing_extra("train")                  # torch missing: how to get its CPU build, on the same line
    assert "torch" in line and "\n" not in line and "--index-url https://download.pytorch.org/whl/cpu" in line
    monkeypatch.delitem(sys.modules, "torch")
    monkeypatch.delitem(sys.modules, "sb3_contrib")
    pytest.importorskip("sb3_contrib")
    assert missing_extra("train") is None


def test_the_agent_codes_name_the_extra_as_the_commands_do(monkeypatch):
    """``pretrained``/``policy:`` and ``rllib:`` without their extras give the same install line as the commands
    (with the constraints file of a checkout and, for torch, its CPU build), not a second wording."""
    from blackangel_env.training import agent_codes
    monkeypatch.setitem(sys.modules, "torch", None)
    line = agent_codes.missing_extra("train")
    assert line == missing_extra("train") and "constraints-cpu.txt torch --index-url" in line
    with pytest.raises(ValueError, match="needs the 'train' extra"):
        agent_codes.PRETRAINED.make({}, 0, "pretrained")
    monkeypatch.setitem(sys.modules, "ray", None)
    assert agent_codes.missing_extra("rllib") == missing_extra("rllib")


@pytest.mark.parametrize("module, function, extra", [
    ("blackangel_env.training.sb3_vec_env", None, "train"),
    ("blackangel_env.training.policies", None, "train"),
    ("blackangel_env.training.rllib_module", None, "rllib"),
    ("blackangel_env.training.train_ppo", "train", "train"),
    ("blackangel_env.training.selfplay", "train", "train"),
    ("blackangel_env.training.rllib_train", "train", "rllib"),
])
def test_library_entry_points_without_their_extra_name_it(module, function, extra, monkeypatch, tmp_path):
    """From Python (not the scripts): importing a module that needs an extra, or calling a training function,
    raises ModuleNotFoundError with the install line, before any work (no run directory is made)."""
    for name in EXTRAS[extra]:
        monkeypatch.setitem(sys.modules, name, None)
    if function is None:
        monkeypatch.delitem(sys.modules, module, raising=False)
        with pytest.raises(ModuleNotFoundError, match=f"^{module} needs the '{extra}' extra"):
            importlib.import_module(module)
    else:
        train = getattr(importlib.import_module(module), function)
        with pytest.raises(ModuleNotFoundError, match=f"^{module}.{function} needs the '{extra}' extra"):
            train("configs/train/ppo_solo_tiny.yaml", [f"run.dir={tmp_path / 'run'}"])
        assert not (tmp_path / "run").exists()
