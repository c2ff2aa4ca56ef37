"""Throughput of the PettingZoo AEC environment: random legal play through ``blackangel_env.env()`` (the wrapped
environment), with the observation and the action mask built at every step (``env.last()``); the random legal
action is drawn among ``mask.nonzero()[0]``.

``aec_steps_per_s(seconds, players, advanced, seed)`` returns a dict with ``aec_steps_per_s`` (agent steps per
second, dead-agent steps at the end of a game excluded, game resets included in the time), ``observation_size``,
``observation_us`` (mean microseconds of one ``encode_observation`` call, measured separately), and per-player-count
rates.  ``python benchmarks/bench_env.py [--seconds 3] [--players 1,2,3,4] [--advanced]`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import blackangel_env  # noqa: E402
from blackangel_env import engine  # noqa: E402
from blackangel_env.encoding import encode_observation, observation_size  # noqa: E402


def _play(num_players: int, seconds: float, advanced: bool, seed: int) -> tuple[int, float]:
    rng = np.random.default_rng(seed)
    env = blackangel_env.env(num_players=num_players, advanced=advanced)
    steps = 0
    game = 0
    t0 = time.perf_counter()
    t_end = t0 + seconds
    while time.perf_counter() < t_end:
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
    blackangel_env.env(num_players=2).reset(seed=0)     # warm up: data files, observation plans
    by = {}
    total_steps = 0
    total_time = 0.0
    for n in players:
        steps, dt = _play(n, seconds / len(players), advanced, seed)
        by[str(n)] = steps / dt
        total_steps += steps
        total_time += dt
    return {
        "aec_steps_per_s": total_steps / total_time,
        "aec_steps_per_s_by_players": by,
        "observation_size": observation_size(),
        "observation_us": observation_us(),
    }


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="total seconds of play")
    ap.add_argument("--players", default="1,2,3,4", help="comma-separated player counts (1 = solo vs Hal)")
    ap.add_argument("--advanced", action="store_true", help="advanced rules")
    args = ap.parse_args(argv)
    res = aec_steps_per_s(args.seconds, tuple(int(x) for x in args.players.split(",")), args.advanced)
    print(json.dumps(res))
    return res


if __name__ == "__main__":
    main()
