"""The PettingZoo AEC environment: PettingZoo's own test suites, equivalence with the engine, masks, rewards,
illegal actions, seeding."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

import blackangel_env
from blackangel_env import IllegalActionError, engine
from blackangel_env import actions as A
from blackangel_env.config import GameConfig
from blackangel_env.state import BOT, M_TURN_PLAYER, PH_OWNER, PH_SETUP_RESERVE

CONFIGS = [(n, adv) for n in (1, 2, 3, 4) for adv in (False, True)]


@pytest.mark.parametrize("n,advanced", CONFIGS)
def test_pettingzoo_api_seed_and_render_tests(n, advanced, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # PettingZoo warns about Dict observations, as for its own envs
        api_test(blackangel_env.env(num_players=n, advanced=advanced), num_cycles=40)
        seed_test(lambda: blackangel_env.env(num_players=n, advanced=advanced), num_cycles=15)
        render_test(lambda render_mode=None: blackangel_env.env(num_players=n, advanced=advanced,
                                                                 render_mode=render_mode))
    capsys.readouterr()


def test_metadata_spaces_and_agents():
    e = blackangel_env.raw_env(num_players=3)
    assert e.metadata["name"] == "black_angel_v0"
    assert e.metadata["is_parallelizable"] is False
    assert set(e.metadata["render_modes"]) == {"ansi", "human"}
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    for a in e.possible_agents:
        assert e.observation_space(a) is e.observation_space(a)
        assert e.action_space(a) is e.action_space(a)
        assert e.action_space(a).n == A.NUM_ACTIONS
    solo = blackangel_env.raw_env(num_players=1)
    assert solo.possible_agents == ["player_0"]


def test_pettingzoo_registry_make():
    import pettingzoo
    if not hasattr(pettingzoo, "make"):
        pytest.skip("this PettingZoo has no registry")
    e = pettingzoo.make("aec", "blackangel/black_angel_v0", num_players=3, advanced=True)
    e.reset(seed=3)
    assert e.unwrapped.config == GameConfig(num_players=3, advanced=True)
    e2 = pettingzoo.make("aec", "blackangel/black_angel-v0", max_cycles=5, num_players=2)
    assert e2.unwrapped.max_steps == 5


def test_masks_exact_for_the_actor_zero_for_others_and_state():
    e = blackangel_env.env(num_players=4)
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    raw = e.unwrapped
    while not raw.game_state.terminal:
        s = raw.game_state
        actor = f"player_{s.actor}"
        assert e.agent_selection == actor
        for a in e.agents:
            mask = e.observe(a)["action_mask"]
            assert mask.dtype == np.int8
            if a == actor:
                assert np.array_equal(mask, engine.legal_mask(s))
            else:
                assert not mask.any()
        st = e.state()
        assert st.shape == raw.state_space.shape and st.dtype == np.float32
        legal = np.flatnonzero(e.observe(actor)["action_mask"])
        e.step(int(rng.choice(legal)))
    for a in e.agents:
        assert not e.observe(a)["action_mask"].any()


def _play_env(e, seed, rng):
    """Random legal play through an AEC env; returns the actions, the sum of rewards seen by each agent, and
    the agents in the order they acted."""
    e.reset(seed=seed)
    actions, total, order = [], {a: 0.0 for a in e.possible_agents}, []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(legal[int(rng.random() * len(legal))])
        actions.append(a)
        order.append(agent)
        e.step(a)
    return actions, total, order


@pytest.mark.parametrize("n,advanced", CONFIGS)
def test_aec_play_equals_engine_play(n, advanced):
    """Same seed and actions through env() and through the engine: identical final states and scores."""
    seed = 500 + n + 10 * advanced
    e = blackangel_env.env(num_players=n, advanced=advanced)
    actions, total, order = _play_env(e, seed, np.random.default_rng(seed))
    final = e.unwrapped.game_state
    s = engine.new_game(GameConfig(num_players=n, advanced=advanced), seed=seed)
    for agent, a in zip(order, actions):
        assert agent == f"player_{s.actor}"
        engine.apply(s, a)
    assert s.terminal and final.terminal
    assert s == final                     # buffer and random generator
    assert engine.final_scores(s) == engine.final_scores(final)
    won = engine.winners(s)
    for p in range(n):                    # the default "win" reward: +1 for every (tied) winner, -1 otherwise
        assert total[f"player_{p}"] == (1.0 if p in won else -1.0)


def test_reset_seed_reproduces_and_unseeded_reset_follows_the_seeded_generator():
    a, b = blackangel_env.raw_env(num_players=3), blackangel_env.raw_env(num_players=3)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.game_state == b.game_state
    a.reset()
    b.reset()
    assert a.game_seed == b.game_seed and a.game_state == b.game_state
    c = blackangel_env.raw_env(num_players=3)
    c.reset(seed=6)
    assert c.game_state != a.game_state


def test_raw_env_illegal_action_raises_and_changes_nothing():
    e = blackangel_env.raw_env(num_players=2)
    e.reset(seed=1)
    before = e.game_state.copy()
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        e.step(bad)
    assert e.game_state == before
    assert e.num_steps == 0 and not any(e.terminations.values())


def test_wrapped_env_illegal_action_terminates_with_penalty_and_message():
    e = blackangel_env.env(num_players=3)
    e.reset(seed=2)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(bad)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1 and all(e.rewards[a] == 0 for a in e.agents if a != agent)
    assert e.infos[agent]["illegal_action"]
    assert not any(e.infos[a]["illegal_action"] for a in e.agents if a != agent)
    assert "illegal action" in e.illegal_action_message and str(bad) in e.illegal_action_message
    seen = {}
    for a in e.agent_iter():
        _, reward, term, trunc, _ = e.last()
        assert term
        seen[a] = reward
        e.step(None)
    assert e.agents == [] and set(seen) == set(e.possible_agents)
    assert seen[agent] == -1 and all(v == 0 for a, v in seen.items() if a != agent)
    e.reset(seed=2)
    before = e.unwrapped.game_state.copy()
    for bad in (A.NUM_ACTIONS + 5, -1, 3.5, "x", None):
        with pytest.raises(AssertionError) as info:         # as PettingZoo's AssertOutOfBoundsWrapper
            e.step(bad)
        assert isinstance(info.value, blackangel_env.IllegalActionError)    # and as raw_env's refusals
        assert repr(bad) in str(info.value) or bad is None
        assert e.agent_selection in str(info.value) and "action space" in str(info.value)
    assert e.unwrapped.game_state == before



def _standard_wrappers(**kwargs):
    """``raw_env`` behind PettingZoo's own standard wrappers (what ``env()`` reproduces in one layer)."""
    from pettingzoo.utils import wrappers

    e = wrappers.TerminateIllegalWrapper(blackangel_env.raw_env(**kwargs), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))


