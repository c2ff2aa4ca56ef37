"""Behaviour cloning (blackangel_env/training/imitation.py): the expert dataset, cloning a policy, and the
``pretrain.*`` warm start of train_ppo.  Games are cut short (``max_steps``) and the expert is ``greedy`` to keep this
file fast."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from blackangel_env import actions as A  # noqa: E402
from blackangel_env.encoding import observation_size  # noqa: E402
from blackangel_env.training import imitation, train_ppo  # noqa: E402
from blackangel_env.training.checkpoints import list_checkpoints, read_meta  # noqa: E402
from blackangel_env.training.config import ConfigError, load_config  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "configs/train/ppo_solo_tiny.yaml"
SHORT = {"num_players": 1, "max_steps": 20}                 # games cut after 20 learner decisions


@pytest.fixture(autouse=True)
def _quiet(monkeypatch, tmp_path):
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3"))
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope="module")
def dataset():
    return imitation.collect("greedy", 3, seed=7, env_kw=SHORT,
                             shaping={"shaping": "value", "scale": 0.05, "gamma": 1.0})


@pytest.mark.slow
def test_collection_is_deterministic_and_legal(dataset, tmp_path):
    data, meta = dataset
    n = len(data["actions"])
    assert meta["samples"] == n == 60 and meta["games"] == 3 and meta["agent"] == "greedy"
    assert data["obs"].shape == (n, observation_size()) and data["obs"].dtype == np.float32
    masks = imitation.unpack_masks(data["masks"])
    assert masks.shape == (n, A.NUM_ACTIONS)
    assert masks[np.arange(n), data["actions"]].all()                   # every expert action is legal
    assert list(np.unique(data["episode"])) == [0, 1, 2] and np.all(np.diff(data["episode"]) >= 0)
    assert meta["expert"]["truncated"] == 3
    # the same games again, in two worker processes: the same data
    again, _ = imitation.collect("greedy", 3, seed=7, env_kw=SHORT,
                                     shaping={"shaping": "value", "scale": 0.05, "gamma": 1.0}, workers=2)
    for k in data:
        np.testing.assert_array_equal(data[k], again[k], err_msg=k)
    # another seed: other games
    assert not np.array_equal(imitation.collect("greedy", 1, seed=8, env_kw=SHORT)[0]["obs"],
                              data["obs"][data["episode"] == 0])
    # saved and loaded losslessly
    path = imitation.save_dataset(tmp_path / "d.npz", data, meta)
    back, meta3 = imitation.load_dataset(path)
    assert meta3 == json.loads(json.dumps(meta))
    for k in data:
        np.testing.assert_array_equal(data[k], back[k], err_msg=k)
    with pytest.raises(ValueError, match="unknown agent code"):
        imitation.collect("nobody", 1)


def test_discounted_returns_restart_at_each_game():
    r = np.array([1, 0, 2, 1, 1], dtype=np.float32)
    ep = np.array([0, 0, 0, 1, 1])
    np.testing.assert_allclose(imitation.discounted_returns(r, ep, 0.5), [1.5, 1.0, 2.0, 1.5, 1.0])


def _model(*sets):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    cfg = load_config(TINY, list(sets))
    venv = DummyVecEnv([lambda: train_ppo.make_env(train_ppo.env_kwargs(cfg))])
    policy, kwargs = train_ppo.policy_spec(cfg)
    return MaskablePPO(policy, venv, policy_kwargs=kwargs, seed=0, verbose=0, **train_ppo.ppo_kwargs(cfg))


@pytest.mark.slow
def test_cloning_fits_the_expert_actions(dataset):
    data, _ = dataset
    model = _model("policy.net_arch_pi=[64]", "policy.net_arch_vf=[64]")
    rows = []
    before = imitation._measure(model.policy, data["obs"], data["masks"], data["actions"],
                                np.zeros(len(data["actions"]), np.float32), np.arange(len(data["actions"])), 64)
    r = imitation.behaviour_clone(model.policy, data, epochs=40, batch_size=32, learning_rate=3e-3, value=True,
                                  max_grad_norm=None, epoch_log=rows.append)
    assert len(rows) == 40 and r["train_samples"] + r["val_samples"] == r["samples"] == 60
    assert r["val_samples"] == 20                                        # one of the 3 games held out
    # an overfit check: the greedy masked action of the clone is the expert's on (nearly) every training sample
    assert r["train_accuracy"] >= 0.9 > before["accuracy"]
    assert rows[-1]["train_loss"] < rows[0]["train_loss"] and rows[-1]["train_value_mse"] < rows[0]["train_value_mse"]
    assert 0 <= r["val_accuracy"] <= 1 and np.isfinite(r["val_value_mse"])
    # the masked logits cloned are the ones SB3 acts on
    masks = imitation.unpack_masks(data["masks"])
    acted, _ = model.predict(data["obs"], action_masks=masks, deterministic=True)
    logits, _ = imitation._forward(model.policy, data["obs"], data["masks"])
    np.testing.assert_array_equal(acted, logits.argmax(dim=1).numpy())


def test_pretrain_config_keys():
    cfg = load_config(TINY)
    assert cfg["pretrain.agent"] is None                                 # off by default
    assert load_config(TINY, ["pretrain.agent=mcts:20"])["pretrain.agent"] == "mcts:20"
    with pytest.raises(ConfigError, match="'pretrain.agent' is not an agent code"):
        load_config(TINY, ["pretrain.agent=nobody"])
    with pytest.raises(ConfigError, match="'pretrain.games' must be > 0"):
        load_config(TINY, ["pretrain.games=0"])
    bc = load_config(ROOT / "configs/train/ppo_solo_bc.yaml")
    assert bc["pretrain.agent"] == "heuristic" and bc["env.reward"] == "win" and bc["env.shaping"] == "value"
    # Undiscounted: with gamma < 1 a learner that always loses is paid for postponing its final -1 (the BC run's
    # games grew from 109 to 150 decisions and Hal's VP by 5; configs/train/ppo_solo.yaml, ppo.gamma).
    assert bc["ppo.gamma"] == 1.0 and load_config(ROOT / "configs/train/ppo_solo.yaml")["ppo.gamma"] == 1.0


@pytest.mark.slow
def test_train_ppo_pretrains_once_then_resumes(tmp_path, monkeypatch):
    run = tmp_path / "run"
    msgs: list[str] = []
    sets = [f"run.dir={run}", "env.max_steps=20", "env.shaping=value", "pretrain.agent=greedy", "pretrain.games=2",
            "pretrain.epochs=2", "pretrain.batch_size=16", "eval.n_games=2"]
    out = train_ppo.train(TINY, sets, progress=msgs.append)
    assert out["num_timesteps"] == 256
    assert any("pretrain: cloned greedy" in m for m in msgs)
    # the dataset is cached, the clone evaluated and checkpointed at step 0, its metrics logged
    _, meta = imitation.load_dataset(run / imitation.DATASET)
    assert meta["games"] == 2 and meta["samples"] == 40 and meta["shaping"]["shaping"] == "value"
    summary = json.loads((run / "pretrain/summary.json").read_text())
    assert summary["clone"]["epoch"] == 2
    with open(run / "pretrain/epochs.csv") as f:
        assert [int(r["epoch"]) for r in csv.DictReader(f)] == [1, 2]
    with open(run / "evaluations.csv") as f:
        assert [int(r["step"]) for r in csv.DictReader(f)] == [0, 128, 256]
    assert [s for s, _ in list_checkpoints(run)] == [0, 128, 256]
    with open(run / "logs/from_000000000/progress.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["pretrain/val_accuracy"] != "" and int(rows[0]["time/total_timesteps"]) == 0
    assert rows[0]["eval/win_rate"] != "" and int(rows[-1]["time/total_timesteps"]) == 256

    # resuming neither collects nor clones again
    def boom(*a, **k):
        raise AssertionError("pretrained again")
    monkeypatch.setattr(imitation, "pretrain", boom)
    monkeypatch.setattr(imitation, "collect", boom)
    out = train_ppo.train(None, ["run.total_timesteps=384"], resume=run, progress=lambda m: None)
    assert out["num_timesteps"] == 384 and read_meta(list_checkpoints(run)[-1][1])["segment"] == 1


@pytest.mark.slow
def test_pretrain_reuses_a_given_dataset_and_the_cli(dataset, tmp_path, monkeypatch):
    data, meta = dataset
    path = imitation.save_dataset(tmp_path / "d.npz", data, meta)
    # the command line: clone a saved dataset into a model .zip that loads as an agent
    out = tmp_path / "clone.zip"
    assert imitation.main(["--config", str(TINY), "--data", str(path), "--clone", str(out),
                           "--set", "pretrain.epochs=1"]) == 0
    from blackangel_env.training.policy_agent import PolicyAgent
    agent = PolicyAgent(out)
    m = imitation.unpack_masks(data["masks"][:1])[0]
    assert m[agent.act(data["obs"][0], m)]
    # a run given pretrain.dataset does not collect
    monkeypatch.setattr(imitation, "collect", lambda *a, **k: (_ for _ in ()).throw(AssertionError("collected")))
    with pytest.raises(ConfigError, match="'pretrain.dataset'"):
        train_ppo.train(TINY, [f"run.dir={tmp_path / 'r0'}", "pretrain.agent=greedy",
                               f"pretrain.dataset={tmp_path / 'none.npz'}"], progress=lambda m: None)
    run = tmp_path / "run"
    train_ppo.train(TINY, [f"run.dir={run}", "pretrain.agent=greedy", f"pretrain.dataset={path}",
                           "pretrain.epochs=1", "eval.n_games=1", "env.max_steps=20", "run.total_timesteps=128",
                           "pretrain.evaluate=false"], progress=lambda m: None)
    assert not (run / imitation.DATASET).exists()
    with open(run / "evaluations.csv") as f:
        assert [int(r["step"]) for r in csv.DictReader(f)] == [128]


@pytest.mark.slow
def test_a_run_stopped_while_pretraining_resumes_from_the_cached_dataset(tmp_path, monkeypatch):
    run = tmp_path / "run"
    sets = [f"run.dir={run}", "env.max_steps=20", "pretrain.agent=greedy", "pretrain.games=1", "pretrain.epochs=1",
            "eval.n_games=1", "run.total_timesteps=128"]

    def stop(*a, **k):
        raise KeyboardInterrupt
    with monkeypatch.context() as mp:
        mp.setattr(imitation, "behaviour_clone", stop)
        with pytest.raises(KeyboardInterrupt):
            train_ppo.train(TINY, sets, progress=lambda m: None)
    assert (run / imitation.DATASET).is_file() and not list_checkpoints(run)
    monkeypatch.setattr(imitation, "collect", lambda *a, **k: (_ for _ in ()).throw(AssertionError("collected")))
    msgs: list[str] = []
    out = train_ppo.train(None, [], resume=run, progress=msgs.append)
    assert out["num_timesteps"] == 128 and any("reusing" in m for m in msgs)
    assert [s for s, _ in list_checkpoints(run)] == [0, 128]


@pytest.mark.slow
def test_dagger_games_are_driven_by_the_clone_and_labelled_by_the_expert(dataset, tmp_path):
    """DAgger's collection (module docstring, point 3): beta = 1 is the expert's own games; beta = 0 follows the
    driver while every label stays the expert's (legal) choice; the result does not depend on the workers."""
    data, _ = dataset
    model = _model("policy.net_arch_pi=[16]", "policy.net_arch_vf=[16]")
    driver = tmp_path / "driver.zip"
    model.save(driver)
    shaping = {"shaping": "value", "scale": 0.05, "gamma": 1.0}
    same, meta = imitation.collect("greedy", 3, seed=7, env_kw=SHORT, shaping=shaping, driver=driver, beta=1.0)
    for k in data:
        np.testing.assert_array_equal(same[k], data[k], err_msg=k)
    assert meta["driver"] == str(driver) and meta["beta"] == 1.0
    driven, meta0 = imitation.collect("greedy", 3, seed=7, env_kw=SHORT, shaping=shaping, driver=driver, beta=0.0)
    assert meta0["beta"] == 0.0 and len(driven["actions"]) == 60
    assert not np.array_equal(driven["obs"], data["obs"])                 # other positions: the driver's
    masks = imitation.unpack_masks(driven["masks"])
    assert masks[np.arange(60), driven["actions"]].all()
    # the labels are the expert's choices in the driven positions: greedy from each position's state
    again, _ = imitation.collect("greedy", 3, seed=7, env_kw=SHORT, shaping=shaping, driver=driver, beta=0.0,
                                 workers=2)
    for k in driven:
        np.testing.assert_array_equal(driven[k], again[k], err_msg=k)
    with pytest.raises(ValueError, match="beta must lie in"):
        imitation.collect("greedy", 1, env_kw=SHORT, driver=driver, beta=1.5)
    with pytest.raises(ValueError, match="is not a model file"):
        imitation.collect("greedy", 1, env_kw=SHORT, driver=tmp_path / "none.zip", beta=0.5)
    merged = imitation.merge_datasets(data, driven)
    assert list(np.unique(merged["episode"])) == [0, 1, 2, 3, 4, 5] and len(merged["actions"]) == 120


