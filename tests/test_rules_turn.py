"""Rules tests: TURN SEQUENCE (Sequence A or B; 'If you are unable to perform sequence A, you must perform
sequence B'), decisions R-A1 and R-A2 of docs/rules.md, rules-notes D11.

EN = shared/rules/rulebook-en.txt; rules-notes = shared/design/rules-notes.md.
"""

from __future__ import annotations

import pytest

import helpers as H
from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.constants import GRAY, GREEN, ORANGE, TE_DRAW_MISSION, TE_MOVE_ROBOT, TE_MOVE_SHIP, TE_VP
from blackangel_env.state import PH_A1_CARD, PH_A1_TILES, PH_A2_DIE, PH_TILE_ROBOT, PH_TURN, TL_GRID

SEQ = [A.SEQUENCE_A, A.SEQUENCE_B]


def _position(debris: int = 0, res: int = 0):
    """Player 0 to choose A or B; no dice anywhere; no missions in hand; given debris and resources."""
    s = H.bare_game(3, seed=1)
    for p in range(3):
        H.clear_hand(s, p)
    s.debris[0] = debris
    s.res[0] = res
    H.start_turn(s, 0)
    return s


def test_a_and_b_offered_when_a_die_is_usable():
    """TURN SEQUENCE: choose one of the two sequences. With an orange 2 and tiles in the display (Discover)
    both A and B are offered."""
    s = _position()
    H.give_die(s, 0, ORANGE, 2)
    H.checked(s)
    assert engine.legal_actions(s) == SEQ
    H.act(s, "SEQUENCE_A")
    assert s.phase == PH_A1_CARD and s.actor == 0


def test_no_die_at_all_forces_b():
    """TURN SEQUENCE note: 'If you are unable to perform sequence A, you must perform sequence B' (R-A1):
    no die to use -> only Sequence B (no PASS outside the final turn)."""
    s = _position(res=3)
    H.checked(s)
    assert engine.legal_actions(s) == [A.SEQUENCE_B]
    with pytest.raises(engine.IllegalActionError):
        H.act(s, "SEQUENCE_A")
    with pytest.raises(engine.IllegalActionError):
        H.act(s, "PASS")


def test_buying_a_die_makes_a_possible_only_with_a_resource_and_an_unreserved_die():
    """R-A1 / A2 'PERFORM AN ACTION WITH 1 DIE': a die of another player may be bought for 1 resource if it
    is not reserved. Only such a die -> A possible iff it is unreserved and you have a resource."""
    s = _position(res=0)
    d = H.give_die(s, 1, ORANGE, 3)
    assert engine.legal_actions(s) == [A.SEQUENCE_B]          # no resource
    s.res[0] = 1
    assert engine.legal_actions(s) == SEQ
    s.die_reserved[d] = 1                                      # reserved: nobody else can buy it
    assert engine.legal_actions(s) == [A.SEQUENCE_B]


def test_a_possible_through_a_debris_flip():
    """R-A1 counts a debris flip (DEBRIS: flip your own die to the opposite face before using it). An orange
    star with no orange Mission card has no use; flipped to 2 it can Discover."""
    s = _position(debris=0)
    H.give_die(s, 0, ORANGE, 0)
    H.checked(s)
    assert engine.legal_actions(s) == [A.SEQUENCE_B]
    s.debris[0] = 1
    assert engine.legal_actions(s) == SEQ


def test_a_bought_die_is_not_counted_with_a_flip():
    """R-A1 with DEBRIS 'IMPORTANT: You cannot flip a die that you just bought': another player's orange star
    is useless to you even if you hold debris."""
    s = _position(debris=2, res=2)
    H.give_die(s, 1, ORANGE, 0)
    assert engine.legal_actions(s) == [A.SEQUENCE_B]


def test_a1_never_makes_a_possible():
    """R-A1: 'A1 never makes A possible by itself' (rules-notes D11). A gray star needs a gray Mission card
    (Command, star die); a draw-mission tile that a Ravager card could activate does not count."""
    s = _position()
    H.give_die(s, 0, GRAY, 0)
    H.put_tile(s, 0, H.cell(1, 2), H.tech_tile(s, GRAY, TE_DRAW_MISSION))
    assert s.hand_rav[0] >= 1
    H.checked(s)
    assert engine.legal_actions(s) == [A.SEQUENCE_B]


