"""The compiled package and its interpreted sources play the same games (issue 13: one implementation of the
rules, the interpreted path the same source, checked step by step).

Seeded random games in every configuration (1-4 players, base and advanced rules, every Hal difficulty) are
played here, through the compiled modules, and in a subprocess with ``BLACKANGEL_INTERPRETED=1``, which loads
the ``.py`` source of every module of ``blackangel_env._compiled.COMPILED_MODULES``.  After every step each side
hashes the legal actions, the state buffer and the generator's state; the two lists of hashes must be equal.
The invariant checker (also compiled) must give the same verdict, message included, on both sides, on positions of
random games and on corrupted copies of them, the agents' position value (``agents.value.evaluate``, also
compiled) the same floats, and the observations the same bytes (compiled, the plan runs in ``encoding_kernel``;
interpreted, ``encoding`` takes its vectorised numpy path).
Skipped when nothing is compiled (an install without a compiler, or ``BLACKANGEL_NO_COMPILE=1``): then both sides
would run the same interpreted code.  ``benchmarks/random_games.py --both-ways`` is the same comparison at any size
(its own tests are below).  Running this file as a script prints its side's hashes as JSON.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))

from blackangel_env import _compiled, engine  # noqa: E402
from blackangel_env.constants import HAL_DIFFICULTIES  # noqa: E402
from blackangel_env.agents.value import evaluate  # noqa: E402
from blackangel_env.encoding import encode_observation  # noqa: E402
from blackangel_env.invariants import check_invariants  # noqa: E402


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


rg = _script("random_games")          # step_hash: the per-step hash of --both-ways
ab = _script("invariants_ab")         # random positions and corrupted copies of them

# (players, advanced, Hal difficulty, seed): every Hal difficulty solo in both rule sets, 2-4 players twice each.
GAMES = ([(1, adv, d, 500 + 10 * i + adv) for i, d in enumerate(HAL_DIFFICULTIES) for adv in (False, True)]
         + [(n, adv, "standard", 600 + 10 * n + 2 * g + adv) for n in (2, 3, 4) for adv in (False, True)
            for g in range(2)])


def play(n: int, advanced: bool, difficulty: str, seed: int) -> list[str]:
    """One game of uniformly random legal play; a hash of (legal actions, buffer, generator state) per step,
    the initial position first."""
    s = engine.new_game(num_players=n, advanced=advanced, hal_difficulty=difficulty, seed=seed)
    rng = np.random.default_rng(seed + 1)
    out = []
    while True:
        legal = [] if s.terminal else engine.legal_actions(s)
        out.append(rg.step_hash(s, legal))
        if s.terminal:
            return out
        engine.apply(s, legal[int(rng.integers(len(legal)))])


def invariant_verdicts() -> list[str]:
    """The invariant checker's verdict (``"ok"`` or the error and its message) on positions of 16 random games
    and 4 corrupted copies of each (``benchmarks/invariants_ab.py``)."""
    positions = ab.random_positions(16, seed=700)
    rng = np.random.default_rng(700)
    cases = positions + [ab.corrupted(s, rng, positions) for s in positions for _ in range(4)]
    return [ab.verdict(check_invariants, t) for t in cases]


def position_values() -> list[str]:
    """``agents.value.evaluate`` of every seat on positions of 16 random games, with the default weights and with
    the heuristic's kind of overrides, as exact float representations."""
    out = []
    for s in ab.random_positions(16, seed=800):
        for p in range(s.num_players):
            out.append(repr(evaluate(s, p)))
            out.append(repr(evaluate(s, p, w_good=0.7, w_tech_tile=1.3, w_vp_tile=2.4, adv_fill=0.45)))
    return out


def observation_hashes() -> list[str]:
    """A hash of ``encode_observation`` of every seat on positions of 16 random games."""
    return [hashlib.sha256(encode_observation(s, p).tobytes()).hexdigest()[:16]
            for s in ab.random_positions(16, seed=900) for p in range(s.num_players)]


def play_all() -> dict:
    return {"status": _compiled.status(), "games": [play(*g) for g in GAMES], "verdicts": invariant_verdicts(),
            "values": position_values(), "observations": observation_hashes()}


