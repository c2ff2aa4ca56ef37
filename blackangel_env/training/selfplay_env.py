"""The opponents of self-play training and the environment the learner plays in
(``blackangel_env/training/selfplay.py``).

* ``SnapshotAgent(path)``: a frozen MaskablePPO checkpoint behind the agent interface ``act(observation,
  action_mask, state=None)``.  The network is loaded on first use, once per process (``load_policy`` keeps a small
  cache), on the CPU; a stochastic snapshot samples from its masked action distribution with its own numpy
  generator (reseeded by ``reset(seed)``), so it never touches torch's global generator, which the learner uses.
* ``OpponentPool``: what an opponent seat plays in an episode: the latest snapshot of the learner, a snapshot
  drawn uniformly from the pool (the ``pool_size`` most recent), or a baseline agent code
  (``blackangel_env.agents.make_agent``: ``random``, ``greedy``, ``heuristic``, ``mcts:<n>``, ``policy:<path>``), with
  the weights of the config. Before the first snapshot exists the baselines play every seat.
* ``SelfPlayEnv``: ``BlackAngel-v0`` for one learner seat at a table of ``num_players``, its seat chosen per
  episode (``random`` or ``rotate``) and the other seats drawn from the pool per episode (independently per
  seat, or one draw for the whole table).  The pool reaches the environment by path: the trainer calls
  ``set_pool(paths)`` (``VecEnv.env_method``, so SubprocVecEnv workers get it too) and each worker loads a
  snapshot when an episode first needs it.  ``info["learner_seat"]`` is the learner's seat; at the end of an
  episode ``info["opponents"]`` names who played the other seats (seat order) besides ``scores`` and
  ``winners``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from blackangel_env.agents.arena import in_worker, limit_threads

__all__ = ["SEAT_MODES", "SNAPSHOT", "OpponentPool", "SelfPlayEnv", "SnapshotAgent", "learner_result",
           "load_policy"]

SNAPSHOT = "snapshot:"               # opponent code of a pool snapshot: "snapshot:<path to .zip>"
SEAT_MODES = ("random", "rotate")
_POLICIES: OrderedDict[str, Any] = OrderedDict()
_POLICY_CACHE_SIZE = 32


def load_policy(path: str | Path):
    """The policy network of a MaskablePPO checkpoint, on the CPU in eval mode, cached per process (the
    ``_POLICY_CACHE_SIZE`` most recently used).  In a worker process torch is limited to one thread."""
    key = str(Path(path).resolve())
    policy = _POLICIES.get(key)
    if policy is not None:
        _POLICIES.move_to_end(key)
        return policy
    from .checkpoints import load_maskable_ppo
    if in_worker():
        limit_threads()
    policy = load_maskable_ppo(key, device="cpu").policy
    policy.set_training_mode(False)
    _POLICIES[key] = policy
    while len(_POLICIES) > _POLICY_CACHE_SIZE:
        _POLICIES.popitem(last=False)
    return policy


class SnapshotAgent:
    """A frozen checkpoint as an opponent: greedy (``deterministic``) or sampling from its masked policy."""

    def __init__(self, path: str | Path, deterministic: bool = False, seed: int | None = None):
        self.path = Path(path)
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state=None) -> int:
        import torch

        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError(f"{type(self).__name__}: the action mask allows no action")
        policy = load_policy(self.path)
        obs = torch.as_tensor(np.asarray(observation, dtype=np.float32)).reshape(1, -1)
        with torch.no_grad():
            dist = policy.get_distribution(obs, action_masks=np.asarray(action_mask, dtype=bool).reshape(1, -1))
            logits = dist.distribution.logits[0].numpy()[legal]
        if self.deterministic:
            return int(legal[int(np.argmax(logits))])
        p = np.exp(logits - logits.max())
        c = np.cumsum(p)
        return int(legal[min(int(np.searchsorted(c, self.rng.random() * c[-1], side="right")), len(legal) - 1)])

    __call__ = act

    def __repr__(self) -> str:
        return f"SnapshotAgent({str(self.path)!r}, deterministic={self.deterministic})"


class OpponentPool:
    """Draws the opponent of a seat: ``latest`` / ``pool`` / ``baselines`` with weights (module docstring)."""

    def __init__(self, baselines: Sequence[str] = ("random",), w_latest: float = 0.5, w_pool: float = 0.3,
                 w_baselines: float = 0.2, pool_size: int = 8, snapshots: Sequence[str] = ()):
        self.baselines = [c.strip() for c in baselines if c.strip()]
        self.weights = np.array([w_latest, w_pool, w_baselines], dtype=float)
        if (self.weights < 0).any() or not np.isfinite(self.weights).all() or self.weights.sum() <= 0:
            raise ValueError(f"pool weights must be >= 0 with a positive sum, got {self.weights.tolist()}")
        if self.weights[2] > 0 and not self.baselines:
            raise ValueError("the baselines have a positive weight but no agent code is listed")
        if self.weights[:2].sum() == 0 and not self.baselines:
            raise ValueError("no opponent can be drawn: give baselines or a positive snapshot weight")
        self.pool_size = int(pool_size)
        self.snapshots: list[str] = []
        self.set_snapshots(snapshots)

    def set_snapshots(self, paths: Sequence[str]) -> None:
        """The pool: the ``pool_size`` last of ``paths`` (oldest first)."""
        self.snapshots = [str(p) for p in paths][-self.pool_size:]

    def sample(self, rng: np.random.Generator) -> str:
        """One opponent code: ``snapshot:<path>`` or a baseline code."""
        w = self.weights.copy()
        if not self.snapshots:
            w[:2] = 0.0
        if not self.baselines:
            w[2] = 0.0
        if w.sum() <= 0:                         # no snapshot yet and no baseline listed
            return "random"
        k = int(rng.choice(3, p=w / w.sum()))
        if k == 0:
            return SNAPSHOT + self.snapshots[-1]
        if k == 1:
            return SNAPSHOT + self.snapshots[int(rng.integers(len(self.snapshots)))]
        return self.baselines[int(rng.integers(len(self.baselines)))]


class _Seat:
    """The opponent policy an inner environment holds for a seat; the episode's agent is assigned to it."""

    def __init__(self):
        self.agent = None

    def reset(self, seed: int | None = None) -> None:
        if hasattr(self.agent, "reset"):
            self.agent.reset(seed)

    def act(self, observation, action_mask, state=None) -> int:
        return self.agent.act(observation, action_mask, state)


