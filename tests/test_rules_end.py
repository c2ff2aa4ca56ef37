"""Rulebook, END OF THE GAME: the two triggers, the rest of the round plus one final round, no advance after
the trigger, the final-turn pass (R-E1), final scoring (Advanced tiles, the 2:1 conversion at Spes, the
34 -> 46 -> 48 example), ties, and the VP floor (R-E3); rules-notes D8, D9, D13, D23.

EN = shared/rules/rulebook-en.txt.
"""

from __future__ import annotations

from blackangel_env import engine, scoring
from blackangel_env.constants import (
    AE_DEBRIS, AE_RAVAGERS, AE_TILES_OF_COLOUR, ADV_TILE0, GRAY, GREEN, ORANGE, RAV_DAMAGE_NEXT, T_SPES,
)
from blackangel_env.state import (
    M_END_TRIGGERED, M_ROUND, M_SPES_POS, M_SPES_REACHED, M_SPES_TOKEN_POS, M_TRIGGER_ROUND, MC_SPACE,
    MC_TUCKED, PH_B_RESERVE, PH_TURN, RV_BOARD, RV_DISCARD,
)

from helpers import (
    act, checked, clear_dice, clear_grid, clear_ravagers, game, give_die, is_legal, mission_to_hand,
    mission_to_space, mission_to_tucked, no_icons, put_adv_space, put_tile, ravager_card,
    ravager_to_hand, set_ravager_deck, ship_to, start_a2, start_turn,
)

A = engine.A


def _set_vp(s, p, v):
    s.vp[p] = v
    s.vp_src[p, :] = 0
    s.vp_src[p, 0] = v


def _position(n=3, seed=0):
    """No die anywhere, no resource (so nobody can buy a die), no Ravager on the board, VP 20 each."""
    s = game(n, seed=seed)
    clear_ravagers(s)
    clear_dice(s)
    for p in range(n):
        s.res[p] = 0
        _set_vp(s, p, 20)
    return s


def _spes_next(s):
    """The Spes tile on the strip just beyond the Black Angel: the next Sequence B reaches it."""
    ba = engine.black_angel_hex(int(s.m[3]))
    s.m[M_SPES_TOKEN_POS] = -1
    s.m[M_SPES_POS] = ba // 5 + 1
    s.hex_terrain[ba + 5] = T_SPES
    s.hex_icons[ba + 5] = 0
    s.hex_comet[ba + 5] = 0


def _b(s):
    act(s, "SEQUENCE_B")
    if s.phase == PH_B_RESERVE:
        act(s, "DONE")


def _adv(s, effect, colour=-1, skip=()):
    for t in range(ADV_TILE0, ADV_TILE0 + 16):
        if s.comp.tile_adv[t] == effect and (colour < 0 or s.comp.tile_adv_colour[t] == colour) and t not in skip:
            return t
    raise AssertionError("no such Advanced tile")


# --- triggers and the final round -----------------------------------------------------------------------------

def test_spes_trigger_round_then_final_round_then_scoring():
    """EN END OF THE GAME: reaching Spes in Sequence B triggers the end; the round is finished, then one
    final round is played (rules-notes D23), then the game is over. After the trigger the Black Angel
    advances no further (strips do not move, strip-1 cards stay)."""
    s = _position(3)
    _spes_next(s)
    s.m[M_ROUND] = 4
    start_turn(s, 1)
    checked(s)
    _b(s)
    assert int(s.m[M_SPES_REACHED]) == 1 and int(s.m[M_END_TRIGGERED]) == 1 and int(s.m[M_TRIGGER_ROUND]) == 4
    strips = [int(x) for x in s.strip_id[:7]]
    mission_to_space(s, 1, 0, 2)                 # a card on strip 1 after the trigger
    checked(s)
    # player 2 finishes round 4 (not the final round: no pass)
    assert s.phase == PH_TURN and int(s.m[6]) == 2 and int(s.m[M_ROUND]) == 4
    assert engine.legal_actions(s) == [A.SEQUENCE_B]
    _b(s)
    assert [int(x) for x in s.strip_id[:7]] == strips and int(s.mc_where[1]) == MC_SPACE
    # final round 5: players 0, 1, 2
    turns = 0
    while not s.terminal:
        assert int(s.m[M_ROUND]) == 5
        if is_legal(s, "PASS"):
            act(s, "PASS")
        else:
            _b(s)
        turns += 1
    assert turns == 3
    assert [int(x) for x in s.strip_id[:7]] == strips
    checked(s)


