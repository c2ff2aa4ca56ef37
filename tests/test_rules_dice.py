"""Rules tests: A2 PERFORM AN ACTION WITH 1 DIE — die selection and buying, the DEBRIS flip, Damaged Action
(R-A5, R-A7 of docs/rules.md; rules-notes A19, B1, B4, D2).

EN = shared/rules/rulebook-en.txt; rules-notes = shared/design/rules-notes.md.
"""

from __future__ import annotations

import pytest

import helpers as H
from blackangel_env import engine
from blackangel_env.constants import GRAY, GREEN, ORANGE
from blackangel_env.state import (
    BOT, DIE_IN_USE, DIE_SUPPLY, M_DIE, M_DIE_BOUGHT, M_DIE_VALUE, M_MOVE_RANGE, M_VALUE, MC_HAND,
    PH_A2_MODIFY, PH_DISCOVER, PH_SHIP_SELECT,
)

DISCOVER, CMD_ORANGE, REPAIR, CMD_GRAY, DESTROY, CMD_GREEN = range(6)


def _a2(n: int = 3, res: int = 0, debris: int = 0):
    """Player 0 at A2 (select a die); no die anywhere, no damage, no Ravager on the board."""
    s = H.bare_game(n, seed=3)
    s.res[0] = res
    s.debris[0] = debris
    H.start_a2(s, 0)
    return s


def _star_command_ready(s, p: int = 0):
    """p can use an orange star for Command (an own ship on an empty orange hex, an orange card in hand)."""
    h = H.alien_hex(s, ORANGE, pos=1, col=0)
    H.ship_to(s, p, h)
    if s.hand_mc[p, ORANGE] == 0:
        H.mission_to_hand(s, p, [c for c in range(20) if s.mc_where[c] == 0][0])
    return h


def test_own_die_selectable_and_used():
    """A2: 'First, you must select a die. This die can come from your compartment'."""
    s = _a2()
    d = H.give_die(s, 0, ORANGE, 2)
    H.checked(s)
    assert H.blocks_legal(s, "SELECT_DIE") == [d]
    H.act(s, "SELECT_DIE", d)
    assert s.phase == PH_A2_MODIFY
    assert int(s.die_owner[d]) == DIE_IN_USE and int(s.m[M_DIE]) == d and int(s.m[M_DIE_BOUGHT]) == 0


def test_buying_pays_one_resource_to_the_owner():
    """A2: 'If the die comes from another player's compartment, you must buy it ... it must not be reserved,
    and you must pay 1 resource from your storage area to the die's owner, who cannot refuse'."""
    s = _a2(res=2)
    s.res[1] = 0
    d = H.give_die(s, 1, ORANGE, 3)
    assert H.blocks_legal(s, "SELECT_DIE") == [d]
    H.act(s, "SELECT_DIE", d)
    assert int(s.res[0]) == 1 and int(s.res[1]) == 1
    assert int(s.m[M_DIE_BOUGHT]) == 1
    H.checked(s)


def test_cannot_buy_without_resource():
    """A2: buying costs 1 resource from your storage area; with none, other players' dice are out of reach."""
    s = _a2(res=0)
    own = H.give_die(s, 0, ORANGE, 2)
    H.give_die(s, 1, ORANGE, 3)
    assert H.blocks_legal(s, "SELECT_DIE") == [own]


def test_reserved_die_cannot_be_bought_but_owner_uses_it():
    """Reserved die (SETUP): 'A die placed in your high-security area is reserved, which means that no one
    else can buy it' (FR: ni utilisé, rules-notes B12); its owner uses it normally."""
    s = _a2(res=3)
    theirs = H.give_die(s, 1, ORANGE, 3, reserved=True)
    mine = H.give_die(s, 0, ORANGE, 2, reserved=True)
    assert H.blocks_legal(s, "SELECT_DIE") == [mine]
    with pytest.raises(engine.IllegalActionError):
        H.act(s, "SELECT_DIE", theirs)
    H.start_a2(s, 1)
    s.res[1] = 1
    assert H.blocks_legal(s, "SELECT_DIE") == [theirs]


