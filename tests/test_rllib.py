"""The RLlib path (blackangel_env/training/rllib_train.py, blackangel_env/training/rllib_module.py): its config, and one
tiny PPO iteration on the PettingZoo environment with action masking in a local Ray, resumed and evaluated.  The
training tests need the ``rllib`` extra (``pip install -c ci/constraints-cpu.txt -e ".[rllib]"``) and are skipped
without it."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

from blackangel_env.training import rllib_train  # noqa: E402
from blackangel_env.training.config import ConfigError, load_config, read_yaml  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FULL = ROOT / "configs/train/rllib_3p.yaml"
TINY = ROOT / "configs/train/rllib_tiny.yaml"
SCHEMA = rllib_train.RLLIB_SCHEMA
HAS_RLLIB = importlib.util.find_spec("ray") is not None and importlib.util.find_spec("ray.rllib") is not None
needs_rllib = pytest.mark.skipif(not HAS_RLLIB, reason="ray[rllib] is not installed: the RLlib path is optional "
                                 "(pip install -c ci/constraints-cpu.txt -e '.[rllib]')")


def test_config_lists_every_key_with_the_schema_defaults():
    assert set(read_yaml(FULL)) == set(SCHEMA)
    assert load_config(FULL, schema=SCHEMA) == load_config(None, schema=SCHEMA)
    tiny = load_config(TINY, ["env.num_players=4", "ray.address=auto"], schema=SCHEMA)
    assert tiny["run.iterations"] == 1 and tiny["env.num_players"] == 4 and tiny["ray.address"] == "auto"


@pytest.mark.parametrize("override, message", [
    ("env.num_players=1", "config key 'env.num_players' must be one of [2, 3, 4]"),
    ("multi_agent.policies=each", "config key 'multi_agent.policies' must be one of"),
    ("ppo.lambda=2", "config key 'ppo.lambda' must lie in [0, 1]"),
    ("eval.opponents=nobody", "config key 'eval.opponents' holds a bad agent code"),
    ("ppo.minibatch_size=4096", "config key 'ppo.minibatch_size' (4096) must not exceed"),
    ("ppo.lr_schedule=linear", "unknown config key 'ppo.lr_schedule'"),
])
def test_bad_overrides_are_refused_naming_the_key(override, message, tmp_path):
    with pytest.raises(ConfigError) as e:
        rllib_train.train(TINY, [f"run.dir={tmp_path / 'r'}", override])
    assert message in str(e.value)
    assert not (tmp_path / "r").exists()
    assert rllib_train.main(["--config", str(TINY), "--set", f"run.dir={tmp_path / 'r'}", "--set", override]) == 2


@pytest.fixture(scope="module")
def local_ray():
    import torch
    ray = pytest.importorskip("ray")
    n = torch.get_num_threads()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
    torch.set_num_threads(n)


@pytest.mark.slow
@needs_rllib
def test_one_tiny_iteration_resumes_and_evaluates(local_ray, tmp_path, monkeypatch):
    # a run directory relative to the working directory, as the configs' run.dir (Ray refused it as a URI
    # without a scheme at the first save of the best module)
    monkeypatch.chdir(tmp_path)
    run = Path("run")
    out = rllib_train.train(TINY, [f"run.dir={run}"], progress=lambda msg: None)
    assert out["iteration"] == 1 and out["env_steps"] >= 128 and out["env_steps_per_second"] > 0
    assert [i for i, _ in rllib_train.list_rllib_checkpoints(run)] == [1]
    meta = json.loads((run / "checkpoints/iter_000001.json").read_text())
    assert meta["iteration"] == 1 and meta["config"]["env"]["num_players"] == 3
    assert meta["last_eval"]["opponents"]["random"]["games"] == 2
    assert (run / "best_module").is_dir() and json.loads((run / "best.json").read_text())["players"] == 3

    # resuming restores the weights, the optimizer and the counters, and continues the iteration count
    with pytest.raises(ConfigError, match="'model.fcnet_hiddens' cannot change"):
        rllib_train.train(None, ["model.fcnet_hiddens=[8]"], resume=run)
    out = rllib_train.train(None, ["run.iterations=2"], resume=run, progress=lambda msg: None)
    assert out["iteration"] == 2 and out["iterations"] == 1
    with open(run / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["iteration"]) for r in rows] == [1, 2]
    assert int(rows[1]["env_steps"]) > int(rows[0]["env_steps"]) >= 128
    assert all(np.isfinite(float(r["policy_loss"])) for r in rows)
    with open(run / "evaluations.csv") as f:
        assert [(int(r["iteration"]), r["opponent"]) for r in csv.DictReader(f)] == [(1, "random"), (2, "random")]
    assert rllib_train.train(None, [], resume=run, progress=lambda msg: None)["iterations"] == 0

    # the trained module as an agent: legal moves in whole games, from the run, a checkpoint or the best module
    from blackangel_env.training.selfplay_env import SelfPlayEnv
    env = SelfPlayEnv(num_players=3, pool={"baselines": ["random"]})
    agent = rllib_train.RLlibAgent(run)
    assert agent.path == (tmp_path / "run" / "best_module").resolve()
    obs, info = env.reset(seed=1)
    while True:
        a = agent.act(obs, info["action_mask"])
        assert info["action_mask"][a] == 1
        obs, _, term, trunc, info = env.step(a)
        if term or trunc:
            break
    assert term and len(info["scores"]) == 3
    obs, info = env.reset(seed=2)
    ckpt = rllib_train.RLlibAgent(run / "checkpoints/iter_000002")
    assert ckpt.path.name == "shared" and info["action_mask"][ckpt.act(obs, info["action_mask"])] == 1
    with pytest.raises(FileNotFoundError, match="not an RLlib checkpoint"):
        rllib_train.RLlibAgent(tmp_path)
    # the agent code rllib:<path> (blackangel_env.agents.make_agent, `blackangel eval`)
    from blackangel_env.agents import make_agent
    coded = make_agent(f"rllib:{run}")
    assert isinstance(coded, rllib_train.RLlibAgent) and coded.path == (tmp_path / "run" / "best_module").resolve()
    assert info["action_mask"][coded.act(obs, info["action_mask"])] == 1


@pytest.mark.slow
@needs_rllib
def test_the_masked_module_never_samples_an_illegal_action(local_ray):
    """The PettingZoo adapter RLlib samples from, driven by the masked module's exploration forward pass."""
    import torch
    from ray.rllib.core.columns import Columns

    from blackangel_env.training.rllib_module import make_env
    per_seat = rllib_train.build_config(load_config(TINY, ["multi_agent.policies=per_seat"], schema=SCHEMA))
    assert set(per_seat.policies) == {"player_0", "player_1", "player_2"}
    assert per_seat.policy_mapping_fn("player_2", None) == "player_2"
    cfg = load_config(TINY, schema=SCHEMA)
    algo_cfg = rllib_train.build_config(cfg)
    assert algo_cfg.policy_mapping_fn("player_2", None) == "shared"
    module = algo_cfg.get_multi_rl_module_spec(env=make_env(rllib_train.env_config(cfg))).build()["shared"]
    env = make_env(rllib_train.env_config(cfg))
    obs, _ = env.reset(seed=3)
    steps = 0
    torch.manual_seed(0)
    rewards = {}
    while obs:
        (agent, o), = obs.items()
        batch = {Columns.OBS: {k: torch.as_tensor(np.asarray(v, dtype=np.float32))[None] for k, v in o.items()}}
        with torch.no_grad():
            logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS][0]
        a = int(torch.distributions.Categorical(logits=logits).sample())
        assert o["action_mask"][a] == 1
        obs, rew, term, trunc, _ = env.step({agent: a})
        rewards.update(rew)
        steps += 1
        if term.get("__all__") or trunc.get("__all__"):
            break
    assert term["__all__"] and set(rewards) == {"player_0", "player_1", "player_2"} and steps > 30
