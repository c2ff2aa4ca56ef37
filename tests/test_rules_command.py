"""Rulebook, SEQUENCE A, ACTION: COMMAND YOUR SHIPS (steps 1-4), with rules decisions R-A6 and R-A7 and
rules-notes D1, D3, D4.

EN = shared/rules/rulebook-en.txt. Actions are 0-based (printed 2 / 4 / 6 = Command orange / gray / green =
indices 1 / 3 / 5). The 4-player board has 7 strips; the Black Angel stands on hex 17 (strip 4 apex).
"""

from __future__ import annotations

import pytest

from blackangel_env import engine
from blackangel_env.board import neighbours
from blackangel_env.constants import (
    GRAY, GREEN, ORANGE, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT, RAV_DISCARD_RAVAGER, T_ASTEROID,
)
from blackangel_env.state import (
    MC_SPACE, PH_COMMAND_CARD, PH_SHIP_MOVE, PH_SHIP_SELECT, PH_TURN, RV_BOARD, RV_DISCARD, TL_DISCARD,
    TL_DISPLAY,
)

from helpers import (
    act, blocks_legal, checked, clear_dice, clear_ravagers, game, give_die, is_legal, mission_to_hand,
    mission_to_space, no_icons, ravager_card, ravager_on_board, ravager_to_hand, set_ravager_deck, ship_to,
    ships_at, start_a2,
)

CMD = {ORANGE: 1, GRAY: 3, GREEN: 5}
NB = neighbours(7)
BA = 17
MADELINE_CARD = 1        # orange "1 ship + 1 VP", reward 1 VP, tiles orange then gray (EN 417/446 example)


def _flat(s, terrain):
    for h in range(35):
        s.hex_terrain[h] = terrain
        s.hex_comet[h] = 0
    no_icons(s)


def _position(colour=ORANGE, value=2, terrain=None, seed=0):
    """4 players, no Ravager or damage on the board, every hex of ``terrain`` (default: the die colour)
    without icons; player 0 holds only a die of ``colour`` showing ``value``, and is in A2."""
    s = game(4, seed=seed)
    clear_ravagers(s)
    clear_dice(s)
    _flat(s, colour if terrain is None else terrain)
    d = give_die(s, 0, colour, value)
    start_a2(s, 0)
    return s, d


def _command(s, d, colour=ORANGE):
    act(s, "SELECT_DIE", d)
    act(s, "BOARD_ACTION", CMD[colour])
    assert s.phase == PH_SHIP_SELECT


def _within(start, k, blocked=()):
    """Hexes at distance 1..k from start through non-blocked hexes (plain BFS over the board adjacency)."""
    dist = {start: 0}
    frontier = [start]
    for d in range(1, k + 1):
        nxt = []
        for h in frontier:
            for g in NB[h]:
                if g not in dist and g not in blocked:
                    dist[g] = d
                    nxt.append(g)
        frontier = nxt
    return {h for h, d in dist.items() if d >= 1}


# --- step 1: move one ship --------------------------------------------------------------------------------

def test_move_one_to_value_hexes_not_the_start_with_a_one():
    """EN Command step 1 and R-A6: a die of 1 moves the ship exactly 1 hex; it cannot stay where it is."""
    s, d = _position(value=1)
    ship_to(s, 0, 7)
    checked(s)
    _command(s, d)
    assert blocks_legal(s, "SELECT_SHIP") == [7]
    act(s, "SELECT_SHIP", 7)
    assert s.phase == PH_SHIP_MOVE
    assert blocks_legal(s, "MOVE_SHIP") == sorted(NB[7])


def test_move_up_to_value_and_out_and_back():
    """EN Command step 1 ("less than or equal to the value") and R-A6: with a 2 the ship ends 1 or 2 hexes
    away, or back on its starting hex (out and back)."""
    s, d = _position(value=2)
    ship_to(s, 0, 7)
    _command(s, d)
    act(s, "SELECT_SHIP", 7)
    assert blocks_legal(s, "MOVE_SHIP") == sorted(_within(7, 2) | {7})
    act(s, "MOVE_SHIP", 2)
    assert ships_at(s, 7) == [] and ships_at(s, 2) == [0]
    assert s.phase == PH_COMMAND_CARD
    checked(s)


