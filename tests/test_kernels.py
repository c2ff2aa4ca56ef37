"""The typed buffer loops of ``engine.kernels`` against what they stand for, written here with numpy on the named
views: the board's scroll under the ship (rulebook, Sequence B.3 "The Black Angel advances": strip 1 leaves, the
board moves one strip, the strip is turned over and placed last) and the dice a reroll takes from the supply
(Sequence B.1; rules decision R-B1: an undamaged die first), and the roll of those dice with the game's
generator (the numbers ``Generator.random`` gives).  Each runs compiled and interpreted (the equivalence
test plays whole games both ways); here each is checked on positions of seeded games, and bad arguments are
refused with the state left unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import random_positions  # (helpers puts the checkout on sys.path)

from blackangel_env import engine
from blackangel_env.engine import kernels
from blackangel_env.engine.space import _strip_hexes
from blackangel_env.state import DIE_SUPPLY, M_N_STRIPS, MC_SPACE


def _positions(n, advanced):
    return [s for g in range(3) for s in random_positions(n, advanced, 900 + 10 * n + g, every=5)]


def _scroll_reference(s, n_strips, lay):
    nh = 5 * n_strips
    first_id, first_face = int(s.strip_id[0]), int(s.strip_face[0])
    for name in ("hex_terrain", "hex_comet", "hex_icons", "hex_card"):
        f = getattr(s, name)
        f[:nh - 5] = f[5:nh].copy()
    s.hex_ship[:nh - 5] = s.hex_ship[5:nh].copy()
    s.hex_ship[nh - 5:nh] = -1
    s.hex_card[nh - 5:nh] = -1
    s.strip_id[:n_strips - 1] = s.strip_id[1:n_strips].copy()
    s.strip_face[:n_strips - 1] = s.strip_face[1:n_strips].copy()
    s.strip_id[n_strips - 1] = first_id
    s.strip_face[n_strips - 1] = 1 - first_face
    s.hex_terrain[nh - 5:nh], s.hex_comet[nh - 5:nh], s.hex_icons[nh - 5:nh] = lay
    s.mc_hex[s.mc_where == MC_SPACE] -= 5


@pytest.mark.parametrize("n,advanced", [(1, False), (2, True), (3, False), (4, True)])
def test_scroll_board_moves_the_board_one_strip(n, advanced):
    checked = 0
    for s in _positions(n, advanced):
        n_strips = int(s.m[M_N_STRIPS])
        lay = _strip_hexes(s.comp)[int(s.strip_id[0]), 1 - int(s.strip_face[0])]
        want = s.copy()
        _scroll_reference(want, n_strips, lay)
        kernels.scroll_board(s, n_strips, lay)
        assert np.array_equal(s.buf, want.buf)
        checked += 1
    assert checked > 20


def _take_reference(s, wanted):
    taken, damaged = [], []
    for seat, colour, count in wanted:
        for _ in range(count):
            base = 6 * colour
            supply = [d for d in range(base, base + 6) if s.die_owner[d] == DIE_SUPPLY]
            if not supply:
                break
            clean = [d for d in supply if not s.die_damaged[d]]
            d = (clean or supply)[0]
            if s.die_damaged[d]:
                s.die_damaged[d] = 0
                damaged.append((seat, colour))
            s.die_owner[d] = seat
            s.die_reserved[d] = 0
            taken.append(d)
    return taken, damaged


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_take_supply_dice_takes_an_undamaged_die_first(n):
    rng = np.random.default_rng(7 + n)
    checked = 0
    for s in _positions(n, advanced=n % 2 == 0):
        s.die_damaged[rng.random(18) < 0.3] = 1          # damaged dice in the supply, as Ravagers leave them
        wanted = [(int(rng.integers(n)), int(rng.integers(3)), int(rng.integers(4))) for _ in range(3)]
        want = s.copy()
        expected = _take_reference(want, wanted)
        assert kernels.take_supply_dice(s, wanted) == expected
        assert np.array_equal(s.buf, want.buf)
        checked += bool(expected[0])
    assert checked > 10


def test_more_robots_than_dice_roll_the_dice_there_are():
    """Sequence B.1: "it is possible that the number of available dice of a color is less than the number of robots
    you have in the workstation of this color; in this case, you simply roll fewer dice"."""
    s = engine.new_game(num_players=1, seed=5)
    supply = [d for d in range(6) if s.die_owner[d] == DIE_SUPPLY]
    taken, _ = kernels.take_supply_dice(s, [(0, 0, 8)])            # 8 robots in the orange workstation
    assert sorted(taken) == supply and all(s.die_owner[d] == 0 for d in supply)
    assert kernels.take_supply_dice(s, [(0, 0, 3)]) == ([], [])    # none left


