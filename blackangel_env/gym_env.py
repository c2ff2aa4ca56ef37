"""Single-agent Gymnasium views of Black Angel, for Stable-Baselines3 and other single-agent libraries.

``BlackAngelSingleAgentEnv``: the learner holds one seat (``seat``, default 0); every other decision is taken
inside ``step``: Hal's turns by the engine (solo), the other players' decisions by opponent policies.  Registered
when ``blackangel_env`` is imported:

* ``gymnasium.make("BlackAngelSolo-v0", hal_difficulty="standard", advanced=False)``: solo against Hal;
* ``gymnasium.make("BlackAngel-v0", num_players=3, opponents=None)``: a table of 2-4 players, the others
  played by ``opponents`` (uniform random over legal actions by default).

Spaces.  Observation: the learner's flat ``Box(0, high, (5692,), float32)`` view (``docs/observation.md``).
Action: ``Discrete(882)`` (``docs/actions.md``).  ``action_masks()`` returns the boolean legal-action mask of the
learner (all True once the episode is over, so that it is never all False); it lives on the environment itself so
that sb3-contrib's MaskablePPO works through ``SubprocVecEnv`` (``env_method("action_masks")``).  ``info`` also
carries ``"action_mask"`` (the same mask as int8, all zeros once the game is over), and at the end ``"scores"``,
``"winners"`` (and ``"hal_score"`` in the solo game).

Rewards: the schemes of the AEC environment (``reward="win" | "margin" | "vp"``, ``reward_scale``), from the
learner's point of view; a step's reward sums everything that happened to the learner from its action up to its
next decision (the opponents' and Hal's moves included).

Illegal actions (SB3's ``check_env`` samples actions without masks) do not raise: the game is left unchanged,
the reward is ``illegal_reward`` (default -0.1), ``info["illegal_action"]`` is True, and the step still counts
toward ``max_steps`` (default 2000 learner steps), after which the episode is truncated.

Opponents (``opponents=``): None (uniform random legal moves drawn from the environment's seeded generator), one
policy for every other seat, a sequence with one policy per other seat in seat order, or a dict ``{seat:
policy}`` (missing seats play randomly).  A policy is any callable ``policy(observation, action_mask, state) ->
action id`` or an object with such an ``act`` method: ``observation`` is that seat's own float32 view, ``action_mask``
its int8 legal-action mask, ``state`` a copy of the engine state (full information: a fair policy only uses it
for search over what it may know).  A returned illegal action raises ``IllegalActionError``.  Objects with a
``reset(seed)`` method are reset with a seed drawn from the environment at every episode.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import actions as A
from . import engine
from .components import default_components, load_components
from .config import GameConfig
from .encoding import SeatEncoder, encode_observation, observation_high
from .pettingzoo_env import _check_reward, render_mode_output, terminal_rewards
from .state import BOT, M_SOLO, State

__all__ = ["BlackAngelSingleAgentEnv", "OpponentPolicy", "RandomPolicy", "register_envs"]


class OpponentPolicy(Protocol):
    """``policy(observation, action_mask, state) -> action id`` (or the same signature as an ``act`` method)."""

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray, state: State) -> int: ...


class RandomPolicy:
    """Uniform random over the legal actions, with its own seeded generator."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> int:
        legal = np.flatnonzero(np.asarray(action_mask))
        if len(legal) == 0:
            raise ValueError(f"{type(self).__name__}: the action mask allows no action")
        return int(legal[int(self.rng.integers(len(legal)))])

    __call__ = act


def _as_callable(policy: Any) -> Callable[[np.ndarray, np.ndarray, State], int]:
    if hasattr(policy, "act") and callable(policy.act):
        return policy.act
    if callable(policy):
        return policy
    raise TypeError(f"an opponent policy must be callable or have an act() method, got {type(policy).__name__}")


