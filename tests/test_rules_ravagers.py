"""Rules tests: Ravager Cards on an action (A2) and their permanent effects (appendix RAVAGER CARDS,
cards 061-090, rules-notes A11/C4), decision R-A12 of docs/rules.md.

EN = shared/rules/rulebook-en.txt; rules-notes = shared/design/rules-notes.md.
"""

from __future__ import annotations

import helpers as H
from blackangel_env.constants import (
    GREEN, ORANGE, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT, RAV_DISCARD_MISSION, RAV_DISCARD_RAVAGER, RAV_ROBOT,
)
from blackangel_env.state import (
    MC_DISCARD, MC_HAND, PH_DISCOVER, PH_RAVAGER_DISCARD, PH_SHIP_SELECT, RV_HAND,
)

DISCOVER, CMD_ORANGE, REPAIR, CMD_GRAY, DESTROY, CMD_GREEN = range(6)


def _discover_with(*effects, n_missions: int = 3, n_ravagers: int = 1, robots: int = 5):
    """Player 0 at A2 with an orange 3; Ravager cards with these effects (bottom to top) attack action 1
    (Discover)."""
    s = H.bare_game(4, seed=4)
    used = []
    for eff in effects:
        r = H.ravager_card(s, DISCOVER, eff, exclude=used)
        used.append(r)
        H.ravager_on_board(s, r)
    H.clear_hand(s, 0)
    for c in (0, 20, 40)[:n_missions]:
        H.mission_to_hand(s, 0, c)
    H.discard_hand_ravagers(s, 0)
    for _ in range(n_ravagers):
        H.ravager_to_hand(s, 0, [r for r in range(30) if s.rav_where[r] == 0][0])
    s.robots_supply[0] += s.robots_break[0] - robots
    s.robots_break[0] = robots
    d = H.give_die(s, 0, ORANGE, 3)
    H.start_a2(s, 0)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    return s, used


def test_damage_next_action():
    """Cards 061-066: 'Place a Damage cube from the supply on the next action clockwise' (action 1 -> action
    2), before the action is performed; no VP loss."""
    s, _ = _discover_with(RAV_DAMAGE_NEXT)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert s.dmg.tolist() == [0, 1, 0, 0, 0, 0]
    assert int(s.vp[0]) == 5
    assert s.phase == PH_DISCOVER
    H.checked(s)


def test_damage_next_action_overflows_onto_a_die_then_is_ignored():
    """Appendix RAVAGER CARDS: 'If this action already has 2 Damage cubes, place the cube on a die in the
    supply of the same color as this action. If the supply is empty or all of the dice in it already have a
    Damage cube ..., skip this step' — resolving it this way is not a failure (no VP loss, cards 073-090
    only)."""
    s, _ = _discover_with(RAV_DAMAGE_NEXT)
    s.dmg[CMD_ORANGE] = 2
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert int(s.dmg[CMD_ORANGE]) == 2
    damaged = [d for d in range(18) if s.die_damaged[d]]
    assert len(damaged) == 1 and damaged[0] // 6 == ORANGE
    # now every orange supply die damaged: nothing happens, no VP lost
    s2, _ = _discover_with(RAV_DAMAGE_NEXT)
    s2.dmg[CMD_ORANGE] = 2
    for d in H.supply_dice(s2, ORANGE):
        s2.die_damaged[d] = 1
    H.act(s2, "BOARD_ACTION", DISCOVER)
    assert int(s2.vp[0]) == 5 and s2.phase == PH_DISCOVER


def test_damage_next_action_wraps_from_6_to_1():
    """Cards 061-066, 'next action clockwise' (rules-notes C4: from action 6 it wraps to action 1)."""
    s = H.bare_game(4, seed=4)
    H.ravager_on_board(s, H.ravager_card(s, CMD_GREEN, RAV_DAMAGE_NEXT))
    d = H.give_die(s, 0, GREEN, 1)        # Command (green): launch the ship in storage and move 1
    H.start_a2(s, 0)
    H.checked(s)
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", CMD_GREEN)
    assert s.dmg.tolist() == [1, 0, 0, 0, 0, 0]
    assert s.phase == PH_SHIP_SELECT


