"""The observation encoding: layout, values, relative seats, and hidden information."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers import game, random_positions  # noqa: F401  (helpers puts the checkout on sys.path)

from blackangel_env import engine
from blackangel_env.constants import N_MISSIONS
from blackangel_env.encoding import (
    TILE_F, encode_observation, encode_state, layout_markdown, observation_high, observation_layout,
    observation_size, observation_views, state_size,
)
from blackangel_env.invariants import check_invariants
from blackangel_env.state import (
    BOT, DIE_SUPPLY, MC_DECK, MC_HAND, MC_SLOT, MC_SPACE, MC_TUCKED, RAVAGER_SLOT, RV_DECK, RV_HAND, State,
)

ROOT = Path(__file__).resolve().parents[1]


# --- layout ----------------------------------------------------------------------------------------------------

def test_layout_is_contiguous_and_named_uniquely():
    lay = observation_layout()
    off = 0
    for sl in lay:
        assert sl.offset == off, sl.name
        assert sl.size == int(np.prod(sl.shape)) > 0
        off += sl.size
    assert off == observation_size()
    assert len({sl.name for sl in lay}) == len(lay)
    assert observation_high().shape == (off,)


def test_docs_observation_md_is_generated_from_the_layout():
    text = layout_markdown()
    for sl in observation_layout():
        assert f"`{sl.name}`" in text
    doc = ROOT / "docs" / "observation.md"
    assert doc.read_text() == text, "docs/observation.md is stale: python -m blackangel_env.encoding > it"


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("advanced", [False, True])
def test_observations_are_bounded_float32_of_fixed_size(n, advanced):
    high = observation_high()
    out = np.empty(observation_size(), dtype=np.float32)
    for s in random_positions(n, advanced, seed=n + 10 * advanced, every=3):
        for seat in range(n):
            o = encode_observation(s, seat)
            assert o.dtype == np.float32 and o.shape == (observation_size(),)
            assert np.all(o >= 0) and np.all(o <= high) and np.all(np.isfinite(o))
            r = encode_observation(s, seat, out)
            assert r is out and np.array_equal(out, o)


def test_encode_state_is_the_whole_buffer():
    s = random_positions(3, False, seed=1)[20]
    st = encode_state(s)
    assert st.dtype == np.float32 and st.shape == (state_size(),)
    assert np.array_equal(st, s.buf.astype(np.float32))


def test_bad_seat_is_rejected():
    s = engine.new_game(num_players=2, seed=0)
    with pytest.raises(ValueError):
        encode_observation(s, 2)


# --- values ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_values_relative_to_the_observer(n):
    for s in random_positions(n, True, seed=40 + n, every=7):
        for seat in range(n):
            v = observation_views(encode_observation(s, seat))
            for r in range(4):
                q = (seat + r) % n if r < n else None
                if q is None:
                    assert v[f"p{r}.present"][0] == 0 and not v[f"p{r}.grid"].any()
                    continue
                assert v[f"p{r}.present"][0] == 1 and v[f"p{r}.seat"][q] == 1
                assert v[f"p{r}.vp"][0] == pytest.approx(s.vp[q] / 100)
                assert np.allclose(v[f"p{r}.hand_missions"] * 5, s.hand_mc[q])
                assert v[f"p{r}.hand_ravagers"][0] * 5 == pytest.approx(s.hand_rav[q])
                tucked = [np.count_nonzero(s.mc_where[20 * c:20 * c + 20] == MC_TUCKED + q) for c in range(3)]
                assert np.allclose(v[f"p{r}.tucked"] * 10, tucked)
                for cell in range(9):          # grid: a tile is there iff exactly one kind flag is set
                    assert v[f"p{r}.grid"][cell, :3].sum() == (1 if s.grid[q, cell] >= 0 else 0)
                for k in range(6):
                    code = int(s.slots[q, k])
                    row = v[f"p{r}.slots"][k]
                    if code < 0:
                        assert not row.any()
                    elif code >= RAVAGER_SLOT:
                        assert row.tolist() == [1, 0, 0, 0]
                    else:
                        assert row[1 + code // 20] == 1 and row.sum() == 1
            hand = np.flatnonzero(s.mc_where == MC_HAND + seat)
            assert np.flatnonzero(v["own.hand"]).tolist() == hand.tolist()
            space = np.flatnonzero(s.mc_where == MC_SPACE)
            assert np.flatnonzero(v["space.mission_strip"].any(axis=1)).tolist() == space.tolist()
            for c in space:
                assert v["space.mission_strip"][c, int(s.mc_hex[c]) // 5] == 1
            if not s.terminal:
                assert v["game.actor"][(s.actor - seat) % n] == 1
                assert v["game.phase"][s.phase] == 1
            for d in range(18):
                o = int(s.die_owner[d])
                col = (o - seat) % n if 0 <= o < n else 4 if o == BOT else {DIE_SUPPLY: 5, -2: 6, -3: 7}[o]
                assert v["board.die_owner"][d, col] == 1 and v["board.die_owner"][d].sum() == 1
            assert v["bot.present"][0] == (1 if n <= 2 else 0)
            if n == 1:
                assert v["bot.vp"][0] == pytest.approx(s.vp[BOT] / 100)
            for c in range(3):
                k = int(s.tech_stack_n[c])
                if k:
                    t = int(s.tech_stack[c, k - 1])
                    assert v["board.stack_top"][c, 3 + s.comp.tile_colour[t]] == 1
            for h in range(35):
                ships = [int(x) for x in s.hex_ship[h] if x >= 0]
                for q in range(5):
                    r = (q - seat) % n if q < n else 4
                    if q < n or (q == BOT and n <= 2):
                        assert v["space.ships"][h, r] * 2 == pytest.approx(ships.count(q))


def test_tile_feature_block_size():
    lay = {sl.name: sl for sl in observation_layout()}
    assert lay["board.display"].shape[1] == TILE_F
    assert lay["p0.grid"].shape == (9, TILE_F)


# --- hidden information ----------------------------------------------------------------------------------------

def _swap_hand_and_deck_card(s: State, p: int) -> bool:
    """Exchange one Mission card of p's hand with a deck card of the same colour (a consistent state)."""
    for card in np.flatnonzero(s.mc_where == MC_HAND + p).tolist():
        c = card // 20
        n = int(s.mc_deck_n[c])
        if n == 0:
            continue
        j = n - 1
        other = int(s.mc_deck[c, j])
        s.mc_deck[c, j] = card
        s.mc_where[card] = MC_DECK
        s.mc_where[other] = MC_HAND + p
        return True
    return False


