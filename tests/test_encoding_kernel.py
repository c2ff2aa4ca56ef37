"""The compiled observation plan runner (``blackangel_env.encoding_kernel``) writes exactly the observations of the
vectorised numpy encoding (``encoding._encode_numpy``), bit for bit, and refuses what that path refuses.

Positions of random games in every configuration (1-4 players, base and advanced rules), every seat; positions
with values beyond the declared bounds (clipped) and below them; corrupted buffers.  The kernel's ``.py`` source,
run interpreted (loaded from its file under another name), is held to the same answers, so the source that the
build compiles is checked even where nothing is compiled.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

from blackangel_env import encoding, encoding_kernel, engine
from blackangel_env.encoding import SeatEncoder, _encode_numpy, _plan, encode_observation, observation_size
from blackangel_env.state import M_END_TRIGGERED, M_ROUND, M_TRIGGER_ROUND, State

ROOT = Path(__file__).resolve().parents[1]
COMPILED = encoding_kernel.COMPILED


def _source_kernel():
    """``encoding_kernel.py`` run as Python, whatever the import hook picked for the package's module."""
    spec = importlib.util.spec_from_file_location("blackangel_env._encoding_kernel_source",
                                                  ROOT / "blackangel_env" / "encoding_kernel.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert not mod.COMPILED
    return mod


def _positions(n: int, advanced: bool, seed: int, every: int) -> list[State]:
    rng = np.random.default_rng(seed)
    s = engine.new_game(num_players=n, advanced=advanced, seed=seed)
    out = [s.copy()]
    k = 0
    while not s.terminal:
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
        k += 1
        if k % every == 0 or s.terminal:
            out.append(s.copy())
    return out


def _program(module, s: State, seat: int):
    P = _plan(s.comp, s.num_players, seat)
    mo = P.derived.m
    return module.Program(P, (mo + M_END_TRIGGERED, mo + M_ROUND, mo + M_TRIGGER_ROUND))


def _numpy(s: State, seat: int) -> np.ndarray:
    return _encode_numpy(_plan(s.comp, s.num_players, seat), s, None)


def test_encoding_uses_the_kernel_exactly_when_it_is_compiled():
    assert encoding._KERNEL is COMPILED
    from blackangel_env import _compiled
    assert "blackangel_env.encoding_kernel" in _compiled.TYPED_MODULES
    assert (_compiled.status()["blackangel_env.encoding_kernel"] == "compiled") is COMPILED


@pytest.mark.skipif(not COMPILED, reason="encoding_kernel is not compiled here (no extension built)")
@pytest.mark.parametrize("n,advanced", [(n, adv) for n in (1, 2, 3, 4) for adv in (False, True)])
def test_compiled_kernel_equals_the_numpy_encoding(n, advanced):
    """Every seat of every other position of two random games: encode_observation (the kernel, a new array and
    into a given array holding garbage), SeatEncoder and the numpy path give the same bytes."""
    out = np.full(observation_size(), np.nan, dtype=np.float32)
    encoders = [SeatEncoder(q) for q in range(n)]
    count = 0
    for seed in (21, 22):
        for s in _positions(n, advanced, seed=100 * n + seed, every=2):
            for q in range(n):
                want = _numpy(s, q).tobytes()
                assert encode_observation(s, q).tobytes() == want
                out[:] = np.nan
                assert encode_observation(s, q, out) is out and out.tobytes() == want
                assert encoders[q].encode(s).tobytes() == want
                count += 1
    assert count > 40 * n


def test_the_kernel_source_interpreted_equals_the_numpy_encoding():
    """The source the build compiles, run as Python, on a few positions of each player count (slow: Python loops
    over the plan)."""
    src = _source_kernel()
    out = np.empty(observation_size(), dtype=np.float32)
    for n in (1, 2, 4):
        positions = _positions(n, n == 2, seed=40 + n, every=1)
        for s in positions[::max(1, len(positions) // 3)]:
            for q in range(n):
                out[:] = -1.0
                _program(src, s, q).fill(s.buf, out)
                assert out.tobytes() == _numpy(s, q).tobytes(), (n, q)


@pytest.mark.parametrize("which", ["compiled", "source"])
def test_values_beyond_and_below_the_bounds_clip_like_numpy(which):
    if which == "compiled" and not COMPILED:
        pytest.skip("encoding_kernel is not compiled here")
    module = encoding_kernel if which == "compiled" else _source_kernel()
    s = engine.new_game(num_players=2, seed=3)
    s.vp[0] = 30000                                  # beyond the saturation level
    s.res[1] = 25
    s.m[M_ROUND] = 32767
    s.robots_supply[0] = -3                          # below 0 (not a reachable value): clipped to 0
    s.m[M_END_TRIGGERED] = 1                         # the final-round flag
    s.m[M_TRIGGER_ROUND] = 32766
    out = np.empty(observation_size(), dtype=np.float32)
    for q in range(2):
        _program(module, s, q).fill(s.buf, out)
        assert out.tobytes() == _numpy(s, q).tobytes()


@pytest.mark.parametrize("which", ["compiled", "source"])
def test_corrupted_buffers_and_wrong_arrays_are_refused_like_numpy(which):
    """A derived value reading past the scratch vector: IndexError; a counted location outside its counts:
    ValueError (the numpy path raises the same types); a buffer or an output of the wrong length: ValueError."""
    if which == "compiled" and not COMPILED:
        pytest.skip("encoding_kernel is not compiled here")
    module = encoding_kernel if which == "compiled" else _source_kernel()
    base = engine.new_game(num_players=3, seed=8)
    out = np.empty(observation_size(), dtype=np.float32)
    prog = _program(module, base, 0)
    prog.fill(base.buf, out)

    s = base.copy()
    s.tech_stack_n[0] = 30000                        # the top of stack 0 read far past its field
    with pytest.raises(IndexError):
        _numpy(s, 0)
    with pytest.raises(IndexError):
        prog.fill(s.buf, out)

    for bad in (-5, 30000):                          # a Mission card in no location the counts know
        s = base.copy()
        s.mc_where[0] = bad
        with pytest.raises(ValueError):
            _numpy(s, 0)
        with pytest.raises(ValueError, match="counted cell"):
            prog.fill(s.buf, out)

    with pytest.raises(ValueError, match="state buffer"):
        prog.fill(base.buf[:-1], out)
    with pytest.raises(ValueError, match="observation array"):
        prog.fill(base.buf, out[:-1])
    prog.fill(base.buf, out)                         # the program is still usable after a refusal
    assert out.tobytes() == _numpy(base, 0).tobytes()


def test_encode_observation_falls_back_for_other_output_arrays():
    """An ``out`` the kernel cannot write (float64, strided) still gets the observation."""
    s = engine.new_game(num_players=2, seed=9)
    want = _numpy(s, 1)
    out64 = np.zeros(observation_size(), dtype=np.float64)
    assert encode_observation(s, 1, out64) is out64 and np.array_equal(out64, want)
    wide = np.zeros((observation_size(), 2), dtype=np.float32)
    col = wide[:, 0]
    assert encode_observation(s, 1, col) is col and np.array_equal(col, want)


def test_one_seat_encoder_across_player_counts_and_component_sets():
    """A SeatEncoder follows games of other player counts and of another Components object (loaded anew), and a
    game without its seat raises ValueError."""
    from blackangel_env.components import load_components
    enc = SeatEncoder(1)
    other = load_components()
    games = [engine.new_game(num_players=2, seed=31), engine.new_game(num_players=4, seed=32, components=other),
             engine.new_game(num_players=3, advanced=True, seed=33), engine.new_game(num_players=2, seed=34)]
    for s in games:
        assert enc.encode(s).tobytes() == _numpy(s, 1).tobytes()
    with pytest.raises(ValueError, match="seat"):
        enc.encode(engine.new_game(num_players=1, seed=35))
    assert enc.encode(games[1]).tobytes() == _numpy(games[1], 1).tobytes()
