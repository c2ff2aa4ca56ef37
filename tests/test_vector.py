"""The vector environment (blackangel_env.vector) and its Stable-Baselines3 adapter
(blackangel_env.training.sb3_vec_env): shapes, equality with N separate Gymnasium environments, autoreset masks,
seeding, make_vec, bad inputs, and a short MaskablePPO run."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

import blackangel_env  # noqa: F401  (registers the Gymnasium ids)
from blackangel_env import IllegalActionError
from blackangel_env import actions as A
from blackangel_env.components import DEFAULT_PATH as DEFAULT_COMPONENTS
from blackangel_env.encoding import observation_size
from blackangel_env.gym_env import RandomPolicy
from blackangel_env.vector import BlackAngelVectorEnv

D = observation_size()
INFO_KEYS = ("action_mask", "illegal_action", "scores", "hal_score", "winners", "game_over")


def _masked_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


@pytest.mark.parametrize("kwargs,players", [({}, 1), ({"num_players": 3, "reward": "dense_margin"}, 3)])
def test_shapes_and_dtypes(kwargs, players):
    envs = BlackAngelVectorEnv(3, **kwargs)
    assert envs.num_envs == 3 and envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.observation_space.shape == (3, D) and envs.single_action_space == gym.spaces.Discrete(A.NUM_ACTIONS)
    assert envs.action_space == gym.spaces.MultiDiscrete([A.NUM_ACTIONS] * 3)
    obs, info = envs.reset(seed=0)
    for _ in range(2):
        assert obs.shape == (3, D) and obs.dtype == np.float32 and envs.observation_space.contains(obs)
        assert info["action_mask"].shape == (3, A.NUM_ACTIONS) and info["action_mask"].dtype == bool
        assert np.array_equal(envs.action_masks(), info["action_mask"])
        assert info["scores"].shape == (3, players) and info["scores"].dtype == np.int64
        assert info["winners"].shape == (3, players) and info["winners"].dtype == np.int8
        assert info["hal_score"].shape == (3,) and info["hal_score"].dtype == np.int64
        assert info["game_over"].shape == info["illegal_action"].shape == (3,)
        assert info["game_over"].dtype == info["illegal_action"].dtype == bool
        for key in INFO_KEYS:
            assert info[f"_{key}"].dtype == bool and info[f"_{key}"].all()
        obs, rew, term, trunc, info = envs.step(_masked_actions(info["action_mask"], np.random.default_rng(0)))
        assert rew.shape == term.shape == trunc.shape == (3,)
        assert rew.dtype == np.float64 and term.dtype == trunc.dtype == bool
    masks = envs.action_masks()
    masks[:] = False                                    # a copy: the environment's masks are untouched
    assert envs.action_masks().any(axis=1).all()
    envs.close()


@pytest.mark.parametrize("kwargs", [{"max_steps": 15, "reward": "dense_margin"}, {"reward": "vp"},
                                    {"hal_difficulty": "extreme", "advanced": True},
                                    {"components": str(DEFAULT_COMPONENTS)}])
def test_trajectories_equal_separate_gymnasium_envs(kwargs):
    """Same seeds (s + i) and actions: the same observations, rewards, terminations, truncations and masks as N
    ``gymnasium.make("BlackAngelSolo-v0")`` environments, through several episodes (next-step autoreset).  With a
    component file each game loads its own components, and the observations are encoded game by game instead of
    in one call over the batch (``SeatEncoder.fill_rows``)."""
    n, seed = 3, 11
    envs = BlackAngelVectorEnv(n, num_players=1, **kwargs)
    singles = [gym.make("BlackAngelSolo-v0", **kwargs) for _ in range(n)]
    obs, info = envs.reset(seed=seed)
    s_obs, s_mask, done = [], [], [False] * n
    for i, e in enumerate(singles):
        o, inf = e.reset(seed=seed + i)
        s_obs.append(o)
        s_mask.append(inf["action_mask"])
    rng = np.random.default_rng(5)
    episodes = illegal = 0
    for _ in range(150):
        assert np.array_equal(obs, np.stack(s_obs))
        assert np.array_equal(info["action_mask"], np.stack(s_mask))
        actions = _masked_actions(info["action_mask"], rng)
        if rng.random() < 0.2:                          # now and then an action the mask forbids
            i = int(rng.integers(n))
            forbidden = np.flatnonzero(~info["action_mask"][i])
            if len(forbidden):
                actions[i] = forbidden[0]
        obs, rew, term, trunc, info = envs.step(actions)
        s_infos = []
        for i, e in enumerate(singles):
            if done[i]:                                 # next-step autoreset: unseeded reset, action ignored
                s_obs[i], inf = e.reset()
                r, te, tr = 0.0, False, False
            else:
                s_obs[i], r, te, tr, inf = e.step(int(actions[i]))
            s_mask[i] = inf["action_mask"]
            s_infos.append(inf)
            assert rew[i] == r and term[i] == te and trunc[i] == tr, i
            done[i] = te or tr
            episodes += int(te or tr)
        # every info key as Gymnasium batches the single environments' infos: same keys, values and dtypes
        assert [k for k in info if not k.startswith("_")] == list(s_infos[0])
        for key in s_infos[0]:
            want = np.stack([inf[key] for inf in s_infos])
            assert info[key].dtype == want.dtype and np.array_equal(info[key], want), key
            assert info[f"_{key}"].all()
        illegal += int(info["illegal_action"].sum())
    assert episodes >= 6
    assert illegal >= 3


def test_table_with_opponent_policy_equals_separate_envs():
    """A 3-player table whose other seats are played by a given policy, against separate BlackAngel-v0 envs."""
    seed = 3
    policies = [RandomPolicy(7), RandomPolicy(7)]
    envs = BlackAngelVectorEnv(1, num_players=3, opponents=policies[0], max_steps=25)
    single = gym.make("BlackAngel-v0", num_players=3, opponents=policies[1], max_steps=25)
    obs, info = envs.reset(seed=seed)
    o, inf = single.reset(seed=seed)
    rng = np.random.default_rng(0)
    done, episodes = False, 0
    for _ in range(80):
        assert np.array_equal(obs[0], o) and np.array_equal(info["action_mask"][0], inf["action_mask"])
        a = _masked_actions(info["action_mask"], rng)
        obs, rew, term, trunc, info = envs.step(a)
        if done:
            o, inf = single.reset()
            r, te, tr = 0.0, False, False
        else:
            o, r, te, tr, inf = single.step(int(a[0]))
        assert (rew[0], term[0], trunc[0]) == (r, te, tr)
        done = te or tr
        episodes += int(done)
        for key in inf:
            assert info[key].dtype == inf[key].dtype and np.array_equal(info[key][0], inf[key]), key
    assert episodes >= 2


def test_two_player_games_report_the_winners_as_separate_envs():
    """Whole 2-player games (random opponent seat): each step's info, the winners at the end included, equals the
    info of separate ``BlackAngel-v0`` environments batched."""
    n, seed = 2, 21
    envs = BlackAngelVectorEnv(n, num_players=2)
    singles = [gym.make("BlackAngel-v0", num_players=2) for _ in range(n)]
    obs, info = envs.reset(seed=seed)
    for i, e in enumerate(singles):
        e.reset(seed=seed + i)
    rng = np.random.default_rng(2)
    done = [False] * n
    winners_seen = 0
    while sum(done) < n:
        actions = _masked_actions(info["action_mask"], rng)
        obs, rew, term, trunc, info = envs.step(actions)
        for i, e in enumerate(singles):
            if done[i]:
                continue
            o, r, te, tr, inf = e.step(int(actions[i]))
            assert np.array_equal(obs[i], o) and rew[i] == r and (term[i], trunc[i]) == (te, tr)
            for key in inf:
                assert info[key].dtype == inf[key].dtype and np.array_equal(info[key][i], inf[key]), key
            done[i] = te or tr
            winners_seen += int(inf["winners"].sum())
    assert winners_seen >= n                        # every game ended with at least one winner reported


def test_autoreset_masks_never_all_false_under_a_masked_sampler():
    envs = BlackAngelVectorEnv(4, max_steps=30)
    obs, info = envs.reset(seed=0)
    envs.single_action_space.seed(0)
    rng = np.random.default_rng(1)
    ended = truncated = illegal = 0
    for _ in range(200):
        masks = info["action_mask"]
        assert masks.any(axis=1).all()
        assert np.array_equal(masks, envs.action_masks())
        actions = np.array([envs.single_action_space.sample(mask=m.astype(np.int8)) for m in masks])
        actions[0] = rng.integers(0, A.NUM_ACTIONS)      # game 0: mostly forbidden ids, truncated at 30 steps
        obs, rew, term, trunc, info = envs.step(actions)
        ended += int(term.sum())
        truncated += int(trunc.sum())
        illegal += int(info["illegal_action"].sum())
        # a finished game's mask is all True (the reset step ignores the action)
        assert info["action_mask"][term | trunc].all()
    assert ended >= 2 and truncated >= 4 and illegal >= 50, (ended, truncated, illegal)


def test_same_step_autoreset():
    envs = BlackAngelVectorEnv(3, autoreset_mode="SameStep", max_steps=10)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=4)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(40):
        obs, rew, term, trunc, info = envs.step(_masked_actions(info["action_mask"], rng))
        done = term | trunc
        assert info["action_mask"].any(axis=1).all()
        if done.any():
            finished += int(done.sum())
            assert np.array_equal(info["_final_obs"], done) and np.array_equal(info["_final_info"], done)
            for i in np.flatnonzero(done):
                assert info["final_obs"][i].shape == (D,)
                assert not np.array_equal(info["final_obs"][i], obs[i])     # obs is the new game's
            assert all(info["final_obs"][i] is None for i in np.flatnonzero(~done))
            assert np.array_equal(info["final_info"]["_scores"], done)
            assert info["final_info"]["action_mask"][done].all()
        else:
            assert "final_obs" not in info
    assert finished >= 6


def test_seeding_is_reproducible():
    a, b = BlackAngelVectorEnv(3), BlackAngelVectorEnv(3)
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=[9, 10, 11])
    assert np.array_equal(oa, ob)
    assert [e.game_seed for e in a.envs] == [9, 10, 11]
    rng_a, rng_b = np.random.default_rng(2), np.random.default_rng(2)
    ia = ib = None
    for _ in range(3):                           # run the two through their masked samplers in lockstep
        ma, mb = a.action_masks(), b.action_masks()
        ra = a.step(_masked_actions(ma, rng_a))
        rb = b.step(_masked_actions(mb, rng_b))
        for x, y in zip(ra[:4], rb[:4]):
            assert np.array_equal(x, y)
        ia, ib = ra[4], rb[4]
    assert np.array_equal(ia["scores"], ib["scores"])
    o2, _ = a.reset(seed=9)
    assert np.array_equal(o2, oa)


def test_returned_batches_are_never_written_by_later_calls():
    envs = BlackAngelVectorEnv(4)
    first, _ = envs.reset(seed=3)
    kept = first.copy()
    rng = np.random.default_rng(0)
    returned = []
    for _ in range(6):
        obs, reward, term, trunc, info = envs.step(_masked_actions(envs.action_masks(), rng))
        returned.append((obs, obs.copy(), info["action_mask"], info["action_mask"].copy()))
    envs.reset(seed=4)
    envs.step(_masked_actions(envs.action_masks(), rng))
    assert np.array_equal(first, kept)
    for obs, obs_then, mask, mask_then in returned:
        assert np.array_equal(obs, obs_then) and np.array_equal(mask, mask_then)
    assert len({id(o) for o, *_ in returned}) == len(returned)


def test_a_failing_opponent_policy_puts_every_game_back():
    """The vector form of the single environment's rule: an opponent policy failing halfway through a step
    leaves every game (those stepped before it included) and the batches as they were."""
    state = {"calls": 0, "fail_at": None}

    def policy(observation, action_mask, s):
        state["calls"] += 1
        if state["fail_at"] is not None and state["calls"] >= state["fail_at"]:
            state["fail_at"] = None
            raise RuntimeError("policy failure")
        return int(np.flatnonzero(action_mask)[0])

    envs = BlackAngelVectorEnv(3, num_players=2, opponents=policy)
    envs.reset(seed=21)
    rng = np.random.default_rng(1)
    failures = 0
    for _ in range(25):
        acts = _masked_actions(envs.action_masks(), rng)
        games = [env.game_state.to_dict() for env in envs.envs]
        masks = envs.action_masks()
        state["fail_at"] = state["calls"] + 2          # fails once some game has moved, most steps
        try:
            envs.step(acts)
        except RuntimeError:
            failures += 1
            assert [env.game_state.to_dict() for env in envs.envs] == games
            assert np.array_equal(envs.action_masks(), masks)
            envs.step(acts)
    assert failures >= 5
    second = BlackAngelVectorEnv(2, num_players=2, seat=1, opponents=policy)   # seat 0 moves before the learner
    state["fail_at"] = state["calls"] + 1                # a reset that fails leaves no batch to step
    with pytest.raises(RuntimeError, match="policy failure"):
        second.reset(seed=5)
    with pytest.raises(RuntimeError, match="reset"):
        second.step(np.zeros(2, dtype=np.int64))
    second.reset(seed=5)
    second.step(_masked_actions(second.action_masks(), rng))


def test_make_vec_vector_entry_point():
    envs = gym.make_vec("BlackAngelSolo-v0", num_envs=2, vectorization_mode="vector_entry_point",
                        reward="margin", max_steps=5)
    assert isinstance(envs, BlackAngelVectorEnv) and envs.num_envs == 2
    assert envs.envs[0].reward_scheme == "margin" and envs.envs[0].max_steps == 5 and envs.envs[0].config.num_players == 1
    table = gym.make_vec("BlackAngel-v0", num_envs=2, vectorization_mode="vector_entry_point", num_players=4)
    obs, info = table.reset(seed=0)
    assert obs.shape == (2, D) and info["scores"].shape == (2, 4)
    sync = gym.make_vec("BlackAngelSolo-v0", num_envs=2, vectorization_mode="sync")
    assert type(sync).__name__ == "SyncVectorEnv"
    so, sinfo = sync.reset(seed=3)
    vo, vinfo = BlackAngelVectorEnv(2).reset(seed=3)
    assert np.array_equal(so, vo) and np.array_equal(sinfo["action_mask"], vinfo["action_mask"])


def test_bad_inputs_are_refused_and_change_nothing():
    for n in (0, -1, True, 2.0, "3", None):
        with pytest.raises(ValueError, match="num_envs"):
            BlackAngelVectorEnv(n)
    with pytest.raises(TypeError, match="unknown option.*'rewards'"):
        BlackAngelVectorEnv(2, rewards="win")
    with pytest.raises(TypeError, match="unknown option"):
        gym.make_vec("BlackAngelSolo-v0", num_envs=2, vectorization_mode="vector_entry_point", colour="red")
    with pytest.raises(ValueError, match="autoreset_mode"):
        BlackAngelVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match="reward"):
        BlackAngelVectorEnv(2, reward="money")              # the single environment's own checks
    envs, twin = BlackAngelVectorEnv(2), BlackAngelVectorEnv(2)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(RuntimeError, match="reset"):
        envs.action_masks()
    obs, info = envs.reset(seed=1)
    twin.reset(seed=1)
    good = _masked_actions(info["action_mask"], np.random.default_rng(0))
    bad = [good[:1], good.reshape(2, 1), good.astype(np.float64), good.astype(bool), np.array([good[0], 882]),
           np.array([-1, good[1]]), "ab", 3, [1.0, 2.0], [True, False], None,
           [int(good[0]), 2**70], [int(good[0]), np.uint64(2**64 - 1)], np.array([good[0], 2**64 - 1], np.uint64)]
    for actions in bad:
        with pytest.raises(IllegalActionError, match="action"):
            envs.step(actions)
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="no options.*reset_mask"):
        envs.reset(seed=1, options={"reset_mask": np.array([True, False])})
    assert np.array_equal(envs.action_masks(), info["action_mask"])
    out, ref = envs.step(good), twin.step(good)
    for x, y in zip(out[:4], ref[:4]):
        assert np.array_equal(x, y)
    out = envs.step([int(a) for a in _masked_actions(out[4]["action_mask"], np.random.default_rng(1))])
    assert out[0].shape == (2, D)                       # a list of Python ints is accepted


def test_sb3_adapter_masks_and_attributes():
    pytest.importorskip("stable_baselines3")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from blackangel_env.training.sb3_vec_env import BlackAngelSB3VecEnv

    venv = BlackAngelSB3VecEnv(3, seed=5, max_steps=8)
    assert is_masking_supported(venv)
    obs = venv.reset()
    assert obs.shape == (3, D) and [e.game_seed for e in venv.venv.envs] == [5, 6, 7]
    assert venv.get_attr("seat") == [0, 0, 0] and venv.env_is_wrapped(gym.Wrapper) == [False] * 3
    rng = np.random.default_rng(0)
    dones_seen = 0
    for _ in range(30):
        masks = get_action_masks(venv)
        assert masks.shape == (3, A.NUM_ACTIONS) and masks.dtype == bool and masks.any(axis=1).all()
        assert np.array_equal(masks[1], venv.env_method("action_masks", indices=1)[0])
        obs, rew, dones, infos = venv.step(_masked_actions(masks, rng))
        assert obs.shape == (3, D) and rew.shape == dones.shape == (3,) and len(infos) == 3
        for i in np.flatnonzero(dones):
            dones_seen += 1
            assert infos[i]["terminal_observation"].shape == (D,)
            assert infos[i]["TimeLimit.truncated"] == (not bool(infos[i]["game_over"]))
            assert "scores" in venv.reset_infos[i]
    assert dones_seen >= 6
    venv.set_attr("illegal_reward", -1.0, indices=[0])
    assert venv.get_attr("illegal_reward") == [-1.0, -0.1, -0.1]
    before = [e.game_state.to_dict() for e in venv.venv.envs]
    for bad in (np.zeros(2, int), np.zeros((3, 2), int), np.zeros((1, 3), int), np.zeros((3, 1, 1), int)):
        with pytest.raises(IllegalActionError, match=r"shape \(3,\)"):
            venv.step(bad)
    assert [e.game_state.to_dict() for e in venv.venv.envs] == before
    venv.step(np.zeros((3, 1), int))                           # (N, 1) is taken as (N,)
    venv.close()


def test_maskable_ppo_learns_on_the_sb3_adapter(training_sandbox):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from blackangel_env.training.sb3_vec_env import BlackAngelSB3VecEnv

    venv = BlackAngelSB3VecEnv(4, seed=0, reward="dense_margin", max_steps=30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=32, n_epochs=1, seed=0, verbose=0)
        model.learn(total_timesteps=128)
    assert model.num_timesteps == 128
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=np.stack(venv.env_method("action_masks")), deterministic=True)
    assert all(venv.venv.action_masks()[i, a] for i, a in enumerate(actions))


def test_a_refused_construction_leaves_nothing_that_fails_on_close():
    """A bad argument stops ``__init__``; Gymnasium's ``VectorEnv.__del__`` then calls ``close()`` on the half-built
    object, which must close quietly (here called directly, as ``__del__`` would)."""
    for bad in ({"num_envs": 0}, {"num_envs": 2, "autoreset_mode": "disabled"}, {"num_envs": 2, "reward": "money"}):
        env = BlackAngelVectorEnv.__new__(BlackAngelVectorEnv)
        with pytest.raises(ValueError):
            env.__init__(**bad)
        env.close()
        assert env.closed