def _comparable(infos: dict) -> str:
    """The infos without ``illegal_action`` (``env()`` names the action there; PettingZoo's wrapper does not)."""
    return repr({a: {k: v for k, v in i.items() if k != "illegal_action"} for a, i in infos.items()})


@pytest.mark.parametrize("n", [1, 2, 4])
def test_env_matches_pettingzoo_standard_wrappers_step_for_step(n):
    """Issue 16 item 7: ``env()`` (one layer, no private field of PettingZoo's classes written) gives the same
    observations, masks, rewards, terminations, truncations and infos as ``raw_env`` behind PettingZoo's
    TerminateIllegalWrapper, AssertOutOfBoundsWrapper and OrderEnforcingWrapper, through legal actions, numpy
    integer actions, a step without a preceding ``last()``, an illegal action, an action outside the space,
    truncation and the dead agents' steps."""
    for seed, illegal_at, max_steps in ((1, None, None), (2, 25, None), (3, None, 30)):
        fast, slow = (f(num_players=n, reward="dense_margin", max_steps=max_steps)
                      for f in (blackangel_env.env, _standard_wrappers))
        rng = np.random.default_rng(seed)
        ended_illegally = False
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for e in (fast, slow):
                e.reset(seed=seed)
            for k, (agent, other) in enumerate(zip(fast.agent_iter(), slow.agent_iter()), start=1):
                assert agent == other
                skip_last = k % 7 == 3
                if not skip_last:
                    got, want = fast.last(), slow.last()
                    assert got[0]["observation"].tobytes() == want[0]["observation"].tobytes()
                    if not ended_illegally:    # PettingZoo's wrapper leaves the raw env's cached mask stale then
                        assert got[0]["action_mask"].tobytes() == want[0]["action_mask"].tobytes()
                    assert repr(got[1:4]) == repr(want[1:4])
                    assert _comparable({agent: got[4]}) == _comparable({agent: want[4]})
                    done = got[2] or got[3]
                else:
                    done = fast.terminations[agent] or fast.truncations[agent]
                if done:
                    action = None
                else:
                    mask = fast.unwrapped.observe(agent)["action_mask"]
                    if k == 10:                       # outside the space: an assertion, nothing changes
                        for e in (fast, slow):
                            with pytest.raises(AssertionError, match="action space"):
                                e.step(A.NUM_ACTIONS)
                    if k == illegal_at:
                        action = int(np.flatnonzero(mask == 0)[0])
                        ended_illegally = True
                    else:
                        legal = np.flatnonzero(mask)
                        action = legal[int(rng.random() * len(legal))]
                        action = int(action) if k % 2 else action          # numpy integers too
                fast.step(action)
                slow.step(action)
                for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
                    assert repr(getattr(fast.unwrapped, name)) == repr(getattr(slow.unwrapped, name)), name
                assert _comparable(fast.unwrapped.infos) == _comparable(slow.unwrapped.infos)
        assert fast.agents == slow.agents == []
        assert fast.unwrapped.game_state == slow.unwrapped.game_state


