"""Single-agent Gymnasium views of Black Angel, for Stable-Baselines3 and other single-agent libraries.

``BlackAngelSingleAgentEnv``: the learner holds one seat (``seat``, default 0); every other decision is taken
inside ``step``: Hal's turns by the engine (solo), the other players' decisions by opponent policies.  Registered
when ``blackangel_env`` is imported:

* ``gymnasium.make("BlackAngelSolo-v0", hal_difficulty="standard", advanced=False)``: solo against Hal;
* ``gymnasium.make("BlackAngel-v0", num_players=3, opponents=None)``: a table of 2-4 players, the others
  played by ``opponents`` (uniform random over legal actions by default).

Both ids have ``blackangel_env.vector.BlackAngelVectorEnv`` (N games batched in one process) as their
``vector_entry_point``: ``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")``.

Spaces.  Observation: the learner's flat ``Box(0, high, (5692,), float32)`` view (``docs/observation.md``).
Action: ``Discrete(882)`` (``docs/actions.md``).

Masks.  ``action_masks()`` returns the boolean legal-action mask of the learner; it lives on the environment
itself so that sb3-contrib's MaskablePPO works through ``SubprocVecEnv`` (``env_method("action_masks")``).
``info["action_mask"]`` is the same array (bool, same content) at every step.  Once the episode is over (ended or
truncated) both are all True: no action is legal then, but a masked sampler fed the last mask (Gymnasium's vector
autoreset steps a finished environment once more, ignoring the action, to reset it) never sees an all-False mask.
Gymnasium's ``Discrete.sample(mask=...)`` wants int8: ``mask.astype(np.int8)``.

Info.  The same keys, shapes and dtypes at every step, ``reset`` included: ``"action_mask"`` (above),
``"illegal_action"`` (0-d bool array, below), and the result keys of ``blackangel_env.outcome``: ``"scores"``
(int64, one VP total per player; the final scores once the game is over), ``"hal_score"`` (``np.int64``, Hal's VP;
-1 without Hal), ``"winners"`` (int8, 1 per player sharing the victory, all 0 until the end), ``"game_over"`` (0-d
bool array).  Numpy scalars and arrays only: Gymnasium's vector API, TorchRL and Tianshou batch them as they are.

Rewards (``reward=``, ``reward_scale``): the schemes of ``blackangel_env.outcome`` (``"win"`` by default,
``"margin"``, ``"dense_margin"``, ``"vp"``), from the learner's point of view; a step's reward sums everything that
happened to the learner from its action up to its next decision (the opponents' and Hal's moves included).

Actions.  An action must be an integer id of the action space (a Python or numpy integer, or a 0-d integer array;
not a bool, float, string or sequence): anything else raises ``IllegalActionError`` (a ``ValueError``) and
changes nothing.  An id that the mask forbids (SB3's ``check_env`` samples actions without masks) does not raise:
the game is left unchanged, the reward is ``illegal_reward`` (default -0.1), ``info["illegal_action"]`` is True,
and the step still counts toward ``max_steps`` (default 2000 learner steps), after which the episode is
truncated (a truncating step also pays what the learner earned before its first decision, if no legal step has
paid it yet: the per-step schemes' rewards add up to the quantity at the cut, as documented).  ``step`` before
``reset`` or after the episode is over raises ``RuntimeError``.

Render modes: ``"ansi"`` (returns the text of ``blackangel_env.render``) and ``"human"`` (prints it).  The other
standard Gymnasium modes (``"rgb_array"``, which Stable-Baselines3's ``make_vec_env`` asks for by default,
``"rgb_array_list"``, ``"depth_array"``) are accepted with a warning, as ``gymnasium.make`` does for a mode an
environment lacks, and ``render()`` then warns and returns None; any other value is refused.

Opponents (``opponents=``): None (uniform random legal moves drawn from the environment's seeded generator), one
policy for every other seat, a sequence with one policy per other seat in seat order, or a dict ``{seat:
policy}`` (missing seats play randomly).  A policy is any callable ``policy(observation, action_mask, state) ->
action id`` or an object with such an ``act`` method: ``observation`` is that seat's own float32 view, ``action_mask``
its int8 legal-action mask, ``state`` a copy of the engine state (full information: a fair policy only uses it
for search over what it may know).  It returns an action id as the learner gives one (a Python or numpy integer,
or a 0-d integer array); anything else, or an id its mask forbids, raises ``IllegalActionError`` naming the seat.
When a policy raises, or returns such an action, in the middle of ``step``, the step is undone before the error
propagates: the game, the step count, the pending reward and the environment's generator are as they were before
the learner's action (the policies' own state excepted), so the learner may retry.  A failure during ``reset``
leaves no game: ``step`` then asks for a new ``reset``.  Objects with a ``reset(seed)`` method are reset with a
seed drawn from the environment at every episode.
"""

