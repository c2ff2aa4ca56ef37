"""Rules tests: ACTION: DISCOVER TECHNOLOGY (costs, display, Advanced slots, injection into the grid,
ejection), rules-notes A17, A18, C1, C11, D1; decision R-A10 of docs/rules.md.

EN = shared/rules/rulebook-en.txt; rules-notes = shared/design/rules-notes.md.
"""

from __future__ import annotations

import pytest

import helpers as H
from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.constants import ADV_TILE0, ORANGE
from blackangel_env.state import (
    M_ADV_DECK_N, M_VALUE, PH_ADVANCED_SPACE, PH_DISCOVER, PH_INJECT, TL_ADV_SLOT, TL_ADV_SPACE,
    TL_EJECTED, TL_GRID,
)

DISCOVER = 0
ADV = [ADV_TILE0 + k for k in range(16)]


def _discover(value: int, display: list, adv=(ADV[0], ADV[1], ADV[2], ADV[3]), grid=None, advanced_deck=True):
    """Player 0 has chosen Discover with an orange die of ``value`` (undamaged, no Ravager); the display, the
    Advanced slots and player 0's grid are as given."""
    s = H.bare_game(3, seed=5)
    H.set_display(s, display)
    H.set_adv_slots(s, list(adv))
    H.set_grid(s, 0, grid or {})
    if not advanced_deck:
        while int(s.m[M_ADV_DECK_N]):
            H.tile_to_box(s, H.adv_deck_top(s))
    d = H.give_die(s, 0, ORANGE, value)
    H.start_a2(s, 0)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert s.phase == PH_DISCOVER and int(s.m[M_VALUE]) == value
    return s


FULL = [0, 16, 32, 1, 17, 33, -1, -1]       # 4 tiles on display spaces 1-6: cost 2, 2, 1, 1, 1, 1


def test_costs_with_one_activation():
    """DISCOVER: 'take 1 Technology tile ... except for the 2 tiles at the beginning of the display, and the
    Advanced Technology tiles; each of those tiles requires two activations' (display costs 2,2,1,1,...)."""
    s = _discover(1, FULL)
    assert H.blocks_legal(s, "TAKE_TECH") == [2, 3, 4, 5]
    assert H.blocks_legal(s, "TAKE_ADVANCED") == []
    assert not H.is_legal(s, "DONE")            # a die of value 1-3 must perform at least one activation


def test_costs_with_two_activations():
    """DISCOVER: with 2 activations the cost-2 tiles and the Advanced tiles (always cost 2) are available."""
    s = _discover(2, FULL)
    assert H.blocks_legal(s, "TAKE_TECH") == [0, 1, 2, 3, 4, 5]
    assert H.blocks_legal(s, "TAKE_ADVANCED") == [0, 1, 2, 3]
    assert not H.is_legal(s, "DONE")


def test_taken_tile_not_replaced_and_display_does_not_move():
    """DISCOVER notes: 'Technology tiles taken are not replaced, and tiles remaining in the display are not
    moved.'"""
    s = _discover(3, FULL)
    H.act(s, "TAKE_TECH", 0)
    assert s.phase == PH_INJECT
    assert s.display.tolist() == [-1, 16, 32, 1, 17, 33, -1, -1]
    H.act(s, "INJECT", 0)
    assert int(s.tile_where[0]) == TL_GRID + 0
    assert s.phase == PH_DISCOVER
    assert H.blocks_legal(s, "TAKE_TECH") == [2, 3, 4, 5]        # 1 activation left
    assert H.is_legal(s, "DONE")
    H.act(s, "TAKE_TECH", 4)
    H.act(s, "INJECT", 1)
    assert s.display.tolist() == [-1, 16, 32, 1, -1, 33, -1, -1]
    assert s.phase not in (PH_DISCOVER, PH_INJECT)               # all 3 activations used
    H.checked(s)


