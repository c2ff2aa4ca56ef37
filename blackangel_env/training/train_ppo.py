"""Train MaskablePPO (sb3-contrib) on the solo game against Hal.

    python -m blackangel_env.training.train_ppo --config configs/train/ppo_solo.yaml [--set key=value ...]
    python -m blackangel_env.training.train_ppo --resume RUN_DIR [--set run.total_timesteps=2000000 ...]

Every hyperparameter is a key of the YAML config (``blackangel_env/training/config.py`` declares them; ``configs/train/
ppo_solo.yaml`` lists them all); ``--set a.b=value`` overrides one (the value is parsed as YAML).  A bad key or
value stops the script before anything is written, with a message naming the key.

What a run does:

* ``vec_env.n_envs`` copies of ``BlackAngelSolo-v0`` (``env.*`` options) in a SubprocVecEnv (fork) or a
  DummyVecEnv; environment i of a segment is seeded ``segment_seed + i`` (``segment_seed`` = ``run.seed`` for the
  first segment, a value derived from it and the step count for each resumed one, so a resumed run plays new
  deals); the learner's legal-action masks come from ``action_masks()``.
* MaskablePPO with ``policy.type: mlp`` (SB3's MlpPolicy, ``policy.net_arch_pi/vf``) or ``entity``
  (``blackangel_env.training.policies.EntityExtractor`` and the same heads).
* Every ``eval.freq`` steps (after a PPO update): ``eval.n_games`` seeded games against Hal with masks
  (``blackangel_env.training.evaluate.evaluate_model``); win rate, its Wilson CI, VP and margin go to the logs and to
  ``evaluations.csv``, and the best model so far (win rate, then margin) to ``best_model.zip``.
* Every ``checkpoint.freq`` steps and at the end: ``checkpoints/step_<n>.zip`` (weights, optimizer state and
  step count), a ``.json`` (steps, seeds, config, last evaluation) and a ``.rng`` (generator states).  Ctrl-C /
  SIGTERM saves a checkpoint before stopping.  ``--resume RUN_DIR`` reloads the run's config.yaml (plus any
  ``--set``) and continues from the latest checkpoint with the same step count, up to ``run.total_timesteps``.
* ``pretrain.agent`` set (a fresh run only): before PPO, the policy clones that agent's games
  (``blackangel_env/training/imitation.py``), the clone is evaluated and saved as the step-0 checkpoint, ``pretrain/*``
  logged; ``--resume`` of a run stopped before that checkpoint pretrains again from the dataset cached in the run.
* Logs per segment in ``logs/from_<step>/``: SB3's ``progress.csv``, plus TensorBoard event files when the
  ``tensorboard`` package is importable (``logging.tensorboard``).  ``rollout/win_rate`` and
  ``rollout/margin`` are the training games' results over the last 100 games.

Run directory layout: ``blackangel_env/training/checkpoints.py``.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import pickle
import random
import signal
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from blackangel_env.arguments import path_problem
from blackangel_env.extras import check_extra

from .checkpoints import BEST_MODEL, checkpoint_path, latest_checkpoint, list_checkpoints, load_maskable_ppo, read_meta
from .config import PPO_SCHEMA, ConfigError, dump_config, load_config, unflatten
from .envs import EnvFactory, env_kwargs, make_env, make_vec_env, shaping_kwargs
from .ppo_settings import policy_spec, ppo_kwargs

__all__ = ["EnvFactory", "Trainer", "env_kwargs", "main", "make_env", "make_vec_env", "policy_spec", "ppo_kwargs",
           "prepare_run", "run_training", "shaping_kwargs", "train", "training_parser", "use_tensorboard"]

EVAL_FIELDS = ["step", "games", "wins", "win_rate", "ci95_low", "ci95_high", "mean_vp", "mean_hal_vp",
               "mean_margin", "truncated", "seconds"]


# -- building blocks ---------------------------------------------------------------------------------------------

def use_tensorboard(cfg: dict[str, Any]) -> bool:
    available = importlib.util.find_spec("tensorboard") is not None
    mode = cfg["logging.tensorboard"]
    if mode == "true" and not available:
        raise ConfigError("config key 'logging.tensorboard' is true but the tensorboard package is not "
                          "installed (pip install tensorboard, or set it to auto / false)")
    return mode == "true" or (mode == "auto" and available)


def _rng_state() -> dict[str, Any]:
    import torch
    return {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}


def _set_rng_state(st: dict[str, Any]) -> None:
    import torch
    random.setstate(st["python"])
    np.random.set_state(st["numpy"])
    torch.set_rng_state(st["torch"])


def _segment_seed(seed: int, step: int) -> int:
    if step == 0:
        return seed
    return int(np.random.SeedSequence([seed, step]).generate_state(1)[0] % (2**31 - 1))


# -- the run -----------------------------------------------------------------------------------------------------

class Trainer:
    """One training segment (a fresh run or a resumed one) in ``run_dir``.

    Hooks for subclasses (``blackangel_env.training.selfplay.SelfPlayTrainer``): ``make_vec_env``, ``game_result``,
    ``on_rollout_start``, ``evaluate`` and ``script`` (the module named in the resume hint)."""

    script = "blackangel_env.training.train_ppo"

    def __init__(self, cfg: dict[str, Any], run_dir: Path, resume_from: Path | None):
        self.cfg = cfg
        self.run_dir = run_dir
        self.resume_from = resume_from
        prev = read_meta(resume_from) if resume_from else {}
        self.segment = int(prev.get("segment", -1)) + 1
        self.best: dict[str, Any] | None = None
        best_json = run_dir / "best.json"
        if resume_from and best_json.is_file() and (run_dir / BEST_MODEL).is_file():
            self.best = json.loads(best_json.read_text())
        self.last_eval: dict[str, Any] | None = prev.get("last_eval")

    # -- hooks -----------------------------------------------------------------------------------------------
    def make_vec_env(self, seed: int):
        """The training environments, environment i seeded ``seed + i``."""
        return make_vec_env(self.cfg, seed)

    def game_result(self, info: dict[str, Any]) -> tuple[bool, float] | None:
        """(won, margin) of the learner from a finished game's ``info`` (None if it holds no result)."""
        if not info.get("game_over"):
            return None
        hal = info["hal_score"] if info["hal_score"] >= 0 else 0      # -1: no Hal
        return bool(info["winners"][0]), int(info["scores"][0]) - int(hal)

    def on_rollout_start(self, model) -> None:
        """Called before every rollout (after the evaluation and checkpoint due at that step)."""

    def pretrain(self, model) -> None:
        """Behaviour cloning before PPO on a fresh run when ``pretrain.agent`` is set
        (``blackangel_env/training/imitation.py``): the cloned policy is evaluated (``pretrain.evaluate``), logged at
        step 0 and checkpointed, so a resumed run never clones again."""
        from .imitation import pretrain

        pretrain(model, self.cfg, self.run_dir, progress=self.progress)
        if self.cfg["pretrain.evaluate"]:
            self.evaluate(model)
        n = int(model.num_timesteps)
        model.logger.record("time/total_timesteps", n)
        model.logger.dump(n)
        self.save_checkpoint(model, "pretrained")
        self.t0 = time.perf_counter()                  # the segment's steps/s are PPO's (pretrain/* has its times)

    # -- checkpoints -----------------------------------------------------------------------------------------
    def save_checkpoint(self, model, reason: str) -> Path:
        n = int(model.num_timesteps)
        path = checkpoint_path(self.run_dir, n)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {
            "num_timesteps": n, "total_timesteps": self.cfg["run.total_timesteps"], "reason": reason,
            "segment": self.segment, "seed": self.cfg["run.seed"], "segment_seed": self.segment_seed,
            "env_seeds": [self.segment_seed + i for i in range(self.cfg["vec_env.n_envs"])],
            "eval_seeds": [self.cfg["eval.seed"], self.cfg["eval.seed"] + self.cfg["eval.n_games"] - 1],
            "time": time.strftime("%Y-%m-%dT%H:%M:%S"), "segment_seconds": time.perf_counter() - self.t0,
            "last_eval": self.last_eval, "config": unflatten(self.cfg),
        }
        with open(path.with_suffix(".rng"), "wb") as f:
            pickle.dump(_rng_state(), f)
        path.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
        tmp = path.with_name(path.stem + ".tmp.zip")
        model.save(str(tmp))
        os.replace(tmp, path)              # the .zip appears last: a listed checkpoint is complete
        keep = self.cfg["checkpoint.keep"]
        if keep:
            for _, old in list_checkpoints(self.run_dir)[:-keep]:
                for suffix in (".zip", ".json", ".rng"):
                    old.with_suffix(suffix).unlink(missing_ok=True)
        self.last_ckpt_step = n
        return path

    # -- evaluation ------------------------------------------------------------------------------------------
    def evaluate(self, model) -> dict[str, Any]:
        from .evaluate import evaluate_model

        cfg = self.cfg
        n = int(model.num_timesteps)
        r = evaluate_model(model, cfg["eval.n_games"], hal_difficulty=cfg["env.hal_difficulty"],
                           advanced=cfg["env.advanced"], seed=cfg["eval.seed"],
                           deterministic=cfg["eval.deterministic"], max_steps=cfg["env.max_steps"])
        r["step"] = n
        self.last_eval = r
        self.last_eval_step = n
        log = model.logger
        for k in ("win_rate", "mean_vp", "mean_hal_vp", "mean_margin"):
            log.record(f"eval/{k}", r[k])
        log.record("eval/win_rate_ci95_low", r["ci95"][0])
        log.record("eval/win_rate_ci95_high", r["ci95"][1])
        path = self.run_dir / "evaluations.csv"
        new = not path.is_file()
        with open(path, "a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(EVAL_FIELDS)
            w.writerow([n, r["games"], r["wins"], f"{r['win_rate']:.4f}", f"{r['ci95'][0]:.4f}",
                        f"{r['ci95'][1]:.4f}", f"{r['mean_vp']:.3f}", f"{r['mean_hal_vp']:.3f}",
                        f"{r['mean_margin']:.3f}", r["truncated"], f"{r['seconds']:.2f}"])
        key = (r["win_rate"], r["mean_margin"])
        if self.best is None or key > (self.best["win_rate"], self.best["mean_margin"]):
            tmp = self.run_dir / "best_model.tmp.zip"
            model.save(str(tmp))
            os.replace(tmp, self.run_dir / BEST_MODEL)
            self.best = {k: r[k] for k in ("step", "games", "wins", "win_rate", "ci95", "mean_vp", "mean_hal_vp",
                                            "mean_margin", "hal_difficulty", "advanced", "seed")}
            (self.run_dir / "best.json").write_text(json.dumps(self.best, indent=2) + "\n")
        if self.progress is not None:
            self.progress(f"step {n}: win rate {100 * r['win_rate']:.1f}% (95% CI {100 * r['ci95'][0]:.1f}-"
                          f"{100 * r['ci95'][1]:.1f}%), margin {r['mean_margin']:+.2f}")
        return r

    # -- main loop -------------------------------------------------------------------------------------------
    def run(self, progress=print) -> dict[str, Any]:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
        from stable_baselines3.common.logger import configure

        cfg = self.cfg
        self.progress = progress
        if cfg["run.torch_threads"]:
            torch.set_num_threads(cfg["run.torch_threads"])
        use_tb = use_tensorboard(cfg)
        start_step = int(read_meta(self.resume_from)["num_timesteps"]) if self.resume_from else 0
        self.segment_seed = _segment_seed(cfg["run.seed"], start_step)
        venv = self.make_vec_env(self.segment_seed)      # before torch works: forked workers stay clean
        try:
            if self.resume_from is None:
                policy, policy_kwargs = policy_spec(cfg)
                model = MaskablePPO(policy, venv, policy_kwargs=policy_kwargs, seed=cfg["run.seed"],
                                    device=cfg["run.device"], verbose=0, **ppo_kwargs(cfg))
            else:
                # the environment's observation space replaces the checkpoint's: a checkpoint saved before the
                # observation bounds were tightened holds the same shape with other bounds, which SB3 refuses
                model = load_maskable_ppo(self.resume_from, env=venv, device=cfg["run.device"],
                                          custom_objects={"observation_space": venv.observation_space},
                                          **ppo_kwargs(cfg))
                rng_file = self.resume_from.with_suffix(".rng")
                if rng_file.is_file():
                    with open(rng_file, "rb") as f:
                        _set_rng_state(pickle.load(f))
                venv.seed(self.segment_seed)
            start_step = int(model.num_timesteps)
            formats = ["csv"] + (["tensorboard"] if use_tb else []) + (["stdout"] if cfg["logging.stdout"] else [])
            log_dir = self.run_dir / "logs" / f"from_{start_step:09d}"
            model.set_logger(configure(str(log_dir), formats))
            remaining = cfg["run.total_timesteps"] - start_step
            self.t0 = time.perf_counter()
            self.last_ckpt_step = self.last_eval_step = start_step
            if remaining <= 0:
                progress(f"{self.run_dir}: already at step {start_step} >= run.total_timesteps "
                         f"{cfg['run.total_timesteps']}; nothing to do")
                return {"num_timesteps": start_step, "steps": 0, "seconds": 0.0, "run_dir": str(self.run_dir)}
            if self.resume_from is None and cfg.get("pretrain.agent"):
                self.pretrain(model)
            trainer = self

            class _Callback(BaseCallback):
                def _on_training_start(self) -> None:
                    self.games: deque = deque(maxlen=100)

                def _on_rollout_start(self) -> None:        # right after a PPO update (or at the start)
                    n = self.model.num_timesteps
                    ef, cf = cfg["eval.freq"], cfg["checkpoint.freq"]
                    if ef and n // ef > trainer.last_eval_step // ef:
                        trainer.evaluate(self.model)
                    if n // cf > trainer.last_ckpt_step // cf:
                        trainer.save_checkpoint(self.model, "periodic")
                    trainer.on_rollout_start(self.model)

                def _on_step(self) -> bool:
                    for info, done in zip(self.locals["infos"], self.locals["dones"]):
                        result = trainer.game_result(info) if done else None
                        if result is not None:
                            self.games.append(result)
                    return True

                def _on_rollout_end(self) -> None:
                    if self.games:
                        g = np.array(self.games, dtype=float)
                        self.logger.record("rollout/win_rate", float(g[:, 0].mean()))
                        self.logger.record("rollout/margin", float(g[:, 1].mean()))

            def _sigterm(signum, frame):
                raise KeyboardInterrupt

            old = signal.signal(signal.SIGTERM, _sigterm)
            rollout = cfg["ppo.n_steps"] * cfg["vec_env.n_envs"]
            end = start_step + -(-remaining // rollout) * rollout        # PPO trains whole rollouts
            rounded = "" if end == cfg["run.total_timesteps"] else (
                f" (in whole rollouts of ppo.n_steps * vec_env.n_envs = {rollout} decisions: it stops at {end})")
            progress(f"{self.run_dir}: {'resuming at' if self.resume_from else 'starting at'} step {start_step}, "
                     f"training to {cfg['run.total_timesteps']}{rounded} ({cfg['policy.type']} policy, "
                     f"{cfg['vec_env.n_envs']} {cfg['vec_env.type']} envs, logs: csv"
                     f"{' + tensorboard' if use_tb else ''} in {log_dir})")
            try:
                model.learn(remaining, callback=_Callback(), log_interval=cfg["logging.log_interval"],
                            reset_num_timesteps=False, progress_bar=cfg["logging.progress_bar"])
            except KeyboardInterrupt:
                path = self.save_checkpoint(model, "interrupted")
                progress(f"interrupted at step {model.num_timesteps}: saved {path}; continue with "
                         f"python -m {self.script} --resume {self.run_dir}")
                raise
            finally:
                signal.signal(signal.SIGTERM, old)
            seconds = time.perf_counter() - self.t0
            n = int(model.num_timesteps)
            if cfg["eval.at_end"] and self.last_eval_step != n:
                self.evaluate(model)
                model.logger.record("time/total_timesteps", n)
                model.logger.dump(n)
            if self.last_ckpt_step != n:
                self.save_checkpoint(model, "final")
            summary = {"run_dir": str(self.run_dir), "num_timesteps": n, "steps": n - start_step,
                       "seconds": seconds, "steps_per_second": (n - start_step) / max(seconds, 1e-9),
                       "last_eval": self.last_eval, "best": self.best,
                       "latest_checkpoint": str(latest_checkpoint(self.run_dir))}
            progress(f"done: step {n}, {summary['steps_per_second']:.0f} steps/s over this segment; best "
                     f"{self.run_dir / BEST_MODEL if self.best else '(no evaluation)'}")
            return summary
        finally:
            try:
                venv.close()
            except Exception:                          # workers already gone after Ctrl-C
                pass


def prepare_run(args, schema=PPO_SCHEMA, latest=latest_checkpoint, fixed=("policy.",)
             ) -> tuple[dict[str, Any], Path, Path | None]:
    """(config, run dir, checkpoint to resume from or None); ``latest(run_dir)`` finds the checkpoint, keys
    starting with a prefix of ``fixed`` cannot change on resume (blackangel_env/training/selfplay.py,
    rllib_train.py)."""
    if args.resume:
        problem = path_problem(args.resume)
        if problem:
            raise ConfigError(f"--resume {str(args.resume)!r}: {problem}")
        run_dir = Path(args.resume)
        if not (run_dir / "config.yaml").is_file():
            raise ConfigError(f"--resume {str(run_dir)!r}: not a run directory (no config.yaml)")
        saved = load_config(run_dir / "config.yaml", schema=schema)
        if args.config:
            raise ConfigError("--resume uses the run's own config.yaml; change keys with --set instead of --config")
        cfg = load_config(run_dir / "config.yaml", args.set, schema=schema)
        changed = [k for k in cfg if cfg[k] != saved[k] and (k.startswith(tuple(fixed)) or k == "run.dir")]
        if changed:
            raise ConfigError(f"config key {changed[0]!r} cannot change when resuming (the network is fixed)")
        cfg["run.dir"] = str(run_dir)
        ckpt = latest(run_dir)
        if ckpt is None and cfg.get("pretrain.agent"):   # stopped while pretraining: start again (the dataset
            return cfg, run_dir, None                    # cached in the run directory is reused)
        if ckpt is None:
            raise ConfigError(f"--resume {str(run_dir)!r}: the run has no checkpoint yet")
        return cfg, run_dir, ckpt
    if not args.config:
        raise ConfigError("give --config FILE (a new run) or --resume RUN_DIR")
    cfg = load_config(args.config, args.set, schema=schema)
    run_dir = Path(cfg["run.dir"].replace("{time}", time.strftime("%Y%m%d-%H%M%S")))
    problem = path_problem(run_dir / "config.yaml")      # the names of the run directory and of what it will hold
    if problem:
        raise ConfigError(f"config key 'run.dir': {str(run_dir)!r} cannot be a run directory: {problem}")
    first = next((p for p in (run_dir, *run_dir.parents) if p.exists()), None)
    if first is not None and not first.is_dir():
        raise ConfigError(f"config key 'run.dir': {str(run_dir)!r} cannot be a run directory: {str(first)!r} is a "
                          f"file")
    if (run_dir / "config.yaml").exists() or latest(run_dir) is not None:
        raise ConfigError(f"config key 'run.dir': {str(run_dir)!r} already holds a run; continue it with "
                          f"--resume {run_dir}, or choose another directory with --set run.dir=...")
    cfg["run.dir"] = str(run_dir)
    return cfg, run_dir, None


def check_pretrain_dataset(path: str, obs_size: int) -> None:
    """ConfigError naming ``pretrain.dataset`` unless ``path`` is a dataset (``imitation.check_dataset``: its arrays
    are not read) of observations of ``obs_size`` values, the environment's."""
    from .imitation import check_dataset
    try:
        meta = check_dataset(path)
    except ValueError as e:
        raise ConfigError(f"config key 'pretrain.dataset': {e}") from None
    if meta.get("obs_size") not in (None, obs_size):
        raise ConfigError(f"config key 'pretrain.dataset': {path} holds observations of {meta['obs_size']} values, "
                          f"the environment's have {obs_size}")


def train(config: str | Path | None = None, overrides: list[str] = (), resume: str | Path | None = None,
          progress=print) -> dict[str, Any]:
    """The script as a function: a summary dict (``num_timesteps``, ``steps_per_second``, evaluations...)."""
    check_extra("train", "blackangel_env.training.train_ppo.train")
    args = argparse.Namespace(config=config, set=list(overrides), resume=resume)
    cfg, run_dir, ckpt = prepare_run(args)
    # the environment options are checked by building one environment before anything is written
    try:
        probe = make_env(env_kwargs(cfg))
        obs_size = int(np.prod(probe.observation_space.shape))
        probe.close()
    except (ValueError, TypeError) as e:
        raise ConfigError(f"config section 'env': {e}") from None
    use_tensorboard(cfg)
    if cfg["pretrain.agent"] and cfg["pretrain.dataset"] and ckpt is None:
        check_pretrain_dataset(cfg["pretrain.dataset"], obs_size)
    run_dir.mkdir(parents=True, exist_ok=True)
    dump_config(cfg, run_dir / "config.yaml")
    return Trainer(cfg, run_dir, ckpt).run(progress=progress)


def training_parser(module: str, doc: str, example_config: str, example_set: str) -> argparse.ArgumentParser:
    """The command line of a training script: ``--config FILE``, ``--set KEY=VALUE`` (repeatable), ``--resume
    RUN_DIR`` (also used by blackangel_env/training/selfplay.py and blackangel_env/training/rllib_train.py)."""
    ap = argparse.ArgumentParser(prog=f"python -m {module}", description=doc.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", help=f"YAML training config (e.g. {example_config})")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help=f"override a config key, e.g. --set {example_set} (repeatable)")
    ap.add_argument("--resume", metavar="RUN_DIR", help="continue a run from its latest checkpoint")
    return ap


def run_training(train_fn, args: argparse.Namespace) -> int:
    """``train_fn(config, overrides, resume)`` with the exit codes of the scripts: 0, 2 for a config error
    (printed), 130 after Ctrl-C."""
    try:
        train_fn(args.config, args.set, args.resume)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = training_parser("blackangel_env.training.train_ppo", __doc__, "configs/train/ppo_solo.yaml", "ppo.n_steps=128")
    args = ap.parse_args(argv)
    from blackangel_env.extras import require_extra
    require_extra("train", "python -m blackangel_env.training.train_ppo")
    return run_training(train, args)


if __name__ == "__main__":
    sys.exit(main())
