"""blackangel_env.agents.arena: the one module that plays seeded matches and reports them (seeds, seats, recorder hooks,
the Wilson interval, worker processes that share the cores)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from blackangel_env.agents import arena
from blackangel_env.agents.arena import (match_seeds, play_match, play_matches, seating, summarize, wilson_interval,
                                         worker_pool)
from blackangel_env import engine


def test_wilson_interval_is_exact_at_the_ends():
    # 0 wins: the lower bound is 0 itself (the formula leaves a rounding residue, 2.8e-17 for 0 of 6)
    assert wilson_interval(0, 6)[0] == 0.0 and wilson_interval(6, 6)[1] == 1.0
    lo, hi = wilson_interval(0, 6)
    assert hi == pytest.approx(0.3903, abs=1e-4)
    assert wilson_interval(5, 10) == [pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4)]
    assert wilson_interval(0, 0) == [0.0, 1.0]
    assert arena.win_stats(3, 4) == {"games": 4, "wins": 3, "win_rate": 0.75, "ci95": wilson_interval(3, 4)}


def test_seeds_and_seats():
    game_seed, agent_seeds = match_seeds(5, 2, 3)
    ss = np.random.SeedSequence([5, 2]).generate_state(4, dtype=np.uint32)
    assert [game_seed, *agent_seeds] == [int(x) for x in ss]
    assert match_seeds(5, 3, 3)[0] != game_seed
    assert seating(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert seating(["a", "b", "c"], 1) == ["c", "a", "b"]           # code i at seat (i + g) mod n
    assert seating(["a", "b", "c"], 5) == ["b", "c", "a"]


class ActionLog:
    """A recorder: the actions and actors of a game, and the final scores."""

    def __init__(self, state):
        self.actions, self.actors, self.seen_after = [], [], 0

    def before(self, state, action):
        assert engine.legal_mask(state)[action]
        self.actions.append(action)
        self.actors.append(state.actor)

    def after(self, state, action):
        self.seen_after += 1

    def finish(self, state):
        return {"actions": self.actions, "actors": self.actors, "after": self.seen_after,
                "scores": engine.final_scores(state)}


def test_a_recorded_match_replays_from_its_seed():
    m = play_match(["greedy", "random"], game=1, seed=4, recorder=ActionLog)
    rec = m["record"]
    assert m["seats"] == ["random", "greedy"] and rec["after"] == len(rec["actions"]) == m["decisions"]
    s = engine.new_game(num_players=2, seed=m["game_seed"])
    for a in rec["actions"]:
        engine.apply(s, a)
    assert s.terminal and engine.final_scores(s) == m["scores"] == rec["scores"]
    assert m == play_match(["greedy", "random"], game=1, seed=4, recorder=ActionLog)


def test_series_and_summary_do_not_depend_on_workers():
    one = play_matches(["random", "greedy"], 4, seed=2)
    assert [m["seats"] for m in one] == [seating(["random", "greedy"], g) for g in range(4)]
    assert play_matches(["random", "greedy"], 4, seed=2, workers=2) == one
    assert play_matches(["random", "greedy"], 2, seed=2, start=2) == one[2:]
    s = summarize(one)
    assert s["greedy"]["games"] == s["random"]["games"] == 4
    assert s["greedy"]["wins"] == sum(m["seats"].index("greedy") in m["winners"] for m in one)
    assert s["greedy"]["win_rate_ci95"] == wilson_interval(s["greedy"]["wins"], 4)


def test_bad_series_are_refused():
    with pytest.raises(ValueError, match="unknown agent code"):
        play_matches(["nonsense"], 1)
    with pytest.raises(ValueError, match="1 to 4 agent codes"):
        play_matches(["random"] * 5, 1)
    with pytest.raises(ValueError, match="unknown Hal difficulty"):
        play_matches(["random"], 1, hal="impossible")


class ThreadProbe(ActionLog):
    """A recorder that reports the thread settings of the process that played the game."""

    def finish(self, state):
        import torch
        return {"torch_threads": torch.get_num_threads(), "omp": os.environ.get("OMP_NUM_THREADS"),
                "pid": os.getpid()}


def test_worker_processes_run_torch_with_one_thread():
    pytest.importorskip("torch")
    before = {v: os.environ.get(v) for v in arena.THREAD_VARIABLES}
    games = play_matches(["random"], 4, seed=0, workers=2, recorder=ThreadProbe)
    assert {m["record"]["pid"] for m in games}.isdisjoint({os.getpid()})
    assert all(m["record"]["torch_threads"] == 1 and m["record"]["omp"] == "1" for m in games)
    assert {v: os.environ.get(v) for v in arena.THREAD_VARIABLES} == before     # the parent is left as it was


def test_forked_workers_of_a_parent_that_loaded_torch_get_one_thread():
    torch = pytest.importorskip("torch")
    n = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        with worker_pool(2, context="fork") as pool:
            assert pool.map(_torch_threads, range(2)) == [1, 1]
    finally:
        torch.set_num_threads(n)


def _torch_threads(_):
    import torch
    return torch.get_num_threads()


class _Model:
    """A batched policy (SB3's predict) that plays the first legal action."""

    def predict(self, obs, action_masks, deterministic=True):
        return np.array([int(np.flatnonzero(m)[0]) for m in action_masks]), None


def test_play_batched_plays_every_task_in_its_seeded_game():
    from blackangel_env.gym_env import BlackAngelSingleAgentEnv
    envs = [BlackAngelSingleAgentEnv(num_players=1) for _ in range(2)]
    done = {}

    def finish(env, task, term, trunc, info):
        done[task] = (term, env.game_seed, info["scores"][0])

    n = arena.play_batched(_Model(), envs, range(5), lambda env, t: env.reset(seed=100 + t)[0], finish)
    assert sorted(done) == list(range(5)) and all(t for t, _, _ in done.values())
    assert [done[t][1] for t in range(5)] == [100 + t for t in range(5)]
    alone = {}
    arena.play_batched(_Model(), envs[:1], [3], lambda env, t: env.reset(seed=100 + t)[0],
                       lambda env, t, term, trunc, info: alone.setdefault(t, info["scores"][0]))
    assert alone[3] == done[3][2] and n > 5


class _NetworkLike:
    """An agent of a reusable kind that notes torch's thread count at every decision."""

    seen: list[int] = []

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, state=None):
        import torch
        self.seen.append(torch.get_num_threads())
        legal = np.flatnonzero(action_mask)
        return int(legal[int(self.rng.integers(len(legal)))])


