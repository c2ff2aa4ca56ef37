"""Rules tests: VARIANT - PLAYING SOLITAIRE (Hal), one test per clause, plus seeded random solo games.

EN = shared/rules/rulebook-en.txt, VARIANT - PLAYING SOLITAIRE (FR = rulebook-fr.txt, VARIANTE - JEU EN
SOLITAIRE, where the English OCR lost text); rules-notes = shared/design/rules-notes.md (A21, B14-B20, C7,
C8, D15-D20); R-* = docs/rules.md.

Hal's cards are looked up in the component data by what they show (rules-notes C7 is assumed and editable),
never by number.  A Hal turn is run directly with ``hal.hal_turn`` on a constructed position: the player's
last sequence is ``s.last_seq[0]`` (1 = A, 2 = B) and Hal's next card is the top of his deck.
"""

from __future__ import annotations

import numpy as np
import pytest

import helpers as H
from blackangel_env import engine, hal, scoring
from blackangel_env.board import neighbours
from blackangel_env.constants import (
    G_DEBRIS, G_MISSION, G_RAVAGER, G_RESOURCE, G_ROBOT, G_SHIP, G_TECH, G_VP, GRAY, GREEN, HAL_CLOCKWISE,
    HAL_COUNTERCLOCKWISE, HAL_DISCOVER_ADVANCED_FIRST, HAL_DISCOVER_TECH_ONLY, MISSION_ACTIVATION,
    MISSION_NEUTRALIZATION, NEUT_FIXED, ORANGE, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT, RAV_DISCARD_MISSION,
    RAV_DISCARD_RAVAGER, RAV_ROBOT, T_ASTEROID,
)
from blackangel_env.invariants import check_invariants
from blackangel_env.state import (
    BOT, DIE_ABSENT, DIE_SUPPLY, M_ADV_DECK_N, M_END_TRIGGERED, M_GAME_OVER, M_HAL_CARD, M_HAL_DECK_N,
    M_N_STRIPS, M_RAV_DECK_N, M_ROUND, M_SPES_REACHED, M_SPES_TOKEN_POS, M_TRIGGER_ROUND, M_TURN_PLAYER, MC_DISCARD,
    MC_SPACE, PH_TURN, RV_BOARD, RV_BOX, RV_DISCARD, RV_HAND, SRC_HAL, SRC_TRADE, TL_DISCARD,
    TL_DISPLAY,
)

DISCOVER, CMD_ORANGE, REPAIR, CMD_GRAY, DESTROY, CMD_GREEN = range(6)
SEQ_A, SEQ_B = 1, 2
CMD = {ORANGE: CMD_ORANGE, GRAY: CMD_GRAY, GREEN: CMD_GREEN}


# --- helpers ------------------------------------------------------------------------------------------------

def _card(s, top=None, bottom=None, discover=None, rotation=None) -> int:
    """The first Hal card whose top / bottom half names that action (0..5), with that Discover preference
    and rotation (None = any)."""
    c = s.comp
    for k in range(12):
        if top is not None and c.hal_top_action[k] != top:
            continue
        if bottom is not None and c.hal_bottom_action[k] != bottom:
            continue
        if discover is not None and c.hal_discover[k] != discover:
            continue
        if rotation is not None and c.hal_rotation[k] != rotation:
            continue
        return k
    raise AssertionError("no such Hal card in the component data")


def _solo(seed: int = 0, advanced: bool = False):
    s = H.solo_bare(seed=seed, advanced=advanced)
    s.res[0] = 0
    H.set_display(s, [-1] * 8)
    return s


def _hal(s, seq: int = SEQ_A, card: int | None = None) -> int:
    """Run one Hal turn after a player's Sequence ``seq``; returns Hal's VP gain."""
    if card is not None:
        H.hal_card_on_top(s, card)
    s.last_seq[0] = seq
    H.checked(s)
    before = int(s.vp[BOT])
    hal.hal_turn(s)
    check_invariants(s)
    return int(s.vp[BOT]) - before


def _hal_dice(s) -> list[int]:
    return [d for d in range(18) if s.die_owner[d] == BOT]


def _tiles(s, k: int, colour: int = ORANGE) -> list[int]:
    """k standard Technology tiles of ``colour`` still in their stack."""
    out = [t for t in range(16 * colour, 16 * colour + 16) if s.tile_where[t] == 0][:k]
    assert len(out) == k
    return out


def _display_cost1(s, k: int) -> list[int]:
    """Display with k tiles on the last (cost-1) spaces, nearest the ejection end; returns them (ejection end
    first)."""
    ts = _tiles(s, k)
    disp = [-1] * 8
    for i, t in enumerate(ts):
        disp[7 - i] = t
    H.set_display(s, disp)
    return ts


def _w(s, g: int) -> int:
    return s.comp.hal_weight[g]


def _flat_space(s, terrain: int = T_ASTEROID) -> None:
    n = int(s.m[M_N_STRIPS]) * 5
    for h in range(n):
        assert s.hex_card[h] < 0
        s.hex_terrain[h] = terrain
        s.hex_comet[h] = 0
        s.hex_icons[h] = 0


def _mission(s, colour: int, kind: int, neut_kind: int | None = None, exclude=()) -> int:
    comp = s.comp
    for c in range(20 * colour, 20 * colour + 20):
        if c in exclude or comp.mission_kind[c] != kind:
            continue
        if neut_kind is not None and comp.mission_neut_kind[c] != neut_kind:
            continue
        if s.mc_where[c] in (0, MC_DISCARD):
            return c
    raise AssertionError("no such Mission card")


def _reward_vp(s, card: int) -> int:
    comp = s.comp
    g, k = comp.mission_reward[card], comp.mission_reward_amount[card]
    return k if g == G_VP else k * comp.hal_weight[g]


# =============================================================================================================
# SETUP
# =============================================================================================================

def test_setup_dice_strips_ravagers():
    """SETUP: 'Step 2: Place 4 dice of each color ... Step 3: Place only 5 strips ... Step 8: Remove 12 Ravager
    cards from the Ravager deck' (then 2 on the board and 1 in the player's hand, none for Hal)."""
    s = engine.new_game(num_players=1, seed=5)
    check_invariants(s)
    for c in range(3):
        assert sum(1 for d in range(6 * c, 6 * c + 6) if s.die_owner[d] != DIE_ABSENT) == 4
    assert int(s.m[M_N_STRIPS]) == 5
    assert int(np.count_nonzero(s.rav_where == RV_BOX)) == 12
    assert int(np.count_nonzero((s.rav_where >= RV_BOARD) & (s.rav_where < RV_BOARD + 6))) == 2
    assert int(np.count_nonzero(s.rav_where == RV_HAND + 0)) == 1
    assert int(s.m[M_RAV_DECK_N]) == 30 - 12 - 2 - 1


