"""Throughput benchmark of the rules engine (and, when available, the environments).

Random legal play in one process: at every decision the legal actions are computed and one of them, drawn
uniformly with a seeded generator, is applied with the checked ``engine.apply``.  Prints a table, or one JSON
object with ``--json``:

* ``engine_decisions_per_s``: decisions per second over all player counts measured (mask + apply);
* ``engine_decisions_per_s_by_players``: the same per player count ("1" = solo against Hal);
* ``engine_games_per_s``: complete games per second (set-up included), by player count;
* ``state_copy_us``: microseconds to copy a mid-game state;
* ``rollout_decisions_per_s``: decisions per second of ``engine.rollouts`` (batches of 16 new games per player
  count played to the end under uniform random play; today a Python loop over the engine, see
  ``engine.playout``), and ``compiled_modules``: the modules running compiled (``blackangel_env._compiled``);
* ``solo_games_per_s`` and ``hal_mean_vp_vs_random`` / ``random_mean_vp_vs_hal``: the solo game against Hal at
  standard difficulty with a uniformly random player (reported, not asserted);
* with ``--env``: ``aec_steps_per_s`` (random play through the wrapped PettingZoo env, observation and mask
  built at every step), ``observation_size`` and ``observation_us`` (``aec_steps_per_s``), and
  ``vector_env_steps_per_s`` (``vector_env_steps_per_s``: 256 solo games in ``blackangel_env.vector``'s
  ``BlackAngelVectorEnv``, observations and masks batched at every step, a random legal action per game).

Usage: ``blackangel bench`` or ``python benchmarks/bench.py [--seconds 3] [--players 1,2,3,4] [--advanced] [--env]
[--json]``.  ``aec_steps_per_s`` alone: ``python benchmarks/bench_env.py``.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

from . import _compiled, engine
from .components import default_components
from .encoding import encode_observation, observation_size
from .pettingzoo_env import env as pettingzoo_env
from .vector import BlackAngelVectorEnv


def random_play(num_players: int, seconds: float, advanced: bool, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    decisions = games = 0
    final_vp: list[tuple[int, int]] = []
    play_time = 0.0
    t_end = time.perf_counter() + seconds
    g = 0
    t_all = time.perf_counter()
    while True:                     # at least once, however short the time
        s = engine.new_game(num_players=num_players, advanced=advanced, seed=seed * 100_000 + g)
        g += 1
        t0 = time.perf_counter()
        while not s.terminal:
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.random() * len(legal))])
            decisions += 1
        play_time += time.perf_counter() - t0
        games += 1
        final_vp.append((int(s.vp[0]), int(s.vp[4])))
        if time.perf_counter() >= t_end:
            break
    wall = time.perf_counter() - t_all
    return {"decisions": decisions, "games": games, "decisions_per_s": decisions / play_time,
            "games_per_s": games / wall, "decisions_per_game": decisions / games,
            "mean_vp_seat0": float(np.mean([a for a, _ in final_vp])),
            "mean_vp_hal": float(np.mean([b for _, b in final_vp]))}


def copy_cost(n: int = 20000) -> float:
    s = engine.new_game(num_players=4, seed=1)
    rng = np.random.default_rng(1)
    for _ in range(60):
        if s.terminal:
            break
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.random() * len(legal))])
    t0 = time.perf_counter()
    for _ in range(n):
        s.copy()
    return (time.perf_counter() - t0) / n * 1e6


def rollout_decisions_per_s(seconds: float = 3.0, players: tuple[int, ...] = (1, 2, 3, 4), advanced: bool = False,
                            seed: int = 0, batch: int = 16) -> float:
    """Decisions per second of ``engine.rollouts`` over batches of ``batch`` new games (set up outside the
    timing), about ``seconds / len(players)`` seconds per player count."""
    decisions = 0
    spent = 0.0
    for n in players:
        t_end = time.perf_counter() + seconds / len(players)
        b = 0
        while True:                     # at least once, however short the time
            states = [engine.new_game(num_players=n, advanced=advanced, seed=seed * 100_000 + b * batch + i)
                      for i in range(batch)]
            t0 = time.perf_counter()
            _, k = engine.rollouts(states, seed=seed * 100_000 + b, return_decisions=True)
            spent += time.perf_counter() - t0
            decisions += int(k.sum())
            b += 1
            if time.perf_counter() >= t_end:
                break
    return decisions / spent


def _aec_play(num_players: int, seconds: float, advanced: bool, seed: int) -> tuple[int, float]:
    rng = np.random.default_rng(seed)
    env = pettingzoo_env(num_players=num_players, advanced=advanced)
    steps = 0
    game = 0
    t0 = time.perf_counter()
    t_end = t0 + seconds
    while True:                     # at least once, however short the time
        env.reset(seed=seed * 100_000 + game)
        game += 1
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]          # the legal ids (np.flatnonzero without its wrappers)
            env.step(legal.item(int(rng.random() * len(legal))))
            steps += 1
        if time.perf_counter() >= t_end:
            break
    return steps, time.perf_counter() - t0


def observation_us(n: int = 2000, seed: int = 0) -> float:
    """Mean microseconds of ``encode_observation`` over positions of a random 4-player game."""
    rng = np.random.default_rng(seed)
    s = engine.new_game(num_players=4, seed=seed)
    states = []
    while not s.terminal:
        states.append(s.copy())
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.random() * len(legal))])
    out = np.empty(observation_size(), dtype=np.float32)
    best = float("inf")
    for _ in range(5):                         # best of 5 rounds: the machine may be shared
        t0 = time.perf_counter()
        for i in range(n):
            st = states[i % len(states)]
            encode_observation(st, i % 4, out)
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


def aec_steps_per_s(seconds: float = 3.0, players: tuple[int, ...] = (1, 2, 3, 4), advanced: bool = False,
                    seed: int = 0) -> dict:
    """Random legal play through ``blackangel_env.env()`` (the wrapped PettingZoo environment), the observation and
    the action mask built at every step (``env.last()``): ``aec_steps_per_s`` (agent steps per second, the dead
    agents' steps at the end of a game excluded, resets included in the time), per player count,
    ``observation_size`` and ``observation_us`` (``observation_us()``)."""
    pettingzoo_env(num_players=2).reset(seed=0)     # warm up: data files, observation plans
    by = {}
    total_steps = 0
    total_time = 0.0
    for n in players:
        steps, dt = _aec_play(n, seconds / len(players), advanced, seed)
        by[str(n)] = steps / dt
        total_steps += steps
        total_time += dt
    return {
        "aec_steps_per_s": total_steps / total_time,
        "aec_steps_per_s_by_players": by,
        "observation_size": observation_size(),
        "observation_us": observation_us(),
    }


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action id per row of the ``(N, A)`` bool ``masks`` (each row has one)."""
    n, width = masks.shape
    flat = np.flatnonzero(masks)                                  # row * width + id of each legal id, in order
    bounds = np.searchsorted(flat, np.arange(n + 1) * width)      # row r's ids: flat[bounds[r]:bounds[r + 1]]
    counts = np.diff(bounds)
    k = (rng.random(n) * counts).astype(np.int64)                 # the k-th legal id of each row
    return flat[bounds[:-1] + k] - np.arange(n) * width


def vector_env_steps_per_s(seconds: float = 3.0, num_envs: int = 256, advanced: bool = False,
                           seed: int = 0) -> dict:
    """Random legal play of ``num_envs`` solo games (standard Hal) through ``BlackAngelVectorEnv``: the batched
    observations and masks built at every step, one uniformly random legal action per game from the step's masks.
    ``vector_env_steps_per_s``: game steps per second (``num_envs`` per vector step; the next-step autoreset steps
    included, as the vector environment takes them), the first ``reset`` included in the time."""
    rng = np.random.default_rng(seed)
    envs = BlackAngelVectorEnv(num_envs, num_players=1, advanced=advanced)
    t0 = time.perf_counter()
    t_end = t0 + seconds
    _, info = envs.reset(seed=seed * 100_000)
    steps = 0
    while True:                     # at least once, however short the time
        _, _, _, _, info = envs.step(random_legal(info["action_mask"], rng))
        steps += num_envs
        if time.perf_counter() >= t_end:
            break
    dt = time.perf_counter() - t0
    envs.close()
    return {"vector_env_steps_per_s": steps / dt, "vector_env_num_envs": num_envs}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds of play per player count")
    ap.add_argument("--players", default="1,2,3,4", help="comma-separated player counts (1 = solo vs Hal)")
    ap.add_argument("--advanced", action="store_true", help="advanced rules")
    ap.add_argument("--env", action="store_true",
                    help="also measure the PettingZoo AEC environment and the Gymnasium vector environment")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    default_components()  # load the data file once, outside the timings
    engine.new_game(num_players=2, seed=0)
    by = {n: random_play(n, args.seconds, args.advanced) for n in counts}
    total_dec = sum(r["decisions"] for r in by.values())
    total_time = sum(r["decisions"] / r["decisions_per_s"] for r in by.values())
    out = {
        "engine_decisions_per_s": round(total_dec / total_time),
        "engine_decisions_per_s_by_players": {str(n): round(r["decisions_per_s"]) for n, r in by.items()},
        "engine_games_per_s": {str(n): round(r["games_per_s"], 1) for n, r in by.items()},
        "decisions_per_game": {str(n): round(r["decisions_per_game"], 1) for n, r in by.items()},
        "state_copy_us": round(copy_cost(), 2),
        "rollout_decisions_per_s": round(rollout_decisions_per_s(args.seconds * len(counts), tuple(counts),
                                                                 args.advanced)),
        "compiled_modules": list(_compiled.compiled()),
        "advanced": args.advanced,
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    if 1 in by:
        out["solo_games_per_s"] = round(by[1]["games_per_s"], 1)
        out["hal_mean_vp_vs_random"] = round(by[1]["mean_vp_hal"], 1)
        out["random_mean_vp_vs_hal"] = round(by[1]["mean_vp_seat0"], 1)
        out["solo_games"] = by[1]["games"]
    if args.env:
        env_out = aec_steps_per_s(seconds=args.seconds, players=counts, advanced=args.advanced, seed=0)
        out["aec_steps_per_s"] = round(env_out["aec_steps_per_s"])
        out["observation_size"] = env_out["observation_size"]
        out["observation_us"] = round(env_out.get("observation_us") or 0, 1)
        vec_out = vector_env_steps_per_s(seconds=args.seconds, advanced=args.advanced, seed=0)
        out["vector_env_steps_per_s"] = round(vec_out["vector_env_steps_per_s"])
    if args.json:
        print(json.dumps(out))
    else:
        print(f"engine, random legal play ({'advanced' if args.advanced else 'base'} rules), "
              f"{args.seconds:g} s per player count")
        print(f"{'players':>8} {'decisions/s':>12} {'games/s':>9} {'decisions/game':>15}")
        for n, r in by.items():
            print(f"{n:>8} {r['decisions_per_s']:>12,.0f} {r['games_per_s']:>9.1f} {r['decisions_per_game']:>15.1f}")
        print(f"all: {out['engine_decisions_per_s']:,} decisions/s; state copy {out['state_copy_us']} us")
        print(f"rollouts: {out['rollout_decisions_per_s']:,} decisions/s; compiled modules: "
              f"{', '.join(out['compiled_modules']) or 'none'}")
        if 1 in by:
            print(f"solo vs Hal (standard), random player: {out['solo_games']} games, Hal {out['hal_mean_vp_vs_random']} "
                  f"VP vs player {out['random_mean_vp_vs_hal']} VP on average")
        if args.env:
            print(f"PettingZoo AEC env: {out['aec_steps_per_s']:,} steps/s with observation and mask; observation "
                  f"size {out['observation_size']}, {out['observation_us']} us each")
            print(f"Gymnasium vector env, 256 solo games: {out['vector_env_steps_per_s']:,} game steps/s with "
                  f"observations and masks")
    return out


if __name__ == "__main__":
    main()
