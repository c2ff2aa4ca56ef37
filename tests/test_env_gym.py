"""The single-agent Gymnasium view: environment checkers, masks, illegal actions, opponents, rewards, and a
short MaskablePPO run through SubprocVecEnv."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

import blackangel_env  # noqa: F401  (registers the Gymnasium ids)
from blackangel_env import IllegalActionError, engine
from blackangel_env import actions as A
from blackangel_env.agents.arena import safe_start_method
from blackangel_env.config import GameConfig
from blackangel_env.encoding import observation_size
from blackangel_env.gym_env import BlackAngelSingleAgentEnv, RandomPolicy
from blackangel_env.state import BOT


def _play(env, seed, rng, masked=True):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert info["action_mask"].dtype == bool and np.array_equal(mask, info["action_mask"])
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, r, term, trunc, info = env.step(a)
        total += r
        steps += 1
        if term or trunc:
            return total, steps, term, trunc, info


@pytest.mark.parametrize("kwargs", [{"num_players": 1}, {"num_players": 3, "advanced": True},
                                    {"num_players": 2, "seat": 1, "reward": "vp"}])
def test_gymnasium_and_sb3_env_checkers(kwargs, capsys):
    from gymnasium.utils.env_checker import check_env as gym_check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # "not able to test alternative render modes" (no spec)
        gym_check_env(BlackAngelSingleAgentEnv(render_mode="ansi", **kwargs), skip_render_check=False)
        sb3_check_env(BlackAngelSingleAgentEnv(**kwargs))
    capsys.readouterr()


def test_registered_ids():
    e = gym.make("BlackAngelSolo-v0", hal_difficulty="difficult", advanced=True)
    assert e.unwrapped.config == GameConfig(num_players=1, advanced=True, hal_difficulty="difficult")
    obs, info = e.reset(seed=0)
    assert obs.shape == (observation_size(),) and e.observation_space.contains(obs)
    assert e.get_wrapper_attr("action_masks")().any()
    m = gym.make("BlackAngel-v0", num_players=4, opponents=RandomPolicy(1))
    assert m.unwrapped.config.num_players == 4
    m.reset(seed=1)


def test_illegal_action_is_ignored_with_a_penalty():
    env = BlackAngelSingleAgentEnv(num_players=1, illegal_reward=-0.25)
    obs, info = env.reset(seed=3)
    before = env.game_state.copy()
    bad = int(np.flatnonzero(~env.action_masks())[0])
    obs2, r, term, trunc, info = env.step(bad)
    assert r == -0.25 and not term and not trunc and info["illegal_action"]
    assert env.game_state == before and np.array_equal(obs, obs2)
    assert env.game_state == before


def test_actions_outside_the_space_are_refused_and_change_nothing():
    """Issue 15 item 6: a float, a bool, a string, a sequence, a numpy float or an id outside Discrete(882) is
    refused with IllegalActionError (not played, not counted as a step); integer ids of any integer type play."""
    env = BlackAngelSingleAgentEnv(num_players=1)
    env.reset(seed=3)
    a = int(np.flatnonzero(env.action_masks())[0])
    before = env.game_state.copy()
    for bad in (0.7, float(a), True, False, np.True_, str(a), [a], (a,), np.array([a]), np.float32(a),
                np.array(float(a)), None, -1, A.NUM_ACTIONS, np.int64(A.NUM_ACTIONS), "x"):
        with pytest.raises(IllegalActionError, match="action"):
            env.step(bad)
        assert env.game_state == before and env.num_steps == 0
    for ok in (np.int64(a), np.array(a, dtype=np.int32), np.uint16(a)):
        env.reset(seed=3)
        env.step(ok)
        assert env.num_steps == 1 and env.game_state != before


def test_calls_before_reset_and_after_the_end_raise():
    """Issue 15 item 6: ``action_masks()`` before ``reset`` was all True and ``step`` after the end returned
    quietly: both raise now, as ``step`` and ``render`` before ``reset`` do."""
    env = BlackAngelSingleAgentEnv(num_players=1, render_mode="ansi")
    for call in (env.action_masks, lambda: env.step(0), env.render):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    _play(env, 5, np.random.default_rng(5))
    assert env.game_state.terminal
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)
    short = BlackAngelSingleAgentEnv(num_players=1, max_steps=2)
    short.reset(seed=0)
    for _ in range(2):
        *_, trunc, _ = short.step(int(np.flatnonzero(short.action_masks())[0]))
    assert trunc
    with pytest.raises(RuntimeError, match="over"):
        short.step(int(np.flatnonzero(short.action_masks())[0]))


def test_max_steps_counts_illegal_steps_and_truncates():
    env = BlackAngelSingleAgentEnv(num_players=1, max_steps=3)
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    assert env.step(bad)[3] is False
    assert env.step(bad)[3] is False
    _, _, term, trunc, _ = env.step(bad)
    assert trunc and not term


@pytest.mark.parametrize("n", [1, 2, 4])
def test_masked_random_games_end_with_consistent_rewards(n):
    env = BlackAngelSingleAgentEnv(num_players=n)
    total, steps, term, trunc, info = _play(env, 100 + n, np.random.default_rng(n))
    s = env.game_state
    assert term and not trunc and s.terminal
    assert info["scores"].tolist() == engine.final_scores(s)
    assert np.flatnonzero(info["winners"]).tolist() == engine.winners(s)
    assert total == (1.0 if info["winners"][0] else -1.0)
    assert env.action_masks().all() and info["action_mask"].all()     # never all False, even at the end
    assert info["hal_score"] == (int(s.vp[BOT]) if n == 1 else -1)


def test_vp_and_margin_rewards_from_the_learner_seat():
    env = BlackAngelSingleAgentEnv(num_players=3, seat=2, reward="vp", reward_scale=1.0)
    total, *_ = _play(env, 7, np.random.default_rng(7))
    start = engine.new_game(GameConfig(num_players=3), seed=7)
    assert total == pytest.approx(int(env.game_state.vp[2]) - int(start.vp[2]))
    env = BlackAngelSingleAgentEnv(num_players=1, reward="margin")
    total, *_ = _play(env, 8, np.random.default_rng(8))
    s = env.game_state
    assert total == pytest.approx(0.02 * (int(s.vp[0]) - int(s.vp[BOT])))


def test_seeded_episodes_are_reproducible():
    def run(env):
        rng = np.random.default_rng(0)
        out = []
        for seed in (5, None, None):
            obs, _ = env.reset(seed=seed)
            out.append(obs.copy())
            for _ in range(15):
                if env.game_state.terminal:
                    break
                obs, *_ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
                out.append(obs.copy())
        return out

    a = run(BlackAngelSingleAgentEnv(num_players=3))
    b = run(BlackAngelSingleAgentEnv(num_players=3))
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


class _Recorder:
    """An opponent object (``act``) that plays the first legal action and records what it was given."""

    def __init__(self):
        self.calls = []
        self.resets = 0

    def reset(self, seed=None):
        self.resets += 1

    def act(self, observation, action_mask, state):
        self.calls.append((observation.shape, action_mask.dtype, state.actor))
        return int(np.flatnonzero(action_mask)[0])


def test_opponent_protocol():
    rec = _Recorder()
    seen = []

    def fn(observation, action_mask, state):
        seen.append(state.actor)
        return int(np.flatnonzero(action_mask)[-1])

    env = BlackAngelSingleAgentEnv(num_players=3, seat=1, opponents={0: rec, 2: fn})
    _play(env, 4, np.random.default_rng(4))
    assert rec.resets == 1 and rec.calls and set(seen) == {2}
    assert all(c == ((observation_size(),), np.int8, 0) for c in rec.calls)
    env = BlackAngelSingleAgentEnv(num_players=4, opponents=[rec, RandomPolicy(0), fn])
    _play(env, 5, np.random.default_rng(5))
    with pytest.raises(ValueError):
        BlackAngelSingleAgentEnv(num_players=1, opponents=fn)
    with pytest.raises(ValueError):
        BlackAngelSingleAgentEnv(num_players=3, opponents=[fn])
    with pytest.raises(ValueError):
        BlackAngelSingleAgentEnv(num_players=3, seat=0, opponents={0: fn})
    with pytest.raises(ValueError):
        BlackAngelSingleAgentEnv(num_players=2, seat=2)
    cheat = BlackAngelSingleAgentEnv(num_players=2, seat=1,
                                     opponents=lambda o, m, s: int(np.flatnonzero(m == 0)[0]))
    with pytest.raises(IllegalActionError):
        cheat.reset(seed=0)


class _Flaky:
    """An opponent policy that answers with a 0-d integer array (what SB3's ``predict`` returns) and, when
    ``fail`` is set, fails once: it raises, or returns a float."""

    def __init__(self):
        self.fail = None

    def __call__(self, observation, action_mask, state):
        how, self.fail = self.fail, None
        if how == "raise":
            raise RuntimeError("the policy's own bug")
        if how == "float":
            return 3.0
        return np.array(np.flatnonzero(action_mask)[0])


@pytest.mark.parametrize("how", ["raise", "float"])
def test_a_failing_opponent_policy_leaves_the_step_undone(how):
    """Bad input changes nothing: when an opponent policy fails in the middle of ``step`` (after the learner's
    action was applied), the step is undone (game, step count, pending reward, the environment's generator)
    and the learner may retry the same action; a 0-d integer array is a valid answer of a policy."""
    flaky = _Flaky()
    env = BlackAngelSingleAgentEnv(num_players=3, opponents=flaky)
    env.reset(seed=8)
    failed = 0
    for _ in range(60):
        if env._over:
            break
        flaky.fail = how
        before = (env.game_state.to_dict(), env.num_steps, env._pending_reward, env.np_random.bit_generator.state)
        state_object = env.game_state
        a = int(np.flatnonzero(env.action_masks())[-1])
        try:
            env.step(a)
        except (RuntimeError, IllegalActionError) as e:
            assert ("player_" in str(e)) if how == "float" else "own bug" in str(e)
            failed += 1
            after = (env.game_state.to_dict(), env.num_steps, env._pending_reward,
                     env.np_random.bit_generator.state)
            assert after == before and env.game_state is state_object
            assert env.game_state.actor == env.seat
            env.step(a)                                  # the retry, the policy answering this time
    assert failed >= 3


def test_a_failing_opponent_during_reset_leaves_no_game():
    flaky = _Flaky()
    env = BlackAngelSingleAgentEnv(num_players=2, seat=1, opponents=flaky)
    flaky.fail = "raise"
    with pytest.raises(RuntimeError, match="own bug"):
        env.reset(seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)                                    # a new reset plays
    env.step(int(np.flatnonzero(env.action_masks())[0]))


# --- MaskablePPO through SubprocVecEnv --------------------------------------------------------------------------

class _CheckedEnv(BlackAngelSingleAgentEnv):
    """Counts the actions taken that the mask forbade (there must be none)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.violations = 0
        self.steps_taken = 0

    def step(self, action):
        if not self.action_masks()[int(action)]:
            self.violations += 1
        self.steps_taken += 1
        return super().step(action)


def _make_checked(seed):
    def thunk():
        import torch
        torch.set_num_threads(1)
        env = _CheckedEnv(num_players=1)
        env.reset(seed=seed)
        return env
    return thunk


@pytest.mark.slow
def test_maskable_ppo_solo_never_takes_a_masked_action(tmp_path):
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import SubprocVecEnv

    torch.set_num_threads(1)
    venv = SubprocVecEnv([_make_checked(0), _make_checked(1)], start_method=safe_start_method("fork"))
    try:
        model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=256, batch_size=128, n_epochs=2, seed=0,
                                        policy_kwargs={"net_arch": [64, 64]}, verbose=0, device="cpu")
        model.set_logger(configure(str(tmp_path), []))
        model.learn(total_timesteps=2048)
        assert sum(venv.get_attr("violations")) == 0
        assert sum(venv.get_attr("steps_taken")) >= 2048
    finally:
        venv.close()


def test_render_modes_follow_gymnasium_convention():
    """Issue 15 item 7: SB3's ``make_vec_env`` asks for ``render_mode="rgb_array"``; the environment accepts the
    standard modes it cannot draw with a warning (as ``gymnasium.make`` does) and ``render()`` then returns None;
    an unknown mode is still refused."""
    from stable_baselines3.common.env_util import make_vec_env

    with pytest.warns(UserWarning, match="rgb_array"):
        venv = make_vec_env("BlackAngelSolo-v0", n_envs=2, seed=0)
    try:
        obs = venv.reset()
        assert obs.shape == (2, observation_size())
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    finally:
        venv.close()
    with pytest.warns(UserWarning):
        env = gym.make("BlackAngelSolo-v0", render_mode="rgb_array")
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert env.unwrapped.render() is None   # (gym.make's checker asserts on the mode instead)
    with pytest.raises(ValueError, match="render_mode"):
        BlackAngelSingleAgentEnv(render_mode="ansii")


@pytest.mark.parametrize("bad", [{"max_steps": 0}, {"max_steps": -5}, {"max_steps": 2.5}, {"max_steps": True},
                                 {"seat": True}, {"seat": 1.0}, {"reward": "dense"}, {"reward_scale": "x"},
                                 {"reward_scale": 0}, {"reward_scale": "0.1"}, {"reward_scale": True},
                                 {"illegal_reward": "x"}, {"illegal_reward": "-1"}, {"illegal_reward": True},
                                 {"illegal_reward": float("nan")}])
def test_bad_options_are_refused(bad):
    kw = {"num_players": 2, **bad}
    with pytest.raises(ValueError):
        BlackAngelSingleAgentEnv(**kw)


@pytest.mark.parametrize("options", [5, ["x"]])
def test_reset_refuses_options_that_are_not_a_dict(options):
    """``reset(options=5)`` was silently ignored; it is a TypeError, and the game in progress is left as it was."""
    e = gym.make("BlackAngelSolo-v0")
    e.reset(seed=0)
    before = e.unwrapped.game_state.copy()
    with pytest.raises(TypeError, match="options"):
        e.reset(seed=1, options=options)
    assert e.unwrapped.game_state == before


def test_reset_warns_of_option_keys_it_does_not_take():
    """The single-agent environment takes no reset options: keys are named in a warning and ignored (as
    ``raw_env.reset`` does with keys it does not know); an empty dict, what SB3's DummyVecEnv may pass, is none."""
    e = gym.make("BlackAngelSolo-v0")
    with pytest.warns(UserWarning, match="'x'"):
        e.reset(seed=1, options={"x": 1})
    first = e.unwrapped.game_state.copy()
    e.reset(seed=1, options={})
    assert e.unwrapped.game_state == first
    e.reset(seed=1, options=None)
