"""Rules tests: ADVANCED RULES (boost sides and their "1x" effects, A3 "draw two, keep one", the draw-Mission
tile), R-A3 and R-A9 of docs/rules.md, rules-notes A14, B21, D20.

EN = shared/rules/rulebook-en.txt, ADVANCED RULES (appendix page A4 for the 1x effects); FR =
rulebook-fr.txt.  Boost effects in the component data (rules-notes C5): tile 0 '+2 VP on action 1', tile 1
'set an orange die to 3', tile 2 'change an orange die's colour', tile 3 'reserve an orange die for free';
tile 16 '+2 VP on action 3', tile 17 'set a gray die to 3'.  The tests look the tiles up by effect.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import helpers as H
from blackangel_env import engine
from blackangel_env.constants import (
    BE_CHANGE_COLOUR, BE_FREE_RESERVE, BE_SET_THREE, BE_VP_ON_ACTION, GRAY, GREEN, ORANGE, TE_DRAW_MISSION, TE_VP,
)
from blackangel_env.state import (
    M_ADVANCED, M_TURN_PLAYER, M_DIE_COLOUR, M_DIE_COLOUR0, M_DIE_VALUE, MC_DISCARD, MC_DRAWN, MC_HAND, PH_A2_DIE,
    PH_A2_MODIFY, PH_ACTION_BOOST, PH_B_RESERVE, PH_DEBRIS, PH_DIE_COLOUR, PH_DISCOVER, PH_INJECT, PH_KEEP,
    PH_REPAIR, PH_TILE_DRAW, PH_TURN, TL_GRID, TL_STACK, State,
)

DISCOVER, CMD_ORANGE, REPAIR, CMD_GRAY, DESTROY, CMD_GREEN = range(6)


def _boost_tile(s: State, colour: int, boost: int, arg: int | None = None, skip=()) -> int:
    """A standard Technology tile of ``colour`` whose boost side has ``boost`` (with ``arg``: the action for
    +2 VP, else a colour)."""
    c = s.comp
    for t in range(16 * colour, 16 * colour + 16):
        if t in skip or c.tile_boost[t] != boost:
            continue
        if arg is None or c.tile_boost_arg[t] == arg:
            return t
    raise AssertionError("no such tile")


def _bare(n: int = 3, seed: int = 0, advanced: bool = True) -> State:
    """Advanced game, no dice, Ravagers, damage, ships or icons; player 0's grid and hand empty, no goods."""
    s = H.game(n, seed=seed, advanced=advanced)
    H.clear_dice(s)
    H.clear_ravagers(s)
    H.clear_ships(s)
    H.no_icons(s)
    H.clear_grid(s, 0)
    H.clear_hand(s, 0)
    H.discard_hand_ravagers(s, 0)
    s.res[0] = s.debris[0] = 0
    H.set_display(s, [-1] * 8)
    return s


def _grid(s: State, cells: dict, boost: bool = True) -> None:
    for cell, t in cells.items():
        H.put_tile(s, 0, cell, t)
        s.tile_boost[t] = int(boost)


def _cost1(s: State, k: int = 3) -> list[int]:
    """k tiles on the cost-1 end of the display (from a colour stack)."""
    ts = [t for t in range(32, 48) if s.tile_where[t] == TL_STACK][:k]
    H.set_display(s, [-1] * (8 - k) + ts)
    return ts


# =============================================================================================================
# Boost side up
# =============================================================================================================

@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_setup_tiles_boost_side_up(n):
    """ADVANCED RULES, TECHNOLOGY TILES: 'During setup, as well as when new Technology tiles appear, these
    tiles must always be placed boost side up' (every player count, solo included); the basic game uses the
    standard side only."""
    s = engine.new_game(num_players=n, seed=n, advanced=True)
    shown = [int(t) for t in s.display if t >= 0]
    assert len(shown) == 3 and all(s.tile_boost[t] for t in shown)
    assert all(s.tile_boost[t] for t in range(48) if s.tile_where[t] == TL_STACK)
    assert not np.any(s.tile_boost[48:])                    # Starting and Advanced tiles have no boost side
    b = engine.new_game(num_players=n, seed=n, advanced=False)
    assert not np.any(b.tile_boost)