def learner_result(info: dict[str, Any]) -> tuple[bool, float] | None:
    """(won, margin = own VP - best other VP) of the learner from a final ``info``, else None."""
    if not info.get("game_over") or "learner_seat" not in info:
        return None
    seat, scores = info["learner_seat"], info["scores"]
    best_other = max(v for p, v in enumerate(scores) if p != seat)
    return bool(info["winners"][seat]), float(scores[seat] - best_other)


class SelfPlayEnv(gym.Env):
    """One learner seat at a table whose other seats are drawn from an ``OpponentPool`` every episode."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (gymnasium's attribute)

    def __init__(self, num_players: int = 3, seat: str = "random", index: int = 0,
                 pool: dict[str, Any] | None = None, per_seat: bool = True, deterministic: bool = False,
                 render_mode: str | None = None, **env_kwargs):
        super().__init__()
        if not 2 <= int(num_players) <= 4:
            raise ValueError(f"self-play needs a table of 2-4 players, got num_players={num_players!r}")
        if seat not in SEAT_MODES:
            raise ValueError(f"seat must be one of {SEAT_MODES}, got {seat!r}")
        self.num_players = int(num_players)
        self.seat_mode = seat
        self.index = int(index)
        self.pool = OpponentPool(**(pool or {}))
        self.per_seat = bool(per_seat)
        self.deterministic = bool(deterministic)
        self.render_mode = render_mode
        self._slots = {p: _Seat() for p in range(self.num_players)}
        self._env_kwargs = dict(env_kwargs, num_players=self.num_players, render_mode=render_mode)
        self._envs: dict[int, Any] = {}          # learner seat -> its BlackAngelSingleAgentEnv, built when needed
        self._env = self._inner(0)                                 # (raises for bad environment options)
        self.observation_space = self._env.observation_space
        self.action_space = self._env.action_space
        self._agents: dict[tuple[int, str], Any] = {}
        self.episodes = 0
        self.opponents: list[str] = []

    def _inner(self, seat: int):
        env = self._envs.get(seat)
        if env is None:
            from blackangel_env.gym_env import BlackAngelSingleAgentEnv
            others = {p: self._slots[p] for p in range(self.num_players) if p != seat}
            env = self._envs[seat] = BlackAngelSingleAgentEnv(seat=seat, opponents=others, **self._env_kwargs)
        return env

    # -- the pool ---------------------------------------------------------------------------------------------
    def set_pool(self, paths: Sequence[str]) -> None:
        """Replace the pool's snapshots (model .zip paths, oldest first); agents of snapshots that left it are
        dropped."""
        self.pool.set_snapshots(paths)
        live = {SNAPSHOT + p for p in self.pool.snapshots}
        for key in [k for k in self._agents if k[1].startswith(SNAPSHOT) and k[1] not in live]:
            del self._agents[key]

    def _agent(self, seat: int, code: str):
        agent = self._agents.get((seat, code))
        if agent is None:
            if code.startswith(SNAPSHOT):
                agent = SnapshotAgent(code[len(SNAPSHOT):], deterministic=self.deterministic)
            elif code.split(":", 1)[0].strip().lower() == "policy":      # a trained run: its greedy policy,
                from .checkpoints import resolve_model  # loaded once per process
                agent = SnapshotAgent(resolve_model(code.split(":", 1)[1].strip()), deterministic=True)
            else:
                from blackangel_env.agents import make_agent
                agent = make_agent(code)
            self._agents[(seat, code)] = agent
        return agent

    # -- Gymnasium API ----------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new episode.  ``options`` may fix the learner's ``"seat"`` and the ``"opponents"`` (agent codes for
        the other seats in seat order, or one code for all of them) instead of drawing them."""
        super().reset(seed=seed)
        options = options or {}
        rng = self.np_random
        n = self.num_players
        seat = (self.index + self.episodes) % n if self.seat_mode == "rotate" else int(rng.integers(n))
        seat = int(options.get("seat", seat))
        if not 0 <= seat < n:
            raise ValueError(f"options['seat'] must be 0..{n - 1}, got {seat}")
        self.episodes += 1
        others = [p for p in range(n) if p != seat]
        fixed = options.get("opponents")
        if fixed is not None:
            fixed = [fixed] * len(others) if isinstance(fixed, str) else list(fixed)
            if len(fixed) != len(others):
                raise ValueError(f"options['opponents'] needs {len(others)} codes, got {len(fixed)}")
            self.opponents = fixed
        else:
            table = self.pool.sample(rng) if not self.per_seat else None
            self.opponents = [table if table is not None else self.pool.sample(rng) for _ in others]
        for p, code in zip(others, self.opponents):
            self._slots[p].agent = self._agent(p, code)
        self._env = self._inner(seat)
        obs, info = self._env.reset(seed=int(rng.integers(0, 2**63 - 1)))
        return obs, self._info(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = self._env.step(action)
        return obs, reward, terminated, truncated, self._info(info)

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        info["learner_seat"] = self._env.seat
        if info.get("game_over"):
            info["opponents"] = [c if not c.startswith(SNAPSHOT) else SNAPSHOT + Path(c[len(SNAPSHOT):]).stem
                                 for c in self.opponents]
        return info

    def action_masks(self) -> np.ndarray:
        return self._env.action_masks()

    def render(self):
        return self._env.render()

    @property
    def seat(self) -> int:
        """The learner's seat in the episode in progress."""
        return self._env.seat

    @property
    def game_state(self):
        """The engine state of the episode in progress."""
        return self._env.game_state
