"""Rules tests: SETUP (rulebook pages 4-5, steps 1-15, and the 2-PLAYER GAME setup adjustments).

EN = shared/rules/rulebook-en.txt; rules-notes = shared/design/rules-notes.md; R-xx = docs/rules.md.
"""

from __future__ import annotations

import pytest

import helpers as H
from blackangel_env import engine
from blackangel_env.board import black_angel_hex, centre_position
from blackangel_env.constants import ADV_TILE0, START_TILE0, TE_OR
from blackangel_env.state import (
    BOT, DIE_ABSENT, DIE_SUPPLY, M_ADV_DECK_N, M_N_STRIPS, M_RAV_DECK_N, M_SETUP_SEAT, M_SPES_TOKEN_POS,
    MC_HAND, PH_SETUP_RESERVE, PH_TURN, RV_BOARD, RV_BOX, RV_DECK, RV_HAND, TL_DISPLAY, TL_STACK,
)

SEEDS = range(6)


@pytest.mark.parametrize("n,per", [(2, 4), (3, 5), (4, 6)])
def test_dice_per_colour(n, per):
    """SETUP step 2: 6 dice per colour at 4 players, 5 at 3 players, 4 at 2 players (unused ones boxed)."""
    for seed in SEEDS:
        s = engine.new_game(num_players=n, seed=seed)
        for c in range(3):
            present = [d for d in range(6 * c, 6 * c + 6) if s.die_owner[d] != DIE_ABSENT]
            assert len(present) == per


@pytest.mark.parametrize("n,strips", [(2, 5), (3, 7), (4, 7)])
def test_space_strips(n, strips):
    """SETUP step 3: 7 strips (5 in a 2-player game); the Spes token on the strip farthest from the board;
    the Black Angel on the middle hex of the centre strip (rules-notes A.3)."""
    s = engine.new_game(num_players=n, seed=3)
    assert int(s.m[M_N_STRIPS]) == strips
    assert int(s.m[M_SPES_TOKEN_POS]) == strips - 1
    assert len(set(int(x) for x in s.strip_id[:strips])) == strips       # distinct strips
    assert all(int(x) == -1 for x in s.strip_id[strips:])
    assert centre_position(strips) == (3 if strips == 7 else 2)
    assert black_angel_hex(strips) == centre_position(strips) * 5 + 2


@pytest.mark.parametrize("seed", SEEDS)
def test_display_one_tile_of_each_colour_on_first_three_spaces(seed):
    """SETUP step 5: one Technology tile of each colour, at random, on the first 3 display spaces (the two
    cost-2 spaces and the first cost-1 space); the rest of the display is empty; standard side up."""
    s = engine.new_game(num_players=3, seed=seed)
    costs = s.comp.display_costs
    assert list(costs[:3]) == [2, 2, 1]
    shown = [int(t) for t in s.display[:3]]
    assert all(0 <= t < 48 for t in shown)
    assert sorted(s.comp.tile_colour[t] for t in shown) == [0, 1, 2]
    assert all(int(t) == -1 for t in s.display[3:])
    assert all(s.tile_where[t] == TL_DISPLAY for t in shown)
    assert not s.tile_boost[:48].any()
    for c in range(3):                               # the rest of each colour stays in its stack
        assert int(s.tech_stack_n[c]) == 15
        assert sum(1 for t in range(16 * c, 16 * c + 16) if s.tile_where[t] == TL_STACK) == 15


def test_display_colour_order_is_random():
    """SETUP step 5: the three tiles are placed 'randomly' on the first 3 spaces (not a fixed colour order)."""
    orders = {tuple(engine.new_game(num_players=3, seed=k).comp.tile_colour[int(t)]
                    for t in engine.new_game(num_players=3, seed=k).display[:3]) for k in range(30)}
    assert len(orders) >= 3


@pytest.mark.parametrize("n", [2, 3, 4])
def test_four_advanced_slots_filled(n):
    """SETUP step 6: the Advanced Technology tiles form a face-down deck; 1 tile face up on each of the 4
    Advanced slots (12 remain in the deck)."""
    s = engine.new_game(num_players=n, seed=1)
    slots = [int(t) for t in s.adv_slots]
    assert len(slots) == 4 and all(ADV_TILE0 <= t < ADV_TILE0 + 16 for t in slots)
    assert len(set(slots)) == 4
    assert int(s.m[M_ADV_DECK_N]) == 12


