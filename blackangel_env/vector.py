"""A Gymnasium ``VectorEnv`` of N Black Angel games in one process: ``BlackAngelVectorEnv``.

Each game is a ``blackangel_env.gym_env.BlackAngelSingleAgentEnv`` (the Gymnasium view: one learner seat, Hal and
the opponents playing inside ``step``); this class only batches them, so the options, reward schemes, masks and
info keys are those of ``BlackAngelSolo-v0`` / ``BlackAngel-v0`` (docs/integrations.md).  Registered as the
``vector_entry_point`` of both ids when ``blackangel_env`` is imported:
``gymnasium.make_vec("BlackAngelSolo-v0", num_envs=N, vectorization_mode="vector_entry_point", **options)``
(also what ``make_vec`` gives when ``vectorization_mode`` is left out), or ``BlackAngelVectorEnv(N, **options)``.

Batches.  ``reset`` and ``step`` return observations ``(N, 5692)`` float32, rewards ``(N,)`` float64,
terminations and truncations ``(N,)`` bool, and the info as Gymnasium's vector convention stacks it: every key of
the single environment's info (``action_mask`` ``(N, 882)`` bool, ``illegal_action`` ``(N,)`` bool, ``scores``
``(N, num_players)`` int64, ``hal_score`` ``(N,)`` int64, ``winners`` ``(N, num_players)`` int8, ``game_over``
``(N,)`` bool), each with its ``_key`` presence mask (all True: every game reports every key at every step).
Every ``reset`` and ``step`` returns new arrays, which later calls never write into.
``action_masks()`` returns the ``(N, 882)`` bool masks of the last ``reset`` / ``step`` (a copy), the same as
``info["action_mask"]``.  Actions: an integer array of shape ``(N,)`` (or a sequence of N Python ints), each an id
of ``Discrete(882)``; anything else raises ``IllegalActionError`` (a ``ValueError``) before any game moves.  An id
the mask forbids is handled per game as in the Gymnasium view (``illegal_reward``, ``info["illegal_action"]``).

Autoreset.  ``autoreset_mode=AutoresetMode.NEXT_STEP`` (``"NextStep"`` or ``"next_step"``), the default, as
``SyncVectorEnv``; ``metadata["autoreset_mode"]`` says which: the step after a game's last one resets that game
(without a seed: the game's own generator draws it), ignores its action, and returns reward 0, not terminated, not
truncated and the reset's observation and info.  The mask on a game's last step is all True (the Gymnasium view's
rule), so a masked sampler always has a choice and no live game is ever handed an all-False mask.
``AutoresetMode.SAME_STEP`` (``"SameStep"`` or ``"same_step"``; the Stable-Baselines3 adapter
``blackangel_env.training.sb3_vec_env`` uses it): a game that ends is reset in the same step; the returned
observation, mask and info are the new game's, the last ones are in ``info["final_obs"]`` (object array, None for
the games that did not end) and ``info["final_info"]`` (the stacked info of the games that ended), with their
``_final_obs`` / ``_final_info`` masks.  ``AutoresetMode.DISABLED`` is refused.

Seeding.  ``reset(seed=s)`` resets game i with seed ``s + i`` (a list or 1-d array of N seeds is also accepted; None draws
fresh seeds): the same seeds and actions give the same trajectories as N separate ``gymnasium.make`` environments
reset with those seeds, and as ``SyncVectorEnv``.

Opponents (``BlackAngel-v0``, ``num_players`` 2-4): ``opponents`` is passed to every game, so one policy object is
shared by the N games (a policy keeping per-game state should not be); by default each game plays its other seats
uniformly at random from its own seeded generator.  When a policy fails during ``step`` (it raises, or returns an
invalid action), every game is put back as it was before the step and the error propagates, as in the single
environment.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.error import ClosedEnvironmentError
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import actions as A
from . import engine
from .config import seed_or_none
from .engine import IllegalActionError
from .gym_env import BlackAngelSingleAgentEnv, check_solo
from .outcome import write_result_rows

__all__ = ["BlackAngelVectorEnv", "ENV_OPTIONS", "solo_vector_env"]

# the options of the single environment, which the vector environment passes to every game
ENV_OPTIONS = tuple(p for p in inspect.signature(BlackAngelSingleAgentEnv.__init__).parameters if p != "self")
# the autoreset modes supported, by Gymnasium's value and by name
_AUTORESET_MODES = {"NextStep": AutoresetMode.NEXT_STEP, "next_step": AutoresetMode.NEXT_STEP,
                    "SameStep": AutoresetMode.SAME_STEP, "same_step": AutoresetMode.SAME_STEP}


class BlackAngelVectorEnv(VectorEnv):
    """N Black Angel games batched in one process, each a ``BlackAngelSingleAgentEnv`` (module docstring)."""

    def __init__(self, num_envs: int = 1, autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
                 **options: Any):
        super().__init__()
        self.envs: list = []        # close() (also run by __del__ when a bad argument stops __init__) closes these
        if isinstance(num_envs, (bool, np.bool_)) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        unknown = sorted(set(options) - set(ENV_OPTIONS))
        if unknown:
            raise TypeError(f"unknown option(s) {unknown} for BlackAngelVectorEnv; the options are "
                            f"num_envs, autoreset_mode and those of the single environment: {list(ENV_OPTIONS)}")
        mode = _AUTORESET_MODES.get(autoreset_mode) if isinstance(autoreset_mode, str) else autoreset_mode
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode must be AutoresetMode.NEXT_STEP ('NextStep', 'next_step', the default) "
                             f"or AutoresetMode.SAME_STEP ('SameStep', 'same_step'), got {autoreset_mode!r}")
        self.autoreset_mode = mode
        self.num_envs = int(num_envs)
        self.envs = [BlackAngelSingleAgentEnv(**options) for _ in range(self.num_envs)]
        first = self.envs[0]
        self.metadata = {**first.metadata, "autoreset_mode": mode}
        self.render_mode = first.render_mode
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._obs = np.zeros((self.num_envs, *self.single_observation_space.shape), dtype=np.float32)
        self._rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._terminations = np.zeros(self.num_envs, dtype=bool)
        self._truncations = np.zeros(self.num_envs, dtype=bool)
        self._autoreset = np.zeros(self.num_envs, dtype=bool)
        self._masks: np.ndarray | None = None

    # -- Gymnasium VectorEnv API ----------------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Reset every game: game i with ``seed + i`` (or ``seed[i]`` for a list; None: fresh seeds).  The games take
        no reset options: a non-empty ``options`` (``SyncVectorEnv``'s ``reset_mask`` included) raises ValueError."""
        self._check_open("reset")
        if options:
            raise ValueError(f"BlackAngelVectorEnv.reset takes no options (every game is reset; reset_mask is not "
                             f"supported), got {sorted(options)}")
        seeds = self._seeds(seed)
        batch = self._new_info()
        self._obs = np.empty_like(self._obs)       # a new batch each call: the one returned before stays as it was
        try:
            for env, s in zip(self.envs, seeds):
                env._start(s)
            self._write(batch)
        except BaseException:
            self._masks = None                      # an opponent policy failed: step asks for a new reset
            raise
        self._terminations[:] = False
        self._truncations[:] = False
        self._autoreset[:] = False
        return self._obs, self._info(batch)

    def step(self, actions):
        """Step every game with its action (autoreset: module docstring); the batched five-tuple."""
        self._check_open("step")
        acts = self._check_actions(actions)           # raises before any game moves
        if self._masks is None:
            raise RuntimeError("call reset() before step()")
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        undo = self._snapshot()
        try:
            return self._step(acts, same_step)
        except BaseException:
            self._restore(undo)                     # an opponent policy failed: no game has moved
            raise

    def _step(self, acts: np.ndarray, same_step: bool):
        """``step`` of checked actions."""
        batch = self._new_info()
        self._obs = np.empty_like(self._obs)       # written in place of a copy: less memory traffic
        final_obs: dict[int, np.ndarray] = {}
        final_infos: dict[int, dict[str, Any]] = {}
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        for i, env in enumerate(self.envs):
            if self._autoreset[i]:                    # next_step: this step resets the game, its action ignored
                env._start(None)
                rewards[i] = 0.0
                terminations[i] = truncations[i] = False
                illegal = False
            else:
                rewards[i], terminated, truncated, illegal = env._play(acts.item(i))
                terminations[i] = terminated
                truncations[i] = truncated
                if same_step and (terminated or truncated):
                    final_obs[i] = env._observe()
                    final_infos[i] = env._info(illegal)
                    env._start(None)
                    illegal = False
            if illegal:
                batch["illegal_action"][i] = True
        self._write(batch)
        if not same_step:
            self._autoreset = terminations | truncations
        out = self._info(batch)
        if final_obs:
            fo = np.full(self.num_envs, None, dtype=object)
            for i, o in final_obs.items():
                fo[i] = o
            out["final_obs"] = fo
            out["_final_obs"] = np.isin(np.arange(self.num_envs), list(final_obs))
            fi: dict[str, Any] = {}
            for i, info in final_infos.items():
                fi = self._add_info(fi, info, i)
            out["final_info"] = fi
            out["_final_info"] = out["_final_obs"].copy()
        return (self._obs, self._rewards.copy(), self._terminations.copy(), self._truncations.copy(), out)

    def action_masks(self) -> np.ndarray:
        """The ``(N, 882)`` bool legal-action masks of the last ``reset`` / ``step`` (``info["action_mask"]``)."""
        if self._masks is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._masks.copy()

    def render(self) -> tuple[Any, ...] | None:
        """Each game's ``render()`` (text with ``render_mode="ansi"``), as ``SyncVectorEnv`` does."""
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        """Close every game."""
        for env in self.envs:
            env.close()

    # -- internals ------------------------------------------------------------------------------------------
    def _check_open(self, what: str) -> None:
        """Gymnasium's ``ClosedEnvironmentError`` once ``close()`` has run."""
        if self.closed:
            raise ClosedEnvironmentError(f"BlackAngelVectorEnv.{what}: the environment is closed")

    def _snapshot(self) -> tuple | None:
        """Each game's ``_snapshot`` and the batches a step changes, when the games have opponent policies (which
        may fail halfway through a step); None otherwise."""
        if not self.envs[0]._has_policies:
            return None
        return ([env._snapshot() for env in self.envs], self._obs, self._masks, self._rewards.copy(),
                self._terminations.copy(), self._truncations.copy(), self._autoreset.copy())

    def _restore(self, undo: tuple | None) -> None:
        """Undo a step from its ``_snapshot``."""
        if undo is None:
            return
        snaps, self._obs, self._masks, rewards, terminations, truncations, autoreset = undo
        for env, snap in zip(self.envs, snaps):
            env._restore(snap)
        self._rewards[:] = rewards
        self._terminations[:] = terminations
        self._truncations[:] = truncations
        self._autoreset[:] = autoreset

    def _seeds(self, seed) -> list[int | None]:
        n = self.num_envs
        if seed is None:
            return [None] * n
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
            return [seed_or_none("reset: seed", seed) + i for i in range(n)]
        if isinstance(seed, np.ndarray) and seed.ndim == 1:
            seed = seed.tolist()                    # an array of seeds, as a list (its integers as Python ints)
        if isinstance(seed, Sequence) and not isinstance(seed, (str, bytes)) and len(seed) == n:
            return [seed_or_none(f"reset: seed[{i}]", s) for i, s in enumerate(seed)]
        raise ValueError(f"seed must be None, an integer (game i gets seed + i) or a sequence (or 1-d array) of "
                         f"{n} seeds, got {seed!r}"[:300])

    def _check_actions(self, actions) -> np.ndarray:
        """The actions as an int64 array of shape (N,); IllegalActionError for anything else (nothing changes)."""
        n = self.num_envs
        if isinstance(actions, np.ndarray):
            arr = actions
        elif isinstance(actions, Sequence) and not isinstance(actions, (str, bytes)) \
                and all(type(a) is int or isinstance(a, np.integer) for a in actions):
            try:
                arr = np.asarray(actions, dtype=np.int64)
            except OverflowError:                       # an id past int64: outside the space like any other
                bad = [i for i, a in enumerate(actions) if not 0 <= int(a) < A.NUM_ACTIONS]
                raise IllegalActionError(f"actions {[int(actions[i]) for i in bad]} (games {bad}) are outside the "
                                         f"action space Discrete({A.NUM_ACTIONS})"[:300]) from None
        else:
            raise IllegalActionError(f"actions must be an integer array of shape ({n},), got "
                                     f"{type(actions).__name__} {actions!r}"[:300])
        if arr.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be an integer array of shape ({n},), got dtype {arr.dtype}")
        if arr.shape != (n,):
            raise IllegalActionError(f"actions must be an integer array of shape ({n},), got shape {arr.shape}")
        bad = np.flatnonzero((arr < 0) | (arr >= A.NUM_ACTIONS))
        if len(bad):
            raise IllegalActionError(f"actions {arr[bad].tolist()} (games {bad.tolist()}) are outside the action "
                                     f"space Discrete({A.NUM_ACTIONS})")
        return arr.astype(np.int64, copy=False)

    def _new_info(self) -> dict[str, np.ndarray]:
        """New batched arrays for the info keys of a step, in the single environment's order (its ``_info``)."""
        n, players = self.num_envs, self.envs[0].config.num_players
        return {"action_mask": np.empty((n, A.NUM_ACTIONS), dtype=bool),
                "illegal_action": np.zeros(n, dtype=bool),
                "scores": np.empty((n, players), dtype=np.int64),
                "hal_score": np.empty(n, dtype=np.int64),
                "winners": np.zeros((n, players), dtype=np.int8),
                "game_over": np.empty(n, dtype=bool)}

    def _write(self, batch: dict[str, np.ndarray]) -> None:
        """Every game's observation into the observation batch, and its mask and result keys (what the single
        environment's ``_info`` returns) into its row of ``batch``: read from the games' buffers stacked as rows,
        the observations by the compiled plan in one call where it applies (``SeatEncoder.fill_rows``)."""
        envs = self.envs
        states = [env._state for env in envs]
        bufs = np.array([s.buf for s in states])   # the buffers as rows (one config: one length)
        if not envs[0]._encoder.fill_rows(states, self._obs, bufs):
            for env, s, row in zip(envs, states, self._obs):
                env._encoder.encode_into(s, row)
        masks = batch["action_mask"]
        engine.legal_masks(states, out=masks)
        over = [i for i, env in enumerate(envs) if env._over]
        if over:
            masks[over] = True          # a game's last step: all True (the Gymnasium view's rule)
        write_result_rows(states, bufs, batch)

    def _info(self, batch: dict[str, np.ndarray]) -> dict[str, Any]:
        """Gymnasium's vector info: each key's batched values, with an all-True ``_key`` mask."""
        out: dict[str, Any] = {}
        present = np.ones(self.num_envs, dtype=bool)
        for key, value in batch.items():
            out[key] = value
            out[f"_{key}"] = present.copy()
        self._masks = out["action_mask"]
        return out


def solo_vector_env(num_envs: int = 1, **options: Any) -> BlackAngelVectorEnv:
    """``BlackAngelSolo-v0``'s vector entry point: ``BlackAngelVectorEnv(num_envs, **options)`` of solo games (a
    ``num_players`` other than 1 is refused)."""
    check_solo(options)
    return BlackAngelVectorEnv(num_envs, **options)
