"""Rules tests: A1 PLAY A CARD AROUND YOUR PLAYER BOARD and the tile effects (appendix STARTING TECHNOLOGY
TILES and TECHNOLOGY TILES - Standard side).

EN = shared/rules/rulebook-en.txt; rules-notes = shared/design/rules-notes.md; R-xx = docs/rules.md.
Grid cells: H.cell(row, col), row 1 = bottom, column 1 = left; slots 0-2 left of rows 1-3, 3-5 below
columns 1-3 (rules-notes C11).
"""

from __future__ import annotations

import pytest

import helpers as H
from blackangel_env import engine
from blackangel_env.board import distances
from blackangel_env.components import default_components
from blackangel_env.constants import (
    ADV_TILE0, GRAY, GREEN, ORANGE, T_ASTEROID, TE_ACT_HORIZONTAL, TE_ACT_VERTICAL, TE_DEBRIS, TE_DRAW_MISSION,
    TE_MOVE_ROBOT, TE_MOVE_SHIP, TE_RESOURCE, TE_ROBOT, TE_SHIP, TE_VP,
)
from blackangel_env.state import (
    M_N_STRIPS, MC_HAND, MC_SLOT, PH_A1_TILES, PH_A2_DIE, PH_SHIP_MOVE, PH_SHIP_SELECT, PH_TILE_ADJACENT, PH_TILE_DRAW,
    PH_TILE_OPTION, PH_TILE_ROBOT, RV_SLOT,
)

ORANGE_MISSION, GRAY_MISSION, GREEN_MISSION = 0, 20, 40
COMP = default_components()


def tile(colour, effect):
    """A standard Technology tile id of this colour and standard effect."""
    return next(t for t in range(48) if COMP.tile_colour[t] == colour and COMP.tile_effect[t] == effect)


ORANGE_VP = (7, 8, 9)
ADV = ADV_TILE0 + 0


def _position(cells: dict, missions=(ORANGE_MISSION, GRAY_MISSION, GREEN_MISSION)):
    """Player 0 in A1 with an orange 2 (a Discover use nothing in A1 can remove), the given grid, the given
    Mission cards and one Ravager card in hand."""
    s = H.bare_game(3, seed=2)
    H.clear_hand(s, 0)
    for c in missions:
        H.mission_to_hand(s, 0, c)
    assert s.hand_rav[0] == 1
    H.give_die(s, 0, ORANGE, 2)
    H.set_grid(s, 0, cells)
    H.start_a1(s, 0)
    H.checked(s)
    return s


def _play_mission(s, card, slot):
    H.act(s, "PLAY_MISSION", card * 6 + slot)


def test_mission_card_activates_only_same_colour_tiles_of_its_row():
    """A1: 'If you played a Mission card: This card activates only the Technology tiles in that row/column
    that are the same color as this card.'"""
    cells = {H.cell(1, 1): ORANGE_VP[0], H.cell(1, 2): tile(GRAY, TE_VP),
             H.cell(1, 3): tile(GREEN, TE_VP), H.cell(2, 1): ORANGE_VP[1]}
    s = _position(cells)
    _play_mission(s, ORANGE_MISSION, 0)                 # left of row 1
    assert s.phase == PH_A1_TILES
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(1, 1)]
    assert int(s.slots[0, 0]) == ORANGE_MISSION
    assert int(s.hand_mc[0, ORANGE]) == 0


def test_mission_card_activates_same_colour_tiles_of_its_column():
    """A1: a card placed below a column activates the tiles of that column (same colour for a Mission)."""
    cells = {H.cell(1, 1): ORANGE_VP[0], H.cell(2, 1): ORANGE_VP[1], H.cell(3, 1): tile(GRAY, TE_VP),
             H.cell(1, 2): ORANGE_VP[2]}
    s = _position(cells)
    _play_mission(s, ORANGE_MISSION, 3)                 # below column 1
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(1, 1), H.cell(2, 1)]


def test_mission_card_without_matching_tile_goes_to_a2():
    """A1: a Mission card whose row has no tile of its colour activates nothing; the turn goes on to A2."""
    s = _position({H.cell(1, 1): ORANGE_VP[0]})
    _play_mission(s, GREEN_MISSION, 0)
    assert s.phase == PH_A2_DIE


def test_ravager_card_activates_all_tiles_but_never_advanced():
    """A1: 'If you played a Ravager card: This card activates all of the Technology tiles in that row/column,
    regardless of their color'; 'Advanced Technology tiles are never activated'. Starting tiles (colourless,
    rules-notes C12) are activated by a Ravager card."""
    cells = {H.cell(1, 1): H.start_tile(0, 1), H.cell(1, 2): tile(GREEN, TE_VP), H.cell(1, 3): ADV}
    s = _position(cells)
    r = [r for r in range(30) if s.rav_where[r] == 10 + 0][0]
    H.act(s, "PLAY_RAVAGER", 0)
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(1, 1), H.cell(1, 2)]
    assert int(s.hand_rav[0]) == 0 and int(s.rav_where[r]) == RV_SLOT + 0
    assert int(s.slots[0, 0]) == 100 + r


