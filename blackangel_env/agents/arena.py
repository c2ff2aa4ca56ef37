"""Matches between agents: the one place that plays seeded games, rotates the seats, records and reports them.

``blackangel eval``, ``benchmarks/ladder.py``, ``blackangel_env.training.game_stats``,
``blackangel_env.training.evaluate`` and ``blackangel_env.training.selfplay``'s table evaluation all play through this
module.

* Seeds: game ``g`` of a series seeded ``seed`` uses the game seed and the agent seeds of
  ``match_seeds(seed, g, n)`` (``numpy.random.SeedSequence([seed, g])``), so a game does not depend on which
  process plays it or on the games before it.
* Seats: with ``n`` codes, game ``g`` seats code ``i`` at seat ``(i + g) mod n`` (``seating``); one code is a
  solo game against Hal.
* ``play_match`` plays one game between agent codes (``blackangel_env.agents.codes.make_agent``) on the engine, every
  agent given its seat's observation, the legal mask and a copy of the state; a ``recorder`` hook sees every action
  before and after it is applied and adds what it records to the result.  ``play_matches`` plays a series in
  game order, in worker processes if asked (``worker_pool``).
* ``play_batched`` plays games of a batched policy (SB3's ``predict(obs, action_masks=..., deterministic=...)``)
  in environments that the caller builds and seeds, one forward pass per step over the games in progress.
* ``summarize`` reports a series per agent code; ``wilson_interval`` is the 95% Wilson score interval of a win
  rate, the only one of the project.
* ``worker_pool`` starts the worker processes with one torch thread and one BLAS thread each, so that workers
  share the cores instead of each running a thread pool the size of the machine; in any process, a game with a
  network agent (``policy:``, ``rllib:``) runs with one torch thread, the caller's setting given back after it.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np

from blackangel_env import engine
from blackangel_env.config import GameConfig, is_integer
from blackangel_env.constants import HAL_DIFFICULTIES
from blackangel_env.encoding import encode_observation
from blackangel_env.state import BOT, M_DECISIONS, M_ROUND, State

from .codes import agent_code, make_agent, parse_agent_code

__all__ = ["THREAD_VARIABLES", "AgentBuildError", "Recorder", "check_codes", "in_worker", "limit_threads",
           "match_seeds", "play_batched", "play_match", "play_matches", "seating", "summarize", "wilson_interval",
           "win_stats", "worker_pool"]

Z95 = 1.959963984540054          # the standard normal quantile of 0.975


# -- statistics ---------------------------------------------------------------------------------------------------

def wilson_interval(wins: int, n: int, z: float = Z95) -> list[float]:
    """The Wilson score interval ``[low, high]`` of a binomial proportion (95% by default); ``[0, 1]`` for
    ``n = 0``.  ``low`` is exactly 0 when ``wins = 0`` and ``high`` exactly 1 when ``wins = n``."""
    if n <= 0:
        return [0.0, 1.0]
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return [low, high]


def win_stats(wins: int, games: int) -> dict[str, Any]:
    """``games``, ``wins``, ``win_rate`` and ``ci95`` (``wilson_interval``) of a series."""
    return {"games": int(games), "wins": int(wins), "win_rate": wins / games if games else float("nan"),
            "ci95": wilson_interval(int(wins), int(games))}


# -- seeds and seats ---------------------------------------------------------------------------------------------

def match_seeds(seed: int, game: int, n: int) -> tuple[int, list[int]]:
    """The game seed and the ``n`` agent seeds (one per seat) of game ``game`` of a series seeded ``seed``."""
    ss = np.random.SeedSequence([seed, game])
    game_seed, *agent_seeds = (int(x) for x in ss.generate_state(n + 1, dtype=np.uint32))
    return game_seed, agent_seeds


def seating(codes: Sequence[str], game: int) -> list[str]:
    """The code playing each seat in game ``game``: seat ``p`` is played by ``codes[(p - game) mod n]``."""
    n = len(codes)
    return [codes[(p - game) % n] for p in range(n)]


# -- threads in worker processes -----------------------------------------------------------------------------------

THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "BLIS_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def limit_threads() -> None:
    """One thread for torch (when it is loaded) and, through the environment, for the BLAS and OpenMP pools
    that libraries loaded later start."""
    for var in THREAD_VARIABLES:
        os.environ[var] = "1"
    torch = sys.modules.get("torch")
    if torch is not None and torch.get_num_threads() != 1:
        torch.set_num_threads(1)


def in_worker() -> bool:
    """True in a process started by ``multiprocessing`` (a pool worker, a SubprocVecEnv worker)."""
    return multiprocessing.parent_process() is not None


def _single_threaded() -> bool:
    """The process runs one OS thread (Linux's /proc; False where it cannot be told)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def safe_start_method(method: str) -> str:
    """The ``multiprocessing`` start method to use for ``method``: "spawn" instead of "fork" in a process that runs
    other threads (torch's, Ray's, a Jupyter client's), where a forked child may wait forever on a lock a thread
    held at the fork; ``method`` otherwise."""
    return "spawn" if method == "fork" and not _single_threaded() else method


@contextmanager
def worker_pool(workers: int, context: str = "spawn"):
    """A ``multiprocessing`` pool of ``workers`` processes that each run torch and BLAS with one thread: the
    thread-count variables are set in the environment the workers start with (a spawned worker loads numpy and
    torch after it starts) and every worker calls ``limit_threads`` first (a forked worker inherits the parent's
    loaded libraries).  ``context="fork"`` forks only a process that runs a single thread: a process with other
    threads (torch's, Ray's, a Jupyter client's) may hold a lock at the fork that the child then waits on forever,
    so its workers are spawned instead."""
    context = safe_start_method(context)
    saved = {var: os.environ.get(var) for var in THREAD_VARIABLES}
    os.environ.update({var: "1" for var in THREAD_VARIABLES})
    try:
        pool = multiprocessing.get_context(context).Pool(workers, initializer=limit_threads)
    finally:
        for var, value in saved.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value
    with pool:
        yield pool


# -- one match ----------------------------------------------------------------------------------------------------

class Recorder(Protocol):
    """What ``play_match`` calls around every action of a game (a recorder is built per game, from the state
    after set-up, by the ``recorder`` factory given to ``play_match``)."""

    def before(self, state: State, action: int) -> None: ...      # the state the action is taken in
    def after(self, state: State, action: int) -> None: ...       # the state it led to
    def finish(self, state: State) -> Any: ...                    # the final state -> result["record"]


_REUSED: dict[str, Any] = {}          # agents kept between games in this process (codes of reusable kinds)


def _reusable(code: str) -> bool:
    spec = agent_code(code.partition(":")[0].strip())
    return spec is not None and spec.reusable


def _agent(code: str, seed: int):
    """``make_agent(code, seed)``; an agent of a reusable kind (a loaded network) is built once per process
    and reseeded with ``reset(seed)``."""
    if not _reusable(code):
        return make_agent(code, seed=seed)
    agent = _REUSED.get(code)
    if agent is None:
        agent = _REUSED[code] = make_agent(code, seed=seed)
        if in_worker():
            limit_threads()
    agent.reset(seed)
    return agent


@contextmanager
def _one_torch_thread(active: bool):
    """Run a network agent's forward passes (one observation each) with one torch thread, then give the
    caller's setting back: a thread pool only adds synchronisation to passes this small."""
    torch = sys.modules.get("torch") if active else None
    n = torch.get_num_threads() if torch is not None else 1
    if n != 1:
        torch.set_num_threads(1)
    try:
        yield
    finally:
        if n != 1:
            torch.set_num_threads(n)


def play_match(codes: Sequence[str], game: int = 0, seed: int = 0, hal: str = "standard", advanced: bool = False,
               recorder: Callable[[State], Recorder] | None = None, timing: bool = False) -> dict[str, Any]:
    """Play game ``game`` of a series seeded ``seed`` between agent codes (one code: solo against Hal at
    difficulty ``hal``; 2-4 codes: a table, seats rotated by ``seating``).

    Returns ``seats`` (the code of each seat), ``scores`` (final VP per seat), ``winners`` (seats), ``hal``
    (Hal's final VP in a solo game, else None), ``rounds``, ``decisions``, ``game_seed``, with ``timing``
    ``cpu_s`` (the CPU seconds each seat's agent spent choosing its actions: its ``act`` calls, not the engine's
    turns; a measurement, so two plays of the same game differ in it and only in it) and, with a ``recorder``,
    ``record`` (what its ``finish`` returned)."""
    codes = list(codes)
    n = len(codes)
    seats = seating(codes, game)
    game_seed, agent_seeds = match_seeds(seed, game, n)
    s = engine.new_game(GameConfig(num_players=n, advanced=advanced, hal_difficulty=hal), seed=game_seed)
    try:
        players = [_agent(code, agent_seeds[p]) for p, code in enumerate(seats)]
    except ValueError as e:                     # a code whose agent cannot be built (a folder without a model)
        raise AgentBuildError(str(e)) from e
    rec = recorder(s) if recorder is not None else None
    cpu = [0.0] * n
    with _one_torch_thread(any(_reusable(code) for code in codes)):
        while not s.terminal:
            p = s.actor
            t0 = time.process_time()
            a = int(players[p].act(encode_observation(s, p), engine.legal_mask(s), s.copy()))
            cpu[p] += time.process_time() - t0
            if rec is not None:
                rec.before(s, a)
            engine.apply(s, a)
            if rec is not None:
                rec.after(s, a)
    out = {"seats": seats, "scores": engine.final_scores(s), "winners": engine.winners(s),
           "hal": int(s.vp[BOT]) if n == 1 else None, "rounds": int(s.m[M_ROUND]),
           "decisions": int(s.m[M_DECISIONS]), "game_seed": game_seed}
    if timing:
        out["cpu_s"] = cpu
    if rec is not None:
        out["record"] = rec.finish(s)
    return out


class AgentBuildError(ValueError):
    """An agent code whose agent cannot be built (``make_agent``'s ValueError: a folder without a model, a file
    that is not one); ``play_matches`` raises it as it is, not wrapped in the RuntimeError naming the game."""


def _match_task(task: tuple) -> dict[str, Any]:
    codes, game, seed, hal, advanced, recorder, timing = task
    try:
        return play_match(codes, game, seed, hal, advanced, recorder, timing)
    except AgentBuildError:
        raise
    except Exception as e:                      # name the game, so that it can be replayed alone
        raise RuntimeError(f"game {game} of seed {seed} ({','.join(codes)}, Hal {hal}) failed: "
                           f"{type(e).__name__}: {e}") from e


def check_codes(codes: Sequence[str], hal: str = "standard") -> list[str]:
    """The stripped codes; raises ValueError for a bad code, a count outside 1-4 or an unknown difficulty."""
    codes = [str(c).strip() for c in codes]
    if not 1 <= len(codes) <= 4:
        raise ValueError(f"1 to 4 agent codes, got {len(codes)}")
    for c in codes:
        parse_agent_code(c)
    if hal not in HAL_DIFFICULTIES:
        raise ValueError(f"unknown Hal difficulty {hal!r}; expected one of {', '.join(HAL_DIFFICULTIES)}")
    return codes


def _count(name: str, value: Any) -> int:
    """``value`` as an int when it is a non-negative integer (numpy's included, bool not); ValueError otherwise."""
    if not is_integer(value) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return int(value)


MAX_WORKERS = 256
"""The most worker processes ``play_matches`` (and ``blackangel eval --workers``) starts."""


def play_matches(codes: Sequence[str], games: int, seed: int = 0, hal: str = "standard", advanced: bool = False,
                 workers: int = 1, start: int = 0, progress: bool | dict = False,
                 recorder: Callable[[State], Recorder] | None = None, timing: bool = False) -> list[dict[str, Any]]:
    """Games ``start .. start + games - 1`` of a series (``play_match``), in ``workers`` processes
    (``worker_pool``; the results do not depend on it), in game order.  ``progress``: a tqdm bar on stderr
    (a dict: tqdm's options).  A ``recorder`` factory must be picklable to run in workers (a class is).
    ``timing``: each result has ``cpu_s`` (``play_match``).

    The arguments are checked before any game (ValueError naming the bad one, TypeError for ``codes`` given as one
    string): ``games`` and ``start`` non-negative integers, ``seed`` a non-negative integer, ``advanced`` a bool,
    ``workers`` an integer 1-``MAX_WORKERS``; an agent that cannot be built raises ``AgentBuildError`` (a ValueError)."""
    if isinstance(codes, (str, bytes)):
        raise TypeError(f"codes must be a list of agent codes, got the string {codes!r} (use [{codes!r}], or "
                        "split_agent_codes for a comma-separated list)")
    codes = check_codes(codes, hal)
    games = _count("games", games)
    start = _count("start", start)
    seed = _count("seed", seed)
    if not isinstance(advanced, (bool, np.bool_)) and advanced not in (0, 1):
        raise ValueError(f"advanced must be True or False, got {advanced!r}")
    advanced = bool(advanced)
    if not is_integer(workers) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be an integer 1-{MAX_WORKERS}, got {workers!r}")
    # the tasks made as the games are played (a list of them all would hold every game before the first is played)
    tasks = ((codes, g, seed, hal, advanced, recorder, timing) for g in range(start, start + games))
    bar = None
    if progress:
        from tqdm import tqdm
        opts = {"desc": "games", "unit": "game", "file": sys.stderr}
        opts.update(progress if isinstance(progress, dict) else {})
        bar = tqdm(total=games, **opts)
    out: list[dict[str, Any]] = []
    try:
        if workers <= 1 or games <= 1:
            for t in tasks:
                out.append(_match_task(t))
                if bar:
                    bar.update()
        else:
            chunk = max(1, min(8, games // (4 * workers)))
            with worker_pool(min(workers, games)) as pool:
                for r in pool.imap(_match_task, tasks, chunksize=chunk):
                    out.append(r)
                    if bar:
                        bar.update()
    finally:
        if bar:
            bar.close()
    return out


# -- reports ------------------------------------------------------------------------------------------------------

def summarize(results: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per agent code (codes at several seats pooled), from ``play_match`` results: ``games``, ``wins`` (ties
    share the victory: each tied winner counts a win; solo: more VP than Hal), ``win_rate``, ``win_rate_ci95``
    (``wilson_interval``), ``mean_vp``, ``std_vp``, ``mean_margin_vs_hal`` (solo), ``mean_rounds``,
    ``mean_decisions``, ``mean_cpu_s`` (results played with ``timing``: the agent's CPU seconds a game), and the per-game lists ``vp`` (and ``hal_vp`` in solo games)."""
    per: dict[str, dict] = {}
    for r in results:
        for p, code in enumerate(r["seats"]):
            d = per.setdefault(code, {"vp": [], "wins": 0, "margin": [], "hal": [], "rounds": [], "decisions": [],
                                      "cpu": []})
            d["vp"].append(r["scores"][p])
            if "cpu_s" in r:
                d["cpu"].append(r["cpu_s"][p])
            d["wins"] += int(p in r["winners"])
            if r["hal"] is not None:
                d["margin"].append(r["scores"][p] - r["hal"])
                d["hal"].append(r["hal"])
            d["rounds"].append(r["rounds"])
            d["decisions"].append(r["decisions"])
    out = {}
    for code, d in per.items():
        games = len(d["vp"])
        vp = np.array(d["vp"], dtype=float)
        row = {"games": games, "wins": d["wins"], "win_rate": d["wins"] / games,
               "win_rate_ci95": wilson_interval(d["wins"], games), "mean_vp": float(vp.mean()),
               "std_vp": float(vp.std(ddof=1)) if games > 1 else 0.0}
        if d["margin"]:
            row["mean_margin_vs_hal"] = float(np.mean(d["margin"]))
        row["mean_rounds"] = float(np.mean(d["rounds"]))
        row["mean_decisions"] = float(np.mean(d["decisions"]))
        if d["cpu"]:
            row["mean_cpu_s"] = float(np.mean(d["cpu"]))
        row["vp"] = [int(x) for x in d["vp"]]
        if d["hal"]:
            row["hal_vp"] = [int(x) for x in d["hal"]]
        out[code] = row
    return out


# -- batched policies in environments ------------------------------------------------------------------------------

def play_batched(model, envs: Sequence[Any], tasks: Iterable[Any], reset: Callable[[Any, Any], np.ndarray],
                 finish: Callable[[Any, Any, bool, bool, dict], None], deterministic: bool = True) -> int:
    """Play one game per task with ``model`` (``predict(obs, action_masks=..., deterministic=...)``), one game
    at a time in each of ``envs`` (Gymnasium environments with ``action_masks()``), one batched forward pass per
    step over the games in progress.  ``reset(env, task) -> observation`` starts a task's game (it seeds it);
    ``finish(env, task, terminated, truncated, info)`` is called when it ends, after which the environment
    takes the next task.  Tasks go to the environments in order.  Returns the number of decisions played."""
    queue = iter(tasks)
    active: dict[int, tuple[Any, np.ndarray]] = {}          # environment index -> (task, observation)

    def start(i: int) -> None:
        task = next(queue, None)
        if task is not None:
            active[i] = (task, reset(envs[i], task))

    for i in range(len(envs)):
        start(i)
    decisions = 0
    while active:
        idx = sorted(active)
        actions, _ = model.predict(np.stack([active[i][1] for i in idx]), deterministic=deterministic,
                                   action_masks=np.stack([envs[i].action_masks() for i in idx]))
        for i, a in zip(idx, np.asarray(actions).reshape(-1)):
            task = active[i][0]
            obs, _, term, trunc, info = envs[i].step(int(a))
            decisions += 1
            if term or trunc:
                del active[i]
                finish(envs[i], task, bool(term), bool(trunc), info)
                start(i)
            else:
                active[i] = (task, obs)
    return decisions
