"""The single-agent MaskablePPO path: configs, training, resuming, evaluation, checkpoints as agents, and the
structured policy.  Training runs are tiny (configs/train/ppo_solo_tiny.yaml: a few hundred steps, in-process
environments)."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

import blackangel_env  # noqa: E402,F401
from blackangel_env.encoding import observation_layout, observation_size, observation_views  # noqa: E402
from blackangel_env.gym_env import BlackAngelSingleAgentEnv  # noqa: E402
from blackangel_env.training import evaluate as ev  # noqa: E402
from blackangel_env.training import train_ppo  # noqa: E402
from blackangel_env.training.checkpoints import (latest_checkpoint, list_checkpoints, read_meta,  # noqa: E402
                                                resolve_model)
from blackangel_env.training.config import PPO_SCHEMA, ConfigError, load_config, read_yaml, validate  # noqa: E402
from blackangel_env.training.policies import EntityExtractor, entity_groups  # noqa: E402
from blackangel_env.training.policy_agent import PolicyAgent  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SOLO = ROOT / "configs/train/ppo_solo.yaml"
TINY = ROOT / "configs/train/ppo_solo_tiny.yaml"
HAS_TB = importlib.util.find_spec("tensorboard") is not None


pytestmark = pytest.mark.usefixtures("training_sandbox")     # tests/conftest.py


def _train(run_dir, *sets, resume=False):
    overrides = list(sets) if resume else [f"run.dir={run_dir}", *sets]
    return train_ppo.train(None if resume else TINY, overrides, resume=run_dir if resume else None,
                           progress=lambda msg: None)


def _progress_rows(run_dir, start):
    with open(Path(run_dir) / "logs" / f"from_{start:09d}" / "progress.csv") as f:
        return list(csv.DictReader(f))


def _play_solo(agent, seed):
    env = BlackAngelSingleAgentEnv(num_players=1)
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        a = agent.act(obs, info["action_mask"])
        assert info["action_mask"][a] == 1
        obs, _, term, trunc, info = env.step(a)
        assert not info.get("illegal_action")
        steps += 1
        if term or trunc:
            return term, info, steps


# -- configs ------------------------------------------------------------------------------------------------------

def test_default_config_lists_every_key_with_the_schema_defaults():
    assert set(read_yaml(SOLO)) == set(PPO_SCHEMA)
    assert load_config(SOLO) == validate({})
    tiny = load_config(TINY)
    assert tiny["run.total_timesteps"] <= 512 and tiny["vec_env.type"] == "dummy"


def test_overrides_are_typed_by_yaml():
    cfg = load_config(TINY, ["ppo.n_epochs=3", "env.advanced=true", "ppo.learning_rate=1e-3",
                             "policy.net_arch_pi=[8, 8]", "env.max_steps=null", "run.total_timesteps=1e3",
                             "logging.tensorboard=false", "policy.type=entity"])
    assert cfg["ppo.n_epochs"] == 3 and cfg["env.advanced"] is True and cfg["ppo.learning_rate"] == 1e-3
    assert cfg["policy.net_arch_pi"] == [8, 8] and cfg["env.max_steps"] is None
    assert cfg["run.total_timesteps"] == 1000 and cfg["logging.tensorboard"] == "false"
    assert cfg["policy.type"] == "entity"


@pytest.mark.parametrize("override, message", [
    ("ppo.n_stepz=3", "unknown config key 'ppo.n_stepz' (did you mean 'ppo.n_steps'"),
    ("nosuch=1", "unknown config key 'nosuch'"),
    ("ppo.gamma=2", "config key 'ppo.gamma' must lie in (0, 1]"),
    ("ppo.n_epochs=two", "config key 'ppo.n_epochs' must be an integer"),
    ("ppo.n_epochs=1.5", "config key 'ppo.n_epochs' must be an integer"),
    ("env.advanced=maybe", "config key 'env.advanced' must be true or false"),
    ("env.hal_difficulty=hard", "config key 'env.hal_difficulty' must be one of"),
    ("policy.type=cnn", "config key 'policy.type' must be one of ['mlp', 'entity']"),
    ("policy.net_arch_pi=[0]", "config key 'policy.net_arch_pi' layer sizes must be positive"),
    ("vec_env.n_envs=0", "config key 'vec_env.n_envs' must be > 0"),
    ("ppo.clip_range=null", "config key 'ppo.clip_range' must be a number, got None"),
    ("ppo.batch_size=100000", "config key 'ppo.batch_size' (100000) must not exceed"),
    ("ppo", "an override must look like key=value"),
])
def test_bad_overrides_are_refused_naming_the_key(override, message):
    with pytest.raises(ConfigError) as e:
        load_config(TINY, [override])
    assert message in str(e.value)


def test_bad_config_files_are_refused(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ppo:\n  n_steps: 64\n  gama: 0.9\n")
    with pytest.raises(ConfigError, match=r"unknown config key 'ppo.gama' \(did you mean 'ppo.gamma'"):
        load_config(bad)
    bad.write_text("run: [1, 2]\n")
    with pytest.raises(ConfigError, match="config key 'run' is a section"):
        load_config(bad)
    bad.write_text("- a\n- b\n")
    with pytest.raises(ConfigError, match="must hold a mapping"):
        load_config(bad)
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.yaml")
    # the command line reports the error and writes nothing
    assert train_ppo.main(["--config", str(TINY), "--set", f"run.dir={tmp_path / 'r'}", "--set", "ppo.gamma=x"]) == 2
    assert not (tmp_path / "r").exists()
    assert train_ppo.main([]) == 2


# -- training, resuming, evaluating, loading as an agent ------------------------------------------------------------

@pytest.mark.slow
def test_a_total_between_rollouts_is_said_to_round_up(tmp_path):
    """PPO trains whole rollouts (ppo.n_steps * vec_env.n_envs = 128 decisions in the tiny recipe): a total of 130
    trains 256 decisions, and the start message says so."""
    msgs = []
    out = train_ppo.train(TINY, [f"run.dir={tmp_path / 'r'}", "run.total_timesteps=130", "eval.freq=0",
                                 "logging.progress_bar=false"], progress=msgs.append)
    assert out["num_timesteps"] == 256
    assert any("in whole rollouts of ppo.n_steps * vec_env.n_envs = 128 decisions: it stops at 256" in m
               for m in msgs), msgs


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["mlp", "entity"])
def test_train_resume_evaluate_and_play(policy, tmp_path):
    run = tmp_path / "run"
    out = _train(run, f"policy.type={policy}")
    assert out["num_timesteps"] == 256 and out["steps_per_second"] > 0
    # files: config, checkpoints (zip + meta + rng) every 128 steps and at the end, best model, logs
    assert load_config(run / "config.yaml")["policy.type"] == policy
    assert [s for s, _ in list_checkpoints(run)] == [128, 256]
    meta = read_meta(latest_checkpoint(run))
    assert meta["num_timesteps"] == 256 and meta["env_seeds"] == [0, 1] and meta["config"]["policy"]["type"] == policy
    assert latest_checkpoint(run).with_suffix(".rng").is_file()
    assert (run / "best_model.zip").is_file() and json.loads((run / "best.json").read_text())["games"] == 4
    with open(run / "evaluations.csv") as f:
        assert [int(r["step"]) for r in csv.DictReader(f)] == [128, 256]
    rows = _progress_rows(run, 0)
    assert int(rows[-1]["time/total_timesteps"]) == 256 and "eval/win_rate" in rows[0]
    assert any((run / "logs/from_000000000").glob("events.out.tfevents.*")) == HAS_TB
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(latest_checkpoint(run))
    assert model.num_timesteps == 256
    assert "policy.optimizer" in model.get_parameters()              # the optimizer state is in the zip
    if policy == "entity":
        assert isinstance(model.policy.features_extractor, EntityExtractor)

    # a new run into the same directory is refused; resuming continues the step count
    with pytest.raises(ConfigError, match="already holds a run"):
        _train(run)
    with pytest.raises(ConfigError, match="'policy.net_arch_pi' cannot change"):
        _train(run, "policy.net_arch_pi=[7]", resume=True)
    out = _train(run, "run.total_timesteps=384", "ppo.learning_rate=1e-4", resume=True)
    assert out["num_timesteps"] == 384 and out["steps"] == 128
    assert [s for s, _ in list_checkpoints(run)][-1] == 384
    meta = read_meta(latest_checkpoint(run))
    assert meta["num_timesteps"] == 384 and meta["segment"] == 1 and meta["env_seeds"][0] != 0
    rows = _progress_rows(run, 256)
    assert int(rows[0]["time/total_timesteps"]) == 384
    assert float(rows[-1]["train/learning_rate"]) == pytest.approx(1e-4)
    assert _train(run, resume=True)["steps"] == 0                      # already at run.total_timesteps

    # evaluation from the command line, with a JSON report
    js = tmp_path / "eval.json"
    assert ev.main([str(run), "--games", "3", "--seed", "5", "--which", "latest", "--json", str(js)]) == 0
    r = json.loads(js.read_text())
    assert r["games"] == 3 and 0 <= r["wins"] <= 3 and r["hal_difficulty"] == "standard"
    assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] and r["model"].endswith("step_000000384.zip")
    assert r["mean_margin"] == pytest.approx(r["mean_vp"] - r["mean_hal_vp"])

    # the checkpoint as an agent: legal moves in a full solo game, and at a 3-player table
    agent = PolicyAgent(run)
    assert agent.path == run / "best_model.zip"
    term, info, steps = _play_solo(agent, seed=11)
    assert term and "hal_score" in info and steps > 10
    if policy == "mlp":
        import gymnasium as gym
        env = gym.make("BlackAngel-v0", num_players=3, opponents=[agent, PolicyAgent(latest_checkpoint(run))])
        obs, info = env.reset(seed=3)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(agent.act(obs, info["action_mask"]))
            done = term or trunc
        assert term and len(info["scores"]) == 3
        # the agent code policy:<path> of the agents package and of `blackangel eval`
        from blackangel_env.agents import make_agent
        from blackangel_env.cli import main as cli
        assert make_agent(f"policy:{run}", seed=0).path == run / "best_model.zip"
        out_json = tmp_path / "policy_eval.json"
        assert cli(["eval", "--players", f"policy:{run}", "--hal", "easy", "--games", "2", "--seed", "1", "--quiet",
                    "--json", str(out_json)]) == 0
        assert json.loads(out_json.read_text())["agents"][f"policy:{run}"]["games"] == 2
        with pytest.raises(ValueError, match="needs an existing run directory"):
            make_agent(f"policy:{tmp_path / 'nowhere'}")


@pytest.mark.slow
def test_subprocess_envs_and_interrupted_run_resumes(tmp_path, monkeypatch):
    run = tmp_path / "run"
    out = _train(run, "vec_env.type=subproc", "run.total_timesteps=128", "eval.freq=0", "eval.at_end=false",
                 "logging.tensorboard=false")
    assert out["num_timesteps"] == 128 and not (run / "best_model.zip").exists()
    assert not any((run / "logs/from_000000000").glob("events.out.tfevents.*"))
    assert (run / "logs/from_000000000/progress.csv").is_file()

    # an interruption (Ctrl-C / SIGTERM) saves a checkpoint that --resume continues from
    def interrupt(self, model):
        raise KeyboardInterrupt
    monkeypatch.setattr(train_ppo.Trainer, "evaluate", interrupt)
    run2 = tmp_path / "run2"
    with pytest.raises(KeyboardInterrupt):
        _train(run2, "run.total_timesteps=256")
    meta = read_meta(latest_checkpoint(run2))
    assert meta["reason"] == "interrupted" and meta["num_timesteps"] == 128
    monkeypatch.undo()
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3"))
    assert _train(run2, resume=True)["num_timesteps"] == 256


@pytest.mark.slow
def test_resolve_model_and_evaluation_helpers(tmp_path):
    with pytest.raises(FileNotFoundError, match="neither a model"):
        resolve_model(tmp_path / "nothing")
    with pytest.raises(FileNotFoundError, match="holds no checkpoint"):
        resolve_model(tmp_path)
    assert ev.main([str(tmp_path / "x.zip")]) == 2
    lo, hi = ev.wilson_interval(0, 4)
    assert lo == 0 and hi == pytest.approx(0.4899, abs=1e-4)
    lo, hi = ev.wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))

    class Random:                           # anything with SB3's predict signature can be evaluated
        rng = np.random.default_rng(0)

        def predict(self, obs, action_masks, deterministic):
            return np.array([self.rng.choice(np.flatnonzero(m)) for m in action_masks]), None

    r = ev.evaluate_model(Random(), 5, hal_difficulty="easy", seed=3, batch=2)
    assert r["games"] == 5 and r["truncated"] == 0 and r["mean_hal_vp"] > r["mean_vp"]
    assert "win rate" in ev.format_result(r)


@pytest.mark.slow
def test_export_for_play_keeps_the_weights_and_drops_adam_state(tmp_path):
    from blackangel_env.training.checkpoints import export_for_play
    from blackangel_env.training.evaluate import load_model
    run = tmp_path / "run"
    _train(run, "policy.type=entity", "eval.freq=0")
    best = resolve_model(run, "latest")
    out = export_for_play(best, tmp_path / "play" / "model.zip")
    a, b = load_model(best), load_model(out)
    sa, sb = a.policy.state_dict(), b.policy.state_dict()
    assert sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)
    assert a.policy.optimizer.state and not b.policy.optimizer.state
    assert out.stat().st_size < best.stat().st_size
    obs = np.random.default_rng(0).random((3, a.observation_space.shape[0]), dtype=np.float32)
    masks = np.ones((3, 882), dtype=bool)
    assert np.array_equal(a.predict(obs, action_masks=masks, deterministic=True)[0],
                          b.predict(obs, action_masks=masks, deterministic=True)[0])


@pytest.mark.slow
def test_learning_curve_reads_every_segment_and_draws(tmp_path):
    from blackangel_env.training import curves
    run = tmp_path / "run"
    _train(run)
    _train(run, "run.total_timesteps=384", resume=True)
    prog = curves.read_progress(run)
    steps = [r["time/total_timesteps"] for r in prog]
    assert steps == sorted(steps) and steps[-1] >= 384 and len(list(run.glob("logs/from_*"))) == 2
    assert len(curves.read_evaluations(run)) >= 2
    png = curves.plot_learning_curve(run, tmp_path / "curve.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert curves.main([str(tmp_path / "empty"), "--out", str(tmp_path / "x.png")]) == 2


# -- the structured policy ------------------------------------------------------------------------------------------

def test_entity_groups_follow_the_named_slices():
    groups = entity_groups()
    assert {g: (v.n_entities) for g, v in groups.items()} == {"seats": 4, "hexes": 35, "display": 8, "hand": 1,
                                                              "global": 1}
    obs = np.arange(observation_size(), dtype=np.int64)
    views = observation_views(obs)
    covered = np.concatenate([g.index.ravel() for g in groups.values()])
    assert np.array_equal(np.sort(covered), obs)                      # every element exactly once
    hexes = groups["hexes"]
    col = 0
    for name in hexes.slices:                                          # hex h's features come from row h
        v = views[name].reshape(35, -1)
        assert np.array_equal(hexes.index[:, col:col + v.shape[1]], v)
        col += v.shape[1]
    seats = groups["seats"]
    assert np.array_equal(seats.index[2, :4], np.r_[views["p2.present"], views["p2.seat"][:3]])
    assert set(groups["display"].slices) == {"board.display", "board.display_boost_up"}
    assert "bot.vp" in groups["global"].slices and "space.mission_strip" in groups["global"].slices
    # the grouping is computed from the layout it is given, not from fixed offsets
    shifted = [type(s)(s.name, s.offset + 10, *[getattr(s, f) for f in ("size", "shape", "kind", "scale",
                                                                         "meaning", "high")])
               for s in observation_layout()]
    with pytest.raises(AssertionError):                                # offsets no longer start at 0
        entity_groups(shifted)


def test_entity_extractor_forward_and_gradients():
    import gymnasium as gym
    env = gym.make("BlackAngelSolo-v0")
    ext = EntityExtractor(env.observation_space, seat_dim=8, hex_dim=4, display_dim=4, hand_dim=8, global_dim=16,
                          features_dim=32)
    obs = torch.as_tensor(np.stack([env.reset(seed=s)[0] for s in range(3)]))
    out = ext(obs)
    assert out.shape == (3, 32) and torch.isfinite(out).all()
    out.sum().backward()
    assert all(p.grad is not None for p in ext.parameters())
    with pytest.raises(ValueError, match="expects the flat Black Angel observation"):
        EntityExtractor(gym.spaces.Box(0, 1, (10,), np.float32))


def test_resume_a_checkpoint_saved_with_the_former_observation_bounds(tmp_path):
    """Checkpoints saved before the observation bounds were tightened (issue 15 item 10) hold a Box of the same
    shape with highs up to 16,383.5: resuming one works (SB3 alone refuses the changed space)."""
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    run = tmp_path / "run"
    _train(run)
    ckpt = latest_checkpoint(run)
    model = MaskablePPO.load(ckpt)
    old = spaces.Box(low=0.0, high=16383.5, shape=(observation_size(),), dtype=np.float32)
    model.observation_space = old
    model.save(ckpt)
    assert MaskablePPO.load(ckpt).observation_space == old
    out = _train(run, "run.total_timesteps=384", resume=True)
    assert out["num_timesteps"] == 384
