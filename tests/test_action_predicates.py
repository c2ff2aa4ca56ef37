"""Each action family has one predicate "can this start, with this die" (issue 13 item 4; engine.die_uses):
``_action_can_start`` for the board actions and ``_mission_can_start`` for activation Mission cards, used both by
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
from blackangel_env.engine import die_uses
from blackangel_env.state import M_TURN_PLAYER, PH_A2_DIE, PH_TURN

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
    """``_board_action_ok`` (the legal generator's and the A1 guard's check) and ``_board_use`` (the look-ahead's)
    both answer through ``_action_can_start``: the same verdict for every action and value."""
    s = engine.new_game(num_players=3, seed=1)
    rng = np.random.default_rng(0)
    for _ in range(200):
        if s.terminal:
            break
        if s.phase == PH_TURN:
            p = int(s.m[M_TURN_PLAYER])
            pos = die_uses._position(s)
            for colour in range(3):
                for value in range(4):
                    each = [die_uses._board_action_ok(s, p, a, value, pos)
                            for a in die_uses._actions_of_colour(s.comp)[colour]]
                    assert any(each) == die_uses._board_use(s, p, colour, value, pos)
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