def test_triggering_sequence_b_finishes_its_advance():
    """rules-notes D8: the Sequence B that reaches Spes still ejects strip 1 (eject, flip, shift)."""
    s = _position(3)
    _spes_next(s)
    mission_to_space(s, 14, 2, 1)                # orange neutralization 3: owner gains 3 VP
    start_turn(s, 0)
    checked(s)
    _b(s)
    assert int(s.mc_where[14]) == MC_TUCKED + 2 and int(s.vp[2]) == 23
    ba = engine.black_angel_hex(7)
    assert int(s.hex_terrain[ba]) == T_SPES


def test_ravager_deck_empty_in_sequence_a_triggers_and_discard_is_reshuffled():
    """EN END OF THE GAME (the Ravager deck becomes empty during Sequence A) and notes ("shuffle the discard
    to form a new deck"), rules-notes D9: with 1 card left and 2 visible icons, the deck empties (trigger) and
    the second Ravager comes from the reshuffled discard."""
    s = _position(4)
    s.m[M_ROUND] = 3
    for h in range(35):
        s.hex_terrain[h] = ORANGE
    no_icons(s)
    s.hex_icons[16] = 1
    s.hex_icons[18] = 1
    last = ravager_card(s, 4, RAV_DAMAGE_NEXT)
    set_ravager_deck(s, [last])                  # the other deck cards went to the discard
    discard = [r for r in range(30) if s.rav_where[r] == RV_DISCARD]
    assert discard
    mission_to_hand(s, 0, 1)
    ship_to(s, 0, 17)
    d = give_die(s, 0, ORANGE, 1)
    start_a2(s, 0)
    checked(s)
    act(s, "SELECT_DIE", d)
    act(s, "BOARD_ACTION", 1)
    act(s, "SELECT_SHIP", 17)
    act(s, "MOVE_SHIP", 22)
    act(s, "PLACE_MISSION", 1)
    assert int(s.m[M_END_TRIGGERED]) == 1 and int(s.m[M_TRIGGER_ROUND]) == 3
    assert int(s.rav_where[last]) == RV_BOARD + 4
    on_board = [r for r in discard if RV_BOARD <= s.rav_where[r] < RV_BOARD + 6]
    assert len(on_board) == 1
    assert int(s.m[15]) == len(discard) - 1
    checked(s)


def test_pass_only_in_the_final_turn_when_sequence_a_is_impossible():
    """EN END OF THE GAME IMPORTANT and R-E1: in the final round a player who must take Sequence B may pass
    instead (no VP lost for the dice); a player who can take Sequence A cannot pass."""
    s = _position(3)
    s.m[M_END_TRIGGERED] = 1
    s.m[M_TRIGGER_ROUND] = int(s.m[M_ROUND]) - 1
    give_die(s, 1, GRAY, 3, reserved=True)        # player 1 can use it (Repair has nothing, Command has)
    start_turn(s, 0)
    checked(s)
    assert engine.legal_actions(s) == [A.SEQUENCE_B, A.PASS]
    act(s, "PASS")
    assert int(s.vp[0]) == 20 and int(s.m[6]) == 1
    assert is_legal(s, "SEQUENCE_A") and not is_legal(s, "PASS")


def test_no_pass_before_the_final_round():
    """R-E1: outside the final round a player unable to take Sequence A must take Sequence B."""
    s = _position(3)
    s.m[M_END_TRIGGERED] = 1
    s.m[M_TRIGGER_ROUND] = int(s.m[M_ROUND])
    start_turn(s, 0)
    assert engine.legal_actions(s) == [A.SEQUENCE_B]
    s.m[M_END_TRIGGERED] = 0
    assert engine.legal_actions(s) == [A.SEQUENCE_B]


def test_vp_never_below_zero():
    """R-E3 (rules-notes C13): a Sequence B loss larger than the score leaves the player at 0 VP."""
    s = _position(3)
    _set_vp(s, 0, 2)
    give_die(s, 0, ORANGE, 3)
    give_die(s, 0, GRAY, 3)
    start_turn(s, 0)
    checked(s)
    _b(s)
    assert int(s.vp[0]) == 0
    checked(s)


# --- final scoring ---------------------------------------------------------------------------------------------

