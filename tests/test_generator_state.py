"""Raw snapshots of the game's PCG64 generator (blackangel_env/generator_state.py), which ``State.copy`` takes instead
of the generator's state dict: a copy must draw exactly what the original draws, whichever path took its state."""

from __future__ import annotations

import copy
import ctypes
import pickle
import sys

import numpy as np
import pytest

from blackangel_env import engine, generator_state
from blackangel_env import state as state_module


def _mid_game(seed: int = 3, steps: int = 25):
    s = engine.new_game(num_players=2, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    return s


@pytest.mark.skipif(sys.byteorder != "little" or ctypes.sizeof(ctypes.c_void_p) != 8,
                    reason="raw snapshots are only used on little-endian 64-bit platforms")
def test_raw_snapshots_are_used_on_this_platform():
    assert generator_state.AVAILABLE
    g = np.random.default_rng(11)
    g.integers(0, 2**32, size=1, dtype=np.uint32)          # leaves a buffered 32-bit half: has_uint32 = 1
    snap = generator_state.read(generator_state.reader(g))
    assert generator_state.as_dict(snap) == g.bit_generator.state
    assert generator_state.as_dict(snap)["has_uint32"] == 1
    h = generator_state.restore(snap)
    assert h.integers(0, 2**32, size=5, dtype=np.uint32).tolist() == g.integers(0, 2**32, size=5, dtype=np.uint32).tolist()
    assert generator_state.reader(np.random.Generator(np.random.MT19937(1))) is None     # PCG64 only


@pytest.mark.parametrize("raw", [True, False])
def test_a_copy_draws_what_the_original_draws(raw, monkeypatch):
    if not raw:
        monkeypatch.setattr(generator_state, "AVAILABLE", False)            # the state-dict path
    s = _mid_game()
    s.rng.integers(0, 2**32, size=3, dtype=np.uint32)
    c = s.copy()
    assert type(c._rng_state) is (tuple if raw else dict)
    cc = c.copy()                                                           # a copy of a copy that never drew
    assert c.rng_state() == s.rng_state() == cc.rng_state() and c == s
    assert c.to_dict() == s.to_dict()
    expect = s.rng.random(7).tolist()
    assert c.rng.random(7).tolist() == expect and cc.rng.random(7).tolist() == expect
    s.rng.random(2)                                                         # the original moves on ...
    d = s.copy()                                                            # ... and a later copy follows it
    assert d.rng_state() == s.rng_state() != c.rng_state()
    assert d.rng.integers(0, 100, size=9).tolist() == s.rng.integers(0, 100, size=9).tolist()


def test_copies_play_the_same_games_as_the_original():
    """Copies taken along a game and played on with the same actions end in the same buffer and generator state."""
    s = _mid_game(seed=8, steps=0)
    copies = []
    rng = np.random.default_rng(8)
    actions = []
    while not s.terminal and len(actions) < 400:
        if len(actions) % 37 == 0:
            copies.append((len(actions), s.copy()))
        legal = engine.legal_actions(s)
        a = legal[int(rng.integers(len(legal)))]
        engine.apply(s, a)
        actions.append(a)
    for at, c in copies:
        for a in actions[at:]:
            engine.apply(c, a)
        assert c == s


def test_pickle_and_deepcopy_do_not_carry_the_reader():
    s = _mid_game()
    s.copy()                                                 # the reader is made by the first copy
    assert s._rng_reader is not None
    for t in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert t._rng_reader is None and t == s
        t.rng.random(3)                                      # its own generator moves, the original's does not
        assert t.copy().rng_state() == t.rng_state() != s.rng_state()
    old = {k: v for k, v in s.__getstate__().items() if k != "_rng_reader"}     # pickled before the reader existed
    t = state_module.State.__new__(state_module.State)
    t.__setstate__(old)
    assert t._rng_reader is None and t.copy() == s



def test_a_snapshot_restores_where_raw_access_is_off(monkeypatch):
    """A state pickled where raw snapshots are used, read where they are not: the bytes go through the dict."""
    s = _mid_game()
    c = s.copy()
    if type(c._rng_state) is not tuple:
        pytest.skip("raw snapshots are not used on this platform")
    blob = pickle.dumps(c)
    monkeypatch.setattr(generator_state, "AVAILABLE", False)
    t = pickle.loads(blob)
    assert t.rng.random(5).tolist() == s.rng.random(5).tolist()


def test_pickled_and_deep_copied_states_play_on_their_own_buffer():
    """The named views are not pickled (they would come back as arrays apart from the buffer, and a move would
    change them but not the buffer that the legal actions, saving and equality read): a pickled or deep-copied
    state plays on exactly as the original, and a pickle made with the views in it is read the same way."""
    s = _mid_game(seed=5, steps=30)
    with_views = {**s.__getstate__(), **{n: getattr(s, n) for n in s._fields}}    # what an older version pickled
    old = state_module.State.__new__(state_module.State)
    old.__setstate__(with_views)
    for t in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s), old):
        assert t.m.base is t.buf and t.hex_ship.base is t.buf
        c = s.copy()
        rng = np.random.default_rng(1)
        for _ in range(40):
            if c.terminal:
                break
            legal = engine.legal_actions(c)
            assert engine.legal_actions(t) == legal
            a = legal[int(rng.integers(len(legal)))]
            engine.apply(c, a)
            engine.apply(t, a)
            assert np.array_equal(t.buf, c.buf)
        assert t == c