def test_asteroids_block_moves_and_stops():
    """EN Command step 1: a ship cannot traverse or stop in an asteroid hex."""
    s, d = _position(value=2)
    ship_to(s, 0, 7)
    for h in (1, 2, 3, 6, 8):                 # every neighbour of 7 but 12 is an asteroid field
        s.hex_terrain[h] = T_ASTEROID
    _command(s, d)
    act(s, "SELECT_SHIP", 7)
    expected = {12, 7} | (set(NB[12]) - {6, 8})
    assert blocks_legal(s, "MOVE_SHIP") == sorted(expected)


def test_black_angel_asteroid_hex_is_open_to_ships():
    """EN Command step 1: if the Black Angel is in an asteroid hex, ships can traverse or stop there; other
    asteroid hexes stay closed."""
    s, d = _position(value=1)
    s.hex_terrain[BA] = T_ASTEROID
    s.hex_terrain[11] = T_ASTEROID
    ship_to(s, 0, 12)
    _command(s, d)
    act(s, "SELECT_SHIP", 12)
    dests = blocks_legal(s, "MOVE_SHIP")
    assert BA in dests and 11 not in dests
    act(s, "MOVE_SHIP", BA)
    assert ships_at(s, BA) == [0]


def test_launch_new_ship_from_the_black_angel_with_a_pilot():
    """EN Command step 1: a new ship takes a robot from the break room as pilot and a ship from storage, and
    starts its move from the Black Angel's hex."""
    s, d = _position(value=1)
    ships0, robots0 = int(s.ships[0]), int(s.robots_break[0])
    _command(s, d)
    assert blocks_legal(s, "SELECT_SHIP") == [] and is_legal(s, "LAUNCH_SHIP")
    act(s, "LAUNCH_SHIP")
    assert int(s.ships[0]) == ships0 - 1 and int(s.robots_break[0]) == robots0 - 1
    assert blocks_legal(s, "MOVE_SHIP") == sorted(NB[BA])
    act(s, "MOVE_SHIP", 22)
    assert ships_at(s, 22) == [0]
    checked(s)


@pytest.mark.parametrize("lack", ["ship", "robot"])
def test_launch_needs_a_ship_and_a_robot(lack):
    """EN Command step 1 and notes ("If you do not have the ships and/or robots necessary ... you cannot
    perform this action"): no ship in storage or no robot in the break room, no launch; with no ship in
    Space either, Command is not available to the die."""
    s, d = _position(value=2)
    if lack == "ship":
        s.ships[0] = 0
    else:
        s.robots_supply[0] += s.robots_break[0]
        s.robots_break[0] = 0
    checked(s)
    act(s, "SELECT_DIE", d)                    # still usable for Discover
    assert not is_legal(s, "BOARD_ACTION", CMD[ORANGE])
    assert is_legal(s, "BOARD_ACTION", 0)


def test_two_ships_per_hex_of_different_players():
    """EN Command step 1: a hex holds at most 2 ships, of different players; rules-notes D4: a ship may pass
    through a full hex. Corridor 17 -> 12 -> 7, hex 12 full, hex 7 holds another player's ship."""
    s, d = _position(value=2)
    for h in range(35):
        if h not in (BA, 12, 7):
            s.hex_terrain[h] = T_ASTEROID
    ship_to(s, 1, 12)
    ship_to(s, 2, 12)
    ship_to(s, 3, 7)
    _command(s, d)
    act(s, "LAUNCH_SHIP")
    assert blocks_legal(s, "MOVE_SHIP") == [7, BA]
    act(s, "MOVE_SHIP", 7)
    assert sorted(ships_at(s, 7)) == [0, 3]
    checked(s)