def test_damage_die_of_printed_colour():
    """Cards 067-072: 'Place a Damage cube ... on a die in the supply of the color indicated on the card.
    If there are no dice in this supply that can accommodate a Damage cube, ignore this effect' (no VP
    loss). The card on action 1 shows orange (rules-notes C4)."""
    s, used = _discover_with(RAV_DAMAGE_DIE)
    assert s.comp.ravager_die_colour[used[0]] == ORANGE
    H.act(s, "BOARD_ACTION", DISCOVER)
    damaged = [d for d in range(18) if s.die_damaged[d]]
    assert len(damaged) == 1 and damaged[0] // 6 == ORANGE
    assert int(s.dmg.sum()) == 0 and int(s.vp[0]) == 5
    s2, _ = _discover_with(RAV_DAMAGE_DIE)
    for d in H.supply_dice(s2, ORANGE):
        s2.die_damaged[d] = 1
    H.act(s2, "BOARD_ACTION", DISCOVER)
    assert int(s2.vp[0]) == 5 and s2.phase == PH_DISCOVER


def test_discard_mission_card():
    """Cards 073-078: 'Discard a Mission card (not a Ravager card) from your hand' (any of them), then the
    action is performed."""
    s, _ = _discover_with(RAV_DISCARD_MISSION)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert s.phase == PH_RAVAGER_DISCARD
    assert H.blocks_legal(s, "DISCARD_MISSION") == [0, 20, 40]
    H.act(s, "DISCARD_MISSION", 20)
    assert int(s.mc_where[20]) == MC_DISCARD and s.hand_mc[0].tolist() == [1, 0, 1]
    assert int(s.hand_rav[0]) == 1
    assert s.phase == PH_DISCOVER and int(s.vp[0]) == 5
    H.checked(s)


def test_discard_mission_impossible_loses_one_vp_and_acts():
    """Appendix RAVAGER CARDS / R-A12: 'If you cannot resolve this effect (cards 073-090), only in this case,
    you can still perform the action, but you must lose 1 VP' (a Ravager card does not replace the Mission
    card)."""
    s, _ = _discover_with(RAV_DISCARD_MISSION, n_missions=0, n_ravagers=1)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert int(s.vp[0]) == 4
    assert int(s.hand_rav[0]) == 1
    assert s.phase == PH_DISCOVER


def test_discard_ravager_card():
    """Cards 079-084: 'Discard a Ravager card (not a Mission card) from your hand'."""
    s, _ = _discover_with(RAV_DISCARD_RAVAGER, n_ravagers=2)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert int(s.hand_rav[0]) == 1
    assert sum(1 for r in range(30) if s.rav_where[r] == RV_HAND + 0) == 1
    assert s.hand_mc[0].tolist() == [1, 1, 1] and int(s.vp[0]) == 5
    assert s.phase == PH_DISCOVER
    H.checked(s)


def test_discard_ravager_impossible_loses_one_vp():
    """Cards 079-084 with no Ravager card in hand: lose 1 VP, act anyway (R-A12); Mission cards are kept."""
    s, _ = _discover_with(RAV_DISCARD_RAVAGER, n_ravagers=0)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert int(s.vp[0]) == 4 and s.hand_mc[0].tolist() == [1, 1, 1]
    assert s.phase == PH_DISCOVER


