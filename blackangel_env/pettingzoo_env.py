"""Black Angel as a PettingZoo AEC environment (``blackangel_env.env`` / ``blackangel_env.raw_env``).

| | |
|---|---|
| Import | `import blackangel_env; env = blackangel_env.env(num_players=3)` or, once `blackangel_env` is imported, `pettingzoo.make("aec", "blackangel/black_angel_v0", num_players=3)` |
| Agents | `player_0` .. `player_{n-1}` (solo: only `player_0`; Hal plays inside `step`) |
| Actions | `Discrete(882)`: the action table of `blackangel_env.actions` (`docs/actions.md`) |
| Observations | `Dict(observation=Box(0, high, (5692,), float32), action_mask=Box(0, 1, (882,), int8))` |
| State | `Box((1353,), float32)`: the whole state buffer, hidden information included (`state()`) |
| Rewards | `"win"` (default), `"margin"`, `"dense_margin"` or `"vp"`; see below |
| Render modes | `"ansi"` (returns the text), `"human"` (prints it) |

Acting agent.  ``agent_selection`` is always the seat the rules ask for the next decision: the player whose turn
it is, or another player deciding out of turn (a card owner's free activation, payments, setup reservations).
Several decisions in a row by the same agent are normal (one decision per step: play a card, choose a die, ...).

Observation.  ``observe(agent)["observation"]`` is that agent's own view (``blackangel_env.encoding``; layout in
``docs/observation.md``), relative to the observer and with hidden information removed.
``observe(agent)["action_mask"]`` is the exact legal-action mask for the acting agent and all zeros for the
others (and for everyone once the game is over).

Rewards (``reward=``, ``reward_scale``, default 0.02 = 1 / 50 VP), always credited to every player at the step
where they happen, and accumulated by ``last()`` until the agent's next decision:

* ``"win"``: 0 during the game; at the end +1 for each winner and -1 for every other player.  Ties share the
  victory (rulebook: "In a tie, the tied players share the victory"), so every tied winner gets +1.  Solo: +1 if
  the player has strictly more VP than Hal, else -1.
* ``"margin"``: 0 during the game; at the end ``reward_scale * (own VP - best other VP)``, where the others are
  the other players, or Hal in the solo game.
* ``"dense_margin"``: at every step, ``reward_scale`` times the change of that margin, counted from 0 before the
  first step (the first rewards include the starting margin): the rewards of a game add up to the ``"margin"``
  reward.
* ``"vp"``: at every step, ``reward_scale`` times the change of the player's own VP caused by that step (final
  scoring included in the last step).

A game cut by ``max_steps`` (or ``max_cycles``, the name ``pettingzoo.make`` uses) is truncated for every agent
with no terminal reward.

Infos.  ``infos[agent]`` holds the same keys, shapes and dtypes from ``reset`` on (``blackangel_env.outcome``):
``"scores"`` (int64 array, each player's VP; the final scores once the game is over), ``"hal_score"`` (Hal's VP,
-1 without Hal), ``"winners"`` (int8 array, 1 per player sharing the victory, all 0 until the end), ``"game_over"``
(0-d bool array), ``"truncated_at_step"`` (``np.int64``: 0, or the step count at which ``max_steps`` cut the game)
and ``"illegal_action"`` (0-d bool array: under ``env()``, True for the agent whose illegal action ended the game).
Numpy scalars and arrays only, as TorchRL's and Tianshou's buffers need.

Illegal actions.  ``raw_env.step`` raises ``blackangel_env.IllegalActionError`` (a ``ValueError`` naming the
action, the phase and some legal actions) and leaves the game unchanged.  ``env()`` adds the checks of PettingZoo's
standard wrappers (``Wrapped``): an illegal action ends the game with reward -1 for the offender and 0 for the
others, ``infos[agent]["illegal_action"]`` is True and a warning (and the wrapper's ``illegal_action_message``)
says what happened; an action outside the action space raises ``ActionSpaceError`` (both an ``AssertionError``, as
PettingZoo's AssertOutOfBoundsWrapper raises, and an ``IllegalActionError``) naming the action and the agent, and
changes nothing; calls out of order are reported.  ``raw_env``'s ``step``, ``observe``, ``state``, ``render`` and
``legal_actions`` before ``reset()`` raise ``RuntimeError``.

Seeding.  ``reset(seed=s)`` starts ``engine.new_game(config, seed=s)``: Ravager draws, dice rolls and Hal's cards
all come from that seed, so the same seed and actions replay the same game.  ``reset()`` without a seed draws a
fresh game seed from the environment's generator (itself seeded by the last explicit seed).

Version history: ``black_angel_v0`` (first release).
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.spaces import Discrete
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import BaseWrapper

from . import actions as A
from . import engine
from .components import Components, default_components, load_components
from .config import GameConfig, positive_int_or_none, seed_or_none
from .encoding import SeatEncoder, encode_state, observation_high, state_size
from .outcome import DEFAULT_REWARD_SCALE, REWARD_SCHEMES, check_reward, margins, result_info, terminal_rewards
from .state import M_ACTOR, M_GAME_OVER, PHASE_NAMES, State


class ActionSpaceError(engine.IllegalActionError, AssertionError):
    """``env()``'s refusal of an action outside the agent's action space: an ``AssertionError`` as PettingZoo's
    AssertOutOfBoundsWrapper raises, and an ``IllegalActionError`` (a ``ValueError``) as ``raw_env`` raises."""


class UnknownAgentError(KeyError, ValueError):
    """An agent name that is not one of the environment's (``observe``, ``observation_space``, ``action_space``):
    a ``KeyError``, as a lookup in PettingZoo's dicts of agents raises, and a ``ValueError``; the message names the
    agent and lists the valid ones."""

    def __str__(self) -> str:                  # KeyError's own str() would quote the message
        return str(self.args[0]) if self.args else ""


RESET_OPTIONS = ("state",)     # the keys of raw_env.reset's options


__all__ = ["env", "raw_env", "Wrapped", "ActionSpaceError", "REWARD_SCHEMES", "DEFAULT_REWARD_SCALE",
           "terminal_rewards"]

_check_reward = check_reward         # the former name


def _same_components(a: Components, b: Components) -> bool:
    """The same component data, wherever each was read from (the ``path`` and the provenance notes aside)."""
    import dataclasses
    return all(getattr(a, f.name) == getattr(b, f.name) for f in dataclasses.fields(Components)
               if f.name not in ("path", "source"))


def render_text(s: State, viewer: int | None = None) -> str:
    """The state as text (``blackangel_env.render``)."""
    from .render import render as _render            # imported on first use: training never pays for it
    return _render(s, viewer)


def render_mode_output(render_mode: str | None, s: State, viewer: int | None) -> str | None:
    """What ``render()`` does for a render mode: None warns, "ansi" returns the text, "human" prints it."""
    if render_mode is None:
        import gymnasium
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    text = render_text(s, viewer)
    if render_mode == "ansi":
        return text
    print(text)
    return None


class raw_env(AECEnv, EzPickle):
    """The AEC environment without wrappers (see the module docstring)."""

    metadata = {
        "name": "black_angel_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, num_players: int = 2, advanced: bool = False, hal_difficulty: str = "standard",
                 reward: str = "win", reward_scale: float | None = None, max_steps: int | None = None,
                 render_mode: str | None = None, render_viewer: int | None = None,
                 components: str | None = None, max_cycles: int | None = None):
        EzPickle.__init__(self, num_players=num_players, advanced=advanced, hal_difficulty=hal_difficulty,
                          reward=reward, reward_scale=reward_scale, max_steps=max_steps, render_mode=render_mode,
                          render_viewer=render_viewer, components=components, max_cycles=max_cycles)
        super().__init__()
        self.config = GameConfig(num_players=num_players, advanced=advanced, hal_difficulty=hal_difficulty,
                                 components=components)
        self._comp: Components = load_components(components) if components else default_components()
        self.reward_scheme = reward
        self.reward_scale = check_reward(reward, reward_scale)
        max_steps = positive_int_or_none("max_steps", max_steps)
        max_cycles = positive_int_or_none("max_cycles", max_cycles)
        if max_steps is not None and max_cycles is not None and max_steps != max_cycles:
            raise ValueError(f"max_steps ({max_steps}) and max_cycles ({max_cycles}) name the same limit: give one")
        self.max_steps = max_cycles if max_steps is None else max_steps
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        if render_viewer is not None and (isinstance(render_viewer, (bool, np.bool_))
                                          or not isinstance(render_viewer, (int, np.integer))
                                          or not 0 <= render_viewer < num_players):
            raise ValueError(f"render_viewer must be a seat 0..{num_players - 1} or None, got {render_viewer!r}")
        if render_viewer is not None:
            render_viewer = int(render_viewer)
        self.render_viewer = render_viewer

        n = num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        high = observation_high(self._comp)
        self._obs_size = len(high)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(A.NUM_ACTIONS,), dtype=np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(A.NUM_ACTIONS) for a in self.possible_agents}
        self.state_space = spaces.Box(low=-32768.0, high=32767.0, shape=(state_size(self._comp),),
                                      dtype=np.float32)
        self._np_random: np.random.Generator | None = None
        self._np_random_seed: int | None = None
        self._state: State | None = None
        self._game_seed: int | None = None
        self._zero_mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        self._version = 0
        self._obs_cache: dict[str, tuple[int, dict]] = {}
        self._encoders = [SeatEncoder(seat) for seat in range(n)]   # each seat's observation, updated incrementally
        for enc in self._encoders:         # the observation encoders' tables, built once here, not mid-game
            enc.prepare(self._comp, n)

    def __deepcopy__(self, memo: dict) -> "raw_env":
        """``copy.deepcopy``: an independent copy with the game in progress (its position, generators, agents,
        rewards, infos and step count), which plays on exactly as this environment would; the component data
        are shared.  A pickle holds only the constructor's arguments (``EzPickle``, as PettingZoo's own
        environments do): unpickled, the environment needs a ``reset``."""
        cls = type(self)
        new = cls.__new__(cls)
        memo[id(self)] = new
        memo[id(self._comp)] = self._comp
        for key, value in self.__dict__.items():
            setattr(new, key, copy.deepcopy(value, memo))
        return new

    # -- spaces ---------------------------------------------------------------------------------------------
    def _unknown_agent(self, agent) -> UnknownAgentError:
        return UnknownAgentError(f"unknown agent {agent!r}; the agents of this {len(self.possible_agents)}-player "
                                 f"environment are {', '.join(self.possible_agents)}")

    def observation_space(self, agent: str) -> spaces.Space:
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):
            raise self._unknown_agent(agent) from None

    def action_space(self, agent: str) -> spaces.Space:
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise self._unknown_agent(agent) from None

    # -- game access ---------------------------------------------------------------------------------------
    @property
    def game_state(self) -> State:
        """The engine state of the game in progress (do not mutate it; use ``copy()``)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    @property
    def game_seed(self) -> int | None:
        return self._game_seed

    # -- AEC API ----------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``seed`` as in the module docstring).  ``options={"state": s}`` starts instead from
        a copy of the engine state ``s`` (e.g. a saved or constructed position) of a game like this environment's:
        the same player count, rules and component data (which set the spaces; Hal's difficulty may differ: it set
        his starting VP, which the state holds), else ValueError.  Options that are not a dict raise TypeError; a
        refused reset changes nothing.  Other keys are ignored with a warning that names them (PettingZoo's
        ``api_test`` resets with ``options={"options": 1}`` and expects the reset to succeed)."""
        seed = seed_or_none("reset: seed", seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"reset: options must be a dict or None, got {type(options).__name__}")
        unknown = [k for k in (options or {}) if k not in RESET_OPTIONS]
        if unknown:
            warnings.warn(f"reset: unknown option(s) {', '.join(map(repr, unknown))} ignored; the options are "
                          f"{', '.join(map(repr, RESET_OPTIONS))}", stacklevel=2)
        start = (options or {}).get("state")
        if start is not None:
            if not isinstance(start, State):
                raise TypeError(f"options['state'] must be a blackangel_env State, got {type(start).__name__}")
            mismatch = self._start_mismatch(start)
            if mismatch:
                raise ValueError(f"options['state'] is not a game of this environment: {mismatch}")
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
            game_seed = seed
        else:
            if self._np_random is None:
                self._np_random, self._np_random_seed = seeding.np_random(None)
            game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self._game_seed = game_seed
        if start is not None:
            self._game_seed = None
            self._state = start.copy()
        else:
            self._state = engine.new_game(self.config, seed=game_seed, components=self._comp)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.num_steps = 0
        self._version += 1
        self._obs_cache.clear()
        self._vp_key = self._state.vp.tobytes()            # the VP totals at the last info update
        self._set_infos()
        # the potential whose change each step pays: own VP ("vp"), the margin counted from 0 ("dense_margin")
        n = len(self.possible_agents)
        self._potential = [self._state.vp.item(p) for p in range(n)] if self.reward_scheme == "vp" else [0] * n
        if self._state.terminal:                                      # a finished game given as options
            self.agent_selection = self.possible_agents[0]
            self._finish()
            self._accumulate_rewards()                                # what last() reports
        else:
            self.agent_selection = self.possible_agents[self._state.actor]

    def _start_mismatch(self, start: State) -> str | None:
        """What differs between the game of the state ``start`` and this environment's, or None."""
        mine, its = self.config, start.config
        if its.num_players != mine.num_players:
            return f"it has {its.num_players} player(s), the environment {mine.num_players}"
        if its.advanced != mine.advanced:
            return f"it uses the {'advanced' if its.advanced else 'base'} rules, the environment the " \
                   f"{'advanced' if mine.advanced else 'base'} rules"
        if start.comp is not self._comp and not _same_components(start.comp, self._comp):
            return (f"it was set up with other component data ({start.comp.path!r}, the environment "
                    f"{self._comp.path!r})")
        return None

    def step(self, action) -> None:
        s = self._state
        if s is None:
            raise RuntimeError("call reset() before step()")
        if type(action) is not int and isinstance(action, np.ndarray) and action.shape == () \
                and action.dtype.kind in "iu":
            action = int(action)           # a 0-d integer array: inside Discrete(n), as Gymnasium's spaces say
        if not self.agents:
            raise RuntimeError("every agent is done (the game is over and each has taken its last step): call "
                               "reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        engine.apply(s, action)            # IllegalActionError (state unchanged) for an illegal action
        self.num_steps += 1
        self._version += 1
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        rewards = self.rewards
        for a in self.agents:
            rewards[a] = 0.0
        rewarded = False                   # some reward of this step is not 0
        vp_key = s.vp.tobytes()
        if vp_key != self._vp_key:         # some VP total changed (Hal's included)
            self._vp_key = vp_key
            self._set_infos()
            rewarded = self._step_rewards()
        m = s.m
        if m.item(M_GAME_OVER):
            self._finish()
            rewarded = True
        else:
            self.agent_selection = self.possible_agents[m.item(M_ACTOR)]
            if self.max_steps is not None and self.num_steps >= self.max_steps:
                for a in self.agents:
                    self.truncations[a] = True
                self._set_infos(truncated_at_step=self.num_steps)
        if rewarded:                       # AECEnv._accumulate_rewards, inlined (adding zeros changes nothing)
            for a, r in rewards.items():
                cumulative[a] += r
        if self.render_mode == "human":
            self.render()

    def _step_rewards(self) -> bool:
        """The per-step rewards (``vp``, ``dense_margin``) of a step that changed some VP; True if one is not 0."""
        scheme = self.reward_scheme
        if scheme == "vp":
            s = self._state
            now = [s.vp.item(p) for p in range(len(self.possible_agents))]
        elif scheme == "dense_margin":
            now = margins(self._state)
        else:
            return False
        rewarded = False
        sc = self.reward_scale
        for p, a in enumerate(self.possible_agents):
            v = now[p]
            if v != self._potential[p]:
                self.rewards[a] = sc * (v - self._potential[p])
                self._potential[p] = v
                rewarded = True
        return rewarded

    def _set_infos(self, truncated_at_step: int = 0) -> None:
        """Every agent's info (module docstring) for the current state, each agent its own dict and arrays."""
        info = result_info(self._state)
        info["truncated_at_step"] = np.int64(truncated_at_step)
        info["illegal_action"] = np.array(False)
        self.infos = {a: {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in info.items()}
                      for a in self.agents}

    def _finish(self) -> None:
        s = self._state
        term = terminal_rewards(s, self.reward_scheme, self.reward_scale)
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] += term[p]
            self.terminations[a] = True
        self._set_infos()

    def end_for_illegal_action(self, agent: str, reward: float) -> None:
        """End the game because ``agent`` took an illegal action (what PettingZoo's TerminateIllegalWrapper
        does): every agent terminated and truncated, ``reward`` for ``agent`` and 0 for the others, and
        ``infos[agent]["illegal_action"]`` True.  The engine state is left as it was."""
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = float(reward)
        self._accumulate_rewards()
        self._deads_step_first()
        self.infos[agent] = dict(self.infos[agent], illegal_action=np.array(True))
        self._version += 1                 # the masks are all zeros from now on

    def last(self, observe: bool = True):
        """PettingZoo's ``last``; before ``reset``, or once every agent is done (no agent left), a RuntimeError
        says to reset."""
        if self._state is None:
            raise RuntimeError("call reset() before last()")
        if not self.agents:
            raise RuntimeError("every agent is done (the game is over and each has taken its last step): call "
                               "reset() to play again")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and action mask: arrays of the caller's own (changing them changes nothing
        in the environment)."""
        out = self._observation(agent)
        return {"observation": out["observation"].copy(), "action_mask": out["action_mask"].copy()}

    def _observation(self, agent: str) -> dict[str, np.ndarray]:
        """``observe`` without the copies: the arrays kept for this step, which the caller must not change."""
        hit = self._obs_cache.get(agent) if isinstance(agent, str) else None
        if hit is not None and hit[0] == self._version:
            return hit[1]
        s = self._state
        if s is None:
            raise RuntimeError("call reset() before observe()")
        seat = self.agent_name_mapping.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise self._unknown_agent(agent)
        obs = self._encoders[seat].encode(s)
        m = s.m
        if not m.item(M_GAME_OVER) and seat == m.item(M_ACTOR) and not self.truncations.get(agent, False):
            mask = engine.legal_mask(s)
        else:
            mask = self._zero_mask.copy()
        out = {"observation": obs, "action_mask": mask}
        self._obs_cache[agent] = (self._version, out)
        return out

    def state(self) -> np.ndarray:
        if self._state is None:
            raise RuntimeError("call reset() before state()")
        return encode_state(self._state)

    def render(self) -> str | None:
        if self._state is None:
            raise RuntimeError("call reset() before render()")
        return render_mode_output(self.render_mode, self._state, self.render_viewer)

    def close(self) -> None:
        pass

    # -- convenience -------------------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Legal action ids of the acting agent."""
        if self._state is None:
            raise RuntimeError("call reset() before legal_actions()")
        return [] if self._state.terminal else list(engine.legal_actions(self._state))

    def action_to_string(self, action: int) -> str:
        return A.action_to_string(action)