class BlackAngelSingleAgentEnv(gym.Env):
    """One learner seat of a Black Angel game; the other seats play inside ``step`` (module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, num_players: int = 1, advanced: bool = False, hal_difficulty: str = "standard",
                 seat: int = 0, opponents: Any = None, reward: str = "win", reward_scale: float | None = None,
                 illegal_reward: float = -0.1, max_steps: int | None = 2000, render_mode: str | None = None,
                 components: str | None = None):
        super().__init__()
        self.config = GameConfig(num_players=num_players, advanced=advanced, hal_difficulty=hal_difficulty,
                                 components=components)
        self._comp = load_components(components) if components else default_components()
        if not 0 <= seat < num_players:
            raise ValueError(f"seat must be 0..{num_players - 1}, got {seat!r}")
        self.seat = seat
        self.reward_scheme = reward
        self.reward_scale = _check_reward(reward, reward_scale)
        self.illegal_reward = float(illegal_reward)
        if max_steps is not None and int(max_steps) <= 0:
            raise ValueError(f"max_steps must be a positive integer or None, got {max_steps!r}")
        self.max_steps = None if max_steps is None else int(max_steps)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self._opponents = self._normalise_opponents(opponents, num_players)
        high = observation_high(self._comp)
        self.observation_space = spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32)
        self.action_space = spaces.Discrete(A.NUM_ACTIONS)
        self._state: State | None = None
        self._encoder = SeatEncoder(seat)        # the learner's observations, re-encoded where the state changed
        self._mask: np.ndarray | None = None
        self._all_true = np.ones(A.NUM_ACTIONS, dtype=bool)
        self.num_steps = 0
        self.game_seed: int | None = None

    # -- opponents ------------------------------------------------------------------------------------------
    def _normalise_opponents(self, opponents: Any, n: int) -> dict[int, Any]:
        others = [p for p in range(n) if p != self.seat]
        if n == 1:
            if opponents is not None:
                raise ValueError("the solo game has no opponent seats (Hal plays inside the engine); "
                                 "leave opponents=None")
            return {}
        if opponents is None:
            return {p: None for p in others}
        if isinstance(opponents, Mapping):
            bad = set(opponents) - set(others)
            if bad:
                raise ValueError(f"opponents given for seats {sorted(bad)}, which are not opponent seats "
                                 f"{others}")
            return {p: opponents.get(p) for p in others}
        if isinstance(opponents, Sequence) and not isinstance(opponents, (str, bytes)):
            if len(opponents) != len(others):
                raise ValueError(f"give one opponent policy per other seat ({len(others)}), got {len(opponents)}")
            return dict(zip(others, opponents))
        return {p: opponents for p in others}

    # -- Gymnasium API ----------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63 - 1))
        self.game_seed = game_seed
        self._state = engine.new_game(self.config, seed=game_seed, components=self._comp)
        self._calls = {p: (None if pol is None else _as_callable(pol)) for p, pol in self._opponents.items()}
        for pol in self._opponents.values():
            if pol is not None and hasattr(pol, "reset") and callable(pol.reset):
                pol.reset(int(self.np_random.integers(0, 2**31 - 1)))
        self.num_steps = 0
        self._vp = int(self._state.vp[self.seat])
        reward = self._advance()           # opponents moving before the learner's first decision
        self._pending_reward = reward
        return self._observe(), self._info()

    def step(self, action):
        s = self._state
        if s is None:
            raise RuntimeError("call reset() before step()")
        if s.terminal:
            return self._observe(), 0.0, True, False, self._info()
        self.num_steps += 1
        truncated = self.max_steps is not None and self.num_steps >= self.max_steps
        a = self._as_action(action)
        mask = self._legal_mask()
        if a is None or not mask[a]:
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, False, truncated, info
        engine.apply(s, a)
        self._mask = None
        reward = self._pending_reward + self._vp_reward()
        self._pending_reward = 0.0
        reward += self._advance()
        terminated = s.terminal
        if terminated:
            reward += terminal_rewards(s, self.reward_scheme, self.reward_scale)[self.seat]
            truncated = False
        if self.render_mode == "human":
            self.render()
        return self._observe(), float(reward), terminated, bool(truncated and not terminated), self._info()

    def action_masks(self) -> np.ndarray:
        """Boolean legal-action mask of the learner (all True once the game is over)."""
        s = self._state
        if s is None or s.terminal:
            return self._all_true.copy()
        return self._legal_mask().astype(bool)

    def render(self):
        return render_mode_output(self.render_mode, self._state, self.seat)

    def close(self) -> None:
        pass

    # -- internals ------------------------------------------------------------------------------------------
    @property
    def game_state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _as_action(self, action) -> int | None:
        try:
            a = int(np.asarray(action).reshape(()))
        except (TypeError, ValueError):
            return None
        return a if 0 <= a < A.NUM_ACTIONS else None

    def _legal_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = engine.legal_mask(self._state)
        return self._mask

    def _vp_reward(self) -> float:
        if self.reward_scheme != "vp":
            return 0.0
        v = int(self._state.vp[self.seat])
        r = self.reward_scale * (v - self._vp)
        self._vp = v
        return r

    def _advance(self) -> float:
        """Play the other seats until the learner must decide or the game ends; the learner's VP reward."""
        s = self._state
        reward = 0.0
        while not s.terminal and s.actor != self.seat:
            p = s.actor
            call = self._calls.get(p)
            if call is None:
                legal = engine.legal_actions(s)
                a = legal[int(self.np_random.integers(len(legal)))]
            else:
                a = call(encode_observation(s, p), engine.legal_mask(s), s.copy())
            engine.apply(s, a)
            reward += self._vp_reward()
        self._mask = None
        return reward + self._vp_reward()

    def _observe(self) -> np.ndarray:
        return self._encoder.encode(self._state)

    def _info(self) -> dict[str, Any]:
        s = self._state
        info: dict[str, Any] = {"action_mask": self._legal_mask().copy() if not s.terminal
                                else np.zeros(A.NUM_ACTIONS, dtype=np.int8)}
        if s.terminal:
            info["scores"] = engine.final_scores(s)
            info["winners"] = engine.winners(s)
            if s.m[M_SOLO]:
                info["hal_score"] = int(s.vp[BOT])
        return info


def register_envs() -> None:
    """Register ``BlackAngelSolo-v0`` and ``BlackAngel-v0`` with Gymnasium (idempotent)."""
    registry = gym.envs.registration.registry
    if "BlackAngelSolo-v0" not in registry:
        gym.register(id="BlackAngelSolo-v0", entry_point="blackangel_env.gym_env:BlackAngelSingleAgentEnv",
                     kwargs={"num_players": 1})
    if "BlackAngel-v0" not in registry:
        gym.register(id="BlackAngel-v0", entry_point="blackangel_env.gym_env:BlackAngelSingleAgentEnv",
                     kwargs={"num_players": 2})


register_envs()