from __future__ import annotations

import warnings

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import actions as A
from . import engine
from .components import default_components, load_components
from .config import GameConfig, positive_int_or_none, seed_or_none
from .encoding import SeatEncoder, encode_observation, observation_high
from .engine import IllegalActionError
from .outcome import check_reward, margins, result_info, terminal_rewards
from .state import State

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
        legal = np.flatnonzero(A.mask_array(action_mask, type(self).__name__))
        if len(legal) == 0:
            raise ValueError(f"{type(self).__name__}: the action mask allows no action")
        return int(legal[int(self.rng.integers(len(legal)))])

    __call__ = act


def _as_callable(policy: Any) -> Callable[[np.ndarray, np.ndarray, State], int]:
    if hasattr(policy, "act") and callable(policy.act):
        return policy.act
    if callable(policy):
        return policy
    hint = (f" (for the agent code {policy!r}, pass blackangel_env.agents.make_agent({policy!r}))"
            if isinstance(policy, str) else "")
    raise TypeError(f"an opponent policy must be callable or have an act() method, got {type(policy).__name__}"
                    f"{hint}")


# Standard Gymnasium render modes this environment does not draw: accepted with a warning (module docstring)
UNSUPPORTED_RENDER_MODES = ("rgb_array", "rgb_array_list", "depth_array")


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
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < num_players:
            raise ValueError(f"seat must be an integer 0..{num_players - 1}, got {seat!r}")
        self.seat = int(seat)
        self.reward_scheme = reward
        self.reward_scale = check_reward(reward, reward_scale)
        if isinstance(illegal_reward, (bool, np.bool_)) or not isinstance(illegal_reward, (int, float, np.integer,
                                                                                             np.floating)):
            raise ValueError(f"illegal_reward must be a number, got {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        if not np.isfinite(self.illegal_reward):
            raise ValueError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
        self.max_steps = positive_int_or_none("max_steps", max_steps)
        if render_mode in UNSUPPORTED_RENDER_MODES:
            gym.logger.warn(f"BlackAngel renders as text only (render modes {self.metadata['render_modes']}); "
                            f"render_mode={render_mode!r} is accepted and render() will return None")
        elif render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None "
                             f"(or a standard mode it cannot draw: {UNSUPPORTED_RENDER_MODES}), got {render_mode!r}")
        self.render_mode = render_mode
        self._opponents = self._normalise_opponents(opponents, num_players)
        for pol in self._opponents.values():       # refused here rather than at the first reset
            if pol is not None:
                _as_callable(pol)
        self._has_policies = any(pol is not None for pol in self._opponents.values())
        high = observation_high(self._comp)
        self.observation_space = spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32)
        self.action_space = spaces.Discrete(A.NUM_ACTIONS)
        self._state: State | None = None
        self._encoder = SeatEncoder(seat)        # the learner's observations, re-encoded where the state changed
        self._mask: np.ndarray | None = None
        self._all_true = np.ones(A.NUM_ACTIONS, dtype=bool)
        self._over = False                      # the episode has ended or been truncated
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
        """Start a new game (``seed``: module docstring).  The game takes no reset options: ``options`` that are not
        a dict (or None) raise TypeError before anything changes, and the keys of a dict are ignored with a warning
        that names them (as ``raw_env.reset`` does with the keys it does not know)."""
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"reset: options must be a dict or None, got {type(options).__name__}")
        if options:
            warnings.warn(f"reset: {type(self).__name__} takes no reset options; ignored: "
                          f"{', '.join(map(repr, options))}", stacklevel=2)
        self._start(seed)
        return self._observe(), self._info(False)

    def step(self, action):
        reward, terminated, truncated, illegal = self._play(action)
        return self._observe(), reward, terminated, truncated, self._info(illegal)

    def _start(self, seed: int | None) -> None:
        """``reset`` without its observation and info (the vector environment writes those into its batches).
        If an opponent policy fails, no game is left (``step`` asks for a new ``reset``)."""
        seed = seed_or_none("reset: seed", seed)
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63 - 1))
        self.game_seed = game_seed
        self._state = None
        state = engine.new_game(self.config, seed=game_seed, components=self._comp)
        self._calls = {p: (None if pol is None else _as_callable(pol)) for p, pol in self._opponents.items()}
        for pol in self._opponents.values():
            if pol is not None and hasattr(pol, "reset") and callable(pol.reset):
                pol.reset(int(self.np_random.integers(0, 2**31 - 1)))
        self.num_steps = 0
        self._over = False
        # the potential whose change each step pays (vp: own VP, counted from the start; dense_margin: the margin,
        # counted from 0 so that the rewards add up to the final margin)
        self._potential = int(state.vp[self.seat]) if self.reward_scheme == "vp" else 0
        self._state = state
        try:
            reward = self._advance()           # opponents moving before the learner's first decision
        except BaseException:
            self._state = None
            raise
        self._pending_reward = reward
        if self._state.terminal:
            self._over = True

    def _snapshot(self) -> tuple | None:
        """What a step changes, kept so that ``_restore`` can undo it: None when no opponent is a policy (the
        engine and the random seats cannot fail halfway through a step)."""
        if not self._has_policies:
            return None
        return (self._state.copy(keep_log=True), self.np_random.bit_generator.state, self.num_steps, self._over,
                self._potential, self._pending_reward, self._mask, self.game_seed)

    def _restore(self, snap: tuple | None) -> None:
        """Undo what happened since ``_snapshot``: the game in place (the same ``State`` object), the counters,
        the pending reward and the environment's generator."""
        if snap is None:
            return
        state, rng_state, self.num_steps, self._over, self._potential, self._pending_reward, self._mask, \
            self.game_seed = snap
        if self._state is None:                # a reset (the vector environment's autoreset) failed halfway
            self._state = state
        else:
            self._state.restore(state)
        self.np_random.bit_generator.state = rng_state

    def _play(self, action) -> tuple[float, bool, bool, bool]:
        """``step`` without its observation and info: (reward, terminated, truncated, illegal)."""
        s = self._state
        if s is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over (terminated or truncated): call reset() before step()")
        a = self._as_action(action)            # IllegalActionError, before anything changes
        snap = self._snapshot()
        try:
            return self._play_checked(s, a)
        except BaseException:
            self._restore(snap)                # an opponent policy failed: the step is undone
            raise

    def _play_checked(self, s: State, a: int) -> tuple[float, bool, bool, bool]:
        """``_play`` of the action id ``a``, checked to be in the action space."""
        self.num_steps += 1
        truncated = self.max_steps is not None and self.num_steps >= self.max_steps
        mask = self._mask                      # the mask action_masks() made, or the engine's legal list
        if not (mask[a] if mask is not None else a in engine.legal_actions(s)):
            self._over = truncated
            reward = self.illegal_reward
            if truncated:                      # the episode ends here: the reward held since reset is paid now
                reward += self._pending_reward
                self._pending_reward = 0.0
            return reward, False, truncated, True
        engine.apply(s, a)
        self._mask = None
        reward = self._pending_reward + self._step_reward()
        self._pending_reward = 0.0
        reward += self._advance()
        terminated = s.terminal
        if terminated:
            reward += terminal_rewards(s, self.reward_scheme, self.reward_scale)[self.seat]
            truncated = False
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return float(reward), terminated, bool(truncated), False

    def action_masks(self) -> np.ndarray:
        """Boolean legal-action mask of the learner (all True once the episode is over: module docstring)."""
        if self._state is None:
            raise RuntimeError("call reset() before action_masks()")
        if self._over:
            return self._all_true.copy()
        return self._legal_mask().astype(bool)

    def render(self):
        """``"ansi"``: the text of the state from the learner's seat; ``"human"``: printed; else a warning."""
        if self._state is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode not in self.metadata["render_modes"]:
            gym.logger.warn(f"render_mode={self.render_mode!r}: nothing to render (the render modes are "
                            f"{self.metadata['render_modes']})")
            return None
        from .render import render as render_text        # imported on first use: training never pays for it
        text = render_text(self._state, self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass

    # -- internals ------------------------------------------------------------------------------------------
    @property
    def game_state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _as_action(self, action) -> int:
        """The action id of ``action`` (module docstring); IllegalActionError for anything outside the space."""
        if type(action) is int:
            a = action
        elif isinstance(action, np.integer):
            a = int(action)
        elif isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            a = int(action)
        else:
            shape = f" of shape {action.shape}" if isinstance(action, np.ndarray) else ""
            raise IllegalActionError(f"an action must be an integer id 0..{A.NUM_ACTIONS - 1} of "
                                     f"Discrete({A.NUM_ACTIONS}), got {action!r} ({type(action).__name__}{shape})")
        if not 0 <= a < A.NUM_ACTIONS:
            raise IllegalActionError(f"action {a} is outside the action space Discrete({A.NUM_ACTIONS})")
        return a

    def _opponent_action(self, action: Any, seat: int) -> int:
        """The action id an opponent policy returned for ``seat`` (the learner's forms); IllegalActionError
        naming the seat for anything else."""
        try:
            return self._as_action(action)
        except IllegalActionError as e:
            raise IllegalActionError(f"the opponent policy of player_{seat} returned an invalid action: {e}") \
                from None

    def _legal_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = engine.legal_mask(self._state)
        return self._mask

    def _step_reward(self) -> float:
        """The per-step reward (``vp``, ``dense_margin``) since the last call: the change of the potential."""
        scheme = self.reward_scheme
        if scheme == "vp":
            v = self._state.vp.item(self.seat)
        elif scheme == "dense_margin":
            v = margins(self._state)[self.seat]
        else:
            return 0.0
        r = self.reward_scale * (v - self._potential)
        self._potential = v
        return r

    def _advance(self) -> float:
        """Play the other seats until the learner must decide or the game ends; the learner's VP reward."""
        s = self._state
        while not s.terminal and s.actor != self.seat:
            p = s.actor
            call = self._calls.get(p)
            if call is None:
                legal = engine.legal_actions(s)
                a = legal[int(self.np_random.integers(len(legal)))]
            else:
                a = self._opponent_action(call(encode_observation(s, p), engine.legal_mask(s), s.copy()), p)
            engine.apply(s, a)
        self._mask = None
        return self._step_reward()

    def _observe(self) -> np.ndarray:
        return self._encoder.encode(self._state)

    def _info(self, illegal: bool) -> dict[str, Any]:
        """The step's info: the same keys, shapes and dtypes at every step (module docstring)."""
        info = {"action_mask": self.action_masks(), "illegal_action": np.array(illegal)}
        info.update(result_info(self._state))
        return info


# gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point") (and make_vec without a mode)
VECTOR_ENTRY_POINT = "blackangel_env.vector:BlackAngelVectorEnv"
SOLO_VECTOR_ENTRY_POINT = "blackangel_env.vector:solo_vector_env"


def check_solo(options: Mapping[str, Any]) -> None:
    """``BlackAngelSolo-v0`` is the solo game: a ``num_players`` other than 1 among its options is refused."""
    n = options.get("num_players", 1)
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n != 1:
        raise ValueError(f"BlackAngelSolo-v0 is the solo game against Hal (num_players=1), got num_players={n!r}; "
                         "use BlackAngel-v0 for a table of 2-4 players")


def solo_env(**options: Any) -> BlackAngelSingleAgentEnv:
    """``BlackAngelSolo-v0``'s entry point: ``BlackAngelSingleAgentEnv(**options)`` for the solo game."""
    check_solo(options)
    return BlackAngelSingleAgentEnv(**options)


def register_envs() -> None:
    """Register ``BlackAngelSolo-v0`` and ``BlackAngel-v0`` with Gymnasium, each with ``VECTOR_ENTRY_POINT`` as its
    vector entry point (idempotent)."""
    registry = gym.envs.registration.registry
    if "BlackAngelSolo-v0" not in registry:
        gym.register(id="BlackAngelSolo-v0", entry_point="blackangel_env.gym_env:solo_env",
                     vector_entry_point=SOLO_VECTOR_ENTRY_POINT, kwargs={"num_players": 1})
    if "BlackAngel-v0" not in registry:
        gym.register(id="BlackAngel-v0", entry_point="blackangel_env.gym_env:BlackAngelSingleAgentEnv",
                     vector_entry_point=VECTOR_ENTRY_POINT, kwargs={"num_players": 2})


register_envs()