class _Iterator:
    """``agent_iter`` of ``env()``: PettingZoo's AECIterator with OrderEnforcingWrapper's check that every agent
    handed out is followed by a ``step`` (or ``reset``)."""

    def __init__(self, env: Wrapped, max_iter: int):
        self.env = env
        self._raw = env.unwrapped
        self.iters_til_term = max_iter

    def __iter__(self) -> _Iterator:
        return self

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        assert env._updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._updated = False
        return raw.agent_selection


def _forward(name: str, guarded: bool) -> property:
    """A property reading ``name`` of the raw environment (``guarded``: AttributeError before ``reset()``, as
    OrderEnforcingWrapper raises)."""

    def get(self):
        if guarded and not self._reset_done:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(get, doc=f"``{name}`` of the raw environment")


class Wrapped(BaseWrapper):
    """``raw_env`` behind the checks of PettingZoo's standard wrappers, in one layer: ``env()`` returns it.

    It does what ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw, -1)))`` does, call
    for call (``tests/test_env_pettingzoo.py`` plays seeded games through both and compares every step):

    * before ``reset()``: ``step``, ``observe``, ``state``, ``render`` and ``agent_iter`` raise PettingZoo's
      errors, ``agents`` / ``rewards`` / ``terminations`` / ``truncations`` / ``infos`` / ``agent_selection`` /
      ``num_agents`` raise AttributeError; ``step`` once every agent is done warns and does nothing;
    * an action outside the acting agent's action space (a bool included) fails an assertion, except ``None`` for
      an agent that is done;
    * an action that the acting agent's mask forbids ends the game: every agent terminated and truncated, reward
      ``illegal_reward`` (-1) for the offender and 0 for the others, ``infos[agent]["illegal_action"]`` True, and
      a warning naming the action (also kept in ``illegal_action_message``);
    * ``agent_iter`` asserts that each agent it hands out is followed by ``step`` (or ``reset``).

    One layer instead of three: the attributes read at every step are read from the raw environment directly.
    """

    def __init__(self, env: raw_env, illegal_reward: float = -1.0):
        assert isinstance(env, AECEnv), "Wrapped is only compatible with AEC environments"
        super().__init__(env)
        self._raw = env.unwrapped
        self._illegal_reward = float(illegal_reward)
        self._reset_done = False
        self._updated = False                # a step() or reset() since agent_iter last handed out an agent
        self._ended_illegally = False
        self.illegal_action_message = ""     # what ended the game, if an illegal action did
        self._bounds: dict[str, tuple] = {}  # agent -> (space, first id, end id) of a Discrete action space

    def __setstate__(self, state: dict) -> None:
        """Copied or unpickled: a deep copy keeps the game; unpickled, the raw environment comes back without one
        (``raw_env`` pickles its arguments only), and this layer is then as before its first ``reset``."""
        self.__dict__.update(state)
        if self._raw._state is None:
            self._reset_done = False
            self._updated = False
            self._ended_illegally = False
            self.illegal_action_message = ""

    def __getattr__(self, name: str) -> Any:
        if name == "num_agents" and not self._reset_done:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return super().__getattr__(name)

    # -- AEC API -------------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._raw.reset(seed=seed, options=options)        # a bad seed or option raises before anything changes
        self._reset_done = True
        self._updated = True
        self._ended_illegally = False
        self.illegal_action_message = ""

    def observe(self, agent: str):
        if not self._reset_done:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def state(self) -> np.ndarray:
        if not self._reset_done:
            EnvLogger.error_state_before_reset()
        return self._raw.state()

    def render(self):
        if not self._reset_done:
            EnvLogger.error_render_before_reset()
        return self._raw.render()

    def agent_iter(self, max_iter: int = 2**63) -> _Iterator:
        if not self._reset_done:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterator(self, max_iter)

    def last(self, observe: bool = True):
        if not self._reset_done:
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self._raw
        if not raw.agents:
            raise RuntimeError("every agent is done (the game is over and each has taken its last step): call "
                               "reset() to play again")
        agent = raw.agent_selection
        observation = raw.observe(agent) if observe else None
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent],
                raw.infos[agent])

    def step(self, action) -> None:
        if not self._reset_done:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        if not raw.agents:
            self._updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._updated = True
        agent = raw.agent_selection
        done = raw.terminations[agent] or raw.truncations[agent]
        space = raw.action_space(agent)
        if type(action) is int and type(space) is Discrete:
            b = self._bounds.get(agent)          # the space's ids as Python ints (numpy ones compare slowly)
            if b is None or b[0] is not space:
                b = self._bounds[agent] = (space, int(space.start), int(space.start + space.n))
            inside = b[1] <= action < b[2]
        else:
            inside = not isinstance(action, (bool, np.bool_)) and space.contains(action)
        if not ((action is None and done) or inside):
            what = ("None (None is the action of an agent that is terminated or truncated)" if action is None
                    else repr(action))
            raise ActionSpaceError(f"action {what} of {agent} is not in its action space {space}; nothing changed")
        if done:
            if self._ended_illegally:
                raw._was_dead_step(action)
            else:
                raw.step(action)
        elif not raw._observation(agent)["action_mask"][action]:
            self._end_illegally(agent, action)
        else:
            raw.step(action)

    def _end_illegally(self, agent: str, action) -> None:
        """TerminateIllegalWrapper's ending, and a warning naming the action."""
        raw = self._raw
        a = int(action)
        desc = (f"{agent} took the illegal action {a} ({A.action_to_string(a)}) in phase "
                f"{PHASE_NAMES[raw.game_state.phase]}; the game ends with reward {self._illegal_reward:g} for {agent}")
        EnvLogger.warn_on_illegal_move()
        warnings.warn(desc, stacklevel=3)
        raw.end_for_illegal_action(agent, self._illegal_reward)
        self.illegal_action_message = desc
        self._ended_illegally = True


