"""PPO with RLlib (Ray) on the PettingZoo environment: every seat a learning agent, with action masking, on one
machine or a Ray cluster.  Needs the ``rllib`` extra (``pip install -c ci/constraints-cpu.txt -e ".[rllib]"``).

    python -m blackangel_env.training.rllib_train --config configs/train/rllib_3p.yaml [--set key=value ...]
    python -m blackangel_env.training.rllib_train --resume RUN_DIR [--set run.iterations=400 ...]
    python -m blackangel_env.training.rllib_train --config configs/train/rllib_3p.yaml --set ray.address=auto \\
        --set env_runners.num_env_runners=64            # on a Ray cluster (``ray start`` on every node first)

Every key is in ``RLLIB_SCHEMA`` and listed in ``configs/train/rllib_3p.yaml``; ``--set a.b=value`` overrides
one (``blackangel_env/training/config.py``: typed, checked, unknown keys refused).

* Environment: ``blackangel_env.env(num_players=..., reward=...)`` (the AEC environment with PettingZoo's
  wrappers) behind RLlib's ``PettingZooEnv``; ``multi_agent.policies: shared`` maps every seat to one policy
  (parameter-sharing self-play), ``per_seat`` gives each seat its own.
* Model: ``blackangel_env.training.rllib_module.MaskedPPOTorchRLModule``, RLlib's default PPO module (``model.*``) on
  the observation vector, with the observation's ``action_mask`` applied to the logits.
* RLlib's new API stack (``EnvRunner`` / ``Learner``); ``env_runners.*`` and ``learners.*`` size the sampling
  and learning actors: ``num_env_runners: 0`` samples in the driver (a laptop, the tests).
* Every ``run.checkpoint_freq`` iterations and at the end: ``checkpoints/iter_<n>/`` (``Algorithm.save_to_path``:
  weights, optimizer state, connector state, counters) and ``iter_<n>.json`` (iteration, env steps, seconds,
  last evaluation); ``--resume RUN_DIR`` rebuilds the algorithm from the run's config.yaml (plus ``--set``) and
  restores the latest one.  ``progress.csv``: one row per iteration (env steps, episode return and length,
  losses, entropy, KL, throughput).
* Every ``eval.freq`` iterations (and at the end): the policy (greedy) at ``env.num_players``-player tables
  against each code of ``eval.opponents`` (``blackangel_env.training.selfplay.evaluate_tables``: the learner's seat
  rotated, the same seeded deals every time) into ``evaluations.csv``; the best (mean win rate, then margin) module goes
  to ``best_module/``.  With ``per_seat`` policies the evaluated module is the first one (``player_0``'s), played
  in whichever seat the rotation gives it (``module`` in ``best.json`` and each ``last_eval`` names it); the
  other seats' modules are in the checkpoints (``RLlibAgent(path, module_id="player_2")``).  ``RLlibAgent(path)``
  plays a checkpoint or module behind the agent interface.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from blackangel_env.actions import mask_array
from blackangel_env.extras import check_extra
from .checkpoints import old_module_names
from .config import (
    MAX_PROCESSES, MAX_THREADS, ConfigError, Key, agent_code_list, between, check_agent_code_list_required,
    check_model_seed, dump_config, run_dir_name, unflatten,
)
from .selfplay import append_csv, eval_row, evaluate_tables

__all__ = ["RLLIB_SCHEMA", "RLlibAgent", "build_config", "list_rllib_checkpoints", "main", "train"]

CHECKPOINTS = "checkpoints"
BEST_MODULE = "best_module"
PROGRESS_FIELDS = ["iteration", "env_steps", "agent_steps", "episodes", "episode_return_mean", "episode_len_mean",
                   "policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var", "iteration_seconds",
                   "env_steps_per_second"]
EVAL_FIELDS = ["iteration", "env_steps", "opponent", "players", "games", "wins", "win_rate", "ci95_low",
               "ci95_high", "mean_vp", "mean_margin", "truncated", "seconds"]


def _positive(v):
    return None if v > 0 else "must be > 0"


def _non_negative(v):
    return None if v >= 0 else "must be >= 0"


def _layers(v):
    return None if v and all(x > 0 for x in v) else "must list positive layer sizes"


RLLIB_SCHEMA: dict[str, Key] = {
    "run.dir": Key(str, "runs/rllib_{time}", "run directory; '{time}' is replaced by the start time",
                   check=run_dir_name),
    "run.seed": Key(int, 0, "seed of RLlib (model, sampling, environments)", check=check_model_seed),
    "run.iterations": Key(int, 200, "training iterations (each samples about "
                          "ppo.train_batch_size_per_learner env steps per learner and trains on them)",
                          check=_positive),
    "run.torch_threads": Key(int, 1, "torch.set_num_threads in the driver (its local learner and env runner); "
                             "0 = torch's default", check=between(0, MAX_THREADS)),
    "run.checkpoint_freq": Key(int, 10, "save a checkpoint every this many iterations (and at the end)",
                               check=_positive),
    "run.checkpoint_keep": Key(int, 3, "checkpoints kept, oldest deleted first (0 = keep all)",
                               check=_non_negative),
    "ray.address": Key(str, None, "Ray cluster to join (auto, or ray://host:10001); null = start a local Ray",
                       nullable=True),
    "ray.num_cpus": Key(int, None, "CPUs of a local Ray (null = all)", nullable=True, check=_positive),
    "env.num_players": Key(int, 3, "players at the table (all of them learning agents)", choices=(2, 3, 4)),
    "env.advanced": Key(bool, False, "the rulebook's advanced rules"),
    "env.reward": Key(str, "margin", "reward scheme of the PettingZoo environment",
                      choices=("win", "margin", "dense_margin", "vp")),
    "env.reward_scale": Key(float, None, "reward scale (null = the environment's default for the scheme)",
                            nullable=True, check=_positive),
    "env.max_steps": Key(int, 4000, "decisions (all seats) after which a game is truncated (null = never)",
                         nullable=True, check=_positive),
    "multi_agent.policies": Key(str, "shared", "shared = one policy for every seat (self-play by parameter "
                                "sharing); per_seat = one policy per seat", choices=("shared", "per_seat")),
    "env_runners.num_env_runners": Key(int, 0, "remote sampling actors (0 = sample in the driver)",
                                       check=between(0, MAX_PROCESSES)),
    "env_runners.num_envs_per_env_runner": Key(int, 1, "environments stepped together by each runner",
                                               check=_positive),
    "env_runners.rollout_fragment_length": Key(int, 256, "env steps per sample call of a runner", check=_positive),
    "env_runners.num_cpus_per_env_runner": Key(float, 1.0, "CPUs reserved for each runner", check=_positive),
    "learners.num_learners": Key(int, 0, "remote learner actors (0 = learn in the driver)", check=_non_negative),
    "learners.num_gpus_per_learner": Key(float, 0.0, "GPUs of each learner", check=_non_negative),
    "model.fcnet_hiddens": Key("int_list", [256, 256], "encoder layers (RLlib's default PPO module)",
                               check=_layers),
    "model.fcnet_activation": Key(str, "tanh", "encoder activation", choices=("tanh", "relu")),
    "model.head_fcnet_hiddens": Key("int_list", [256], "hidden layers of the policy and value heads",
                                    check=_layers),
    "model.vf_share_layers": Key(bool, False, "one encoder for the policy and the value function"),
    "ppo.lr": Key(float, 3e-4, "Adam learning rate", check=_positive),
    "ppo.gamma": Key(float, 0.995, "discount", check=lambda v: None if 0 < v <= 1 else "must lie in (0, 1]"),
    "ppo.lambda": Key(float, 0.95, "GAE lambda", check=lambda v: None if 0 <= v <= 1 else "must lie in [0, 1]"),
    "ppo.clip_param": Key(float, 0.2, "PPO clip range", check=_positive),
    "ppo.vf_clip_param": Key(float, 10.0, "value clip range", check=_positive),
    "ppo.vf_loss_coeff": Key(float, 0.5, "value loss weight", check=_non_negative),
    "ppo.entropy_coeff": Key(float, 0.01, "entropy bonus", check=_non_negative),
    "ppo.use_kl_loss": Key(bool, False, "adaptive KL penalty besides the clipping"),
    "ppo.kl_coeff": Key(float, 0.2, "initial KL coefficient (use_kl_loss)", check=_non_negative),
    "ppo.grad_clip": Key(float, 0.5, "gradient norm clipping", check=_positive),
    "ppo.train_batch_size_per_learner": Key(int, 4000, "env steps per iteration and learner", check=_positive),
    "ppo.minibatch_size": Key(int, 256, "minibatch size", check=_positive),
    "ppo.num_epochs": Key(int, 4, "passes over each batch", check=_positive),
    "eval.freq": Key(int, 10, "evaluate every this many iterations (0 = only at the end, if eval.at_end)",
                     check=_non_negative),
    "eval.at_end": Key(bool, True, "evaluate after the last iteration"),
    "eval.n_games": Key(int, 50, "games per opponent code per evaluation", check=_positive),
    "eval.seed": Key(int, 1_000_000, "game i of every evaluation is seeded eval.seed + i", check=_non_negative),
    "eval.opponents": Key(str, "random,greedy", "agent codes played against (that agent at every other seat)",
                          check=check_agent_code_list_required),
    "logging.progress_bar": Key(bool, True, "tqdm progress bar over the iterations"),
}


# -- checkpoints -------------------------------------------------------------------------------------------------

def list_rllib_checkpoints(run_dir: str | Path) -> list[tuple[int, Path]]:
    """(iteration, directory) of the run's complete checkpoints, oldest first."""
    d = Path(run_dir) / CHECKPOINTS
    if not d.is_dir():
        return []
    out = []
    for p in d.iterdir():
        if p.is_dir() and p.name.startswith("iter_") and p.name[5:].isdigit() and p.with_suffix(".json").is_file():
            out.append((int(p.name[5:]), p))
    return sorted(out)


