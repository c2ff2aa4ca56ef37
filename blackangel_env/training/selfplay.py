"""Self-play MaskablePPO at a table of 2-4 players: the learner against frozen snapshots of itself and baselines.

    python -m blackangel_env.training.selfplay --config configs/train/selfplay_3p.yaml [--set key=value ...]
    python -m blackangel_env.training.selfplay --resume RUN_DIR [--set run.total_timesteps=4000000 ...]
    python -m blackangel_env.training.selfplay --evaluate RUN_DIR_or_model.zip --players 3 --opponents random,greedy \
        --games 100

The machinery is ``blackangel_env.training.train_ppo``'s (``Trainer``: vectorised environments, seeding, resumable
checkpoints with the optimizer state and step count, CSV / TensorBoard logs, progress bar, best model, Ctrl-C); this
module changes what the learner plays against and how it is evaluated.  Every key is in ``SELFPLAY_SCHEMA`` and listed
in ``configs/train/selfplay_3p.yaml``; ``--set a.b=value`` overrides one.

* Environments: ``vec_env.n_envs`` copies of ``blackangel_env.training.selfplay_env.SelfPlayEnv``: the learner holds one
  seat of ``BlackAngel-v0`` with ``env.num_players`` players (``env.seat``: a random seat per episode, or rotating), and
  every other seat is drawn per episode from the opponent pool (``selfplay.*``): the latest snapshot of the
  learner (weight ``selfplay.w_latest``), a snapshot drawn uniformly from the pool (``selfplay.w_pool``), or a
  baseline agent code of ``selfplay.baselines`` (``selfplay.w_baselines``; repeat a code to weight it).
  ``selfplay.per_seat`` draws each seat on its own (else one draw for the whole table).
* Snapshots: every ``selfplay.snapshot_freq`` steps (and at the start of a fresh run) the learner is saved to
  ``pool/step_<n>.zip`` (a MaskablePPO zip: also an agent, ``policy:<path>``); the pool is the
  ``selfplay.pool_size`` most recent.  Their paths reach the environments through ``env_method("set_pool")``, so
  SubprocVecEnv workers load them lazily, on the CPU, when an episode first seats one.  A resumed run rebuilds
  the pool from the files up to its checkpoint's step.
* Evaluation every ``eval.freq`` steps: ``eval.n_games`` games against each code of ``eval.opponents`` (that agent
  at every other seat), the learner's seat rotating with the game index, game i seeded ``eval.seed + i`` (the
  same deals at every evaluation and for every opponent).  Win rate (ties shared: a tied winner wins) with its
  Wilson 95% interval, mean VP and mean margin (own VP - best other VP) per opponent go to the logs
  (``eval/<code>/...``) and to ``evaluations.csv`` (one row per opponent); the best model (mean win rate over
  the opponents, then mean margin) to ``best_model.zip``.
* Training games: ``rollout/win_rate`` and ``rollout/margin`` over the last 100 (against the sampled pool), and
  ``selfplay/snapshot_seats``: the share of opponent seats that snapshots played in them.

Run directory: ``blackangel_env/training/checkpoints.py``'s layout plus ``pool/``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
import time
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from blackangel_env.agents.arena import in_worker, limit_threads, play_batched, safe_start_method, win_stats
from blackangel_env.arguments import output_problem, path_problem, positive_int, seed as seed_arg
from blackangel_env.extras import check_extra

from .checkpoints import BEST_MODEL, ModelLoadError, read_meta
from .config import (PPO_SCHEMA, ConfigError, Key, agent_code_list, check_agent_code_list,
                     check_agent_code_list_required, dump_config, load_config)
from .selfplay_env import SEAT_MODES, SNAPSHOT, SelfPlayEnv, learner_result
from .envs import shaping_kwargs
from .train_ppo import Trainer, prepare_run, run_training, training_parser, use_tensorboard

__all__ = ["SELFPLAY_SCHEMA", "SelfPlayTrainer", "append_csv", "eval_row", "evaluate_tables", "format_tables",
           "list_snapshots", "main", "train"]

POOL_DIR = "pool"
_SNAP = re.compile(r"^step_(\d+)\.zip$")
EVAL_FIELDS = ["step", "opponent", "players", "games", "wins", "win_rate", "ci95_low", "ci95_high", "mean_vp",
               "mean_margin", "truncated", "seconds"]


def _weight(v):
    return None if v >= 0 else "must be >= 0"


def _schema() -> dict[str, Key]:
    ppo = PPO_SCHEMA
    out: dict[str, Key] = {k: v for k, v in ppo.items() if k.startswith("run.")}
    out["run.dir"] = replace(ppo["run.dir"], default="runs/selfplay_{time}")
    out["env.num_players"] = Key(int, 3, "players at the table (the learner and num_players - 1 opponents)",
                                 choices=(2, 3, 4))
    out["env.seat"] = Key(str, "random", "the learner's seat: random per episode, or rotate (episode k of "
                          "environment i sits at (i + k) mod num_players)", choices=SEAT_MODES)
    out.update({k: v for k, v in ppo.items() if k.startswith("env.") and k != "env.hal_difficulty"})
    out.update({
        "selfplay.snapshot_freq": Key(int, 50_000, "add a snapshot of the learner to the pool every this many "
                                      "steps", check=lambda v: None if v > 0 else "must be > 0"),
        "selfplay.snapshot_at_start": Key(bool, True, "a fresh run snapshots its initial network at step 0"),
        "selfplay.pool_size": Key(int, 10, "the most recent snapshots the pool holds",
                                  check=lambda v: None if v > 0 else "must be > 0"),
        "selfplay.w_latest": Key(float, 0.5, "weight of the latest snapshot for an opponent seat", check=_weight),
        "selfplay.w_pool": Key(float, 0.3, "weight of a snapshot drawn uniformly from the pool", check=_weight),
        "selfplay.w_baselines": Key(float, 0.2, "weight of a baseline agent (uniform over selfplay.baselines)",
                                    check=_weight),
        "selfplay.baselines": Key(str, "random,greedy", "baseline agent codes, comma-separated (agents."
                                  "make_agent: random, greedy, heuristic, mcts:<n>, policy:<path>)",
                                  check=check_agent_code_list),
        "selfplay.per_seat": Key(bool, True, "draw every opponent seat on its own (false: one draw per table)"),
        "selfplay.deterministic": Key(bool, False, "snapshots play their greedy action (false: they sample)"),
    })
    out.update({k: v for k, v in ppo.items() if k.startswith(("vec_env.", "policy.", "ppo."))})
    out.update({k: v for k, v in ppo.items() if k.startswith("eval.")})
    out["eval.n_games"] = replace(ppo["eval.n_games"], default=50, help="games per opponent code per evaluation")
    out["eval.opponents"] = Key(str, "random,greedy", "agent codes to evaluate against (that agent at every "
                                "other seat), comma-separated", check=check_agent_code_list_required)
    out.update({k: v for k, v in ppo.items() if k.startswith(("checkpoint.", "logging."))})
    return out


SELFPLAY_SCHEMA: dict[str, Key] = _schema()


def env_kwargs(cfg: dict[str, Any], index: int = 0, snapshots: list[str] = ()) -> dict[str, Any]:
    """Keyword arguments of ``SelfPlayEnv`` from the ``env.*`` and ``selfplay.*`` keys."""
    return {
        "num_players": cfg["env.num_players"], "seat": cfg["env.seat"], "index": index,
        "pool": {"baselines": agent_code_list(cfg["selfplay.baselines"]), "w_latest": cfg["selfplay.w_latest"],
                 "w_pool": cfg["selfplay.w_pool"], "w_baselines": cfg["selfplay.w_baselines"],
                 "pool_size": cfg["selfplay.pool_size"], "snapshots": list(snapshots)},
        "per_seat": cfg["selfplay.per_seat"], "deterministic": cfg["selfplay.deterministic"],
        "advanced": cfg["env.advanced"], "reward": cfg["env.reward"], "reward_scale": cfg["env.reward_scale"],
        "illegal_reward": cfg["env.illegal_reward"], "max_steps": cfg["env.max_steps"],
    }


class _EnvFactory:
    """A Monitor-wrapped, reward-shaped ``SelfPlayEnv`` as a picklable callable; in a worker process
    (SubprocVecEnv) torch and BLAS get one thread (``blackangel_env.agents.arena.limit_threads``)."""

    def __init__(self, kwargs, shaping):
        self.kwargs, self.shaping = kwargs, shaping

    def __call__(self):
        from stable_baselines3.common.monitor import Monitor

        from .rewards import shaped
        if in_worker():
            limit_threads()
        return Monitor(shaped(SelfPlayEnv(**self.kwargs), **self.shaping))


def list_snapshots(run_dir: str | Path, up_to: int | None = None) -> list[tuple[int, Path]]:
    """(step, path) of the run's pool snapshots, oldest first (those at steps <= ``up_to``)."""
    d = Path(run_dir) / POOL_DIR
    out = []
    if d.is_dir():
        for p in d.iterdir():
            m = _SNAP.match(p.name)
            if m and (up_to is None or int(m.group(1)) <= up_to):
                out.append((int(m.group(1)), p))
    return sorted(out)