def _command_placement(advanced: bool):
    """3 players, every hex orange; player 0 launches a ship one hex and places an orange Mission card whose
    tiles appear in the display."""
    s = _bare(advanced=advanced)
    for h in range(35):
        s.hex_terrain[h] = ORANGE
        s.hex_comet[h] = 0
    d = H.give_die(s, 0, ORANGE, 1)
    card = next(c for c in range(20) if s.mc_where[c] in (0, MC_DISCARD))
    H.mission_to_hand(s, 0, card)
    H.start_a2(s, 0)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", CMD_ORANGE)
    H.act(s, "LAUNCH_SHIP")
    H.act(s, "MOVE_SHIP", H.ba_hex(s) + 5)
    H.act(s, "PLACE_MISSION", card)
    return s, card


@pytest.mark.parametrize("advanced", [False, True])
def test_tiles_appearing_from_a_mission_card_boost_side_up(advanced):
    """ADVANCED RULES: '... as well as when new Technology tiles appear, these tiles must always be placed
    boost side up' (COMMAND step 4, the tiles shown on the placed card)."""
    s, card = _command_placement(advanced)
    shown = [int(t) for t in s.display if t >= 0]
    assert len(shown) == len(s.comp.mission_tiles[card]) >= 1
    assert all(int(s.tile_boost[t]) == int(advanced) for t in shown)


@pytest.mark.parametrize("advanced", [False, True])
def test_discovered_tile_injected_boost_side_up(advanced):
    """ADVANCED RULES: 'When you use the Discover Technology action ... to take Technology tiles, you must
    also inject them into your grid boost side up.'"""
    s = _bare(advanced=advanced)
    t = _cost1(s, 1)[0]
    s.tile_boost[t] = 0
    d = H.give_die(s, 0, ORANGE, 1)
    H.start_a2(s, 0)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", DISCOVER)
    if s.phase == PH_ACTION_BOOST:
        H.act(s, "DONE")
    H.act(s, "TAKE_TECH", 7)
    assert s.phase == PH_INJECT
    H.act(s, "INJECT", 0)
    assert int(s.tile_where[t]) == TL_GRID + 0 and int(s.grid[0, 0]) == t
    assert int(s.tile_boost[t]) == int(advanced)


def test_base_game_offers_no_boost():
    """ADVANCED RULES are an option: in the basic game no tile shows a boost side, so no 1x is offered."""
    s = _bare(advanced=False)
    t = _boost_tile(s, ORANGE, BE_SET_THREE, ORANGE)
    _grid(s, {0: t}, boost=False)
    _cost1(s)
    d = H.give_die(s, 0, ORANGE, 1)
    H.start_a2(s, 0)
    H.act(s, "SELECT_DIE", d)
    assert H.blocks_legal(s, "USE_BOOST") == []


# =============================================================================================================
# The 1x effects (A2, appendix page A4), each a player's choice that flips its tile
# =============================================================================================================

def _a2_with(s: State, colour: int, value: int, owner: int = 0) -> int:
    d = H.give_die(s, owner, colour, value)
    H.start_a2(s, 0)
    H.checked(s)
    return d


