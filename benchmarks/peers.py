"""This engine's random-play speed side by side with two peers, in one run: catanatron (Settlers of Catan, pure
Python) and OpenSpiel's backgammon (C++ driven from Python through pyspiel).

Every engine plays uniformly random legal moves until it has made the same number of decisions (``--decisions``;
whole games, then the last one cut at the count).  A decision is one choice by a player, with the legal actions
computed before it: here ``engine.legal_actions`` + the checked ``engine.apply`` (as ``benchmarks/bench.py``);
catanatron ``Game.play_tick`` (a RandomPlayer choosing among ``playable_actions``; ROLL and END_TURN count, as in
``Game.play``); OpenSpiel ``legal_actions`` + ``apply_action``, its chance nodes (dice) sampled and applied in
the timed loop but not counted.  Setting up a new game is not timed.  The engines alternate within each repeat;
the figures are medians over the repeats, and the ratios compare medians taken in the same run.

The peers are not dependencies of this project: install them in a scratch environment with this project's
requirements (``pip install catanatron open_spiel``, tested with catanatron 3.2.1 and open_spiel 2.0.2).  A peer
that is not installed is named as missing and left out; the script still measures this engine.

Usage: ``python benchmarks/peers.py [--decisions 20000] [--repeats 5] [--players 2,4] [--json]``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackangel_env import engine  # noqa: E402
from blackangel_env.components import default_components  # noqa: E402


def blackangel(players: int, decisions: int, seed: int) -> float:
    """Seconds for ``decisions`` random legal decisions of this engine (legal_actions + checked apply)."""
    rng = np.random.default_rng(seed)
    done = 0
    spent = 0.0
    g = 0
    while done < decisions:
        s = engine.new_game(num_players=players, seed=seed * 100_000 + g)
        g += 1
        t0 = time.perf_counter()
        while not s.terminal and done < decisions:
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.random() * len(legal))])
            done += 1
        spent += time.perf_counter() - t0
    return spent


def catanatron(players: int, decisions: int, seed: int) -> float:
    from catanatron import Color, Game, RandomPlayer
    from catanatron.game import TURNS_LIMIT

    colours = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE][:players]
    random.seed(seed)                       # RandomPlayer draws with the random module
    done = 0
    spent = 0.0
    g = 0
    while done < decisions:
        game = Game([RandomPlayer(c) for c in colours], seed=seed * 100_000 + g)
        g += 1
        t0 = time.perf_counter()
        while game.winning_color() is None and game.state.num_turns < TURNS_LIMIT and done < decisions:
            game.play_tick()
            done += 1
        spent += time.perf_counter() - t0
    return spent


def backgammon(players: int, decisions: int, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    done = 0
    spent = 0.0
    while done < decisions:
        s = game.new_initial_state()
        t0 = time.perf_counter()
        while not s.is_terminal() and done < decisions:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                x = rng.random()
                for a, p in outcomes:
                    x -= p
                    if x < 0:
                        break
                s.apply_action(a)
                continue
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.random() * len(legal))])
            done += 1
        spent += time.perf_counter() - t0
    return spent


PEERS = {"catanatron": ("catanatron", catanatron), "openspiel_backgammon": ("open_spiel", backgammon)}
IMPORTS = {"catanatron": "catanatron", "openspiel_backgammon": "pyspiel"}


def available() -> tuple[dict, dict]:
    """(peer -> package version) for the installed peers, (peer -> why not) for the missing ones."""
    have, missing = {}, {}
    for name, (dist, _) in PEERS.items():
        try:
            __import__(IMPORTS[name])
            have[name] = importlib.metadata.version(dist)
        except Exception as e:            # noqa: BLE001 - any failure to import means the peer is not usable
            missing[name] = f"{type(e).__name__}: {e} (pip install {dist})"
    return have, missing


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=20000, help="decisions per engine and repeat")
    ap.add_argument("--repeats", type=int, default=5, help="alternating repeats (medians are reported)")
    ap.add_argument("--players", default="2,4", help="player counts for this engine and catanatron (2-4)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    try:
        counts = [int(x) for x in args.players.split(",")]
    except ValueError:
        ap.error(f"--players must be comma-separated integers, got {args.players!r}")
    if any(n not in (2, 3, 4) for n in counts):
        ap.error(f"--players: each count must be 2, 3 or 4 (the player counts both games have), got {args.players!r}")
    if args.decisions < 1 or args.repeats < 1:
        ap.error("--decisions and --repeats must be at least 1")
    have, missing = available()
    for name, why in missing.items():
        print(f"peer {name} is missing, left out: {why}", file=sys.stderr)

    default_components()
    runs: dict[str, tuple] = {}
    for n in counts:
        runs[f"blackangel_{n}p"] = (blackangel, n)
        if "catanatron" in have:
            runs[f"catanatron_{n}p"] = (catanatron, n)
    if "openspiel_backgammon" in have:
        runs["openspiel_backgammon"] = (backgammon, 2)
    for fn, n in runs.values():               # warm up: imports, data files, caches
        fn(n, 200, 99)
    rates: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(args.repeats):
        for key, (fn, n) in runs.items():
            rates[key].append(args.decisions / fn(n, args.decisions, r))
    med = {k: round(statistics.median(v)) for k, v in rates.items()}
    ratios = {}
    for n in counts:
        if f"catanatron_{n}p" in med:
            ratios[f"blackangel_{n}p / catanatron_{n}p"] = round(med[f"blackangel_{n}p"] / med[f"catanatron_{n}p"], 2)
    if "openspiel_backgammon" in med and 2 in counts:
        ratios["blackangel_2p / openspiel_backgammon"] = round(med["blackangel_2p"] / med["openspiel_backgammon"], 2)
    out = {
        "decisions_per_s": med,
        "range": {k: [round(min(v)), round(max(v))] for k, v in rates.items()},
        "ratios": ratios,
        "decisions": args.decisions,
        "repeats": args.repeats,
        "peers": have,
        "missing": sorted(missing),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"random legal play, {args.decisions:,} decisions per engine, medians of {args.repeats} alternating "
              f"repeats")
        print(f"{'engine':<24} {'decisions/s':>12} {'range':>20}")
        for k, v in med.items():
            lo, hi = out["range"][k]
            print(f"{k:<24} {v:>12,} {f'{lo:,}-{hi:,}':>20}")
        for k, v in ratios.items():
            print(f"{k}: {v:.2f}")
        if missing:
            print(f"missing peers (not measured): {', '.join(sorted(missing))}")
    return out


if __name__ == "__main__":
    main()