def append_csv(path: Path, fields: list[str], rows: list[dict[str, Any]]) -> None:
    """Append rows to a CSV file, writing the header first if the file is new."""
    new = not path.is_file()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fields)
        if new:
            w.writeheader()
        w.writerows(rows)


def eval_row(r: dict[str, Any], o: dict[str, Any]) -> dict[str, Any]:
    """The ``evaluations.csv`` columns of one opponent ``o`` of an ``evaluate_tables`` result ``r``."""
    return {"players": r["players"], "games": o["games"], "wins": o["wins"], "win_rate": round(o["win_rate"], 4),
            "ci95_low": round(o["ci95"][0], 4), "ci95_high": round(o["ci95"][1], 4),
            "mean_vp": round(o["mean_vp"], 3), "mean_margin": round(o["mean_margin"], 3),
            "truncated": o["truncated"], "seconds": round(r["seconds"], 2)}


# -- evaluation at a table ---------------------------------------------------------------------------------------

def evaluate_tables(model, opponents: list[str], n_games: int, num_players: int = 3, advanced: bool = False,
                    seed: int = 0, deterministic: bool = True, max_steps: int | None = 2000, batch: int = 16,
                    envs: list[SelfPlayEnv] | None = None) -> dict[str, Any]:
    """``n_games`` games of ``model`` against each agent code of ``opponents`` (that agent at every other seat),
    ``batch`` games at a time with one batched forward pass per step.  Game i: the learner at seat
    ``i mod num_players``, seeded ``seed + i``.  Returns per code the games, wins, win rate and its Wilson 95%
    interval, mean VP, mean margin (own VP - best other VP) and truncated games; ``envs`` reuses environments."""
    if n_games < 1:
        raise ValueError(f"n_games must be >= 1, got {n_games}")
    t0 = time.perf_counter()
    tasks = [(code, i) for code in opponents for i in range(n_games)]
    n_par = max(1, min(batch, len(tasks)))
    if envs is None:
        envs = []
    while len(envs) < n_par:
        envs.append(SelfPlayEnv(num_players=num_players, pool={"baselines": ["random"]}, advanced=advanced,
                                max_steps=max_steps))
    results: dict[str, list[tuple[bool, float, float, bool]]] = {c: [] for c in opponents}

    def reset(env: SelfPlayEnv, task: tuple[str, int]) -> np.ndarray:
        code, i = task
        return env.reset(seed=seed + i, options={"seat": i % num_players, "opponents": code})[0]

    def finish(env: SelfPlayEnv, task: tuple[str, int], term: bool, trunc: bool, info: dict) -> None:
        if term:
            won, margin = learner_result(info)
            vp = info["scores"][info["learner_seat"]]
        else:                                        # cut by max_steps: a loss
            s, seat = env.game_state, env.seat
            vp = int(s.vp[seat])
            won, margin = False, float(vp - max(int(v) for p, v in enumerate(s.vp[:num_players]) if p != seat))
        results[task[0]].append((bool(won), float(vp), float(margin), bool(trunc and not term)))

    play_batched(model, envs[:n_par], tasks, reset, finish, deterministic=deterministic)
    per = {}
    for code, rows in results.items():
        won, vp, margin, cut = (np.array(col) for col in zip(*rows))
        wins = int(won.sum())
        per[code] = {**win_stats(wins, len(rows)), "mean_vp": float(vp.mean()),
                     "mean_margin": float(margin.mean()), "truncated": int(cut.sum())}
    return {"opponents": per, "players": num_players, "advanced": bool(advanced), "seed": seed,
            "games_per_opponent": n_games, "deterministic": bool(deterministic),
            "mean_win_rate": float(np.mean([r["win_rate"] for r in per.values()])),
            "mean_margin": float(np.mean([r["mean_margin"] for r in per.values()])),
            "seconds": time.perf_counter() - t0}


