"""Rulebook, SEQUENCE B: B.1 reroll (VP loss, one die per workstation robot, damaged dice, reservation),
B.2 reset, B.3 advance (ejection of strip 1, neutralization effects, strip flip, Spes token and tile), with
rules decisions R-B1, R-B3, R-B4 and rules-notes D5, D7, D12.

EN = shared/rules/rulebook-en.txt. Hexes: strip position * 5 + column (strip 1 = hexes 0-4); the 4-player
board has 7 strips and the Black Angel on hex 17.
"""

from __future__ import annotations

import pytest

from blackangel_env import engine
from blackangel_env.constants import GRAY, GREEN, ORANGE, T_ASTEROID, T_SPES
from blackangel_env.state import (
    DIE_SUPPLY, M_END_TRIGGERED, M_SPES_POS, M_SPES_REACHED, M_SPES_TOKEN_POS, MC_DISCARD, MC_SPACE, MC_TUCKED,
    PH_B_RESERVE, PH_TURN, RAVAGER_SLOT, RV_DISCARD, RV_HAND, RV_SLOT,
)

from helpers import (
    act, blocks_legal, checked, clear_dice, clear_ravagers, game, give_die, is_legal, mission_to_hand,
    mission_to_space, mission_to_tucked, ship_to, ships_at, start_turn,
)

BA = 17


def _position(n=4, seed=0, vp=20):
    s = game(n, seed=seed)
    clear_ravagers(s)
    clear_dice(s)
    for p in range(n):
        s.vp[p] = vp
        s.vp_src[p, :] = 0
        s.vp_src[p, 0] = vp
    start_turn(s, 0)
    return s


def _b(s, reserve=None):
    """Sequence B for the turn player; reserve die ``reserve`` if asked, else decline."""
    act(s, "SEQUENCE_B")
    if s.phase == PH_B_RESERVE:
        if reserve is None:
            act(s, "DONE")
        else:
            act(s, "RESERVE_DIE", reserve)