def _swap_slot_card(s: State, p: int) -> bool:
    """Exchange a face-down Mission card on p's slots with a deck card of the same colour."""
    for k in range(6):
        card = int(s.slots[p, k])
        if 0 <= card < N_MISSIONS:
            c = card // 20
            n = int(s.mc_deck_n[c])
            if n == 0:
                continue
            other = int(s.mc_deck[c, 0])
            s.mc_deck[c, 0] = card
            s.mc_where[card] = MC_DECK
            s.mc_where[other] = MC_SLOT + p
            s.slots[p, k] = other
            return True
    return False


def _swap_hand_ravager(s: State, p: int) -> bool:
    from blackangel_env.state import M_RAV_DECK_N
    hand = np.flatnonzero(s.rav_where == RV_HAND + p).tolist()
    n = int(s.m[M_RAV_DECK_N])
    if not hand or n == 0:
        return False
    r, other = hand[0], int(s.rav_deck[0])
    s.rav_deck[0] = r
    s.rav_where[r] = RV_DECK
    s.rav_where[other] = RV_HAND + p
    return True


def _shuffle_hidden_orders(s: State, rng: np.random.Generator) -> None:
    """Permute every face-down deck (the tops of the face-up Technology stacks stay)."""
    from blackangel_env.state import M_ADV_DECK_N, M_HAL_DECK_N, M_RAV_DECK_N
    for c in range(3):
        n = int(s.mc_deck_n[c])
        s.mc_deck[c, :n] = rng.permutation(s.mc_deck[c, :n])
        k = int(s.tech_stack_n[c])
        if k > 1:
            s.tech_stack[c, :k - 1] = rng.permutation(s.tech_stack[c, :k - 1])
    n = int(s.m[M_RAV_DECK_N])
    s.rav_deck[:n] = rng.permutation(s.rav_deck[:n])
    n = int(s.m[M_ADV_DECK_N])
    s.adv_deck[:n] = rng.permutation(s.adv_deck[:n])
    n = int(s.m[M_HAL_DECK_N])
    s.hal_deck[:n] = rng.permutation(s.hal_deck[:n])


@pytest.mark.parametrize("n,advanced", [(1, False), (2, True), (3, False), (4, True)])
def test_hidden_information_does_not_reach_other_observers(n, advanced):
    rng = np.random.default_rng(7)
    tested = {"hand": 0, "slot": 0, "ravager": 0, "orders": 0}
    for s in random_positions(n, advanced, seed=70 + n, every=2):
        if s.terminal:
            continue
        before = [encode_observation(s, seat).copy() for seat in range(n)]
        # deck orders: nobody's observation changes
        t = s.copy()
        _shuffle_hidden_orders(t, rng)
        check_invariants(t)
        for seat in range(n):
            assert np.array_equal(encode_observation(t, seat), before[seat])
        tested["orders"] += 1
        if n == 1:
            continue
        # player 1's hand / slot cards / Ravager cards: player 0 sees no change, player 1 does (for cards)
        for name, edit in (("hand", _swap_hand_and_deck_card), ("slot", _swap_slot_card),
                           ("ravager", _swap_hand_ravager)):
            t = s.copy()
            if not edit(t, 1):
                continue
            check_invariants(t)
            assert not np.array_equal(t.buf, s.buf)
            for seat in range(n):
                if seat != 1:
                    assert np.array_equal(encode_observation(t, seat), before[seat]), (name, seat)
            if name == "hand":
                assert not np.array_equal(encode_observation(t, 1), before[1])
            tested[name] += 1
    assert tested["orders"] > 0
    if n > 1:
        assert tested["hand"] > 0 and tested["ravager"] > 0