def format_tables(r: dict[str, Any]) -> str:
    last = r["seed"] + r["games_per_opponent"] - 1
    lines = [(f"{r['games_per_opponent']} games per opponent at {r['players']}-player tables "
              f"({'advanced' if r['advanced'] else 'base'} rules), seeds {r['seed']}..{last}, "
              f"{'deterministic' if r['deterministic'] else 'stochastic'} policy, the learner's seat rotated")]
    for code, o in r["opponents"].items():
        lo, hi = o["ci95"]
        lines.append(f"  vs {code:<16} win rate {o['wins']}/{o['games']} = {100 * o['win_rate']:.1f}% "
                     f"(Wilson 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)  mean VP {o['mean_vp']:.2f}  "
                     f"margin {o['mean_margin']:+.2f}" + (f"  truncated {o['truncated']}" if o["truncated"] else ""))
    lines.append(f"  {r['seconds']:.1f} s")
    return "\n".join(lines)


# -- the trainer -------------------------------------------------------------------------------------------------

class SelfPlayTrainer(Trainer):
    """``train_ppo.Trainer`` with the self-play environments, the snapshot pool and table evaluations."""

    script = "blackangel_env.training.selfplay"

    def __init__(self, cfg: dict[str, Any], run_dir: Path, resume_from: Path | None):
        super().__init__(cfg, run_dir, resume_from)
        start = int(read_meta(resume_from)["num_timesteps"]) if resume_from else 0
        self.snapshots = [str(p) for _, p in list_snapshots(run_dir, up_to=start)]
        self.last_snapshot_step = int(Path(self.snapshots[-1]).stem.split("_")[1]) if self.snapshots else None
        self._eval_envs: list[SelfPlayEnv] = []
        self.snapshot_seats: deque = deque(maxlen=100)      # share of opponent seats played by snapshots, per game

    def make_vec_env(self, seed: int):
        from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

        cfg = self.cfg
        fns = [_EnvFactory(env_kwargs(cfg, i, self.snapshots), shaping_kwargs(cfg))
               for i in range(cfg["vec_env.n_envs"])]
        if cfg["vec_env.type"] == "subproc":
            venv = SubprocVecEnv(fns, start_method=safe_start_method(cfg["vec_env.start_method"]))
        else:
            venv = DummyVecEnv(fns)
        venv.seed(seed)
        return venv

    def game_result(self, info: dict[str, Any]) -> tuple[bool, float] | None:
        opponents = info.get("opponents")
        if opponents:
            self.snapshot_seats.append(sum(c.startswith(SNAPSHOT) for c in opponents) / len(opponents))
        return learner_result(info)

    # -- the pool ------------------------------------------------------------------------------------------------
    def on_rollout_start(self, model) -> None:
        n = int(model.num_timesteps)
        if self.snapshot_seats:
            model.logger.record("selfplay/snapshot_seats", float(np.mean(self.snapshot_seats)))
        k = self.cfg["selfplay.snapshot_freq"]
        if self.last_snapshot_step is None:
            due = self.cfg["selfplay.snapshot_at_start"] or n >= k
        else:
            due = n // k > self.last_snapshot_step // k
        if due:
            self.save_snapshot(model)

    def save_snapshot(self, model) -> Path:
        n = int(model.num_timesteps)
        path = self.run_dir / POOL_DIR / f"step_{n:09d}.zip"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.stem + ".tmp.zip")
        model.save(str(tmp))
        os.replace(tmp, path)
        self.snapshots = [p for p in self.snapshots if p != str(path)] + [str(path)]
        self.last_snapshot_step = n
        pool = self.snapshots[-self.cfg["selfplay.pool_size"]:]
        model.get_env().env_method("set_pool", pool)
        model.logger.record("selfplay/pool_size", len(pool))
        model.logger.record("selfplay/latest_snapshot", n)
        return path

    # -- evaluation ----------------------------------------------------------------------------------------------
    def evaluate(self, model) -> dict[str, Any]:
        cfg = self.cfg
        n = int(model.num_timesteps)
        r = evaluate_tables(model, agent_code_list(cfg["eval.opponents"]), cfg["eval.n_games"],
                            num_players=cfg["env.num_players"], advanced=cfg["env.advanced"], seed=cfg["eval.seed"],
                            deterministic=cfg["eval.deterministic"], max_steps=cfg["env.max_steps"],
                            envs=self._eval_envs)
        r["step"] = n
        self.last_eval = r
        self.last_eval_step = n
        log = model.logger
        log.record("eval/mean_win_rate", r["mean_win_rate"])
        log.record("eval/mean_margin", r["mean_margin"])
        rows = []
        for code, o in r["opponents"].items():
            key = re.sub(r"[^A-Za-z0-9_.-]+", "_", code)
            for k in ("win_rate", "mean_vp", "mean_margin"):
                log.record(f"eval/{key}/{k}", o[k])
            rows.append({"step": n, "opponent": code, **eval_row(r, o)})
        append_csv(self.run_dir / "evaluations.csv", EVAL_FIELDS, rows)
        if self.best is None or (r["mean_win_rate"], r["mean_margin"]) > (self.best["mean_win_rate"],
                                                                          self.best["mean_margin"]):
            tmp = self.run_dir / "best_model.tmp.zip"
            model.save(str(tmp))
            os.replace(tmp, self.run_dir / BEST_MODEL)
            self.best = {k: v for k, v in r.items() if k != "seconds"}
            (self.run_dir / "best.json").write_text(json.dumps(self.best, indent=2) + "\n")
        if self.progress is not None:
            self.progress(f"step {n}: " + ", ".join(f"vs {c} {100 * o['win_rate']:.1f}% (margin "
                                                    f"{o['mean_margin']:+.2f})" for c, o in r["opponents"].items()))
        return r