def test_robot_on_card_and_liberated_when_destroyed():
    """Cards 085-090: 'Place one of your robots from the break room of the Black Angel on this card. The
    robots are liberated and returned to the break room only when this Ravager is destroyed.'"""
    s, used = _discover_with(RAV_ROBOT)
    r = used[0]
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert int(s.robots_break[0]) == 4 and int(s.rav_robots[r, 0]) == 1
    assert int(s.vp[0]) == 5 and s.phase == PH_DISCOVER
    H.checked(s)
    # player 1 destroys it: player 0's robot returns to player 0's break room
    t = H.bare_game(4, seed=4)
    r = H.ravager_card(t, DISCOVER, RAV_ROBOT)
    H.ravager_on_board(t, r)
    t.robots_break[0] -= 1
    t.rav_robots[r, 0] = 1
    d = H.give_die(t, 1, GREEN, 1)
    H.start_a2(t, 1)
    H.checked(t)
    H.act(t, "SELECT_DIE", d)
    H.act(t, "BOARD_ACTION", DESTROY)
    H.act(t, "DESTROY", DISCOVER)
    assert int(t.robots_break[0]) == 5 and int(t.rav_robots[r].sum()) == 0
    H.checked(t)


def test_robot_effect_impossible_loses_one_vp():
    """Cards 085-090 with no robot in the break room: lose 1 VP and act (R-A12)."""
    s, used = _discover_with(RAV_ROBOT, robots=0)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert int(s.vp[0]) == 4 and int(s.rav_robots[used[0]].sum()) == 0
    assert s.phase == PH_DISCOVER


def test_only_topmost_card_counts():
    """Ravagers appear, notes: 'Only the topmost card's permanent effect has any impact on that action.'"""
    s, used = _discover_with(RAV_DISCARD_RAVAGER, RAV_DAMAGE_NEXT)
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert int(s.hand_rav[0]) == 1                # the lower card (discard a Ravager) is ignored
    assert int(s.dmg[CMD_ORANGE]) == 1            # the top card (damage next action) applies
    s2, _ = _discover_with(RAV_DAMAGE_NEXT, RAV_DISCARD_RAVAGER, n_ravagers=0)
    H.act(s2, "BOARD_ACTION", DISCOVER)
    assert int(s2.dmg.sum()) == 0 and int(s2.vp[0]) == 4


def test_no_ravager_no_effect():
    """A2: the effect is resolved only 'If there are any Ravager cards on the Ravagers space in front of the
    action'."""
    s, _ = _discover_with()
    H.act(s, "BOARD_ACTION", DISCOVER)
    assert int(s.vp[0]) == 5 and int(s.dmg.sum()) == 0 and s.phase == PH_DISCOVER


def _star_command_with_discard(hand):
    s = H.bare_game(4, seed=4)
    H.ravager_on_board(s, H.ravager_card(s, CMD_ORANGE, RAV_DISCARD_MISSION))
    h = H.alien_hex(s, ORANGE, pos=1, col=0)
    H.ship_to(s, 0, h)
    H.clear_hand(s, 0)
    for c in hand:
        H.mission_to_hand(s, 0, c)
    s.debris[0] = 0                                    # no flip to a 2
    d = H.give_die(s, 0, ORANGE, 0)
    H.start_a2(s, 0)
    H.checked(s)
    return s, d


def test_discard_keeps_the_card_a_star_die_must_place():
    """Cards 073-078 before a star Command (R-A7: a Mission card of the die's colour must be placed): the
    effect must be resolved, so with one orange card the discard is taken among the other cards."""
    s, d = _star_command_with_discard([0, 20])
    H.act(s, "SELECT_DIE", d)
    H.act(s, "BOARD_ACTION", CMD_ORANGE)
    assert s.phase == PH_RAVAGER_DISCARD
    assert H.blocks_legal(s, "DISCARD_MISSION") == [20]


def test_discard_that_would_remove_the_only_card_makes_star_command_illegal():
    """Cards 073-078 + R-A7/R-A12: with only one orange card in hand, the effect can be resolved (so no
    'lose 1 VP and act'), but then no card is left to place: the star cannot be used for Command."""
    s, d = _star_command_with_discard([0])
    assert H.blocks_legal(s, "SELECT_DIE") == []
    assert int(s.mc_where[0]) == MC_HAND + 0