def latest_rllib_checkpoint(run_dir: str | Path) -> Path | None:
    cks = list_rllib_checkpoints(run_dir)
    return cks[-1][1] if cks else None


def _module_dir(path: str | Path, module: str | None = None) -> Path:
    """An RLModule directory from an algorithm checkpoint, a run directory (its best module, else the latest
    checkpoint) or a module directory."""
    p = Path(path)
    if (p / BEST_MODULE).is_dir():
        p = p / BEST_MODULE
    elif (p / CHECKPOINTS).is_dir():
        latest = latest_rllib_checkpoint(p)
        if latest is None:
            raise FileNotFoundError(f"run directory {str(p)!r} holds no checkpoint")
        p = latest
    modules = p / "learner_group" / "learner" / "rl_module"
    if modules.is_dir():
        names = sorted(d.name for d in modules.iterdir() if d.is_dir())
        name = module or ("shared" if "shared" in names else names[0])
        p = modules / name
    if not (p / "module_state.pkl").is_file() and not any(p.glob("module_state*")):
        raise FileNotFoundError(f"{str(Path(path))!r} is not an RLlib checkpoint, RLModule or run directory")
    return p.resolve()                  # Ray refuses a relative path (read as a URI without a scheme)


class RLlibAgent:
    """A trained RLlib module (greedy on its masked logits) behind the agent interface ``act(observation,
    action_mask, state=None)``, and SB3's ``predict(obs, deterministic=..., action_masks=...)`` for batched
    evaluation.  ``path``: a run directory, an algorithm checkpoint or a module directory."""

    def __init__(self, path: str | Path | None = None, module=None, module_id: str | None = None):
        if module is None:
            from ray.rllib.core.rl_module.rl_module import RLModule
            self.path = _module_dir(path, module_id)
            with old_module_names("training.rllib_module"):     # a module saved before the package was renamed
                module = RLModule.from_checkpoint(self.path)
        else:
            self.path = path
        self.module = module

    def reset(self, seed: int | None = None) -> None:
        pass

    def logits(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        import torch
        from ray.rllib.core.columns import Columns
        batch = {Columns.OBS: {"observation": torch.as_tensor(np.asarray(obs, dtype=np.float32)),
                               "action_mask": torch.as_tensor(np.asarray(masks, dtype=np.float32))}}
        with torch.no_grad():
            return self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()

    def predict(self, obs, state=None, episode_start=None, deterministic=True, action_masks=None):
        obs = np.asarray(obs, dtype=np.float32).reshape(-1, np.shape(obs)[-1])
        masks = np.asarray(action_masks, dtype=bool).reshape(len(obs), -1)
        logits = np.where(masks, self.logits(obs, masks), -np.inf)
        return logits.argmax(axis=1), None

    def act(self, observation, action_mask, state=None) -> int:
        mask = mask_array(action_mask, type(self).__name__).astype(bool)
        if not mask.any():
            raise ValueError(f"{type(self).__name__}: the action mask allows no action")
        return int(self.predict(observation[None], action_masks=mask[None])[0][0])

    __call__ = act


# -- the algorithm -----------------------------------------------------------------------------------------------

def env_config(cfg: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments of ``blackangel_env.env``."""
    return {"num_players": cfg["env.num_players"], "advanced": cfg["env.advanced"], "reward": cfg["env.reward"],
            "reward_scale": cfg["env.reward_scale"], "max_steps": cfg["env.max_steps"]}


def _module_ids(cfg: dict[str, Any]) -> list[str]:
    if cfg["multi_agent.policies"] == "shared":
        return ["shared"]
    return [f"player_{i}" for i in range(cfg["env.num_players"])]


def _shared_policy(agent_id, episode=None, **kwargs):
    return "shared"


def _seat_policy(agent_id, episode=None, **kwargs):
    return agent_id


def build_config(cfg: dict[str, Any]):
    """The ``PPOConfig`` of a run config (the environment registered with Ray's registry)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    from .rllib_module import ENV_NAME, MaskedPPOTorchRLModule, make_env

    register_env(ENV_NAME, make_env)
    model = {"fcnet_hiddens": list(cfg["model.fcnet_hiddens"]), "fcnet_activation": cfg["model.fcnet_activation"],
             "head_fcnet_hiddens": list(cfg["model.head_fcnet_hiddens"]),
             "head_fcnet_activation": cfg["model.fcnet_activation"], "vf_share_layers": cfg["model.vf_share_layers"]}
    ids = _module_ids(cfg)
    specs = {m: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model) for m in ids}
    return (
        PPOConfig()
        # RLlib's environment check steps unmasked random actions, which PettingZoo's TerminateIllegalWrapper
        # reports as illegal moves: the adapter is checked by tests/test_rllib.py instead
        .environment(ENV_NAME, env_config=env_config(cfg), disable_env_checking=True)
        .env_runners(num_env_runners=cfg["env_runners.num_env_runners"],
                     num_envs_per_env_runner=cfg["env_runners.num_envs_per_env_runner"],
                     rollout_fragment_length=cfg["env_runners.rollout_fragment_length"],
                     num_cpus_per_env_runner=cfg["env_runners.num_cpus_per_env_runner"])
        .learners(num_learners=cfg["learners.num_learners"],
                  num_gpus_per_learner=cfg["learners.num_gpus_per_learner"])
        .multi_agent(policies=set(ids),
                     policy_mapping_fn=_shared_policy if ids == ["shared"] else _seat_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(lr=cfg["ppo.lr"], gamma=cfg["ppo.gamma"], lambda_=cfg["ppo.lambda"],
                  clip_param=cfg["ppo.clip_param"], vf_clip_param=cfg["ppo.vf_clip_param"],
                  vf_loss_coeff=cfg["ppo.vf_loss_coeff"], entropy_coeff=cfg["ppo.entropy_coeff"],
                  use_kl_loss=cfg["ppo.use_kl_loss"], kl_coeff=cfg["ppo.kl_coeff"], grad_clip=cfg["ppo.grad_clip"],
                  train_batch_size_per_learner=cfg["ppo.train_batch_size_per_learner"],
                  minibatch_size=cfg["ppo.minibatch_size"], num_epochs=cfg["ppo.num_epochs"])
        .debugging(seed=cfg["run.seed"])
    )


def _get(result: dict[str, Any], *path: str, default=None):
    node: Any = result
    for k in path:
        if not isinstance(node, dict) or k not in node:
            return default
        node = node[k]
    return node


def _progress_row(result: dict[str, Any], module: str) -> dict[str, Any]:
    er = result.get("env_runners", {})
    lm = _get(result, "learners", module, default={}) or {}
    seconds = float(result.get("time_this_iter_s", 0.0))
    sampled = _get(er, "num_env_steps_sampled", default=None)
    return {
        "iteration": int(result["training_iteration"]),
        "env_steps": int(result.get("num_env_steps_sampled_lifetime", er.get("num_env_steps_sampled_lifetime", 0))),
        "agent_steps": int(sum((er.get("num_agent_steps_sampled_lifetime") or {}).values())),
        "episodes": int(er.get("num_episodes_lifetime", 0)),
        "episode_return_mean": er.get("episode_return_mean", ""),
        "episode_len_mean": er.get("episode_len_mean", ""),
        "policy_loss": lm.get("policy_loss", ""), "vf_loss": lm.get("vf_loss", ""), "entropy": lm.get("entropy", ""),
        "mean_kl_loss": lm.get("mean_kl_loss", ""), "vf_explained_var": lm.get("vf_explained_var", ""),
        "iteration_seconds": seconds,
        "env_steps_per_second": (float(sampled) / seconds) if sampled and seconds > 0 else "",
    }


class RLlibTrainer:
    """One training segment of an RLlib run in ``run_dir`` (module docstring)."""

    def __init__(self, cfg: dict[str, Any], run_dir: Path, resume_from: Path | None):
        self.cfg, self.run_dir, self.resume_from = cfg, run_dir, resume_from
        self.module_id = _module_ids(cfg)[0]
        best = run_dir / "best.json"
        self.best = json.loads(best.read_text()) if resume_from and best.is_file() else None
        self.last_eval: dict[str, Any] | None = None
        self._eval_envs: list = []

    def save_checkpoint(self, algo, iteration: int, env_steps: int, seconds: float) -> Path:
        path = self.run_dir / CHECKPOINTS / f"iter_{iteration:06d}"
        if path.exists():
            shutil.rmtree(path)
        path.with_suffix(".json").unlink(missing_ok=True)
        algo.save_to_path(str(path))
        meta = {"iteration": iteration, "env_steps": env_steps, "segment_seconds": seconds,
                "time": time.strftime("%Y-%m-%dT%H:%M:%S"), "last_eval": self.last_eval,
                "config": unflatten(self.cfg)}
        path.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")     # written last: complete
        keep = self.cfg["run.checkpoint_keep"]
        if keep:
            for _, old in list_rllib_checkpoints(self.run_dir)[:-keep]:
                old.with_suffix(".json").unlink(missing_ok=True)
                shutil.rmtree(old, ignore_errors=True)
        return path

    def evaluate(self, algo, iteration: int, env_steps: int) -> dict[str, Any]:
        cfg = self.cfg
        module = algo.get_module(self.module_id)
        r = evaluate_tables(RLlibAgent(module=module), agent_code_list(cfg["eval.opponents"]), cfg["eval.n_games"],
                            num_players=cfg["env.num_players"], advanced=cfg["env.advanced"], seed=cfg["eval.seed"],
                            max_steps=None, envs=self._eval_envs)
        r.update(iteration=iteration, env_steps=env_steps, module=self.module_id)
        self.last_eval = r
        append_csv(self.run_dir / "evaluations.csv", EVAL_FIELDS,
                   [{"iteration": iteration, "env_steps": env_steps, "opponent": code, **eval_row(r, o)}
                    for code, o in r["opponents"].items()])
        if self.best is None or (r["mean_win_rate"], r["mean_margin"]) > (self.best["mean_win_rate"],
                                                                          self.best["mean_margin"]):
            tmp = self.run_dir / (BEST_MODULE + ".tmp")
            shutil.rmtree(tmp, ignore_errors=True)
            module.save_to_path(str(tmp))
            shutil.rmtree(self.run_dir / BEST_MODULE, ignore_errors=True)
            tmp.rename(self.run_dir / BEST_MODULE)
            self.best = {k: v for k, v in r.items() if k != "seconds"}
            (self.run_dir / "best.json").write_text(json.dumps(self.best, indent=2) + "\n")
        return r

    def run(self, progress=print) -> dict[str, Any]:
        import ray

        cfg = self.cfg
        start_iter = int(json.loads(self.resume_from.with_suffix(".json").read_text())["iteration"]) \
            if self.resume_from is not None else 0
        if start_iter >= cfg["run.iterations"]:
            progress(f"{self.run_dir}: already at iteration {start_iter} >= run.iterations {cfg['run.iterations']}; "
                     "nothing to do")
            return {"run_dir": str(self.run_dir), "iteration": start_iter, "iterations": 0, "seconds": 0.0}
        if cfg["run.torch_threads"]:
            import torch
            torch.set_num_threads(cfg["run.torch_threads"])
        started_ray = False
        if not ray.is_initialized():
            if cfg["ray.address"]:                      # an existing cluster brings its own resources
                ray.init(address=cfg["ray.address"])
            else:
                ray.init(num_cpus=cfg["ray.num_cpus"], include_dashboard=False)
            started_ray = True
        algo = None
        try:
            algo = build_config(cfg).build_algo()
            if self.resume_from is not None:
                with old_module_names("training.rllib_module"):  # a run saved before the package was renamed
                    algo.restore_from_path(str(self.resume_from))
            total = cfg["run.iterations"]
            progress(f"{self.run_dir}: {'resuming at' if self.resume_from else 'starting at'} iteration {start_iter},"
                     f" training to {total} (RLlib PPO, {cfg['env.num_players']} players, policies "
                     f"{cfg['multi_agent.policies']}, {cfg['env_runners.num_env_runners']} env runners, Ray "
                     f"{cfg['ray.address'] or 'local'})")
            t0 = time.perf_counter()
            it, env_steps, start_steps = start_iter, None, None
            last_ckpt = last_eval = start_iter
            bar = None
            if cfg["logging.progress_bar"]:
                from tqdm import tqdm
                bar = tqdm(total=total - start_iter, desc="iterations", unit="it", file=sys.stderr)
            try:
                while it < total:
                    result = algo.train()
                    it = start_iter + int(result["iterations_since_restore"])
                    row = _progress_row(result, self.module_id)
                    row["iteration"] = it
                    env_steps = row["env_steps"]
                    if start_steps is None:
                        start_steps = env_steps - int(_get(result, "env_runners", "num_env_steps_sampled",
                                                           default=0) or 0)
                    append_csv(self.run_dir / "progress.csv", PROGRESS_FIELDS, [row])
                    if bar is not None:
                        bar.update()
                        bar.set_postfix(env_steps=env_steps, ret=row["episode_return_mean"])
                    if cfg["eval.freq"] and it // cfg["eval.freq"] > last_eval // cfg["eval.freq"]:
                        self._report(self.evaluate(algo, it, env_steps), progress)
                        last_eval = it
                    if it // cfg["run.checkpoint_freq"] > last_ckpt // cfg["run.checkpoint_freq"]:
                        self.save_checkpoint(algo, it, env_steps, time.perf_counter() - t0)
                        last_ckpt = it
            except KeyboardInterrupt:
                if it > start_iter:
                    path = self.save_checkpoint(algo, it, env_steps, time.perf_counter() - t0)
                    progress(f"interrupted at iteration {it}: saved {path}; continue with python -m "
                             f"blackangel_env.training.rllib_train --resume {self.run_dir}")
                raise
            finally:
                if bar is not None:
                    bar.close()
            seconds = time.perf_counter() - t0
            if cfg["eval.at_end"] and last_eval != it:
                self._report(self.evaluate(algo, it, env_steps), progress)
            if last_ckpt != it:
                self.save_checkpoint(algo, it, env_steps, seconds)
            steps = env_steps - (start_steps or 0)
            summary = {"run_dir": str(self.run_dir), "iteration": it, "iterations": it - start_iter,
                       "env_steps": env_steps, "seconds": seconds, "env_steps_per_second": steps / max(seconds, 1e-9),
                       "last_eval": self.last_eval, "best": self.best,
                       "latest_checkpoint": str(latest_rllib_checkpoint(self.run_dir))}
            progress(f"done: iteration {it}, {env_steps} env steps, {summary['env_steps_per_second']:.0f} env "
                     "steps/s over this segment")
            return summary
        finally:
            if algo is not None:
                algo.stop()
            if started_ray:
                ray.shutdown()

    @staticmethod
    def _report(r: dict[str, Any], progress) -> None:
        progress(f"iteration {r['iteration']}: " + ", ".join(
            f"vs {c} {100 * o['win_rate']:.1f}% (margin {o['mean_margin']:+.2f})" for c, o in r["opponents"].items()))


# -- entry points ------------------------------------------------------------------------------------------------

def train(config: str | Path | None = None, overrides: list[str] = (), resume: str | Path | None = None,
          progress=print) -> dict[str, Any]:
    """The script as a function: a summary dict (iteration, env steps, throughput, evaluations...)."""
    check_extra("rllib", "blackangel_env.training.rllib_train.train")
    from .train_ppo import prepare_run
    args = argparse.Namespace(config=config, set=list(overrides), resume=resume)
    cfg, run_dir, ckpt = prepare_run(args, schema=RLLIB_SCHEMA, latest=latest_rllib_checkpoint,
                                  fixed=("model.", "multi_agent.", "env.num_players"))
    if cfg["ppo.minibatch_size"] > cfg["ppo.train_batch_size_per_learner"]:
        raise ConfigError(f"config key 'ppo.minibatch_size' ({cfg['ppo.minibatch_size']}) must not exceed "
                          f"ppo.train_batch_size_per_learner ({cfg['ppo.train_batch_size_per_learner']})")
    try:
        import ray  # noqa: F401
        from ray import rllib  # noqa: F401
    except ImportError as e:
        raise ConfigError(f"RLlib is not installed ({e}); pip install -c ci/constraints-cpu.txt -e \".[rllib]\"") \
            from None
    run_dir.mkdir(parents=True, exist_ok=True)
    dump_config(cfg, run_dir / "config.yaml")
    # Ray reads a path without a scheme as a URI and refuses a relative one: it gets absolute paths
    return RLlibTrainer(cfg, run_dir.resolve(), None if ckpt is None else Path(ckpt).resolve()).run(progress=progress)


def main(argv: list[str] | None = None) -> int:
    from .train_ppo import run_training, training_parser
    ap = training_parser("blackangel_env.training.rllib_train", __doc__, "configs/train/rllib_3p.yaml",
                         "env_runners.num_env_runners=8")
    return run_training(train, ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
