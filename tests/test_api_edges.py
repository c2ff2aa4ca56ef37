"""Edges of the public API that a user's code meets: action forms the spaces accept, arrays handed out by
``observe``, the solo Gymnasium id, argument checks of ``resample_hidden`` and ``State.reseed``, the forms a saved
state, a game record and a config may take, and rewards in corner cases (a finished game as a starting state, an
episode truncated before any legal step)."""

from __future__ import annotations

import json
import os
import warnings

import gymnasium as gym
import numpy as np
import pytest

import blackangel_env
from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.cli import load_record
from blackangel_env.config import ConfigError, GameConfig
from blackangel_env.outcome import margins
from blackangel_env.state import State, StateError


def _played(n: int, steps: int, seed: int = 3) -> State:
    s = engine.new_game(num_players=n, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if s.terminal:
            break
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    return s


@pytest.mark.parametrize("maker", [blackangel_env.env, blackangel_env.raw_env])
def test_pettingzoo_step_takes_a_0d_integer_array(maker):
    """A 0-d integer array is inside ``Discrete(882)`` (Gymnasium's ``contains``): it is played as its id."""
    e, ref = maker(num_players=2), maker(num_players=2)
    e.reset(seed=0)
    ref.reset(seed=0)
    for _ in range(20):
        agent = e.agent_selection
        legal = np.flatnonzero(e.observe(agent)["action_mask"])
        a = int(legal[0])
        assert e.action_space(agent).contains(np.array(a))
        e.step(np.array(a, dtype=np.int32))
        ref.step(a)
        assert e.game_state == ref.game_state


def test_observe_hands_out_arrays_of_the_callers_own():
    """Changing what ``observe`` / ``last`` returned changes neither later observations nor ``env()``'s check of
    an illegal action (which still ends the game with the penalty)."""
    e = blackangel_env.env(num_players=2)
    e.reset(seed=0)
    agent = e.agent_selection
    obs, *_ = e.last()
    want_obs, want_mask = obs["observation"].copy(), obs["action_mask"].copy()
    obs["observation"] *= 0.5
    obs["action_mask"][:] = 1
    again = e.observe(agent)
    assert np.array_equal(again["observation"], want_obs) and np.array_equal(again["action_mask"], want_mask)
    illegal = int(np.flatnonzero(want_mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


def test_a_finished_game_given_as_the_start_reports_its_rewards_through_last():
    s = _played(2, 100_000, seed=1)
    assert s.terminal
    won = set(engine.winners(s))
    e = blackangel_env.env(num_players=2, reward="win")
    e.reset(options={"state": s})
    seen = {}
    for agent in e.agent_iter():
        _, reward, term, _, _ = e.last()
        assert term
        seen[agent] = reward
        e.step(None)
    assert seen == {f"player_{p}": (1.0 if p in won else -1.0) for p in range(2)}


def test_the_solo_id_refuses_another_player_count():
    """``BlackAngelSolo-v0`` is the solo game (docs/integrations.md): ``num_players`` 2-4 is refused, by
    ``make`` and by ``make_vec``; 1 is accepted."""
    for n in (2, 3, 4, 0, "1"):
        with pytest.raises(ValueError, match="BlackAngelSolo-v0 is the solo game"):
            gym.make("BlackAngelSolo-v0", num_players=n)
        with pytest.raises(ValueError, match="BlackAngelSolo-v0 is the solo game"):
            gym.make_vec("BlackAngelSolo-v0", num_envs=2, vectorization_mode="vector_entry_point", num_players=n)
    env = gym.make("BlackAngelSolo-v0", num_players=1)
    assert env.unwrapped.config.num_players == 1
    vec = gym.make_vec("BlackAngelSolo-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert vec.reset(seed=0)[1]["scores"].shape == (2, 1)


def test_dense_margin_rewards_add_up_when_truncated_before_any_legal_step():
    """The reward earned before the learner's first decision (Hal's starting VP) is paid by the truncating step
    if no legal step paid it: the rewards add up to the margin at the cut plus the penalties."""
    e = gym.make("BlackAngelSolo-v0", reward="dense_margin", hal_difficulty="extreme", max_steps=2,
                 illegal_reward=0.0001)
    _, info = e.reset(seed=0)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    total, steps = 0.0, 0
    while True:
        _, r, te, tr, info = e.step(illegal)
        total += r
        steps += 1
        if te or tr:
            break
    assert steps == 2 and tr
    assert total == pytest.approx(0.02 * margins(e.unwrapped.game_state)[0] + 2 * 0.0001)


@pytest.mark.parametrize("seat", [7, -1, 3, "1", 1.0, None, True])
def test_resample_hidden_refuses_a_seat_that_is_not_a_player(seat):
    s = _played(3, 6)
    before = s.copy()
    with pytest.raises(ValueError, match="seat must be a player seat 0..2"):
        engine.resample_hidden(s, seat, np.random.default_rng(0))
    assert s == before


@pytest.mark.parametrize("rng", [None, 5, np.random.RandomState(0)])
def test_resample_hidden_refuses_a_generator_of_another_kind(rng):
    s = _played(3, 6)
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        engine.resample_hidden(s, 1, rng)
    t = engine.resample_hidden(s, np.int64(1), np.random.default_rng(0))      # numpy integer seats are seats
    assert t.num_players == 3


@pytest.mark.parametrize("seed", [np.random.default_rng(0), np.random.MT19937(0), 1.5, "7", True])
def test_reseed_refuses_what_would_not_be_the_games_own_pcg64(seed):
    """``reseed`` takes a seed (int, SeedSequence, None): a generator object would be shared with the caller,
    and another bit generator could not be copied or saved."""
    s = _played(1, 5)
    before = s.rng_state()
    with pytest.raises(TypeError, match="reseed: seed must be"):
        s.reseed(seed)
    assert s.rng_state() == before
    for good in (3, np.int64(3), np.random.SeedSequence(3), None):
        t = s.copy()
        t.reseed(good)
        assert State.from_dict(t.to_dict()) == t


@pytest.mark.parametrize("version", [True, 1.0, "1", 2])
def test_a_saved_state_of_another_version_form_is_refused(version):
    d = _played(2, 5).to_dict()
    d["version"] = version
    with pytest.raises(StateError, match="unsupported saved-state version"):
        State.from_dict(d)


def test_an_empty_components_path_is_refused():
    with pytest.raises(ConfigError, match="components must be a path string or None"):
        GameConfig(components="")
    d = _played(1, 3).to_dict()
    d["config"]["components"] = ""
    with pytest.raises(StateError, match="bad config"):
        State.from_dict(d)


def test_config_takes_numpy_integers_and_bools_as_python_ones():
    c = GameConfig(num_players=np.int64(3), advanced=np.bool_(True))
    assert c == GameConfig(num_players=3, advanced=True)
    assert type(c.num_players) is int and type(c.advanced) is bool
    json.dumps(c.to_dict())
    with pytest.raises(ConfigError):
        GameConfig(num_players=np.float64(3))


@pytest.mark.parametrize("bad", [1.0, None, True, "3"])
def test_action_to_string_names_a_non_integer_id(bad):
    with pytest.raises(TypeError, match="an action id must be an integer"):
        A.action_to_string(bad)
    assert A.action_to_string(np.int64(0)) == A.action_to_string(0)


@pytest.mark.parametrize("version", [99, True, "1"])
def test_a_game_record_of_another_version_is_refused(tmp_path, version):
    path = tmp_path / "game.json"
    record = {"format": "blackangel_env.game", "version": version, "config": GameConfig().to_dict(), "seed": 1,
              "actions": []}
    path.write_text(json.dumps(record))
    with pytest.raises(ValueError, match="unsupported game-record version"):
        load_record(str(path))
    record["version"] = 1
    path.write_text(json.dumps(record))
    assert load_record(str(path))[1] == 1


@pytest.mark.parametrize("seed", [-1, "a", 1.5, True, [1, 2]])
def test_new_game_refuses_a_bad_seed_naming_it(seed):
    with pytest.raises(ValueError, match=r"new_game: seed must be a non-negative integer or None"):
        engine.new_game(num_players=2, seed=seed)


def test_new_game_takes_numpy_integer_seeds():
    a = engine.new_game(num_players=2, seed=np.int64(7))
    assert a == engine.new_game(num_players=2, seed=7)


def test_state_restore_puts_a_position_back_in_place():
    """``State.restore(copy)``: the same object holds the copied position again (buffer, generator, log), its
    named views still read its own buffer, and the game goes on exactly as from the copy."""
    import numpy as np

    from blackangel_env import engine

    s = engine.new_game(num_players=3, seed=17, log=True)
    rng = np.random.default_rng(0)
    for _ in range(20):
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    saved = s.copy(keep_log=True)
    vp_view, log_len = s.vp, len(s.log)
    for _ in range(15):
        legal = engine.legal_actions(s)
        if not legal:
            break
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    s.restore(saved)
    assert s == saved and len(s.log) == log_len and s.vp is vp_view
    twin = saved.copy()
    for _ in range(40):
        if s.terminal:
            break
        legal = engine.legal_actions(s)
        assert legal == engine.legal_actions(twin)
        a = legal[-1]
        engine.apply(s, a)
        engine.apply(twin, a)
    assert s == twin
    import pytest
    with pytest.raises(TypeError):
        s.restore(s.to_dict())


@pytest.mark.parametrize("seed", [True, 1.5, -1, "3", np.float64(2.0)])
def test_environment_resets_refuse_a_seed_new_game_refuses(seed):
    """The environments take the seeds ``new_game`` takes (numpy integers included, bools and floats not): a bad
    one raised gymnasium's own error, was silently rounded or read as 1, or (PettingZoo ``env()``) left the
    wrapper marked as reset."""
    makers = [lambda: gym.make("BlackAngelSolo-v0"), lambda: blackangel_env.raw_env(num_players=2),
              lambda: blackangel_env.env(num_players=2)]
    for make in makers:
        e = make()
        with pytest.raises(ValueError, match="seed must be a non-negative integer"):
            e.reset(seed=seed)
    e = blackangel_env.env(num_players=2)
    with pytest.raises(ValueError):
        e.reset(seed=seed)
    with pytest.raises(Exception, match="reset"):        # still asks for a reset
        e.observe("player_0")


def test_environment_resets_take_numpy_integer_seeds():
    for e in (gym.make("BlackAngelSolo-v0"), blackangel_env.raw_env(num_players=2)):
        e.reset(seed=np.int64(3))
    a = blackangel_env.raw_env(num_players=2)
    b = blackangel_env.raw_env(num_players=2)
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a.state().tobytes() == b.state().tobytes()


def test_raw_env_reset_refuses_options_that_are_not_a_dict():
    e = blackangel_env.raw_env(num_players=2)
    with pytest.raises(TypeError, match="options must be a dict"):
        e.reset(options=5)


@pytest.mark.parametrize("seed", [[1, 2, 3.7], [1, 2, "3"], [1, 2, True], [0, 1, -1], -1])
def test_vector_reset_checks_every_seed_before_any_game_resets(seed):
    """A list with a float, a string or a bool (silently converted) or a negative seed (games 0 and 1 were reset,
    then the batch was lost) is refused before any game changes; the batch steps on."""
    from blackangel_env.vector import BlackAngelVectorEnv
    v = BlackAngelVectorEnv(3)
    v.reset(seed=10)
    before = [e._state.buf.copy() for e in v.envs]
    with pytest.raises(ValueError, match="seed"):
        v.reset(seed=seed)
    assert all(np.array_equal(e._state.buf, b) for e, b in zip(v.envs, before))
    v.step(np.array([int(np.flatnonzero(m)[0]) for m in v.action_masks()]))


@pytest.mark.parametrize("maker", [blackangel_env.raw_env, blackangel_env.env])
def test_stepping_after_every_agent_is_done_says_to_reset(maker):
    """``raw_env``: ``step`` and ``last`` once every agent has taken its last step raised a bare KeyError; ``env()``
    keeps PettingZoo's warning for ``step`` and says to reset for ``last``."""
    e = maker(num_players=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert not e.agents
    with pytest.raises(RuntimeError, match="reset"):
        e.last()
    if maker is blackangel_env.raw_env:
        with pytest.raises(RuntimeError, match="reset"):
            e.step(None)
    e.reset(seed=2)
    assert e.agents


def test_render_viewer_takes_a_numpy_integer_seat():
    e = blackangel_env.raw_env(num_players=3, render_viewer=np.int64(1), render_mode="ansi")
    e.reset(seed=0)
    assert isinstance(e.render(), str)


@pytest.mark.parametrize("arg, error", [(0.0, TypeError), (False, TypeError), (True, TypeError), (None, TypeError),
                                        (5, ValueError), (-1, ValueError)])
def test_action_encode_refuses_an_argument_that_is_not_an_integer_of_the_block(arg, error):
    """``encode("DONE", 0.0)`` returned the float 3.0 and ``encode("DONE", False)`` the id 3."""
    with pytest.raises(error):
        A.encode("DONE", arg)
    assert A.encode("DONE", np.int64(0)) == A.encode("DONE", 0) == A.DONE
    with pytest.raises(ValueError, match="unknown action block"):
        A.encode(["DONE"], 0)


@pytest.mark.parametrize("config", [{"num_players": 3}, 3, "solo"])
def test_new_game_names_a_config_that_is_not_a_game_config(config):
    with pytest.raises(TypeError, match="config must be a GameConfig"):
        engine.new_game(config)


@pytest.mark.parametrize("call", [engine.legal_actions, engine.legal_mask, lambda s: engine.apply(s, 3),
                                  engine.final_scores, lambda s: engine.resample_hidden(s, 0, np.random.default_rng())])
def test_the_engine_entry_points_name_a_state_that_is_not_one(call):
    with pytest.raises(TypeError, match="expected a blackangel_env State, got NoneType"):
        call(None)


def test_an_agent_code_that_is_not_a_string_is_named():
    from blackangel_env.agents import make_agent
    with pytest.raises(ValueError, match="must be a string, got int"):
        make_agent(5)


def test_a_game_config_file_that_is_not_utf8_is_a_config_error_naming_it(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_bytes(b"\xff\xfe: 1")
    with pytest.raises(ConfigError, match="c.yaml is not UTF-8"):
        GameConfig.from_yaml(str(path))


def test_game_config_yaml_with_a_key_given_twice_is_refused(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("num_players: 1\nhal_difficulty: easy\nhal_difficulty: extreme\n")
    with pytest.raises(ConfigError, match="c.yaml is not valid YAML: duplicate key 'hal_difficulty' at line 3"):
        GameConfig.from_yaml(str(path))


@pytest.mark.parametrize("path", [0, 3, None, 2.5])
def test_game_config_from_yaml_takes_a_path_not_a_file_descriptor(path):
    """open() would read an int as a file descriptor (0: standard input) and then close it."""
    with pytest.raises(TypeError, match="path must be a str or os.PathLike"):
        GameConfig.from_yaml(path)
    if path == 0:
        os.fstat(0)                            # standard input still open


# -- input checks of the views, the value, the agent codes and the output-file probe ---------------------------------

LONG_NAME = "a" * 300                      # longer than a file name may be (ENAMETOOLONG)


@pytest.mark.parametrize("name", [f"/tmp/{LONG_NAME}", f"/tmp/{LONG_NAME}/x.json", "/tmp/a\0b.json"])
def test_output_problem_names_a_file_name_the_system_refuses(name):
    """``Path.is_dir`` / ``exists`` raised OSError (name too long) on such a name, and a NUL byte passed the check."""
    from blackangel_env.arguments import output_problem, path_problem
    assert path_problem(name)
    problem = output_problem(name, "--json")
    assert problem.startswith("--json ") and ("too long" in problem or "NUL" in problem)
    assert path_problem("/tmp/no/such/folder/x.json") is None and output_problem("/tmp/x.json", "--json") is None


@pytest.mark.parametrize("name", ["render", "encode_state", "encode_observation", "prompt", "explain_rules",
                                  "describe_options", "describe_option", "evaluate", "score_breakdown"])
def test_the_views_name_a_state_that_is_not_one(name):
    """They raised AttributeError ('NoneType' object has no attribute ...)."""
    from blackangel_env import encoding, explain, render, scoring
    from blackangel_env.agents import value
    calls = {"render": lambda: render.render(None), "encode_state": lambda: encoding.encode_state(None),
             "encode_observation": lambda: encoding.encode_observation(None, 0),
             "prompt": lambda: explain.prompt(None), "explain_rules": lambda: explain.explain_rules(None),
             "describe_options": lambda: explain.describe_options(None, [3]),
             "describe_option": lambda: explain.describe_option(None, 3), "evaluate": lambda: value.evaluate(None, 0),
             "score_breakdown": lambda: scoring.score_breakdown(None)}
    with pytest.raises(TypeError, match=f"{name}: expected a blackangel_env State, got NoneType"):
        calls[name]()


@pytest.mark.parametrize("seat", [1.0, None, True, "0", -1, 3])
def test_observation_and_render_refuse_a_seat_that_is_not_a_player(seat):
    """``encode_observation(s, 1.0)`` and ``render(s, True)`` were accepted (a float, a bool as seat 1)."""
    from blackangel_env.encoding import encode_observation
    from blackangel_env.render import render
    s = _played(3, 4)
    with pytest.raises(ValueError, match="seat must be a player seat 0..2"):
        encode_observation(s, seat)
    if seat is not None:
        with pytest.raises(ValueError, match="viewer must be a player seat 0..2"):
            render(s, seat)
    assert np.array_equal(encode_observation(s, np.int64(1)), encode_observation(s, 1))
    assert render(s, np.int64(1)) == render(s, 1)


@pytest.mark.parametrize("action", [1.5, True, None, "3"])
def test_describe_options_refuses_an_action_that_is_not_an_integer(action):
    """``describe_options(s, [1.5])`` described action 1."""
    from blackangel_env.explain import describe_options
    s = _played(2, 2)
    with pytest.raises(TypeError, match="an action id must be an integer"):
        describe_options(s, [action])
    legal = engine.legal_actions(s)
    assert describe_options(s, [np.int64(legal[0])]) == describe_options(s, [legal[0]])


@pytest.mark.parametrize("n, seat", [(2, -1), (2, 2), (2, 5), (2, 7), (2, 1.0), (2, True), (2, None), (1, 4), (1, 1)])
def test_the_value_refuses_a_seat_that_is_not_a_player_of_the_game(n, seat):
    """``evaluate(s, seat)`` returned made-up numbers for seats outside the game (read out of other seats' or
    Hal's fields) and took 1.0 for seat 1.  Hal's seat is not a player's: his VP is already subtracted."""
    from blackangel_env.agents.value import evaluate
    s = _played(n, 3)
    with pytest.raises(ValueError, match=f"seat must be a player seat 0..{n - 1}"):
        evaluate(s, seat)
    assert evaluate(s, np.int64(n - 1)) == evaluate(s, n - 1)


@pytest.mark.parametrize("seed", [True, [1], -1, 1.5, "3"])
def test_make_agent_refuses_a_seed_that_is_not_one(seed):
    """``seed=True`` and ``seed=[1]`` were accepted, ``seed=-1`` failed with numpy's message."""
    from blackangel_env.agents import make_agent
    with pytest.raises(ValueError, match="make_agent: seed must be a non-negative integer"):
        make_agent("random", seed=seed)
    make_agent("random", seed=np.int64(3))


@pytest.mark.parametrize("code", ["random", "greedy", "heuristic", "search", "mcts:2"])
@pytest.mark.parametrize("seed", [True, -1, 1.5, "3"])
def test_an_agents_reset_refuses_a_seed_that_is_not_one(code, seed):
    """``reset(-1)`` failed with numpy's bare message; the generator is kept when the seed is refused."""
    from blackangel_env.agents import make_agent
    agent = make_agent(code, seed=5)
    before = agent.rng.bit_generator.state
    with pytest.raises(ValueError, match=r"\.reset: seed must be a non-negative integer or None"):
        agent.reset(seed)
    assert agent.rng.bit_generator.state == before
    agent.reset(np.int64(2))


@pytest.mark.parametrize("code", ["mcts:1_0", "mcts:+5", "mcts:\u0661", "search:worlds=1_0", "search:keep=+2",
                                  "search:worlds=\u0661"])
def test_agent_code_numbers_are_ascii_digits(code):
    """``int`` took ``1_0`` as 10 and an Arabic-Indic digit as 1."""
    from blackangel_env.agents import parse_agent_code
    with pytest.raises(ValueError, match="integer from"):
        parse_agent_code(code)
    assert parse_agent_code("mcts: 12 ")[1] == {"simulations": 12}


def test_mcts_simulations_have_an_upper_bound():
    from blackangel_env.agents import make_agent, parse_agent_code
    from blackangel_env.agents.codes import MAX_SIMULATIONS
    assert parse_agent_code(f"mcts:{MAX_SIMULATIONS}")[1] == {"simulations": MAX_SIMULATIONS}
    for bad in (f"mcts:{MAX_SIMULATIONS + 1}", "mcts:99999999999999999999999"):
        with pytest.raises(ValueError, match=f"from 1 to {MAX_SIMULATIONS}"):
            make_agent(bad)


def test_a_policy_code_naming_a_folder_without_a_model_is_a_value_error(tmp_path):
    """``make_agent("policy:/tmp")`` raised FileNotFoundError; ``AgentCode`` documents a ValueError."""
    pytest.importorskip("sb3_contrib")
    import blackangel_env.training  # noqa: F401  (registers policy:)
    from blackangel_env.agents import make_agent
    with pytest.raises(ValueError, match="cannot load .*holds no checkpoint"):
        make_agent(f"policy:{tmp_path}")


@pytest.mark.parametrize("kind", ["policy", "rllib"])
def test_a_model_code_with_a_name_the_system_refuses_is_a_value_error(kind):
    import blackangel_env.training  # noqa: F401  (registers policy: and rllib:)
    from blackangel_env.agents import parse_agent_code
    for path in (f"/tmp/{LONG_NAME}", "/tmp/a\0b"):
        with pytest.raises(ValueError, match=f"{kind}:<path> needs an existing"):
            parse_agent_code(f"{kind}:{path}")


def test_apply_unchecked_names_a_state_that_is_not_one():
    """``engine.apply_unchecked`` skips the legality check, not the type check: something else than a State gets
    the entry points' TypeError (it got Cython's 'Cannot convert str to ...Registers')."""
    with pytest.raises(TypeError, match="apply_unchecked: expected a blackangel_env State, got str"):
        engine.apply_unchecked("nope", 1)


def test_advanced_tiles_detail_refuses_a_seat_that_is_not_a_player_and_changes_nothing():
    """``scoring.advanced_tiles_detail`` reads the seat's grid through the buffer: a seat out of 0-3 (a negative one
    included, which a numpy row would have wrapped to another seat) raises IndexError naming it."""
    from blackangel_env import scoring
    s = engine.new_game(num_players=2, seed=3)
    before = s.buf.copy()
    for seat in (4, 9, -1):
        with pytest.raises(IndexError, match=f"no player seat {seat}"):
            scoring.advanced_tiles_detail(s, seat)
    assert np.array_equal(before, s.buf)


def test_apply_unchecked_still_refuses_what_is_not_an_action_id():
    """``apply_unchecked`` skips the legality check only: None, a string, a float, a bool or an id outside the
    action space raise IllegalActionError and leave the state as it was; a numpy integer is taken."""
    s = engine.new_game(num_players=1, seed=4)
    before, rng = s.buf.copy(), s.rng_state()
    for bad in (None, "x", 1.0, True, -1, A.NUM_ACTIONS, 10**30):
        with pytest.raises(engine.IllegalActionError):
            engine.apply_unchecked(s, bad)
        assert np.array_equal(s.buf, before) and s.rng_state() == rng
    ref = s.copy()
    a = engine.legal_actions(s)[0]
    engine.apply_unchecked(s, np.int64(a))
    engine.apply(ref, a)
    assert np.array_equal(s.buf, ref.buf)


def test_random_agents_refuse_a_mask_that_is_not_one_entry_per_action_id():
    """The random agent and the environments' random opponent, as every agent: a mask of another length raises
    ValueError instead of giving an id outside the action space."""
    from blackangel_env.agents import make_agent
    from blackangel_env.gym_env import RandomPolicy
    long = np.zeros(900, dtype=bool)
    long[890] = True
    for agent in (make_agent("random", seed=1), RandomPolicy(seed=1)):
        for bad in (long, np.ones(3, dtype=bool)):
            with pytest.raises(ValueError, match=r"one entry per action id, shape \(882,\)"):
                agent.act(None, bad)


@pytest.mark.parametrize("bad, words", [
    (np.full(882, 2), "only 0 and 1"), (-np.ones(882), "only 0 and 1"), (np.full(882, 0.5), "only 0 and 1"),
    (np.array(["1"] * 882), "bools or numbers"), (np.full(882, -1, np.int8), "only 0 and 1"),
    (np.full(882, 2, np.uint8), "only 0 and 1"),
])
def test_agents_refuse_a_mask_whose_entries_are_not_0_or_1(bad, words):
    """A mask of -1s, 2s or strings was read as "allowed" by the random agent, which could play an illegal id."""
    from blackangel_env.agents import make_agent
    from blackangel_env.gym_env import RandomPolicy
    for agent in (make_agent("random", seed=1), RandomPolicy(seed=1)):
        with pytest.raises(ValueError, match=words):
            agent.act(None, bad)
        assert agent.act(None, np.ones(882, dtype=np.float32)) in range(882)


def test_hal_difficulty_that_is_not_a_string_is_a_config_error():
    with pytest.raises(ConfigError, match="hal_difficulty must be one of"):
        GameConfig(num_players=1, hal_difficulty=np.array(["easy", "x"]))
    assert GameConfig(num_players=1, hal_difficulty=np.str_("easy")).hal_difficulty == "easy"
    assert type(GameConfig(num_players=1, hal_difficulty=np.str_("easy")).hal_difficulty) is str


def test_an_opponent_that_is_not_a_policy_is_refused_when_the_env_is_built():
    """``opponents=5`` built an environment that failed only at ``reset``; an agent code names make_agent."""
    from blackangel_env.gym_env import BlackAngelSingleAgentEnv
    with pytest.raises(TypeError, match="must be callable or have an act"):
        BlackAngelSingleAgentEnv(num_players=2, opponents=5)
    with pytest.raises(TypeError, match=r"make_agent\('heuristic'\)"):
        BlackAngelSingleAgentEnv(num_players=3, opponents=["heuristic", None])


def test_a_component_error_shows_a_bounded_part_of_the_value(tmp_path):
    """A component file whose whole text is one YAML string (a wrong path in a saved config) is refused with a
    message of bounded length, not the file's text in full."""
    from blackangel_env.components import ComponentError, load_components
    path = tmp_path / "big.yaml"
    path.write_text("x" * 200_000)
    with pytest.raises(ComponentError, match="top level: expected a mapping") as e:
        load_components(path)
    assert len(str(e.value)) < 600


def test_sb3_vector_env_checks_its_seed_and_refuses_an_autoreset_mode():
    pytest.importorskip("stable_baselines3")
    from blackangel_env.training.sb3_vec_env import BlackAngelSB3VecEnv
    for bad in ("3", -1, 1.5, True):
        with pytest.raises(ValueError, match="BlackAngelSB3VecEnv: seed must be a non-negative integer"):
            BlackAngelSB3VecEnv(num_envs=2, seed=bad)
    with pytest.raises(TypeError, match="takes no autoreset_mode"):
        BlackAngelSB3VecEnv(num_envs=2, autoreset_mode="next_step")
    venv = BlackAngelSB3VecEnv(num_envs=2, seed=3)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        venv.seed(-1)
    assert venv._seeds == [3, 4]                    # unchanged by the refused seed
    first = venv.reset()
    assert np.array_equal(first, BlackAngelSB3VecEnv(num_envs=2, seed=3).reset())
    venv.close()


def test_vector_env_takes_an_array_of_seeds_and_refuses_to_run_once_closed():
    from gymnasium.error import ClosedEnvironmentError
    from blackangel_env.vector import BlackAngelVectorEnv
    envs = BlackAngelVectorEnv(3)
    obs, _ = envs.reset(seed=np.array([1, 2, 3]))
    assert np.array_equal(obs, BlackAngelVectorEnv(3).reset(seed=[1, 2, 3])[0])
    envs.close()
    with pytest.raises(ClosedEnvironmentError):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ClosedEnvironmentError):
        envs.reset(seed=0)


def test_pettingzoo_pickled_env_and_last_before_reset():
    """An unpickled ``env()`` has no game (its raw environment pickles its arguments only): it behaves as before a
    first reset (PettingZoo's errors), and plays again after one; ``raw_env().last()`` before reset raises the
    RuntimeError its other methods raise."""
    import pickle
    e = blackangel_env.env(num_players=2)
    e.reset(seed=0)
    p = pickle.loads(pickle.dumps(e))
    with pytest.raises(AssertionError, match="reset"):
        p.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        p.last()
    p.reset(seed=0)
    assert p.last()[1] == e.last()[1] and p.agent_selection == e.agent_selection
    with pytest.raises(RuntimeError, match=r"call reset\(\) before last\(\)"):
        blackangel_env.raw_env(num_players=2).last()
    with pytest.raises(ValueError, match="max_steps .* and max_cycles .* name the same limit"):
        blackangel_env.env(num_players=2, max_steps=10, max_cycles=20)
    assert blackangel_env.raw_env(num_players=2, max_steps=10, max_cycles=10).max_steps == 10
