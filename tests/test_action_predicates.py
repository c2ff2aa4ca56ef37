"""Each action family has one predicate "can this start, with this die" (issue 13 item 4; engine.predicates):
``action_can_start`` for the board actions and ``mission_can_start`` for activation Mission cards, used both by
the legal uses of a die (``_die_uses``, the A2 legal-move generator) and by the look-ahead that keeps a die usable
(``_die_usable``, which decides which dice are selectable and whether Sequence A is possible).  R-A16 came from
such checks disagreeing; here they must agree on every die met in seeded games, and a die the look-ahead lets a
player select must leave a legal action.
"""

from __future__ import annotations

import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.engine import die_uses, predicates
from blackangel_env.engine.dice import FLIP
from blackangel_env.state import M_N_STRIPS, M_TURN_PLAYER, PH_A2_DIE, PH_TURN

QUIET = (A.DONE, A.SEQUENCE_B, A.PASS)


@pytest.mark.parametrize("n,advanced", [(1, False), (1, True), (2, True), (3, False), (4, True)])
def test_legal_uses_and_look_ahead_agree(n, advanced):
    rng = np.random.default_rng(n)
    checked = selected = 0
    for seed in range(4):
        s = engine.new_game(num_players=n, advanced=advanced, seed=600 + 10 * n + seed)
        while not s.terminal:
            if s.phase in (PH_TURN, PH_A2_DIE):
                p = int(s.m[M_TURN_PLAYER])
                for colour in range(3):
                    for value in range(4):
                        for res_delta in (0, -1):
                            uses = die_uses._die_uses(s, p, colour, value, res_delta)
                            assert bool(uses) == die_uses._die_usable(s, p, colour, value, res_delta), (
                                colour, value, res_delta)
                            checked += 1
            if s.phase == PH_A2_DIE:
                for a in engine.legal_actions(s):          # every selectable die leaves something to do
                    t = s.copy()
                    engine.apply(t, a)
                    assert engine.legal_actions(t), A.action_to_string(a)
                    selected += 1
            legal = engine.legal_actions(s)
            busy = [a for a in legal if a not in QUIET] if rng.random() < 0.8 else []
            choices = busy or legal
            engine.apply(s, choices[int(rng.random() * len(choices))])
    assert checked > 0 and selected > 0


def test_board_action_ok_is_the_family_predicate():
    """``board_action_ok`` (the legal generator's and the A1 guard's check) and ``board_use`` (the look-ahead's)
    both answer through ``action_can_start``: the same verdict for every action and value, the damage taken
    into account (one pip less on a fully damaged action)."""
    s = engine.new_game(num_players=3, seed=1)
    rng = np.random.default_rng(0)
    for _ in range(200):
        if s.terminal:
            break
        if s.phase == PH_TURN:
            p = int(s.m[M_TURN_PLAYER])
            for colour in range(3):
                for value in range(4):
                    each = [predicates.board_action_ok(s, p, a, value)
                            for a in s.comp.actions_of_colour(colour)]
                    assert any(each) == predicates.board_use(s, p, colour, value)
                    for a in s.comp.actions_of_colour(colour):
                        full = s.dmg.item(a) >= s.comp.max_action_damage
                        ev = value - 1 if value > 0 and full else value
                        assert predicates.board_action_ok(s, p, a, value) == predicates.action_can_start(s, p, a, ev)
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("n,advanced", [(1, False), (2, True), (4, False)])
def test_plain_selection_is_the_look_ahead_without_boosts(n, advanced):
    """Without a boost, the dice p may select (``predicates.plain_selectable``) are those with a use
    (``die_usable``): own dice as they are or flipped with a debris, the debris spent first (R-A16), others'
    unreserved dice once their price is paid (rulebook A2, Reserved die; R-A14); the general look-ahead given
    no boost (``die_uses._die_reachable``) answers the same."""
    rng = np.random.default_rng(10 + n)
    compared = 0
    for seed in range(3):
        s = engine.new_game(num_players=n, advanced=advanced, seed=900 + seed)
        while not s.terminal:
            if s.phase in (PH_TURN, PH_A2_DIE):
                for p in range(n):
                    want = []
                    for d in range(18):
                        o, c, v = s.die_owner.item(d), d // 6, s.die_value.item(d)
                        if o == p:
                            flip = s.debris.item(p) >= 1
                            ok = (predicates.die_usable(s, p, c, v)
                                  or (flip and predicates.die_usable(s, p, c, FLIP[v], 0, -1)))
                            assert die_uses._die_reachable(s, p, c, v, flip, (), {}) == ok
                        elif o >= 0 and s.res.item(p) >= 1 and not s.die_reserved.item(d):
                            ok = predicates.die_usable(s, p, c, v, -1)
                            assert die_uses._die_reachable(s, p, c, v, False, (), {}, res_delta=-1) == ok
                        else:
                            continue
                        if ok:
                            want.append(d)
                    assert predicates.plain_selectable(s, p) == want
                    assert predicates.plain_selectable(s, p, True) == want[:1]
                    compared += 1
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.integers(len(legal)))])
    assert compared > 20


