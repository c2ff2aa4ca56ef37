"""Rulebook, SEQUENCE A, PERFORMING AN ACTION IN AN ALIEN TERRITORY (activation missions, the owner's free
activation), the appendix MISSION CARDS effects, and A3 (draw a card, return the die, hand limit).

EN = shared/rules/rulebook-en.txt, FR = rulebook-fr.txt. Mission ids: orange 0-19, gray 20-39, green 40-59,
in appendix order (12 activation then 8 neutralization cards per colour).
"""

from __future__ import annotations

import pytest

from blackangel_env import engine
from blackangel_env.constants import ADV_TILE0, GRAY, GREEN, ORANGE
from blackangel_env.state import (
    DIE_SUPPLY, MC_DISCARD, MC_HAND, PH_HAND_LIMIT, PH_MISSION, PH_OWNER, PH_PAY, PH_TURN, RV_DISCARD, RV_HAND,
    TL_DISCARD, TL_EJECTED,
)

from helpers import (
    act, blocks_legal, checked, clear_dice, clear_hand, clear_ravagers, game, give_die, is_legal,
    mission_to_discard, mission_to_hand, mission_to_space, ravager_to_hand, ship_to,
    start_a2,
)

H = 22                    # the hex used for the card in Space


def _position(card, die_colour=None, value=3, owner=1, activator_ship=True, seed=0):
    """4 players; ``card`` in Space on hex H owned by ``owner``; player 0 has a ship there (if
    ``activator_ship``) and a die of ``die_colour`` (default: the card's) showing ``value``; A2."""
    s = game(4, seed=seed)
    clear_ravagers(s)
    clear_dice(s)
    mission_to_space(s, card, owner, H)
    if activator_ship and owner != 0:
        ship_to(s, 0, H)
    d = give_die(s, 0, card // 20 if die_colour is None else die_colour, value)
    start_a2(s, 0)
    checked(s)
    return s, d


def _can_activate(s, d, card):
    """Can player 0 select die d and then activate ``card`` with it (without modifying the die)?"""
    if not is_legal(s, "SELECT_DIE", d):
        return False
    t = s.copy()
    act(t, "SELECT_DIE", d)
    return is_legal(t, "MISSION_ACTION", card)


def _use(s, d, card):
    act(s, "SELECT_DIE", d)
    act(s, "MISSION_ACTION", card)


# --- conditions ------------------------------------------------------------------------------------------

def test_fr_example_activator_and_owner_free_activation():
    """EN/FR PERFORMING AN ACTION IN AN ALIEN TERRITORY, IMPORTANT, and the FR/PL example (rules-notes B5):
    an orange 3 on Madeline's "1 ship + 1 VP" card gives the activator (a ship on it) 3 ships + 3 VP; then
    Madeline, the owner, activates once, without a die, for 1 ship + 1 VP (R-A11: her decision)."""
    s, d = _position(1, value=3, owner=1)
    ships, vps = [int(x) for x in s.ships[:2]], [int(x) for x in s.vp[:2]]
    _use(s, d, 1)
    assert s.phase == PH_MISSION and not is_legal(s, "DONE")
    for _ in range(3):
        act(s, "ACTIVATE")
    assert s.phase == PH_OWNER and s.actor == 1
    assert engine.legal_actions(s) == [engine.A.DONE, engine.A.ACTIVATE]
    assert int(s.ships[0]) == ships[0] + 3 and int(s.vp[0]) == vps[0] + 3
    act(s, "ACTIVATE")
    assert int(s.ships[1]) == ships[1] + 1 and int(s.vp[1]) == vps[1] + 1
    assert s.phase == PH_TURN and int(s.m[6]) == 1          # A3 done, player 1's turn
    checked(s)


def test_owner_may_decline_the_free_activation():
    """R-A11: the owner's free activation is the owner's choice (DONE declines it)."""
    s, d = _position(1, value=1, owner=2)
    _use(s, d, 1)
    act(s, "ACTIVATE")
    assert s.phase == PH_OWNER and s.actor == 2
    ships2 = int(s.ships[2])
    act(s, "DONE")
    assert int(s.ships[2]) == ships2 and s.phase == PH_TURN


def test_owner_activating_own_card_gets_no_free_activation():
    """EN IMPORTANT: the free activation applies only when the card is not the activator's (owner = the
    robot on the reward, rules-notes D6)."""
    s, d = _position(1, value=1, owner=0)
    _use(s, d, 1)
    act(s, "ACTIVATE")
    assert s.phase == PH_TURN and int(s.m[6]) == 1


def test_die_colour_must_match_the_card():
    """EN ALIEN TERRITORY: "You must use a die of the same color as the mission"."""
    s, d = _position(1, die_colour=GRAY, value=3)
    assert not _can_activate(s, d, 1)
    s, d = _position(1, die_colour=ORANGE, value=3)
    assert _can_activate(s, d, 1)


def test_needs_a_robot_or_a_ship_on_the_card():
    """EN ALIEN TERRITORY: "You must have a robot or ship on this card" (a ship on a neighbouring hex does
    not count)."""
    s, d = _position(1, value=3, owner=1, activator_ship=False)
    ship_to(s, 0, 17)
    checked(s)
    assert not _can_activate(s, d, 1)
    ship_to(s, 0, H)                           # control: with a ship on the card it is legal
    s.robots_break[0] += 1                     # (the first ship is moved, not added)
    s.hex_ship[17, 0] = -1
    checked(s)
    assert _can_activate(s, d, 1)


def test_neutralization_cards_cannot_be_activated():
    """EN ALIEN TERRITORY: neutralization missions cannot be activated (card 15, orange)."""
    s, d = _position(15, value=3, owner=0)
    assert not _can_activate(s, d, 15)


def test_star_die_cannot_activate_a_mission():
    """EN A2: a value-0 die performs no action except part of Command Your Ships (rules-notes D2)."""
    s, d = _position(1, value=0, owner=0)
    s.debris[0] = 0
    mission_to_hand(s, 0, 2)
    assert not _can_activate(s, d, 1)
    s.die_value[d] = 1
    assert _can_activate(s, d, 1)


def test_damage_does_not_reduce_a_mission_die():
    """EN A2: damage affects actions of the Black Angel board only: a 3 gives 3 activations of a card even
    with both Command actions of its colour damaged."""
    s, d = _position(0, value=3, owner=0)
    s.dmg[:] = 2
    ships = int(s.ships[0])
    _use(s, d, 0)
    for _ in range(3):
        act(s, "ACTIVATE")
    assert int(s.ships[0]) == ships + 6


def test_activations_are_optional_after_the_first():
    """EN A2 ("at least one activation") and rules-notes B3: DONE after one activation of a 3."""
    s, d = _position(0, value=3, owner=0)
    ships = int(s.ships[0])
    _use(s, d, 0)
    act(s, "ACTIVATE")
    act(s, "DONE")
    assert int(s.ships[0]) == ships + 2 and s.phase == PH_TURN


# --- per-activation effects (appendix) ----------------------------------------------------------------------

@pytest.mark.parametrize("card,setup,delta", [
    (0, {}, {"ships": 2}),                                     # take 2 ships
    (2, {}, {"ships": 1, "res": 1}),                           # 1 ship + 1 resource
    (3, {}, {"ships": 1, "robots_break": 1}),                  # 1 ship + 1 robot
    (20, {}, {"res": 2}),                                      # gray: 2 resources
    (23, {}, {"res": 1, "robots_break": 1}),                   # 1 resource + 1 robot
    (40, {}, {"robots_break": 2}),                             # green: 2 robots
    (43, {}, {"robots_break": 1, "ships": 1}),                 # 1 robot + 1 ship
    (4, {"ships": 1}, {"ships": -1, "vp": 2}),                 # spend 1 ship -> 2 VP
    (25, {"res": 2}, {"res": -2, "vp": 3}),                    # spend 2 resources -> 3 VP
    (26, {"debris": 1}, {"debris": -1, "vp": 2}),              # spend 1 debris -> 2 VP
    (28, {"res": 1, "debris": 1}, {"res": -1, "debris": -1, "vp": 3}),
    (44, {}, {"robots_break": -1, "vp": 2}),                   # spend 1 robot -> 2 VP
    (46, {"rav": 1}, {"hand_rav": -1, "vp": 2}),               # spend 1 Ravager card -> 2 VP
    (50, {"ships": 1, "rav": 1}, {"ships": -1, "hand_rav": -1, "vp": 3}),   # FR: 1 ship + 1 Ravager
])
def test_one_activation_cost_and_gain(card, setup, delta):
    """Appendix MISSION CARDS: the cost and gain of one activation (card 50 from FR, EN garbled)."""
    s, d = _position(card, value=1, owner=0)
    for k, v in setup.items():
        if k == "rav":
            for r in range(30):
                if s.rav_where[r] == 0 and v > 0:
                    ravager_to_hand(s, 0, r)
                    v -= 1
        else:
            getattr(s, k)[0] = v
    checked(s)
    fields = ("ships", "res", "robots_break", "debris", "vp", "hand_rav")
    before = {f: int(getattr(s, f)[0]) for f in fields}
    _use(s, d, card)
    act(s, "ACTIVATE")
    after = {f: int(getattr(s, f)[0]) for f in fields}
    assert {f: after[f] - before[f] for f in fields if after[f] != before[f]} == delta
    checked(s)


def test_activations_stop_when_the_cost_cannot_be_paid():
    """Appendix "spend 1 ship from your storage area to gain 2 VP": a 3 with only 2 ships gives 2
    activations, then the action ends."""
    s, d = _position(4, value=3, owner=0)
    s.ships[0] = 2
    vp0 = int(s.vp[0])
    _use(s, d, 4)
    act(s, "ACTIVATE")
    act(s, "ACTIVATE")
    assert int(s.ships[0]) == 0 and int(s.vp[0]) == vp0 + 4
    assert s.phase == PH_TURN


def test_mission_needs_the_cost_to_be_usable():
    """Appendix: an activation whose cost cannot be paid cannot be performed (no ship for card 4)."""
    s, d = _position(4, value=3, owner=0)
    s.ships[0] = 0
    assert not _can_activate(s, d, 4)
    s.ships[0] = 1
    assert _can_activate(s, d, 4)


def test_spent_robot_goes_to_the_supply_and_gained_robots_come_from_it():
    """Appendix: "spend 1 robot from your storage area" (the break room) - it returns to the supply; "take 1
    robot" comes from the supply (robots are limited, EN COMPONENTS note)."""
    s, d = _position(44, value=1, owner=0)
    sup = int(s.robots_supply[0])
    _use(s, d, 44)
    act(s, "ACTIVATE")
    assert int(s.robots_supply[0]) == sup + 1
    s, d = _position(40, value=1, owner=0)
    s.robots_break[0] += s.robots_supply[0] - 1
    s.robots_supply[0] = 1
    checked(s)
    b = int(s.robots_break[0])
    _use(s, d, 40)
    act(s, "ACTIVATE")
    assert int(s.robots_break[0]) == b + 1 and int(s.robots_supply[0]) == 0   # only 1 robot left to take


def test_spend_two_ravagers_lowest_numbered_first():
    """Appendix "spend 2 Ravager cards from your hand to gain 3 VP" and R-A8 (the engine spends the
    lowest-numbered Ravager cards)."""
    s, d = _position(47, value=1, owner=0)
    held = [r for r in range(30) if s.rav_where[r] == RV_HAND + 0]
    extra = [r for r in range(30) if s.rav_where[r] == 0][:2]
    for r in extra:
        ravager_to_hand(s, 0, r)
    hand = sorted(held + extra)
    vp0 = int(s.vp[0])
    _use(s, d, 47)
    act(s, "ACTIVATE")
    assert int(s.rav_where[hand[0]]) == RV_DISCARD and int(s.rav_where[hand[1]]) == RV_DISCARD
    assert all(int(s.rav_where[r]) == RV_HAND for r in hand[2:])
    assert int(s.vp[0]) == vp0 + 3


def test_spend_a_technology_from_grid_or_ejected():
    """Appendix "spend 1 technology, either from your grid or ejected from it, to gain 2 VP"; rules-notes
    D14: a standard or Starting tile, never an Advanced tile; a spent grid tile leaves its cell empty."""
    s, d = _position(6, value=2, owner=0)
    ej = int(s.tech_stack[ORANGE, int(s.tech_stack_n[ORANGE]) - 1])
    s.tech_stack[ORANGE, int(s.tech_stack_n[ORANGE]) - 1] = -1
    s.tech_stack_n[ORANGE] -= 1
    s.tile_where[ej] = TL_EJECTED + 0
    adv = int(s.adv_slots[0])
    s.adv_slots[0] = -1
    empty = [c for c in range(9) if s.grid[0, c] < 0][0]
    s.grid[0, empty] = adv
    s.tile_where[adv] = 10
    checked(s)
    grid_tiles = [c for c in range(9) if 0 <= s.grid[0, c] < ADV_TILE0]
    vp0 = int(s.vp[0])
    _use(s, d, 6)
    act(s, "ACTIVATE")
    assert s.phase == PH_PAY
    assert blocks_legal(s, "SPEND_TECH") == grid_tiles
    assert is_legal(s, "SPEND_EJECTED_TECH")
    cell = grid_tiles[0]
    t = int(s.grid[0, cell])
    act(s, "SPEND_TECH", cell)
    assert int(s.grid[0, cell]) == -1 and int(s.tile_where[t]) == TL_DISCARD
    assert int(s.vp[0]) == vp0 + 2
    act(s, "ACTIVATE")
    act(s, "SPEND_EJECTED_TECH")
    assert int(s.tile_where[ej]) == TL_DISCARD and int(s.vp[0]) == vp0 + 4
    checked(s)


def test_spending_an_ejected_tile_costs_one_of_the_tiles_counted():
    """Appendix "spend 1 technology, either from your grid or ejected from it", R-A8 and R-D13: ejected standard
    and Starting tiles count alike for the Advanced tile "2 VP per ejected Technology tile", so spending either
    costs that tile one element (2 VP); the engine spends the highest id, here the Starting tile."""
    from blackangel_env.constants import AE_EJECTED_TECH, START_TILE0
    from blackangel_env.engine.end import advanced_tiles_detail
    from blackangel_env.state import TL_GRID

    s, d = _position(6, value=1, owner=0)
    std = int(s.tech_stack[ORANGE, int(s.tech_stack_n[ORANGE]) - 1])      # a standard tile, ejected
    s.tech_stack[ORANGE, int(s.tech_stack_n[ORANGE]) - 1] = -1
    s.tech_stack_n[ORANGE] -= 1
    s.tile_where[std] = TL_EJECTED + 0
    cell = [c for c in range(9) if int(s.grid[0, c]) >= START_TILE0][0]    # a Starting tile, ejected
    start = int(s.grid[0, cell])
    s.grid[0, cell] = -1
    s.tile_where[start] = TL_EJECTED + 0
    adv = [a for a in range(ADV_TILE0, ADV_TILE0 + 16) if s.comp.tile_adv[a] == AE_EJECTED_TECH][0]
    if int(s.adv_slots[0]) != adv:                       # bring it to display slot 0 (from the deck or a slot)
        pos = s.adv_deck.tolist().index(adv) if adv in s.adv_deck.tolist() else None
        if pos is not None:
            s.adv_deck[pos] = s.adv_slots[0]
        else:
            s.adv_slots[s.adv_slots.tolist().index(adv)] = s.adv_slots[0]
        s.adv_slots[0] = adv
    s.adv_slots[0] = -1
    s.grid[0, cell] = adv
    s.tile_where[adv] = TL_GRID + 0
    checked(s)
    before = advanced_tiles_detail(s, 0)
    assert [(x["elements"], x["vp"]) for x in before] == [(2, 4)]
    _use(s, d, 6)
    act(s, "ACTIVATE")
    assert s.phase == PH_PAY and is_legal(s, "SPEND_EJECTED_TECH")
    act(s, "SPEND_EJECTED_TECH")
    assert int(s.tile_where[start]) == TL_DISCARD and int(s.tile_where[std]) == TL_EJECTED + 0
    assert [(x["elements"], x["vp"]) for x in advanced_tiles_detail(s, 0)] == [(1, 2)]
    checked(s)


def test_spend_a_ship_and_a_mission_card_of_any_colour():
    """Appendix orange 12 "spend 1 ship from your storage area and 1 Mission card from your hand (of the color
    of your choice) to gain 3 VP": every hand card may be chosen; Ravager cards may not be spent instead."""
    s, d = _position(11, value=1, owner=0)
    hand = [c for c in range(60) if s.mc_where[c] == MC_HAND + 0]
    ships, vp0 = int(s.ships[0]), int(s.vp[0])
    _use(s, d, 11)
    act(s, "ACTIVATE")
    assert s.phase == PH_PAY and blocks_legal(s, "SPEND_MISSION") == hand
    act(s, "SPEND_MISSION", hand[-1])
    assert int(s.mc_where[hand[-1]]) == MC_DISCARD
    assert int(s.ships[0]) == ships - 1 and int(s.vp[0]) == vp0 + 3


def test_spend_mission_needs_a_mission_card_not_a_ravager():
    """Appendix MISSION CARDS: "When you must spend a Mission card, you cannot spend a Ravager card instead"
    (green 12 per FR: 1 robot + 1 Mission card)."""
    s, d = _position(51, value=1, owner=0)
    clear_hand(s, 0)
    checked(s)
    assert s.hand_rav[0] >= 1 and not _can_activate(s, d, 51)
    mission_to_hand(s, 0, 5)
    assert _can_activate(s, d, 51)


def test_owner_free_activation_pays_its_own_cost():
    """EN IMPORTANT + appendix: the owner's free activation pays the card's cost from the owner's own
    storage and choices (tile spent by the owner)."""
    s, d = _position(6, value=1, owner=1)
    vp1 = int(s.vp[1])
    _use(s, d, 6)
    act(s, "ACTIVATE")
    act(s, "SPEND_TECH", blocks_legal(s, "SPEND_TECH")[0])    # the activator's own tile
    assert s.phase == PH_OWNER and s.actor == 1
    act(s, "ACTIVATE")
    assert s.phase == PH_PAY and s.actor == 1
    cell = blocks_legal(s, "SPEND_TECH")[0]
    act(s, "SPEND_TECH", cell)
    assert int(s.grid[1, cell]) == -1 and int(s.vp[1]) == vp1 + 2
    assert s.phase == PH_TURN
    checked(s)


def test_owner_who_cannot_pay_may_only_decline():
    """EN IMPORTANT + appendix: the free activation is still an activation: with no ship to spend, the owner
    of "spend 1 ship -> 2 VP" can only pass."""
    s, d = _position(4, value=1, owner=1)
    s.ships[1] = 0
    _use(s, d, 4)
    act(s, "ACTIVATE")
    assert s.phase == PH_OWNER and engine.legal_actions(s) == [engine.A.DONE]


# --- A3 ------------------------------------------------------------------------------------------------------

def test_a3_draws_a_card_of_the_die_colour_and_returns_the_die():
    """EN A3: draw a card matching the colour of the die used, and return the die to its supply."""
    s, d = _position(40, value=1, owner=0)
    top = int(s.mc_deck[GREEN, int(s.mc_deck_n[GREEN]) - 1])
    n = int(s.hand_mc[0].sum())
    _use(s, d, 40)
    act(s, "ACTIVATE")
    assert int(s.mc_where[top]) == MC_HAND + 0 and int(s.hand_mc[0].sum()) == n + 1
    assert int(s.die_owner[d]) == DIE_SUPPLY


def test_a3_empty_deck_is_rebuilt_from_its_discards_or_gives_nothing():
    """EN A3 note: an empty Mission deck is rebuilt from the discards of its colour; with no discards no card
    is drawn."""
    s, d = _position(40, value=1, owner=0)
    deck = [int(x) for x in s.mc_deck[GREEN, :int(s.mc_deck_n[GREEN])]]
    for c in deck[:-1]:
        mission_to_hand(s, 3, c)
    mission_to_discard(s, deck[-1])
    checked(s)
    _use(s, d, 40)
    act(s, "ACTIVATE")
    assert int(s.mc_where[deck[-1]]) == MC_HAND + 0
    s, d = _position(40, value=1, owner=0)
    for c in [int(x) for x in s.mc_deck[GREEN, :int(s.mc_deck_n[GREEN])]]:
        mission_to_hand(s, 3, c)
    checked(s)
    n = int(s.hand_mc[0].sum())
    _use(s, d, 40)
    act(s, "ACTIVATE")
    assert int(s.hand_mc[0].sum()) == n and s.phase == PH_TURN


def test_hand_limit_six_missions_ravagers_not_counted():
    """EN A3 IMPORTANT: at the end of the turn at most 6 Mission cards in hand (Ravager cards not counted);
    the player discards the excess cards of their choice."""
    s, d = _position(40, value=1, owner=0)
    clear_hand(s, 0)
    for c in (1, 2, 21, 22, 41, 42):
        mission_to_hand(s, 0, c)
    for r in [r for r in range(30) if s.rav_where[r] == 0][:4]:
        ravager_to_hand(s, 0, r)
    top = int(s.mc_deck[GREEN, int(s.mc_deck_n[GREEN]) - 1])
    checked(s)
    _use(s, d, 40)
    act(s, "ACTIVATE")
    assert s.phase == PH_HAND_LIMIT and s.actor == 0
    assert blocks_legal(s, "DISCARD_MISSION") == sorted([1, 2, 21, 22, 41, 42, top])
    act(s, "DISCARD_MISSION", 21)
    assert int(s.mc_where[21]) == MC_DISCARD and int(s.hand_mc[0].sum()) == 6
    assert s.phase == PH_TURN and int(s.m[6]) == 1
    checked(s)


def test_six_missions_and_many_ravagers_need_no_discard():
    """EN A3 IMPORTANT: Ravager cards do not count toward the limit of 6."""
    s, d = _position(40, value=1, owner=0)
    clear_hand(s, 0)
    for c in (1, 2, 21, 22, 41):
        mission_to_hand(s, 0, c)
    for r in [r for r in range(30) if s.rav_where[r] == 0][:5]:
        ravager_to_hand(s, 0, r)
    checked(s)
    _use(s, d, 40)
    act(s, "ACTIVATE")
    assert int(s.hand_mc[0].sum()) == 6 and s.phase == PH_TURN and int(s.m[6]) == 1


def test_bought_die_resource_is_gone_before_the_mission_cost():
    """EN A2 (buy a die for 1 resource, then act) and appendix gray 5 "spend 1 resource ... to gain 2 VP": the
    purchase is paid first, so with a single resource another player's die cannot be bought to activate a
    resource-costing card (no stuck A2); with 2 resources it can."""
    s = game(4, seed=0)
    clear_ravagers(s)
    clear_dice(s)
    mission_to_space(s, 24, 0, H)
    s.ships[0] = 0                             # no Command Your Ships for the die either
    d = give_die(s, 2, GRAY, 3)
    s.res[0] = 1
    start_a2(s, 0)
    checked(s)
    assert not is_legal(s, "SELECT_DIE", d)
    s.res[0] = 2
    assert is_legal(s, "SELECT_DIE", d)
    act(s, "SELECT_DIE", d)
    assert int(s.res[0]) == 1 and is_legal(s, "MISSION_ACTION", 24)
    act(s, "MISSION_ACTION", 24)
    act(s, "ACTIVATE")
    assert int(s.res[0]) == 0 and s.phase == PH_TURN