def test_bad_arguments_are_refused_and_change_nothing():
    s = engine.new_game(num_players=2, seed=3)
    before = s.buf.copy()
    lay = _strip_hexes(s.comp)[0, 0]
    for n_strips in (0, 8, -1):
        with pytest.raises(ValueError, match="strips"):
            kernels.scroll_board(s, n_strips, lay)
    for bad in ((0, 3, 1), (5, 0, 1), (-1, 0, 1), (0, 0, -1)):
        with pytest.raises(ValueError, match="seat"):
            kernels.take_supply_dice(s, [(0, 0, 1), bad])          # the good entry before it is not taken either
    assert np.array_equal(s.buf, before)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_roll_dice_draws_the_numbers_generator_random_gives(n):
    """``roll_dice`` (compiled: numpy's ``next_double`` through the bit generator, without ``Generator.random``)
    gives each die ``faces[int(x * len(faces))]`` for the generator's next numbers, one a die in the order given,
    and leaves the generator where ``Generator.random(len(dice))`` leaves it."""
    rng = np.random.default_rng(n)
    for s in _positions(n, n % 2 == 0):
        dice = [int(d) for d in rng.permutation(18)[:int(rng.integers(0, 7))]]
        ref = s.copy()
        faces = ref.comp.die_faces
        for d, x in zip(dice, ref.rng.random(len(dice)).tolist()):
            ref.die_value[d] = faces[int(x * len(faces))]
        kernels.roll_dice(s, dice)
        assert np.array_equal(s.buf, ref.buf)
        assert s.rng_state() == ref.rng_state()
        assert s.rng.random() == ref.rng.random()            # the same stream goes on


@pytest.mark.parametrize("buffered", [False, True])
def test_shuffle_list_makes_the_swaps_generator_shuffle_makes(buffered):
    """``shuffle_list`` (compiled: numpy's ``random_interval`` over ``next_uint32`` through the bit generator,
    without ``Generator.shuffle``) leaves a list as ``Generator.shuffle`` does and the generator where it leaves it,
    for short and long lists (the masks of 1 to 9 bits, redraws above the bound), also with half of a 64-bit
    number buffered by an earlier 32-bit draw."""
    s = engine.new_game(num_players=2, seed=1)
    for seed in range(40):
        for n in list(range(0, 35)) + [64, 65, 100, 300]:
            s.reseed(seed * 1000 + n)
            ref = s.copy()
            if buffered:
                for g in (s, ref):
                    g.rng.integers(0, 2**32, dtype=np.uint32)
            items, expected = list(range(n)), list(range(n))
            kernels.shuffle_list(s, items)
            ref.rng.shuffle(expected)
            assert items == expected, (seed, n)
            assert s.rng_state() == ref.rng_state(), (seed, n)


def test_roll_dice_refuses_a_die_that_is_not_one_and_draws_nothing():
    s = engine.new_game(num_players=2, seed=3)
    before, state = s.buf.copy(), s.rng_state()
    for bad in ([18], [0, -1], [3, 40]):
        with pytest.raises(ValueError, match="not a die id"):
            kernels.roll_dice(s, bad)
    assert np.array_equal(s.buf, before) and s.rng_state() == state


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_return_dice_and_unreserved_dice_read_and_move_a_compartment(n):
    """Sequence B.1 starts by returning every die of the compartment (reserved ones too: rules-notes D12) to the
    supply, blank and unreserved, the player losing their total; the reservation then offers the unreserved dice
    of the new roll."""
    for s in _positions(n, n % 2 == 1):
        for seat in range(n):
            mine = [d for d in range(18) if s.die_owner[d] == seat]
            assert kernels.unreserved_dice(s, seat) == [d for d in mine if not s.die_reserved[d]]
            ref = s.copy()
            total = sum(int(ref.die_value[d]) for d in mine)
            for d in mine:
                ref.die_owner[d] = DIE_SUPPLY
                ref.die_reserved[d] = 0
                ref.die_value[d] = 0
            c = s.copy()
            assert kernels.return_dice(c, seat) == total
            assert np.array_equal(c.buf, ref.buf)
            assert kernels.unreserved_dice(c, seat) == []