def test_two_player_neutral_die_paid_to_supply():
    """2-PLAYER GAME: 'you can buy a die from the neutral player. To do so, pay the resources to the supply'."""
    s = _a2(n=2, res=1)
    d = H.give_die(s, BOT, ORANGE, 3)
    s.res[1] = 0
    assert H.blocks_legal(s, "SELECT_DIE") == [d]
    H.act(s, "SELECT_DIE", d)
    assert int(s.res[0]) == 0 and int(s.res[1]) == 0 and int(s.res[BOT]) == 0


@pytest.mark.parametrize("before,after", [(0, 2), (2, 0), (1, 3), (3, 1)])
def test_debris_flip_opposite_face(before, after):
    """DEBRIS: spend one debris from storage to flip 1 die of your compartment to the opposite face;
    'Opposite faces of a die always have a difference of 2' (faces 0,1,1,2,3,3: 0<->2, 1<->3, rules-notes
    A19). At most one flip (R-A5)."""
    s = _a2(debris=2)
    _star_command_ready(s)
    d = H.give_die(s, 0, ORANGE, before)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    assert H.is_legal(s, "FLIP_DIE")
    H.act(s, "FLIP_DIE")
    assert int(s.m[M_DIE_VALUE]) == after
    assert int(s.debris[0]) == 1
    assert not H.is_legal(s, "FLIP_DIE")          # R-A5: a second flip would only restore the face


def test_the_debris_flip_turns_the_die_used_and_no_other():
    """DEBRIS (R-A5, R-A9): the French original flips '1 dé de votre compartiment' 'à tout moment' of
    Sequence A, and its IMPORTANT note on a die just bought ties the flip to the die about to be used (EN and
    PL: 'before using it'): the flip is offered only once a die is chosen, turns that die alone, and a die kept
    in the compartment keeps its face."""
    s = _a2(debris=2)
    _star_command_ready(s)
    used = H.give_die(s, 0, ORANGE, 0)
    kept = H.give_die(s, 0, GREEN, 1)
    H.checked(s)
    assert not H.is_legal(s, "FLIP_DIE")          # no flip before the die is chosen
    H.act(s, "SELECT_DIE", used)
    H.act(s, "FLIP_DIE")
    assert int(s.m[M_DIE_VALUE]) == 2 and int(s.die_value[kept]) == 1 and int(s.die_owner[kept]) == 0
    assert not H.is_legal(s, "FLIP_DIE")


def test_no_flip_without_debris_in_storage():
    """DEBRIS: the debris must come from the storage area ('Debris on your Technology tiles cannot be used')."""
    s = _a2(debris=0)
    d = H.give_die(s, 0, ORANGE, 1)
    tile = H.tech_tile(s, GRAY, 0)
    H.put_tile(s, 0, H.cell(1, 2), tile, debris=True)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    assert not H.is_legal(s, "FLIP_DIE")


def test_bought_die_cannot_be_flipped():
    """DEBRIS, IMPORTANT: 'You cannot flip a die that you just bought from an opponent.'"""
    s = _a2(res=1, debris=3)
    d = H.give_die(s, 1, ORANGE, 1)
    H.act(s, "SELECT_DIE", d)
    assert not H.is_legal(s, "FLIP_DIE")
    assert H.is_legal(s, "BOARD_ACTION", DISCOVER)


@pytest.mark.parametrize("colour,actions", [(ORANGE, [DISCOVER]), (GRAY, [REPAIR]), (GREEN, [DESTROY])])
def test_die_colour_must_match_action_colour(colour, actions):
    """PERFORMING AN ACTION ON THE BLACK ANGEL BOARD: 'the color of your die must match the color of the
    action' (actions 1-2 orange, 3-4 gray, 5-6 green, rules-notes C10). Something to repair and to destroy
    exists; no ship can move (no ship in storage), so Command is not available."""
    s = _a2()
    s.ships[0] = 0
    s.dmg[DISCOVER] = 1
    H.ravager_on_board(s, H.ravager_card(s, DESTROY))
    d = H.give_die(s, 0, colour, 2)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    assert H.blocks_legal(s, "BOARD_ACTION") == actions