def _owned(s, p, colour=None):
    return [d for d in range(18) if s.die_owner[d] == p and (colour is None or d // 6 == colour)]


# --- B.1 --------------------------------------------------------------------------------------------------

def test_lose_the_total_of_the_dice_left_reserved_included():
    """EN B.1: lose VP equal to the total value of the dice in the compartment; rules-notes D12: reserved dice
    count too (3 reserved + 2 + star = -5 VP)."""
    s = _position()
    give_die(s, 0, ORANGE, 3, reserved=True)
    give_die(s, 0, GRAY, 2)
    give_die(s, 0, GREEN, 0)
    s.res[0] = 0                               # no reservation decision
    checked(s)
    _b(s)
    assert int(s.vp[0]) == 15
    checked(s)


def test_one_die_per_workstation_robot_limited_by_availability():
    """EN B.1: one die per robot in the workstation of its colour, taken from the supply; fewer dice if the
    supply runs short. Robots 1 orange, 3 gray, 0 green; other players hold 4 of the 6 gray dice."""
    s = _position()
    s.robots_ws[0] = [1, 3, 0]
    s.robots_supply[0] -= 1
    for q in (1, 2, 3):
        give_die(s, q, GRAY, 1)
    give_die(s, 1, GRAY, 2)
    s.res[0] = 0
    checked(s)
    _b(s)
    assert len(_owned(s, 0, ORANGE)) == 1 and len(_owned(s, 0, GRAY)) == 2 and len(_owned(s, 0, GREEN)) == 0
    checked(s)


def test_more_robots_in_a_workstation_than_dice_of_its_colour():
    """EN B.1: "It is possible that the number of available dice of a color is less than the number of robots you
    have in the workstation of this color; in this case, you simply roll fewer dice than the number of robots."
    Eight gray robots (all of a player's robots can end up in one workstation), other players hold 2 gray dice."""
    s = _position()
    extra = 8 - int(s.robots_ws[0].sum())             # the robots moved into the workstations, supply first
    from_supply = min(extra, int(s.robots_supply[0]))
    s.robots_supply[0] -= from_supply
    s.robots_break[0] -= extra - from_supply
    s.robots_ws[0] = [0, 8, 0]
    checked(s)
    give_die(s, 1, GRAY, 1)
    give_die(s, 2, GRAY, 2)
    s.res[0] = 0
    _b(s)
    assert len(_owned(s, 0, GRAY)) == 4 and len(_owned(s, 0, ORANGE)) == 0 and len(_owned(s, 0, GREEN)) == 0
    checked(s)


def test_valentin_example_damaged_die_and_reservation():
    """EN B.1 example (Valentin): a gray star costs nothing; robots give 1 orange, 2 gray, 1 green die; the
    only orange die available is damaged: -1 VP and its cube returns to the supply (R-B1); he reserves one
    die for 1 resource (R-B3)."""
    s = _position()
    s.robots_ws[0] = [1, 2, 1]
    s.robots_supply[0] -= 1
    give_die(s, 0, GRAY, 0)
    for q in (1, 2, 3):
        for c in (ORANGE,):
            give_die(s, q, c, 1)
    give_die(s, 1, ORANGE, 2)
    give_die(s, 2, ORANGE, 3)
    last_orange = [d for d in range(6) if s.die_owner[d] == DIE_SUPPLY]
    assert len(last_orange) == 1
    s.die_damaged[last_orange[0]] = 1
    s.res[0] = 2
    checked(s)
    act(s, "SEQUENCE_B")
    assert int(s.vp[0]) == 19
    assert int(s.die_damaged[last_orange[0]]) == 0 and int(s.die_owner[last_orange[0]]) == 0
    assert [len(_owned(s, 0, c)) for c in range(3)] == [1, 2, 1]
    assert s.phase == PH_B_RESERVE
    assert blocks_legal(s, "RESERVE_DIE") == _owned(s, 0)
    gray = _owned(s, 0, GRAY)[0]
    act(s, "RESERVE_DIE", gray)
    assert int(s.die_reserved[gray]) == 1 and int(s.res[0]) == 1
    assert s.phase == PH_TURN and int(s.m[6]) == 1          # only one reservation: B went on and ended
    checked(s)


def test_undamaged_dice_are_taken_before_damaged_ones():
    """R-B1: a damaged die is rolled only when no undamaged die of its colour is left (no VP lost here)."""
    s = _position()
    s.robots_ws[0] = [1, 1, 1]
    s.die_damaged[0] = 1
    s.res[0] = 0
    checked(s)
    _b(s)
    assert int(s.vp[0]) == 20 and int(s.die_damaged[0]) == 1 and int(s.die_owner[0]) == DIE_SUPPLY


def test_reservation_needs_a_resource_and_is_optional():
    """EN B.1: a reservation costs 1 resource (none: no reservation offered); it may be declined."""
    s = _position()
    s.res[0] = 0
    _b(s)
    assert s.phase == PH_TURN and not any(s.die_reserved)
    s = _position()
    s.res[0] = 1
    act(s, "SEQUENCE_B")
    assert s.phase == PH_B_RESERVE and is_legal(s, "DONE")
    act(s, "DONE")
    assert int(s.res[0]) == 1 and not any(s.die_reserved)


# --- B.2 ---------------------------------------------------------------------------------------------------

def test_reset_discards_played_cards_and_returns_tile_debris():
    """EN B.2: the cards around the board (Mission and Ravager) are discarded; debris on tiles goes back to
    storage. Tucked (ejected) cards stay."""
    s = _position()
    s.res[0] = 0
    mission_to_hand(s, 0, 5)
    s.mc_where[5] = 20
    s.hand_mc[0, 0] -= 1
    s.slots[0, 1] = 5
    r = int(next(r for r in range(30) if s.rav_where[r] == RV_HAND + 0))
    s.rav_where[r] = RV_SLOT + 0
    s.hand_rav[0] -= 1
    s.slots[0, 4] = RAVAGER_SLOT + r
    mission_to_tucked(s, 0, 25)
    t = int(s.grid[0, 0])
    s.tile_debris[t] = 1
    deb = int(s.debris[0])
    checked(s)
    _b(s)
    assert [int(x) for x in s.slots[0]] == [-1] * 6
    assert int(s.mc_where[5]) == MC_DISCARD and int(s.rav_where[r]) == RV_DISCARD
    assert int(s.mc_where[25]) == MC_TUCKED + 0
    assert int(s.tile_debris[t]) == 0 and int(s.debris[0]) == deb + 1
    checked(s)


# --- B.3 ---------------------------------------------------------------------------------------------------

def test_advance_ejects_strip_one_and_tucks_cards():
    """EN B.3 and example: cards of strip 1 are ejected and tucked under their owners' boards; robots and
    ships on them return to the supply; activation cards have no effect; the strip is flipped and placed
    last, everything shifts one strip toward the board."""
    s = _position()
    s.res[0] = 0
    mission_to_space(s, 1, 1, 0)                 # orange activation card of player 1 on strip 1
    mission_to_space(s, 21, 2, 3)                # gray activation card of player 2 on strip 1
    ship_to(s, 3, 3)
    mission_to_space(s, 41, 0, 12)               # a card on strip 3 stays
    ship_to(s, 1, 12)
    sid, face = int(s.strip_id[0]), int(s.strip_face[0])
    sup = [int(x) for x in s.robots_supply[:4]]
    ships = [int(x) for x in s.ships[:4]]
    vp = [int(x) for x in s.vp[:4]]
    checked(s)
    _b(s)
    assert int(s.mc_where[1]) == MC_TUCKED + 1 and int(s.mc_where[21]) == MC_TUCKED + 2
    assert [int(x) for x in s.robots_supply[:4]] == [sup[0], sup[1] + 1, sup[2] + 1, sup[3] + 1]
    assert [int(x) for x in s.ships[:4]] == ships            # ships go to the general supply
    assert [int(x) for x in s.vp[:4]] == vp
    assert int(s.strip_id[6]) == sid and int(s.strip_face[6]) == 1 - face
    assert int(s.mc_where[41]) == MC_SPACE and int(s.mc_hex[41]) == 7 and int(s.hex_card[7]) == 41
    assert ships_at(s, 7) == [1]
    checked(s)


def test_multi_effect_neutralization_example():
    """Appendix, MULTI-EFFECT CARD example (rules-notes B29/D7): Madeline, the owner, takes 3 ships (left
    part); Madeline and Modile, each with a ship on the card, gain 3 VP (right part). Card: orange
    neutralization 4 (owner 3 ships, each ship-holder 3 VP)."""
    s = _position()
    s.res[0] = 0
    madeline, modile = 1, 2
    mission_to_space(s, 15, madeline, 2)
    ship_to(s, madeline, 2)
    ship_to(s, modile, 2)
    ships = [int(x) for x in s.ships[:4]]
    checked(s)
    _b(s)
    assert int(s.ships[madeline]) == ships[madeline] + 3 and int(s.vp[madeline]) == 23
    assert int(s.ships[modile]) == ships[modile] and int(s.vp[modile]) == 23
    assert int(s.vp[0]) == 20 and int(s.vp[3]) == 20
    checked(s)


def test_single_effect_neutralization_example():
    """Appendix, SINGLE-EFFECT CARD example: the owner gains 6 VP (2 orange cards already tucked); a player
    with a ship gains 3 VP (1 orange card tucked); the owner's own ship earns nothing extra. Freshly ejected
    cards are not counted (EN B.3). Card: gray neutralization 7 (3 VP per orange card tucked)."""
    s = _position()
    s.res[0] = 0
    madeline, other = 1, 3
    mission_to_tucked(s, madeline, 0)
    mission_to_tucked(s, madeline, 2)
    mission_to_tucked(s, other, 3)
    mission_to_space(s, 38, madeline, 1)
    ship_to(s, madeline, 1)
    ship_to(s, other, 1)
    mission_to_space(s, 4, madeline, 4)          # an orange card ejected at the same time: not counted
    checked(s)
    _b(s)
    assert int(s.vp[madeline]) == 26 and int(s.vp[other]) == 23
    assert int(s.mc_where[4]) == MC_TUCKED + madeline
    checked(s)


def test_cards_in_space_count_excludes_strip_one():
    """Appendix MISSION CARDS note: "cards you own in Space" excludes the cards of strip 1 (rules-notes D7).
    Orange neutralization 5: 3 VP per gray card in Space you own: one on strip 3 counts, one on strip 1 not."""
    s = _position()
    s.res[0] = 0
    mission_to_space(s, 16, 2, 0)
    mission_to_space(s, 21, 2, 4)                # strip 1: ejected now
    mission_to_space(s, 22, 2, 11)               # strip 3: counted
    checked(s)
    _b(s)
    assert int(s.vp[2]) == 23


@pytest.mark.parametrize("card,owner_gets", [
    (12, {"ships": 3}),                          # "takes 3 ships. Same for each player with a ship"
    (13, {"robots_break": 1, "res": 1, "ships": 3}),   # two parts: owner with a ship gets both
    (14, {"vp": 3}),                             # "gains 3 VP. Same for each player with a ship"
])
def test_owner_with_a_ship_on_fixed_cards(card, owner_gets):
    """Appendix neutralization cards and rules-notes B29/D7: on "same for each player" cards the owner with a
    ship benefits once; on two-part cards an owner with a ship gets both parts."""
    s = _position()
    s.res[0] = 0
    mission_to_space(s, card, 1, 2)
    ship_to(s, 1, 2)
    fields = ("ships", "res", "robots_break", "vp")
    before = {f: int(getattr(s, f)[1]) for f in fields}
    checked(s)
    _b(s)
    after = {f: int(getattr(s, f)[1]) for f in fields}
    assert {f: after[f] - before[f] for f in fields if after[f] != before[f]} == owner_gets


def test_ships_on_strip_one_without_card_return_to_supply():
    """rules-notes D5 / R-B4: ships on strip 1 that are not on a card also return to the supply with their
    pilots."""
    s = _position()
    s.res[0] = 0
    ship_to(s, 2, 3)
    sup = int(s.robots_supply[2])
    checked(s)
    _b(s)
    assert int(s.robots_supply[2]) == sup + 1
    assert all(ships_at(s, h) == [] for h in range(35))
    checked(s)


def test_ships_on_the_asteroid_hex_the_black_angel_leaves_are_destroyed():
    """EN Command step 1 note and R-B4: if the Black Angel leaves an asteroid hex, the ships there are
    destroyed (pilots to the supply); on a non-asteroid hex they stay (and shift with their strip)."""
    s = _position()
    s.res[0] = 0
    s.hex_terrain[BA] = T_ASTEROID
    ship_to(s, 1, BA)
    ship_to(s, 2, BA)
    ship_to(s, 3, 18)
    sup = [int(x) for x in s.robots_supply[:4]]
    checked(s)
    _b(s)
    assert int(s.robots_supply[1]) == sup[1] + 1 and int(s.robots_supply[2]) == sup[2] + 1
    assert ships_at(s, BA - 5) == [] and ships_at(s, 13) == [3]
    checked(s)


def test_spes_token_becomes_the_tile_on_the_flipped_strip():
    """EN B.3 IMPORTANT: when the Spes token is on strip 1, it is removed and the flipped strip, placed last,
    gets the Spes tile on its middle hex."""
    s = _position()
    s.res[0] = 0
    s.m[M_SPES_TOKEN_POS] = 0
    checked(s)
    _b(s)
    assert int(s.m[M_SPES_TOKEN_POS]) == -1 and int(s.m[M_SPES_POS]) == 6
    assert int(s.hex_terrain[32]) == T_SPES and int(s.hex_icons[32]) == 0
    _b(s)                                        # next player: the tile shifts with its strip
    assert int(s.m[M_SPES_POS]) == 5 and int(s.hex_terrain[27]) == T_SPES


@pytest.mark.parametrize("n,expected", [(4, 10), (3, 10), (2, 7)])
def test_spes_reached_after_the_expected_number_of_sequence_b(n, expected):
    """EN SETUP step 3, B.3 (rules-notes A.3): with 7 strips the Black Angel reaches Spes on the 10th
    Sequence B, with 5 strips on the 7th; that B finishes its advance (rules-notes D8) and ends the game
    trigger."""
    s = _position(n=n)
    count = 0
    while not s.m[M_SPES_REACHED]:
        assert s.phase == PH_TURN
        _b(s)
        count += 1
        assert count <= expected
    assert count == expected and int(s.m[M_END_TRIGGERED]) == 1
    ba = engine.black_angel_hex(int(s.m[3]))
    assert int(s.hex_terrain[ba]) == T_SPES
    checked(s)