def _notice_position(spes: bool):
    """EN END OF THE GAME example: 34 VP; an Advanced "2 VP per green tile in the grid" tile still in the grid
    with 3 green tiles; an ejected "2 VP per Ravager card" tile on the gray space with 3 gray cards tucked,
    4 Ravager cards in hand; 3 robots in the break room, 1 resource, 1 ship."""
    s = _position(3)
    p = 0
    clear_grid(s, p)
    greens = [t for t in range(32, 48)][:3]
    for c, t in zip((0, 1, 2), greens):
        put_tile(s, p, c, t)
    put_tile(s, p, 3, _adv(s, AE_TILES_OF_COLOUR, GREEN))
    put_adv_space(s, p, GRAY, _adv(s, AE_RAVAGERS))
    for card in (20, 21, 22):
        mission_to_tucked(s, p, card)
    for r in [r for r in range(30) if s.rav_where[r] == 0][:4 - int(s.hand_rav[p])]:
        ravager_to_hand(s, p, r)
    assert int(s.hand_rav[p]) == 4
    s.robots_supply[p] += s.robots_break[p] - 3
    s.robots_break[p] = 3
    s.res[p] = 1
    s.ships[p] = 1
    s.debris[p] = 0
    _set_vp(s, p, 34)
    s.m[M_SPES_REACHED] = int(spes)
    checked(s)
    return s


def test_notice_example_34_46_48():
    """EN END OF THE GAME example: the grid tile is capped at 4 VP (3 green tiles), the ejected tile on the
    gray space can earn 4 + 2 x 3 = 10 VP and earns 8 (4 Ravager cards): 46; Spes reached: 3 robots +
    1 resource + 1 ship = 5 things -> 2 VP: 48."""
    s = _notice_position(True)
    detail = scoring.advanced_tiles_detail(s, 0)
    assert sorted((d["cap"], d["vp"]) for d in detail) == [(4, 4), (10, 8)]
    scoring.finish_game(s)
    assert s.terminal and int(s.vp[0]) == 48
    checked(s)


def test_no_conversion_without_spes():
    """EN END OF THE GAME: if the Black Angel has not reached Spes, robots, resources and ships are worth
    nothing (the example then ends at 46)."""
    s = _notice_position(False)
    scoring.finish_game(s)
    assert int(s.vp[0]) == 46


def test_conversion_counts_only_break_room_robots():
    """EN END OF THE GAME and rules-notes D23: robots count only in the break room (not in workstations or
    on cards); the things are added before converting 2:1, rounded down."""
    s = _position(3)
    clear_grid(s, 1)
    s.robots_supply[1] += s.robots_break[1] - 2
    s.robots_break[1] = 2
    mission_to_space(s, 1, 1, 12)            # one more robot on a card: not counted
    s.res[1] = 2
    s.ships[1] = 3                           # 2 + 2 + 3 = 7 things -> 3 VP
    s.m[M_SPES_REACHED] = 1
    checked(s)
    scoring.finish_game(s)
    assert int(s.vp[1]) == 23


def test_copies_of_an_advanced_tile_use_different_elements():
    """EN END OF THE GAME notes and appendix ADVANCED TECHNOLOGY: copies of the same Advanced tile must use
    different elements (rules-notes D13): 2 "per Ravager card" tiles in the grid and 3 Ravager cards
    -> 6 VP, not 12."""
    s = _position(3)
    clear_grid(s, 0)
    a1 = _adv(s, AE_RAVAGERS)
    a2 = _adv(s, AE_RAVAGERS, skip=(a1,))
    put_tile(s, 0, 0, a1)
    put_tile(s, 0, 1, a2)
    for r in [r for r in range(30) if s.rav_where[r] == 0][:3 - int(s.hand_rav[0])]:
        ravager_to_hand(s, 0, r)
    checked(s)
    assert sum(d["vp"] for d in scoring.advanced_tiles_detail(s, 0)) == 6
    for r in [r for r in range(30) if s.rav_where[r] == 0][:3]:
        ravager_to_hand(s, 0, r)
    assert sum(d["vp"] for d in scoring.advanced_tiles_detail(s, 0)) == 8   # capped at 4 + 4


def test_ejected_tech_tile_counts_ejected_starting_tiles_too():
    """Appendix ADVANCED TECHNOLOGY "gain 2 VP per ejected Technology tile" and R-D13: the Starting Technology
    tiles (COMPONENTS: "12 Starting Technology tiles") count when ejected, as standard ones do: one ejected
    standard tile and one ejected Starting tile -> 4 VP.  Found by a rules audit (rules-notes D13 counted
    standard tiles only)."""
    from blackangel_env.constants import AE_EJECTED_TECH, START_TILE0
    from blackangel_env.state import TL_EJECTED

    s = _position(3)
    start = [int(t) for t in s.grid[0].tolist() if t >= START_TILE0][0]
    clear_grid(s, 0)                                     # the grid's tiles leave the game
    s.tile_where[start] = TL_EJECTED + 0                 # the Starting tile, ejected instead
    std = int(s.tech_stack[ORANGE, int(s.tech_stack_n[ORANGE]) - 1])
    s.tech_stack[ORANGE, int(s.tech_stack_n[ORANGE]) - 1] = -1
    s.tech_stack_n[ORANGE] -= 1
    s.tile_where[std] = TL_EJECTED + 0                   # a standard tile, ejected
    put_tile(s, 0, 0, _adv(s, AE_EJECTED_TECH))
    checked(s)
    assert [(d["elements"], d["vp"]) for d in scoring.advanced_tiles_detail(s, 0)] == [(2, 4)]


