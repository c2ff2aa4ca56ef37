"""The ``pretrained`` agent: the policy shipped with the package (``blackangel_env/data/pretrained_policy.zip``, the
weights of ``results/ppo_solo``), played by its network alone, and the cloning recipes: ``ppo_solo_bc.yaml`` (its
recipe: the heuristic cloned, then PPO) and ``ppo_solo_search_bc.yaml`` (the search cloned, with a DAgger round).
README "Agents and the ladder against Hal", "Training"; docs/training.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

import blackangel_env.agents  # noqa: E402
from blackangel_env.agents.arena import play_match  # noqa: E402
from blackangel_env.training import agent_codes, train_ppo  # noqa: E402
from blackangel_env.training.policy_agent import PolicyAgent  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RECIPES = {"heuristic": ROOT / "configs/train/ppo_solo_bc.yaml",
           "search": ROOT / "configs/train/ppo_solo_search_bc.yaml"}

pytestmark = pytest.mark.usefixtures("training_sandbox")     # tests/conftest.py


def test_the_shipped_policy_is_package_data_and_the_committed_run():
    path = agent_codes.PRETRAINED_PATH
    assert path.is_file() and path.parent == ROOT / "blackangel_env" / "data"
    assert path.stat().st_size < 8_000_000
    assert path.read_bytes() == (ROOT / "results/ppo_solo/best_model.zip").read_bytes()


def test_pretrained_code_loads_the_shipped_policy_and_takes_no_argument():
    agent = blackangel_env.agents.make_agent("pretrained", seed=0)
    assert isinstance(agent, PolicyAgent) and agent.path == agent_codes.PRETRAINED_PATH and agent.deterministic
    assert "pretrained" in blackangel_env.agents.agent_codes()
    with pytest.raises(ValueError, match="pretrained takes no argument"):
        blackangel_env.agents.make_agent("pretrained:runs/x")


def test_a_missing_shipped_policy_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(agent_codes, "PRETRAINED_PATH", tmp_path / "absent.zip")
    with pytest.raises(ValueError, match="the shipped policy .*absent.zip is missing"):
        blackangel_env.agents.make_agent("pretrained")


def test_pretrained_beats_greedy_on_the_same_deals():
    """Three solo games against standard Hal, the same deals for both agents: the network alone scores more VP
    than the greedy baseline in each (on the ladder greedy scores 10.2 VP a game)."""
    for g in range(3):
        net = play_match(["pretrained"], game=g, seed=7)
        greedy = play_match(["greedy"], game=g, seed=7)
        assert net["game_seed"] == greedy["game_seed"]
        assert net["scores"][0] > greedy["scores"][0] + 5, (g, net["scores"], greedy["scores"])


@pytest.mark.slow
@pytest.mark.parametrize("expert", ["heuristic", "search"])
def test_the_cloning_recipes_run_end_to_end_at_a_tiny_size(expert, tmp_path):
    """Each recipe itself, shrunk: the expert plays 2 short games (the search in one world), one DAgger round of
    2 games, a smaller network and 128 PPO steps; the run's best model plays as ``policy:<run>``."""
    run = tmp_path / "run"
    code = "search:worlds=1" if expert == "search" else expert
    sets = [f"run.dir={run}", "run.total_timesteps=128", "env.max_steps=20", f"pretrain.agent={code}",
            "pretrain.games=2", "pretrain.workers=1", "pretrain.epochs=1", "pretrain.dagger_rounds=1",
            "pretrain.dagger_games=2", "vec_env.n_envs=2", "ppo.n_steps=64", "ppo.batch_size=64", "eval.n_games=1",
            "eval.freq=128", "checkpoint.freq=128", "policy.net_arch_pi=[32]", "policy.net_arch_vf=[32]",
            "policy.entity.features_dim=64", "logging.tensorboard=false"]
    msgs: list[str] = []
    train_ppo.train(RECIPES[expert], sets, progress=msgs.append)
    summary = json.loads((run / "pretrain/summary.json").read_text())
    assert summary["dataset"]["agent"] == code
    assert [d["round"] for d in summary["dagger"]] == [1]
    assert (run / "best_model.zip").is_file()
    agent = blackangel_env.agents.make_agent(f"policy:{run}", seed=0)
    assert isinstance(agent, PolicyAgent)
    assert play_match([f"policy:{run}"], game=0, seed=1)["decisions"] > 0