def test_compartment_kernels_refuse_a_seat_out_of_range():
    s = engine.new_game(num_players=2, seed=3)
    before = s.buf.copy()
    for seat in (-1, 5, 99):
        with pytest.raises(ValueError, match="not a seat"):
            kernels.return_dice(s, seat)
        with pytest.raises(ValueError, match="not a seat"):
            kernels.unreserved_dice(s, seat)
    assert np.array_equal(s.buf, before)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_store_grid_debris_returns_the_debris_on_a_grid_to_storage(n):
    """Sequence B.2 ('the debris on your tiles returns to your storage') and final scoring (debris on tiles
    returns first): each tile of the seat's grid loses its debris, the seat's storage gains them."""
    rng = np.random.default_rng(n)
    for s in _positions(n, n == 3):
        for seat in range(n):
            c = s.copy()
            tiles = [t for t in c.grid[seat].tolist() if t >= 0]
            for t in tiles:                                  # debris on about half of the tiles
                if rng.random() < 0.5:
                    c.tile_debris[t] = 1
            ref = c.copy()
            on = [t for t in tiles if ref.tile_debris[t]]
            for t in on:
                ref.tile_debris[t] = 0
            ref.debris[seat] += len(on)
            assert kernels.store_grid_debris(c, seat) == len(on)
            assert np.array_equal(c.buf, ref.buf)
    with pytest.raises(ValueError, match="not a player seat"):
        kernels.store_grid_debris(s, 4)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_cards_at_lists_the_mission_cards_of_a_location(n):
    """``cards_at`` (a hand's Mission cards, the cards at any location code) equals the named view's scan."""
    from blackangel_env.state import MC_HAND
    for s in _positions(n, n % 2 == 0):
        where = s.mc_where.tolist()
        for code in sorted(set(where)) + [MC_HAND + k for k in range(5)]:
            assert kernels.cards_at(s, code) == [i for i, w in enumerate(where) if w == code]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_ship_hexes_lists_the_hexes_of_a_seats_ships(n):
    for s in _positions(n, n % 2 == 1):
        for seat in range(5):
            assert kernels.ship_hexes(s, seat) == [h for h in range(s.hex_ship.shape[0])
                                                   if seat in s.hex_ship[h].tolist()]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_hex_cards_lists_the_cards_in_space_on_a_run_of_hexes(n):
    """``hex_cards`` (strip 1's cards, ejected at Sequence B.3) equals the named view's scan, hex by hex."""
    for s in _positions(n, n % 2 == 0):
        cards = s.hex_card.tolist()
        for lo, hi in ((0, 5), (0, 0), (5, 10), (0, len(cards))):
            assert kernels.hex_cards(s, lo, hi) == [c for c in cards[lo:hi] if c >= 0]


def _ships_to_supply_reference(s, lo, hi):
    from blackangel_env.state import BOT
    k = 0
    for h in range(lo, hi):
        for q in s.hex_ship[h].tolist():
            if q >= 0:
                if q != BOT:
                    s.robots_supply[q] += 1
                k += 1
    s.hex_ship[lo:hi] = -1
    return k


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_ships_to_supply_takes_the_ships_off_and_sends_the_pilots_home(n):
    """Rulebook, Sequence B.3 (rules-notes D5): the ships on the ejected strip go back to the general supply and
    their pilots to their players' robot supplies; Hal's and the neutral player's ships have no pilot."""
    from blackangel_env.state import BOT
    positions = _positions(n, n % 2 == 1)
    s = positions[0].copy()                    # a strip 1 full of ships, Hal's/the neutral's among them
    s.hex_ship[0] = [0, BOT]
    s.hex_ship[1] = [n - 1, -1]
    s.hex_ship[4] = [BOT, 0] if n > 1 else [0, -1]
    for s in [s] + positions:
        for lo, hi in ((0, 5), (3, 8)):
            a, b = s.copy(), s.copy()
            assert kernels.ships_to_supply(a, lo, hi) == _ships_to_supply_reference(b, lo, hi)
            assert np.array_equal(a.buf, b.buf)


def test_hex_run_kernels_refuse_a_run_off_the_board_and_change_nothing():
    s = engine.new_game(num_players=2, seed=3)
    before = s.buf.copy()
    n_hexes = s.hex_card.shape[0]
    for lo, hi in ((-1, 5), (3, 2), (0, n_hexes + 1)):
        for kernel in (kernels.hex_cards, kernels.ships_to_supply):
            with pytest.raises(ValueError, match="hexes"):
                kernel(s, lo, hi)
    assert np.array_equal(s.buf, before)