@pytest.mark.parametrize("cubes,value,expected", [(0, 3, 3), (1, 3, 3), (2, 3, 2), (2, 2, 1)])
def test_damaged_action_reduces_value(cubes, value, expected):
    """Damaged Action: 'If there are 2 Damage cubes on the action, the action is damaged, and the activation
    value of your die is reduced by 1. If there is only 1 Damage cube on the action, there is no
    consequence.'"""
    s = _a2()
    s.dmg[DISCOVER] = cubes
    d = H.give_die(s, 0, ORANGE, value)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert s.phase == PH_DISCOVER
    assert int(s.m[M_VALUE]) == expected


def test_one_on_damaged_action_is_a_zero_only_command_can_use_it():
    """Damaged Action + R-A7: a 1 on a damaged action is worth 0, and an effective 0 can be used only for
    Command Your Ships (steps 2-4): Discover (damaged) refuses it."""
    s = _a2()
    s.ships[0] = 0                                           # no ship to launch: an undamaged Command is out
    s.dmg[DISCOVER] = 2
    d = H.give_die(s, 0, ORANGE, 1)
    H.checked(s)
    assert H.blocks_legal(s, "SELECT_DIE") == []         # no other use: the die cannot even be selected
    _star_command_ready(s)
    s.dmg[CMD_ORANGE] = 2
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    assert H.blocks_legal(s, "BOARD_ACTION") == [CMD_ORANGE]
    H.act(s, "BOARD_ACTION", CMD_ORANGE)
    assert s.phase == PH_SHIP_SELECT and int(s.m[M_MOVE_RANGE]) == 0 and int(s.m[M_VALUE]) == 0


def test_zero_stays_zero_on_damaged_action():
    """Damaged Action note: 'A value-0 die keeps its 0 value even if the action is damaged' (star on a damaged
    Command: still a star, steps 2-4)."""
    s = _a2()
    _star_command_ready(s)
    s.dmg[CMD_ORANGE] = 2
    d = H.give_die(s, 0, ORANGE, 0)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", CMD_ORANGE)
    assert int(s.m[M_VALUE]) == 0


@pytest.mark.parametrize("action,colour", [(DISCOVER, ORANGE), (REPAIR, GRAY), (DESTROY, GREEN)])
def test_star_die_only_for_command(action, colour):
    """A2: 'With a die of value 0, you cannot perform any actions, except for part of the Command Your Ships
    action' (R-A7, rules-notes B1/D2): a star cannot Discover, Repair or Destroy even when there is
    something to take, repair or destroy."""
    s = _a2()
    s.dmg[DISCOVER] = 1
    H.ravager_on_board(s, H.ravager_card(s, DESTROY))
    H.clear_hand(s, 0)                                       # no card: no star Command either
    H.give_die(s, 0, colour, 0)
    H.checked(s)
    assert H.blocks_legal(s, "SELECT_DIE") == []
    assert s.hand_mc[0].tolist() == [0, 0, 0]


def test_die_returns_to_supply_and_card_drawn_after_action():
    """A3: 'Draw a card matching the color of the die you just used ... Return the die to its supply.'"""
    s = _a2()
    d = H.give_die(s, 0, ORANGE, 1)
    hand = int(s.hand_mc[0, ORANGE])
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", DISCOVER)
    H.act(s, "TAKE_TECH", 2)
    H.act(s, "INJECT", 1)
    assert int(s.die_owner[d]) == DIE_SUPPLY
    assert int(s.hand_mc[0, ORANGE]) == hand + 1
    assert sum(1 for c in range(20) if s.mc_where[c] == MC_HAND + 0) == hand + 1
    H.checked(s)


