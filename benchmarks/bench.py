"""Throughput benchmark of the rules engine (and, when available, the environments).

Random legal play in one process: at every decision the legal actions are computed and one of them, drawn
uniformly with a seeded generator, is applied with the checked ``engine.apply``.  Prints a table, or one JSON
object with ``--json``:

* ``engine_decisions_per_s``: decisions per second over all player counts measured (mask + apply);
* ``engine_decisions_per_s_by_players``: the same per player count ("1" = solo against Hal);
* ``engine_games_per_s``: complete games per second (set-up included), by player count;
* ``state_copy_us``: microseconds to copy a mid-game state.

Usage: ``python benchmarks/bench.py [--seconds 3] [--players 1,2,3,4] [--advanced] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackangel_env import engine  # noqa: E402
from blackangel_env.components import default_components  # noqa: E402


def random_play(num_players: int, seconds: float, advanced: bool, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    decisions = games = 0
    play_time = 0.0
    t_end = time.perf_counter() + seconds
    g = 0
    t_all = time.perf_counter()
    while time.perf_counter() < t_end:
        s = engine.new_game(num_players=num_players, advanced=advanced, seed=seed * 100_000 + g)
        g += 1
        t0 = time.perf_counter()
        while not s.terminal:
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.random() * len(legal))])
            decisions += 1
        play_time += time.perf_counter() - t0
        games += 1
    wall = time.perf_counter() - t_all
    return {"decisions": decisions, "games": games, "decisions_per_s": decisions / play_time,
            "games_per_s": games / wall, "decisions_per_game": decisions / games}


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


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds of play per player count")
    ap.add_argument("--players", default="1,2,3,4", help="comma-separated player counts (1 = solo vs Hal)")
    ap.add_argument("--advanced", action="store_true", help="advanced rules")
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
        "advanced": args.advanced,
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"engine, random legal play ({'advanced' if args.advanced else 'base'} rules), "
              f"{args.seconds:g} s per player count")
        print(f"{'players':>8} {'decisions/s':>12} {'games/s':>9} {'decisions/game':>15}")
        for n, r in by.items():
            print(f"{n:>8} {r['decisions_per_s']:>12,.0f} {r['games_per_s']:>9.1f} {r['decisions_per_game']:>15.1f}")
        print(f"all: {out['engine_decisions_per_s']:,} decisions/s; state copy {out['state_copy_us']} us")
    return out


if __name__ == "__main__":
    main()
