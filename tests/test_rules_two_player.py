"""Rulebook, 2-PLAYER GAME: the neutral player's robots and dice, buying a neutral die, the neutral's dice
after each Sequence B (R-B2), a robot added to a workstation removing the neutral robot (rules-notes D22).

EN = shared/rules/rulebook-en.txt. The neutral player is seat 4 (state.BOT).
"""

from __future__ import annotations

from blackangel_env import engine
from blackangel_env.constants import GRAY, GREEN, ORANGE
from blackangel_env.state import BOT, DIE_ABSENT, DIE_SUPPLY, M_N_STRIPS, PH_A1_TILES, PH_B_RESERVE

from helpers import (
    act, blocks_legal, checked, clear_dice, clear_ravagers, game, give_die, is_legal, start_a1, start_a2,
    start_tile, start_turn,
)


def _position(seed=0):
    s = game(2, seed=seed)
    clear_ravagers(s)
    return s


def _neutral_dice(s):
    return {d: int(s.die_value[d]) for d in range(18) if s.die_owner[d] == BOT}


def _b(s):
    act(s, "SEQUENCE_B")
    if s.phase == PH_B_RESERVE:
        act(s, "DONE")


def test_setup_neutral_robots_and_dice():
    """EN 2-PLAYER GAME (setup step 11): a robot of an unused colour in each workstation; the neutral's dice
    (one per colour) in an unused compartment; 4 dice per colour, 5 strips, 12 Ravager cards removed."""
    s = game(2, seed=3)
    assert [int(x) for x in s.robots_ws[BOT]] == [1, 1, 1]
    assert sorted(d // 6 for d in _neutral_dice(s)) == [ORANGE, GRAY, GREEN]
    assert sum(1 for d in range(18) if s.die_owner[d] != DIE_ABSENT) == 12
    assert int(s.m[M_N_STRIPS]) == 5
    assert sum(1 for r in range(30) if s.rav_where[r] == 2) == 12


def test_buying_a_neutral_die_pays_the_supply_and_forbids_the_flip():
    """EN 2-PLAYER GAME: buying a neutral die pays the resource to the supply; as usual the neutral's dice
    cannot be flipped (EN DEBRIS: no flip of a bought die), even with debris in storage."""
    s = _position()
    clear_dice(s)
    d = give_die(s, BOT, ORANGE, 3)
    s.res[:] = 0
    s.res[0] = 1
    s.debris[0] = 2
    start_a2(s, 0)
    checked(s)
    assert blocks_legal(s, "SELECT_DIE") == [d]
    act(s, "SELECT_DIE", d)
    assert int(s.res[0]) == 0 and int(s.res[1]) == 0 and int(s.res[BOT]) == 0
    assert not is_legal(s, "FLIP_DIE")
    assert is_legal(s, "BOARD_ACTION", 0)


def test_neutral_die_needs_a_resource():
    """EN A2: a die of another compartment is bought for 1 resource; without one it cannot be chosen."""
    s = _position()
    clear_dice(s)
    d = give_die(s, BOT, ORANGE, 3)
    s.res[0] = 0
    start_a2(s, 0)
    assert not is_legal(s, "SELECT_DIE", d)


def test_neutral_dice_after_sequence_b():
    """EN 2-PLAYER GAME and R-B2: after a player's Sequence B the neutral's 1-3 dice stay, its stars return to
    the supply, then each colour where it has a robot and no die gets a newly rolled die."""
    s = _position()
    clear_dice(s)
    o = give_die(s, BOT, ORANGE, 2)
    g = give_die(s, BOT, GRAY, 0)              # star: returns, then a gray die is rolled again
    s.res[:] = 0                               # (no green die: one is rolled)
    start_turn(s, 0)
    checked(s)
    _b(s)
    nd = _neutral_dice(s)
    assert nd.get(o) == 2
    assert sorted(d // 6 for d in nd) == [ORANGE, GRAY, GREEN]
    checked(s)


def test_neutral_without_robot_rolls_no_die():
    """EN 2-PLAYER GAME: no neutral robot in a workstation, no neutral die of that colour."""
    s = _position()
    clear_dice(s)
    s.robots_ws[BOT] = [1, 0, 0]
    s.res[:] = 0
    start_turn(s, 0)
    checked(s)
    _b(s)
    assert sorted(d // 6 for d in _neutral_dice(s)) == [ORANGE]


def test_neutral_keeps_a_die_of_each_colour_it_already_has():
    """EN 2-PLAYER GAME: "if there is no die of this color in the neutral's compartment, roll a die": a kept
    1-3 die means no new die of that colour."""
    s = _position()
    clear_dice(s)
    keep = [give_die(s, BOT, c, 3) for c in range(3)]
    s.res[:] = 0
    start_turn(s, 1)
    checked(s)
    _b(s)
    assert _neutral_dice(s) == {d: 3 for d in keep}


def test_player_rolls_before_the_neutral():
    """R-B2: the neutral's dice are managed right after the acting player's own reroll: with 2 green dice
    left and 2 green robots, the player takes both and the neutral gets none."""
    s = _position()
    clear_dice(s)
    s.robots_ws[0] = [0, 0, 2]
    s.robots_supply[0] += 1
    give_die(s, 1, GREEN, 1)
    give_die(s, 1, GREEN, 1)
    s.res[:] = 0
    start_turn(s, 0)
    checked(s)
    _b(s)
    assert sum(1 for d in range(12, 18) if s.die_owner[d] == 0) == 2
    assert not any(d // 6 == GREEN for d in _neutral_dice(s))


def test_neutral_damaged_die_cube_returns_without_vp():
    """R-B2: if the neutral must take a damaged die, the cube returns to the supply (the neutral has no VP);
    undamaged dice are taken first."""
    s = _position()
    clear_dice(s)
    s.robots_ws[0] = [0, 0, 0]
    s.robots_supply[0] += 3
    for _ in range(3):
        give_die(s, 1, GREEN, 1)
    last = [d for d in range(12, 18) if s.die_owner[d] == DIE_SUPPLY][0]
    s.die_damaged[last] = 1
    s.res[:] = 0
    vp = [int(x) for x in s.vp[:2]]
    start_turn(s, 0)
    checked(s)
    _b(s)
    assert int(s.die_owner[last]) == BOT and int(s.die_damaged[last]) == 0
    assert [int(x) for x in s.vp[:2]] == vp
    checked(s)


def test_robot_added_to_a_workstation_removes_the_neutral_robot():
    """EN 2-PLAYER GAME and rules-notes D22: whenever a player adds a robot to a workstation (here with the
    Starting tile's "move a robot" option), the neutral robot there leaves the game; the other neutral
    robots stay."""
    s = _position()
    clear_dice(s)
    give_die(s, 0, GREEN, 3)                   # a usable die for A2 (R-A2)
    t = start_tile(0, 2)
    cell = [c for c in range(9) if s.grid[0, c] == t][0]
    start_a1(s, 0)
    checked(s)
    act(s, "PLAY_RAVAGER", cell // 3)          # a Ravager card left of the tile's row activates it
    assert s.phase == PH_A1_TILES
    act(s, "RESOLVE_TILE", cell)
    act(s, "TILE_OPTION", 1)                   # move a robot between the break room and a workstation
    act(s, "ROBOT_TO_WORKSTATION", GRAY)
    assert [int(x) for x in s.robots_ws[BOT]] == [1, 0, 1]
    assert int(s.robots_ws[0, GRAY]) == 2
    checked(s)


def test_robot_taken_back_to_the_break_room_does_not_touch_the_neutral():
    """EN 2-PLAYER GAME: only adding a robot to a workstation removes the neutral robot."""
    s = _position()
    clear_dice(s)
    give_die(s, 0, GREEN, 3)
    t = start_tile(0, 2)
    cell = [c for c in range(9) if s.grid[0, c] == t][0]
    start_a1(s, 0)
    act(s, "PLAY_RAVAGER", cell // 3)
    act(s, "RESOLVE_TILE", cell)
    act(s, "TILE_OPTION", 1)
    act(s, "ROBOT_TO_BREAK_ROOM", GRAY)
    assert [int(x) for x in s.robots_ws[BOT]] == [1, 1, 1]
    assert engine.legal_actions(s)