for _name in ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos"):
    setattr(Wrapped, _name, _forward(_name, True))
Wrapped._cumulative_rewards = _forward("_cumulative_rewards", False)


def env(**kwargs) -> AECEnv:
    """``raw_env(**kwargs)`` with the checks of PettingZoo's standard wrappers (``Wrapped``): an illegal action
    ends the game with -1 for the offender (TerminateIllegalWrapper), an action outside the action space raises
    ``ActionSpaceError``, an AssertionError as AssertOutOfBoundsWrapper's and an ``IllegalActionError``, naming
    the action and the agent (nothing changes), and the call order is enforced (OrderEnforcingWrapper)."""
    return Wrapped(raw_env(**kwargs), illegal_reward=-1)


def _register() -> None:
    """Register ``blackangel/black_angel_v0`` with PettingZoo's registry (PettingZoo >= 1.27), if present."""
    try:

        import pettingzoo
        if not hasattr(pettingzoo, "register"):
            return
        registry = getattr(pettingzoo, "aec_registry", {})
        if "blackangel/black_angel-v0" in registry:
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pettingzoo.register("aec", "blackangel/black_angel-v0", entry_point="blackangel_env.pettingzoo_env:env")
    except Exception:            # noqa: BLE001 - an older or different PettingZoo: creation by import still works
        pass


_register()