@pytest.mark.parametrize("n", [1, 2, 4])
def test_derived_values(n):
    from blackangel_env.state import (
        M_END_TRIGGERED, M_PENDING, M_ROUND, M_TRIGGER_ROUND, MC_DISCARD, MC_DRAWN, RV_DISCARD, TL_EJECTED,
    )
    comp = None
    for s in random_positions(n, True, seed=90 + n, every=5):
        comp = s.comp
        seat = n - 1
        v = observation_views(encode_observation(s, seat))
        rel = {q: (q - seat) % n for q in range(n)}
        rel[BOT] = 4
        for h in range(35):
            card = int(s.hex_card[h])
            if card >= 0:
                assert v["space.card_colour"][h, card // 20] == 1
                assert v["space.card_owner"][h, rel[int(s.mc_owner[card])]] == 1
            else:
                assert not v["space.card_owner"][h].any() and not v["space.card_colour"][h].any()
        for a in range(6):
            for k in range(3):
                r = int(s.rav_loc[a, k])
                row = v["board.ravager_robots"][a, k] * 2
                if r < 0:
                    assert not v["board.ravager_effect"][a, k].any() and not row.any()
                    continue
                assert v["board.ravager_effect"][a, k, comp.ravager_effect[r]] == 1
                for q in range(5):
                    if q in rel and (q < n or n <= 2):
                        assert row[rel[q]] == pytest.approx(s.rav_robots[r, q])
        for q in range(n):
            r = rel[q]
            for cell in range(9):
                t = int(s.grid[q, cell])
                assert v[f"p{r}.grid_debris"][cell] == (s.tile_debris[t] if t >= 0 else 0)
                assert v[f"p{r}.grid_boost_up"][cell] == (s.tile_boost[t] if t >= 0 else 0)
            ej = np.flatnonzero(s.tile_where == TL_EJECTED + q)
            kinds = [sum(1 for t in ej if comp.tile_kind[t] == k) for k in range(3)]
            assert np.allclose(v[f"p{r}.ejected"] * 10, kinds)
            drawn = [np.count_nonzero(s.mc_where[20 * c:20 * c + 20] == MC_DRAWN + q) for c in range(3)]
            assert np.allclose(v[f"p{r}.drawn"] * 2, drawn)
        disc = [np.count_nonzero(s.mc_where[20 * c:20 * c + 20] == MC_DISCARD) for c in range(3)]
        assert np.allclose(v["game.mission_discard"] * 20, disc)
        assert v["game.ravager_discard"][0] * 30 == pytest.approx(np.count_nonzero(s.rav_where == RV_DISCARD))
        pend = int(s.m[M_PENDING])
        assert v["decision.pending"].tolist() == [(pend >> i) & 1 for i in range(9)]
        final = bool(s.m[M_END_TRIGGERED]) and s.m[M_ROUND] == s.m[M_TRIGGER_ROUND] + 1
        assert v["game.flags"][1] == final
        for i, t in enumerate(s.display.tolist()):
            if t >= 0:
                assert v["board.display"][i, 6 + comp.tile_effect[t]] == 1
                assert v["board.display_boost_up"][i] == s.tile_boost[t]
            else:
                assert not v["board.display"][i].any()
        if n == 1:
            remaining = sorted(int(c) for c in s.hal_deck if c >= 0)
            assert np.flatnonzero(v["game.hal_remaining"]).tolist() == remaining


# --- incremental encoding --------------------------------------------------------------------------------------

@pytest.mark.parametrize("n,advanced", [(n, adv) for n in (1, 2, 3, 4) for adv in (False, True)])
@pytest.mark.parametrize("full_above", [0, 32, 10_000])
def test_seat_encoder_equals_encode_observation(n, advanced, full_above, monkeypatch):
    """SeatEncoder's incremental path (what the environments use where ``encoding_kernel`` is not compiled) gives
    exactly encode_observation's vectors, whatever the size of the change since its previous call: every path
    (Python update, derived values and counts kept in Python then the vectorised encoding, full encoding) and a
    new game with the same encoders.  (The compiled plan runner: tests/test_encoding_kernel.py.)"""
    from blackangel_env import encoding
    from blackangel_env.encoding import SeatEncoder
    monkeypatch.setattr(encoding, "_KERNEL", False)
    monkeypatch.setattr(SeatEncoder, "FULL_ABOVE", full_above)
    encoders = [SeatEncoder(q) for q in range(n)]
    for seed in (3, 4):
        rng = np.random.default_rng(seed)
        s = engine.new_game(num_players=n, advanced=advanced, seed=seed)
        k = 0
        while True:
            seats = [s.actor] if not s.terminal and k % 4 else range(n)
            for q in seats:
                got = encoders[q].encode(s)
                want = encode_observation(s, q)
                assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (seed, k, q)
            if s.terminal:
                break
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.random() * len(legal))])
            k += 1


