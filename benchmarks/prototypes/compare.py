"""Equality and side-by-side timing of the prototypes against the Python engine, in one run (build them first:
``python benchmarks/prototypes/build.py``; numba optional).  Measurement tool for docs/engine_core.md.

K1 (Command moves, the hex-board search behind the die-use look-ahead): the engine's ``_passable`` +
``_destinations`` against moves_pure (interpreted and compiled), moves_pyx, moves_capi, moves_numba on every
(position, seat, die value 1-6) of random games.  K2 (the chance path): rng_pyx against ``Generator.random``,
``Generator.shuffle`` on a list, ``Generator.integers`` and the engine's ``_roll_dice`` / ``_shuffled``; rng_pure
(one pure-mode source) compiled and interpreted against ``_roll`` / ``_shuffled``: the same values and the same
generator state afterwards.  Timings: medians of alternating repeats, per call, with the
ratio to the Python engine.

Usage: ``python benchmarks/prototypes/compare.py [--repeats 7] [--games 12]``.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from blackangel_env import engine  # noqa: E402
from blackangel_env.board import black_angel_hex, neighbours  # noqa: E402
from blackangel_env.constants import T_ASTEROID  # noqa: E402


def _source_module(name: str):
    """Import ``name``.py as interpreted source even when its compiled .so sits beside it."""
    loader = importlib.machinery.SourceFileLoader(name + "_interp", str(HERE / f"{name}.py"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def positions(games: int) -> list:
    rng = np.random.default_rng(5)
    out = []
    for g in range(games):
        for n in (1, 2, 3, 4):
            s = engine.new_game(num_players=n, advanced=bool(g % 2), seed=77 * g + n)
            k = 0
            while not s.terminal:
                if k % 3 == 0:
                    out.append(s.copy())
                legal = engine.legal_actions(s)
                engine.apply(s, legal[int(rng.random() * len(legal))])
                k += 1
    return out


_NB: dict[int, np.ndarray] = {}


def nb_table(n_strips: int) -> np.ndarray:
    t = _NB.get(n_strips)
    if t is None:
        nb = neighbours(n_strips)
        t = np.full((len(nb), 6), -1, np.int16)
        for h, adj in enumerate(nb):
            t[h, :len(adj)] = adj
        t = _NB[n_strips] = t.ravel()
    return t


def reference_moves(s, p: int, ev: int) -> list[int]:
    """The engine's answer: each own ship's destinations (1..ev moves), then a launch's."""
    n_strips = s.m.item(engine.M_N_STRIPS)
    passable = engine._passable(s)
    nh = n_strips * 5
    hs = s.hex_ship.ravel().tolist()
    out = []
    for h in range(nh):
        if hs[2 * h] == p or hs[2 * h + 1] == p:
            out += [h * 256 + d for d in engine._destinations(s, p, h, 1, ev, True, passable)]
    ba = black_angel_hex(n_strips)
    out += [255 * 256 + d for d in engine._destinations(s, p, ba, 1, ev, False, passable)]
    return out


def k1_tasks(states) -> list:
    tasks = []
    for s in states:
        n_strips = s.m.item(engine.M_N_STRIPS)
        nh = n_strips * 5
        ter = s.hex_terrain[:nh]
        hs = s.hex_ship[:nh].ravel()
        for p in range(s.config.num_players):
            for ev in range(1, 7):
                tasks.append((s, ter, hs, nb_table(n_strips), black_angel_hex(n_strips), p, ev))
    return tasks