def test_vp_boost_on_the_indicated_action():
    """ADVANCED RULES, '1x' Effect: 'When you perform the action corresponding to the "1x" effect ... you can
    flip this tile over to improve your action' (appendix A4: gain 2 VP when you perform the indicated
    action).  It is a choice (USE_BOOST or DONE), offered only for that action, and flips the tile."""
    s = _bare()
    t = _boost_tile(s, ORANGE, BE_VP_ON_ACTION, DISCOVER)
    other = _boost_tile(s, ORANGE, BE_VP_ON_ACTION, CMD_ORANGE)
    _grid(s, {0: t, 1: other})
    _cost1(s)
    d = _a2_with(s, ORANGE, 1)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert s.phase == PH_ACTION_BOOST
    assert H.blocks_legal(s, "USE_BOOST") == [0] and H.is_legal(s, "DONE")
    vp = int(s.vp[0])
    H.act(s, "USE_BOOST", 0)
    assert int(s.vp[0]) == vp + 2
    assert int(s.tile_boost[t]) == 0 and int(s.tile_boost[other]) == 1
    assert s.phase == PH_DISCOVER


def test_vp_boost_declined_keeps_the_tile_boost_side_up():
    """ADVANCED RULES: '... you CAN flip this tile over' — declining (DONE) leaves the tile boost side up."""
    s = _bare()
    t = _boost_tile(s, ORANGE, BE_VP_ON_ACTION, DISCOVER)
    _grid(s, {0: t})
    _cost1(s)
    d = _a2_with(s, ORANGE, 1)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", DISCOVER)
    vp = int(s.vp[0])
    H.act(s, "DONE")
    assert int(s.vp[0]) == vp and int(s.tile_boost[t]) == 1 and s.phase == PH_DISCOVER


@pytest.mark.parametrize("bought", [False, True])
def test_set_die_to_three(bought):
    """Appendix A4 / ADVANCED RULES example: 'Note buys Valentin's value-1 green die by giving him 1 resource.
    Note then uses the "1x" effect of a Technology tile ... to give it a value of 3' (a bought die too,
    rules-notes A14, D20)."""
    s = _bare()
    t = _boost_tile(s, ORANGE, BE_SET_THREE, ORANGE)
    _grid(s, {0: t})
    _cost1(s)
    if bought:
        s.res[0] = 1
    d = _a2_with(s, ORANGE, 1, owner=1 if bought else 0)
    H.act(s, "SELECT_DIE", d)
    assert s.phase == PH_A2_MODIFY and H.blocks_legal(s, "USE_BOOST") == [0]
    H.act(s, "USE_BOOST", 0)
    assert int(s.m[M_DIE_VALUE]) == 3 and int(s.tile_boost[t]) == 0
    assert H.blocks_legal(s, "USE_BOOST") == []
    H.act(s, "BOARD_ACTION", DISCOVER)
    for pos in (7, 6, 5):
        H.act(s, "TAKE_TECH", pos)
        H.act(s, "INJECT", 0)
    assert sum(1 for x in s.display if x >= 0) == 0


def test_set_three_only_for_a_die_of_the_tiles_colour():
    """Appendix A4: the 1x sets 'a die of the indicated color' to 3: not offered for another colour's die."""
    s = _bare()
    t = _boost_tile(s, ORANGE, BE_SET_THREE, ORANGE)
    _grid(s, {0: t})
    s.dmg[REPAIR] = 1
    d = _a2_with(s, GRAY, 1)
    H.act(s, "SELECT_DIE", d)
    assert H.blocks_legal(s, "USE_BOOST") == []


