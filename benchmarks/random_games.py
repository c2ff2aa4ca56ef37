"""Play many seeded random games and check every invariant after every action.

    python benchmarks/random_games.py --games 1000            # 1-4 players, base and advanced rules
    python benchmarks/random_games.py --games 1000 --masks    # also: every legal action applies (on a copy)
    python benchmarks/random_games.py --games 500 --play weighted --lookahead   # weighted toward rare actions

For each player count and rule set, plays ``--games`` games (seeds 0..games-1), runs
``invariants.check_invariants`` after every action and checks that every position that is not over has a legal
action.  ``--play uniform`` picks uniformly among the legal actions (``np.random.default_rng(seed)``);
``--play weighted`` uses ``RareFirst``, which prefers the kinds of action that are rarely offered (the owner's
free activation, a tile's either/or option, declining with DONE), so the paths uniform play almost never takes
are walked too.  Prints one line per configuration and exits non-zero on the first failure, printing the
configuration, the seed and the action list that reproduce it (``new_game(...)`` then ``apply`` each action).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackangel_env import actions as A  # noqa: E402
from blackangel_env import engine  # noqa: E402
from blackangel_env.invariants import check_invariants  # noqa: E402

_DONE_BLOCK = A.BLOCK_OF[A.DONE]


class Uniform:
    """Uniform random play: ``legal[rng.integers(len(legal))]``."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def __call__(self, legal: list[int]) -> int:
        return legal[int(self.rng.integers(len(legal)))]


class RareFirst:
    """Random play weighted toward rare actions.  Each game plays in one of four styles, drawn from its
    generator.  ``rare`` picks a block of actions (``actions.BLOCK_OF``) with weight inverse to the square of
    how often that block has been offered so far (counts shared by every game played with the same ``offered``
    array), then an action of the block uniformly; ``active`` does the same but never declines (DONE, PASS,
    SEQUENCE_B) when something else is offered, so cards reach Space and get used by others; ``done`` takes
    DONE whenever offered with probability 0.7 and plays ``rare`` otherwise; ``uniform`` is uniform play.
    Deterministic given the generator and the counts."""

    STYLES = ("rare", "active", "done", "uniform")
    _DECLINE = frozenset((A.BLOCK_OF[A.DONE], A.BLOCK_OF[A.PASS], A.BLOCK_OF[A.SEQUENCE_B]))

    def __init__(self, rng: np.random.Generator, offered: np.ndarray | None = None):
        self.rng = rng
        self.offered = np.zeros(len(A.BLOCKS), dtype=np.int64) if offered is None else offered
        self.style = self.STYLES[int(rng.integers(len(self.STYLES)))]

    def __call__(self, legal: list[int]) -> int:
        rng = self.rng
        if self.style == "uniform" or len(legal) == 1:
            return legal[int(rng.integers(len(legal)))]
        by_block: dict[int, list[int]] = {}
        for a in legal:
            by_block.setdefault(A.BLOCK_OF[a], []).append(a)
        blocks = list(by_block)
        for b in blocks:
            self.offered[b] += 1
        if self.style == "done" and _DONE_BLOCK in by_block and rng.random() < 0.7:
            return A.DONE
        if self.style == "active":
            keep = [b for b in blocks if b not in self._DECLINE]
            blocks = keep or blocks
        w = 1.0 / self.offered[blocks].astype(float) ** 2
        b = blocks[int(rng.choice(len(blocks), p=w / w.sum()))]
        acts = by_block[b]
        return acts[int(rng.integers(len(acts)))]


class GameFailure(AssertionError):
    """A random game broke a property; the message says how to replay it."""


