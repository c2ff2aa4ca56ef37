"""Black Angel as a PettingZoo AEC environment (``blackangel_env.env`` / ``blackangel_env.raw_env``).

| | |
|---|---|
| Import | `import blackangel_env; env = blackangel_env.env(num_players=3)` or, once `blackangel_env` is imported, `pettingzoo.make("aec", "blackangel/black_angel_v0", num_players=3)` |
| Agents | `player_0` .. `player_{n-1}` (solo: only `player_0`; Hal plays inside `step`) |
| Actions | `Discrete(882)`: the action table of `blackangel_env.actions` (`docs/actions.md`) |
| Observations | `Dict(observation=Box(0, high, (5692,), float32), action_mask=Box(0, 1, (882,), int8))` |
| State | `Box((1353,), float32)`: the whole state buffer, hidden information included (`state()`) |
| Rewards | `"win"` (default), `"margin"` or `"vp"`; see below |
| Render modes | `"ansi"` (returns the text), `"human"` (prints it) |

Acting agent.  ``agent_selection`` is always the seat the rules ask for the next decision: the player whose turn
it is, or another player deciding out of turn (a card owner's free activation, payments, setup reservations).
Several decisions in a row by the same agent are normal (one decision per step: play a card, choose a die, ...).

Observation.  ``observe(agent)["observation"]`` is that agent's own view (``blackangel_env.encoding``; layout in
``docs/observation.md``), relative to the observer and with hidden information removed.
``observe(agent)["action_mask"]`` is the exact legal-action mask for the acting agent and all zeros for the
others (and for everyone once the game is over).

Rewards (``reward=``), always credited to every player at the step where they happen, and accumulated by
``last()`` until the agent's next decision:

* ``"win"``: 0 during the game; at the end +1 for each winner and -1 for every other player.  Ties share the
  victory (rulebook: "In a tie, the tied players share the victory"), so every tied winner gets +1.  Solo: +1 if
  the player has strictly more VP than Hal, else -1.
* ``"margin"``: 0 during the game; at the end ``reward_scale * (own VP - best other VP)``, where the others are
  the other players, or Hal in the solo game.
* ``"vp"``: at every step, ``reward_scale`` times the change of the player's own VP caused by that step (final
  scoring included in the last step).

A game cut by ``max_steps`` (or ``max_cycles``, the name ``pettingzoo.make`` uses) is truncated for every agent
with no terminal reward.

Illegal actions.  ``raw_env.step`` raises ``blackangel_env.IllegalActionError`` (a ``ValueError`` naming the
action, the phase and some legal actions) and leaves the game unchanged.  ``env()`` adds PettingZoo's standard
wrappers: an illegal action ends the game with reward -1 for the offender and 0 for the others, and
``infos[agent]["illegal_action"]`` says what happened; an action outside the action space fails an assertion;
calls out of order are reported.

Seeding.  ``reset(seed=s)`` starts ``engine.new_game(config, seed=s)``: Ravager draws, dice rolls and Hal's cards
all come from that seed, so the same seed and actions replay the same game.  ``reset()`` without a seed draws a
fresh game seed from the environment's generator (itself seeded by the last explicit seed).

Version history: ``black_angel_v0`` (first release).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import actions as A
from . import engine
from .components import Components, default_components, load_components
from .config import GameConfig
from .encoding import SeatEncoder, _plan, encode_state, observation_high, state_size
from .state import BOT, M_ACTOR, M_GAME_OVER, M_SOLO, PHASE_NAMES, State

__all__ = ["env", "raw_env", "REWARD_SCHEMES"]

REWARD_SCHEMES = ("win", "margin", "vp")
DEFAULT_REWARD_SCALE = 0.02          # 1 / 50 VP


def _check_reward(reward: str, reward_scale: float | None) -> float:
    if reward not in REWARD_SCHEMES:
        raise ValueError(f"reward must be one of {REWARD_SCHEMES}, got {reward!r}")
    scale = DEFAULT_REWARD_SCALE if reward_scale is None else float(reward_scale)
    if not np.isfinite(scale) or scale <= 0:
        raise ValueError(f"reward_scale must be a positive number, got {reward_scale!r}")
    return scale


def terminal_rewards(s: State, reward: str, scale: float) -> list[float]:
    """Terminal reward of every player under the ``win`` / ``margin`` schemes (``vp``: 0)."""
    n = s.num_players
    scores = engine.final_scores(s)
    if reward == "win":
        won = set(engine.winners(s))
        return [1.0 if p in won else -1.0 for p in range(n)]
    if reward == "margin":
        if n == 1:
            return [scale * (scores[0] - int(s.vp[BOT]))]
        out = []
        for p in range(n):
            best = max(v for q, v in enumerate(scores) if q != p)
            out.append(scale * (scores[p] - best))
        return out
    return [0.0] * n


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
        self.reward_scale = _check_reward(reward, reward_scale)
        if max_steps is None and max_cycles is not None and max_cycles > 0:
            max_steps = int(max_cycles)
        if max_steps is not None and int(max_steps) <= 0:
            raise ValueError(f"max_steps must be a positive integer or None, got {max_steps!r}")
        self.max_steps = None if max_steps is None else int(max_steps)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        if render_viewer is not None and not 0 <= render_viewer < num_players:
            raise ValueError(f"render_viewer must be a seat 0..{num_players - 1} or None")
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
        for seat in range(n):              # the observation encoders' tables, built once here, not mid-game
            _plan(self._comp, n, seat).inc()

    # -- spaces ---------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

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
        a copy of the engine state ``s`` (same player count and rules; e.g. a saved or constructed position)."""
        start = (options or {}).get("state")
        if start is not None:
            if not isinstance(start, State):
                raise TypeError(f"options['state'] must be a blackangel_env State, got {type(start).__name__}")
            if start.config.num_players != self.config.num_players or start.config.advanced != self.config.advanced:
                raise ValueError("options['state'] has another player count or rule set than this environment")
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
            game_seed = int(seed)
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
        self.infos = {a: {} for a in self.agents}
        self.num_steps = 0
        self._version += 1
        self._obs_cache.clear()
        self._vp = [int(v) for v in self._state.vp[:len(self.possible_agents)]]
        if self._state.terminal:                                      # a finished game given as options
            self.agent_selection = self.possible_agents[0]
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self._state.actor]

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self._state
        engine.apply(s, action)            # IllegalActionError (state unchanged) for an illegal action
        self.num_steps += 1
        self._version += 1
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        rewards = self.rewards
        for a in self.agents:
            rewards[a] = 0.0
        rewarded = False                   # some reward of this step is not 0
        if self.reward_scheme == "vp":
            sc = self.reward_scale
            for p, a in enumerate(self.possible_agents):
                v = s.vp.item(p)
                if v != self._vp[p]:
                    rewards[a] = sc * (v - self._vp[p])
                    self._vp[p] = v
                    rewarded = True
        m = s.m
        if m.item(M_GAME_OVER):
            self._finish()
            rewarded = True
        else:
            self.agent_selection = self.possible_agents[m.item(M_ACTOR)]
            if self.max_steps is not None and self.num_steps >= self.max_steps:
                for a in self.agents:
                    self.truncations[a] = True
                    self.infos[a] = {"truncated_at_step": self.num_steps}
        if rewarded:                       # AECEnv._accumulate_rewards, inlined (adding zeros changes nothing)
            for a, r in rewards.items():
                cumulative[a] += r
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        s = self._state
        term = terminal_rewards(s, self.reward_scheme, self.reward_scale)
        scores = engine.final_scores(s)
        won = engine.winners(s)
        info = {"scores": scores, "winners": won}
        if s.m[M_SOLO]:                    # solo: also report Hal's score
            info["hal_score"] = int(s.vp[BOT])
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] += term[p]
            self.terminations[a] = True
            self.infos[a] = dict(info)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        hit = self._obs_cache.get(agent)
        if hit is not None and hit[0] == self._version:
            return hit[1]
        s = self._state
        seat = self.agent_name_mapping[agent]
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
        return encode_state(self._state)

    def render(self) -> str | None:
        return render_mode_output(self.render_mode, self._state, self.render_viewer)

    def close(self) -> None:
        pass

    # -- convenience -------------------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Legal action ids of the acting agent."""
        return [] if self._state.terminal else list(engine.legal_actions(self._state))

    def action_to_string(self, action: int) -> str:
        return A.action_to_string(action)