def k1_variants() -> dict:
    out = {"python engine (_passable + _destinations)": lambda t: reference_moves(t[0], t[5], t[6])}
    pure = _source_module("moves_pure")
    out["pure-mode .py, interpreted"] = lambda t: pure.command_moves(t[1], t[2], t[3], t[4], T_ASTEROID, t[5], t[6])
    out["pure-mode .py, interpreted, on lists"] = lambda t: pure.command_moves(
        t[1].tolist(), t[2].tolist(), t[3].tolist(), t[4], T_ASTEROID, t[5], t[6])
    for name, mod in (("pure-mode .py, compiled by Cython", "moves_pure"), (".pyx, typed memoryviews", "moves_pyx"),
                      ("C through the CPython API", "moves_capi")):
        try:
            m = importlib.import_module(mod)
        except ImportError as e:
            print(f"  {name}: not built ({e})")
            continue
        if not m.__file__.endswith(".so"):
            print(f"  {name}: not built (found {m.__file__})")
            continue
        out[name] = (lambda f: lambda t: f(t[1], t[2], t[3], t[4], T_ASTEROID, t[5], t[6]))(m.command_moves)
    try:
        import moves_numba
        f = moves_numba.command_moves
        out["numba @njit"] = lambda t: f(t[1], t[2], t[3], t[4], T_ASTEROID, t[5], t[6]).tolist()
    except ImportError as e:
        print(f"  numba: not installed ({e})")
    return out


def timed(fn, tasks) -> float:
    t0 = time.perf_counter()
    for t in tasks:
        fn(t)
    return (time.perf_counter() - t0) / len(tasks) * 1e6


