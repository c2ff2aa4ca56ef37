"""Random play through ``engine.legal_actions`` and ``engine.apply`` for counting the engine's instructions with
Valgrind's callgrind (docs/engine_core.md, section 14): run it under callgrind with collection toggled on the two
entry points, so that the count is the engine's alone (no start-up, no driver), and divide by the decisions it
prints.

    PYTHONHASHSEED=1 PYTHONPATH=TREE valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        --toggle-collect='__pyx_pw_14blackangel_env_6engine_6phases_11apply' \\
        --toggle-collect='__pyx_pw_14blackangel_env_6engine_6phases_5legal_actions' \\
        python benchmarks/engine_instructions.py --games 4

(the toggles name the compiled entry points: ``python -c "from blackangel_env import _compiled;
print(_compiled.status())"`` must say ``compiled``). ``--games`` games of each player count 1-4, base rules, seeds
``1000 * players + game``, the moves from one generator of seed 0.
"""

from __future__ import annotations

import argparse

import numpy as np

from blackangel_env import engine


def play(games: int) -> int:
    """Play ``games`` random games of each player count; the number of decisions."""
    rng = np.random.default_rng(0)
    decisions = 0
    for g in range(games):
        for n in (1, 2, 3, 4):
            s = engine.new_game(num_players=n, seed=1000 * n + g)
            while not s.terminal:
                legal = engine.legal_actions(s)
                engine.apply(s, legal[int(rng.random() * len(legal))])
                decisions += 1
    return decisions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="games of each player count (default 4)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    print(f"{play(args.games)} decisions")


if __name__ == "__main__":
    main()
