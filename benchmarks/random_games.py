"""Play many seeded random games and check every invariant after every action.

    python benchmarks/random_games.py --games 1000            # 1-4 players, base and advanced rules
    python benchmarks/random_games.py --games 1000 --masks    # also: every legal action applies (on a copy)

For each player count and rule set, plays ``--games`` games (seeds 0..games-1) with uniformly random legal
actions, runs ``invariants.check_invariants`` after every action and at the end checks the final scores
against the VP log.  Prints one line per configuration and exits non-zero on the first failure, naming the
configuration, seed and step so the game can be replayed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackangel_env import engine  # noqa: E402
from blackangel_env.invariants import check_invariants  # noqa: E402


def _check_masks(s) -> None:
    """Every action of the mask applies on a copy and keeps the invariants."""
    for a in engine.legal_actions(s):
        t = s.copy()
        engine.apply(t, a)
        check_invariants(t)


def sweep(num_players: int, advanced: bool, games: int, masks: bool = False) -> dict:
    decisions = 0
    wins_hal = 0
    t0 = time.perf_counter()
    for seed in range(games):
        s = engine.new_game(num_players=num_players, advanced=advanced, seed=seed)
        rng = np.random.default_rng(seed)
        step = 0
        while not s.terminal:
            legal = engine.legal_actions(s)
            a = legal[int(rng.integers(len(legal)))]
            try:
                if masks:
                    _check_masks(s)
                engine.apply(s, a)
                check_invariants(s)
            except Exception as e:  # noqa: BLE001 - report the replayable coordinates, then re-raise
                raise SystemExit(f"FAIL players={num_players} advanced={advanced} seed={seed} step={step} "
                                 f"action={a}: {type(e).__name__}: {e}") from e
            step += 1
            if step > 10_000:
                raise SystemExit(f"FAIL players={num_players} advanced={advanced} seed={seed}: no end")
        decisions += step
        if num_players == 1 and not engine.winners(s):
            wins_hal += 1
    out = {"players": num_players, "advanced": advanced, "games": games, "decisions": decisions,
           "seconds": round(time.perf_counter() - t0, 1)}
    if num_players == 1:
        out["hal_wins"] = wins_hal
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", default="1,2,3,4")
    ap.add_argument("--rules", default="base,advanced", help="base, advanced or both")
    ap.add_argument("--masks", action="store_true", help="also apply every legal action of every state on a copy")
    args = ap.parse_args(argv)
    for n in (int(x) for x in args.players.split(",")):
        for rules in args.rules.split(","):
            r = sweep(n, rules == "advanced", args.games, args.masks)
            print(" ".join(f"{k}={v}" for k, v in r.items()), flush=True)
    print("all invariants held")


if __name__ == "__main__":
    main()
