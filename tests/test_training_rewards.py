"""Reward shaping for training (blackangel_env/training/rewards.py): potential-based shaping by the agents' position
value."""

from __future__ import annotations

import numpy as np
import pytest

from blackangel_env.agents.value import evaluate
from blackangel_env import engine
from blackangel_env.gym_env import BlackAngelSingleAgentEnv
from blackangel_env.training.rewards import ValueShaping, shaped


def _play(env, seed, rng):
    obs, info = env.reset(seed=seed)
    rewards, shaping = [], []
    done = False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, r, term, trunc, info = env.step(int(legal[int(rng.integers(len(legal)))]))
        rewards.append(r)
        shaping.append(info["shaping"])
        done = term or trunc
    return rewards, shaping, info


def test_shaping_terms_telescope_to_the_final_margin():
    """gamma = 1: the shaping terms of an episode add up to scale * (final VP - Hal's VP - phi(start))."""
    base = BlackAngelSingleAgentEnv(num_players=1, reward="win")
    env = ValueShaping(base, scale=0.1, gamma=1.0)
    env.reset(seed=3)
    phi0 = evaluate(base.game_state, 0)
    rewards, shaping, info = _play(env, 3, np.random.default_rng(0))
    margin = info["scores"][0] - info["hal_score"]
    assert sum(shaping) == pytest.approx(0.1 * (margin - phi0))
    # the environment's own reward (+1 / -1 at the end, 0 before) is still there, unchanged
    win = [r - t for r, t in zip(rewards, shaping)]
    assert win[:-1] == pytest.approx([0.0] * (len(win) - 1))
    assert win[-1] in (pytest.approx(1.0), pytest.approx(-1.0), pytest.approx(0.0))


def test_shaping_matches_the_formula_step_by_step_with_discount():
    base = BlackAngelSingleAgentEnv(num_players=1, reward="win")
    env = ValueShaping(base, scale=0.05, gamma=0.9)
    env.reset(seed=11)
    rng = np.random.default_rng(1)
    for _ in range(20):
        phi = evaluate(base.game_state, 0)
        legal = np.flatnonzero(env.action_masks())
        _, r, term, trunc, info = env.step(int(legal[int(rng.integers(len(legal)))]))
        phi2 = evaluate(base.game_state, 0)
        assert info["shaping"] == pytest.approx(0.05 * (0.9 * phi2 - phi))
        if term or trunc:
            break


def test_shaping_does_not_change_the_game():
    """Same seed and actions: the same game with and without the wrapper."""
    a = BlackAngelSingleAgentEnv(num_players=1)
    b = ValueShaping(BlackAngelSingleAgentEnv(num_players=1), scale=0.05)
    a.reset(seed=5)
    b.reset(seed=5)
    rng = np.random.default_rng(2)
    while not a.game_state.terminal:
        legal = np.flatnonzero(a.action_masks())
        assert np.array_equal(legal, np.flatnonzero(b.action_masks()))
        act = int(legal[int(rng.integers(len(legal)))])
        a.step(act)
        b.step(act)
    assert engine.final_scores(a.game_state) == engine.final_scores(b.unwrapped.game_state)
    assert np.array_equal(a.game_state.buf, b.unwrapped.game_state.buf)


def test_bad_shaping_arguments_are_refused():
    env = BlackAngelSingleAgentEnv(num_players=1)
    with pytest.raises(ValueError, match="scale"):
        ValueShaping(env, scale=0.0)
    with pytest.raises(ValueError, match="gamma"):
        ValueShaping(env, gamma=1.5)
    with pytest.raises(ValueError, match="unknown shaping"):
        shaped(env, "potential", 0.1, 1.0)
    assert shaped(env, "none", 0.1, 1.0) is env
