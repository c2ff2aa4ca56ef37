"""Issue 15 items 8 and 9, issue 16's dense margin reward: the environments' info has the same keys, shapes and
dtypes at every step; the Gymnasium view's masks are consistent and never all False under the vector API's
autoreset; the ``dense_margin`` reward adds up to the final margin."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

import blackangel_env
from blackangel_env import engine
from blackangel_env.gym_env import BlackAngelSingleAgentEnv
from blackangel_env.outcome import NO_HAL, REWARD_SCHEMES, margins
from blackangel_env.state import BOT

RESULT_KEYS = {"scores", "hal_score", "winners", "game_over"}


def _signature(info: dict) -> dict:
    """Each key's type, and for arrays their dtype and shape."""
    out = {}
    for k, v in info.items():
        out[k] = (type(v).__name__, v.dtype.str, v.shape) if isinstance(v, np.ndarray) else type(v).__name__
    return out


def _check_result(info: dict, s, n: int) -> None:
    assert info["scores"].tolist() == [int(v) for v in s.vp[:n]]
    assert info["hal_score"] == (int(s.vp[BOT]) if n == 1 else NO_HAL)
    assert info["game_over"].shape == () and bool(info["game_over"]) == s.terminal
    want = np.zeros(n, dtype=np.int8)
    if s.terminal:
        want[engine.winners(s)] = 1
        assert info["scores"].tolist() == engine.final_scores(s)
    assert np.array_equal(info["winners"], want)


@pytest.mark.parametrize("n", [1, 2, 4])
def test_gym_info_has_fixed_keys_shapes_and_dtypes(n):
    env = BlackAngelSingleAgentEnv(num_players=n, max_steps=None)
    rng = np.random.default_rng(n)
    first = None
    for seed in (10 + n, 20 + n):
        obs, info = env.reset(seed=seed)
        while True:
            sig = _signature(info)
            first = first or sig
            assert sig == first
            assert set(info) == RESULT_KEYS | {"action_mask", "illegal_action"}
            assert info["scores"].shape == info["winners"].shape == (n,)
            _check_result(info, env.game_state, n)
            mask = env.action_masks()
            assert mask.dtype == info["action_mask"].dtype == bool and np.array_equal(mask, info["action_mask"])
            assert mask.any()
            if info["game_over"]:
                assert mask.all()
                break
            if rng.random() < 0.05:           # an illegal action now and then: same keys
                bad = int(np.flatnonzero(~mask)[0])
                obs, r, term, trunc, info = env.step(bad)
                assert info["illegal_action"]
                continue
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert not info["illegal_action"]


@pytest.mark.parametrize("n", [1, 3])
def test_pettingzoo_infos_have_fixed_keys_shapes_and_dtypes(n):
    e = blackangel_env.env(num_players=n)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    first = None
    for agent in e.agent_iter():
        for a in e.agents:
            sig = _signature(e.infos[a])
            first = first or sig
            assert sig == first
            assert set(e.infos[a]) == RESULT_KEYS | {"truncated_at_step", "illegal_action"}
            _check_result(e.infos[a], e.unwrapped.game_state, n)
        obs, _, term, trunc, info = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    t = blackangel_env.env(num_players=n, max_steps=5)
    t.reset(seed=1)
    for agent in t.agent_iter():
        obs, _, term, trunc, info = t.last()
        assert _signature(info) == first
        if trunc:
            assert info["truncated_at_step"] == 5 and not info["game_over"]
        t.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))


def _masked_choice(rng, mask):
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])          # "a cannot be empty" on an all-zero mask


@pytest.mark.parametrize("mode,n", [("NextStep", 1), ("SameStep", 1), ("NextStep", 3)])
def test_vector_autoreset_never_hands_a_masked_sampler_an_empty_mask(mode, n):
    """Issue 15 item 9: through ``SyncVectorEnv``, the batched ``info["action_mask"]`` of every sub-environment is
    never all False (NEXT_STEP autoreset: the terminal step's mask is fed back once; SAME_STEP: the reset's), over
    several ended and truncated episodes; Gymnasium's own masked sampler is used on half the steps."""
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    make = ("BlackAngelSolo-v0", {}) if n == 1 else ("BlackAngel-v0", {"num_players": n})
    fns = [lambda: gym.make(make[0], max_steps=None, **make[1]),
           lambda: gym.make(make[0], max_steps=15, **make[1]),
           lambda: gym.make(make[0], max_steps=None, advanced=True, **make[1])]
    venv = SyncVectorEnv(fns, autoreset_mode=AutoresetMode(mode))
    rng = np.random.default_rng(0)
    space = venv.single_action_space
    space.seed(0)
    ended = np.zeros(3, dtype=int)
    try:
        obs, info = venv.reset(seed=0)
        steps = 0
        while ended.min() < 2:
            masks = info["action_mask"]
            assert masks.dtype == bool and masks.shape == (3, space.n) and masks.any(axis=1).all()
            if steps % 2:
                actions = np.array([space.sample(mask=m.astype(np.int8)) for m in masks])
            else:
                actions = np.array([_masked_choice(rng, m) for m in masks])
            obs, reward, term, trunc, info = venv.step(actions)
            ended += term | trunc
            steps += 1
            assert steps < 4000
    finally:
        venv.close()


def _gym_return(env, seed, rng):
    env.reset(seed=seed)
    total = 0.0
    while True:
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += r
        if term or trunc:
            return total, term, info


@pytest.mark.parametrize("n,seat,max_steps", [(1, 0, None), (3, 2, None), (1, 0, 12)])
def test_gym_dense_margin_adds_up_to_the_margin(n, seat, max_steps):
    env = BlackAngelSingleAgentEnv(num_players=n, seat=seat, reward="dense_margin", reward_scale=1.0,
                                   max_steps=max_steps)
    margin_env = BlackAngelSingleAgentEnv(num_players=n, seat=seat, reward="margin", reward_scale=1.0,
                                          max_steps=max_steps)
    total, term, info = _gym_return(env, 7, np.random.default_rng(7))
    s = env.game_state
    want = margins(s)[seat]
    if n == 1:
        assert want == info["scores"][0] - info["hal_score"]
    assert total == pytest.approx(want)
    if term:
        other, _, _ = _gym_return(margin_env, 7, np.random.default_rng(7))
        assert other == pytest.approx(total)
    else:
        assert max_steps is not None


@pytest.mark.parametrize("n", [1, 2, 4])
def test_pettingzoo_dense_margin_adds_up_to_the_margin_and_is_dense(n):
    e = blackangel_env.env(num_players=n, reward="dense_margin", reward_scale=1.0)
    e.reset(seed=21)
    rng = np.random.default_rng(21)
    total = {a: 0.0 for a in e.possible_agents}
    nonzero = 0
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        total[agent] += r
        if not (term or trunc):
            nonzero += r != 0
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    m = margins(e.unwrapped.game_state)
    assert e.unwrapped.game_state.terminal
    for p, a in enumerate(e.possible_agents):
        assert total[a] == pytest.approx(m[p])
    assert nonzero > 3                                     # paid during the game, not only at the end


def test_reward_schemes_listed():
    assert set(REWARD_SCHEMES) == {"win", "margin", "dense_margin", "vp"}
    with pytest.raises(ValueError, match="dense_margin"):
        blackangel_env.raw_env(reward="dense")