@pytest.mark.parametrize("res,selectable", [(1, False), (2, True)])
def test_bought_die_use_is_judged_after_paying(res, selectable):
    """A2: the resource paid for a bought die is gone before the die is used. A gray 1 of another player
    whose only use is a gray Mission card costing 1 resource (Xhavit 'spend 1 resource -> 2 VP', card 24)
    cannot be bought with your last resource (engine bug fixed: it could be selected, then nothing was legal
    and the game was stuck)."""
    s = _a2(res=res)
    s.ships[0] = 0                                     # no Command use
    h = H.alien_hex(s, GRAY, pos=2, col=0)
    H.mission_to_space(s, 24, 0, h)
    d = H.give_die(s, 1, GRAY, 1)
    H.checked(s)
    assert (H.blocks_legal(s, "SELECT_DIE") == [d]) is selectable
    if selectable:
        H.act(s, "SELECT_DIE", d)
        assert H.blocks_legal(s, "MISSION_ACTION") == [24]
    # the same die as your own is usable with a single resource
    s2 = _a2(res=1)
    s2.ships[0] = 0
    H.mission_to_space(s2, 24, 0, H.alien_hex(s2, GRAY, pos=2, col=0))
    own = H.give_die(s2, 0, GRAY, 1)
    assert H.blocks_legal(s2, "SELECT_DIE") == [own]


def _debris_mission_only(debris: int, value: int):
    """Player 0 at A2 with a gray die showing ``value``, ``debris`` debris in storage, no ship (no Command),
    no Damage cube (nothing to Repair), and one use left for gray: its own activation card M#26 in Space,
    which costs 1 debris per activation (2 VP)."""
    s = _a2(debris=debris)
    s.ships[0] = 0
    card = 26
    assert s.comp.mission_cost[card][3] == 1 and sum(s.comp.mission_cost[card]) == 1      # 1 debris
    H.mission_to_space(s, card, 0, H.alien_hex(s, GRAY, pos=2, col=0))
    d = H.give_die(s, 0, GRAY, value)
    H.checked(s)
    return s, d, card


@pytest.mark.parametrize("debris", [1, 2])
def test_a_flip_pays_its_debris_before_the_mission_is_paid(debris):
    """DEBRIS: the flip spends 1 debris from storage before the action, so a use after the flip must be paid from
    what is left (found by an agent's play-out: with 1 debris a star was flipped to 2 for a mission costing 1
    debris, leaving a die with no use and the game with no legal action).  With 1 debris the star has no use
    and cannot be selected; with 2 it can, and flipping leads to the mission."""
    s, d, card = _debris_mission_only(debris, 0)
    if debris == 1:
        assert H.blocks_legal(s, "SELECT_DIE") == []
        return
    assert H.blocks_legal(s, "SELECT_DIE") == [d]
    H.act(s, "SELECT_DIE", d)
    assert H.legal_names(s) == ["FLIP_DIE"]
    H.act(s, "FLIP_DIE")
    assert H.blocks_legal(s, "MISSION_ACTION") == [card]


def test_no_flip_that_would_leave_the_die_without_use():
    """DEBRIS: a 3 usable for the mission as it is must not be flipped to 1 with the only debris: the flip would
    spend the debris the mission needs (every legal action leads somewhere: R-A5's check counts the debris)."""
    s, d, card = _debris_mission_only(1, 3)
    H.act(s, "SELECT_DIE", d)
    assert not H.is_legal(s, "FLIP_DIE")
    assert H.blocks_legal(s, "MISSION_ACTION") == [card]
    H.act(s, "MISSION_ACTION", card)
    H.act(s, "ACTIVATE")                              # one activation (up to the die's value), paid with the debris
    assert int(s.debris[0]) == 0 and H.legal_names(s) != ["ACTIVATE"]