def test_mission_card_never_activates_starting_or_advanced_tiles():
    """A1 + rules-notes C12: Starting tiles have no Mission colour (player colour), Advanced tiles are never
    activated: an orange card beside [Starting, Advanced, orange] activates only the orange tile."""
    cells = {H.cell(2, 1): H.start_tile(0, 0), H.cell(2, 2): ADV, H.cell(2, 3): ORANGE_VP[0]}
    s = _position(cells)
    _play_mission(s, ORANGE_MISSION, 1)                 # left of row 2
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(2, 3)]


def test_occupied_slot_cannot_take_a_card():
    """A1: a card goes on a slot 'as long as that slot does not already have a card in it'."""
    s = _position({H.cell(1, 1): ORANGE_VP[0]})
    H.mission_to_discard(s, GRAY_MISSION)              # a card already played on slot 0 (left of row 1)
    s.slots[0, 0] = GRAY_MISSION
    s.mc_where[GRAY_MISSION] = MC_SLOT + 0
    H.checked(s)
    slots = {arg % 6 for arg in H.blocks_legal(s, "PLAY_MISSION")}
    assert slots == {1, 2, 3, 4, 5}
    assert H.blocks_legal(s, "PLAY_RAVAGER") == [1, 2, 3, 4, 5]


def test_tiles_in_any_order_and_stop():
    """A1 notes: 'You may activate your Technology tiles in any order you wish'; activations are optional
    (R-A4): DONE stops and goes to A2, the remaining tiles are not resolved."""
    cells = {H.cell(1, 1): ORANGE_VP[0], H.cell(1, 2): ORANGE_VP[1], H.cell(1, 3): ORANGE_VP[2]}
    s = _position(cells)
    _play_mission(s, ORANGE_MISSION, 0)
    H.act(s, "RESOLVE_TILE", H.cell(1, 3))
    assert int(s.vp[0]) == 6
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(1, 1), H.cell(1, 2)]
    H.act(s, "RESOLVE_TILE", H.cell(1, 1))
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(1, 2)]
    with pytest.raises(engine.IllegalActionError):
        H.act(s, "RESOLVE_TILE", H.cell(1, 1))          # each tile once per card
    H.act(s, "DONE")
    assert s.phase == PH_A2_DIE
    assert int(s.vp[0]) == 7