def test_predicates_refuse_what_is_not_there():
    """A seat, a board action or a Mission card that does not exist is named in a ValueError (the compiled
    predicates read the buffer without bounds checks)."""
    s = engine.new_game(num_players=2, seed=3)
    before = s.buf.copy()
    with pytest.raises(ValueError, match="seat 4"):
        predicates.die_usable(s, 4, 0, 2)
    with pytest.raises(ValueError, match="seat -1"):
        predicates.plain_selectable(s, -1)
    with pytest.raises(ValueError, match="board action 6"):
        predicates.board_action_ok(s, 0, 6, 2)
    with pytest.raises(ValueError, match="Mission card -1"):
        predicates.has_access(s, 0, -1)
    with pytest.raises(ValueError, match="seat 7"):
        predicates.has_access(s, 7, 0)
    with pytest.raises(ValueError, match="seat 4"):
        predicates.mission_can_start(s, 4, 0)
    with pytest.raises(ValueError, match="Mission card"):
        predicates.mission_can_start(s, 0, len(s.comp.mission_cost))
    with pytest.raises(ValueError, match="face 0-3, not 4"):
        predicates.plain_reachable(s, 0, 0, 4, True)
    with pytest.raises(ValueError, match="8 goods"):
        predicates.can_pay(s, 0, (1, 0, 0))
    assert (s.buf == before).all()


def test_robust_use_is_a_die_with_a_discover_repair_or_destroy():
    """The A1 guard's shortcut (R-A2): ``robust_use`` holds exactly when a die p may select (own, or another's
    unreserved die it can afford) starts Discover, Repair or Destroy as the die is."""
    from blackangel_env.constants import ACT_COMMAND
    rng = np.random.default_rng(5)
    seen = {True: 0, False: 0}
    for seed in range(4):
        s = engine.new_game(num_players=3, advanced=bool(seed % 2), seed=70 + seed)
        while not s.terminal:
            for p in range(3):
                want = False
                for d in range(18):
                    o = s.die_owner.item(d)
                    if o == p or (o >= 0 and s.res.item(p) >= 1 and not s.die_reserved.item(d)):
                        want = want or any(predicates.board_action_ok(s, p, a, s.die_value.item(d))
                                           for a in s.comp.actions_of_colour(d // 6)
                                           if s.comp.action_kind[a] != ACT_COMMAND)
                assert predicates.robust_use(s, p) == want
                seen[want] += 1
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.integers(len(legal)))])
    assert seen[True] > 0 and seen[False] > 0, seen


def test_a_corrupted_view_raises_instead_of_reading_past_a_table():
    """The compiled predicates check their indices: a Mission card id out of range written into ``hex_card``
    through the named views (the saved-state loader refuses it, direct writes are not checked) raises
    IndexError instead of reading past the component tables."""
    s = engine.new_game(num_players=2, seed=1)
    h = int(np.flatnonzero(s.hex_card[:s.m.item(M_N_STRIPS) * 5] < 0)[0])
    s.hex_card[h] = 999
    for colour in range(3):
        with pytest.raises(IndexError):
            predicates.mission_use(s, 0, colour)
