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

    python benchmarks/random_games.py --games 12500 --workers 2             # 100,000 games on both cores
    python benchmarks/random_games.py --games 200 --workers 2 --both-ways   # compiled against interpreted

``--workers N`` plays each configuration's seeds in N worker processes, one block of consecutive seeds each
(``--play weighted`` then keeps one set of counts per block, so its games differ from a single-process run).
``--both-ways`` also plays every game through the interpreted source of the compiled modules
(``BLACKANGEL_INTERPRETED=1``, issue 13: one implementation of the rules) and compares a hash of the legal
actions, the state buffer and the generator's state after every step; a difference names the configuration, the
seed and the first step where the two paths part.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
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


def step_hash(s: engine.State, legal: list[int]) -> str:
    """A hash of a position as the two paths of ``--both-ways`` compare it: the legal actions, the state buffer and
    the generator's state."""
    h = hashlib.sha256(np.asarray(legal, dtype=np.int32).tobytes())
    h.update(s.buf.tobytes())
    h.update(json.dumps(s.rng_state(), sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]


def play_game(num_players: int, advanced: bool, seed: int, choose, check: bool = True, masks: bool = False,
              limit: int = 10_000, hal_difficulty: str = "standard", lookahead: bool = False,
              trace: list[str] | None = None) -> tuple[engine.State, list[int]]:
    """Play one game from ``new_game(num_players, advanced, hal_difficulty, seed)`` with ``choose(legal)``,
    checking that every live position has a legal action (and the invariants after every action if ``check``;
    with ``masks`` every legal action is also applied on a copy, its invariants checked; with ``lookahead`` the
    same without the invariants: each action must lead to a position that is over or offers an action).
    ``trace``, if given, receives ``step_hash`` of every position, the first and the last included.
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
        if trace is not None:
            trace.append(step_hash(s, legal))
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
    if trace is not None:
        trace.append(step_hash(s, []))
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
          first_seed: int = 0, lookahead: bool = False, check: bool = True,
          traces: list[list[str]] | None = None) -> dict:
    """Play seeds ``first_seed`` .. ``first_seed + games - 1`` of one configuration (see ``play_game``); with
    ``traces``, append each game's step hashes to it.  A failure exits with the coordinates that replay it."""
    decisions = 0
    wins_hal = 0
    offered = np.zeros(len(A.BLOCKS), dtype=np.int64)
    t0 = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        rng = np.random.default_rng(seed)
        choose = Uniform(rng) if play == "uniform" else RareFirst(rng, offered)
        trace = None if traces is None else []
        try:
            s, taken = play_game(num_players, advanced, seed, choose, check=check, masks=masks,
                                 lookahead=lookahead, trace=trace)
        except GameFailure as e:
            raise SystemExit(f"FAIL players={num_players} advanced={advanced} seed={seed} play={play}: {e}") from e
        if traces is not None:
            traces.append(trace)
        decisions += len(taken)
        if num_players == 1 and not engine.winners(s):
            wins_hal += 1
    out = {"players": num_players, "advanced": advanced, "games": games, "play": play, "decisions": decisions,
           "seconds": round(time.perf_counter() - t0, 1)}
    if num_players == 1:
        out["hal_wins"] = wins_hal
    return out


def _run_block(block: dict, interpreted: bool) -> dict:
    """One block of seeds (``sweep``'s arguments, with ``traces`` a flag) in a fresh process of this script,
    compiled or with ``BLACKANGEL_INTERPRETED=1``; its summary and, if asked, its traces."""
    env = {**os.environ, "BLACKANGEL_INTERPRETED": "1" if interpreted else "0"}
    r = subprocess.run([sys.executable, __file__, "--block", json.dumps(block)], env=env, capture_output=True,
                       text=True)
    if r.returncode != 0:      # a failing game exits with its replay coordinates on stderr
        raise SystemExit(r.stderr.strip() or f"a worker exited with code {r.returncode}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def _block_main(spec: str) -> None:
    """``--block JSON``: play one block (``_run_block``'s child) and print its result as one JSON line."""
    block = json.loads(spec)
    traces: list[list[str]] | None = [] if block.pop("traces") else None
    out = sweep(**block, traces=traces)
    if traces is not None:
        out["traces"] = traces
    from blackangel_env import _compiled
    out["status"] = sorted(set(_compiled.status().values()))
    print(json.dumps(out))


def _first_difference(a: list[str], b: list[str]) -> int | None:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def parallel_sweep(num_players: int, advanced: bool, games: int, workers: int, both_ways: bool = False,
                   masks: bool = False, play: str = "uniform", first_seed: int = 0,
                   lookahead: bool = False) -> dict:
    """``sweep`` of one configuration in ``workers`` processes, one block of consecutive seeds each; with
    ``both_ways`` every block is also played interpreted and the step hashes of every game compared."""
    n_blocks = max(1, min(workers, games))
    bounds = [first_seed + games * i // n_blocks for i in range(n_blocks + 1)]
    blocks = [dict(num_players=num_players, advanced=advanced, games=bounds[i + 1] - bounds[i], masks=masks,
                   play=play, first_seed=bounds[i], lookahead=lookahead, check=True, traces=both_ways)
              for i in range(n_blocks) if bounds[i + 1] > bounds[i]]
    jobs = [(b, False) for b in blocks]
    if both_ways:      # the interpreted side only plays: the compiled side checks the invariants
        jobs += [({**b, "masks": False, "lookahead": False, "check": False}, True) for b in blocks]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda job: _run_block(*job), jobs))
    compiled, interpreted = results[:len(blocks)], results[len(blocks):]
    out = {"players": num_players, "advanced": advanced, "games": games, "play": play,
           "decisions": sum(r["decisions"] for r in compiled), "seconds": round(time.perf_counter() - t0, 1)}
    if num_players == 1:
        out["hal_wins"] = sum(r["hal_wins"] for r in compiled)
    if both_ways:
        for b, c, i in zip(blocks, compiled, interpreted):
            if c["status"] != ["compiled"] or i["status"] != ["interpreted (BLACKANGEL_INTERPRETED=1)"]:
                raise SystemExit(f"--both-ways needs the compiled modules built: the two sides ran as "
                                 f"{c['status']} and {i['status']} (blackangel_env._compiled.status())")
            for k, (ta, tb) in enumerate(zip(c["traces"], i["traces"])):
                step = _first_difference(ta, tb)
                if step is not None:
                    raise SystemExit(f"FAIL players={num_players} advanced={advanced} seed={b['first_seed'] + k} "
                                     f"play={play}: the compiled and the interpreted engine differ from step "
                                     f"{step} (0 = the new game; {len(ta)} and {len(tb)} positions)")
        out["both_ways"] = "identical"
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--players", default="1,2,3,4")
    ap.add_argument("--rules", default="base,advanced", help="base, advanced, or both as base,advanced (the default)")
    ap.add_argument("--play", choices=("uniform", "weighted"), default="uniform",
                    help="uniform random play, or play weighted toward rarely offered actions (RareFirst)")
    ap.add_argument("--masks", action="store_true", help="also apply every legal action of every state on a copy")
    ap.add_argument("--lookahead", action="store_true",
                    help="also check that every legal action leads to a position with a legal action (or the end)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (one block of seeds each)")
    ap.add_argument("--both-ways", action="store_true",
                    help="also play every game interpreted (BLACKANGEL_INTERPRETED=1) and compare every step")
    ap.add_argument("--block", help=argparse.SUPPRESS)      # internal: one worker's block, as JSON
    args = ap.parse_args(argv)
    if args.block is not None:
        return _block_main(args.block)
    if args.games < 1:
        ap.error(f"--games must be 1 or more, not {args.games}")
    if args.first_seed < 0:
        ap.error(f"--first-seed must be 0 or more, not {args.first_seed}")
    if args.workers < 1:
        ap.error(f"--workers must be 1 or more, not {args.workers}")
    try:
        counts = [int(x) for x in args.players.split(",")]
    except ValueError:
        ap.error(f"--players must be player counts separated by commas (1-4), not {args.players!r}")
    if not counts or any(n not in (1, 2, 3, 4) for n in counts):
        ap.error(f"--players must be player counts separated by commas (1-4), not {args.players!r}")
    rules_list = args.rules.split(",")
    if any(r not in ("base", "advanced") for r in rules_list):
        ap.error(f"--rules must be base, advanced or base,advanced, not {args.rules!r}")
    t0 = time.perf_counter()
    games = 0
    for n in counts:
        for rules in rules_list:
            if args.workers == 1 and not args.both_ways:
                r = sweep(n, rules == "advanced", args.games, args.masks, args.play, args.first_seed,
                          args.lookahead)
            else:
                r = parallel_sweep(n, rules == "advanced", args.games, args.workers, args.both_ways, args.masks,
                                   args.play, args.first_seed, args.lookahead)
            games += r["games"]
            print(" ".join(f"{k}={v}" for k, v in r.items()), flush=True)
    print(f"all invariants held: {games} games in {time.perf_counter() - t0:.1f} s"
          + (", compiled and interpreted identical at every step" if args.both_ways else ""))


if __name__ == "__main__":
    main()