def test_env_writes_no_private_field_of_pettingzoo_and_gym_view_imports_no_pettingzoo_helper():
    """Issue 16 item 7, checked on the source: ``env()`` subclasses only PettingZoo's public BaseWrapper and sets
    none of the private fields of PettingZoo's wrappers; the Gymnasium view imports nothing from the PettingZoo
    module."""
    import ast
    import inspect

    from pettingzoo.utils import wrappers

    from blackangel_env import gym_env, pettingzoo_env

    wrapped = blackangel_env.env(num_players=2)
    for cls in type(wrapped).__mro__:
        assert cls not in (wrappers.OrderEnforcingWrapper, wrappers.TerminateIllegalWrapper,
                           wrappers.AssertOutOfBoundsWrapper)
    private = {"_prev_obs", "_prev_info", "_has_updated", "_has_reset", "_illegal_value", "_terminated"}
    tree = ast.parse(inspect.getsource(pettingzoo_env))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            assert node.attr not in private, node.attr
    imports = [node for node in ast.walk(ast.parse(inspect.getsource(gym_env)))
               if isinstance(node, ast.ImportFrom)]
    assert imports and not any("pettingzoo" in (node.module or "") for node in imports)


def test_raw_env_calls_before_reset_raise_a_clear_error():
    """Issue 15 item 4: ``observe`` / ``state`` / ``legal_actions`` (and ``step``, ``render``) before ``reset``
    raised AttributeError on None."""
    e = blackangel_env.raw_env(num_players=2, render_mode="ansi")
    for call in (lambda: e.observe("player_0"), e.state, e.legal_actions, lambda: e.step(0), e.render):
        with pytest.raises(RuntimeError, match=r"reset\(\)"):
            call()
    e.reset(seed=0)
    assert e.legal_actions() and e.state().shape == e.state_space.shape


@pytest.mark.parametrize("bad", [{"max_cycles": -5}, {"max_cycles": 0}, {"max_steps": -1}, {"max_steps": 2.5},
                                 {"max_cycles": True}, {"max_steps": "10"}, {"reward_scale": "x"},
                                 {"reward_scale": "0.1"}, {"reward_scale": True}, {"render_viewer": 1.0}])
def test_bad_step_limits_and_options_are_refused(bad):
    """Issue 15 item 4: ``max_cycles=-5`` was accepted (and ignored)."""
    with pytest.raises(ValueError):
        blackangel_env.raw_env(num_players=2, **bad)


def test_max_steps_truncates_every_agent():
    e = blackangel_env.env(num_players=3, max_steps=7)
    _, total, order = _play_env(e, 4, np.random.default_rng(0))
    assert len(order) == 7
    assert all(v == 0 for v in total.values())


def test_vp_rewards_sum_to_the_vp_gained():
    for n in (1, 3, 4):
        e = blackangel_env.env(num_players=n, reward="vp")
        _, total, _ = _play_env(e, 30 + n, np.random.default_rng(n))
        s = e.unwrapped.game_state
        start = engine.new_game(GameConfig(num_players=n), seed=30 + n)
        for p in range(n):
            assert total[f"player_{p}"] == pytest.approx(0.02 * (int(s.vp[p]) - int(start.vp[p])))