def test_change_colour_then_the_new_colours_action_and_a3_original_colour():
    """Appendix A4 'change a die of the indicated color to the color of your choice'; ADVANCED RULES, A3:
    'If you have modified the color of your die through a "1x" effect of a technology, the cards you draw
    must match the original color of your die.'"""
    s = _bare()
    t = _boost_tile(s, ORANGE, BE_CHANGE_COLOUR, ORANGE)
    _grid(s, {0: t})
    s.dmg[CMD_GREEN] = 1                             # something for a gray Repair
    d = _a2_with(s, ORANGE, 2)
    H.act(s, "SELECT_DIE", d)
    assert H.blocks_legal(s, "USE_BOOST") == [0]
    H.act(s, "USE_BOOST", 0)
    assert s.phase == PH_DIE_COLOUR and int(s.tile_boost[t]) == 0
    assert GRAY in H.blocks_legal(s, "SET_DIE_COLOUR") and ORANGE not in H.blocks_legal(s, "SET_DIE_COLOUR")
    H.act(s, "SET_DIE_COLOUR", GRAY)
    assert int(s.m[M_DIE_COLOUR]) == GRAY and int(s.m[M_DIE_COLOUR0]) == ORANGE
    legal = H.blocks_legal(s, "BOARD_ACTION")
    assert REPAIR in legal and set(legal) <= {REPAIR, CMD_GRAY}     # the gray actions now
    H.act(s, "BOARD_ACTION", REPAIR)
    H.act(s, "REPAIR_ACTION", CMD_GREEN)
    H.act(s, "DEBRIS_TO_STORAGE")
    assert s.phase == PH_KEEP
    drawn = [int(c) for c in s.drawn if c >= 0]
    assert len(drawn) == 2 and all(c // 20 == ORANGE for c in drawn)


def test_several_1x_effects_on_one_action():
    """ADVANCED RULES: 'You can use applicable "1x" effects of several tiles at once. Example: Change the color
    of a die and give it a value of 3' (and the +2 VP of the action performed)."""
    s = _bare()
    change = _boost_tile(s, ORANGE, BE_CHANGE_COLOUR, ORANGE)
    three = _boost_tile(s, GRAY, BE_SET_THREE, GRAY)
    vp2 = _boost_tile(s, GRAY, BE_VP_ON_ACTION, REPAIR)
    _grid(s, {0: change, 1: three, 2: vp2})
    s.dmg[:] = [1, 1, 0, 1, 0, 0]
    d = _a2_with(s, ORANGE, 1)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "USE_BOOST", 0)
    H.act(s, "SET_DIE_COLOUR", GRAY)
    assert H.blocks_legal(s, "USE_BOOST") == [1]
    H.act(s, "USE_BOOST", 1)
    assert int(s.m[M_DIE_VALUE]) == 3
    H.act(s, "BOARD_ACTION", REPAIR)
    assert s.phase == PH_ACTION_BOOST
    vp = int(s.vp[0])
    H.act(s, "USE_BOOST", 2)
    assert int(s.vp[0]) == vp + 2 and s.phase == PH_REPAIR
    for a in (DISCOVER, CMD_ORANGE, CMD_GRAY):
        H.act(s, "REPAIR_ACTION", a)
        H.act(s, "DEBRIS_TO_STORAGE")
    assert H.np_list(s.dmg) == [0] * 6
    assert [int(s.tile_boost[t]) for t in (change, three, vp2)] == [0, 0, 0]


