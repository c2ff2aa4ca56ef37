"""Behaviour cloning: a warm start for MaskablePPO from an expert agent's games against Hal.

    python -m blackangel_env.training.imitation --agent heuristic --games 200 --out data.npz [--workers 2] \
        [--seed 2000000]
    python -m blackangel_env.training.imitation --data data.npz --clone model.zip [--config configs/train/ppo_solo.yaml]

PPO from scratch barely moves away from random play in this game (sparse reward, ~45-130 decisions a game, 882
actions).  The search agents of ``blackangel_env/agents/`` play far better, so a run can start from a policy that
imitates one:

1. ``collect``: ``games`` solo games of the expert (an agent code of ``blackangel_env.agents.make_agent``) against Hal,
   through the same environment the learner trains in (``blackangel_env.training.envs.make_env``: ``env.*`` options and
   reward shaping), game i seeded ``seed + i`` (the deal and the expert's tie-breaking generator), optionally in worker
   processes (the result does not depend on their number).  Every learner decision gives a sample: observation,
   legal-action mask, the expert's action, the step's (shaped) reward and the game it belongs to.
2. ``behaviour_clone``: trains the policy's actor by cross-entropy of its masked logits (those
   ``policy.evaluate_actions`` uses) on the expert's action, and optionally (``value=True``) its critic by MSE on
   the discounted return of the shaped reward under ``gamma`` (so PPO's first updates do not start from a random
   critic that would push the cloned policy around), with its own Adam.  10% of the games are held out: their
   samples give the reported accuracy (greedy masked action == expert action) and losses; ``train_accuracy`` is
   measured on up to 4096 training samples.
3. DAgger (``pretrain.dagger_rounds`` > 0; Ross, Gordon & Bagnell 2011): a clone drifts into positions the
   expert never reaches and has no label for.  Each round, the current clone (saved as
   ``RUN_DIR/pretrain/dagger_<r>_driver.zip``) plays ``pretrain.dagger_games`` new games against Hal while the
   expert labels every decision it meets; at each decision the expert's own action is played with probability
   ``beta = pretrain.dagger_beta ** r`` and the clone's greedy action otherwise (a per-game generator seeded from
   the game seed decides).  The round's samples (the expert's labels, the played games' rewards) join the
   dataset and the policy is cloned again on the whole of it (``pretrain.epochs`` more epochs, from its current
   weights); each round's games are split into training and held-out games on their own, and keep their side
   in later rounds (the held-out accuracy is never measured on games trained on earlier).  Round r's games are
   seeded after the initial games and the earlier rounds' (disjoint deals).
4. ``pretrain(model, cfg, run_dir)``: what ``train_ppo.Trainer`` runs before PPO on a fresh run when
   ``pretrain.agent`` is set (the ``pretrain.*`` keys of ``configs/train/ppo_solo.yaml``).  The dataset is
   cached as ``RUN_DIR/pretrain/dataset.npz`` (reused when its settings match: ``--resume`` of a run stopped
   while cloning) unless ``pretrain.dataset`` names one, each DAgger round's as ``dagger_<r>.npz`` (reused
   when its settings match; the driver of a restarted run is cloned again, so it may differ slightly);
   per-epoch metrics go to ``RUN_DIR/pretrain/epochs.csv`` (a ``round`` column: 0 = the initial cloning),
   the summary to ``RUN_DIR/pretrain/summary.json`` and to the run's logs (``pretrain/*``); the Trainer then
   evaluates the clone and checkpoints it at step 0.

Dataset (``.npz``, compressed): ``obs`` float32 (N, obs_size), ``masks`` packed bits (N, ceil(882 / 8)),
``actions`` int16, ``rewards`` float32, ``episode`` int32 (game index), ``meta`` a JSON string (agent, seed,
games, environment, the expert's results).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from blackangel_env.arguments import output_problem, positive_int, seed as seed_arg

__all__ = ["collect", "save_dataset", "load_dataset", "check_dataset", "merge_datasets", "discounted_returns",
           "behaviour_clone", "pretrain", "dagger_round", "dataset_meta", "main"]

DATASET = "pretrain/dataset.npz"
VAL_FRACTION = 0.1
TRAIN_PROBE = 4096           # training samples (at most) whose accuracy is reported each epoch


# -- collection ---------------------------------------------------------------------------------------------------

_DRIVERS: dict[str, Any] = {}     # a worker's loaded DAgger drivers, by path


def _driver(path: str):
    if path not in _DRIVERS:
        from blackangel_env.agents.arena import in_worker, limit_threads

        from .policy_agent import PolicyAgent
        _DRIVERS.clear()
        _DRIVERS[path] = PolicyAgent(path)
        if in_worker():
            limit_threads()                                 # one process per core
    return _DRIVERS[path]


def _play(job: tuple) -> dict[str, Any]:
    """One game against Hal, labelled by the expert: its samples and result (runs in a worker process, or
    in-process).  ``job`` = (expert code, game seed, env options, shaping[, driver model path, beta]): with a
    driver, the expert's action is played with probability ``beta`` and the driver's otherwise (DAgger)."""
    from blackangel_env.agents import make_agent

    from .envs import make_env

    code, game_seed, env_kw, shaping = job[:4]
    driver_path, beta = job[4:6] if len(job) > 4 else (None, 1.0)
    env = make_env(env_kw, shaping)
    base = env.unwrapped
    agent = make_agent(code, seed=game_seed)
    driver = _driver(driver_path) if driver_path else None
    coin = np.random.default_rng([game_seed, 0xDA66E4])     # who plays each decision (DAgger)
    obs, info = env.reset(seed=game_seed)
    o, m, a, r = [], [], [], []
    while True:
        mask = base.action_masks()
        act = int(agent.act(obs, info["action_mask"], base.game_state.copy()))
        if not mask[act]:
            raise RuntimeError(f"expert {code!r} chose illegal action {act} (game seed {game_seed})")
        o.append(obs)
        m.append(mask)
        a.append(act)
        if driver is not None and coin.random() >= beta:
            act = driver.act(obs, mask)
        obs, reward, term, trunc, info = env.step(act)
        r.append(reward)
        if term or trunc:
            break
    s = base.game_state
    from blackangel_env.state import BOT
    vp, hal = int(s.vp[0]), int(s.vp[BOT])
    env.close()
    return {"obs": np.asarray(o, dtype=np.float32), "masks": np.packbits(np.asarray(m, dtype=bool), axis=1),
            "actions": np.asarray(a, dtype=np.int16), "rewards": np.asarray(r, dtype=np.float32),
            "won": bool(term and info["winners"][0]), "vp": vp, "hal_vp": hal,
            "truncated": bool(trunc and not term)}


def collect(agent: str, games: int, seed: int = 0, env_kw: dict[str, Any] | None = None,
            shaping: dict[str, Any] | None = None, workers: int = 1, progress=None, driver: str | Path | None = None,
            beta: float = 1.0) -> tuple[dict, dict]:
    """``games`` seeded games of ``agent`` -> (arrays, meta); see the module docstring.  With ``driver`` (a
    model ``.zip``) the games are DAgger's: the expert labels every decision, the driver plays it unless a coin
    of probability ``beta`` gives it to the expert; ``meta["expert"]`` then holds the played games' results."""
    from blackangel_env.agents import parse_agent_code

    parse_agent_code(agent)                                 # a bad code fails here, not in a worker
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"beta must lie in [0, 1], got {beta}")
    if driver is not None and not Path(driver).is_file():
        raise ValueError(f"DAgger driver {str(driver)!r} is not a model file")
    env_kw = dict(env_kw or {"num_players": 1})
    extra = (str(driver), float(beta)) if driver is not None else ()
    jobs = [(agent, seed + i, env_kw, shaping) + extra for i in range(games)]
    t0 = time.perf_counter()
    results: list[dict[str, Any]] = []

    def note(i):
        if progress is not None and (i + 1) % max(1, games // 10) == 0:
            progress(f"collect: {i + 1}/{games} games of {agent} ({time.perf_counter() - t0:.0f} s)")

    if workers > 1:
        from blackangel_env.agents.arena import worker_pool
        with worker_pool(min(workers, games), context="fork") as pool:     # one torch / BLAS thread each
            for i, r in enumerate(pool.imap(_play, jobs)):   # ordered: independent of the number of workers
                results.append(r)
                note(i)
    else:
        for i, job in enumerate(jobs):
            results.append(_play(job))
            note(i)
    data = {k: np.concatenate([r[k] for r in results]) for k in ("obs", "masks", "actions", "rewards")}
    data["episode"] = np.concatenate([np.full(len(r["actions"]), i, dtype=np.int32)
                                      for i, r in enumerate(results)])
    vp = np.array([r["vp"] for r in results], dtype=float)
    hal = np.array([r["hal_vp"] for r in results], dtype=float)
    meta = dataset_meta(agent, games, seed, env_kw, shaping)
    if driver is not None:
        meta.update({"driver": str(driver), "beta": float(beta)})
    meta.update({"samples": int(len(data["actions"])), "seconds": time.perf_counter() - t0, "workers": workers,
                 "expert": {"wins": int(sum(r["won"] for r in results)), "mean_vp": float(vp.mean()),
                            "mean_hal_vp": float(hal.mean()), "mean_margin": float((vp - hal).mean()),
                            "truncated": int(sum(r["truncated"] for r in results))}})
    return data, meta


def dataset_meta(agent: str, games: int, seed: int, env_kw: dict[str, Any], shaping: dict[str, Any] | None
                 ) -> dict[str, Any]:
    """The settings that determine a dataset (a cached one is reused only when they match)."""
    from blackangel_env.encoding import observation_size
    return {"agent": agent, "games": int(games), "seed": int(seed), "env": dict(env_kw),
            "shaping": dict(shaping) if shaping else None, "obs_size": int(observation_size())}


DATASET_ARRAYS = ("obs", "masks", "actions", "rewards", "episode")     # the arrays of a dataset, with ``meta``


def save_dataset(path: str | Path, data: dict[str, np.ndarray], meta: dict[str, Any]) -> Path:
    """Write the dataset to ``path`` (through a temporary file beside it, ``<name>.tmp.npz``, renamed at the end;
    removed if the writing fails).  A folder at ``path`` raises IsADirectoryError before anything is written."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"dataset {path} is a folder; give a file name")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / (path.name + ".tmp.npz")     # in the target's folder, named after the whole target name
    try:
        np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), **data)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _open_dataset(path: str | Path):
    """``np.load(path)`` of a dataset file, its ``meta`` read and checked; ValueError naming the file otherwise."""
    from blackangel_env.arguments import path_problem

    name = str(path)
    problem = path_problem(name)
    if problem:
        raise ValueError(f"dataset {name}: {problem}")
    p = Path(name)
    if not p.is_file():
        raise ValueError(f"dataset {name} {'is a folder' if p.is_dir() else 'does not exist'}; give a .npz file "
                         "written by python -m blackangel_env.training.imitation --out")
    import zipfile
    try:
        if not zipfile.is_zipfile(name):
            raise ValueError(f"dataset {name} is not a .npz file (not a zip archive of arrays)")
        z = np.load(name, allow_pickle=False)
    except OSError as e:
        raise ValueError(f"dataset {name} cannot be read ({e.strerror or e})") from None
    except (ValueError, EOFError, zipfile.BadZipFile) as e:
        if str(e).startswith(f"dataset {name}"):
            raise
        raise ValueError(f"dataset {name} cannot be read as a .npz dataset ({type(e).__name__}: {e})") from None
    try:
        missing = [k for k in (*DATASET_ARRAYS, "meta") if k not in z.files]
        if missing:
            raise ValueError(f"dataset {name} lacks {', '.join(missing)} (not a dataset written by "
                             "python -m blackangel_env.training.imitation --out)")
        try:
            meta = json.loads(str(z["meta"]))
        except Exception as e:  # noqa: BLE001 - a damaged entry fails inside zipfile / numpy / json
            raise ValueError(f"dataset {name}: its meta entry cannot be read ({type(e).__name__}: {e})") from None
        if not isinstance(meta, dict):
            raise ValueError(f"dataset {name}: its meta entry is not a JSON object")
        expert = meta.get("expert")
        bad = [k for k in ("agent", "games", "samples", "expert") if k not in meta]
        if not bad and not (isinstance(meta["games"], int) and meta["games"] >= 1):
            bad = ["games (a positive integer)"]
        if not bad and not (isinstance(expert, dict) and all(k in expert for k in ("wins", "mean_margin"))):
            bad = ["expert (the expert's results)"]
        if bad:
            raise ValueError(f"dataset {name}: its meta entry lacks {', '.join(bad)} (not a dataset written by "
                             "python -m blackangel_env.training.imitation --out)")
    except BaseException:
        z.close()
        raise
    return z, meta


def check_dataset(path: str | Path) -> dict[str, Any]:
    """The ``meta`` of the dataset file ``path`` after checking that it is one (its arrays are not read); raises
    ValueError naming the file for a missing, unreadable or incomplete file."""
    z, meta = _open_dataset(path)
    z.close()
    return meta


def load_dataset(path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """(arrays, meta) of a dataset file; ValueError naming the file for a missing, unreadable or incomplete one."""
    z, meta = _open_dataset(path)
    with z:
        try:
            data = {k: z[k] for k in z.files if k != "meta"}
        except Exception as e:  # noqa: BLE001 - a damaged array fails inside zipfile / numpy
            raise ValueError(f"dataset {path}: an array cannot be read ({type(e).__name__}: {e})") from None
    return data, meta


def merge_datasets(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``a`` followed by ``b``, ``b``'s games renumbered after ``a``'s (each keeps its own game index)."""
    offset = int(a["episode"].max()) + 1 if len(a["episode"]) else 0
    out = {k: np.concatenate([a[k], b[k]]) for k in ("obs", "masks", "actions", "rewards")}
    out["episode"] = np.concatenate([a["episode"], b["episode"] + offset]).astype(np.int32)
    return out


def unpack_masks(packed: np.ndarray) -> np.ndarray:
    from blackangel_env import actions as A
    return np.unpackbits(packed, axis=1, count=A.NUM_ACTIONS).astype(bool)


def discounted_returns(rewards: np.ndarray, episode: np.ndarray, gamma: float) -> np.ndarray:
    """Per-sample discounted return to the end of its game (samples of a game are contiguous and in order)."""
    out = np.zeros(len(rewards), dtype=np.float64)
    g = 0.0
    for i in range(len(rewards) - 1, -1, -1):
        if i == len(rewards) - 1 or episode[i + 1] != episode[i]:
            g = 0.0
        g = float(rewards[i]) + gamma * g
        out[i] = g
    return out.astype(np.float32)


# -- behaviour cloning ----------------------------------------------------------------------------------------------

def _split(episode: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(train, held-out) sample indices: VAL_FRACTION of the games (at least one when there are two or more)."""
    games = np.unique(episode)
    n_val = int(round(VAL_FRACTION * len(games))) if len(games) >= 2 else 0
    n_val = max(n_val, 1) if len(games) >= 2 else 0
    val_games = np.random.default_rng(seed).permutation(games)[:n_val]
    held = np.isin(episode, val_games)
    return np.flatnonzero(~held), np.flatnonzero(held)


def _batches(idx: np.ndarray, batch_size: int):
    for s in range(0, len(idx), batch_size):
        yield idx[s:s + batch_size]


def _forward(policy, obs: np.ndarray, packed_masks: np.ndarray):
    """(masked logits, values) of a MaskableActorCriticPolicy: what its ``evaluate_actions`` computes (illegal
    actions' logits set to -1e8 as MaskableCategorical does), without the entropy."""
    import torch

    o = torch.as_tensor(obs, device=policy.device)
    m = torch.as_tensor(unpack_masks(packed_masks), device=policy.device)
    features = policy.extract_features(o)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        pi_features, vf_features = features
        latent_pi = policy.mlp_extractor.forward_actor(pi_features)
        latent_vf = policy.mlp_extractor.forward_critic(vf_features)
    logits = policy.action_net(latent_pi).masked_fill(~m, -1e8)
    return logits, policy.value_net(latent_vf).flatten()


def _measure(policy, obs, masks, actions, returns, idx, batch_size) -> dict[str, float]:
    """Accuracy (greedy masked action == expert action), cross-entropy and value MSE over samples ``idx``."""
    import torch
    if len(idx) == 0:
        return {}
    correct = nll = sq = 0.0
    with torch.no_grad():
        for b in _batches(idx, max(batch_size, 1024)):
            logits, values = _forward(policy, obs[b], masks[b])
            a = torch.as_tensor(actions[b].astype(np.int64), device=policy.device)
            correct += float((logits.argmax(dim=1) == a).sum())
            nll += float(torch.nn.functional.cross_entropy(logits, a, reduction="sum"))
            sq += float(((values - torch.as_tensor(returns[b], device=policy.device)) ** 2).sum())
    n = len(idx)
    return {"accuracy": correct / n, "loss": nll / n, "value_mse": sq / n}


def held_out_games(episode: np.ndarray, seed: int) -> np.ndarray:
    """Per sample: is its game held out (``_split``)?"""
    held = np.zeros(len(episode), dtype=bool)
    held[_split(episode, seed)[1]] = True
    return held


def behaviour_clone(policy, data: dict[str, np.ndarray], epochs: int = 10, batch_size: int = 256,
                    learning_rate: float = 1e-3, value: bool = True, gamma: float = 1.0, vf_coef: float = 0.5,
                    max_grad_norm: float | None = 0.5, seed: int = 0, epoch_log=None, progress=None,
                    held_out: np.ndarray | None = None) -> dict[str, Any]:
    """Fit ``policy`` (a MaskableActorCriticPolicy) to the dataset; returns the final metrics (module docstring).
    ``epoch_log(row)`` receives each epoch's metrics.  ``held_out`` (a bool per sample) fixes the held-out
    samples (DAgger keeps each game on its side across rounds); by default ``VAL_FRACTION`` of the games."""
    import torch

    obs, masks, actions = data["obs"], data["masks"], data["actions"]
    if obs.shape[1:] != policy.observation_space.shape:
        raise ValueError(f"the dataset's observations have shape {obs.shape[1:]}, the policy's "
                         f"{policy.observation_space.shape} (collected with another observation encoding?)")
    returns = discounted_returns(data["rewards"], data["episode"], gamma)
    if held_out is None:
        train_idx, val_idx = _split(data["episode"], seed)
    else:
        train_idx, val_idx = np.flatnonzero(~held_out), np.flatnonzero(held_out)
    rng = np.random.default_rng(seed + 1)
    probe = np.sort(rng.permutation(train_idx)[:TRAIN_PROBE])        # training samples whose accuracy is reported
    opt = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    policy.set_training_mode(True)
    t0 = time.perf_counter()
    row: dict[str, Any] = {}
    for epoch in range(1, epochs + 1):
        tot_pi = tot_v = 0.0
        for b in _batches(rng.permutation(train_idx), batch_size):
            logits, values = _forward(policy, obs[b], masks[b])
            a = torch.as_tensor(actions[b].astype(np.int64), device=policy.device)
            loss_pi = torch.nn.functional.cross_entropy(logits, a)
            loss = loss_pi
            if value:
                loss_v = torch.nn.functional.mse_loss(values, torch.as_tensor(returns[b], device=policy.device))
                loss = loss + vf_coef * loss_v
                tot_v += float(loss_v.detach()) * len(b)
            opt.zero_grad()
            loss.backward()
            if max_grad_norm:
                torch.nn.utils.clip_grad_norm_(policy.parameters(), max_grad_norm)
            opt.step()
            tot_pi += float(loss_pi.detach()) * len(b)
        policy.set_training_mode(False)
        row = {"epoch": epoch, "train_loss": tot_pi / max(len(train_idx), 1),
               "train_value_mse": tot_v / max(len(train_idx), 1) if value else float("nan")}
        row.update({f"train_{k}": v for k, v in _measure(policy, obs, masks, actions, returns, probe,
                                                          batch_size).items() if k == "accuracy"})
        row.update({f"val_{k}": v for k, v in _measure(policy, obs, masks, actions, returns, val_idx,
                                                        batch_size).items()})
        row["seconds"] = time.perf_counter() - t0
        policy.set_training_mode(True)
        if epoch_log is not None:
            epoch_log(row)
        if progress is not None:
            nan = float("nan")
            progress("bc epoch {epoch}: loss {train_loss:.3f}, train acc {acc:.3f}, held-out acc {val:.3f}, held-out "
                     "loss {vl:.3f}, value mse {vm:.4f}".format(acc=row.get("train_accuracy", nan),
                                                              val=row.get("val_accuracy", nan),
                                                              vl=row.get("val_loss", nan),
                                                              vm=row.get("val_value_mse", nan), **row))
    policy.set_training_mode(False)
    return {**row, "samples": int(len(actions)), "train_samples": int(len(train_idx)),
            "val_samples": int(len(val_idx)), "value": bool(value)}


# -- the training scripts' hook -----------------------------------------------------------------------------------

def _cfg_dataset(cfg: dict[str, Any], run_dir: Path, progress) -> tuple[dict, dict]:
    from .envs import env_kwargs, shaping_kwargs

    env_kw = env_kwargs(cfg)
    shaping = shaping_kwargs(cfg) if cfg["env.shaping"] != "none" else None
    if cfg["pretrain.dataset"]:
        path = Path(cfg["pretrain.dataset"])
        data, meta = load_dataset(path)
        if meta.get("env") != env_kw or meta.get("shaping") != shaping:
            progress(f"pretrain: note: {path} was collected with other environment settings (value targets follow "
                     "its rewards)")
        return data, meta
    path = run_dir / DATASET
    want = dataset_meta(cfg["pretrain.agent"], cfg["pretrain.games"], cfg["pretrain.seed"], env_kw, shaping)
    if path.is_file():
        try:
            data, meta = load_dataset(path)
        except ValueError as e:                         # a cache damaged (e.g. by a crash): collected again
            progress(f"pretrain: note: {e}; collecting again")
            meta = {}
        if {k: meta.get(k) for k in want} == json.loads(json.dumps(want)):
            progress(f"pretrain: reusing {path} ({meta['samples']} samples)")
            return data, meta
    data, meta = collect(cfg["pretrain.agent"], cfg["pretrain.games"], cfg["pretrain.seed"], env_kw, shaping,
                         workers=cfg["pretrain.workers"], progress=progress)
    save_dataset(path, data, meta)
    progress(f"pretrain: {meta['games']} games of {meta['agent']} -> {meta['samples']} samples in "
             f"{meta['seconds']:.0f} s ({meta['seconds'] / meta['games']:.2f} s a game); saved {path}")
    return data, meta


def dagger_round(model, cfg: dict[str, Any], run_dir: Path, rnd: int, progress=print) -> tuple[dict, dict]:
    """Round ``rnd`` (1, 2, ...) of DAgger (module docstring): the current policy of ``model`` drives
    ``pretrain.dagger_games`` games labelled by the expert; returns the round's (samples, meta), cached as
    ``RUN_DIR/pretrain/dagger_<rnd>.npz``."""
    from .envs import env_kwargs, shaping_kwargs

    out_dir = run_dir / "pretrain"
    out_dir.mkdir(parents=True, exist_ok=True)
    env_kw = env_kwargs(cfg)
    shaping = shaping_kwargs(cfg) if cfg["env.shaping"] != "none" else None
    games = cfg["pretrain.dagger_games"]
    seed = cfg["pretrain.seed"] + cfg["pretrain.games"] + (rnd - 1) * games
    beta = float(cfg["pretrain.dagger_beta"]) ** rnd
    path = out_dir / f"dagger_{rnd}.npz"
    want = dataset_meta(cfg["pretrain.agent"], games, seed, env_kw, shaping)
    want["beta"] = beta
    if path.is_file():
        try:
            data, meta = load_dataset(path)
        except ValueError as e:                         # a cache damaged (e.g. by a crash): collected again
            progress(f"pretrain: note: {e}; collecting again")
            meta = {}
        if {k: meta.get(k) for k in want} == json.loads(json.dumps(want)):
            progress(f"pretrain: DAgger round {rnd}: reusing {path} ({meta['samples']} samples)")
            return data, meta
    driver = out_dir / f"dagger_{rnd}_driver.zip"
    model.save(driver)
    data, meta = collect(cfg["pretrain.agent"], games, seed, env_kw, shaping, workers=cfg["pretrain.workers"],
                         progress=progress, driver=driver, beta=beta)
    save_dataset(path, data, meta)
    e = meta["expert"]
    progress(f"pretrain: DAgger round {rnd} (beta {beta:.3f}): {games} games -> {meta['samples']} labelled samples "
             f"in {meta['seconds']:.0f} s; the played games: {e['wins']} wins, margin {e['mean_margin']:+.1f}")
    return data, meta


def pretrain(model, cfg: dict[str, Any], run_dir: Path, progress=print) -> dict[str, Any]:
    """Collect (or reuse) the expert dataset and clone it into ``model.policy`` (``pretrain.*`` keys), then run
    ``pretrain.dagger_rounds`` rounds of DAgger; records ``pretrain/*`` in ``model.logger`` (not dumped: the
    caller dumps after its evaluation)."""
    t0 = time.perf_counter()
    data, meta = _cfg_dataset(cfg, run_dir, progress)
    t1 = time.perf_counter()
    out_dir = run_dir / "pretrain"
    out_dir.mkdir(parents=True, exist_ok=True)
    epochs_csv = out_dir / "epochs.csv"
    rows: list[dict[str, Any]] = []

    def clone(dataset: dict[str, np.ndarray], rnd: int) -> dict[str, Any]:
        return behaviour_clone(model.policy, dataset, epochs=cfg["pretrain.epochs"],
                               batch_size=cfg["pretrain.batch_size"], learning_rate=cfg["pretrain.learning_rate"],
                               value=cfg["pretrain.value"], gamma=cfg["ppo.gamma"], vf_coef=cfg["ppo.vf_coef"],
                               max_grad_norm=cfg["ppo.max_grad_norm"], seed=cfg["pretrain.seed"],
                               epoch_log=lambda row: rows.append({"round": rnd, **row}), progress=progress,
                               held_out=held)

    held = held_out_games(data["episode"], cfg["pretrain.seed"])
    r = clone(data, 0)
    clone_seconds = time.perf_counter() - t1
    rounds: list[dict[str, Any]] = []
    for rnd in range(1, cfg["pretrain.dagger_rounds"] + 1):
        t2 = time.perf_counter()
        new, new_meta = dagger_round(model, cfg, run_dir, rnd, progress)
        t3 = time.perf_counter()
        data = merge_datasets(data, new)
        held = np.concatenate([held, held_out_games(new["episode"], cfg["pretrain.seed"] + rnd)])
        r = clone(data, rnd)
        clone_seconds += time.perf_counter() - t3
        rounds.append({"round": rnd, "beta": new_meta["beta"], "games": new_meta["games"],
                       "samples": new_meta["samples"], "played": new_meta["expert"], "collect_seconds": t3 - t2,
                       "clone": r})
    with open(epochs_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[-1]))
        w.writeheader()
        w.writerows(rows)
    summary = {"dataset": meta, "clone": r, "collect_seconds": t1 - t0, "clone_seconds": clone_seconds,
               "dagger": rounds}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    log = model.logger
    for k in ("train_accuracy", "val_accuracy", "val_loss", "val_value_mse", "train_loss", "samples"):
        if k in r and r[k] == r[k]:
            log.record(f"pretrain/{k}", r[k])
    log.record("pretrain/games", meta["games"])
    if rounds:
        log.record("pretrain/dagger_rounds", len(rounds))
        log.record("pretrain/dagger_samples", sum(x["samples"] for x in rounds))
        log.record("pretrain/dagger_last_margin", rounds[-1]["played"]["mean_margin"])
    log.record("pretrain/expert_margin", meta["expert"]["mean_margin"])
    log.record("pretrain/expert_win_rate", meta["expert"]["wins"] / meta["games"])
    log.record("pretrain/collect_seconds", t1 - t0)
    log.record("pretrain/clone_seconds", summary["clone_seconds"])
    progress(f"pretrain: cloned {meta['agent']} ({r['samples']} samples, {cfg['pretrain.epochs']} epochs a round, "
             f"{len(rounds)} DAgger rounds): "
             f"held-out accuracy {r.get('val_accuracy', float('nan')):.3f}, train accuracy "
             f"{r.get('train_accuracy', float('nan')):.3f} in {summary['clone_seconds']:.0f} s")
    return summary


# -- command line ---------------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m blackangel_env.training.imitation",
                                 description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", help="training config whose env.*, policy.*, ppo.gamma and pretrain.* keys are used "
                    "(default: the defaults of configs/train/ppo_solo.yaml)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    ap.add_argument("--agent", help="expert agent code (default: pretrain.agent, else heuristic)")
    ap.add_argument("--games", type=positive_int, help="games to collect (default: pretrain.games)")
    ap.add_argument("--seed", type=seed_arg, help="game i is seeded seed + i (default: pretrain.seed)")
    ap.add_argument("--workers", type=positive_int, help="worker processes (default: pretrain.workers)")
    ap.add_argument("--out", help="write the collected dataset here (.npz)")
    ap.add_argument("--data", help="use this dataset instead of collecting")
    ap.add_argument("--clone", metavar="MODEL_ZIP", help="clone the dataset into a fresh MaskablePPO model (policy.* "
                    "keys) and save it here (evaluate it with python -m blackangel_env.training.evaluate MODEL_ZIP)")
    args = ap.parse_args(argv)
    if args.agent is not None:
        from blackangel_env.agents import parse_agent_code
        try:
            parse_agent_code(args.agent)
        except ValueError as e:
            ap.error(f"--agent: {e}")
    for option, value in (("--out", args.out), ("--clone", args.clone)):
        problem = value is not None and output_problem(value, option)
        if problem:
            ap.error(problem)
    from blackangel_env.extras import require_extra
    require_extra("train", "python -m blackangel_env.training.imitation")

    from .config import ConfigError, load_config
    from .envs import env_kwargs, make_env, shaping_kwargs
    from .ppo_settings import policy_spec, ppo_kwargs
    try:
        cfg = load_config(args.config, args.set)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.data:
        try:
            data, meta = load_dataset(args.data)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"{args.data}: {meta['samples']} samples from {meta['games']} games of {meta['agent']}")
    else:
        agent = args.agent or cfg["pretrain.agent"] or "heuristic"
        games = args.games if args.games is not None else cfg["pretrain.games"]
        seed = args.seed if args.seed is not None else cfg["pretrain.seed"]
        workers = args.workers if args.workers is not None else cfg["pretrain.workers"]
        shaping = shaping_kwargs(cfg) if cfg["env.shaping"] != "none" else None
        data, meta = collect(agent, games, seed, env_kwargs(cfg), shaping, workers=workers, progress=print)
        e = meta["expert"]
        print(f"{games} games of {agent}: {meta['samples']} samples in {meta['seconds']:.1f} s "
              f"({meta['seconds'] / games:.2f} s a game); expert wins {e['wins']}/{games}, mean VP "
              f"{e['mean_vp']:.2f}, margin {e['mean_margin']:+.2f}")
        if args.out:
            save_dataset(args.out, data, meta)
            print(f"saved {args.out} ({Path(args.out).stat().st_size / 1e6:.1f} MB)")
    if args.clone:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv

        if cfg["run.torch_threads"]:
            torch.set_num_threads(cfg["run.torch_threads"])
        venv = DummyVecEnv([lambda: make_env(env_kwargs(cfg))])
        policy, policy_kwargs = policy_spec(cfg)
        model = MaskablePPO(policy, venv, policy_kwargs=policy_kwargs, seed=cfg["run.seed"],
                            device=cfg["run.device"], verbose=0, **ppo_kwargs(cfg))
        r = behaviour_clone(model.policy, data, epochs=cfg["pretrain.epochs"], batch_size=cfg["pretrain.batch_size"],
                            learning_rate=cfg["pretrain.learning_rate"], value=cfg["pretrain.value"],
                            gamma=cfg["ppo.gamma"], vf_coef=cfg["ppo.vf_coef"],
                            max_grad_norm=cfg["ppo.max_grad_norm"], seed=cfg["pretrain.seed"], progress=print)
        model.save(args.clone)
        print(f"saved {args.clone}: held-out accuracy {r.get('val_accuracy', float('nan')):.3f}, train accuracy "
              f"{r.get('train_accuracy', float('nan')):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