@pytest.mark.parametrize("n,removed", [(2, 12), (3, 6), (4, 0)])
def test_ravager_deck_removals_and_two_cards_on_board(n, removed):
    """SETUP step 8: remove 6 Ravager cards (3 players) / 12 (2 players); two cards attack the board, each
    with a Damage cube on its action (first then second damage space if both target the same action); one
    Ravager card in each player's hand (step 13)."""
    for seed in range(12):
        s = engine.new_game(num_players=n, seed=seed)
        assert sum(1 for r in range(30) if s.rav_where[r] == RV_BOX) == removed
        on_board = [r for r in range(30) if RV_BOARD <= s.rav_where[r] < RV_BOARD + 6]
        assert len(on_board) == 2
        assert int(s.rav_count.sum()) == 2
        # each card sits on the action it targets, with one Damage cube per card there
        for a in range(6):
            k = int(s.rav_count[a])
            assert int(s.dmg[a]) == k
            for i in range(k):
                assert s.comp.ravager_action[int(s.rav_loc[a, i])] == a
        assert not s.die_damaged.any()
        assert int(s.m[M_RAV_DECK_N]) == 30 - removed - 2 - n
        assert sum(1 for r in range(30) if s.rav_where[r] == RV_DECK) == 30 - removed - 2 - n


