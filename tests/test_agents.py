"""Agents: legal moves only, deterministic under a seed, greedy/heuristic beat random, determinize keeps the
invariants and hides only what the seat cannot see."""

import numpy as np
import pytest

from blackangel_env.agents import (GreedyAgent, HeuristicAgent, MCTSAgent, RandomAgent, determinize, make_agent,
                                   parse_agent_code)
from blackangel_env import engine, new_game
from blackangel_env.invariants import check_invariants
from blackangel_env.state import MC_HAND, MC_SLOT


def _play(agents, seed, n, max_moves=None, **kw):
    """Play one game (or its first ``max_moves`` decisions); every action goes through engine.apply, which
    raises on an illegal action."""
    s = new_game(num_players=n, seed=seed, **kw)
    for i, a in enumerate(agents):
        a.reset(1000 * seed + i)
    moves = []
    while not s.terminal and (max_moves is None or len(moves) < max_moves):
        p = s.actor
        mask = engine.legal_mask(s)
        a = agents[p].act(None, mask, s.copy())
        assert mask[a], "agent chose an illegal action"
        engine.apply(s, a)
        moves.append(a)
    if s.terminal:
        return engine.final_scores(s), engine.winners(s), moves
    return None, None, moves


@pytest.mark.slow
@pytest.mark.parametrize("make", [GreedyAgent, HeuristicAgent, lambda seed=None: MCTSAgent(4, seed=seed)])
def test_agent_legal_and_deterministic(make):
    a1 = _play([make(), make()], 5, 2, max_moves=80)
    a2 = _play([make(), make()], 5, 2, max_moves=80)
    assert a1 == a2 and len(a1[2]) == 80


@pytest.mark.slow
def test_agents_legal_solo_and_advanced():
    _play([HeuristicAgent()], 3, 1, hal_difficulty="standard", advanced=True)
    _play([GreedyAgent(), RandomAgent(), GreedyAgent()], 4, 3, advanced=True)


@pytest.mark.parametrize("cls", [GreedyAgent, HeuristicAgent, MCTSAgent])
def test_search_agents_need_the_state(cls):
    s = new_game(num_players=2, seed=0)
    with pytest.raises(ValueError, match="needs the engine state"):
        cls().act(None, engine.legal_mask(s), None)


def _match(cls, games):
    """3-player tables, the tested agent rotated over the seats against two random agents."""
    mine, theirs, wins = [], [], 0
    for g in range(games):
        seat = g % 3
        agents = [RandomAgent(), RandomAgent(), RandomAgent()]
        agents[seat] = cls()
        scores, won, _ = _play(agents, 100 + g, 3)
        mine.append(scores[seat])
        theirs.extend(v for p, v in enumerate(scores) if p != seat)
        wins += seat in won
    return np.mean(mine), np.mean(theirs), wins


@pytest.mark.slow
def test_greedy_beats_random():
    mine, theirs, wins = _match(GreedyAgent, 18)
    assert mine > 2 * theirs and wins >= 14, (mine, theirs, wins)


@pytest.mark.slow
def test_heuristic_beats_random():
    mine, theirs, wins = _match(HeuristicAgent, 6)
    assert mine > 3 * theirs and wins >= 5, (mine, theirs, wins)


def test_determinize_keeps_invariants_and_what_the_seat_sees():
    rng = np.random.default_rng(0)
    changed = 0
    for seed in range(8):
        n = seed % 4 + 1
        s = new_game(num_players=n, seed=seed, advanced=bool(seed % 2))
        r = np.random.default_rng(seed)
        k = 0
        while not s.terminal:
            seat = s.actor
            d = determinize(s, seat, rng)
            check_invariants(d)
            # what the seat sees is unchanged: its own hand and slots, the per-colour hand counts, the board
            for loc in (MC_HAND + seat, MC_SLOT + seat):
                assert np.array_equal(np.flatnonzero(d.mc_where == loc), np.flatnonzero(s.mc_where == loc))
            assert np.array_equal(d.hand_mc, s.hand_mc) and np.array_equal(d.slots[seat], s.slots[seat])
            assert np.array_equal(d.display, s.display) and np.array_equal(d.hex_card, s.hex_card)
            assert np.array_equal(d.tech_stack[np.arange(3), np.maximum(s.tech_stack_n - 1, 0)],
                                  s.tech_stack[np.arange(3), np.maximum(s.tech_stack_n - 1, 0)])
            assert engine.legal_actions(d) == engine.legal_actions(s)
            changed += not np.array_equal(d.mc_deck, s.mc_deck)
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(r.integers(len(legal)))])
            k += 1
            if k > 150:
                break
    assert changed > 0


