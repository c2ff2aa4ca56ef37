"""Random play through two copies of blackangel_env side by side (e.g. the source as it is, and a copy compiled by
``build.py --engine``): each round runs the same seeded games in a fresh subprocess per copy, alternating; prints
the median decisions/s of each, the ratio, and whether the games were identical (a hash of every action and the
final buffer).  Measurement tool for docs/engine_core.md.

Usage: ``python benchmarks/prototypes/engine_ab.py ROOT_A ROOT_B [--rounds 5] [--games 6] [--env]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import hashlib, json, sys, time
import numpy as np
import blackangel_env
from blackangel_env import engine
from blackangel_env.components import default_components
games, env_mode = int(sys.argv[1]), sys.argv[2] == "env"
default_components(); engine.new_game(num_players=2, seed=0)
h = hashlib.sha256(); n = 0
if not env_mode:
    t0 = time.perf_counter()
    for g in range(games):
        for players in (1, 2, 3, 4):
            rng = np.random.default_rng(g)
            s = engine.new_game(num_players=players, advanced=bool(g % 2), seed=1000 * players + g)
            while not s.terminal:
                legal = engine.legal_actions(s)
                a = legal[int(rng.random() * len(legal))]
                engine.apply(s, a); n += 1; h.update(a.to_bytes(2, "little"))
            h.update(s.buf.tobytes())
    dt = time.perf_counter() - t0
else:
    envs = {}
    for players in (1, 2, 3, 4):          # warm up: observation plans and caches of each player count
        env = envs[players] = blackangel_env.env(num_players=players)
        env.reset(seed=0)
        for agent in env.agent_iter():
            obs, r, term, trunc, info = env.last()
            env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    t0 = time.perf_counter()
    for players in (1, 2, 3, 4):
        env = envs[players]
        rng = np.random.default_rng(players)
        for g in range(games):
            env.reset(seed=1000 * players + g)
            for agent in env.agent_iter():
                obs, r, term, trunc, info = env.last()
                if term or trunc:
                    env.step(None); continue
                legal = obs["action_mask"].nonzero()[0]
                a = legal.item(int(rng.random() * len(legal)))
                h.update(obs["observation"].tobytes()); env.step(a); n += 1
    dt = time.perf_counter() - t0
print(json.dumps({"decisions": n, "seconds": dt, "hash": h.hexdigest()[:16], "engine": engine.__file__}))
"""


def run(root: str, games: int, mode: str) -> dict:
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", CHILD, str(games), mode], env=env, capture_output=True, text=True,
                         check=True, cwd=root)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--env", action="store_true", help="PettingZoo env() steps (observation + mask) instead")
    args = ap.parse_args(argv)
    mode = "env" if args.env else "engine"
    rates: dict[str, list[float]] = {r: [] for r in args.roots}
    hashes: dict[str, set] = {r: set() for r in args.roots}
    for _ in range(args.rounds):
        for r in args.roots:
            o = run(r, args.games, mode)
            rates[r].append(o["decisions"] / o["seconds"])
            hashes[r].add(o["hash"])
            print(f"  {o['engine']}: {o['decisions']} decisions, {o['decisions'] / o['seconds']:,.0f}/s", flush=True)
    a, b = args.roots
    ma, mb = statistics.median(rates[a]), statistics.median(rates[b])
    same = hashes[a] == hashes[b] and len(hashes[a]) == 1
    print(f"{mode}: A {ma:,.0f}/s  B {mb:,.0f}/s  B/A {mb / ma:.2f}  (medians of {args.rounds} alternating rounds); "
          f"games identical: {same}")


if __name__ == "__main__":
    main()
