"""Self-play training at a table (blackangel_env/training/selfplay.py, blackangel_env/training/selfplay_env.py): the
config, a tiny run (configs/train/selfplay_tiny.yaml: a few hundred steps) that resumes and is evaluated, snapshots in
SubprocVecEnv workers, the opponent pool, and snapshots / runs as agents (``policy:<path>``)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from blackangel_env.agents.arena import safe_start_method  # noqa: E402
from blackangel_env.training import selfplay  # noqa: E402
from blackangel_env.training.checkpoints import latest_checkpoint, list_checkpoints, read_meta  # noqa: E402
from blackangel_env.training.config import ConfigError, load_config, read_yaml  # noqa: E402
from blackangel_env.training.selfplay_env import OpponentPool, SelfPlayEnv, SnapshotAgent, learner_result  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FULL = ROOT / "configs/train/selfplay_3p.yaml"
TINY = ROOT / "configs/train/selfplay_tiny.yaml"
SCHEMA = selfplay.SELFPLAY_SCHEMA


pytestmark = pytest.mark.usefixtures("training_sandbox")     # tests/conftest.py


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A tiny 3-player run (256 steps, snapshots every 128), shared by the tests that read it."""
    run = tmp_path_factory.mktemp("selfplay") / "run"
    out = selfplay.train(TINY, [f"run.dir={run}"], progress=lambda msg: None)
    return run, out


def _play(env, agent, seed, options=None):
    obs, info = env.reset(seed=seed, options=options)
    while True:
        a = agent.act(obs, info["action_mask"])
        assert info["action_mask"][a] == 1
        obs, _, term, trunc, info = env.step(a)
        if term or trunc:
            return term, info


# -- config ------------------------------------------------------------------------------------------------------

def test_config_lists_every_key_with_the_schema_defaults():
    assert set(read_yaml(FULL)) == set(SCHEMA)
    assert load_config(FULL, schema=SCHEMA) == load_config(None, schema=SCHEMA)
    tiny = load_config(TINY, schema=SCHEMA)
    assert tiny["run.total_timesteps"] <= 512 and tiny["env.num_players"] == 3
    cfg = load_config(TINY, ["env.num_players=4", "selfplay.baselines=random,greedy,greedy", "selfplay.w_pool=0",
                             "env.seat=rotate", "eval.opponents=greedy"], schema=SCHEMA)
    assert cfg["env.num_players"] == 4 and cfg["selfplay.baselines"] == "random,greedy,greedy"
    assert "env.hal_difficulty" not in SCHEMA and "env.shaping" in SCHEMA


@pytest.mark.parametrize("override, message", [
    ("env.num_players=5", "config key 'env.num_players' must be one of [2, 3, 4]"),
    ("env.num_players=1", "config key 'env.num_players' must be one of"),
    ("env.seat=left", "config key 'env.seat' must be one of ['random', 'rotate']"),
    ("selfplay.baselines=random,superbot", "config key 'selfplay.baselines' holds a bad agent code"),
    ("eval.opponents=", "config key 'eval.opponents' must be a string, got None"),
    ("eval.opponents=','", "config key 'eval.opponents' must list at least one agent code"),
    ("selfplay.w_latest=-1", "config key 'selfplay.w_latest' must be >= 0"),
    ("selfplay.pool_size=0", "config key 'selfplay.pool_size' must be > 0"),
    ("env.hal_difficulty=easy", "unknown config key 'env.hal_difficulty'"),
])
def test_bad_overrides_are_refused_naming_the_key(override, message, tmp_path):
    with pytest.raises(ConfigError) as e:
        selfplay.train(TINY, [f"run.dir={tmp_path / 'r'}", override])
    assert message in str(e.value)
    assert not (tmp_path / "r").exists()


def test_pool_weights_that_draw_nothing_are_refused(tmp_path):
    with pytest.raises(ConfigError, match="baselines have a positive weight but no agent code"):
        selfplay.train(TINY, [f"run.dir={tmp_path / 'r'}", "selfplay.baselines=''"])
    assert selfplay.main(["--config", str(TINY), "--set", f"run.dir={tmp_path / 'r'}", "--set", "ppo.batch_size=999"]) == 2
    assert not (tmp_path / "r").exists()


# -- the opponent pool and the environment ----------------------------------------------------------------------

