"""The batched writers behind the vector environment: ``engine.legal_masks``, ``SeatEncoder.fill_rows``
(``encoding_kernel.Program.fill_rows``), ``outcome.write_result_rows``, and the benchmark's masked sampler
(``bench.random_legal``): each gives, row by row, exactly what its one-state counterpart gives."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.bench import random_legal
from blackangel_env.encoding import SeatEncoder, encode_observation, observation_size
from blackangel_env.outcome import result_info, write_result_info, write_result_rows


def _positions(n_players: int, k: int, seed: int = 0) -> list:
    """k positions of random games of n_players at various depths, some of them finished."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(k):
        s = engine.new_game(num_players=n_players, seed=seed * 1000 + g)
        for _ in range(int(rng.integers(0, 120))):
            if s.terminal:
                break
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.integers(len(legal)))])
        out.append(s)
    return out


@pytest.mark.parametrize("players", [1, 3])
def test_legal_masks_are_the_rows_of_legal_mask(players):
    states = _positions(players, 12, seed=players)
    assert any(s.terminal for s in states) and not all(s.terminal for s in states)
    want = np.stack([engine.legal_mask(s) for s in states])
    got = engine.legal_masks(states)
    assert got.dtype == np.int8 and np.array_equal(got, want)
    out = np.ones((len(states), A.NUM_ACTIONS), dtype=bool)
    assert engine.legal_masks(states, out=out) is out and np.array_equal(out, want.astype(bool))
    assert engine.legal_masks([]).shape == (0, A.NUM_ACTIONS)


def test_legal_masks_refuse_bad_arguments_and_write_nothing():
    states = _positions(2, 3)
    out = np.full((3, A.NUM_ACTIONS), 7, dtype=np.int8)
    with pytest.raises(TypeError, match="sequence of States"):
        engine.legal_masks(states[0], out=out)
    with pytest.raises(TypeError, match=r"states\[1\]"):
        engine.legal_masks([states[0], "x", states[2]], out=out)
    for bad in (np.zeros((2, A.NUM_ACTIONS), np.int8), np.zeros((3, A.NUM_ACTIONS), np.int64),
                np.zeros((A.NUM_ACTIONS, 3), np.int8).T):
        with pytest.raises(ValueError, match="legal_masks: out"):
            engine.legal_masks(states, out=bad)
    frozen = np.zeros((3, A.NUM_ACTIONS), np.int8)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        engine.legal_masks(states, out=frozen)
    with pytest.raises(TypeError, match="numpy array"):
        engine.legal_masks(states, out=[[0] * A.NUM_ACTIONS] * 3)
    assert (out == 7).all()


@pytest.mark.parametrize("players,seat", [(1, 0), (4, 2)])
def test_fill_rows_writes_each_states_observation(players, seat):
    states = _positions(players, 10, seed=10 + players)
    enc = SeatEncoder(seat)
    out = np.full((len(states), observation_size()), np.nan, dtype=np.float32)
    written = enc.fill_rows(states, out)
    if not written:                                 # interpreted plan: the caller encodes state by state
        assert np.isnan(out).all()
        return
    for s, row in zip(states, out):
        assert row.tobytes() == encode_observation(s, seat).tobytes()
    again = np.zeros_like(out)
    assert enc.fill_rows(states, again, np.stack([s.buf for s in states])) and np.array_equal(again, out)


def test_fill_rows_declines_a_batch_it_cannot_write_in_one_call():
    states = _positions(2, 3, seed=5)
    enc = SeatEncoder(0)
    D = observation_size()
    for out in (np.zeros((3, D), np.float64), np.zeros((2, D), np.float32), np.zeros((3, D + 1), np.float32),
                np.zeros((D, 3), np.float32).T):
        before = out.copy()
        assert not enc.fill_rows(states, out) and np.array_equal(out, before)
    mixed = states[:2] + _positions(3, 1, seed=6)        # another player count
    out = np.zeros((3, D), np.float32)
    assert not enc.fill_rows(mixed, out) and not out.any()


@pytest.mark.parametrize("players", [1, 2, 4])
def test_write_result_rows_equals_write_result_info(players):
    states = _positions(players, 12, seed=20 + players)
    assert any(s.terminal for s in states) and not all(s.terminal for s in states)
    n = len(states)

    def batch():
        return {"scores": np.empty((n, players), np.int64), "hal_score": np.empty(n, np.int64),
                "winners": np.zeros((n, players), np.int8), "game_over": np.empty(n, bool)}

    one, rows = batch(), batch()
    for i, s in enumerate(states):
        write_result_info(s, i, one)
    write_result_rows(states, np.stack([s.buf for s in states]), rows)
    for key in one:
        assert np.array_equal(one[key], rows[key]), key
    for i, s in enumerate(states):                   # and both are the single environment's result keys
        info = result_info(s)
        assert all(np.array_equal(info[key], rows[key][i]) for key in info)


def test_random_legal_takes_the_kth_legal_id_of_each_row():
    """``bench.random_legal``: row i's action is the k-th legal id (0-based, in id order) with
    k = floor(u_i * count_i), u the generator's ``random(N)``: every id legal, uniform over each row's ids."""
    rng = np.random.default_rng(1)
    for t in range(50):
        masks = rng.random((int(rng.integers(1, 40)), A.NUM_ACTIONS)) < rng.random() * 0.1
        masks[np.arange(len(masks)), rng.integers(0, A.NUM_ACTIONS, len(masks))] = True
        u = np.random.default_rng(t).random(len(masks))
        want = [np.flatnonzero(m)[int(x * m.sum())] for m, x in zip(masks, u)]
        assert random_legal(masks, np.random.default_rng(t)).tolist() == want
    row = np.zeros((1, A.NUM_ACTIONS), bool)
    row[0, [3, 500, 881]] = True
    g = np.random.default_rng(0)
    picks = np.concatenate([random_legal(row, g) for _ in range(3000)])
    assert sorted(set(picks.tolist())) == [3, 500, 881]
    assert min(np.bincount(picks)[[3, 500, 881]]) > 900


def test_mask_rows_refuses_an_id_outside_the_row_compiled_and_interpreted():
    """``kernels.mask_rows``: compiled (C loops) and interpreted (numpy indexing), the same rows, and an id
    outside the row an IndexError naming it (a negative id is not taken from the end of the row)."""
    import subprocess
    import sys
    from pathlib import Path
    from blackangel_env.engine import kernels
    script = """
import numpy as np
from blackangel_env.engine import kernels
out = np.full((3, 10), 7, dtype=np.int8)
kernels.mask_rows([[0, 9], [], [3, 4, 5]], out)
print(out.tolist())
for bad in ([[1, 10]], [[-1]]):
    try:
        kernels.mask_rows(bad, np.zeros((1, 10), np.int8))
    except IndexError as e:
        print(e)
"""
    root = Path(__file__).resolve().parents[1]
    runs = []
    for interpreted in ("0", "1"):
        env = {**__import__("os").environ, "BLACKANGEL_INTERPRETED": interpreted, "PYTHONPATH": str(root)}
        runs.append(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                                   cwd=root, check=True).stdout)
    assert runs[0] == runs[1]
    lines = runs[0].splitlines()
    assert lines[0] == str([[1] + [0] * 8 + [1], [0] * 10, [0, 0, 0, 1, 1, 1, 0, 0, 0, 0]])
    assert lines[1:] == ["mask_rows: action id 10 outside a row of 10", "mask_rows: action id -1 outside a row of 10"]
    with pytest.raises(ValueError, match="2 lists of action ids for 1 rows"):
        kernels.mask_rows([[1], [2]], np.zeros((1, 10), np.int8))
