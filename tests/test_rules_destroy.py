"""Rulebook, SEQUENCE A, ACTION: DESTROY RAVAGERS (and the robot effect of Ravager cards 085-090).

EN = shared/rules/rulebook-en.txt. Actions are 0-based here (printed action 5 = index 4 is Destroy, green).
"""

from __future__ import annotations

import pytest

from blackangel_env import engine
from blackangel_env.constants import GREEN, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT, RAV_DISCARD_MISSION, RAV_ROBOT
from blackangel_env.state import PH_DESTROY, PH_TURN, RV_HAND

from helpers import (
    act, blocks_legal, checked, clear_dice, clear_ravagers, game, give_die, is_legal, ravager_card,
    ravager_on_board, ravager_to_discard, start_a2,
)

DESTROY = 4          # printed action 5


def _madeline_position(value: int):
    """The rulebook's Madeline example: 1 card at location 2, 2 at location 3, 1 at location 4, 3 at
    location 5 (printed numbers); the player holds a green die of ``value``."""
    s = game(4, seed=1)
    clear_ravagers(s)
    clear_dice(s)
    layout = {1: [RAV_DAMAGE_NEXT], 2: [RAV_DAMAGE_NEXT, RAV_DAMAGE_DIE], 3: [RAV_DAMAGE_NEXT],
              4: [RAV_DISCARD_MISSION, RAV_ROBOT, RAV_DAMAGE_NEXT]}          # top card last
    for loc, effects in layout.items():
        for eff in effects:
            ravager_on_board(s, ravager_card(s, loc, eff))
    d = give_die(s, 0, GREEN, value)
    start_a2(s, 0)
    checked(s)
    return s, d


def _destroy_with(s, d):
    act(s, "SELECT_DIE", d)
    act(s, "BOARD_ACTION", DESTROY)
    assert s.phase == PH_DESTROY


def test_madeline_example_value_two_choices():
    """EN DESTROY RAVAGERS example: with a green 2, location 3 (2 cards) or locations 2 and 4 may be
    destroyed, never location 5 (3 cards, all must go at once)."""
    s, d = _madeline_position(2)
    _destroy_with(s, d)
    assert blocks_legal(s, "DESTROY") == [1, 2, 3]
    assert not is_legal(s, "DONE")            # at least one activation with a die of value 1-3 (EN A2)


def test_madeline_example_locations_two_and_four():
    """EN DESTROY RAVAGERS example: after location 2 (one card), one activation remains: location 4 is
    legal, location 3 (2 cards) no longer; the destroyed cards go to the hand."""
    s, d = _madeline_position(2)
    hand0 = int(s.hand_rav[0])
    _destroy_with(s, d)
    act(s, "DESTROY", 1)
    assert int(s.rav_count[1]) == 0
    assert blocks_legal(s, "DESTROY") == [3]
    assert is_legal(s, "DONE")
    act(s, "DESTROY", 3)
    # Both activations used: the action ends (A3 and the end of the turn follow).
    assert s.phase == PH_TURN and int(s.m[6]) == 1
    assert int(s.hand_rav[0]) == hand0 + 2
    assert int(s.rav_count[2]) == 2 and int(s.rav_count[4]) == 3
    checked(s)


def test_madeline_example_location_three_all_cards_at_once():
    """EN DESTROY RAVAGERS: all the Ravagers of a location are destroyed at the same time and taken into
    the hand (2 cards for the 2 activations)."""
    s, d = _madeline_position(2)
    cards = [int(x) for x in s.rav_loc[2, :2]]
    _destroy_with(s, d)
    act(s, "DESTROY", 2)
    assert int(s.rav_count[2]) == 0
    assert all(int(s.rav_where[r]) == RV_HAND + 0 for r in cards)
    assert s.phase == PH_TURN                  # no activation left
    checked(s)


def test_value_three_destroys_a_full_location():
    """EN DESTROY RAVAGERS: a die of value 3 can destroy the 3 cards of location 5 at once. The topmost card
    there (damage next action) is resolved first: action 6 takes a Damage cube."""
    s, d = _madeline_position(3)
    _destroy_with(s, d)
    assert int(s.dmg[5]) == 1
    assert blocks_legal(s, "DESTROY") == [1, 2, 3, 4]
    act(s, "DESTROY", 4)
    assert int(s.rav_count[4]) == 0
    assert s.phase == PH_TURN
    checked(s)