def run_k1(states, repeats: int) -> None:
    tasks = k1_tasks(states)
    variants = k1_variants()
    ref = [variants["python engine (_passable + _destinations)"](t) for t in tasks]
    print(f"K1 Command moves: {len(tasks)} (position, seat, value) cases from {len(states)} positions, "
          f"{sum(map(len, ref))} moves in all")
    for name, fn in variants.items():
        got = [list(fn(t)) for t in tasks]
        bad = sum(a != b for a, b in zip(got, ref))
        print(f"  {name}: {'equal on every case' if bad == 0 else f'{bad} cases DIFFER'}")
        if bad:
            i = next(i for i, (a, b) in enumerate(zip(got, ref)) if a != b)
            print(f"    first difference: seat {tasks[i][5]} value {tasks[i][6]}: {got[i]} != {ref[i]}")
    times = {name: [] for name in variants}
    sample = tasks[::max(1, len(tasks) // 1500)]   # the same cases for every variant (the interpreted ones are slow)
    order = list(variants)
    for r in range(repeats):                       # alternate the variants within each repeat, order rotated
        for name in order[r % len(order):] + order[:r % len(order)]:
            times[name].append(timed(variants[name], sample))
    batch = _numba_batch(tasks, ref, repeats)
    base = statistics.median(times["python engine (_passable + _destinations)"])
    best = min(times["python engine (_passable + _destinations)"])
    print(f"  {'variant':<44} {'us/call':>8} {'speed-up':>9} {'best us':>8} {'speed-up':>9}   ({len(sample)} cases, "
          f"median and best of {repeats} alternating repeats)")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"  {name:<44} {m:8.2f} {base / m:8.1f}x {min(ts):8.2f} {best / min(ts):8.1f}x")
    if batch is not None:
        print(f"  {'numba, all cases in one call (in the core)':<44} {batch:8.3f} {base / batch:8.1f}x   "
              f"({len(tasks)} cases)")


def _numba_batch(tasks, ref, repeats):
    """K1 over every case inside one numba call: checks the move counts, returns the median us per case."""
    try:
        import moves_numba
    except ImportError:
        return None
    n = len(tasks)
    ters = np.zeros((n, 35), np.int16)
    hss = np.full((n, 70), -1, np.int16)
    nbs = np.full((n, 210), -1, np.int16)
    nhs, bas, ps, evs = (np.zeros(n, np.int64) for _ in range(4))
    for i, (s, ter, hs, nb, ba, p, ev) in enumerate(tasks):
        nhs[i], bas[i], ps[i], evs[i] = len(ter), ba, p, ev
        ters[i, :len(ter)] = ter
        hss[i, :len(hs)] = hs
        nbs[i, :len(nb)] = nb
    args = (ters, hss, nbs, nhs, bas, T_ASTEROID, ps, evs)
    counts = moves_numba.batch_count(*args)
    bad = sum(int(c) != len(r) for c, r in zip(counts, ref))
    print(f"  numba, all cases in one call: {'move counts equal on every case' if not bad else f'{bad} DIFFER'}")
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        moves_numba.batch_count(*args)
        ts.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(ts)


def run_k2(states, repeats: int) -> None:
    import rng_pyx
    print("K2 chance path through numpy's bitgen_t (rng_pyx):")
    # doubles, one at a time and interleaved with Generator calls on the same generator
    n_ok = 0
    for seed in range(200):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        for k in (1, 3, 17, 100):
            assert [a.random() for _ in range(k)] == rng_pyx.doubles(b, k)
            assert a.integers(1000) == b.integers(1000)          # the stream goes on shared with Generator
            n_ok += k
        assert a.bit_generator.state == b.bit_generator.state
    print(f"  random_standard_uniform == Generator.random(): {n_ok} draws over 200 seeds, states equal")
    n_ok = 0
    for seed in range(200):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        for n in list(range(0, 41)) + [100, 1000]:
            items = list(range(7, 7 + n))
            x = list(items)
            if len(x) > 1:
                a.shuffle(x)
            y = rng_pyx.shuffled(b, items) if n > 1 else list(items)
            assert x == y, (seed, n)
            n_ok += 1
        assert a.bit_generator.state == b.bit_generator.state
    print(f"  random_interval Fisher-Yates == Generator.shuffle(list): {n_ok} shuffles (lengths 0-40, 100, 1000), "
          f"states equal")
    n_ok = 0
    for seed in range(100):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        for n in (1, 2, 3, 5, 6, 7, 12, 30, 100, 1000, 2**31 - 1, 2**32 - 1, 2**32, 2**40 + 3, 2**63 - 1):
            want = [int(a.integers(n)) for _ in range(50)]
            assert want == rng_pyx.integers(b, n, 50), (seed, n)
            n_ok += 50
        assert a.bit_generator.state == b.bit_generator.state
    print(f"  random_bounded_uint64_fill (Lemire) == Generator.integers(n): {n_ok} draws, bounds 1 to 2**63-1, "
          f"states equal")
    # the engine's _roll_dice on real positions
    rng = np.random.default_rng(3)
    cases = []
    for s in states:
        seats = list(range(s.config.num_players))
        wanted = [(int(rng.choice(seats)), int(rng.integers(3)), int(rng.integers(0, 4))) for _ in range(3)]
        cases.append((s, wanted))
    faces = np.asarray(states[0].comp.die_faces, dtype=np.int16)
    for s, wanted in cases:
        a, b = s.copy(), s.copy()
        engine._roll_dice(a, wanted, penalise=False)
        rng_pyx.roll_dice(b.rng, b.die_owner, b.die_damaged, b.die_reserved, b.die_value, faces, wanted)
        assert np.array_equal(a.buf, b.buf) and a.rng_state() == b.rng_state()
    print(f"  roll_dice == engine._roll_dice (penalise=False): {len(cases)} positions, buffers and generator "
          f"states equal")
    # timings: same states, fresh copies outside the timed loops
    def t_engine_roll(cs):
        t0 = time.perf_counter()
        for s, w in cs:
            engine._roll_dice(s, w, penalise=False)
        return time.perf_counter() - t0

    def t_pyx_roll(cs):
        t0 = time.perf_counter()
        for s, w in cs:
            rng_pyx.roll_dice(s.rng, s.die_owner, s.die_damaged, s.die_reserved, s.die_value, faces, w)
        return time.perf_counter() - t0

    def t_engine_shuffle(gen):
        t0 = time.perf_counter()
        for _ in range(2000):
            engine._shuffled(gen, list(range(30)))
        return time.perf_counter() - t0

    def t_pyx_shuffle(gen):
        r = gen.rng
        t0 = time.perf_counter()
        for _ in range(2000):
            rng_pyx.shuffled(r, list(range(30)))
        return time.perf_counter() - t0

    res = {"engine _roll_dice": [], "rng_pyx.roll_dice": [], "engine _shuffled (30 items)": [],
           "rng_pyx.shuffled (30 items)": []}
    for _ in range(repeats):
        for name, f in (("engine _roll_dice", t_engine_roll), ("rng_pyx.roll_dice", t_pyx_roll)):
            cs = [(s.copy(), w) for s, w in cases]
            for s, _w in cs:
                s.rng  # build the Generator outside the timing
            res[name].append(f(cs) / len(cs) * 1e6)
        st = states[0].copy()
        res["engine _shuffled (30 items)"].append(t_engine_shuffle(st) / 2000 * 1e6)
        res["rng_pyx.shuffled (30 items)"].append(t_pyx_shuffle(st) / 2000 * 1e6)
    for a, b in (("engine _roll_dice", "rng_pyx.roll_dice"),
                 ("engine _shuffled (30 items)", "rng_pyx.shuffled (30 items)")):
        ma, mb = statistics.median(res[a]), statistics.median(res[b])
        print(f"  {a}: {ma:.2f} us/call; {b}: {mb:.2f} us/call; speed-up {ma / mb:.1f}x")


def run_rng_pure() -> None:
    """rng_pure.py, one source: compiled (bitgen_t) and interpreted (Generator methods) against the engine."""
    try:
        import rng_pure as compiled
    except ImportError:
        compiled = None
    if compiled is None or not compiled.__file__.endswith(".so"):
        print("rng_pure: not built")
        return
    interp = _source_module("rng_pure")
    faces = [1, 2, 3, 4, 5, 6]
    for name, mod in (("compiled", compiled), ("interpreted", interp)):
        n = 0
        for seed in range(200):
            a, b = np.random.default_rng(seed), np.random.default_rng(seed)
            for k in list(range(0, 31)) + [100]:
                x = list(range(k))
                assert engine._shuffled(_Rng(a), x) == mod.shuffled(b, x), (name, seed, k)
                assert engine._roll(_Rng(a, faces)) == mod.roll(b, faces), (name, seed, k)
                n += 2
            assert a.bit_generator.state == b.bit_generator.state
        print(f"  rng_pure.py {name}: {n} rolls and shuffles equal to engine._roll / engine._shuffled, states equal")


class _Rng:
    """The two attributes engine._roll and engine._shuffled read from a state."""

    def __init__(self, rng, faces=None):
        self.rng = rng
        self.comp = type("C", (), {"die_faces": faces})


def run_numba_rng() -> None:
    try:
        import numba
    except ImportError:
        print("numba: not installed")
        return

    @numba.njit
    def draws(gen, n):
        out = np.empty(n)
        for i in range(n):
            out[i] = gen.random()
        return out

    @numba.njit
    def perm(gen, n):
        x = np.arange(n)
        gen.shuffle(x)
        return x

    ok_d = ok_s = True
    for seed in range(50):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        ok_d &= a.random(64).tolist() == draws(b, 64).tolist()
        ok_d &= a.bit_generator.state == b.bit_generator.state
    for seed in range(50):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        for n in (2, 3, 12, 30):
            x = list(range(n))
            a.shuffle(x)
            try:
                y = perm(b, n).tolist()
            except Exception as e:          # noqa: BLE001 - report what numba does not support
                print(f"numba Generator.shuffle: unsupported ({type(e).__name__})")
                ok_s = None
                break
            ok_s &= x == y
        if ok_s is None:
            break
    print(f"numba {numba.__version__} Generator in @njit: random() {'equal' if ok_d else 'DIFFERS'}; "
          f"shuffle {'equal' if ok_s else ('DIFFERS' if ok_s is False else 'unsupported')}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--games", type=int, default=12)
    args = ap.parse_args(argv)
    states = positions(args.games)
    run_k1(states, args.repeats)
    run_k2(states, args.repeats)
    run_rng_pure()
    run_numba_rng()


if __name__ == "__main__":
    main()