_HOT = ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos", "_cumulative_rewards")


def _forward(name: str, guarded: bool) -> property:
    """A property reading ``name`` straight from the raw environment.  PettingZoo's wrappers forward attribute
    reads through one ``__getattr__`` call per wrapper level; the hot attributes read at every step get a direct
    path instead (the values are the same).  ``guarded``: raise before reset() as OrderEnforcingWrapper does."""

    def get(self):
        if guarded and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw_env, name)

    return property(get, doc=f"``{name}`` of the raw environment")


class _FastForward:
    def _bind_raw(self) -> None:
        object.__setattr__(self, "_raw_env", self.env.unwrapped)


class _TerminateIllegal(_FastForward, wrappers.TerminateIllegalWrapper):
    """PettingZoo's TerminateIllegalWrapper, plus ``infos[agent]["illegal_action"]`` naming the action."""

    def __init__(self, env, illegal_reward: float):
        super().__init__(env, illegal_reward=illegal_reward)
        self._bind_raw()

    def observe(self, agent: str):
        """TerminateIllegalWrapper.observe, reading the raw environment directly (the same values)."""
        raw = self._raw_env
        obs = self.env.observe(agent)
        if agent == raw.agent_selection:
            self._prev_obs = obs
            self._prev_info = raw.infos[agent] if agent in raw.infos else {}
        return obs

    def step(self, action) -> None:
        raw = self._raw_env
        agent = raw.agent_selection
        before = self._terminated
        desc = None
        if not before and not (raw.terminations[agent] or raw.truncations[agent]):
            mask = self._prev_obs["action_mask"] if isinstance(self._prev_obs, dict) else raw.observe(agent)[
                "action_mask"]
            if not mask[action]:
                a = int(action)
                desc = (f"{agent} took the illegal action {a} ({A.action_to_string(a)}) in phase "
                        f"{PHASE_NAMES[raw._state.phase]}; the game ends with reward {self._illegal_value} "
                        f"for {agent}")
        super().step(action)
        if desc is not None and self._terminated and agent in raw.infos:
            raw.infos[agent] = dict(raw.infos[agent], illegal_action=desc)


