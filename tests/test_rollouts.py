"""``engine.rollouts``: batched random play to the end (blackangel_env/engine/playout.py)."""

from __future__ import annotations

import numpy as np
import pytest

from blackangel_env import engine
from blackangel_env.state import BOT


def _batch(n: int, advanced: bool = False, k: int = 3) -> list:
    return [engine.new_game(num_players=n, advanced=advanced, seed=100 * n + i) for i in range(k)]


def _check_against_one_by_one(states: list, seed: int) -> np.ndarray:
    """Play each state as the docstring of ``rollouts`` says, through the public API, and compare."""
    n = states[0].num_players
    scores, decisions = engine.rollouts(states, seed=seed, return_decisions=True)
    assert scores.shape == (len(states), 2 if n == 1 else n) and scores.dtype == np.float64
    children = np.random.SeedSequence(seed).spawn(len(states))
    for i, s in enumerate(states):
        c = s.copy()
        chance, choices = children[i].spawn(2)
        c.reseed(chance)
        rng = np.random.default_rng(choices)
        k = 0
        while not c.terminal:
            legal = engine.legal_actions(c)
            engine.apply(c, legal[int(rng.random() * len(legal))])
            k += 1
        want = engine.final_scores(c) + ([c.vp.item(BOT)] if n == 1 else [])
        assert scores[i].tolist() == want and decisions[i] == k
    return decisions


@pytest.mark.parametrize("n,advanced", [(1, False), (2, True), (4, False)])
def test_rollouts_follow_the_documented_generators(n, advanced):
    assert _check_against_one_by_one(_batch(n, advanced), seed=7).min() > 0


def test_a_mixed_batch_follows_the_documented_generators():
    """The batch's games are played in turn in one object (``State._copy_into``): nothing of one game (its
    position, log, legal-action cache, generator) reaches the next, whatever the batch mixes: both rule sets,
    positions part-way through a game with a log, a finished game, a state restored from a pickle (an equal
    layout table, not the same object)."""
    import pickle
    rng = np.random.default_rng(5)
    mid = engine.new_game(num_players=2, advanced=True, seed=11, log=True)
    for _ in range(60):
        legal = engine.legal_actions(mid)
        engine.apply(mid, legal[int(rng.integers(len(legal)))])
    over = engine.new_game(num_players=2, seed=12)
    engine.rollouts(over, seed=0)           # leaves `over` as it was; play it to the end here
    while not over.terminal:
        engine.apply(over, engine.legal_actions(over)[0])
    states = [mid, _batch(2)[0], over, pickle.loads(pickle.dumps(mid)), _batch(2, advanced=True)[1], mid]
    assert states[3]._fields is not mid._fields and states[3]._fields == mid._fields
    decisions = _check_against_one_by_one(states, seed=3)
    assert decisions[2] == 0 and decisions.min() == 0 and decisions.max() > 0


def test_copy_into_refuses_another_layout_and_changes_nothing():
    a, b = _batch(2, k=2)
    target = b.copy()
    target.buf = np.zeros(7, dtype=b.buf.dtype)
    assert not a._copy_into(target) and not target.buf.any() and target.buf.shape == (7,)
    target = b.copy()
    assert a._copy_into(target) and np.array_equal(target.buf, a.buf) and target.log is None


def test_the_fast_seeding_gives_numpys_generators(monkeypatch):
    """``rollouts`` seeds its games' generators itself (``kernels.seed_sequence_words``,
    ``kernels.pcg64_seeded_snapshot``) where raw generator snapshots are available; with numpy's own
    ``spawn``/``default_rng`` instead (``generator_state.AVAILABLE`` off) the results are the same, and a call that
    fails part-way gives its generators back in a usable state."""
    from blackangel_env import generator_state
    states = _batch(2, k=5)
    fast = engine.rollouts(states, seed=2**70 + 3)
    none_seeded = engine.rollouts(states, seed=None)
    monkeypatch.setattr(generator_state, "AVAILABLE", False)
    assert np.array_equal(fast, engine.rollouts(states, seed=2**70 + 3))
    assert none_seeded.shape == fast.shape
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="not over"):
        engine.rollouts(states, seed=4, max_decisions=3)
    assert np.array_equal(fast, engine.rollouts(states, seed=2**70 + 3))
    huge = engine.rollouts(states[:2], seed=2**(32 * 1024))          # any non-negative int, as numpy takes it
    monkeypatch.setattr(generator_state, "AVAILABLE", False)
    assert np.array_equal(huge, engine.rollouts(states[:2], seed=2**(32 * 1024)))