def _resolve_single(cells, cell, slot=None):
    """Play the Ravager card on the row of ``cell`` and resolve that tile."""
    s = _position(cells)
    H.act(s, "PLAY_RAVAGER", cell // 3 if slot is None else slot)
    H.act(s, "RESOLVE_TILE", cell)
    return s


@pytest.mark.parametrize("colour,effect,field,delta", [
    (GRAY, TE_VP, "vp", 1),
    (ORANGE, TE_SHIP, "ships", 1),
    (GRAY, TE_RESOURCE, "res", 1),
    (GRAY, TE_DEBRIS, "debris", 1),
    (GREEN, TE_ROBOT, "robots_break", 1),
])
def test_simple_tile_effects(colour, effect, field, delta):
    """Appendix TECHNOLOGY TILES - Standard side: gain 1 VP; take 1 ship / 1 resource (storage); take 1 robot
    (supply -> break room); take 1 debris (storage)."""
    s = _position({H.cell(1, 2): tile(colour, effect)})
    before = int(getattr(s, field)[0])
    sup = int(s.robots_supply[0])
    H.act(s, "PLAY_RAVAGER", 0)
    H.act(s, "RESOLVE_TILE", H.cell(1, 2))
    assert int(getattr(s, field)[0]) == before + delta
    if effect == TE_ROBOT:
        assert int(s.robots_supply[0]) == sup - 1
    assert s.phase == PH_A2_DIE
    H.checked(s)


def test_robot_tile_with_empty_robot_supply_gives_nothing():
    """COMPONENTS note: robots are limited to those included; the take-robot tile gives nothing when all 16
    robots are in play."""
    s = _position({H.cell(1, 2): tile(GREEN, TE_ROBOT)})
    s.robots_break[0] += s.robots_supply[0]
    s.robots_supply[0] = 0
    br = int(s.robots_break[0])
    H.act(s, "PLAY_RAVAGER", 0)
    H.act(s, "RESOLVE_TILE", H.cell(1, 2))
    assert int(s.robots_break[0]) == br and int(s.robots_supply[0]) == 0
    H.checked(s)


def test_move_robot_tile_both_directions():
    """Appendix: 'Either take 1 of your robots from the break room ... and place it in one of the 3
    workstations, or vice versa'; declining is allowed (R-A4)."""
    t_id = tile(GREEN, TE_MOVE_ROBOT)
    s = _resolve_single({H.cell(1, 2): t_id}, H.cell(1, 2))
    assert s.phase == PH_TILE_ROBOT
    assert H.blocks_legal(s, "ROBOT_TO_WORKSTATION") == [0, 1, 2]
    assert H.blocks_legal(s, "ROBOT_TO_BREAK_ROOM") == [0, 1, 2]
    assert H.is_legal(s, "DONE")
    H.act(s, "ROBOT_TO_WORKSTATION", GRAY)
    assert s.robots_ws[0].tolist() == [1, 2, 1] and int(s.robots_break[0]) == 4
    s2 = _resolve_single({H.cell(1, 2): t_id}, H.cell(1, 2))
    H.act(s2, "ROBOT_TO_BREAK_ROOM", GREEN)
    assert s2.robots_ws[0].tolist() == [1, 1, 0] and int(s2.robots_break[0]) == 6


def test_move_ship_tile_up_to_two_hexes():
    """Appendix: 'Move 1 of your ships (one already in space, or launch a new one then move it) up to 2 Space
    hexes (the movement rules are identical to those of the action Command Your Ships)'."""
    t_id = tile(ORANGE, TE_MOVE_SHIP)
    s = _position({H.cell(1, 2): t_id})
    h = H.alien_hex(s, GREEN, pos=1, col=2)
    H.ship_to(s, 0, h)
    H.act(s, "PLAY_RAVAGER", 0)
    H.act(s, "RESOLVE_TILE", H.cell(1, 2))
    assert s.phase == PH_SHIP_SELECT
    assert H.blocks_legal(s, "SELECT_SHIP") == [h]
    assert H.is_legal(s, "LAUNCH_SHIP") and H.is_legal(s, "DONE")
    H.act(s, "SELECT_SHIP", h)
    assert s.phase == PH_SHIP_MOVE
    n = int(s.m[M_N_STRIPS])
    passable = [t != T_ASTEROID for t in s.hex_terrain[:n * 5].tolist()]
    passable[H.ba_hex(s)] = True
    reach = sorted(distances(n, h, passable, 2))
    assert H.blocks_legal(s, "MOVE_SHIP") == reach
    far = [g for g in reach if distances(n, h, passable, 2)[g] == 2][0]
    H.act(s, "MOVE_SHIP", far)
    assert H.ships_at(s, far) == [0] and H.ships_at(s, h) == []
    assert s.phase == PH_A2_DIE
    H.checked(s)


def test_draw_mission_tile_draws_one_card_of_chosen_colour():
    """Appendix: 'Draw 1 Mission card of the color of your choice' (basic rules: one card, no discard)."""
    t_id = tile(ORANGE, TE_DRAW_MISSION)
    s = _resolve_single({H.cell(1, 2): t_id}, H.cell(1, 2))
    assert s.phase == PH_TILE_DRAW
    assert H.blocks_legal(s, "DRAW_COLOUR") == [0, 1, 2]
    before = s.hand_mc[0].tolist()
    H.act(s, "DRAW_COLOUR", GREEN)
    assert s.hand_mc[0].tolist() == [before[0], before[1], before[2] + 1]
    assert sum(1 for c in range(60) if s.mc_where[c] == MC_HAND + 0) == sum(before) + 1
    assert s.phase == PH_A2_DIE


@pytest.mark.parametrize("kind,option,field", [
    (0, 0, "ships"), (1, 0, "res"), (1, 1, "debris"), (2, 0, "robots_break"),
])
def test_starting_tile_either_or_simple(kind, option, field):
    """Appendix STARTING TECHNOLOGY TILES: take 1 ship OR move a ship; take 1 resource OR 1 debris; take 1
    robot OR move a robot. Each is a choice of one option (TILE_OPTION 0/1)."""
    s = _position({H.cell(2, 2): H.start_tile(0, kind)})
    H.act(s, "PLAY_RAVAGER", 1)
    H.act(s, "RESOLVE_TILE", H.cell(2, 2))
    assert s.phase == PH_TILE_OPTION
    assert H.blocks_legal(s, "TILE_OPTION") == [0, 1]
    snap = {f: int(getattr(s, f)[0]) for f in ("ships", "res", "debris", "robots_break")}
    H.act(s, "TILE_OPTION", option)
    for f, v in snap.items():
        assert int(getattr(s, f)[0]) == v + (1 if f == field else 0)
    assert s.phase == PH_A2_DIE


@pytest.mark.parametrize("kind,phase", [(0, PH_SHIP_SELECT), (2, PH_TILE_ROBOT)])
def test_starting_tile_second_option_moves(kind, phase):
    """Appendix STARTING TECHNOLOGY TILES: the second options move a ship up to 2 hexes / move a robot."""
    s = _position({H.cell(2, 2): H.start_tile(0, kind)})
    H.act(s, "PLAY_RAVAGER", 1)
    H.act(s, "RESOLVE_TILE", H.cell(2, 2))
    H.act(s, "TILE_OPTION", 1)
    assert s.phase == phase


def _adjacent_grid(effect):
    t_act = tile(GRAY, effect)
    other_act = tile(GRAY, TE_ACT_VERTICAL if effect == TE_ACT_HORIZONTAL else TE_ACT_HORIZONTAL)
    return t_act, other_act


def test_activate_vertical_tile():
    """Appendix: 'Activate an adjacent Technology tile above or below this tile' (not left/right)."""
    t_act, _ = _adjacent_grid(TE_ACT_VERTICAL)
    cells = {H.cell(2, 2): t_act, H.cell(3, 2): ORANGE_VP[0], H.cell(1, 2): tile(GRAY, TE_RESOURCE),
             H.cell(2, 1): ORANGE_VP[1], H.cell(2, 3): ORANGE_VP[2]}
    s = _resolve_single(cells, H.cell(2, 2))
    assert s.phase == PH_TILE_ADJACENT
    assert H.blocks_legal(s, "ACTIVATE_ADJACENT") == [H.cell(1, 2), H.cell(3, 2)]
    H.act(s, "ACTIVATE_ADJACENT", H.cell(3, 2))
    assert int(s.vp[0]) == 6
    # back to the card's remaining tiles (row 2: the two orange VP tiles)
    assert s.phase == PH_A1_TILES
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(2, 1), H.cell(2, 3)]