def test_no_second_ship_of_the_same_player_on_a_hex():
    """EN Command step 1: the two ships on a hex must belong to different players."""
    s, d = _position(value=1)
    ship_to(s, 0, 12)
    _command(s, d)
    act(s, "LAUNCH_SHIP")
    dests = blocks_legal(s, "MOVE_SHIP")
    assert 12 not in dests and 11 in dests


# --- star die (R-A7, rules-notes D2/D3) --------------------------------------------------------------------

def test_star_die_no_move_and_mandatory_card():
    """EN Command step 1 note and step 2 note, R-A7: with a star (value 0) no ship moves; a ship on an empty
    hex of the die's colour is chosen and a Mission card must be placed (no DONE)."""
    s, d = _position(value=0)
    ship_to(s, 0, 22)
    ship_to(s, 0, 7)
    s.hex_terrain[7] = GRAY
    mission_to_hand(s, 0, MADELINE_CARD)
    checked(s)
    _command(s, d)
    assert blocks_legal(s, "SELECT_SHIP") == [22]
    act(s, "SELECT_SHIP", 22)
    assert s.phase == PH_COMMAND_CARD
    assert not is_legal(s, "DONE")
    assert MADELINE_CARD in blocks_legal(s, "PLACE_MISSION")
    assert all(c // 20 == ORANGE for c in blocks_legal(s, "PLACE_MISSION"))
    act(s, "PLACE_MISSION", MADELINE_CARD)
    assert int(s.hex_card[22]) == MADELINE_CARD and ships_at(s, 22) == [0]


def test_star_die_launch_stays_on_the_black_angel_hex():
    """R-A7 / rules-notes D3: a star die may launch a ship, which stays on the Black Angel's hex; it needs a
    pilot and a robot for the reward (2 robots)."""
    s, d = _position(value=0)
    mission_to_hand(s, 0, MADELINE_CARD)
    s.robots_supply[0] += s.robots_break[0] - 2
    s.robots_break[0] = 2
    checked(s)
    _command(s, d)
    act(s, "LAUNCH_SHIP")
    assert s.phase == PH_COMMAND_CARD and ships_at(s, BA) == [0]
    act(s, "PLACE_MISSION", MADELINE_CARD)
    assert int(s.hex_card[BA]) == MADELINE_CARD and int(s.robots_break[0]) == 0
    checked(s)


def test_star_die_launch_needs_two_robots():
    """R-A7: with one robot in the break room a star die cannot launch (pilot + reward robot)."""
    s, d = _position(value=0)
    mission_to_hand(s, 0, MADELINE_CARD)
    s.robots_supply[0] += s.robots_break[0] - 1
    s.robots_break[0] = 1
    s.debris[0] = 0                            # no flip to a 2
    checked(s)
    assert not is_legal(s, "SELECT_DIE", d)


def test_star_die_needs_a_card_of_its_colour():
    """EN Command step 2 note ("If you used a Star die (value 0), you must place a Mission card"): without an
    orange card in hand an orange star die cannot command."""
    s, d = _position(value=0)
    ship_to(s, 0, 22)
    for card in range(20):
        if s.mc_where[card] == 10:
            mission_to_hand(s, 1, card)
    s.debris[0] = 0                            # no flip to a 2
    checked(s)
    assert not is_legal(s, "SELECT_DIE", d)


def test_one_on_a_damaged_command_acts_as_a_star():
    """EN A2 Damaged Action and R-A7: a 1 on a damaged Command action has value 0: no move, a card must be
    placed."""
    s, d = _position(value=1)
    s.dmg[CMD[ORANGE]] = 2
    ship_to(s, 0, 22)
    mission_to_hand(s, 0, MADELINE_CARD)
    _command(s, d)
    act(s, "SELECT_SHIP", 22)
    assert s.phase == PH_COMMAND_CARD and not is_legal(s, "DONE")


# --- step 2: place a Mission card ----------------------------------------------------------------------------

def test_place_card_matching_colours_robot_and_reward():
    """EN Command step 2: on an empty hex of the die's colour, a card of that colour may be placed; a robot
    from the break room goes on the reward, which is gained (Madeline's orange card: 1 VP)."""
    s, d = _position(value=1)
    mission_to_hand(s, 0, MADELINE_CARD)
    mission_to_hand(s, 0, 21)                  # a gray card: never placeable with an orange die
    ship_to(s, 0, BA)
    vp0, rob0 = int(s.vp[0]), int(s.robots_break[0])
    _command(s, d)
    act(s, "SELECT_SHIP", BA)
    act(s, "MOVE_SHIP", 22)
    assert is_legal(s, "DONE")                 # placing is optional with a value >= 1
    placeable = blocks_legal(s, "PLACE_MISSION")
    assert MADELINE_CARD in placeable and 21 not in placeable
    act(s, "PLACE_MISSION", MADELINE_CARD)
    assert int(s.mc_where[MADELINE_CARD]) == MC_SPACE and int(s.mc_owner[MADELINE_CARD]) == 0
    assert int(s.robots_break[0]) == rob0 - 1
    assert int(s.vp[0]) == vp0 + 1
    assert s.phase == PH_TURN                  # A3 done, next player's turn
    checked(s)


@pytest.mark.parametrize("why", ["colour", "occupied", "no_robot"])
def test_no_placement_on_wrong_colour_occupied_hex_or_without_robot(why):
    """EN Command step 2: the hex must match the die's colour and hold no card, and the reward robot must come
    from the break room."""
    s, d = _position(value=1)
    mission_to_hand(s, 0, MADELINE_CARD)
    ship_to(s, 0, BA)
    if why == "colour":
        s.hex_terrain[22] = GREEN
    elif why == "occupied":
        mission_to_space(s, 2, 1, 22)
    else:
        s.robots_supply[0] += s.robots_break[0]
        s.robots_break[0] = 0
    checked(s)
    _command(s, d)
    act(s, "SELECT_SHIP", BA)
    act(s, "MOVE_SHIP", 22)
    assert engine.legal_actions(s) == [engine.A.DONE]


def test_card_placed_under_an_extant_ship_of_another_player():
    """EN Command step 2 note: a ship already on the hex is placed on the card (its owner may use it)."""
    s, d = _position(value=1)
    mission_to_hand(s, 0, MADELINE_CARD)
    ship_to(s, 0, BA)
    ship_to(s, 2, 22)
    _command(s, d)
    act(s, "SELECT_SHIP", BA)
    act(s, "MOVE_SHIP", 22)
    act(s, "PLACE_MISSION", MADELINE_CARD)
    assert sorted(ships_at(s, 22)) == [0, 2]
    assert int(s.mc_hex[MADELINE_CARD]) == 22


# --- step 3: Ravagers appear -------------------------------------------------------------------------------

def _place_at_22(s, d):
    mission_to_hand(s, 0, MADELINE_CARD)
    ship_to(s, 0, BA)
    checked(s)
    _command(s, d)
    act(s, "SELECT_SHIP", BA)
    act(s, "MOVE_SHIP", 22)
    act(s, "PLACE_MISSION", MADELINE_CARD)


def test_madeline_example_two_icons_two_ravagers_and_die_damage():
    """EN Command step 3 example: 2 visible icons on adjacent hexes -> 2 Ravager cards; the first goes to
    location 5 (1 Damage cube), the second to location 3, which already has 2 cubes: a gray die in the
    supply is damaged. Icons under a card and on non-adjacent hexes do not count."""
    s, d = _position(value=1)
    s.hex_icons[16] = 1
    s.hex_icons[27] = 1
    s.hex_icons[18] = 1                        # covered by a card below: not visible
    mission_to_space(s, 3, 1, 18)
    s.hex_icons[2] = 1                         # not adjacent to 22
    r5 = ravager_card(s, 4, RAV_DAMAGE_NEXT)
    r3 = ravager_card(s, 2, RAV_DAMAGE_NEXT)
    r_next = ravager_card(s, 0)
    set_ravager_deck(s, [r5, r3, r_next])
    s.dmg[2] = 2
    _place_at_22(s, d)
    assert int(s.rav_where[r5]) == RV_BOARD + 4 and int(s.rav_where[r3]) == RV_BOARD + 2
    assert int(s.rav_where[r_next]) != RV_BOARD + 0          # only 2 drawn
    assert int(s.m[15]) == 1                                   # one card left in the deck
    assert [int(x) for x in s.dmg] == [0, 0, 2, 0, 1, 0]
    gray_damaged = [d for d in range(6, 12) if s.die_damaged[d]]
    assert len(gray_damaged) == 1
    checked(s)


def test_ravager_stacks_on_existing_cards_and_full_location_redraws():
    """EN Command step 3 notes: a new card goes on top of a location's cards; a location holds 3 cards: a
    card for a full location is discarded and the next card is drawn instead."""
    s, d = _position(value=1)
    s.hex_icons[16] = 1
    for _ in range(3):
        ravager_on_board(s, ravager_card(s, 0))
    full = ravager_card(s, 0)
    nxt = ravager_card(s, 1, RAV_DAMAGE_NEXT)
    set_ravager_deck(s, [full, nxt, ravager_card(s, 3)])
    _place_at_22(s, d)
    assert int(s.rav_where[full]) == RV_DISCARD
    assert int(s.rav_where[nxt]) == RV_BOARD + 1 and int(s.rav_loc[1, 0]) == nxt
    assert int(s.dmg[1]) == 1 and int(s.dmg[0]) == 0
    checked(s)


def test_damage_on_full_action_and_no_die_is_ignored():
    """EN Command step 3: 2 cubes on the action and every supply die of its colour damaged (or none in the
    supply): the damage is ignored."""
    s, d = _position(value=1)
    s.hex_icons[16] = 1
    r = ravager_card(s, 2, RAV_DAMAGE_NEXT)
    set_ravager_deck(s, [r, ravager_card(s, 0)])
    s.dmg[2] = 2
    for g in range(6, 12):
        if s.die_owner[g] == -1:
            s.die_damaged[g] = 1
    _place_at_22(s, d)
    assert int(s.rav_where[r]) == RV_BOARD + 2 and int(s.dmg[2]) == 2
    checked(s)


def test_every_location_full_plays_out_the_deck_once_and_stops():
    """EN Command step 3 notes (a card for a full location is discarded and the next one drawn) and END OF THE
    GAME (the Ravager deck becomes empty): rules decision R-D1: when no card left in the deck or its discard
    can land (here all six locations hold 3 cards), the deck is drawn out into the discard once - which
    triggers the end - and no Ravager appears (instead of redrawing forever)."""
    s, d = _position(value=1)
    s.hex_icons[16] = 1
    for a in range(6):
        for eff in (RAV_DAMAGE_DIE, RAV_DISCARD_RAVAGER, RAV_DAMAGE_NEXT):    # harmless top card
            ravager_on_board(s, ravager_card(s, a, eff))
    deck = [r for r in range(30) if s.rav_where[r] == 0]
    assert deck
    _place_at_22(s, d)
    assert int(s.m[15]) == 0 and all(int(s.rav_where[r]) == RV_DISCARD for r in deck)
    assert int(s.m[9]) == 1                                    # end of the game triggered
    assert [int(x) for x in s.rav_count] == [3] * 6
    checked(s)


def test_cards_that_can_only_hit_full_locations_are_played_out():
    """R-D1 (as above) when only some locations are full: every card left in the deck and discard targets
    location 1, which is full (the cards for the other locations are in hands): the deck runs out, the end
    is triggered, nothing is placed."""
    s, d = _position(value=1)
    s.hex_icons[16] = 1
    for eff in (RAV_DAMAGE_DIE, RAV_DISCARD_RAVAGER, RAV_DAMAGE_NEXT):
        ravager_on_board(s, ravager_card(s, 0, eff))
    for r in range(30):
        if s.rav_where[r] in (0, 1) and s.comp.ravager_action[r] != 0:
            ravager_to_hand(s, 1 + r % 3, r)
    left = [r for r in range(30) if s.rav_where[r] in (0, 1)]
    assert left and all(s.comp.ravager_action[r] == 0 for r in left)
    checked(s)
    _place_at_22(s, d)
    assert int(s.m[15]) == 0 and int(s.m[9]) == 1
    assert all(int(s.rav_where[r]) == RV_DISCARD for r in left)
    assert [int(x) for x in s.rav_count] == [3, 0, 0, 0, 0, 0]
    checked(s)


# --- step 4: new Technology tiles appear ----------------------------------------------------------------------

def test_tiles_appear_in_card_order_pushing_the_display():
    """EN Command step 4 and example: the card's tiles (orange, then gray) are injected in that order at the
    start of the display, pushing the tiles there (rules-notes D1)."""
    s, d = _position(value=1)
    before = [int(x) for x in s.display]
    o = int(s.tech_stack[ORANGE, int(s.tech_stack_n[ORANGE]) - 1])
    g = int(s.tech_stack[GRAY, int(s.tech_stack_n[GRAY]) - 1])
    _place_at_22(s, d)
    assert [int(x) for x in s.display] == [g, o] + before[:6]
    assert int(s.tile_where[o]) == TL_DISPLAY and int(s.tile_where[g]) == TL_DISPLAY


def test_push_stops_at_the_first_gap():
    """rules-notes D1: the push moves only the contiguous tiles from the entry; a gap absorbs it."""
    s, d = _position(value=1)
    t0, t1, t2 = (int(x) for x in s.display[:3])
    s.display[1] = -1
    s.tile_where[t1] = TL_DISCARD
    o = int(s.tech_stack[ORANGE, int(s.tech_stack_n[ORANGE]) - 1])
    g = int(s.tech_stack[GRAY, int(s.tech_stack_n[GRAY]) - 1])
    _place_at_22(s, d)
    # orange enters: [o, t0, t2, ...] (gap filled); gray enters: [g, o, t0, t2, -1 ...]
    assert [int(x) for x in s.display[:5]] == [g, o, t0, t2, -1]


def test_tiles_pushed_off_the_display_are_discarded():
    """EN Command step 4: tiles ejected from the display go to a discard pile (display of 8 spaces,
    rules-notes C1)."""
    s, d = _position(value=1)
    for pos in range(3, 8):
        c = pos % 3
        n = int(s.tech_stack_n[c])
        t = int(s.tech_stack[c, n - 1])
        s.tech_stack[c, n - 1] = -1
        s.tech_stack_n[c] = n - 1
        s.display[pos] = t
        s.tile_where[t] = TL_DISPLAY
    full = [int(x) for x in s.display]
    checked(s)
    _place_at_22(s, d)
    assert int(s.tile_where[full[7]]) == TL_DISCARD and int(s.tile_where[full[6]]) == TL_DISCARD
    assert [int(x) for x in s.display[2:]] == full[:6]
    checked(s)


@pytest.mark.parametrize("card,field,delta", [
    (0, "ships", 1),               # reward: 1 ship (into storage)
    (1, "vp", 1),                  # reward: 1 VP
    (2, "robots_break", 0),        # reward: 1 robot from the supply to the break room; 1 robot went on it
    (3, "res", 1),                 # reward: 1 resource
])
def test_placement_reward_kinds(card, field, delta):
    """EN Command step 2: "The rewards available include gaining VP, robots, resources, or ships" (rewards per
    card assumed, rules-notes C3); the reward robot itself leaves the break room."""
    s, d = _position(value=1)
    mission_to_hand(s, 0, card)
    ship_to(s, 0, BA)
    before = {f: int(getattr(s, f)[0]) for f in ("ships", "vp", "robots_break", "res", "robots_supply")}
    _command(s, d)
    act(s, "SELECT_SHIP", BA)
    act(s, "MOVE_SHIP", 22)
    act(s, "PLACE_MISSION", card)
    after = {f: int(getattr(s, f)[0]) for f in before}
    assert after[field] - before[field] == delta
    expected_break = before["robots_break"] - 1 + (1 if field == "robots_break" else 0)
    assert after["robots_break"] == expected_break
    assert after["robots_supply"] == before["robots_supply"] - (1 if field == "robots_break" else 0)
    checked(s)