def test_pool_sampling_follows_the_weights():
    rng = np.random.default_rng(0)
    pool = OpponentPool(baselines=["random", "greedy"], w_latest=0.5, w_pool=0.3, w_baselines=0.2, pool_size=3)
    assert {pool.sample(rng) for _ in range(50)} == {"random", "greedy"}           # no snapshot yet
    pool.set_snapshots([f"s{i}.zip" for i in range(5)])
    assert pool.snapshots == ["s2.zip", "s3.zip", "s4.zip"]                         # the pool_size most recent
    draws = [pool.sample(rng) for _ in range(4000)]
    latest = draws.count("snapshot:s4.zip") / len(draws)
    assert latest == pytest.approx(0.5 + 0.3 / 3, abs=0.03)
    assert draws.count("snapshot:s2.zip") / len(draws) == pytest.approx(0.1, abs=0.02)
    assert sum(d in ("random", "greedy") for d in draws) / len(draws) == pytest.approx(0.2, abs=0.02)
    only = OpponentPool(baselines=[], w_latest=1, w_pool=0, w_baselines=0)
    assert only.sample(rng) == "random"                                              # nothing to draw yet
    with pytest.raises(ValueError, match="positive sum"):
        OpponentPool(w_latest=0, w_pool=0, w_baselines=0)


def test_selfplay_env_seats_opponents_and_seeding():
    env = SelfPlayEnv(num_players=3, seat="random", pool={"baselines": ["random"]})
    seats = set()
    for ep in range(12):
        obs, info = env.reset(seed=ep)
        assert info["learner_seat"] == env.seat and obs.shape == env.observation_space.shape
        assert env.action_masks().dtype == bool and env.action_masks().any()
        seats.add(env.seat)
    assert seats == {0, 1, 2}
    rot = SelfPlayEnv(num_players=4, seat="rotate", index=1, pool={"baselines": ["random"]})
    assert [rot.reset(seed=i)[1]["learner_seat"] for i in range(5)] == [1, 2, 3, 0, 1]

    from blackangel_env.agents import RandomAgent
    term, info = _play(env, RandomAgent(seed=0), seed=5, options={"seat": 2, "opponents": "greedy"})
    assert term and info["learner_seat"] == 2 and info["opponents"] == ["greedy", "greedy"]
    won, margin = learner_result(info)
    assert won == bool(info["winners"][2]) and margin == info["scores"][2] - max(info["scores"][:2])
    again = SelfPlayEnv(num_players=3, pool={"baselines": ["random"]})
    assert learner_result(_play(again, RandomAgent(seed=0), seed=5, options={"seat": 2, "opponents": "greedy"})[1]) \
        == (won, margin)                                                             # same seed, same game
    # the reward shaping of blackangel_env/training/rewards.py reads the learner's seat and state through the wrapper
    cfg = load_config(TINY, ["env.shaping=value"], schema=SCHEMA)
    shaped = selfplay._EnvFactory(selfplay.env_kwargs(cfg), selfplay.shaping_kwargs(cfg))()
    shaped.reset(seed=0)
    info = shaped.step(int(np.flatnonzero(shaped.get_wrapper_attr("action_masks")())[0]))[4]
    assert np.isfinite(info["shaping"])
    with pytest.raises(ValueError, match="needs 2 codes"):
        env.reset(seed=0, options={"opponents": ["random"]})
    with pytest.raises(ValueError, match="2-4 players"):
        SelfPlayEnv(num_players=1)


# -- training, resuming, evaluating, loading as an agent ------------------------------------------------------------