def test_one_card_per_activation_three_single_locations():
    """EN DESTROY RAVAGERS: one card per activation: a 3 destroys three single-card locations, one by one."""
    s, d = _madeline_position(3)
    ravager_on_board(s, ravager_card(s, 0, RAV_DAMAGE_NEXT))      # a single card at location 1 too
    hand0 = int(s.hand_rav[0])
    _destroy_with(s, d)
    act(s, "DESTROY", 0)
    assert is_legal(s, "DONE")                 # the other activations are optional (EN "you may")
    assert blocks_legal(s, "DESTROY") == [1, 2, 3]
    act(s, "DESTROY", 1)
    assert blocks_legal(s, "DESTROY") == [3]   # one activation left: single cards only
    act(s, "DESTROY", 3)
    assert s.phase == PH_TURN                  # three activations used
    assert int(s.hand_rav[0]) == hand0 + 3


def test_robots_on_card_return_to_their_owners_break_rooms():
    """Appendix RAVAGER CARDS, 085-090: robots on the card return to their owners' break rooms only when the
    Ravager is destroyed (here robots of two other players)."""
    s = game(4, seed=2)
    clear_ravagers(s)
    clear_dice(s)
    r = ravager_card(s, 2, RAV_ROBOT)
    ravager_on_board(s, r)
    for seat in (1, 2):
        s.robots_break[seat] -= 1
        s.rav_robots[r, seat] += 1
    before = [int(x) for x in s.robots_break[:4]]
    d = give_die(s, 0, GREEN, 1)
    start_a2(s, 0)
    checked(s)
    _destroy_with(s, d)
    act(s, "DESTROY", 2)
    assert [int(x) for x in s.robots_break[:4]] == [before[0], before[1] + 1, before[2] + 1, before[3]]
    assert int(s.rav_robots[r].sum()) == 0
    assert int(s.rav_where[r]) == RV_HAND + 0
    checked(s)


def test_own_robot_on_the_destroy_location_is_freed_at_once():
    """Appendix RAVAGER CARDS 085-090 and EN A2 Ravager Cards: the topmost card's effect is resolved before
    the action (a robot goes on it); destroying that location frees the robot again."""
    s = game(4, seed=3)
    clear_ravagers(s)
    clear_dice(s)
    r = ravager_card(s, DESTROY, RAV_ROBOT)
    ravager_on_board(s, r)
    b0 = int(s.robots_break[0])
    d = give_die(s, 0, GREEN, 1)
    start_a2(s, 0)
    _destroy_with(s, d)
    assert int(s.rav_robots[r, 0]) == 1 and int(s.robots_break[0]) == b0 - 1
    act(s, "DESTROY", DESTROY)
    assert int(s.rav_robots[r, 0]) == 0 and int(s.robots_break[0]) == b0
    checked(s)


def test_damaged_destroy_action_reduces_the_value():
    """EN A2 Damaged Action: 2 cubes reduce the die by 1: a green 3 then cannot take a 3-card location, and
    a green 1 cannot perform Destroy at all."""
    s, d = _madeline_position(3)
    s.dmg[DESTROY] = 2
    _destroy_with(s, d)
    assert blocks_legal(s, "DESTROY") == [1, 2, 3]
    s, d = _madeline_position(1)
    s.dmg[DESTROY] = 2
    act(s, "SELECT_DIE", d)
    assert not is_legal(s, "BOARD_ACTION", DESTROY)


def test_destroy_needs_a_location_it_can_clear():
    """EN DESTROY RAVAGERS / A2: with no Ravager on the board, or only a 3-card location and a 2, the action
    has no activation and cannot be chosen."""
    s = game(4, seed=4)
    clear_ravagers(s)
    clear_dice(s)
    d = give_die(s, 0, GREEN, 3)
    start_a2(s, 0)
    act(s, "SELECT_DIE", d)                    # usable for Command Your Ships (action 6)
    assert not is_legal(s, "BOARD_ACTION", DESTROY)
    s, d = _madeline_position(2)
    for loc in (1, 2, 3):
        for r in [int(x) for x in s.rav_loc[loc, :int(s.rav_count[loc])]]:
            ravager_to_discard(s, r)
    act(s, "SELECT_DIE", d)
    assert not is_legal(s, "BOARD_ACTION", DESTROY)


@pytest.mark.parametrize("value", [1, 2, 3])
def test_destroyed_cards_count_against_the_value(value):
    """EN DESTROY RAVAGERS: per activation one card: the number of cards taken never exceeds the value."""
    s, d = _madeline_position(value)
    hand0 = int(s.hand_rav[0])
    _destroy_with(s, d)
    while s.phase == PH_DESTROY:
        locs = blocks_legal(s, "DESTROY")
        if not locs:
            act(s, "DONE")
            break
        act(s, "DESTROY", max(locs, key=lambda l: int(s.rav_count[l])))
    assert int(s.hand_rav[0]) - hand0 == value
    assert engine.legal_actions(s)
