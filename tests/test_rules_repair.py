"""Rules tests: ACTION: REPAIR THE BLACK ANGEL (Damage cubes from actions and damaged dice become debris,
stored or put on a tile's lightning space to activate it), rules-notes B6, B11.

EN = shared/rules/rulebook-en.txt; rules-notes = shared/design/rules-notes.md.
"""

from __future__ import annotations

import pytest

import helpers as H
from blackangel_env import engine
from blackangel_env.constants import (
    ADV_TILE0, GRAY, GREEN, ORANGE, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT,
)
from blackangel_env.state import (
    PH_A1_TILES, PH_DEBRIS, PH_REPAIR, PH_TILE_OPTION, PH_TURN,
)

DISCOVER, CMD_ORANGE, REPAIR, CMD_GRAY, DESTROY, CMD_GREEN = range(6)
GRAY_VP = 23
GRAY_RES = 16


def _repair(value: int, dmg=(0, 2, 0, 1, 0, 0), damaged_dice=(GREEN,), grid=None, ravager=None):
    """Player 0 has chosen Repair (action 3) with a gray die of ``value``."""
    s = H.bare_game(4, seed=6)
    s.dmg[:] = list(dmg)
    for c in damaged_dice:
        H.damage_supply_die(s, c)
    H.set_grid(s, 0, grid if grid is not None else {H.cell(1, 1): GRAY_VP, H.cell(1, 2): GRAY_RES,
                                                     H.cell(1, 3): ADV_TILE0, H.cell(2, 2): H.start_tile(0, 1)})
    if ravager is not None:
        H.ravager_on_board(s, H.ravager_card(s, REPAIR, ravager))
    d = H.give_die(s, 0, GRAY, value)
    H.start_a2(s, 0)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", REPAIR)
    return s


def test_targets_actions_and_damaged_dice():
    """REPAIR: 'remove 1 Damage cube of your choice from the Black Angel (from an action or a die)'; 'Damage
    can be repaired from actions, as well as from damaged dice' (dice in the supply). At least one activation
    (no DONE before the first)."""
    s = _repair(2)
    assert s.phase == PH_REPAIR
    assert H.blocks_legal(s, "REPAIR_ACTION") == [CMD_ORANGE, CMD_GRAY]
    assert H.blocks_legal(s, "REPAIR_DIE") == [GREEN]
    assert not H.is_legal(s, "DONE")


def test_damaging_cube_removed_first():
    """REPAIR notes: 'If an action has 2 Damage cubes, you must remove the one damaging the action first'
    (rules-notes B11): after one repair the action has 1 cube and is no longer damaged."""
    s = _repair(1)
    H.act(s, "REPAIR_ACTION", CMD_ORANGE)
    assert int(s.dmg[CMD_ORANGE]) == 1
    assert s.phase == PH_DEBRIS
    assert engine._effective(s, CMD_ORANGE, 2) == 2


def test_debris_to_storage():
    """REPAIR: the Damage cube becomes debris, placed 'in the Debris storage area on your player board'."""
    s = _repair(1)
    debris = int(s.debris[0])
    H.act(s, "REPAIR_DIE", GREEN)
    assert not s.die_damaged.any()
    assert s.phase == PH_DEBRIS
    H.act(s, "DEBRIS_TO_STORAGE")
    assert int(s.debris[0]) == debris + 1
    assert s.phase not in (PH_REPAIR, PH_DEBRIS)          # 1 activation used: A3
    H.checked(s)


def test_debris_on_tile_activates_it_advanced_excluded():
    """REPAIR: 'place this debris ... on the Lightning space of a Technology tile to immediately activate its
    effect'; Advanced tiles are never activated (A1 notes), Starting tiles can be."""
    s = _repair(1)
    H.act(s, "REPAIR_ACTION", CMD_GRAY)
    assert H.blocks_legal(s, "DEBRIS_TO_TILE") == [H.cell(1, 1), H.cell(1, 2), H.cell(2, 2)]
    assert H.is_legal(s, "DEBRIS_TO_STORAGE")
    debris = int(s.debris[0])
    H.act(s, "DEBRIS_TO_TILE", H.cell(1, 1))
    assert int(s.vp[0]) == 6
    assert int(s.tile_debris[GRAY_VP]) == 1
    assert int(s.debris[0]) == debris                       # the debris stays on the tile
    H.checked(s)


def test_debris_on_starting_tile_gives_its_choice():
    """REPAIR + STARTING TECHNOLOGY TILES: a Starting tile activated by debris offers its either/or."""
    s = _repair(1)
    H.act(s, "REPAIR_ACTION", CMD_GRAY)
    H.act(s, "DEBRIS_TO_TILE", H.cell(2, 2))
    assert s.phase == PH_TILE_OPTION
    res = int(s.res[0])
    H.act(s, "TILE_OPTION", 0)
    assert int(s.res[0]) == res + 1


