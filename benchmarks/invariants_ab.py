"""The invariant checker of another git revision against this tree's, on corrupted copies of random positions.

    python benchmarks/invariants_ab.py 75425f0 --games 400       # same verdict and message every time?

Plays ``--games`` seeded random games (1-4 players, base and advanced rules), keeps about one position in 20 and
the last, and makes ``--copies`` corrupted copies of each (``corrupted``: one to three entries of the buffer
changed: a value drawn near the field's range, a step of one, two entries swapped, a field copied from another
position, or a common code).  Each copy is checked by ``blackangel_env.invariants.check_invariants`` of this tree
and by the checker of ``REV`` (its ``blackangel_env/invariants.py``, read with ``git show``, run against this
tree's package); the verdicts (passed, or the exception's type, and its message for an ``InvariantError``) must
be equal.  Prints the counts and the mean time of each checker per position, and exits 1 on the first
difference.  ``tests/test_compiled_equivalence.py`` uses ``corrupted`` to compare the compiled checker with its
interpreted source.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from blackangel_env import engine  # noqa: E402
from blackangel_env import invariants  # noqa: E402
from blackangel_env import state as S  # noqa: E402

# codes that mean something somewhere in the buffer (none, seats, locations, ids)
_CODES = (-3, -2, -1, 0, 1, 2, 3, 4, 10, 20, 30, 40, 60, 75, 100)


def random_positions(games: int, seed: int = 0) -> list[S.State]:
    """About one position in 20 of ``games`` uniformly random games, and the last of each (configurations in
    turn: 1-4 players, then the advanced rules)."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        s = engine.new_game(num_players=1 + g % 4, advanced=bool(g // 4 % 2), seed=seed + g)
        while not s.terminal:
            if rng.random() < 0.05:
                out.append(s.copy())
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.integers(len(legal)))])
        out.append(s.copy())
    return out


def corrupted(s: S.State, rng: np.random.Generator, others: list[S.State]) -> S.State:
    """A copy of ``s`` with one to three buffer entries changed (a register three times in ten)."""
    t = s.copy()
    buf = t.buf
    views = S._views(len(t.comp.display_costs))
    names = list(views)
    for _ in range(1 + int(rng.integers(3))):
        kind = int(rng.integers(5))
        name = names[int(rng.integers(len(names)))] if rng.random() < 0.7 else "m"
        _, a, b = views[name]
        i = a + int(rng.integers(b - a))
        if kind == 0:                                  # a value near the field's range
            lo, hi = next(((x, y) for f, x, y in invariants._FIELD_RANGES if f == name), (-40, 119))
            buf[i] = int(rng.integers(lo - 2, hi + 3))
        elif kind == 1:                                # one more or one less
            buf[i] = buf[i] + (1 if rng.random() < 0.5 else -1)
        elif kind == 2:                                # two entries of the field swapped
            j = a + int(rng.integers(b - a))
            buf[i], buf[j] = buf[j], buf[i]
        elif kind == 3:                                # the field of another position of the same size
            o = others[int(rng.integers(len(others)))]
            if len(o.buf) == len(buf) and o.m[S.M_N_PLAYERS] == t.m[S.M_N_PLAYERS]:
                buf[a:b] = o.buf[a:b]
        else:
            buf[i] = int(rng.choice(_CODES))
    return t


def verdict(check, s: S.State) -> str:
    """``"ok"``, ``"InvariantError: <message>"`` or the type of another exception."""
    try:
        check(s)
        return "ok"
    except AssertionError as e:                        # InvariantError of either checker
        return f"{type(e).__name__}: {e}"
    except Exception as e:  # noqa: BLE001 - compared, not handled
        return type(e).__name__


def _load_revision(rev: str):
    src = subprocess.run(["git", "show", f"{rev}:blackangel_env/invariants.py"], cwd=ROOT, capture_output=True,
                         text=True)
    if src.returncode != 0:
        raise SystemExit(f"cannot read blackangel_env/invariants.py at {rev!r}: {src.stderr.strip()}")
    path = Path(tempfile.mkdtemp()) / "invariants_other.py"
    path.write_text(src.stdout)
    spec = importlib.util.spec_from_file_location("blackangel_env._invariants_other", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="git revision whose blackangel_env/invariants.py to compare with")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--copies", type=int, default=6, help="corrupted copies per position")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for name in ("games", "copies"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be 1 or more, not {getattr(args, name)}")
    other = _load_revision(args.rev)
    positions = random_positions(args.games, args.seed)
    rng = np.random.default_rng(args.seed)
    cases = [corrupted(s, rng, positions) for s in positions for _ in range(args.copies)]
    mine = [verdict(invariants.check_invariants, t) for t in positions + cases]
    theirs = [verdict(other.check_invariants, t) for t in positions + cases]
    for i, (x, y) in enumerate(zip(mine, theirs)):
        if x != y:
            print(f"case {i}: this tree {x!r}, {args.rev} {y!r}")
            raise SystemExit(1)
    timing = {}
    for label, check in (("this tree", invariants.check_invariants), (args.rev, other.check_invariants)):
        t0 = time.perf_counter()
        for s in positions:
            check(s)
        timing[label] = (time.perf_counter() - t0) / len(positions) * 1e6
    refused = sum(v != "ok" for v in mine[len(positions):])
    print(f"{len(positions)} positions (all pass both), {len(cases)} corrupted copies ({refused} refused): the "
          f"same verdict and message every time; check_invariants per position: "
          + ", ".join(f"{k} {v:.1f} us" for k, v in timing.items()))


if __name__ == "__main__":
    main()