@pytest.mark.slow
def test_train_resume_evaluate(tiny_run, tmp_path):
    run, out = tiny_run
    assert out["num_timesteps"] == 256 and out["steps_per_second"] > 0
    assert load_config(run / "config.yaml", schema=SCHEMA)["env.num_players"] == 3
    assert [s for s, _ in list_checkpoints(run)] == [128, 256]
    assert [s for s, _ in selfplay.list_snapshots(run)] == [0, 128]                  # at the start, every 128
    meta = read_meta(latest_checkpoint(run))
    assert meta["num_timesteps"] == 256 and meta["env_seeds"] == [0, 1]
    assert meta["last_eval"]["opponents"]["random"]["games"] == 3
    best = json.loads((run / "best.json").read_text())
    assert (run / "best_model.zip").is_file() and best["players"] == 3 and "random" in best["opponents"]
    with open(run / "evaluations.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(int(r["step"]), r["opponent"]) for r in rows] == [(128, "random"), (256, "random")]
    with open(run / "logs/from_000000000/progress.csv") as f:
        log = list(csv.DictReader(f))
    assert "eval/random/win_rate" in log[0] and "rollout/win_rate" in log[-1] and "selfplay/pool_size" in log[0]
    from sb3_contrib import MaskablePPO
    assert "policy.optimizer" in MaskablePPO.load(latest_checkpoint(run)).get_parameters()

    # resuming a copy continues the step count and the snapshot schedule from the files
    import shutil
    run2 = tmp_path / "run2"
    shutil.copytree(run, run2)
    with pytest.raises(ConfigError, match="already holds a run"):
        selfplay.train(TINY, [f"run.dir={run2}"])
    out = selfplay.train(None, ["run.total_timesteps=384", "eval.opponents=random,greedy"], resume=run2,
                         progress=lambda msg: None)
    assert out["num_timesteps"] == 384 and out["steps"] == 128
    assert [s for s, _ in selfplay.list_snapshots(run2)] == [0, 128, 256]
    assert read_meta(latest_checkpoint(run2))["segment"] == 1
    with open(run2 / "evaluations.csv") as f:
        assert [(int(r["step"]), r["opponent"]) for r in csv.DictReader(f)][-2:] == [(384, "random"), (384, "greedy")]

    # evaluation from the command line
    js = tmp_path / "eval.json"
    assert selfplay.main(["--evaluate", str(run2), "--which", "latest", "--opponents", "random,greedy",
                          "--games", "2", "--seed", "3", "--json", str(js)]) == 0
    r = json.loads(js.read_text())
    assert r["players"] == 3 and set(r["opponents"]) == {"random", "greedy"}
    for o in r["opponents"].values():
        assert o["games"] == 2 and o["ci95"][0] <= o["win_rate"] <= o["ci95"][1]
    assert r["model"].endswith("step_000000384.zip")
    assert selfplay.main(["--evaluate", str(tmp_path / "nothing")]) == 2
    assert selfplay.main(["--evaluate", str(run2), "--opponents", "nobody"]) == 2


@pytest.mark.slow
def test_snapshots_and_runs_are_agents(tiny_run):
    run, _ = tiny_run
    snap = selfplay.list_snapshots(run)[-1][1]
    env = SelfPlayEnv(num_players=3, pool={"baselines": ["random"]})
    for det in (True, False):
        term, info = _play(env, SnapshotAgent(snap, deterministic=det, seed=1), seed=2)
        assert term and len(info["scores"]) == 3
    # a pool snapshot at the other seats (what the training workers do)
    env.set_pool([str(snap)])
    env.pool.weights[:] = [1.0, 0.0, 0.0]
    from blackangel_env.agents import RandomAgent, make_agent
    term, info = _play(env, RandomAgent(seed=0), seed=4)
    assert info["opponents"] == [f"snapshot:{snap.stem}"] * 2
    # policy:<run dir> and policy:<snapshot> in the agents package and in `blackangel eval` at a 3-player table
    agent = make_agent(f"policy:{run}", seed=0)
    assert agent.path == run / "best_model.zip"
    assert make_agent(f"policy:{snap}").path == snap
    term, info = _play(env, agent, seed=6, options={"opponents": f"policy:{snap}"})
    assert term
    from blackangel_env.cli import main as cli
    assert cli(["eval", "--players", f"policy:{run},random,random", "--games", "3", "--seed", "1", "--quiet"]) == 0


@pytest.mark.slow
def test_subprocess_workers_load_snapshots(tmp_path):
    run = tmp_path / "run"
    out = selfplay.train(TINY, [f"run.dir={run}", "vec_env.type=subproc", "run.total_timesteps=192",
                                "selfplay.snapshot_freq=64", "selfplay.w_latest=1", "selfplay.w_pool=0",
                                "selfplay.w_baselines=0", "eval.freq=0", "eval.at_end=false", "ppo.n_steps=32",
                                "logging.tensorboard=false", "env.num_players=2"], progress=lambda msg: None)
    assert out["num_timesteps"] == 192
    assert [s for s, _ in selfplay.list_snapshots(run)] == [0, 64, 128]
    with open(run / "logs/from_000000000/progress.csv") as f:
        rows = list(csv.DictReader(f))
    assert max(float(r["selfplay/pool_size"] or 0) for r in rows) == 2                 # pool_size cap
    assert max(float(r["selfplay/snapshot_seats"] or 0) for r in rows) > 0             # workers seated snapshots


@pytest.mark.slow
def test_the_pool_reaches_subprocess_workers(tiny_run):
    from stable_baselines3.common.vec_env import SubprocVecEnv
    run, _ = tiny_run
    snaps = [str(p) for _, p in selfplay.list_snapshots(run)]
    cfg = load_config(TINY, ["selfplay.w_latest=1", "selfplay.w_pool=0", "selfplay.w_baselines=0"], schema=SCHEMA)
    venv = SubprocVecEnv([selfplay._EnvFactory(selfplay.env_kwargs(cfg, i), selfplay.shaping_kwargs(cfg))
                          for i in range(2)], start_method=safe_start_method("fork"))
    try:
        venv.env_method("set_pool", snaps)
        venv.seed(0)
        venv.reset()
        rng = np.random.default_rng(0)
        seen = []
        while len(seen) < 2:
            masks = np.stack(venv.env_method("action_masks"))
            _, _, dones, infos = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            seen += [info["opponents"] for info, d in zip(infos, dones) if d]
        assert all(o == [f"snapshot:{Path(snaps[-1]).stem}"] * 2 for o in seen)
    finally:
        venv.close()