@pytest.mark.parametrize("entropy", [0, 7, 2**32, 2**127 + 99, 3**200])
def test_seed_sequence_words_are_numpys(entropy):
    from blackangel_env import generator_state
    from blackangel_env.engine.kernels import pcg64_seeded_snapshot, seed_sequence_words, uint32_words
    for key in ((), (0,), (5, 1), (2**40, 0, 3)):
        ss = np.random.SeedSequence(entropy, spawn_key=key)
        key_words = [w for k in key for w in uint32_words(k)]
        words = seed_sequence_words(uint32_words(entropy), key_words, 8)
        assert words == ss.generate_state(8).tolist()
        snap = pcg64_seeded_snapshot(words)
        assert generator_state.as_dict(snap) == np.random.PCG64(ss).state


def test_rollouts_are_reproducible_and_depend_on_the_seed_only():
    states = _batch(3, k=4)
    a = engine.rollouts(states, seed=11)
    other = [s.copy() for s in states]
    for i, s in enumerate(other):
        s.reseed(999 + i)                           # the states' own generators play no part
    assert np.array_equal(a, engine.rollouts(other, seed=11))
    assert not np.array_equal(a, engine.rollouts(states, seed=12))
    same = [states[0]] * 6                         # copies of one position get independent futures
    assert len({tuple(r) for r in engine.rollouts(same, seed=3).tolist()}) > 1


def test_rollouts_do_not_change_the_states():
    states = _batch(2, advanced=True)
    engine.apply(states[0], engine.legal_actions(states[0])[0])
    before = [(s.buf.copy(), s.rng_state()) for s in states]
    engine.rollouts(states, seed=1)
    engine.rollouts(states[1], seed=2)              # a single State
    for s, (buf, rng) in zip(states, before):
        assert np.array_equal(s.buf, buf) and s.rng_state() == rng and not s.terminal


def test_a_finished_game_gives_its_scores():
    s = engine.new_game(num_players=1, seed=5)
    rng = np.random.default_rng(0)
    while not s.terminal:
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    scores, decisions = engine.rollouts([s], seed=0, return_decisions=True)
    assert scores.tolist() == [engine.final_scores(s) + [s.vp.item(BOT)]] and decisions.tolist() == [0]


def test_bad_arguments_are_refused():
    s2, s3 = engine.new_game(num_players=2, seed=1), engine.new_game(num_players=3, seed=1)
    with pytest.raises(ValueError, match="no states given"):
        engine.rollouts([], seed=1)
    with pytest.raises(ValueError, match="same number of players, got \\[2, 3\\]"):
        engine.rollouts([s2, s3], seed=1)
    with pytest.raises(ValueError, match="unknown policy 'greedy'; known: random"):
        engine.rollouts(s2, seed=1, policy="greedy")
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="seed must be a non-negative integer or None"):
            engine.rollouts(s2, seed=bad)
    for bad in (0, -5, 2.0):
        with pytest.raises(ValueError, match="max_decisions must be a positive integer"):
            engine.rollouts(s2, seed=1, max_decisions=bad)
    with pytest.raises(TypeError, match="states must be a State or a sequence of States, not str"):
        engine.rollouts("state", seed=1)
    with pytest.raises(TypeError, match=r"states\[1\] is a int, not a State"):
        engine.rollouts([s2, 3], seed=1)
    with pytest.raises(RuntimeError, match=r"states\[0\] is not over after 3 decisions"):
        engine.rollouts(s2, seed=1, max_decisions=3)


def test_any_positive_bound_on_decisions_is_taken():
    """``max_decisions`` beyond a C integer (the loop's bound is clipped to one no game comes near) gives the
    same games; a bound a game passes raises RuntimeError naming the state."""
    states = _batch(3, k=2)
    assert np.array_equal(engine.rollouts(states, seed=8, max_decisions=10**30), engine.rollouts(states, seed=8))
    with pytest.raises(RuntimeError, match=r"states\[0\] is not over after 5 decisions"):
        engine.rollouts(states, seed=8, max_decisions=5)