def test_compiled_and_interpreted_play_the_same_games():
    import pytest

    compiled = _compiled.compiled()
    if not compiled:
        pytest.skip("nothing is compiled here (no extension built: no compiler, BLACKANGEL_NO_COMPILE=1 or "
                    f"BLACKANGEL_INTERPRETED=1; status {_compiled.status()}), so there is no second path to compare")
    r = subprocess.run([sys.executable, __file__], cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "BLACKANGEL_INTERPRETED": "1", "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    other = json.loads(r.stdout)
    assert set(other["status"].values()) == {"interpreted (BLACKANGEL_INTERPRETED=1)"}, other["status"]
    mine = play_all()
    assert mine["status"] == {m: "compiled" for m in _compiled.COMPILED_MODULES}, mine["status"]
    steps = 0
    for g, a, b in zip(GAMES, mine["games"], other["games"]):
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        assert first is None and len(a) == len(b), (
            f"game {g}: compiled and interpreted differ from step {first} (lengths {len(a)}, {len(b)})")
        steps += len(a)
    assert len(other["games"]) == len(GAMES) and steps > 20 * len(GAMES)
    # the invariant checker, compiled and interpreted: the same verdict and message on every position, most of
    # the corrupted copies refused
    first = next((i for i, (x, y) in enumerate(zip(mine["verdicts"], other["verdicts"])) if x != y), None)
    assert first is None and len(mine["verdicts"]) == len(other["verdicts"]), (
        f"case {first}: compiled {mine['verdicts'][first]!r}, interpreted {other['verdicts'][first]!r}")
    refused = [v for v in mine["verdicts"] if v != "ok"]
    assert len(refused) > len(mine["verdicts"]) // 2 and all(v.startswith("InvariantError: ") for v in refused)
    # the agents' position value, compiled and interpreted: the same floats to the last bit
    assert len(mine["values"]) == len(other["values"]) > 400
    first = next((i for i, (x, y) in enumerate(zip(mine["values"], other["values"])) if x != y), None)
    assert first is None, f"value {first}: compiled {mine['values'][first]}, interpreted {other['values'][first]}"
    # the observations, compiled (encoding_kernel) and interpreted (the numpy path): the same bytes
    assert len(mine["observations"]) == len(other["observations"]) > 200
    first = next((i for i, (x, y) in enumerate(zip(mine["observations"], other["observations"])) if x != y), None)
    assert first is None, f"observation {first} differs between compiled and interpreted"


def _sweep(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "random_games.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_the_sweep_plays_both_ways():
    """``benchmarks/random_games.py --both-ways``, the long run of this test: every game of the sweep also played
    interpreted, its step hashes compared."""
    import pytest

    if not _compiled.compiled():
        pytest.skip(f"nothing is compiled here (status {_compiled.status()})")
    r = _sweep("--games", "3", "--players", "1,3", "--rules", "advanced", "--play", "weighted", "--workers", "2",
               "--both-ways")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert [ln.split()[:3] for ln in lines[:2]] == [["players=1", "advanced=True", "games=3"],
                                                    ["players=3", "advanced=True", "games=3"]]
    assert all("both_ways=identical" in ln for ln in lines[:2])
    assert lines[-1].startswith("all invariants held: 6 games in") and lines[-1].endswith("identical at every step")


def test_the_sweep_names_the_first_differing_step():
    assert rg._first_difference(["a", "b", "c"], ["a", "b", "c"]) is None
    assert rg._first_difference(["a", "b", "c"], ["a", "x", "c"]) == 1
    assert rg._first_difference(["a", "b"], ["a", "b", "c"]) == 2
    # a game's trace: one hash per position, the new game first and the final position last
    trace: list[str] = []
    s, taken = rg.play_game(2, False, 3, rg.Uniform(np.random.default_rng(3)), check=False, trace=trace)
    assert len(trace) == len(taken) + 1 and trace[-1] == rg.step_hash(s, [])


def test_the_sweep_refuses_bad_arguments():
    for args, message in ((["--workers", "0"], "--workers must be 1 or more, not 0"),
                          (["--players", "1,5"], "--players must be player counts separated by commas (1-4)"),
                          (["--players", "two"], "--players must be player counts separated by commas (1-4)"),
                          (["--rules", "basic"], "--rules must be base, advanced or base,advanced, not 'basic'"),
                          (["--games", "0"], "--games must be 1 or more, not 0")):
        r = _sweep(*args)
        assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


if __name__ == "__main__":
    print(json.dumps(play_all()))