def test_make_agent_codes():
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert isinstance(make_agent("greedy"), GreedyAgent)
    assert isinstance(make_agent("heuristic"), HeuristicAgent)
    assert make_agent("mcts:7").simulations == 7
    assert parse_agent_code("mcts") == ("mcts", {"simulations": 100})
    for bad in ("", "foo", "mcts:0", "mcts:x", "greedy:3", "policy:model.zip", "rllib:", "rllib:no/such/run"):
        with pytest.raises(ValueError):
            parse_agent_code(bad)


def test_rllib_agent_code_needs_a_directory_and_names_a_missing_ray(tmp_path, monkeypatch):
    import blackangel_env.training  # noqa: F401  (registers rllib:<path>; tests/test_agent_codes.py)
    assert parse_agent_code(f"rllib:{tmp_path}") == ("rllib", {"path": str(tmp_path)})
    with pytest.raises(ValueError, match="needs an existing RLlib run"):
        parse_agent_code(f"rllib:{tmp_path / 'model.zip'}")
    import importlib.util
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name.split(".")[0] == "ray"
                        else find_spec(name, *a))          # as without Ray, whether or not it is installed
    with pytest.raises(ValueError, match=r"needs the 'rllib' extra \(ray not installed\): pip install"):
        make_agent(f"rllib:{tmp_path}")


@pytest.mark.parametrize("n", [1, 3])
def test_decisions_do_not_depend_on_hidden_information(n):
    """The state-reading agents plan on a determinization (blackangel_env.agents.information): the same agent seed gives
    the same decision in two states that differ only in what the seat cannot see (deck orders, the other hands,
    Hal's deck, the future dice)."""
    rng = np.random.default_rng(11)
    s = engine.new_game(num_players=n, seed=5)
    checked = 0
    while not s.terminal and checked < 12:
        legal = engine.legal_actions(s)
        if len(legal) > 1:
            seat = s.actor
            other = determinize(s, seat, np.random.default_rng(checked + 100))   # another world, same view
            assert not np.array_equal(other.buf, s.buf) or n == 1
            for code in ("greedy", "heuristic", "mcts:3", "search:worlds=2,keep=2", "search:worlds=1,rollout=2"):
                a = make_agent(code, seed=checked).act(None, None, s.copy())
                b = make_agent(code, seed=checked).act(None, None, other.copy())
                assert a == b, (code, checked)
            checked += 1
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    assert checked == 12


@pytest.mark.parametrize("code", ["greedy", "heuristic", "mcts:8", "search", "random", "pretrained"])
def test_agents_keep_to_a_narrowed_mask(code):
    """``act(observation, action_mask, state)``: an agent plays an action the mask allows even when the caller
    narrows the state's legal actions (a planned move outside the mask is replaced), and refuses a mask that
    allows none of them or is not one entry per action id."""
    from blackangel_env.encoding import encode_observation
    rng = np.random.default_rng(3)
    agent = make_agent(code, seed=1)
    checked = 0
    for seed in range(6):
        s = new_game(num_players=1 + seed % 3, seed=seed)
        for _ in range(int(rng.integers(0, 60))):
            engine.apply(s, engine.legal_actions(s)[int(rng.integers(len(engine.legal_actions(s))))])
        if s.terminal:
            continue
        legal = engine.legal_actions(s)
        obs = encode_observation(s, s.actor)
        for keep in ([legal[-1]], legal[len(legal) // 2:] if len(legal) > 2 else legal[:1]):
            mask = np.zeros(882, dtype=np.int8)
            mask[keep] = 1
            a = agent.act(obs, mask, s.copy())
            assert a in keep, (code, seed, keep, a)
            checked += 1
        with pytest.raises(ValueError, match="allows no"):
            agent.act(obs, np.zeros(882, dtype=np.int8), s.copy())
        full = engine.legal_mask(s)
        for bad in (full[None], np.stack([np.zeros_like(full), full]), full[:-1], np.append(full, 1)):
            with pytest.raises(ValueError, match=r"one entry per action id, shape \(882,\)"):
                agent.act(obs, bad, s.copy())
    assert checked >= 8