def test_activate_horizontal_tile_and_edge():
    """Appendix: 'Activate an adjacent Technology tile left or right of this tile'; at the grid edge only one
    neighbour exists; declining is allowed (R-A4)."""
    t_act, _ = _adjacent_grid(TE_ACT_HORIZONTAL)
    cells = {H.cell(1, 1): t_act, H.cell(1, 2): tile(GRAY, TE_RESOURCE),
             H.cell(2, 1): ORANGE_VP[0]}
    s = _resolve_single(cells, H.cell(1, 1))
    assert H.blocks_legal(s, "ACTIVATE_ADJACENT") == [H.cell(1, 2)]
    assert H.is_legal(s, "DONE")
    res = int(s.res[0])
    H.act(s, "ACTIVATE_ADJACENT", H.cell(1, 2))
    assert int(s.res[0]) == res + 1


def test_activation_tile_cannot_activate_activation_tile_or_advanced():
    """Appendix footnote: 'These tiles cannot activate a tile that activates yet another tile'; Advanced tiles
    are never activated. A Starting tile can be activated by adjacency."""
    t_act, other_act = _adjacent_grid(TE_ACT_VERTICAL)
    same_kind = tile(GREEN, TE_ACT_VERTICAL)
    cells = {H.cell(2, 2): t_act, H.cell(3, 2): other_act, H.cell(1, 2): ADV}
    s = _resolve_single(cells, H.cell(2, 2))
    assert H.blocks_legal(s, "ACTIVATE_ADJACENT") == []
    cells = {H.cell(2, 2): t_act, H.cell(3, 2): same_kind, H.cell(1, 2): H.start_tile(0, 1)}
    s = _resolve_single(cells, H.cell(2, 2))
    assert H.blocks_legal(s, "ACTIVATE_ADJACENT") == [H.cell(1, 2)]
    H.act(s, "ACTIVATE_ADJACENT", H.cell(1, 2))
    assert s.phase == PH_TILE_OPTION                        # the Starting tile's either/or


def test_tile_activated_by_adjacency_and_by_the_card():
    """Decision (not in docs/rules.md yet): a tile activated by an adjacency tile may still be activated by
    the card itself (each activation is separate; nothing in A1 or the appendix forbids it, and debris
    activations (REPAIR) show a tile can be activated more than once per turn)."""
    t_act = tile(GRAY, TE_ACT_HORIZONTAL)
    cells = {H.cell(1, 1): t_act, H.cell(1, 2): tile(GRAY, TE_VP)}
    s = _position(cells)
    _play_mission(s, GRAY_MISSION, 0)
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(1, 1), H.cell(1, 2)]
    H.act(s, "RESOLVE_TILE", H.cell(1, 1))
    H.act(s, "ACTIVATE_ADJACENT", H.cell(1, 2))
    assert int(s.vp[0]) == 6
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(1, 2)]
    H.act(s, "RESOLVE_TILE", H.cell(1, 2))
    assert int(s.vp[0]) == 7