def test_a_network_agent_plays_with_one_torch_thread_and_the_setting_comes_back(monkeypatch):
    torch = pytest.importorskip("torch")
    from blackangel_env.agents import codes
    monkeypatch.setattr(codes, "_REGISTRY", dict(codes._REGISTRY))
    codes.register_agent_code(codes.AgentCode("netlike", "netlike", lambda o, seed, c: _NetworkLike(seed),
                                              reusable=True))
    monkeypatch.setattr(arena, "_REUSED", {})
    n = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        _NetworkLike.seen.clear()
        a = play_match(["netlike", "random"], 0, 3)
        assert _NetworkLike.seen and set(_NetworkLike.seen) == {1}
        assert torch.get_num_threads() == 2
        assert len(arena._REUSED) == 1 and play_match(["netlike", "random"], 0, 3) == a    # reused, reseeded
    finally:
        torch.set_num_threads(n)


def test_a_fork_pool_of_a_process_with_other_threads_is_spawned():
    """Forking a process that runs other threads (torch's, Ray's, a Jupyter client's) can leave the child waiting
    forever on a lock a thread held at the fork (a full test run hung so, in the imitation collector's forked pool
    after the RLlib and notebook tests): ``worker_pool(context="fork")`` then spawns its workers."""
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with worker_pool(1, context="fork") as pool:
            assert pool._ctx.get_start_method() == "spawn"
            assert pool.apply(os.getpid) != os.getpid()
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize("kwargs, error, words", [
    ({"seed": -1}, ValueError, "seed must be a non-negative integer"),
    ({"seed": 1.5}, ValueError, "seed must be a non-negative integer"),
    ({"advanced": "yes"}, ValueError, "advanced must be True or False"),
    ({"start": -5}, ValueError, "start must be a non-negative integer"),
    ({"workers": 0}, ValueError, "workers must be an integer 1-256"),
    ({"workers": 257}, ValueError, "workers must be an integer 1-256"),
    ({"games": 1.5}, ValueError, "games must be a non-negative integer"),
    ({"codes": "random"}, TypeError, "codes must be a list of agent codes, got the string 'random'"),
])
def test_bad_series_arguments_are_refused_before_any_game(kwargs, error, words, monkeypatch):
    """``seed=-1``, ``advanced="yes"`` and ``start=-5`` became a RuntimeError wrapping the real error after the
    workers had started; a plain string of codes was split into letters."""
    def played(*args, **kw):
        raise AssertionError("a game was started before the arguments were checked")
    monkeypatch.setattr(arena, "_match_task", played)
    monkeypatch.setattr(arena, "worker_pool", played)
    args = {"codes": ["random"], "games": 1, "workers": 2, **kwargs}
    with pytest.raises(error, match=words):
        play_matches(args.pop("codes"), args.pop("games"), **args)


def test_an_agent_that_cannot_be_built_is_a_value_error_not_a_game_failure(tmp_path):
    """``play_matches(["policy:/tmp"], 1)`` raised a RuntimeError wrapping FileNotFoundError."""
    pytest.importorskip("sb3_contrib")
    import blackangel_env.training  # noqa: F401  (registers policy:)
    with pytest.raises(arena.AgentBuildError, match="cannot load") as info:
        play_matches([f"policy:{tmp_path}"], 1)
    assert isinstance(info.value, ValueError)


def test_advanced_given_as_0_or_1_still_plays():
    """``advanced`` takes a bool, or the ints 0 and 1 (callers that pass a flag as an int kept working)."""
    for flag in (0, 1, np.bool_(True)):
        (result,) = arena.play_matches(["random"], 1, seed=3, advanced=flag)
        assert result["seats"] == ["random"] and result["decisions"] > 0