# -- entry points ------------------------------------------------------------------------------------------------

def train(config: str | Path | None = None, overrides: list[str] = (), resume: str | Path | None = None,
          progress=print) -> dict[str, Any]:
    """The script as a function: ``train_ppo.train``'s summary dict."""
    check_extra("train", "blackangel_env.training.selfplay.train")
    args = argparse.Namespace(config=config, set=list(overrides), resume=resume)
    cfg, run_dir, ckpt = prepare_run(args, schema=SELFPLAY_SCHEMA)
    rollout = cfg["ppo.n_steps"] * cfg["vec_env.n_envs"]
    if cfg["ppo.batch_size"] > rollout:
        raise ConfigError(f"config key 'ppo.batch_size' ({cfg['ppo.batch_size']}) must not exceed "
                          f"ppo.n_steps * vec_env.n_envs ({rollout})")
    try:                                      # the environment options, checked before anything is written
        _EnvFactory(env_kwargs(cfg), shaping_kwargs(cfg))().close()
    except (ValueError, TypeError) as e:
        raise ConfigError(f"config section 'env' / 'selfplay': {e}") from None
    use_tensorboard(cfg)
    run_dir.mkdir(parents=True, exist_ok=True)
    dump_config(cfg, run_dir / "config.yaml")
    return SelfPlayTrainer(cfg, run_dir, ckpt).run(progress=progress)