def test_margin_rewards():
    e = blackangel_env.env(num_players=3, reward="margin", reward_scale=0.1)
    _, total, _ = _play_env(e, 8, np.random.default_rng(8))
    scores = engine.final_scores(e.unwrapped.game_state)
    for p in range(3):
        best = max(v for q, v in enumerate(scores) if q != p)
        assert total[f"player_{p}"] == pytest.approx(0.1 * (scores[p] - best))
    solo = blackangel_env.env(num_players=1, reward="margin")
    _, total, _ = _play_env(solo, 9, np.random.default_rng(9))
    s = solo.unwrapped.game_state
    assert total["player_0"] == pytest.approx(0.02 * (int(s.vp[0]) - int(s.vp[BOT])))


def test_setup_reservations_are_out_of_turn_decisions():
    """4 players: the 3rd and 4th players choose their free reservation before player_0's first turn."""
    e = blackangel_env.env(num_players=4)
    e.reset(seed=0)
    s = e.unwrapped.game_state
    assert s.phase == PH_SETUP_RESERVE and int(s.m[M_TURN_PLAYER]) == 0
    assert e.agent_selection == f"player_{s.actor}" != "player_0"


def test_rewards_accumulate_across_an_owner_decision_out_of_turn():
    """Player 0 activates player 1's card three times (+3 VP); player 1, the owner, decides out of turn and
    activates it once more (+1 VP). With the per-step VP reward, each agent's last() returns exactly what
    happened to it since its own previous decision."""
    from helpers import checked, clear_dice, clear_ravagers, give_die, mission_to_space, ship_to, start_a2

    s = game(4, seed=0)                      # card 1 (orange, "1 ship + 1 VP") in Space, owned by player 1
    clear_ravagers(s)
    clear_dice(s)
    mission_to_space(s, 1, 1, 22)
    ship_to(s, 0, 22)
    d = give_die(s, 0, 0, 3)                 # player 0: an orange 3 and a ship on the card
    start_a2(s, 0)
    checked(s)
    e = blackangel_env.env(num_players=4, reward="vp", reward_scale=1.0)
    e.reset(options={"state": s})
    assert e.agent_selection == "player_0"
    e.step(A.encode("SELECT_DIE", d))
    e.step(A.encode("MISSION_ACTION", 1))
    seen = []
    for _ in range(3):
        assert e.agent_selection == "player_0"
        seen.append(e.last()[1])
        e.step(A.ACTIVATE)
    assert seen == [0.0, 1.0, 1.0]                           # each activation's VP, at player 0's next decision
    assert e.unwrapped.game_state.phase == PH_OWNER
    assert e.agent_selection == "player_1"
    _, reward, _, _, _ = e.last()
    assert reward == 0.0                                     # player 0's gains are not player 1's
    assert e._cumulative_rewards["player_0"] == 1.0          # the third activation, waiting for player 0
    e.step(A.ACTIVATE)                                       # the owner's free activation (+1 VP)
    assert e.agent_selection == "player_1"                   # and then it is player 1's turn
    _, reward, _, _, _ = e.last()
    assert reward == 1.0
    assert e._cumulative_rewards["player_0"] == 1.0          # unchanged by the owner's decision


def test_render_modes_and_pickling(capsys):
    e = blackangel_env.env(num_players=2, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "BLACK ANGEL" in text
    h = blackangel_env.env(num_players=1, render_mode="human")
    h.reset(seed=0)
    assert h.render() is None
    assert "BLACK ANGEL" in capsys.readouterr().out
    r = pickle.loads(pickle.dumps(blackangel_env.raw_env(num_players=3, advanced=True, reward="vp")))
    assert r.config == GameConfig(num_players=3, advanced=True) and r.reward_scheme == "vp"


def test_bad_options_are_rejected():
    with pytest.raises(ValueError):
        blackangel_env.raw_env(num_players=5)
    with pytest.raises(ValueError):
        blackangel_env.raw_env(reward="score")
    with pytest.raises(ValueError):
        blackangel_env.raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError):
        blackangel_env.raw_env(max_steps=0)


@pytest.mark.parametrize("maker", [blackangel_env.env, blackangel_env.raw_env])
def test_an_unknown_agent_is_named_with_the_valid_ones(maker):
    """``observe("player_9")``, ``observation_space("x")`` and ``action_space("x")`` raised a bare KeyError.  The
    error is still a KeyError (a lookup in the dicts of agents), and a ValueError."""
    from blackangel_env.pettingzoo_env import UnknownAgentError
    e = maker(num_players=2)
    e.reset(seed=0)
    for call in (lambda: e.observe("player_9"), lambda: e.observe("zzz"), lambda: e.observation_space("x"),
                 lambda: e.action_space("x"), lambda: e.observe(["x"]), lambda: e.observe(0)):   # unhashable, int
        with pytest.raises(UnknownAgentError, match="unknown agent .*; the agents of this 2-player environment are "
                                                    "player_0, player_1") as info:
            call()
        assert isinstance(info.value, KeyError) and isinstance(info.value, ValueError)
    assert e.observation_space("player_1") is e.unwrapped.observation_spaces["player_1"]