def _star_command_position(robots_break: int = 1):
    """Player 0's only usable die is an orange star: the only use is Command (orange, action 2) steps 2-4,
    placing an orange Mission card where an own ship stands (R-A7). Hand: one orange + one gray card."""
    s = _position()
    H.give_die(s, 0, ORANGE, 0)
    h = H.alien_hex(s, ORANGE, pos=1, col=0)
    H.ship_to(s, 0, h)
    s.robots_supply[0] += s.robots_break[0] - robots_break
    s.robots_break[0] = robots_break
    H.mission_to_hand(s, 0, 0)        # orange
    H.mission_to_hand(s, 0, 20)       # gray
    H.checked(s)
    return s


def test_r_a2_card_play_that_would_leave_no_die_use_is_illegal():
    """R-A2: in A1 a card play after which no die could be used in A2 is illegal. Playing the only orange
    Mission card would leave the orange star without a card to place; the gray card or a Ravager card may be
    played."""
    s = _star_command_position()
    assert engine.legal_actions(s) == SEQ
    H.act(s, "SEQUENCE_A")
    played = H.blocks_legal(s, "PLAY_MISSION")
    assert played and all(arg // 6 == 20 for arg in played)          # only the gray card, any slot
    assert len(played) == 6
    assert H.blocks_legal(s, "PLAY_RAVAGER") == list(range(6))
    assert H.is_legal(s, "DONE")
    with pytest.raises(engine.IllegalActionError):
        H.act(s, "PLAY_MISSION", 0 * 6 + 0)


def test_r_a2_a_card_play_whose_tile_makes_the_die_usable_again_is_legal():
    """R-A2 judges a card play by what A1 can still lead to, the tiles the card activates included (SEQUENCE A,
    step 1: "By doing so, you activate one or more Technology tiles in the same row/column").  The orange star's
    only use is to place the only orange card with Command; playing that card leaves no card to place, unless
    the orange "draw a Mission card" tile it activates draws another one.  So the card may be played on the
    two slots that activate that tile (left of row 2, below column 1) and on no other; once it is played, DONE
    (ending A1 with no die usable) is not offered, and the tile's draw offers only the colour that keeps the
    star usable.  Found by a rules audit: the guard judged every card play on the hand without the card."""
    s = H.game(n=3, seed=1)
    H.empty_table(s)
    for q in range(3):
        H.discard_hand_ravagers(s, q)
    s.res[0] = 0
    s.debris[0] = 0
    H.give_die(s, 0, ORANGE, 0)                     # the only die: an orange star
    H.mission_to_hand(s, 0, 2)                      # the only card: orange Mission card 2
    H.set_hex(s, 12, ORANGE)
    H.ship_to(s, 0, 12)                             # a ship on an empty orange hex
    H.clear_grid(s, 0)
    draw = [t for t in range(16) if s.comp.tile_effect[t] == TE_DRAW_MISSION][0]     # an orange draw tile
    H._detach_tile(s, draw)
    s.grid[0, H.cell(2, 1)] = draw
    s.tile_where[draw] = TL_GRID + 0
    H.checked(s)
    H.start_turn(s, 0)
    assert engine.legal_actions(s) == SEQ
    H.act(s, "SEQUENCE_A")
    assert sorted(H.blocks_legal(s, "PLAY_MISSION")) == [2 * 6 + 1, 2 * 6 + 3]   # left of row 2, below col 1
    H.act(s, "PLAY_MISSION", 2 * 6 + 1)
    assert s.phase == PH_A1_TILES and engine.legal_actions(s) == [A.RESOLVE_TILE + H.cell(2, 1)]
    H.act(s, "RESOLVE_TILE", H.cell(2, 1))
    assert H.legal_names(s) == ["DRAW_COLOUR(orange)"]
    H.act(s, "DRAW_COLOUR", ORANGE)
    assert s.phase == PH_A2_DIE and H.blocks_legal(s, "SELECT_DIE")
    H.checked(s)


def test_r_a2_guard_lifted_when_another_die_use_cannot_be_lost():
    """R-A2: the guard only removes choices that leave no die use; with an orange 2 that can Discover, the
    orange card may be played."""
    s = _star_command_position()
    H.give_die(s, 0, ORANGE, 2)
    H.start_a1(s, 0)
    assert len(H.blocks_legal(s, "PLAY_MISSION")) == 12


@pytest.mark.parametrize("robots,allowed", [(1, False), (2, True)])
def test_r_a2_robot_to_workstation_guard(robots, allowed):
    """R-A2 on a tile choice: moving the last break-room robot to a workstation (move-robot tile, activated by
    a Ravager card) would leave none for the Mission card's reward, so it is illegal; moving a robot back to
    the break room is always allowed."""
    s = _star_command_position(robots_break=robots)
    tile = H.tech_tile(s, GREEN, TE_MOVE_ROBOT)
    H.set_grid(s, 0, {H.cell(1, 2): tile})
    H.start_a1(s, 0)
    H.act(s, "PLAY_RAVAGER", 0)                     # left of row 1
    assert s.phase == PH_A1_TILES
    H.act(s, "RESOLVE_TILE", H.cell(1, 2))
    assert s.phase == PH_TILE_ROBOT
    assert H.blocks_legal(s, "ROBOT_TO_BREAK_ROOM") == [0, 1, 2]
    assert (H.blocks_legal(s, "ROBOT_TO_WORKSTATION") == [0, 1, 2]) is allowed
    if not allowed:
        assert H.blocks_legal(s, "ROBOT_TO_WORKSTATION") == []


def test_sequence_a_steps_in_order():
    """SEQUENCE A: A1 play a card (optional), then A2 act with a die. DONE in A1 goes straight to A2."""
    s = _position()
    H.give_die(s, 0, ORANGE, 2)
    H.put_tile(s, 0, H.cell(2, 1), H.tech_tile(s, ORANGE, TE_VP))
    H.act(s, "SEQUENCE_A")
    H.act(s, "DONE")
    assert s.phase == PH_A2_DIE and s.actor == 0


def test_sequence_b_passes_the_turn():
    """TURN SEQUENCE: choosing Sequence B performs it (no A1/A2) and the next player takes a turn."""
    s = _position()
    H.give_die(s, 0, ORANGE, 2)
    H.act(s, "SEQUENCE_B")
    while s.phase != PH_TURN:
        H.act(s, "DONE")
    assert s.actor == 1


def test_r_a2_launch_guard_looks_at_the_destinations():
    """R-A2 on a move-ship tile: launching a ship uses a robot, but the launch is legal as long as some
    destination keeps a die usable. Here the only use is a star Command placing the orange card where an own
    ship stands (R-A7): launching (robots 2 -> 1) and staying on the Black Angel's orange hex keeps it
    possible. Only the destinations that keep it possible are offered (engine bug fixed: the guard used to
    judge the launch before the move and refused it)."""
    s = _position()
    H.give_die(s, 0, ORANGE, 0)
    ba = H.ba_hex(s)
    H.set_hex(s, ba, ORANGE)
    H.mission_to_hand(s, 0, 0)
    s.robots_supply[0] += s.robots_break[0] - 2
    s.robots_break[0] = 2
    s.ships[0] = 1
    H.set_grid(s, 0, {H.cell(1, 2): H.tech_tile(s, ORANGE, TE_MOVE_SHIP)})
    H.checked(s)
    assert engine.legal_actions(s) == SEQ
    H.act(s, "SEQUENCE_A")
    H.act(s, "PLAY_RAVAGER", 0)
    H.act(s, "RESOLVE_TILE", H.cell(1, 2))
    assert H.is_legal(s, "LAUNCH_SHIP")
    H.act(s, "LAUNCH_SHIP")
    dests = H.blocks_legal(s, "MOVE_SHIP")
    assert ba in dests
    assert all(int(s.hex_terrain[h]) == ORANGE and int(s.hex_card[h]) < 0 for h in dests)
    H.act(s, "MOVE_SHIP", ba)
    assert s.phase == PH_A2_DIE
    assert H.blocks_legal(s, "SELECT_DIE") != []
    H.checked(s)


def test_r_a2_tile_move_cannot_strand_the_star_die():
    """R-A2 on a move-ship tile: the ship whose hex is the only place where the star can place its card may
    stay (moving 0 hexes, R-A4) but may not leave for a hex where no card could be placed."""
    s = _star_command_position(robots_break=1)
    h = [g for g in range(35) if 0 in H.ships_at(s, g)][0]
    s.ships[0] = 0
    H.set_grid(s, 0, {H.cell(1, 2): H.tech_tile(s, ORANGE, TE_MOVE_SHIP)})
    H.checked(s)
    H.start_a1(s, 0)
    H.act(s, "PLAY_RAVAGER", 0)
    H.act(s, "RESOLVE_TILE", H.cell(1, 2))
    H.act(s, "SELECT_SHIP", h)
    dests = H.blocks_legal(s, "MOVE_SHIP")
    assert h in dests
    assert all(int(s.hex_terrain[g]) == ORANGE and int(s.hex_card[g]) < 0 for g in dests)


def test_a2_is_mandatory_in_sequence_a():
    """SEQUENCE A step 2 'PERFORM AN ACTION WITH 1 DIE': 'First, you must select a die' — no way to skip A2."""
    s = _position()
    H.give_die(s, 0, ORANGE, 2)
    H.start_a2(s, 0)
    assert not H.is_legal(s, "DONE")
    assert {a for a in engine.legal_actions(s)} == {A.SELECT_DIE + d for d in range(18) if s.die_owner[d] == 0}


def _boost_only_position(extra_orange: bool = False):
    """Advanced rules: player 0's only die is a gray 2 with no gray use; the 1x change-colour boost of gray
    tile 18 (boost side up) could make it orange and Discover. Returns the state at A1."""
    s = H.game(3, seed=1, advanced=True)
    H.empty_table(s)
    s.debris[0] = 0
    s.res[0] = 0
    s.ships[0] = 0
    H.give_die(s, 0, GRAY, 2)
    if extra_orange:
        H.give_die(s, 0, ORANGE, 2)
    vertical = 27                                   # gray, activate above/below (standard side up)
    H.set_grid(s, 0, {H.cell(1, 2): 18, H.cell(2, 2): vertical})
    s.tile_boost[18] = 1
    s.tile_boost[vertical] = 0
    H.mission_to_hand(s, 0, 20)
    H.start_a1(s, 0)
    H.checked(s)
    assert s.comp.tile_boost[18] == 2 and s.comp.tile_boost_arg[18] == GRAY      # change_colour, gray
    return s


@pytest.mark.parametrize("robust", [False, True])
def test_r_a2_boost_tile_activation_that_forfeits_the_only_use(robust):
    """R-A2 with R-A3 (ADVANCED RULES: activating a boost-side tile flips it and forfeits its 1x): when that
    1x is the only way to use a die, the card may be played but the tile may not be activated, directly or
    by an adjacent activation tile (engine bug fixed: the game got stuck in A2 with no legal action)."""
    s = _boost_only_position(extra_orange=robust)
    H.act(s, "PLAY_MISSION", 20 * 6 + 4)           # gray card below column 2: tiles 18 and 27 activated
    assert H.blocks_legal(s, "RESOLVE_TILE") == ([H.cell(1, 2), H.cell(2, 2)] if robust else [H.cell(2, 2)])
    H.act(s, "RESOLVE_TILE", H.cell(2, 2))         # the vertical tile: may it activate tile 18 below?
    assert H.blocks_legal(s, "ACTIVATE_ADJACENT") == ([H.cell(1, 2)] if robust else [])
    H.act(s, "DONE")
    H.act(s, "DONE")
    assert s.phase == PH_A2_DIE
    assert H.blocks_legal(s, "SELECT_DIE") != []


# A solo advanced game (Hal easy, seed 2003899) played by uniform random choices: its player plays an orange
# card left of row 2, whose tile there shows its boost side; the tile's activation flips it (R-A3) and its 1x
# was the only way to use a die, but the adjacent tile it activates restores a use.
_STUCK_PREFIX = [0, 128, 476, 488, 503, 651, 658, 380, 434, 435, 3, 825, 0, 365, 374, 380, 470, 488, 501, 638,
                 642, 3, 811, 1, 864, 1, 864, 1, 876, 0, 46, 470, 488, 501, 629, 641, 630, 642, 631, 642, 817, 0,
                 53, 373]


def test_r_a2_every_choice_inside_an_a1_tile_effect_is_guarded():
    """R-A2 (rulebook SEQUENCE A, A1 then A2): the guard that lets a boost-side tile be activated because one
    follow-up keeps a die use must also drop the follow-ups that do not: here declining the adjacent
    activation (DONE) left A2 with no die (engine bug fixed: the game reached A2 with no legal action)."""
    s = engine.new_game(num_players=1, advanced=True, hal_difficulty="easy", seed=2003899)
    for a in _STUCK_PREFIX:
        engine.apply(s, a)
    assert A.action_to_string(_STUCK_PREFIX[-1]).startswith("RESOLVE_TILE")
    legal = engine.legal_actions(s)
    assert A.DONE not in legal and H.blocks_legal(s, "ACTIVATE_ADJACENT")
    for a in legal:                       # every choice offered leads on to a die use
        t = s.copy()
        engine.apply(t, a)
        while t.phase != PH_A2_DIE:
            engine.apply(t, engine.legal_actions(t)[0])
        assert engine.legal_actions(t)