def test_seat_encoder_returns_new_arrays_and_copies_afresh():
    import copy
    import pickle

    from blackangel_env.encoding import SeatEncoder
    s = engine.new_game(num_players=3, seed=5)
    enc = SeatEncoder(1)
    a = enc.encode(s)
    a[:] = 7.0                                   # a caller may write into what it got: nothing else changes
    b = enc.encode(s)
    assert b is not a and np.array_equal(b, encode_observation(s, 1))
    for other in (copy.deepcopy(enc), pickle.loads(pickle.dumps(enc))):
        assert np.array_equal(other.encode(s), b)
    with pytest.raises(ValueError, match="seat"):
        SeatEncoder(3).encode(s)


# --- declared bounds (issue 15 item 10) --------------------------------------------------------------------------

def test_declared_highs_are_the_rules_limits_or_saturation_levels():
    """Every count and quantity declares its own bound: none is left at the int16 limit (16,383.5 and the like
    were declared while no value above 1.1 was observed), none above 6, and the limits the rules or components
    give are the ones declared."""
    lay = {sl.name: sl for sl in observation_layout()}
    assert max(sl.high for sl in lay.values()) <= 6.0
    for sl in lay.values():
        if sl.kind in ("one-hot", "flags"):
            assert sl.high == 1.0
    raw = {name: lay[name].high * lay[name].scale for name in lay}
    assert raw["decision.value"] == pytest.approx(3)            # a die's value (faces star, 1, 2, 3)
    assert raw["board.action_damage"] == pytest.approx(2)       # two Damage cubes per action
    assert raw["space.icons"] == pytest.approx(2)
    assert raw["decision.keep_n"] == pytest.approx(2)
    assert raw["p0.robots"] == pytest.approx(16)                # 16 robots per player
    assert raw["p0.hand_ravagers"] == pytest.approx(30)         # the Ravager deck


@pytest.mark.parametrize("n,advanced", [(1, False), (2, True), (3, False), (4, True)])
def test_every_observed_value_lies_in_the_declared_box(n, advanced):
    from gymnasium import spaces

    from blackangel_env.encoding import SeatEncoder
    high = observation_high()
    box = spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32)
    lay = [sl for sl in observation_layout() if sl.kind in ("count", "quantity")]
    seen = np.zeros(len(high), dtype=np.float32)
    for seed in range(3):
        encoders = [SeatEncoder(q) for q in range(n)]
        for s in random_positions(n, advanced, seed=100 * n + seed, every=2):
            for q in range(n):
                o = encoders[q].encode(s)
                assert box.contains(o)
                np.maximum(seen, o, out=seen)
    for sl in lay:                      # usual values use a good part of the range of at least some slices
        assert seen[sl.offset:sl.offset + sl.size].max() <= sl.high


def test_values_beyond_the_bound_clip_to_it_in_both_encoders():
    """A saturating quantity (VP, goods in storage, the round) beyond its level reads as ``high``, the same in
    the vectorised and the incremental encoders, and never leaves the Box."""
    from blackangel_env.encoding import SeatEncoder
    from blackangel_env.state import M_ROUND
    lay = {sl.name: sl for sl in observation_layout()}
    high = observation_high()
    s = engine.new_game(num_players=2, seed=3)
    enc = SeatEncoder(0)
    enc.encode(s)
    s.vp[0] = 30000
    s.res[1] = 25
    s.m[M_ROUND] = 32767
    for o in (encode_observation(s, 0), enc.encode(s)):
        v = observation_views(o)
        assert v["p0.vp"][0] == lay["p0.vp"].high == 2.0
        assert v["p1.storage"][0] == lay["p1.storage"].high == 4.0
        assert v["game.round"][0] == lay["game.round"].high == 2.0
        assert np.all(o <= high) and np.all(o >= 0)
    assert enc.encode(s).tobytes() == encode_observation(s, 0).tobytes()
    s.vp[0] = 150                                   # back within the range: the exact value again
    assert observation_views(enc.encode(s))["p0.vp"][0] == np.float32(150) * np.float32(0.01)