def test_tile_with_debris_cannot_take_another_until_reset():
    """REPAIR: 'the debris remains there, preventing another activation using another Debris cube'; Sequence
    B.2 'move all Debris cubes from your Technology tiles to their storage area'."""
    s = _repair(3)
    H.act(s, "REPAIR_ACTION", CMD_ORANGE)
    H.act(s, "DEBRIS_TO_TILE", H.cell(1, 2))
    res = int(s.res[0])
    assert s.phase == PH_REPAIR
    H.act(s, "REPAIR_ACTION", CMD_ORANGE)
    assert H.blocks_legal(s, "DEBRIS_TO_TILE") == [H.cell(1, 1), H.cell(2, 2)]
    H.act(s, "DEBRIS_TO_STORAGE")
    assert int(s.res[0]) == res
    # a later turn, still before the reset: the tile still refuses debris
    s2 = _repair(1, grid={H.cell(1, 1): GRAY_VP, H.cell(1, 2): GRAY_RES})
    s2.tile_debris[GRAY_RES] = 1
    H.checked(s2)
    H.act(s2, "REPAIR_ACTION", CMD_GRAY)
    assert H.blocks_legal(s2, "DEBRIS_TO_TILE") == [H.cell(1, 1)]
    # the reset returns it to storage and frees the tile
    t = H.bare_game(4, seed=6)
    H.set_grid(t, 0, {H.cell(1, 2): GRAY_RES})
    t.tile_debris[GRAY_RES] = 1
    debris = int(t.debris[0])
    H.start_turn(t, 0)
    H.checked(t)
    H.act(t, "SEQUENCE_B")
    while t.phase != PH_TURN:
        H.act(t, "DONE")
    assert int(t.tile_debris[GRAY_RES]) == 0 and int(t.debris[0]) == debris + 1


def test_card_activation_ignores_debris_on_tile():
    """rules-notes B6 (PL): a tile with debris on it can still be activated by a card in A1."""
    s = H.bare_game(4, seed=6)
    H.set_grid(s, 0, {H.cell(1, 1): GRAY_VP})
    s.tile_debris[GRAY_VP] = 1
    H.give_die(s, 0, ORANGE, 2)
    H.clear_hand(s, 0)
    H.mission_to_hand(s, 0, 20)
    H.start_a1(s, 0)
    H.checked(s)
    H.act(s, "PLAY_MISSION", 20 * 6 + 0)
    assert s.phase == PH_A1_TILES
    assert H.blocks_legal(s, "RESOLVE_TILE") == [H.cell(1, 1)]
    H.act(s, "RESOLVE_TILE", H.cell(1, 1))
    assert int(s.vp[0]) == 6


def test_number_of_activations_and_stop():
    """REPAIR: 'For each activation of this action, you may remove 1 Damage cube'; you may stop after the
    first activation ('You are not required to remove all of the damage')."""
    s = _repair(3)
    H.act(s, "REPAIR_ACTION", CMD_ORANGE)
    H.act(s, "DEBRIS_TO_STORAGE")
    assert s.phase == PH_REPAIR and H.is_legal(s, "DONE")
    H.act(s, "REPAIR_ACTION", CMD_ORANGE)
    H.act(s, "DEBRIS_TO_STORAGE")
    H.act(s, "REPAIR_ACTION", CMD_GRAY)
    H.act(s, "DEBRIS_TO_STORAGE")
    assert s.phase not in (PH_REPAIR, PH_DEBRIS)         # 3 activations used
    assert s.dmg.tolist() == [0, 0, 0, 0, 0, 0] and int(s.die_damaged.sum()) == 1


def test_repair_ends_when_nothing_left():
    """REPAIR: with nothing left to repair the action ends even if activations remain."""
    s = _repair(3, dmg=(0, 0, 0, 1, 0, 0), damaged_dice=())
    H.act(s, "REPAIR_ACTION", CMD_GRAY)
    H.act(s, "DEBRIS_TO_STORAGE")
    assert s.phase not in (PH_REPAIR, PH_DEBRIS)


def test_repair_needs_something_to_repair():
    """REPAIR with no Damage cube anywhere cannot be chosen (a value 1-3 die must perform at least one
    activation, R-A1 / rules-notes D11)."""
    s = H.bare_game(4, seed=6)
    d = H.give_die(s, 0, GRAY, 2)
    s.ships[0] = 0                                           # no Command use either
    H.start_a2(s, 0)
    H.checked(s)
    assert H.blocks_legal(s, "SELECT_DIE") == []
    H.ravager_on_board(s, H.ravager_card(s, REPAIR, RAV_DAMAGE_NEXT))
    assert H.blocks_legal(s, "SELECT_DIE") == [d]            # the Ravager's effect damages action 4 first


@pytest.mark.parametrize("eff,target", [(RAV_DAMAGE_NEXT, "action"), (RAV_DAMAGE_DIE, "die")])
def test_ravager_damage_before_repair_can_be_repaired(eff, target):
    """A2 Ravager Cards: the topmost card's effect is resolved before the action; the cube it adds can then be
    repaired."""
    s = _repair(1, dmg=(0, 0, 0, 0, 0, 0), damaged_dice=(), ravager=eff)
    assert s.phase == PH_REPAIR
    if target == "action":
        assert H.blocks_legal(s, "REPAIR_ACTION") == [CMD_GRAY]
    else:
        assert H.blocks_legal(s, "REPAIR_DIE") == [GRAY]