def test_debris_on_tiles_counts_in_storage_at_the_end():
    """EN END OF THE GAME notes: debris on tiles moves to storage at the end, so it counts for the "per
    debris in storage" Advanced tile."""
    s = _position(3)
    clear_grid(s, 0)
    put_tile(s, 0, 0, _adv(s, AE_DEBRIS))
    put_tile(s, 0, 1, 0, debris=True)
    s.debris[0] = 1
    checked(s)
    scoring.finish_game(s)
    assert int(s.debris[0]) == 2 and int(s.vp[0]) == 24


def test_ties_share_the_victory():
    """EN END OF THE GAME: "In a tie, the tied players share the victory"."""
    s = _position(3)
    for p in range(3):
        clear_grid(s, p)
    _set_vp(s, 0, 30)
    _set_vp(s, 2, 30)
    checked(s)
    scoring.finish_game(s)
    assert engine.winners(s) == [0, 2]
    assert engine.final_scores(s) == [30, 20, 30]


def test_cards_in_space_tile_counts_itself_out_of_strip_one_and_caps():
    """Appendix ADVANCED TECHNOLOGY ("2 VP per card in Space that you own", "2 VP per Advanced tile in your
    grid or ejected") and rules-notes D7/D13: strip-1 cards are not counted at final scoring; the Advanced
    tile counts itself; a tile ejected after the three spaces are full is capped at 4 VP."""
    from blackangel_env.constants import AE_ADVANCED, AE_CARDS_IN_SPACE
    from blackangel_env.state import TL_EJECTED
    from helpers import _detach_tile
    s = _position(3)
    clear_grid(s, 0)
    put_tile(s, 0, 0, _adv(s, AE_CARDS_IN_SPACE))
    mission_to_space(s, 1, 0, 2)                 # strip 1: not counted
    mission_to_space(s, 2, 0, 7)                 # strip 2: counted
    checked(s)
    assert [d["vp"] for d in scoring.advanced_tiles_detail(s, 0)] == [2]
    clear_grid(s, 1)
    a = _adv(s, AE_ADVANCED)
    put_tile(s, 1, 0, a)
    assert [d["vp"] for d in scoring.advanced_tiles_detail(s, 1)] == [2]
    b = _adv(s, AE_ADVANCED, skip=(a,))
    _detach_tile(s, b)
    s.tile_where[b] = TL_EJECTED + 1             # ejected after the 3 spaces were full
    extra = [t for t in range(ADV_TILE0, ADV_TILE0 + 16) if t not in (a, b)][:3]
    for k, t in enumerate(extra):
        put_adv_space(s, 1, k, t)
    checked(s)
    detail = {d["tile"]: d for d in scoring.advanced_tiles_detail(s, 1)}
    assert detail[b]["cap"] == 4 and detail[a]["cap"] == 4
    assert detail[a]["vp"] + detail[b]["vp"] == 8   # 5 Advanced tiles, two tiles capped at 4 VP each


def test_final_scoring_counts_the_advanced_tiles_as_their_detail_does():
    """Final scoring (END OF THE GAME, Advanced Technology tiles; rules-notes D13) adds each player's Advanced tiles
    in one sum, without the per-tile detail: for every seat of positions of seeded random games, in the base and
    the advanced rules, the sum equals the VP of ``scoring.advanced_tiles_detail`` (each kind's tiles take
    min(their caps' halves, the elements of the kind), 2 VP each)."""
    import numpy as np

    from blackangel_env.engine.end import _advanced_vp

    rng = np.random.default_rng(11)
    compared = with_tiles = 0
    for g in range(24):
        s = engine.new_game(num_players=1 + g % 4, advanced=bool(g % 2), seed=400 + g)
        while not s.terminal:
            for p in range(s.num_players):
                detail = scoring.advanced_tiles_detail(s, p)
                assert _advanced_vp(s, p) == sum(d["vp"] for d in detail)
                compared += 1
                with_tiles += bool(detail)
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.random() * len(legal))])
    assert compared > 5000 and with_tiles > 500
