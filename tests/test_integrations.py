"""Issue 15 item 11: the recipes of docs/integrations.md, run exactly as written there: Gymnasium's vector
environments with masks (async and sync), the vector environment (``make_vec``'s vector entry point) and its
Stable-Baselines3 adapter, Stable-Baselines3's ``make_vec_env`` with MaskablePPO, PettingZoo's
``turn_based_aec_to_parallel``, and (with the ``integrations`` extra) Tianshou and TorchRL."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

DOC = Path(__file__).resolve().parents[1] / "docs" / "integrations.md"


def _recipe(heading: str) -> str:
    """The python code block under the section ``heading`` of docs/integrations.md."""
    text = DOC.read_text()
    start = text.index(f"## {heading}")
    block = re.search(r"```python\n(.*?)```", text[start:], re.S)
    assert block, heading
    return block.group(1)


def _run(heading: str, capsys, replace: tuple[str, str] | None = None) -> tuple[dict, str]:
    code = _recipe(heading)
    if replace:
        assert replace[0] in code
        code = code.replace(*replace)
    scope: dict = {"__name__": "recipe"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, f"{DOC.name}: {heading}", "exec"), scope)
    return scope, capsys.readouterr().out


@pytest.mark.parametrize("mode", ["async", "sync"])
def test_gymnasium_vector_recipe(mode, capsys):
    scope, out = _run("Gymnasium vector environments with masks", capsys,
                      None if mode == "async" else ('vectorization_mode="async"', 'vectorization_mode="sync"'))
    assert scope["finished"] >= 4 and "episodes finished" in out
    assert type(scope["envs"]).__name__ == ("AsyncVectorEnv" if mode == "async" else "SyncVectorEnv")


def test_sb3_make_vec_env_maskable_ppo_recipe(capsys):
    pytest.importorskip("sb3_contrib")
    scope, out = _run("Stable-Baselines3: `make_vec_env` and MaskablePPO", capsys)
    assert scope["model"].num_timesteps >= 128 and "trained for" in out
    scope["venv"].close()


def test_gymnasium_vector_entry_point_recipe(capsys):
    scope, out = _run("Gymnasium: N games in one vector environment", capsys)
    assert type(scope["envs"]).__name__ == "BlackAngelVectorEnv"
    assert scope["obs"].shape == (8, 5692) and scope["info"]["scores"].shape == (8, 1)
    assert scope["finished"] >= 8 and "episodes finished" in out


def test_sb3_vector_env_maskable_ppo_recipe(capsys):
    pytest.importorskip("sb3_contrib")
    scope, out = _run("Stable-Baselines3: MaskablePPO on the vector environment", capsys)
    assert scope["model"].num_timesteps == 128 and "trained for 128 steps on 8 games" in out
    scope["venv"].close()


def test_pettingzoo_parallel_recipe(capsys):
    scope, out = _run("PettingZoo: the parallel API", capsys)
    final = scope["final"]
    assert bool(final["game_over"]) and final["winners"].sum() >= 1
    margins = [int(final["scores"][p]) - max(int(v) for q, v in enumerate(final["scores"]) if q != p)
               for p in range(3)]
    for p, agent in enumerate(scope["par"].possible_agents):      # dense_margin adds up to the final margin
        assert scope["returns"][agent] == pytest.approx(0.02 * margins[p])
    assert "scores" in out


def test_tianshou_recipe(capsys):
    pytest.importorskip("tianshou", reason="the integrations extra is not installed")
    scope, out = _run("Tianshou (`pip install \"blackangel-env[integrations]\"`)", capsys)
    buf = scope["buffer"]
    assert scope["stats"].n_collected_episodes == 1
    n = len(buf)
    assert buf.info.scores[:n].shape == (n, 2) and buf.info.winners[:n].shape == (n, 2)
    assert bool(buf.info.game_over[n - 1]) and buf.info.winners[n - 1].sum() >= 1
    assert not np.any(buf.info.illegal_action[:n])
    assert "final scores" in out


def test_torchrl_recipe(capsys):
    pytest.importorskip("torchrl", reason="the integrations extra is not installed")
    scope, out = _run("TorchRL (`pip install \"blackangel-env[integrations]\"`)", capsys)
    rollout, episode = scope["rollout"], scope["episode"]
    assert rollout.batch_size[0] == 50
    assert not rollout["player_0", "info", "illegal_action"].any()
    assert bool(episode["next", "done"][-1]) and bool(episode["next", "game_over"][-1])
    vp, hal = int(episode["next", "scores"][-1, 0]), int(episode["next", "hal_score"][-1])
    assert float(episode["next", "reward"].sum()) == pytest.approx(0.02 * (vp - hal), abs=1e-4)
    assert "AEC:" in out and "solo:" in out