def test_setup_hal_robots_discs_and_nothing_else():
    """SETUP: 'Place 1 of Hal's robots in each of the 3 workstations, and all his other robots in the break
    room'; no player board, no Starting tiles, no Mission or Ravager card, no resources, Damage/Debris cubes or
    ships, no player aid; 'Finally, roll Hal's dice and shuffle his cards to form a face-down deck'."""
    s = engine.new_game(num_players=1, seed=6)
    assert H.np_list(s.robots_ws[BOT]) == [1, 1, 1]
    assert int(s.robots_break[BOT]) == s.comp.robots_per_player - 3
    for name in ("res", "debris", "ships", "hand_rav"):
        assert int(getattr(s, name)[BOT]) == 0, name
    assert H.np_list(s.hand_mc[BOT]) == [0, 0, 0]
    assert not np.any(s.tile_where[48:60] == 10 + BOT)        # no Starting tile anywhere for Hal
    # One die of each colour rolled for Hal (a robot in each workstation), none reserved.
    dice = _hal_dice(s)
    assert sorted(d // 6 for d in dice) == [0, 1, 2]
    assert not any(s.die_reserved[d] for d in dice)
    assert int(s.m[M_HAL_DECK_N]) == 12 and sorted(H.np_list(s.hal_deck)) == list(range(12))


@pytest.mark.parametrize("difficulty,vp", [("easy", 0), ("standard", 5), ("difficult", 10), ("extreme", 15)])
def test_setup_hal_starting_vp_by_difficulty(difficulty, vp):
    """SETUP: 'Place 1 of Hal's discs on the 5 VP space'; END OF THE GAME: 'increasing Hal's starting VP
    (easy: 0 VP; standard: 5 VP; difficult: 10 VP; extreme: 15 VP)'.  The player starts on 5 VP."""
    s = engine.new_game(num_players=1, seed=1, hal_difficulty=difficulty)
    assert int(s.vp[BOT]) == vp
    assert int(s.vp[0]) == 5


def test_player_always_first_hal_after_each_turn():
    """SETUP: 'You will be the first player; Hal will always play after you.'  Hal's turn is resolved by the
    engine between the player's turns: after the player's turn it is the player's turn again, one round
    later, and Hal has revealed a card (or rolled)."""
    s = engine.new_game(num_players=1, seed=2, log=True)
    assert s.phase == PH_TURN and s.actor == 0 and int(s.m[M_TURN_PLAYER]) == 0
    n_deck = int(s.m[M_HAL_DECK_N])
    H.act(s, "SEQUENCE_B")
    while s.phase != PH_TURN:
        H.act(s, "DONE")
    assert s.actor == 0 and int(s.m[M_ROUND]) == 2
    assert int(s.m[M_HAL_DECK_N]) == n_deck - 1                # Hal had dice: he revealed a card
    assert any(line.startswith("Hal reveals card") for line in s.log)


def test_hal_cards_are_component_data():
    """GAMEPLAY / rules-notes A21, C7, C8: 12 Hal cards, each half a colour and an action of that colour, the
    two halves of different colours, a Discover preference and a rotation; the weighting on the backs."""
    comp = engine.new_game(num_players=1, seed=0).comp
    assert len(comp.hal_top_colour) == 12
    for k in range(12):
        assert comp.hal_top_colour[k] != comp.hal_bottom_colour[k]
        assert comp.action_colour[comp.hal_top_action[k]] == comp.hal_top_colour[k]
        assert comp.action_colour[comp.hal_bottom_action[k]] == comp.hal_bottom_colour[k]
    assert {comp.hal_discover[k] for k in range(12)} == {HAL_DISCOVER_ADVANCED_FIRST, HAL_DISCOVER_TECH_ONLY}
    assert {comp.hal_rotation[k] for k in range(12)} == {HAL_CLOCKWISE, HAL_COUNTERCLOCKWISE}
    w = comp.hal_weight
    assert (w[G_SHIP], w[G_RESOURCE], w[G_ROBOT], w[G_DEBRIS], w[G_RAVAGER], w[G_TECH]) == (1, 1, 1, 1, 2, 2)
    assert comp.hal_weight_advanced == 4


# =============================================================================================================
# GAMEPLAY: which half, fallbacks, die selection
# =============================================================================================================

def _discover_vs_repair(s):
    """A Hal card with Discover (orange, tech-only) on top and Repair (gray) at the bottom, or the reverse
    orientation if the data has none; returns (card, discover_half_is_top)."""
    for k in range(12):
        c = s.comp
        if c.hal_top_action[k] == DISCOVER and c.hal_bottom_colour[k] == GRAY:
            return k, True
        if c.hal_bottom_action[k] == DISCOVER and c.hal_top_colour[k] == GRAY:
            return k, False
    raise AssertionError


@pytest.mark.parametrize("seq", [SEQ_A, SEQ_B])
def test_top_half_after_sequence_a_bottom_half_after_b(seq):
    """GAMEPLAY: 'If, during your turn, you performed Sequence A, look at the top of the card first; if you
    performed Sequence B, look at the bottom of the card first.'"""
    s = _solo()
    card = _card(s, top=DISCOVER)                  # top: orange Discover
    bottom_colour = s.comp.hal_bottom_colour[card]
    o = H.give_die(s, BOT, ORANGE, 2)
    b = H.give_die(s, BOT, bottom_colour, 2)
    _display_cost1(s, 3)
    _hal(s, seq, card)
    used = o if seq == SEQ_A else b
    kept = b if seq == SEQ_A else o
    assert int(s.die_owner[used]) == DIE_SUPPLY and int(s.die_owner[kept]) == BOT
    assert int(s.m[M_HAL_CARD]) == card


def test_fallback_to_the_other_half_colour():
    """GAMEPLAY: 'If the color of die specified is no longer available, look at the second part of the
    card.'  A die the player reserved is not available to Hal."""
    s = _solo()
    card = _card(s, top=DISCOVER)
    other = s.comp.hal_bottom_colour[card]
    H.give_die(s, 0, ORANGE, 3, reserved=True)     # the player's reserved orange: not available
    d = H.give_die(s, BOT, other, 1)
    ts = _display_cost1(s, 3)
    _hal(s, SEQ_A, card)
    assert int(s.die_owner[d]) == DIE_SUPPLY               # the bottom half's colour was used
    assert all(int(s.tile_where[t]) == TL_DISPLAY for t in ts)     # no Discover happened


def test_third_colour_die_returned_for_3_vp():
    """GAMEPLAY: 'If this color is also unavailable, simply return an unreserved die of the third color to
    its supply, and Hal gains 3 VP.'"""
    s = _solo()
    card = _card(s, top=DISCOVER)
    third = 3 - ORANGE - s.comp.hal_bottom_colour[card]
    d = H.give_die(s, BOT, third, 2)
    ts = _display_cost1(s, 3)
    assert _hal(s, SEQ_A, card) == 3
    assert int(s.die_owner[d]) == DIE_SUPPLY
    assert [int(t) for t in s.display if t >= 0] == ts[::-1]


def test_third_colour_fallback_uses_the_die_selection_rule():
    """rules-notes D16: the third colour's 'unreserved die' is chosen by the normal rule (highest value, his
    own on ties); a higher unreserved die of the player's is taken, and the player takes 1 resource (R-H2)."""
    s = _solo()
    card = _card(s, top=DISCOVER)
    third = 3 - ORANGE - s.comp.hal_bottom_colour[card]
    mine = H.give_die(s, BOT, third, 1)
    theirs = H.give_die(s, 0, third, 3)
    assert _hal(s, SEQ_A, card) == 3
    assert int(s.die_owner[theirs]) == DIE_SUPPLY and int(s.die_owner[mine]) == BOT
    assert int(s.res[0]) == 1


def _tech_only_discover(s):
    return _card(s, top=DISCOVER, discover=HAL_DISCOVER_TECH_ONLY)


def test_die_selection_highest_value():
    """DIE SELECTION: 'Among the dice of the indicated color, Hal always takes the die of the greatest
    value.'  (A tech-only Discover with 3 cost-1 tiles takes as many tiles as the die's value.)  R-H1."""
    s = _solo()
    H.give_die(s, BOT, ORANGE, 1)
    high = H.give_die(s, BOT, ORANGE, 3)
    _display_cost1(s, 3)
    gain = _hal(s, SEQ_A, _tech_only_discover(s))
    assert int(s.die_owner[high]) == DIE_SUPPLY
    assert gain == 3 * _w(s, G_TECH)


def test_die_selection_own_die_on_ties():
    """DIE SELECTION: 'If several dice have the same value, he will use his own die.' (R-H1)"""
    s = _solo()
    theirs = H.give_die(s, 0, ORANGE, 2)
    mine = H.give_die(s, BOT, ORANGE, 2)
    _display_cost1(s, 3)
    _hal(s, SEQ_A, _tech_only_discover(s))
    assert int(s.die_owner[mine]) == DIE_SUPPLY and int(s.die_owner[theirs]) == 0
    assert int(s.res[0]) == 0


def test_die_selection_buys_the_players_higher_die():
    """DIE SELECTION: 'If the die with the greatest value is yours, he will buy it: Take 1 resource from the
    supply in compensation.'"""
    s = _solo()
    theirs = H.give_die(s, 0, ORANGE, 3)
    mine = H.give_die(s, BOT, ORANGE, 1)
    _display_cost1(s, 3)
    gain = _hal(s, SEQ_A, _tech_only_discover(s))
    assert int(s.die_owner[theirs]) == DIE_SUPPLY and int(s.die_owner[mine]) == BOT
    assert int(s.res[0]) == 1
    assert gain == 3 * _w(s, G_TECH)


def test_die_selection_never_a_reserved_die():
    """DIE SELECTION: 'As usual, Hal cannot buy a die you have reserved.'"""
    s = _solo()
    theirs = H.give_die(s, 0, ORANGE, 3, reserved=True)
    mine = H.give_die(s, BOT, ORANGE, 1)
    _display_cost1(s, 3)
    gain = _hal(s, SEQ_A, _tech_only_discover(s))
    assert int(s.die_owner[theirs]) == 0 and int(s.die_owner[mine]) == DIE_SUPPLY
    assert int(s.res[0]) == 0
    assert gain == _w(s, G_TECH)


def test_the_players_die_counts_as_available():
    """GAMEPLAY / DIE SELECTION: the colour is 'available' when Hal or the player has an unreserved die of
    it: with no orange die of his own, Hal buys the player's orange die rather than fall back."""
    s = _solo()
    theirs = H.give_die(s, 0, ORANGE, 1)
    card = _tech_only_discover(s)
    other = H.give_die(s, BOT, s.comp.hal_bottom_colour[card], 3)
    _display_cost1(s, 3)
    _hal(s, SEQ_A, card)
    assert int(s.die_owner[theirs]) == DIE_SUPPLY and int(s.die_owner[other]) == BOT
    assert int(s.res[0]) == 1


def test_hal_die_returns_to_the_supply():
    """CLARIFICATIONS: 'As usual, Hal's die returns to the supply when his turn is done.'"""
    s = _solo()
    d = H.give_die(s, BOT, ORANGE, 2)
    _display_cost1(s, 3)
    _hal(s, SEQ_A, _tech_only_discover(s))
    assert int(s.die_owner[d]) == DIE_SUPPLY and not s.die_reserved[d] and int(s.die_value[d]) == 0


def test_hal_deck_reshuffled_when_exhausted():
    """CLARIFICATIONS: 'When Hal's deck is exhausted, shuffle the discards to form a new one.'"""
    s = _solo()
    H.give_die(s, BOT, ORANGE, 2)
    s.hal_deck[:] = -1
    s.m[M_HAL_DECK_N] = 0
    _hal(s, SEQ_A)
    assert int(s.m[M_HAL_DECK_N]) == 11
    assert sorted(H.np_list(s.hal_deck[:11]) + [int(s.m[M_HAL_CARD])]) == list(range(12))


# =============================================================================================================
# Hal has no dice: his Sequence B
# =============================================================================================================

def test_no_dice_hal_rolls_and_the_black_angel_advances():
    """GAMEPLAY: 'Hal has no dice left in his compartment. Roll dice for him, and advance the Black Angel as
    you do when performing Sequence B. Hal never reserves the die.'  No card is revealed."""
    s = _solo()
    n_deck = int(s.m[M_HAL_DECK_N])
    token = int(s.m[M_SPES_TOKEN_POS])
    first_strip = int(s.strip_id[0])
    assert _hal(s, SEQ_A) == 0
    dice = _hal_dice(s)
    assert sorted(d // 6 for d in dice) == [0, 1, 2]           # one per workstation robot
    assert not any(s.die_reserved[d] for d in dice)
    assert int(s.m[M_HAL_DECK_N]) == n_deck
    assert int(s.m[M_SPES_TOKEN_POS]) == token - 1
    assert int(s.strip_id[4]) == first_strip                  # strip 1 ejected, flipped to the far end


def test_no_dice_hal_loses_1_vp_per_damaged_die_rolled():
    """SEQUENCE B, B.1 ('For each damaged die you must roll, you lose 1 VP') applied to Hal (rules-notes D17;
    R-B1: a damaged die only when no undamaged one of its colour is left)."""
    s = _solo()
    for _ in range(3):
        H.give_die(s, 0, GRAY, 1)
    dmg = H.damage_supply_die(s, GRAY)
    assert _hal(s, SEQ_A) == -1
    assert int(s.die_owner[dmg]) == BOT and not s.die_damaged[dmg]


def test_no_dice_after_the_end_is_triggered_the_black_angel_stays():
    """END OF THE GAME (the Black Angel advances no further once the end is triggered): Hal rolls, the
    Space board does not move."""
    s = _solo()
    s.m[M_END_TRIGGERED] = 1
    s.m[M_TRIGGER_ROUND] = int(s.m[M_ROUND])
    token = int(s.m[M_SPES_TOKEN_POS])
    s.log = []
    _hal(s, SEQ_A)
    assert int(s.m[M_SPES_TOKEN_POS]) == token
    assert len(_hal_dice(s)) == 3
    said = [line for line in s.log if "Hal has no dice" in line]         # the log said it advanced (found by audit)
    assert said and "advances no further" in said[0] and "and the Black Angel advances" not in said[0]


def test_no_dice_in_the_final_turn_hal_passes():
    """END OF THE GAME, IMPORTANT: 'During the final turn of the game, if you are required to perform
    Sequence B, you may choose simply to pass your turn instead.'  Hal resolves everything 'in the way that
    best suits his goal of gaining VP', so in his final turn he passes: no roll, no VP lost for a damaged die
    (decision: Hal always passes a final-turn Sequence B)."""
    s = _solo()
    s.m[M_END_TRIGGERED] = 1
    s.m[M_TRIGGER_ROUND] = int(s.m[M_ROUND]) - 1
    for _ in range(3):
        H.give_die(s, 0, GRAY, 1)
    H.damage_supply_die(s, GRAY)
    assert _hal(s, SEQ_A) == 0
    assert _hal_dice(s) == []


# =============================================================================================================
# Ejected Hal cards; the player's activation of Hal's card; buying Hal's die
# =============================================================================================================

def test_hal_card_ejected_by_his_sequence_b_scores_3_vp_robot_to_break_room():
    """GAMEPLAY: 'Each time one of Hal's cards (whether a neutralization or activation mission) is ejected
    (whether it's him or you that performed Sequence B), Hal immediately scores 3 VP. Keep all of his ejected
    cards in their respective discard piles and return his robots to the break room.'  Hal resolves nothing
    else of the card (PL, rules-notes B16); a player's ship there still gets its share (rules-notes D15)."""
    s = _solo()
    neut = _mission(s, ORANGE, MISSION_NEUTRALIZATION, NEUT_FIXED)
    actv = _mission(s, GREEN, MISSION_ACTIVATION)
    H.mission_to_space(s, neut, BOT, 1)
    H.mission_to_space(s, actv, BOT, 3)
    H.place_ship(s, 0, 1)
    robots = int(s.robots_break[BOT])
    holder = s.comp.mission_neut_holder[neut]
    goods0 = (int(s.ships[0]), int(s.res[0]), int(s.debris[0]), int(s.vp[0]))
    assert _hal(s, SEQ_A) == 6
    assert int(s.mc_where[neut]) == MC_DISCARD and int(s.mc_where[actv]) == MC_DISCARD
    assert int(s.robots_break[BOT]) == robots + 2
    goods1 = (int(s.ships[0]), int(s.res[0]), int(s.debris[0]), int(s.vp[0]))
    assert goods1 == (goods0[0] + holder[G_SHIP], goods0[1] + holder[G_RESOURCE], goods0[2] + holder[G_DEBRIS],
                      goods0[3] + holder[G_VP])


def test_hal_card_ejected_by_the_players_sequence_b_scores_3_vp():
    """GAMEPLAY: Hal scores 3 VP for each of his ejected cards '(whether it's him or you that performed
    Sequence B)'.  (Hal's own turn here is a Repair with nothing to repair: 3 VP.)"""
    s = _solo()
    card = _mission(s, GRAY, MISSION_NEUTRALIZATION)
    H.mission_to_space(s, card, BOT, 2)
    hc = _card(s, bottom=REPAIR)
    H.give_die(s, BOT, GRAY, 2)
    H.hal_card_on_top(s, hc)
    robots = int(s.robots_break[BOT])
    before = int(s.vp[BOT])
    H.checked(s)
    H.act(s, "SEQUENCE_B")
    assert s.phase == PH_TURN and s.actor == 0
    assert int(s.vp[BOT]) - before == 3 + 3
    assert int(s.mc_where[card]) == MC_DISCARD and int(s.robots_break[BOT]) == robots + 1


def test_player_activating_hals_card_gives_hal_an_activation():
    """CLARIFICATIONS: 'If you activate a card with an activation mission, and it is Hal's (it is not your
    robot on the card), Hal always takes an activation of this card' (paying nothing, PL rules-notes B17),
    its gain turned into VP by the weighting."""
    s = _solo()
    card = _mission(s, ORANGE, MISSION_ACTIVATION)
    comp = s.comp
    assert not any(comp.mission_cost[card])
    h = 7
    H.mission_to_space(s, card, BOT, h)
    H.place_ship(s, 0, h)
    d = H.give_die(s, 0, ORANGE, 1)
    H.start_a2(s, 0)
    H.checked(s)
    gain = comp.mission_gain[card]
    expected = sum(gain[g] * comp.hal_weight[g] for g in (G_SHIP, G_RESOURCE, G_ROBOT, G_DEBRIS)) + gain[G_VP]
    H.act(s, "SELECT_DIE", d)
    H.act(s, "MISSION_ACTION", card)
    before = int(s.vp[BOT])
    H.act(s, "ACTIVATE")              # value 1: the activation ends the mission; then Hal's activation, A3
    while s.phase != PH_TURN:
        H.act(s, "DONE") if H.is_legal(s, "DONE") else engine.apply(s, engine.legal_actions(s)[0])
    # Hal had no die: his turn was a Sequence B (no VP); his gain is the free activation only.
    assert int(s.vp[BOT]) - before == expected
    assert any("free activation of his Mission card" in line for line in s.log)


def test_buying_hals_die_gives_hal_1_vp():
    """CLARIFICATIONS: 'If you buy one of Hal's dice, you must pay him 1 resource. Hal discards this resource
    and gains 1 VP.'"""
    s = _solo()
    s.res[0] = 1
    d = H.give_die(s, BOT, ORANGE, 2)
    _display_cost1(s, 2)
    H.start_a2(s, 0)
    H.checked(s)
    before = int(s.vp[BOT])
    H.act(s, "SELECT_DIE", d)
    assert int(s.vp[BOT]) == before + 1 and int(s.vp_src[BOT, SRC_TRADE]) == 1
    assert int(s.res[0]) == 0 and int(s.res[BOT]) == 0


# =============================================================================================================
# RESOLVING HAL'S ACTIONS: Ravagers and damage
# =============================================================================================================

def _discover_with_ravager(effect: int):
    s = _solo()
    r = H.ravager_in_play(s, H.ravager_id(s, DISCOVER, effect))
    H.ravager_on_board(s, r)
    H.give_die(s, BOT, ORANGE, 1)
    _display_cost1(s, 1)
    return s


@pytest.mark.parametrize("effect", [RAV_DISCARD_MISSION, RAV_DISCARD_RAVAGER, RAV_ROBOT])
def test_ravager_effects_without_damage_are_ignored_and_cost_nothing(effect):
    """RESOLVING HAL'S ACTIONS: 'If an action is affected by a Ravager card, Hal performs his action normally
    (only effects which add a Damage cube are resolved) and loses nothing.'"""
    s = _discover_with_ravager(effect)
    robots = int(s.robots_break[BOT])
    gain = _hal(s, SEQ_A, _tech_only_discover(s))
    assert gain == _w(s, G_TECH)                        # the action, and no VP lost
    assert int(s.robots_break[BOT]) == robots
    assert not any(s.rav_robots[:, BOT])


def test_ravager_damage_next_action_is_resolved():
    """RESOLVING HAL'S ACTIONS: the effects 'which add a Damage cube are resolved': a card on action 1 damages
    action 2 (appendix, RAVAGER CARDS 061-066)."""
    s = _discover_with_ravager(RAV_DAMAGE_NEXT)
    gain = _hal(s, SEQ_A, _tech_only_discover(s))
    assert int(s.dmg[CMD_ORANGE]) == 1 and gain == _w(s, G_TECH)


def test_ravager_damage_die_is_resolved():
    """RESOLVING HAL'S ACTIONS: a Ravager damaging a die in the supply (067-072) is resolved for Hal."""
    s = _discover_with_ravager(RAV_DAMAGE_DIE)
    colour = s.comp.ravager_die_colour[H.ravager_id(s, DISCOVER, RAV_DAMAGE_DIE)]
    _hal(s, SEQ_A, _tech_only_discover(s))
    assert sum(int(s.die_damaged[d]) for d in range(6 * colour, 6 * colour + 6)) == 1


def test_ravager_damage_never_lands_on_the_die_hal_is_using():
    """Rulebook A2 / Ravager cards 067-072: the cube goes on a die in the supply; the die Hal is using sits on
    the action until his turn is done (CLARIFICATIONS), so when no other undamaged die of that colour is in
    the supply the effect is ignored (rules-notes A11; engine bug fixed: the cube landed on Hal's die)."""
    s = _solo()
    r = H.ravager_in_play(s, H.ravager_id(s, DISCOVER, RAV_DAMAGE_DIE))
    colour = s.comp.ravager_die_colour[r]
    assert colour == ORANGE
    H.ravager_on_board(s, r)
    mine = H.give_die(s, BOT, ORANGE, 1)
    while H.supply_dice(s, ORANGE):
        if len(H.supply_dice(s, ORANGE)) == 1:
            H.damage_supply_die(s, ORANGE)
            break
        H.give_die(s, 0, ORANGE, 1)
    _display_cost1(s, 1)
    _hal(s, SEQ_A, _tech_only_discover(s))
    assert int(s.die_owner[mine]) == DIE_SUPPLY and not s.die_damaged[mine]


def test_damaged_action_reduces_hals_die():
    """RESOLVING HAL'S ACTIONS: 'If an action is damaged, the value of Hal's die is reduced by 1, just as it
    would be for you.'"""
    s = _solo()
    s.dmg[DISCOVER] = 2
    H.give_die(s, BOT, ORANGE, 3)
    _display_cost1(s, 3)
    assert _hal(s, SEQ_A, _tech_only_discover(s)) == 2 * _w(s, G_TECH)


# =============================================================================================================
# ACTION: DISCOVER TECHNOLOGY
# =============================================================================================================

def _adv_first(s):
    return _card(s, top=DISCOVER, discover=HAL_DISCOVER_ADVANCED_FIRST)


def _adv_setup(s):
    slots = [60, 61, 62, 63]
    H.set_adv_slots(s, slots)
    return slots, H.adv_deck_top(s)


def test_discover_advanced_first_value_1_takes_a_cost_1_tile():
    """ACTION: DISCOVER TECHNOLOGY (FR: 'prendre d'abord 1 tuile Technologie avancée'): 'If his die has a
    value of 1, Hal takes a cost-1 Technology tile if there is one in the display', the one nearest the
    ejection end."""
    s = _solo()
    slots, _ = _adv_setup(s)
    a, b = _tiles(s, 2)
    H.set_display(s, [a, -1, -1, -1, -1, b, -1, -1])
    H.give_die(s, BOT, ORANGE, 1)
    assert _hal(s, SEQ_A, _adv_first(s)) == _w(s, G_TECH)
    assert int(s.tile_where[b]) == TL_DISCARD and int(s.tile_where[a]) == TL_DISPLAY
    assert H.np_list(s.adv_slots) == slots


def test_discover_advanced_first_value_1_without_cost_1_tile_is_unable():
    """ACTION: DISCOVER: value 1 and no cost-1 tile in the display: Hal is unable to act and gains 3 VP."""
    s = _solo()
    _adv_setup(s)
    a, b = _tiles(s, 2)
    H.set_display(s, [a, b, -1, -1, -1, -1, -1, -1])
    H.give_die(s, BOT, ORANGE, 1)
    assert _hal(s, SEQ_A, _adv_first(s)) == 3
    assert int(s.tile_where[a]) == TL_DISPLAY and int(s.tile_where[b]) == TL_DISPLAY


def test_discover_advanced_first_value_2_takes_the_advanced_tile_nearest_the_display():
    """ACTION: DISCOVER: 'If his die has a value of 2, Hal takes an Advanced Technology tile ... consider the
    4 spaces as a display; Hal takes the last tile in this display (the one closest to the Technology tile
    display). Then refill the display after having shifted the remaining 3 tiles.'"""
    s = _solo()
    slots, top = _adv_setup(s)
    ts = _display_cost1(s, 2)
    H.give_die(s, BOT, ORANGE, 2)
    assert _hal(s, SEQ_A, _adv_first(s)) == s.comp.hal_weight_advanced
    assert int(s.tile_where[slots[0]]) == TL_DISCARD
    assert H.np_list(s.adv_slots) == slots[1:] + [top]
    assert all(int(s.tile_where[t]) == TL_DISPLAY for t in ts)


def test_discover_advanced_first_value_3_takes_advanced_and_cost_1():
    """ACTION: DISCOVER: 'If his die has a value of 3, Hal takes both an Advanced Technology Tile and a
    cost-1 Technology tile if there is one in the display.'"""
    s = _solo()
    slots, top = _adv_setup(s)
    ts = _display_cost1(s, 2)
    H.give_die(s, BOT, ORANGE, 3)
    assert _hal(s, SEQ_A, _adv_first(s)) == s.comp.hal_weight_advanced + _w(s, G_TECH)
    assert int(s.tile_where[ts[0]]) == TL_DISCARD and int(s.tile_where[ts[1]]) == TL_DISPLAY
    assert H.np_list(s.adv_slots) == slots[1:] + [top]


def test_discover_advanced_first_value_3_without_cost_1_tile():
    """ACTION: DISCOVER: value 3, '... and a cost-1 Technology tile if there is one': with only cost-2 tiles
    Hal takes the Advanced tile alone."""
    s = _solo()
    _adv_setup(s)
    a, = _tiles(s, 1)
    H.set_display(s, [a] + [-1] * 7)
    H.give_die(s, BOT, ORANGE, 3)
    assert _hal(s, SEQ_A, _adv_first(s)) == s.comp.hal_weight_advanced
    assert int(s.tile_where[a]) == TL_DISPLAY


def test_discover_advanced_first_with_no_advanced_tile_takes_technology_tiles():
    """ACTION: DISCOVER, 'Take 1 Advanced Technology tile if the value of his die allows it' + RESOLVING
    HAL'S ACTIONS ('in the way that best suits his goal of gaining VP'), rules-notes D18: with no Advanced
    tile left, his activations take Technology tiles from the ejection end (R-H3)."""
    s = _solo()
    H.set_adv_slots(s, [-1, -1, -1, -1])
    ts = _display_cost1(s, 3)
    H.give_die(s, BOT, ORANGE, 2)
    assert _hal(s, SEQ_A, _adv_first(s)) == 2 * _w(s, G_TECH)
    assert [int(s.tile_where[t]) for t in ts] == [TL_DISCARD, TL_DISCARD, TL_DISPLAY]


def test_discover_advanced_slot_nearest_display_empty_takes_the_nearest_tile():
    """ACTION: DISCOVER: 'Hal takes the last tile in this display (the one closest to the Technology tile
    display)': when the Advanced deck has run out and a player left the nearest slot empty, Hal takes the
    nearest tile there is, and the remaining tiles shift toward the display (R-H3; engine bug fixed: he took
    none when the nearest slot was empty)."""
    s = _solo()
    H.set_adv_slots(s, [-1, 61, 62, 63])
    for t in range(60, 76):                        # empty the Advanced deck
        if s.tile_where[t] == 4:
            H.tile_to_box(s, t)
    assert int(s.m[M_ADV_DECK_N]) == 0
    H.give_die(s, BOT, ORANGE, 2)
    assert _hal(s, SEQ_A, _adv_first(s)) == s.comp.hal_weight_advanced
    assert int(s.tile_where[61]) == TL_DISCARD
    assert H.np_list(s.adv_slots) == [62, 63, -1, -1]


def test_discover_technology_only_from_the_ejection_end():
    """ACTION: DISCOVER (FR: 'prendre uniquement des tuiles Technologie'): 'Hal takes tiles from the display
    starting with those closest to where they get ejected', while his activations allow; never an Advanced
    tile."""
    s = _solo()
    slots, _ = _adv_setup(s)
    a, b, c, d = _tiles(s, 4)
    H.set_display(s, [a, b, -1, c, -1, -1, d, -1])
    H.give_die(s, BOT, ORANGE, 3)
    assert _hal(s, SEQ_A, _tech_only_discover(s)) == 2 * _w(s, G_TECH)     # 1 + 1, and 1 left: no cost-2
    assert [int(s.tile_where[t]) for t in (a, b, c, d)] == [TL_DISPLAY, TL_DISPLAY, TL_DISCARD, TL_DISCARD]
    assert H.np_list(s.adv_slots) == slots


def test_discover_technology_only_cost_2_tile():
    """ACTION: DISCOVER, technology only, value 2 with only cost-2 tiles: the one nearest the ejection end."""
    s = _solo()
    a, b = _tiles(s, 2)
    H.set_display(s, [a, b] + [-1] * 6)
    H.give_die(s, BOT, ORANGE, 2)
    assert _hal(s, SEQ_A, _tech_only_discover(s)) == _w(s, G_TECH)
    assert int(s.tile_where[b]) == TL_DISCARD and int(s.tile_where[a]) == TL_DISPLAY


@pytest.mark.parametrize("case", ["star", "damaged_to_zero", "no_tiles"])
def test_discover_unable_gives_3_vp(case):
    """ACTION: DISCOVER: 'If his die has a value of 0 (star) or Hal is unable to perform the action (no
    Technology tiles, or a damaged action reduces his die to a value of 0), Hal just gains 3 VP.'"""
    s = _solo()
    _adv_setup(s)
    ts = _display_cost1(s, 2)
    value = 1
    if case == "star":
        value = 0
    elif case == "damaged_to_zero":
        s.dmg[DISCOVER] = 2
    else:
        H.set_display(s, [-1] * 8)
        H.set_adv_slots(s, [-1] * 4)
        ts = []
    H.give_die(s, BOT, ORANGE, value)
    assert _hal(s, SEQ_A, _adv_first(s)) == 3
    assert all(int(s.tile_where[t]) == TL_DISPLAY for t in ts)


# =============================================================================================================
# ACTION: REPAIR THE BLACK ANGEL
# =============================================================================================================

def _repair_card(s, rotation):
    return _card(s, top=REPAIR, rotation=rotation)


@pytest.mark.parametrize("rotation,after", [
    (HAL_CLOCKWISE, [0, 0, 0, 0, 1, 1]),
    (HAL_COUNTERCLOCKWISE, [1, 1, 0, 0, 0, 0]),
])
def test_repair_in_the_cards_rotation(rotation, after):
    """ACTION: REPAIR: 'For each activation, Hal removes 1 Damage cube. Hal's card indicates the order in
    which he does this: clockwise (from location 1 to location 6), counterclockwise (from location 6 to
    location 1)'; each cube becomes a debris, worth its weighting (rules-notes D19: a location's cubes are
    removed before moving on; R-H4)."""
    s = _solo()
    s.dmg[:] = [1, 1, 0, 1, 1, 1]
    H.give_die(s, BOT, GRAY, 3)
    assert _hal(s, SEQ_A, _repair_card(s, rotation)) == 3 * _w(s, G_DEBRIS)
    assert H.np_list(s.dmg) == after


def test_repair_removes_a_locations_cubes_before_moving_on():
    """ACTION: REPAIR, clockwise, rules-notes D19: both cubes of a damaged action go before the next
    location's."""
    s = _solo()
    s.dmg[:] = [2, 1, 0, 0, 0, 0]
    H.give_die(s, BOT, GRAY, 2)
    _hal(s, SEQ_A, _repair_card(s, HAL_CLOCKWISE))
    assert H.np_list(s.dmg) == [0, 1, 0, 0, 0, 0]


def test_repair_dice_last():
    """ACTION: REPAIR: 'Hal will remove Damage cubes from damaged dice only if there are no Damage cubes
    anywhere else.'"""
    s = _solo()
    s.dmg[:] = [0, 0, 0, 0, 0, 1]
    o = H.damage_supply_die(s, ORANGE)
    g = H.damage_supply_die(s, GREEN)
    H.give_die(s, BOT, GRAY, 1)
    _hal(s, SEQ_A, _repair_card(s, HAL_CLOCKWISE))
    assert int(s.dmg[5]) == 0 and s.die_damaged[o] and s.die_damaged[g]
    H.give_die(s, BOT, GRAY, 3)
    gain = _hal(s, SEQ_A, _repair_card(s, HAL_CLOCKWISE))
    assert not s.die_damaged[o] and not s.die_damaged[g]
    assert gain == 2 * _w(s, G_DEBRIS)


@pytest.mark.parametrize("case", ["star", "damaged_to_zero", "no_cubes"])
def test_repair_unable_gives_3_vp(case):
    """ACTION: REPAIR: 'If his die has a value of 0 (star) or Hal is unable to perform the action (no Damage
    cubes, or a damaged action reduces his die to a value of 0), Hal just gains 3 VP.'"""
    s = _solo()
    value = 1
    if case == "star":
        value = 0
        s.dmg[0] = 1
    elif case == "damaged_to_zero":
        s.dmg[REPAIR] = 2
    before = H.np_list(s.dmg)
    H.give_die(s, BOT, GRAY, value)
    assert _hal(s, SEQ_A, _repair_card(s, HAL_CLOCKWISE)) == 3
    assert H.np_list(s.dmg) == before


# =============================================================================================================
# ACTION: DESTROY RAVAGERS
# =============================================================================================================

def _ravagers(s, counts: dict) -> dict:
    """counts {action: k}: k Ravager cards (damage-free effects) at that location; returns {action: ids}."""
    out = {a: [H.ravager_id(s, a, eff) for eff in (RAV_DISCARD_MISSION, RAV_DISCARD_RAVAGER, RAV_ROBOT)[:k]]
           for a, k in counts.items()}
    used = [r for ids in out.values() for r in ids]
    for a, ids in out.items():
        for r in ids:
            H.ravager_in_play(s, r, keep=used)
            H.ravager_on_board(s, r)
    return out


def _destroy_card(s, rotation):
    return _card(s, top=DESTROY, rotation=rotation)


def test_destroy_skips_a_location_to_destroy_more():
    """ACTION: DESTROY RAVAGERS: 'Hal always tries to destroy as many Ravager cards as his die allows (i.e. he
    will skip a location if it would reduce the total number of Ravager cards he could destroy).'  Each card
    is worth its weighting; the cards go to the discard."""
    s = _solo()
    rav = _ravagers(s, {0: 1, 1: 3})
    H.give_die(s, BOT, GREEN, 3)
    assert _hal(s, SEQ_A, _destroy_card(s, HAL_CLOCKWISE)) == 3 * _w(s, G_RAVAGER)
    assert int(s.rav_count[0]) == 1 and int(s.rav_count[1]) == 0
    assert all(int(s.rav_where[r]) == RV_DISCARD for r in rav[1])


@pytest.mark.parametrize("rotation,cleared", [(HAL_CLOCKWISE, 0), (HAL_COUNTERCLOCKWISE, 3)])
def test_destroy_ties_follow_the_rotation(rotation, cleared):
    """ACTION: DESTROY: 'Hal's card indicates the order in which he does this: clockwise (from location 1 to
    location 6) / counterclockwise (from location 6 to location 1)' (rules-notes D19: among equally good
    choices, the first locations in the rotation; R-H5)."""
    s = _solo()
    _ravagers(s, {0: 2, 3: 2})
    H.give_die(s, BOT, GREEN, 2)
    _hal(s, SEQ_A, _destroy_card(s, rotation))
    assert int(s.rav_count[cleared]) == 0 and int(s.rav_count[3 - cleared]) == 2


def test_destroy_several_whole_locations():
    """ACTION: DESTROY: 'For each activation, Hal destroys 1 Ravager card', whole locations at a time (as for
    a player), several locations with one die."""
    s = _solo()
    _ravagers(s, {0: 1, 1: 1, 3: 1, 5: 1})
    H.give_die(s, BOT, GREEN, 3)
    assert _hal(s, SEQ_A, _destroy_card(s, HAL_COUNTERCLOCKWISE)) == 3 * _w(s, G_RAVAGER)
    assert H.np_list(s.rav_count) == [1, 0, 0, 0, 0, 0]


def test_destroyed_ravagers_free_the_robots_on_them():
    """ACTION: DESTROY (as for a player): robots on a destroyed Ravager card return to their break room."""
    s = _solo()
    r = H.ravager_in_play(s, H.ravager_id(s, 0, RAV_ROBOT))
    H.ravager_on_board(s, r)
    s.robots_break[0] -= 1
    s.rav_robots[r, 0] = 1
    robots = int(s.robots_break[0])
    H.give_die(s, BOT, GREEN, 1)
    _hal(s, SEQ_A, _destroy_card(s, HAL_CLOCKWISE))
    assert int(s.rav_where[r]) == RV_DISCARD and int(s.robots_break[0]) == robots + 1


@pytest.mark.parametrize("case", ["star", "damaged_to_zero", "no_ravagers", "every_location_too_full"])
def test_destroy_unable_gives_3_vp(case):
    """ACTION: DESTROY: 'If his die has a value of 0 (star) or Hal is unable to perform the action (no Ravager
    cards, or a damaged action reduces his die to a value of 0), Hal just gains 3 VP'; FR adds 'cartes
    Ravageur présentes sur un même emplacement' (every location holds more cards than his value,
    rules-notes B15)."""
    s = _solo()
    value = 1
    if case == "star":
        value = 0
        _ravagers(s, {0: 1})
    elif case == "damaged_to_zero":
        s.dmg[DESTROY] = 2
        _ravagers(s, {0: 1})
    elif case == "every_location_too_full":
        value = 2
        _ravagers(s, {0: 3, 2: 3})
    before = H.np_list(s.rav_count)
    H.give_die(s, BOT, GREEN, value)
    assert _hal(s, SEQ_A, _destroy_card(s, HAL_CLOCKWISE)) == 3
    assert H.np_list(s.rav_count) == before


# =============================================================================================================
# ACTION: COMMAND YOUR SHIPS
# =============================================================================================================

def _command_position(colour, kind, value=2, seed=0, advanced=False):
    """Every hex an asteroid field; Hal holds a die of ``colour``; the next card of that colour is a ``kind``
    card; returns (state, Hal card, Mission card)."""
    s = _solo(seed=seed, advanced=advanced)
    _flat_space(s)
    H.give_die(s, BOT, colour, value)
    card = _mission(s, colour, kind)
    H.mission_on_deck_top(s, card)
    return s, _card(s, top=CMD[colour]), card


@pytest.mark.parametrize("colour", [ORANGE, GRAY, GREEN])
def test_command_neutralization_card_on_the_first_strip(colour):
    """ACTION: COMMAND YOUR SHIPS: 'First, draw a card that is the same color as the die Hal selected. If it
    is a neutralization Mission card, place it on a hex of the same color on the first strip.'  Hal's robot
    goes on the reward, which he gains (turned into VP)."""
    s, hc, card = _command_position(colour, MISSION_NEUTRALIZATION)
    H.set_hex(s, 4, colour)            # strip 1
    H.set_hex(s, 6, colour)            # strip 2
    H.set_hex(s, 22, colour)           # strip 5
    robots = int(s.robots_break[BOT])
    gain = _hal(s, SEQ_A, hc)
    assert int(s.hex_card[4]) == card and int(s.mc_owner[card]) == BOT and int(s.mc_where[card]) == MC_SPACE
    assert int(s.robots_break[BOT]) == robots - 1
    assert gain == _reward_vp(s, card)


def test_command_neutralization_card_next_strip_when_the_first_is_full():
    """ACTION: COMMAND: 'If there are no more hexes available, place it on a hex of the same color on the
    second strip, etc.'"""
    s, hc, card = _command_position(ORANGE, MISSION_NEUTRALIZATION)
    other = _mission(s, ORANGE, MISSION_ACTIVATION)
    H.mission_to_space(s, other, 0, 4)             # strip 1's orange hex already holds a card
    H.set_hex(s, 8, ORANGE)                        # strip 2
    H.set_hex(s, 11, ORANGE)                       # strip 3
    _hal(s, SEQ_A, hc)
    assert int(s.hex_card[8]) == card


def test_command_activation_card_on_the_fifth_strip_then_the_fourth():
    """ACTION: COMMAND: 'If it is an activation Mission card, place it on a hex of the same color on the fifth
    strip. If there are no more hexes available, place it on a hex of the same color on the fourth strip,
    etc.'"""
    s, hc, card = _command_position(GRAY, MISSION_ACTIVATION)
    H.set_hex(s, 0, GRAY)
    H.set_hex(s, 16, GRAY)                         # strip 4
    H.set_hex(s, 12, GRAY)                         # strip 3
    _hal(s, SEQ_A, hc)
    assert int(s.hex_card[16]) == card
    s, hc, card = _command_position(GRAY, MISSION_ACTIVATION)
    H.set_hex(s, 16, GRAY)
    H.set_hex(s, 24, GRAY)                         # strip 5
    _hal(s, SEQ_A, hc)
    assert int(s.hex_card[24]) == card


@pytest.mark.parametrize("kind,hexes", [(MISSION_NEUTRALIZATION, (0, 3)), (MISSION_ACTIVATION, (24, 21))])
@pytest.mark.parametrize("comet_first", [True, False])
def test_command_comet_hex_preferred_and_3_vp(kind, hexes, comet_first):
    """ACTION: COMMAND: 'If the strip has two appropriate hexes available, place the card on the hex with the
    comet' and 'if Hal's card ends up on a hex with a comet, Hal immediately scores a bonus of 3 VP.'"""
    s, hc, card = _command_position(GREEN, kind)
    a, b = hexes
    comet = a if comet_first else b
    H.set_hex(s, a, GREEN)
    H.set_hex(s, b, GREEN)
    s.hex_comet[comet] = 1
    gain = _hal(s, SEQ_A, hc)
    assert int(s.hex_card[comet]) == card
    assert gain == _reward_vp(s, card) + 3


def test_command_comet_bonus_without_a_choice():
    """ACTION: COMMAND: 'In any case, if Hal's card ends up on a hex with a comet, Hal immediately scores a
    bonus of 3 VP' (also when that hex was the only one)."""
    s, hc, card = _command_position(ORANGE, MISSION_NEUTRALIZATION)
    H.set_hex(s, 7, ORANGE)
    s.hex_comet[7] = 1
    assert _hal(s, SEQ_A, hc) == _reward_vp(s, card) + 3


def test_command_die_value_irrelevant():
    """ACTION: COMMAND: 'For this action, the value of Hal's die is irrelevant' (a star, or a damaged action,
    still places the card)."""
    s, hc, card = _command_position(ORANGE, MISSION_NEUTRALIZATION, value=0)
    s.dmg[CMD_ORANGE] = 2
    H.set_hex(s, 2, ORANGE)
    _hal(s, SEQ_A, hc)
    assert int(s.hex_card[2]) == card


@pytest.mark.parametrize("advanced", [False, True])
def test_command_ravagers_and_tiles_appear_as_for_a_player(advanced):
    """ACTION: COMMAND: 'Then resolve the action as for a normal player (place a robot on the reward and gain
    it, Ravagers appear, new Technology tiles appear), except that placing a ship and a pilot is not
    necessary for Hal.'  (Advanced rules: the new tiles boost side up.)"""
    s, hc, card = _command_position(ORANGE, MISSION_NEUTRALIZATION, advanced=advanced)
    H.set_hex(s, 1, ORANGE)
    nb = [g for g in neighbours(5)[1]]
    s.hex_icons[nb[0]] = 1
    r = H.ravager_in_play(s, H.ravager_id(s, CMD_GRAY, RAV_DISCARD_MISSION))
    r2 = H.ravager_in_play(s, H.ravager_id(s, CMD_GREEN, RAV_DISCARD_MISSION), keep=[r])
    H.set_ravager_deck(s, [r, r2])
    ships = int(s.ships[BOT])
    gain = _hal(s, SEQ_A, hc)
    assert int(s.hex_card[1]) == card
    assert int(s.rav_where[r]) == RV_BOARD + CMD_GRAY and int(s.dmg[CMD_GRAY]) == 1
    colours = s.comp.mission_tiles[card]
    shown = [int(t) for t in s.display if t >= 0]
    assert len(shown) == len(colours) and int(s.display[0]) // 16 == colours[-1]
    assert all(int(s.tile_boost[t]) == int(advanced) for t in shown)
    assert int(s.ships[BOT]) == ships == 0 and s.ships_out(BOT) == 0   # no ship, no pilot for Hal
    assert gain == _reward_vp(s, card)


@pytest.mark.parametrize("reward", [G_SHIP, G_RESOURCE, G_ROBOT, G_VP])
def test_command_reward_converted_by_the_weighting(reward):
    """SETUP: 'Hal has no storage; each time he gains an item during the game ... it immediately transforms
    into VP according to the weighting summary on the back of Hal's cards' (a VP reward at face value)."""
    s = _solo()
    _flat_space(s)
    H.give_die(s, BOT, ORANGE, 1)
    card = next(c for c in range(20) if s.comp.mission_kind[c] == MISSION_NEUTRALIZATION
                and s.comp.mission_reward[c] == reward)
    H.mission_on_deck_top(s, card)
    H.set_hex(s, 2, ORANGE)
    goods = [int(s.ships[BOT]), int(s.res[BOT]), int(s.robots_supply[BOT])]
    gain = _hal(s, SEQ_A, _card(s, top=CMD_ORANGE))
    k = s.comp.mission_reward_amount[card]
    assert gain == (k if reward == G_VP else k * s.comp.hal_weight[reward])
    assert [int(s.ships[BOT]), int(s.res[BOT]), int(s.robots_supply[BOT])] == goods


def test_command_no_free_hex_is_unable():
    """ACTION: COMMAND, 'unable' (RESOLVING HAL'S ACTIONS and the other actions' '... Hal is unable to perform
    the action ... Hal just gains 3 VP'): with no free hex of the card's colour anywhere, the drawn card is
    discarded and Hal gains 3 VP (R-H6)."""
    s, hc, card = _command_position(GREEN, MISSION_NEUTRALIZATION)
    assert _hal(s, SEQ_A, hc) == 3
    assert int(s.mc_where[card]) == MC_DISCARD


def test_command_no_mission_card_to_draw_is_unable():
    """ACTION: COMMAND, 'First, draw a card that is the same color as the die Hal selected': with no card of
    that colour in its deck or discard, Hal is unable and gains 3 VP (R-H6)."""
    s = _solo()
    _flat_space(s)
    H.set_hex(s, 2, GREEN)
    for c in range(40, 60):
        if s.mc_where[c] in (0, MC_DISCARD):
            H.mission_to_tucked(s, 0, c)
    H.give_die(s, BOT, GREEN, 2)
    assert _hal(s, SEQ_A, _card(s, top=CMD_GREEN)) == 3
    assert int(s.hex_card[2]) == -1


# =============================================================================================================
# Gains, the weighting, the end of the game
# =============================================================================================================

def test_gains_converted_by_the_weighting():
    """SETUP: '(ship / resource / robot / Technology tile / Advanced Technology tile / debris / Ravager card),
    it immediately transforms into VP according to the weighting' (rules-notes C8); Hal keeps nothing."""
    s = _solo()
    w = s.comp.hal_weight
    vec = [0] * 8
    vec[G_SHIP], vec[G_RESOURCE], vec[G_ROBOT], vec[G_DEBRIS], vec[G_VP] = 1, 2, 3, 4, 5
    before = int(s.vp[BOT])
    hal.hal_gain(s, vec, "test", tech=1, advanced=1, ravagers=2)
    expected = (w[G_SHIP] + 2 * w[G_RESOURCE] + 3 * w[G_ROBOT] + 4 * w[G_DEBRIS] + 5 + w[G_TECH]
                + s.comp.hal_weight_advanced + 2 * w[G_RAVAGER])
    assert int(s.vp[BOT]) - before == expected
    assert int(s.vp_src[BOT, SRC_HAL]) == expected
    assert (int(s.ships[BOT]), int(s.res[BOT]), int(s.debris[BOT])) == (0, 0, 0)
    check_invariants(s)


def test_technology_tiles_and_ravager_cards_in_a_gain_vector_are_converted():
    """SOLITAIRE, SETUP: every item Hal gains '(ship / resource / robot / Technology tile / Advanced Technology
    tile / debris / Ravager card) immediately transforms into VP according to the weighting' -- Technology
    tiles and Ravager cards in a gain vector included (they were ignored); Mission cards weigh 0 (Hal keeps
    none)."""
    s = _solo()
    w = s.comp.hal_weight
    vec = [0] * 8
    vec[G_TECH], vec[G_RAVAGER], vec[G_MISSION] = 2, 1, 1
    before = int(s.vp[BOT])
    hal.hal_gain(s, vec, "test")
    assert int(s.vp[BOT]) - before == 2 * w[G_TECH] + w[G_RAVAGER] + w[G_MISSION]
    assert w[G_MISSION] == 0 and 2 * w[G_TECH] + w[G_RAVAGER] == 6
    check_invariants(s)


def test_no_end_game_scoring_for_hal():
    """END OF THE GAME: 'Unlike you, Hal cannot score additional VP at the end of the game' (not even with
    robots in the break room once Spes is reached)."""
    s = _solo()
    s.m[M_SPES_REACHED] = 1
    s.res[0] = 4
    before = int(s.vp[BOT])
    scoring.finish_game(s)
    assert s.terminal and int(s.vp[BOT]) == before
    assert int(s.robots_break[BOT]) > 0


@pytest.mark.parametrize("delta,winners", [(0, []), (1, [0]), (-1, [])])
def test_r_e2_player_wins_only_with_strictly_more_vp(delta, winners):
    """R-E2 / END OF THE GAME: 'If you have more VP than he does, congratulations!'"""
    s = _solo()
    s.vp[BOT] = 20
    s.vp_src[BOT, :] = 0
    s.vp_src[BOT, 0] = 20
    s.vp[0] = 20 + delta
    s.vp_src[0, :] = 0
    s.vp_src[0, 0] = 20 + delta
    scoring.finish_game(s)
    assert engine.winners(s) == winners


def test_final_round_hal_plays_after_the_player_then_the_game_ends():
    """END OF THE GAME (the round is finished, then a final round) with 'Hal will always play after you': the
    player's final turn is followed by Hal's, then final scoring."""
    s = _solo()
    s.m[M_END_TRIGGERED] = 1
    s.m[M_TRIGGER_ROUND] = int(s.m[M_ROUND]) - 1
    H.give_die(s, BOT, GRAY, 2)
    H.hal_card_on_top(s, _card(s, bottom=REPAIR))
    before = int(s.vp[BOT])
    H.checked(s)
    assert H.is_legal(s, "PASS")
    H.act(s, "PASS")
    assert s.terminal and int(s.m[M_GAME_OVER]) == 1
    assert int(s.vp[BOT]) == before + 3                        # nothing to repair: 'unable', 3 VP


# =============================================================================================================
# Random solo games
# =============================================================================================================

def _hal_robots(s) -> int:
    cards = int(np.count_nonzero((s.mc_where == MC_SPACE) & (s.mc_owner == BOT)))
    return int(s.robots_break[BOT]) + int(s.robots_ws[BOT].sum()) + cards


@pytest.mark.slow
@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("chunk", range(4))
def test_random_solo_games_keep_invariants(advanced, chunk):
    """200 seeded solo games (100 base, 100 advanced) with a random player finish, with the engine's
    invariants checked after every action; Hal never holds goods or cards, his 16 robots are all accounted
    for, his VP never fall below his starting VP minus his damaged-die rolls, and nobody scores below 0."""
    rng = np.random.default_rng(1000 + chunk + 10 * advanced)
    for g in range(25):
        s = engine.new_game(num_players=1, seed=10_000 + 100 * chunk + g, advanced=advanced)
        check_invariants(s)
        steps = 0
        while not s.terminal:
            legal = engine.legal_actions(s)
            assert legal
            engine.apply(s, legal[int(rng.integers(len(legal)))])
            check_invariants(s)
            assert _hal_robots(s) == s.comp.robots_per_player
            assert int(s.res[BOT]) == int(s.ships[BOT]) == int(s.debris[BOT]) == int(s.hand_rav[BOT]) == 0
            assert int(s.hand_mc[BOT].sum()) == 0
            steps += 1
            assert steps < 5000
        assert int(s.vp[0]) >= 0 and int(s.vp[BOT]) >= 0
        assert engine.winners(s) == ([0] if s.vp[0] > s.vp[BOT] else [])
