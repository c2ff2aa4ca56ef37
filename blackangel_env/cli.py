"""The ``blackangel`` command line.

    blackangel demo [--config FILE] [--players 3] [--seed 1] [--advanced] [--hal standard] [--every turn|round|end] [--viewer N]
    blackangel bench [--seconds 3] [--json]

``demo`` plays a complete seeded game with uniformly random legal moves (the moves come from a generator
seeded with the same seed), printing the board as it goes, every move and VP change with its cause, and the
final scores with their breakdown by source.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from . import engine
from .config import ConfigError, GameConfig
from .constants import HAL_DIFFICULTIES
from .render import render
from .scoring import score_breakdown
from .state import BOT, M_ROUND, M_TURN_PLAYER


def _demo(args: argparse.Namespace) -> int:
    try:
        if args.config:
            config = GameConfig.from_yaml(args.config)
        else:
            config = GameConfig(num_players=args.players, advanced=args.advanced, hal_difficulty=args.hal)
    except ConfigError as e:
        print(f"blackangel demo: {e}", file=sys.stderr)
        return 2
    s = engine.new_game(config, seed=args.seed, log=True)
    rng = np.random.default_rng(args.seed)
    shown = 0
    last_key = None
    while not s.terminal:
        key = (int(s.m[M_ROUND]), int(s.m[M_TURN_PLAYER])) if args.every == "turn" else int(s.m[M_ROUND])
        if args.every != "end" and key != last_key:
            print("\n".join(s.log[shown:]))
            shown = len(s.log)
            print(render(s, args.viewer))
            last_key = key
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    print("\n".join(s.log[shown:]))
    print(render(s, args.viewer))
    print("\nFinal scores")
    for p, row in enumerate(score_breakdown(s)):
        parts = ", ".join(f"{k} {v:+d}" for k, v in row.items() if k != "total" and v)
        print(f"  player_{p}: {row['total']} VP ({parts})")
    if config.solo:
        print(f"  Hal: {int(s.vp[BOT])} VP")
    won = engine.winners(s)
    if config.solo:
        print("player_0 beats Hal" if won else "Hal wins")
    else:
        print("winner(s): " + ", ".join(f"player_{p}" for p in won))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    try:
        from benchmarks import bench
    except ImportError:
        print("blackangel bench: the benchmarks/ folder of a source checkout is needed", file=sys.stderr)
        return 2
    argv = ["--seconds", str(args.seconds)] + (["--json"] if args.json else [])
    bench.main(argv)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="blackangel", description="Black Angel, the board game, for RL.")
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="play a complete seeded game with random legal moves, printing the board")
    d.add_argument("--config", help="a game config YAML (configs/games/*.yaml); overrides the options below")
    d.add_argument("--players", type=int, default=3, help="1 (solo against Hal) to 4; default 3")
    d.add_argument("--seed", type=int, default=1, help="game and move seed; default 1")
    d.add_argument("--advanced", action="store_true", help="use the advanced rules")
    d.add_argument("--hal", choices=HAL_DIFFICULTIES, default="standard", help="Hal's difficulty (solo)")
    d.add_argument("--every", choices=("turn", "round", "end"), default="round",
                   help="print the board at every turn, every round (default) or only at the end")
    d.add_argument("--viewer", type=int, default=None, help="render from this seat's view (default: all)")
    d.set_defaults(func=_demo)
    b = sub.add_parser("bench", help="engine throughput benchmark (source checkout)")
    b.add_argument("--seconds", type=float, default=3.0)
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=_bench)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
