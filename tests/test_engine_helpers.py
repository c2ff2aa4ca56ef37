"""The engine's public helpers that rule tests build positions with (``gain_vp``, ``gain_goods``,
``place_mission``; docs/engine.md) refuse bad arguments with a ValueError or TypeError naming them, before anything
changes."""

from __future__ import annotations

import numpy as np
import pytest

from blackangel_env import engine
from blackangel_env.state import MC_SPACE


def _unchanged(s, call, error, match):
    before = s.buf.copy()
    with pytest.raises(error, match=match):
        call()
    assert np.array_equal(s.buf, before)


def test_gain_vp_refuses_a_non_integer_amount_and_takes_numpy_integers():
    s = engine.new_game(num_players=2, seed=1)
    _unchanged(s, lambda: engine.gain_vp(s, 0, 1.5, 0, "x"), TypeError, "float")
    vp = int(s.vp[0])
    engine.gain_vp(s, 0, np.int16(2), 0, "x")
    assert int(s.vp[0]) == vp + 2


def test_gain_goods_refuses_a_short_vector_a_bad_seat_or_source():
    s = engine.new_game(num_players=2, seed=1)
    for args in ((0, [1], 0), (7, [0] * 8, 0), (-1, [0] * 8, 0), (0, [1] + [0] * 7, 99)):
        _unchanged(s, lambda: engine.gain_goods(s, args[0], args[1], args[2], "x"), ValueError, "gain_goods")


def test_place_mission_refuses_a_card_or_hex_out_of_range_or_taken():
    s = engine.new_game(num_players=2, seed=1)
    n_hexes = s.hex_card.shape[0]
    for p, card, h in ((9, 0, 0), (0, 999, 0), (0, -1, -1), (0, 0, n_hexes)):
        _unchanged(s, lambda: engine.place_mission(s, p, card, h), ValueError, "place_mission")
    s = engine.new_game(num_players=1, seed=1)             # Hal places his cards in Space: play until one is
    rng = np.random.default_rng(0)
    while not (s.mc_where == MC_SPACE).any():
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    in_space = np.flatnonzero(s.mc_where == MC_SPACE)
    taken = np.flatnonzero(s.hex_card >= 0)
    free = [c for c in range(s.mc_where.shape[0]) if s.mc_where[c] != MC_SPACE]
    _unchanged(s, lambda: engine.place_mission(s, 0, int(in_space[0]), int(s.mc_hex[in_space[0]])),
               ValueError, "already in Space")
    _unchanged(s, lambda: engine.place_mission(s, 0, free[0], int(taken[0])), ValueError, "holds a card")