def _other_components(tmp_path):
    """A component file with one more display slot (a longer observation than the packaged data's)."""
    from pathlib import Path
    src = Path(blackangel_env.__file__).parent / "data" / "components.yaml"
    path = tmp_path / "nine_slots.yaml"
    path.write_text(src.read_text(encoding="utf-8").replace("value: [2, 2, 1, 1, 1, 1, 1, 1]",
                                                            "value: [2, 2, 1, 1, 1, 1, 1, 1, 1]"), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("maker", [blackangel_env.env, blackangel_env.raw_env])
def test_reset_refuses_a_start_state_of_another_game_and_unknown_options(maker, tmp_path):
    """A start state built with other component data (another observation length than the spaces') was accepted
    (refused now, the game going on as it was), and unknown options keys silently ignored.  A state of another Hal
    difficulty is a game of this environment (the difficulty only set Hal's starting VP, which the state holds)."""
    e = maker(num_players=1)
    e.reset(seed=4)
    raw = e.unwrapped
    before, obs = raw.game_state.copy(), e.observe("player_0")["observation"]
    cases = [({"state": engine.new_game(GameConfig(num_players=1, components=_other_components(tmp_path)), seed=1)},
              "other component data"),
             ({"state": engine.new_game(GameConfig(num_players=2), seed=1)}, "2 player")]
    for options, words in cases:
        with pytest.raises(ValueError, match=words):
            e.reset(options=options)
        assert raw.game_state == before and np.array_equal(e.observe("player_0")["observation"], obs)
    easy = engine.new_game(GameConfig(num_players=1, hal_difficulty="easy"), seed=1)
    e.reset(options={"state": easy})
    assert raw.game_state == easy
    same = engine.new_game(GameConfig(num_players=1), seed=1)          # a state of this environment's game
    e.reset(options={"state": same})
    assert raw.game_state == same
    # a misspelt key is named in a warning, not an error: PettingZoo's api_test resets with {"options": 1}
    with pytest.warns(UserWarning, match="unknown option.*'stat' ignored; the options are 'state'"):
        e.reset(seed=2, options={"stat": same})
    assert raw.game_state != same
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e.reset(seed=2, options={})


@pytest.mark.parametrize("make", [blackangel_env.env, blackangel_env.raw_env])
def test_a_deep_copy_plays_on_as_the_original_and_apart_from_it(make):
    """``copy.deepcopy`` of an environment in the middle of a game (search clients copy environments): the copy
    has the same game and plays on exactly as the original, and stepping one leaves the other as it was."""
    import copy
    env = make(num_players=3, reward="dense_margin")
    env.reset(seed=4)
    rng = np.random.default_rng(0)

    def move(e, r):
        if not e.agents:
            return
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(r.choice(np.flatnonzero(obs["action_mask"]))))

    for _ in range(20):
        move(env, rng)
    twin = copy.deepcopy(env)
    before = env.game_state.to_dict()
    for _ in range(10):                                  # the copy moves, the original does not change
        move(twin, rng)
    assert env.game_state.to_dict() == before
    twin = copy.deepcopy(env)
    r1, r2, steps = np.random.default_rng(9), np.random.default_rng(9), 0
    while env.agents:
        assert twin.agents == env.agents and twin.agent_selection == env.agent_selection
        for a in env.agents:
            o1, o2 = env.observe(a), twin.observe(a)
            assert np.array_equal(o1["observation"], o2["observation"])
            assert np.array_equal(o1["action_mask"], o2["action_mask"])
        assert env.rewards == twin.rewards and env._cumulative_rewards == twin._cumulative_rewards
        move(env, r1)
        move(twin, r2)
        steps += 1
    assert not twin.agents and steps > 10
    assert engine.final_scores(env.game_state) == engine.final_scores(twin.game_state)
    fresh = copy.deepcopy(make(num_players=2))            # before any reset: a copy that needs its reset too
    fresh.reset(seed=1)
    assert fresh.agents == ["player_0", "player_1"]
