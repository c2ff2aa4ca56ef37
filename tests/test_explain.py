"""The explanations `blackangel play` prints (blackangel_env/explain.py): one line per legal option in the words
of docs/game.md, checked against what the engine then does, and `help` for the rules of the step in progress."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.explain import PHASE_PROMPTS, PHASE_RULES, describe_option, describe_options, explain_rules
from blackangel_env.state import (
    M_DIE_VALUE, M_PENDING, M_TURN_PLAYER, M_VALUE, PHASE_NAMES, TL_ADV_SPACE, TL_EJECTED, TL_TAKEN,
)

CONFIGS = [(1, False), (1, True), (2, False), (2, True), (3, False), (4, True)]


def _random_games(n, advanced, seeds):
    """Yield (state, legal actions) at every decision of seeded random games."""
    for seed in seeds:
        s = engine.new_game(num_players=n, advanced=advanced, seed=seed)
        rng = np.random.default_rng(seed)
        while not s.terminal:
            legal = engine.legal_actions(s)
            yield s, legal
            engine.apply(s, legal[rng.integers(len(legal))])


def test_every_phase_has_a_prompt_and_rules():
    assert set(PHASE_PROMPTS) == set(PHASE_NAMES) == set(PHASE_RULES)
    assert all(PHASE_PROMPTS[p] and PHASE_RULES[p] for p in PHASE_NAMES)


@pytest.mark.parametrize("n,advanced", CONFIGS)
def test_every_legal_option_is_described_without_changing_the_state(n, advanced):
    """Every option gets a line in words (not the bare block name), distinct options get distinct lines, and
    describing never changes the state."""
    seen = set()
    for s, legal in _random_games(n, advanced, range(2)):
        before = s.copy()
        lines = describe_options(s, legal)
        assert s == before
        assert len(set(lines)) == len(lines), lines
        for a, line in zip(legal, lines):
            block = A.decode(a).block
            seen.add(block)
            assert line and line != block, (PHASE_NAMES[s.phase], block)
        assert explain_rules(s).startswith(PHASE_PROMPTS[PHASE_NAMES[s.phase]])
    assert {"SEQUENCE_A", "SEQUENCE_B", "SELECT_DIE", "BOARD_ACTION", "INJECT"} <= seen


def test_card_line_names_the_tiles_the_engine_activates():
    """A1: the tiles a card's line says it activates are exactly the cells the engine then asks to resolve."""
    checked = 0
    for s, legal in _random_games(3, False, range(6)):
        if PHASE_NAMES[s.phase] != "a1_card":
            continue
        p = s.m.item(M_TURN_PLAYER)
        for a in legal:
            if a == A.DONE:
                continue
            line = describe_option(s, a)
            t = s.copy()
            engine.apply(t, a)
            pend = t.m.item(M_PENDING) if PHASE_NAMES[t.phase] == "a1_tiles" else 0
            cells = [c for c in range(9) if pend >> c & 1]
            named = {f"T#{s.grid.item(p, c):02d}" for c in cells}
            assert all(tok in line for tok in named), (line, named)
            assert (line.endswith("activates no tile")) == (not cells), line
            checked += 1
    assert checked > 100


def test_die_line_gives_the_activations_the_engine_grants():
    """A2: a board action's line states the activations (the die less 1 on a damaged action): checked as dealt
    and with the action given its second Damage cube."""
    checked = damaged = 0
    for s0, legal in _random_games(2, False, range(6)):
        if PHASE_NAMES[s0.phase] != "a2_modify":
            continue
        for a in legal:
            if not A.BOARD_ACTION <= a < A.BOARD_ACTION + 6:
                continue
            for cubes in (None, 2):
                s = s0.copy()
                if cubes is not None:
                    s.dmg[a - A.BOARD_ACTION] = cubes
                    if a not in engine.legal_actions(s):
                        continue
                t = s.copy()
                engine.apply(t, a)
                if PHASE_NAMES[t.phase] not in ("discover", "repair", "destroy"):
                    continue
                v = t.m.item(M_VALUE)
                assert f": {v} activation" in describe_option(s, a)
                checked += 1
                damaged += s.m.item(M_DIE_VALUE) != v and cubes is not None
    assert checked > 20 and damaged > 0


def test_inject_line_names_the_ejected_tile():
    checked = 0
    for s, legal in _random_games(1, False, range(10)):
        if PHASE_NAMES[s.phase] != "inject":
            continue
        p = s.m.item(M_TURN_PLAYER)
        for a in legal:
            t = s.copy()
            engine.apply(t, a)
            out = [k for k in range(76) if s.tile_where.item(k) == 10 + p and t.tile_where.item(k) in
                   (TL_EJECTED + p, TL_ADV_SPACE + p, TL_TAKEN + p)]
            line = describe_option(s, a)
            if out:
                assert f"ejects T#{out[0]:02d}" in line, line
                checked += 1
            else:
                assert "no tile is ejected" in line, line
    assert checked > 0


def test_sequence_b_line_states_the_dice_penalty():
    s = engine.new_game(num_players=1, seed=3)
    while PHASE_NAMES[s.phase] != "turn":
        engine.apply(s, engine.legal_actions(s)[0])
    p = s.m.item(M_TURN_PLAYER)
    loss = sum(int(v) for v, o in zip(s.die_value, s.die_owner) if o == p)
    assert loss > 0
    assert f"lose {loss} VP for the 3 dice left" in describe_option(s, A.SEQUENCE_B)


def test_play_lists_explained_options_and_help_gives_the_rules():
    script = "help\nquit\n"
    r = subprocess.run([sys.executable, "-m", "blackangel_env.cli", "play", "--seed", "3"], input=script,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert PHASE_PROMPTS["turn"] in r.stdout
    assert "0  Sequence A: play a card around your board, act with one die, draw a Mission card  [SEQUENCE_A]" \
        in r.stdout
    assert "If Sequence A is impossible you must take B." in r.stdout     # help: the rules of the turn
    assert "[player_0] SEQUENCE" not in r.stdout                          # help takes no decision