class _AssertOutOfBounds(_FastForward, wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env):
        super().__init__(env)
        self._bind_raw()

    def step(self, action) -> None:
        """AssertOutOfBoundsWrapper.step, with a shortcut for the usual case: a plain int in the agent's
        Discrete space needs no ``contains`` call (which costs several microseconds)."""
        raw = self._raw_env
        agent = raw.agent_selection
        space = raw.action_space(agent)
        fast = type(action) is int and type(space) is spaces.Discrete and space.start <= action < space.start + space.n
        if not fast:
            assert (action is None and (raw.terminations[agent] or raw.truncations[agent])) \
                or space.contains(action), "action is not in action space"
        self.env.step(action)


class _OrderEnforcing(_FastForward, wrappers.OrderEnforcingWrapper):
    """OrderEnforcingWrapper.  Over the wrappers of ``env()`` (``_AssertOutOfBounds(_TerminateIllegal(raw))``),
    ``agent_iter``, ``last``, ``observe`` and the usual ``step`` (a legal action id of the acting agent) go
    straight to the raw environment and do what the three wrappers would do, check for check; anything else
    (an illegal or out-of-space action, a dead agent's step, another wrapper chain) takes the wrappers' own
    path."""

    def __init__(self, env):
        super().__init__(env)
        self._bind_raw()
        inner = getattr(env, "env", None)
        fused = type(env) is _AssertOutOfBounds and type(inner) is _TerminateIllegal and inner.env is self._raw_env
        self._illegal = inner if fused else None
        self._bounds: dict[str, tuple] = {}       # agent -> (space, start, n, first id, end id), Python ints

    def agent_iter(self, max_iter: int = 2**63):
        if self._illegal is None:
            return super().agent_iter(max_iter)
        if not self._has_reset:
            wrappers.order_enforcing.EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def observe(self, agent: str):
        ti = self._illegal
        if ti is None or not self._has_reset:
            return super().observe(agent)
        return ti.observe(agent)                  # AssertOutOfBoundsWrapper.observe only forwards

    def last(self, observe: bool = True):
        """AECEnv.last, reading the raw environment's dictionaries directly (the same values)."""
        if not self._has_reset:                   # the AttributeError of ``agent_selection`` before reset()
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self._raw_env
        agent = raw.agent_selection
        assert agent is not None
        infos = raw.infos
        ti = self._illegal
        if not observe:
            observation = None
        elif ti is not None:                      # the wrappers' observe: TerminateIllegalWrapper keeps it
            observation = raw.observe(agent)
            ti._prev_obs = observation
            ti._prev_info = infos[agent] if agent in infos else {}
        else:
            observation = self.observe(agent)
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent],
                infos[agent])

    def step(self, action) -> None:
        ti = self._illegal
        if ti is not None and self._has_reset and type(action) is int:
            raw = self._raw_env
            agent = raw.agent_selection
            prev = ti._prev_obs
            if (raw.agents and not ti._terminated and type(prev) is dict
                    and not (raw.terminations[agent] or raw.truncations[agent])):
                space = raw.action_space(agent)
                if type(space) is spaces.Discrete:
                    b = self._bounds.get(agent)       # the space's ids as Python ints (its numpy ones compare slowly)
                    if b is None or b[0] is not space or b[1] is not space.start or b[2] is not space.n:
                        b = self._bounds[agent] = (space, space.start, space.n, int(space.start),
                                                   int(space.start + space.n))
                    fast = b[3] <= action < b[4] and prev["action_mask"][action]
                else:
                    fast = False
                if fast:
                    # OrderEnforcingWrapper.step, AssertOutOfBoundsWrapper.step (in the space) and
                    # TerminateIllegalWrapper.step (legal by the mask observed last) for this case:
                    self._has_updated = True
                    ti._prev_obs = None
                    ti._prev_info = None
                    raw.step(action)
                    return
        super().step(action)