def test_the_register_memoryview_is_the_states_own_buffer():
    """``State.mv`` (the buffer as a memoryview, through which the engine reads and writes the registers ``m``) is
    made from the state's own buffer: writes through it are the named views' values and the other way round, a
    copy gets one of its own, and neither pickling nor a deep copy carries it."""
    s = _mid_game(seed=7, steps=20)
    assert s.mv.obj is s.buf and s.mv.format == "h" and len(s.mv) == s.buf.size
    for k in range(s.m.size):
        assert s.mv[k] == s.m.item(k)
    old = s.m.item(state_module.M_DECISIONS)
    s.mv[state_module.M_DECISIONS] = old + 1
    assert s.m.item(state_module.M_DECISIONS) == old + 1
    s.m[state_module.M_DECISIONS] = old
    assert s.mv[state_module.M_DECISIONS] == old
    c = s.copy()
    assert c.mv.obj is c.buf
    c.mv[state_module.M_DECISIONS] = old + 5
    assert s.mv[state_module.M_DECISIONS] == old
    for t in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert "mv" not in t.__dict__
        assert t.mv.obj is t.buf and t.mv.tolist() == s.mv.tolist()


@pytest.mark.parametrize("attr", ["_typed"])
def test_the_typed_buffer_is_the_states_own_buffer(attr):
    """``State._typed`` (the buffer as the typed code of ``engine.predicates`` takes it: a typed memoryview object
    compiled, the array interpreted) reads and writes the
    state's own buffer, a copy gets one of its own, ``restore`` keeps it valid, and neither pickling nor a deep
    copy carries it."""
    s = _mid_game(seed=7, steps=20)
    v = getattr(s, attr)
    assert getattr(s, attr) is v                            # made once
    assert np.array_equal(np.asarray(v), s.buf)
    k = state_module.M_DECISIONS
    old = s.m.item(k)
    v[k] = old + 3
    assert s.m.item(k) == old + 3
    s.m[k] = old
    assert v[k] == old
    c = s.copy()
    assert getattr(c, attr) is not v
    getattr(c, attr)[k] = old + 5
    assert s.m.item(k) == old and c.m.item(k) == old + 5
    s.restore(c)
    assert getattr(s, attr) is v and v[k] == old + 5
    for t in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert attr not in t.__dict__
        assert np.array_equal(np.asarray(getattr(t, attr)), s.buf)
        getattr(t, attr)[k] = 1
        assert t.m.item(k) == 1 and s.m.item(k) == old + 5


def test_the_decision_counter_wraps_at_its_bound_as_numpy_does():
    """The registers are written through ``State.mv``, which refuses a value outside int16; the decision counter
    keeps numpy's in-place add at the bound (a wrap-around, with numpy's overflow warning), so a position whose
    counter stands at 32,767 still takes its moves, checked and unchecked."""
    for apply in (engine.apply, engine.apply_unchecked):
        s = _mid_game(seed=9, steps=10)
        s.m[state_module.M_DECISIONS] = 32767
        with pytest.warns(RuntimeWarning, match="overflow"):
            apply(s, engine.legal_actions(s)[0])
        assert s.m.item(state_module.M_DECISIONS) == -32768
        apply(s, engine.legal_actions(s)[0])
        assert s.m.item(state_module.M_DECISIONS) == -32767


def test_fixed_offsets_are_the_named_views_of_every_layout():
    """``state.FIXED_OFFSETS`` (the fields before the display, which engine code reads through ``State.mv``) start
    where the named views do, for every display length."""
    for display_len in (3, 8, 12):
        offsets = {name: off for name, _shape, off in state_module.layout(display_len)}
        assert all(offsets[name] == off for name, off in state_module.FIXED_OFFSETS.items())
    assert "display" not in state_module.FIXED_OFFSETS and "vp" in state_module.FIXED_OFFSETS
    s = _mid_game(seed=7, steps=20)
    for name, off in state_module.FIXED_OFFSETS.items():
        view = getattr(s, name).ravel()
        assert s.mv[off:off + view.size].tolist() == view.tolist()


def test_gain_vp_through_the_buffer_keeps_the_sources_and_refuses_a_bad_seat():
    from blackangel_env.engine.core import gain_vp
    from blackangel_env.state import SRC_PENALTY
    s = _mid_game(seed=7, steps=20)
    old = s.vp.item(1)
    gain_vp(s, 1, -(old + 3), SRC_PENALTY, "test")         # never below 0 (rules-notes C13)
    assert s.vp.item(1) == 0 and s.vp_src[1].sum() == 0
    before = s.buf.copy()
    for seat, src in ((5, 0), (-1, 0), (0, state_module.N_SRC)):
        with pytest.raises(ValueError, match="gain_vp"):
            gain_vp(s, seat, 2, src, "test")
    assert np.array_equal(s.buf, before)