def test_two_setup_ravagers_on_same_action_fill_both_damage_spaces():
    """SETUP step 8: 'If it targets the same location as the first card, place it atop the first card ...
    and place the Damage cube on the second Damage space of this action' (the action starts damaged)."""
    found = False
    for seed in range(200):
        s = engine.new_game(num_players=4, seed=seed)
        if 2 in s.rav_count.tolist():
            a = s.rav_count.tolist().index(2)
            assert int(s.dmg[a]) == 2 and int(s.dmg.sum()) == 2
            found = True
            break
    assert found


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_player_starting_material(n):
    """SETUP steps 10-14: 5 VP; 5 robots in the break room, 1 in each workstation, 8 in the supply; the 3
    Starting tiles of your colour on the highlighted slots (rules-notes C11: the diagonal), in random order;
    1 Mission card of each colour and 1 Ravager card in hand; 1 resource, 1 debris, 1 ship (player aids add
    to this, see below); step 15: one die of each colour, rolled, in the standard area."""
    s = H.game(n, seed=5)
    cells = [H.cell(1, 1), H.cell(2, 2), H.cell(3, 3)]
    for p in range(n):
        assert int(s.vp[p]) == 5
        assert int(s.robots_break[p]) == 5
        assert s.robots_ws[p].tolist() == [1, 1, 1]
        assert int(s.robots_supply[p]) == 8
        grid = s.grid[p].tolist()
        assert sorted(grid[c] for c in cells) == [START_TILE0 + 3 * p + k for k in range(3)]
        assert all(grid[c] == -1 for c in range(9) if c not in cells)
        assert all(s.comp.tile_effect[grid[c]] == TE_OR for c in cells)
        assert s.hand_mc[p].tolist() == [1, 1, 1]
        assert sum(1 for c in range(60) if s.mc_where[c] == MC_HAND + p) == 3
        assert int(s.hand_rav[p]) == 1 and sum(1 for r in range(30) if s.rav_where[r] == RV_HAND + p) == 1
        assert int(s.debris[p]) == 1
        assert int(s.ships[p]) == 1
        dice = [d for d in range(18) if s.die_owner[d] == p]
        assert sorted(d // 6 for d in dice) == [0, 1, 2]
        assert all(int(s.die_value[d]) in (0, 1, 2, 3) for d in dice)
        assert not any(s.die_reserved[d] for d in dice)       # standard area (reservations declined)
    for p in range(n, 4):                                      # absent seats have nothing
        assert s.hand_mc[p].tolist() == [0, 0, 0] and all(int(t) == -1 for t in s.grid[p])


def test_starting_tiles_are_placed_in_random_order():
    """SETUP step 12: 'Randomly place the 3 Starting Technology tiles ... on the highlighted slots'."""
    layouts = {tuple(int(x) for x in engine.new_game(num_players=2, seed=k).grid[0]) for k in range(30)}
    assert len(layouts) >= 4


@pytest.mark.parametrize("n", [2, 3, 4])
def test_player_aid_resources(n):
    """SETUP step 15, player aids (rules-notes C9, assumed): position 1 no advantage, position 2 +1 resource,
    position 3 a free reservation only, position 4 a free reservation and +1 resource."""
    s = H.game(n, seed=2)
    expected = [1, 2, 1, 2][:n]
    assert [int(x) for x in s.res[:n]] == expected


def test_four_players_reservation_decisions_of_players_3_and_4():
    """SETUP (Reserved die): 'During setup, the 3rd and 4th player can slide a die of their choice from their
    standard area to their high-security area for free' (player aid advantage, rules-notes A22). Players 3
    then 4 decide (a die of their own, or none), before player 1's first turn; it costs nothing."""
    s = engine.new_game(num_players=4, seed=7)
    assert s.phase == PH_SETUP_RESERVE
    assert int(s.m[M_SETUP_SEAT]) == 2 and s.actor == 2
    own2 = [d for d in range(18) if s.die_owner[d] == 2]
    assert H.blocks_legal(s, "RESERVE_DIE") == own2
    assert H.is_legal(s, "DONE")
    other = [d for d in range(18) if s.die_owner[d] == 0][0]
    with pytest.raises(engine.IllegalActionError):
        H.act(s, "RESERVE_DIE", other)                       # only one of your own dice
    res_before = [int(x) for x in s.res[:4]]
    H.act(s, "RESERVE_DIE", own2[1])
    assert int(s.die_reserved[own2[1]]) == 1 and int(s.die_owner[own2[1]]) == 2
    assert s.phase == PH_SETUP_RESERVE and s.actor == 3
    own3 = [d for d in range(18) if s.die_owner[d] == 3]
    assert H.blocks_legal(s, "RESERVE_DIE") == own3
    H.act(s, "DONE")                                         # player 4 declines
    assert not any(s.die_reserved[d] for d in own3)
    assert s.phase == PH_TURN and s.actor == 0
    assert [int(x) for x in s.res[:4]] == res_before          # free
    assert int(s.die_reserved.sum()) == 1


def test_three_players_only_player_3_reserves():
    """SETUP (Reserved die): at 3 players only the 3rd player has the free reservation; one die at most."""
    s = engine.new_game(num_players=3, seed=4)
    assert s.phase == PH_SETUP_RESERVE and s.actor == 2
    d = [d for d in range(18) if s.die_owner[d] == 2][0]
    H.act(s, "RESERVE_DIE", d)
    assert s.phase == PH_TURN and s.actor == 0
    assert int(s.die_reserved.sum()) == 1 and int(s.die_reserved[d]) == 1


def test_two_players_no_reservation_and_neutral_player():
    """SETUP / 2-PLAYER GAME: no free reservation (positions 1-2); a neutral robot in each workstation and
    the neutral player's three dice rolled into its own compartment."""
    s = engine.new_game(num_players=2, seed=4)
    assert s.phase == PH_TURN and s.actor == 0
    assert s.robots_ws[BOT].tolist() == [1, 1, 1]
    neutral = [d for d in range(18) if s.die_owner[d] == BOT]
    assert sorted(d // 6 for d in neutral) == [0, 1, 2]
    assert not s.die_reserved.any()
    # 4 dice per colour: 3 in compartments (2 players + neutral), 1 left in each supply
    for c in range(3):
        assert sum(1 for d in range(6 * c, 6 * c + 6) if s.die_owner[d] == DIE_SUPPLY) == 1


def test_setup_is_consistent_and_deterministic():
    """SETUP: a seeded setup is reproducible and satisfies every conservation law."""
    for n in (2, 3, 4):
        a = engine.new_game(num_players=n, seed=11)
        b = engine.new_game(num_players=n, seed=11)
        assert a == b
        H.checked(a)
        assert engine.legal_actions(a) == engine.legal_actions(b)