class _AgentIterator(wrappers.order_enforcing.AECOrderEnforcingIterator):
    """AECOrderEnforcingIterator reading the raw environment directly (the same checks)."""

    def __init__(self, env: _OrderEnforcing, max_iter: int):
        super().__init__(env, max_iter)
        self._raw = env._raw_env

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection


class _AgentIterable(wrappers.order_enforcing.AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


for _name in _HOT:
    setattr(_TerminateIllegal, _name, _forward(_name, False))
    setattr(_AssertOutOfBounds, _name, _forward(_name, False))
    setattr(_OrderEnforcing, _name, _forward(_name, _name != "_cumulative_rewards"))


def env(**kwargs) -> AECEnv:
    """``raw_env(**kwargs)`` with PettingZoo's standard wrappers: an illegal action ends the game with -1 for
    the offender (TerminateIllegalWrapper), out-of-space actions fail an assertion (AssertOutOfBoundsWrapper),
    and the call order is enforced (OrderEnforcingWrapper).  (Subclasses of those wrappers that only add a
    direct path to the attributes read at every step and, for ``agent_iter`` / ``last`` / ``observe`` and the
    step of a legal action, one call doing the three wrappers' checks; and the illegal-action message.)"""
    e = raw_env(**kwargs)
    e = _TerminateIllegal(e, illegal_reward=-1)
    e = _AssertOutOfBounds(e)
    e = _OrderEnforcing(e)
    return e


def _register() -> None:
    """Register ``blackangel/black_angel_v0`` with PettingZoo's registry (PettingZoo >= 1.27), if present."""
    try:
        import warnings

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
