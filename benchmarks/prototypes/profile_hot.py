"""cProfile of random legal play: the engine (legal_actions + checked apply per decision) and the PettingZoo
AEC env (observation and mask at every step).  Measurement tool for docs/engine_core.md, not used by the package.

Usage: ``python benchmarks/prototypes/profile_hot.py [--games 20] [--top 25]``.  Prints, for each workload, the
unprofiled rate, then the functions by own time and by cumulative time, with the share of the total.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import blackangel_env  # noqa: E402
from blackangel_env import engine  # noqa: E402
from blackangel_env.components import default_components  # noqa: E402


def engine_play(games: int, players=(1, 2, 3, 4), advanced: bool = False) -> int:
    rng = np.random.default_rng(0)
    dec = 0
    for g in range(games):
        for n in players:
            s = engine.new_game(num_players=n, advanced=advanced, seed=1000 * n + g)
            while not s.terminal:
                legal = engine.legal_actions(s)
                engine.apply(s, legal[int(rng.random() * len(legal))])
                dec += 1
    return dec


def env_play(games: int, players=(1, 2, 3, 4), advanced: bool = False) -> int:
    rng = np.random.default_rng(0)
    steps = 0
    for n in players:
        env = blackangel_env.env(num_players=n, advanced=advanced)
        for g in range(games):
            env.reset(seed=1000 * n + g)
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(legal.item(int(rng.random() * len(legal))))
                steps += 1
    return steps


def report(name: str, fn, games: int, top: int, advanced: bool) -> None:
    fn(2, advanced=advanced)                                # warm-up: data files, caches
    t = time.perf_counter()
    n = fn(games, advanced=advanced)
    dt = time.perf_counter() - t
    print(f"== {name}: {n} decisions in {dt:.2f} s unprofiled = {n / dt:,.0f}/s")
    pr = cProfile.Profile()
    pr.enable()
    fn(games, advanced=advanced)
    pr.disable()
    st = pstats.Stats(pr)
    total = st.total_tt
    root = str(Path(blackangel_env.__file__).parent) + "/"
    rows = []
    for (file, line, func), (cc, nc, tt, ct, callers) in st.stats.items():
        rows.append((tt, ct, nc, f"{file.replace(root, '')}:{line}({func})"))
    for key, label in ((0, "own time"), (1, "cumulative")):
        print(f"-- by {label} (share of {total:.2f} s profiled)")
        for r in sorted(rows, key=lambda r: -r[key])[:top]:
            print(f"{100 * r[0] / total:6.1f}% own {100 * r[1] / total:6.1f}% cum {r[2]:>8} calls  {r[3]}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per player count (1-4)")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--advanced", action="store_true")
    ap.add_argument("--only", choices=("engine", "env"), default=None)
    args = ap.parse_args(argv)
    default_components()
    if args.only in (None, "engine"):
        report("engine random play", engine_play, args.games, args.top, args.advanced)
    if args.only in (None, "env"):
        report("PettingZoo env() random play", env_play, args.games, args.top, args.advanced)


if __name__ == "__main__":
    main()