@pytest.mark.slow
def test_train_ppo_runs_dagger_rounds_and_reuses_them(tmp_path, monkeypatch):
    run = tmp_path / "run"
    sets = [f"run.dir={run}", "env.max_steps=20", "pretrain.agent=greedy", "pretrain.games=2", "pretrain.epochs=1",
            "pretrain.batch_size=16", "pretrain.dagger_rounds=2", "pretrain.dagger_games=2",
            "pretrain.dagger_beta=0.5", "eval.n_games=1", "run.total_timesteps=128"]
    msgs: list[str] = []
    train_ppo.train(TINY, sets, progress=msgs.append)
    summary = json.loads((run / "pretrain/summary.json").read_text())
    assert [(d["round"], d["beta"], d["games"], d["samples"]) for d in summary["dagger"]] == [(1, 0.5, 2, 40),
                                                                                           (2, 0.25, 2, 40)]
    assert summary["clone"]["samples"] == 120                            # 2 expert games + 2 x 2 DAgger games
    assert summary["clone"]["val_samples"] == 60                         # one held-out game in each part
    seeds = [imitation.load_dataset(run / f"pretrain/dagger_{r}.npz")[1]["seed"] for r in (1, 2)]
    assert seeds == [2_000_002, 2_000_004]                               # after the expert's games: new deals
    assert (run / "pretrain/dagger_2_driver.zip").is_file()
    with open(run / "pretrain/epochs.csv") as f:
        assert [int(r["round"]) for r in csv.DictReader(f)] == [0, 1, 2]
    assert sum(m.startswith("pretrain: DAgger round") for m in msgs) == 2
    with pytest.raises(ConfigError, match="'pretrain.dagger_beta' must lie in"):
        load_config(TINY, ["pretrain.dagger_beta=2"])
    # a new run in the same directory reuses the cached expert games and DAgger rounds
    monkeypatch.setattr(imitation, "collect", lambda *a, **k: (_ for _ in ()).throw(AssertionError("collected")))
    msgs.clear()
    import shutil
    for p in run.iterdir():
        if p.name != "pretrain":
            shutil.rmtree(p) if p.is_dir() else p.unlink()
    train_ppo.train(TINY, sets, progress=msgs.append)
    assert sum("reusing" in m for m in msgs) == 3