def test_advanced_slot_refilled_from_deck():
    """DISCOVER notes: 'Advanced Technology tiles taken are immediately replaced by the top tile from the
    deck.'"""
    s = _discover(2, FULL)
    top = H.adv_deck_top(s)
    n = int(s.m[M_ADV_DECK_N])
    H.act(s, "TAKE_ADVANCED", 2)
    assert int(s.adv_slots[2]) == top and int(s.tile_where[top]) == TL_ADV_SLOT
    assert int(s.m[M_ADV_DECK_N]) == n - 1
    assert s.adv_slots.tolist()[:2] == [ADV[0], ADV[1]] and int(s.adv_slots[3]) == ADV[3]


def test_advanced_slot_stays_empty_when_deck_empty():
    """DISCOVER notes: 'If the deck is empty, the slot remains empty.'"""
    s = _discover(2, FULL, advanced_deck=False)
    H.act(s, "TAKE_ADVANCED", 1)
    assert s.adv_slots.tolist() == [ADV[0], -1, ADV[2], ADV[3]]
    H.act(s, "INJECT", 0)
    H.checked(s)


def test_standard_tile_six_arrows_advanced_tile_two_black_arrows():
    """DISCOVER: 'each Technology tile must follow the direction of one of the 6 color arrows; each Advanced
    Technology must follow one of the 2 black arrows' (rules-notes C11: both black arrows at the bottom-left
    corner, one pushing right, one pushing up)."""
    s = _discover(2, FULL)
    H.act(s, "TAKE_TECH", 0)
    assert H.blocks_legal(s, "INJECT") == [0, 1, 2, 3, 4, 5]
    s = _discover(2, FULL)
    H.act(s, "TAKE_ADVANCED", 0)
    assert H.blocks_legal(s, "INJECT") == [0, 3]
    with pytest.raises(engine.IllegalActionError):
        H.act(s, "INJECT", 1)
    H.act(s, "INJECT", 3)                                      # corner, pushing up column 1
    assert int(s.grid[0, H.cell(1, 1)]) == ADV[0]


def test_chain_push_stops_at_first_gap():
    """DISCOVER 'The new tiles will shift any tiles already present' + rules-notes D1 (FR 'en bloc'): the
    contiguous tiles move one step; a gap absorbs the push, nothing is ejected."""
    grid = {H.cell(1, 1): 40, H.cell(1, 3): 41}                 # row 1: [40, _, 41]
    s = _discover(2, FULL, grid=grid)
    H.act(s, "TAKE_TECH", 2)                                     # tile 32
    H.act(s, "INJECT", 0)                                        # row 1 from the left
    assert [int(s.grid[0, H.cell(1, k)]) for k in (1, 2, 3)] == [32, 40, 41]
    assert not any(s.tile_where[t] == TL_EJECTED + 0 for t in range(76))


def test_full_row_ejects_at_the_right():
    """DISCOVER: 'This may result in tiles being ejected from the top or right of the grid. Keep ejected tiles
    near your player board.'"""
    grid = {H.cell(2, 1): 40, H.cell(2, 2): 41, H.cell(2, 3): 42}
    s = _discover(1, FULL, grid=grid)
    H.act(s, "TAKE_TECH", 2)
    H.act(s, "INJECT", 1)                                        # row 2 from the left
    assert [int(s.grid[0, H.cell(2, k)]) for k in (1, 2, 3)] == [32, 40, 41]
    assert int(s.tile_where[42]) == TL_EJECTED + 0
    H.checked(s)


def test_full_column_ejects_at_the_top_and_debris_comes_back():
    """DISCOVER note: 'If a Technology tile with debris on it is ejected, reclaim the debris and place it in
    your storage area.' (column pushed up, the top tile ejected)."""
    grid = {H.cell(1, 2): 40, H.cell(2, 2): 41, H.cell(3, 2): 42}
    s = _discover(1, FULL, grid=grid)
    s.tile_debris[42] = 1
    s.tile_debris[41] = 1
    debris = int(s.debris[0])
    H.act(s, "TAKE_TECH", 3)                                     # tile 1
    H.act(s, "INJECT", 4)                                        # column 2 from the bottom
    assert [int(s.grid[0, H.cell(r, 2)]) for r in (1, 2, 3)] == [1, 40, 41]
    assert int(s.tile_where[42]) == TL_EJECTED + 0 and int(s.tile_debris[42]) == 0
    assert int(s.debris[0]) == debris + 1
    assert int(s.tile_debris[41]) == 1                           # debris stays on a tile still in the grid
    H.checked(s)


