"""Evaluate a trained MaskablePPO checkpoint against Hal in the solo game.

    python -m blackangel_env.training.evaluate RUN_DIR_or_model.zip --games 200 --hal standard --seed 0 [--json FILE]

Plays ``--games`` solo games (game i seeded ``seed + i``, so two models meet the same deals) with legal-action
masks and the deterministic (greedy) policy unless ``--stochastic``, and prints the win rate with its Wilson
95% confidence interval, the mean VP of the policy and of Hal, and the mean margin (policy VP - Hal VP).  A tie
is a loss (the rulebook: Hal wins ties).  Games cut by ``max_steps`` count as losses and are reported.

A run directory resolves to its ``best_model.zip`` (``--which latest``: its latest checkpoint); the rule set
(``--advanced``) defaults to the run's config.  ``evaluate_model`` is the same evaluation as a function (the
training script's periodic evaluation uses it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from blackangel_env.arguments import output_problem, path_problem, positive_int, seed as seed_arg
from blackangel_env.agents.arena import play_batched, wilson_interval

__all__ = ["evaluate_model", "load_model", "wilson_interval", "main"]


def load_model(path: str | Path, which: str = "best", device: str = "cpu"):
    """Load a MaskablePPO model from a .zip or a run directory
    (``blackangel_env.training.checkpoints.resolve_model``)."""
    from .checkpoints import load_maskable_ppo, resolve_model
    return load_maskable_ppo(resolve_model(path, which), device=device)


def evaluate_model(model, n_games: int, hal_difficulty: str = "standard", advanced: bool = False,
                   seed: int = 0, deterministic: bool = True, max_steps: int | None = 2000,
                   batch: int = 16) -> dict[str, Any]:
    """Play ``n_games`` solo games against Hal with ``model`` (anything with SB3's ``predict(obs,
    action_masks=..., deterministic=...)``), ``batch`` games at a time (one batched forward pass per step)."""
    from blackangel_env.gym_env import BlackAngelSingleAgentEnv
    from blackangel_env.state import BOT

    if n_games < 1:
        raise ValueError(f"n_games must be >= 1, got {n_games}")
    t0 = time.perf_counter()
    envs = [BlackAngelSingleAgentEnv(num_players=1, hal_difficulty=hal_difficulty, advanced=advanced,
                                     max_steps=max_steps) for _ in range(max(1, min(batch, n_games)))]
    results: list[dict[str, Any]] = [{} for _ in range(n_games)]

    def reset(env, game: int) -> np.ndarray:
        return env.reset(seed=seed + game)[0]

    def finish(env, game: int, term: bool, trunc: bool, info: dict) -> None:
        s = env.game_state
        results[game] = {"seed": seed + game, "won": bool(term and info["winners"][0]),
                         "vp": int(s.vp[0]), "hal_vp": int(s.vp[BOT]), "truncated": bool(trunc and not term)}

    decisions = play_batched(model, envs, range(n_games), reset, finish, deterministic=deterministic)
    wins = sum(r["won"] for r in results)
    lo, hi = wilson_interval(wins, n_games)
    vp = np.array([r["vp"] for r in results], dtype=float)
    hal = np.array([r["hal_vp"] for r in results], dtype=float)
    return {
        "games": n_games, "wins": int(wins), "win_rate": wins / n_games, "ci95": [lo, hi],
        "mean_vp": float(vp.mean()), "mean_hal_vp": float(hal.mean()), "mean_margin": float((vp - hal).mean()),
        "truncated": int(sum(r["truncated"] for r in results)), "decisions_per_game": decisions / n_games,
        "hal_difficulty": hal_difficulty, "advanced": bool(advanced), "seed": seed,
        "deterministic": bool(deterministic), "seconds": time.perf_counter() - t0,
    }


def format_result(r: dict[str, Any]) -> str:
    lo, hi = r["ci95"]
    lines = [
        f"{r['games']} solo games against Hal ({r['hal_difficulty']}, {'advanced' if r['advanced'] else 'base'}"
        f" rules), seeds {r['seed']}..{r['seed'] + r['games'] - 1}, "
        f"{'deterministic' if r['deterministic'] else 'stochastic'} policy",
        f"  win rate     {r['wins']}/{r['games']} = {100 * r['win_rate']:.1f}%   (Wilson 95% CI "
        f"{100 * lo:.1f}-{100 * hi:.1f}%)",
        f"  mean VP      {r['mean_vp']:.2f}   (Hal {r['mean_hal_vp']:.2f})",
        f"  mean margin  {r['mean_margin']:+.2f}",
    ]
    if r["truncated"]:
        lines.append(f"  truncated    {r['truncated']} games cut by max_steps (counted as losses)")
    lines.append(f"  {r['decisions_per_game']:.1f} decisions per game, {r['seconds']:.1f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m blackangel_env.training.evaluate",
                                 description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", help="a model .zip or a run directory")
    ap.add_argument("--games", type=positive_int, default=100, help="number of games (default 100)")
    ap.add_argument("--hal", default=None, choices=("easy", "standard", "difficult", "extreme"),
                    help="Hal's difficulty (default: the run's config, else standard)")
    ap.add_argument("--advanced", default=None, action=argparse.BooleanOptionalAction,
                    help="advanced rules (default: the run's config, else base rules)")
    ap.add_argument("--seed", type=seed_arg, default=0, help="game i is seeded seed + i (default 0)")
    ap.add_argument("--which", default="best", choices=("best", "latest"),
                    help="for a run directory: best_model.zip (default) or the latest checkpoint")
    ap.add_argument("--stochastic", action="store_true", help="sample actions instead of the greedy policy")
    ap.add_argument("--max-steps", type=positive_int, default=2000, help="cut a game after this many decisions")
    ap.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    args = ap.parse_args(argv)
    problem = path_problem(args.model)
    problem = (problem and f"model {args.model}: {problem}") or (args.json and output_problem(args.json, "--json"))
    if problem:
        ap.error(problem)
    from blackangel_env.extras import require_extra
    require_extra("train", "python -m blackangel_env.training.evaluate")

    from .checkpoints import ModelLoadError, resolve_model, run_dir_of
    from .config import ConfigError, load_config

    try:
        path = resolve_model(args.model, args.which)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    hal, advanced = "standard", False
    run_dir = run_dir_of(path)
    if run_dir is not None:
        try:
            cfg = load_config(run_dir / "config.yaml")
            hal, advanced = cfg["env.hal_difficulty"], cfg["env.advanced"]
        except ConfigError:
            pass
    hal = args.hal or hal
    advanced = advanced if args.advanced is None else args.advanced

    import torch
    torch.set_num_threads(1)
    try:
        model = load_model(path)
    except ModelLoadError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    result = evaluate_model(model, args.games, hal_difficulty=hal, advanced=advanced, seed=args.seed,
                            deterministic=not args.stochastic, max_steps=args.max_steps)
    result["model"] = str(path)
    print(f"model {path}")
    print(format_result(result))
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
        except (OSError, ValueError) as e:       # checked before the games, but a file can still refuse a write
            print(f"error: --json {args.json}: the result could not be saved ({getattr(e, 'strerror', None) or e});"
                  " the result above is complete", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