def _evaluate_cli(args) -> int:
    from .checkpoints import resolve_model, run_dir_of
    from .evaluate import load_model

    path = resolve_model(args.evaluate, args.which)
    players, advanced = args.players, args.advanced
    run_dir = run_dir_of(path)
    if run_dir is not None and (players is None or advanced is None):
        try:
            cfg = load_config(run_dir / "config.yaml", schema=SELFPLAY_SCHEMA)
            players = players or cfg["env.num_players"]
            advanced = cfg["env.advanced"] if advanced is None else advanced
        except ConfigError:
            pass
    import torch
    torch.set_num_threads(1)
    r = evaluate_tables(load_model(path), agent_code_list(args.opponents), args.games, num_players=players or 3,
                        advanced=bool(advanced), seed=args.seed, deterministic=not args.stochastic,
                        max_steps=args.max_steps)
    r["model"] = str(path)
    print(f"model {path}")
    print(format_tables(r))
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=2) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = training_parser("blackangel_env.training.selfplay", __doc__, "configs/train/selfplay_3p.yaml",
                         "env.num_players=4")
    ev = ap.add_argument_group("evaluation of a trained model (instead of training)")
    ev.add_argument("--evaluate", metavar="MODEL", help="a run directory (its best model) or a model .zip")
    ev.add_argument("--opponents", default="random,greedy", help="agent codes, comma-separated")
    ev.add_argument("--players", type=int, choices=(2, 3, 4), help="table size (default: the run's config, else 3)")
    ev.add_argument("--advanced", default=None, action=argparse.BooleanOptionalAction, help="advanced rules")
    ev.add_argument("--games", type=positive_int, default=100, help="games per opponent (default 100)")
    ev.add_argument("--seed", type=seed_arg, default=0, help="game i is seeded seed + i (default 0)")
    ev.add_argument("--which", default="best", choices=("best", "latest"), help="for a run directory")
    ev.add_argument("--stochastic", action="store_true", help="sample actions instead of the greedy policy")
    ev.add_argument("--max-steps", type=positive_int, default=2000,
                    help="cut a game after this many learner decisions")
    ev.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    args = ap.parse_args(argv)
    from blackangel_env.extras import require_extra
    require_extra("train", "python -m blackangel_env.training.selfplay")
    if not args.evaluate:
        return run_training(train, args)
    try:
        err = check_agent_code_list_required(args.opponents)
        if err:
            raise ConfigError(f"--opponents {err}")
        err = path_problem(args.evaluate)
        if err:
            raise ConfigError(f"--evaluate {args.evaluate}: {err}")
        err = args.json and output_problem(args.json, "--json")
        if err:
            raise ConfigError(err)
        return _evaluate_cli(args)
    except (ConfigError, FileNotFoundError, ModelLoadError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