def test_ejected_advanced_tile_goes_to_a_chosen_free_space():
    """Advanced tiles: 'When an Advanced Technology tile is ejected, you must immediately place it on one of
    the 3 Advanced Technology spaces on your player board (only 1 tile per space)' (rules-notes B10)."""
    grid = {H.cell(1, 1): 40, H.cell(1, 2): 41, H.cell(1, 3): ADV[5]}
    s = _discover(2, FULL, grid=grid)
    H.put_adv_space(s, 0, 1, ADV[6])                              # space 1 is taken
    H.checked(s)
    H.act(s, "TAKE_TECH", 2)
    H.act(s, "INJECT", 0)
    assert s.phase == PH_ADVANCED_SPACE and s.actor == 0
    assert H.blocks_legal(s, "ADVANCED_SPACE") == [0, 2]
    H.act(s, "ADVANCED_SPACE", 2)
    assert int(s.adv_space[0, 2]) == ADV[5] and int(s.tile_where[ADV[5]]) == TL_ADV_SPACE + 0
    assert s.phase == PH_DISCOVER                                 # one activation left
    H.checked(s)


def test_ejected_advanced_tile_when_spaces_full():
    """Advanced tiles: one ejected after all 3 spaces are occupied is simply kept ejected (max 4 VP)."""
    grid = {H.cell(1, 1): 40, H.cell(1, 2): 41, H.cell(1, 3): ADV[5]}
    s = _discover(1, FULL, grid=grid)
    for k in range(3):
        H.put_adv_space(s, 0, k, ADV[6 + k])
    H.checked(s)
    H.act(s, "TAKE_TECH", 2)
    H.act(s, "INJECT", 0)
    assert int(s.tile_where[ADV[5]]) == TL_EJECTED + 0
    assert s.phase not in (PH_ADVANCED_SPACE, PH_DISCOVER)
    H.checked(s)


def _reachable_takes(s) -> set:
    """Every multiset of tile categories (cost 1 / cost 2 / advanced) a Discover can end with."""
    costs = s.comp.display_costs
    out = set()

    def walk(t, taken):
        ph = t.phase
        if ph == PH_DISCOVER:
            for a in engine.legal_actions(t):
                u = t.copy()
                name, arg = A.decode(a)
                if name == "DONE":
                    out.add(tuple(sorted(taken)))
                    continue
                cat = "adv" if name == "TAKE_ADVANCED" else f"cost{costs[arg]}"
                engine.apply(u, a)
                walk(u, taken + [cat])
        elif ph in (PH_INJECT, PH_ADVANCED_SPACE):
            u = t.copy()
            engine.apply(u, engine.legal_actions(u)[0])
            walk(u, taken)
        else:
            out.add(tuple(sorted(taken)))

    walk(s, [])
    return out


def test_rulebook_orange_3_example_single_cost_one_tile():
    """DISCOVER example: 'With her orange die showing a 3, Nocto can: take 3 Technology tiles that cost 1
    each; take 1 ... that costs 1, and 1 ... that costs 2; take 1 ... that costs 1, and 1 Advanced Technology
    tile, which always costs 2. Because there is only a single Technology tile that costs 1 in the display',
    only the last two are possible (plus stopping after fewer activations)."""
    s = _discover(3, [0, 16, 32, -1, -1, -1, -1, -1])
    got = _reachable_takes(s)
    assert got == {("cost1",), ("cost2",), ("adv",), ("cost1", "cost2"), ("adv", "cost1")}


def test_three_cost_one_tiles_with_a_3():
    """DISCOVER example, first option: with three cost-1 tiles a 3 takes all three."""
    s = _discover(3, [-1, -1, 0, 16, 32, -1, -1, -1], adv=(-1, -1, -1, -1))
    got = _reachable_takes(s)
    assert ("cost1", "cost1", "cost1") in got
    assert max(len(x) for x in got) == 3
    assert all(set(x) == {"cost1"} for x in got)