def test_free_reservation_in_sequence_b_on_top_of_the_paid_one():
    """Appendix A4: 'reserve a die of the indicated color for free during Sequence B, on top of the paid
    reservation' (rules-notes A14)."""
    s = _bare()
    t = _boost_tile(s, ORANGE, BE_FREE_RESERVE, ORANGE)
    _grid(s, {0: t})
    s.res[0] = 1
    H.start_turn(s, 0)
    H.checked(s)
    H.act(s, "SEQUENCE_B")
    assert s.phase == PH_B_RESERVE
    assert H.blocks_legal(s, "USE_BOOST") == [0]
    H.act(s, "USE_BOOST", 0)
    assert int(s.tile_boost[t]) == 0
    own = [d for d in range(18) if s.die_owner[d] == 0]
    assert sorted(H.blocks_legal(s, "RESERVE_DIE")) == [d for d in own if d // 6 == ORANGE]
    assert not H.is_legal(s, "DONE")
    o = [d for d in own if d // 6 == ORANGE][0]
    H.act(s, "RESERVE_DIE", o)
    assert int(s.res[0]) == 1                         # free
    g = [d for d in own if d // 6 == GRAY][0]
    H.act(s, "RESERVE_DIE", g)                        # the paid one: the last possible choice ends B
    assert int(s.res[0]) == 0
    assert s.die_reserved[o] and s.die_reserved[g]
    assert s.phase == PH_TURN and int(s.m[M_TURN_PLAYER]) == 1    # player 1's turn


def test_free_reservation_not_offered_in_the_basic_game():
    """The free reservation is a 1x effect: absent from the basic game (a paid reservation only)."""
    s = _bare(advanced=False)
    t = _boost_tile(s, ORANGE, BE_FREE_RESERVE, ORANGE)
    _grid(s, {0: t}, boost=False)
    s.res[0] = 1
    H.start_turn(s, 0)
    H.act(s, "SEQUENCE_B")
    assert s.phase == PH_B_RESERVE and H.blocks_legal(s, "USE_BOOST") == []


# =============================================================================================================
# Only standard-side tiles are activated (R-A3)
# =============================================================================================================

def test_card_activation_flips_a_boost_tile_first():
    """ADVANCED RULES, Important: 'only the tiles that are standard side up can be activated. You are welcome
    to flip one or more tiles from their boost side to their standard side "prematurely" so they can be
    activated this way, but by doing so, you forfeit their "1x" effect' (R-A3: activating a boost-side tile
    flips it first)."""
    s = _bare()
    t = next(x for x in range(16) if s.comp.tile_effect[x] == TE_VP)
    _grid(s, {0: t})
    _cost1(s)
    H.give_die(s, 0, ORANGE, 1)
    card = next(c for c in range(20) if s.mc_where[c] in (0, MC_DISCARD))
    H.mission_to_hand(s, 0, card)
    H.start_a1(s, 0)
    H.checked(s)
    H.act(s, "PLAY_MISSION", card * 6 + 0)           # left of row 1
    assert H.blocks_legal(s, "RESOLVE_TILE") == [0]
    vp = int(s.vp[0])
    H.act(s, "RESOLVE_TILE", 0)
    assert int(s.tile_boost[t]) == 0 and int(s.vp[0]) == vp + 1
    assert s.phase == PH_A2_DIE


def test_debris_activation_flips_a_boost_tile_first():
    """ADVANCED RULES, Important: 'You can do the same when you perform the Repair the Black Angel action and
    you wish to activate a tile's effect using debris you have recovered.'"""
    s = _bare()
    t = next(x for x in range(16, 32) if s.comp.tile_effect[x] == TE_VP)
    _grid(s, {0: t})
    s.dmg[DISCOVER] = 1
    d = _a2_with(s, GRAY, 1)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", REPAIR)
    if s.phase == PH_ACTION_BOOST:
        H.act(s, "DONE")
    H.act(s, "REPAIR_ACTION", DISCOVER)
    assert s.phase == PH_DEBRIS and H.is_legal(s, "DEBRIS_TO_TILE", 0)
    vp = int(s.vp[0])
    H.act(s, "DEBRIS_TO_TILE", 0)
    assert int(s.tile_boost[t]) == 0 and int(s.vp[0]) == vp + 1 and s.tile_debris[t]


def test_boost_tile_flipped_by_activation_loses_its_1x():
    """ADVANCED RULES, Important: '... you forfeit their "1x" effect': once activated, the set-to-3 tile no
    longer offers its 1x in A2."""
    s = _bare()
    t = _boost_tile(s, ORANGE, BE_SET_THREE, ORANGE)
    _grid(s, {0: t})
    _cost1(s)
    H.give_die(s, 0, ORANGE, 1)
    card = next(c for c in range(20) if s.mc_where[c] in (0, MC_DISCARD))
    H.mission_to_hand(s, 0, card)
    H.start_a1(s, 0)
    H.act(s, "PLAY_MISSION", card * 6 + 0)
    H.act(s, "RESOLVE_TILE", 0)
    while s.phase != PH_A2_DIE:
        H.act(s, "DONE")
    d = H.blocks_legal(s, "SELECT_DIE")[0]
    H.act(s, "SELECT_DIE", d)
    assert H.blocks_legal(s, "USE_BOOST") == []


# =============================================================================================================
# A3: draw two, keep one; the draw-Mission tile
# =============================================================================================================

def test_a3_draw_two_keep_one():
    """ADVANCED RULES: 'A3. DRAW TWO CARDS MATCHING THE COLOR OF THE CHOSEN DIE, KEEP ONE OF THEM, AND PUT THE
    DIE IN ITS SUPPLY' — the choice is an action (KEEP_MISSION); the other card is discarded."""
    s = _bare()
    _cost1(s)
    d = _a2_with(s, ORANGE, 1)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", DISCOVER)
    H.act(s, "TAKE_TECH", 7)
    H.act(s, "INJECT", 0)
    assert s.phase == PH_KEEP and s.actor == 0
    drawn = [int(c) for c in s.drawn]
    assert all(c // 20 == ORANGE for c in drawn) and all(int(s.mc_where[c]) == MC_DRAWN + 0 for c in drawn)
    assert sorted(H.blocks_legal(s, "KEEP_MISSION")) == sorted(drawn)
    H.act(s, "KEEP_MISSION", drawn[1])
    assert int(s.mc_where[drawn[1]]) == MC_HAND + 0 and int(s.mc_where[drawn[0]]) == MC_DISCARD
    assert H.np_list(s.drawn) == [-1, -1]
    assert s.phase == PH_TURN


def test_a3_basic_game_draws_one():
    """Basic rules A3: 'Draw a card matching the color of the chosen die' (one card, no choice)."""
    s = _bare(advanced=False)
    _cost1(s)
    d = _a2_with(s, ORANGE, 1)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", DISCOVER)
    H.act(s, "TAKE_TECH", 7)
    H.act(s, "INJECT", 0)
    assert s.phase == PH_TURN and int(s.hand_mc[0, ORANGE]) == 1


def test_draw_mission_tile_draws_two_keeps_one():
    """Appendix, Technology tiles: 'Draw 1 Mission card of the color of your choice' becomes, with the
    advanced rules, draw 2 and keep 1 (EN; FR gives only the two-card text, rules-notes B21)."""
    s = _bare()
    t = next(x for x in range(16) if s.comp.tile_effect[x] == TE_DRAW_MISSION)
    _grid(s, {0: t}, boost=False)
    _cost1(s)
    H.give_die(s, 0, ORANGE, 1)
    card = next(c for c in range(20) if s.mc_where[c] in (0, MC_DISCARD))
    H.mission_to_hand(s, 0, card)
    H.start_a1(s, 0)
    H.checked(s)
    H.act(s, "PLAY_MISSION", card * 6 + 0)
    H.act(s, "RESOLVE_TILE", 0)
    assert s.phase == PH_TILE_DRAW
    H.act(s, "DRAW_COLOUR", GREEN)
    assert s.phase == PH_KEEP
    drawn = [int(c) for c in s.drawn]
    assert len(drawn) == 2 and all(c // 20 == GREEN for c in drawn)
    H.act(s, "KEEP_MISSION", drawn[0])
    assert int(s.mc_where[drawn[0]]) == MC_HAND + 0 and int(s.mc_where[drawn[1]]) == MC_DISCARD
    assert s.phase == PH_A2_DIE


# =============================================================================================================
# The option, recorded in the saved state
# =============================================================================================================

@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("n", [1, 3])
def test_advanced_flag_in_the_saved_state(advanced, n):
    """Issue 3, 'A game option advanced=True/False, recorded in the saved state': State.to_dict()['config']
    carries it and a loaded state keeps it."""
    from blackangel_env.state import State as St
    s = engine.new_game(num_players=n, seed=3, advanced=advanced)
    d = s.to_dict()
    assert d["config"]["advanced"] is advanced
    r = St.from_dict(json.loads(json.dumps(d)))
    assert r.config.advanced is advanced and bool(r.m[M_ADVANCED]) is advanced
    assert r == s