def play_game(num_players: int, advanced: bool, seed: int, choose, check: bool = True, masks: bool = False,
              limit: int = 10_000, hal_difficulty: str = "standard", lookahead: bool = False,
              ) -> tuple[engine.State, list[int]]:
    """Play one game from ``new_game(num_players, advanced, hal_difficulty, seed)`` with ``choose(legal)``,
    checking that every live position has a legal action (and the invariants after every action if ``check``;
    with ``masks`` every legal action is also applied on a copy, its invariants checked; with ``lookahead`` the
    same without the invariants: each action must lead to a position that is over or offers an action).
    Raises ``GameFailure`` naming the configuration, the seed and the action prefix that reproduce a failure."""
    s = engine.new_game(num_players=num_players, advanced=advanced, hal_difficulty=hal_difficulty, seed=seed)
    taken: list[int] = []

    def fail(what: str) -> GameFailure:
        return GameFailure(
            f"{what}\n  replay: s = new_game(num_players={num_players}, advanced={advanced}, "
            f"hal_difficulty={hal_difficulty!r}, seed={seed}); then apply, in order ({len(taken)} actions):\n"
            f"  {taken}")

    while not s.terminal:
        legal = engine.legal_actions(s)
        if not legal:
            raise fail(f"no legal action in a live position (phase {engine.PHASE_NAMES[s.phase]}, "
                       f"seat {s.actor})")
        a = choose(legal)
        try:
            if masks or lookahead:
                _check_masks(s, invariants=masks)
            engine.apply(s, a)
            if check:
                check_invariants(s)
        except Exception as e:  # noqa: BLE001 - report the replayable coordinates
            what = A.action_to_string(a) if isinstance(a, int) and 0 <= a < A.NUM_ACTIONS else "not an action"
            raise fail(f"action {a} ({what}) after the actions below: "
                       f"{type(e).__name__}: {e}") from e
        taken.append(a)
        if len(taken) > limit:
            raise fail(f"no end after {limit} actions")
    return s, taken


def _check_masks(s, invariants: bool = True) -> None:
    """Every action of the mask applies on a copy, keeps the invariants (if ``invariants``) and leads to a
    position that is over or offers a legal action."""
    for a in engine.legal_actions(s):
        t = s.copy()
        engine.apply(t, a)
        if invariants:
            check_invariants(t)
        if not t.terminal and not engine.legal_actions(t):
            raise GameFailure(f"{A.action_to_string(a)} leads to a live position with no legal action "
                              f"(phase {engine.PHASE_NAMES[t.phase]})")


def sweep(num_players: int, advanced: bool, games: int, masks: bool = False, play: str = "uniform",
          first_seed: int = 0, lookahead: bool = False) -> dict:
    decisions = 0
    wins_hal = 0
    offered = np.zeros(len(A.BLOCKS), dtype=np.int64)
    t0 = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        rng = np.random.default_rng(seed)
        choose = Uniform(rng) if play == "uniform" else RareFirst(rng, offered)
        try:
            s, taken = play_game(num_players, advanced, seed, choose, masks=masks, lookahead=lookahead)
        except GameFailure as e:
            raise SystemExit(f"FAIL players={num_players} advanced={advanced} seed={seed} play={play}: {e}") from e
        decisions += len(taken)
        if num_players == 1 and not engine.winners(s):
            wins_hal += 1
    out = {"players": num_players, "advanced": advanced, "games": games, "play": play, "decisions": decisions,
           "seconds": round(time.perf_counter() - t0, 1)}
    if num_players == 1:
        out["hal_wins"] = wins_hal
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--players", default="1,2,3,4")
    ap.add_argument("--rules", default="base,advanced", help="base, advanced or both")
    ap.add_argument("--play", choices=("uniform", "weighted"), default="uniform",
                    help="uniform random play, or play weighted toward rarely offered actions (RareFirst)")
    ap.add_argument("--masks", action="store_true", help="also apply every legal action of every state on a copy")
    ap.add_argument("--lookahead", action="store_true",
                    help="also check that every legal action leads to a position with a legal action (or the end)")
    args = ap.parse_args(argv)
    for n in (int(x) for x in args.players.split(",")):
        for rules in args.rules.split(","):
            r = sweep(n, rules == "advanced", args.games, args.masks, args.play, args.first_seed, args.lookahead)
            print(" ".join(f"{k}={v}" for k, v in r.items()), flush=True)
    print("all invariants held")


if __name__ == "__main__":
    main()
