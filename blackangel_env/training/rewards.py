"""Reward shaping for training: a dense signal from the agents' value of a position.

The environment's own rewards (``reward="win" | "margin" | "vp"``) are sparse or blind to everything that is not
yet a VP: a solo game is ~90-130 learner decisions, and the goods, robots, tiles and missions an agent builds up turn
into VP only later.  ``ValueShaping`` adds potential-based shaping (Ng, Harada & Russell, 1999) on top of the
environment's reward:

    r'_t = r_t + scale * (gamma * phi(s_{t+1}) - phi(s_t))

with ``phi(s) = blackangel_env.agents.value.evaluate(s, seat)``: the learner's VP plus the documented worth of its
goods, robots, tiles, missions, cards and dice, minus Hal's VP in the solo game (the same value the greedy, heuristic
and MCTS agents optimise).  At the end of the game ``evaluate`` is the final VP (minus Hal's), so over a whole
episode the shaping terms add up to about ``scale * (final margin - phi(start))``: the return is the
environment's reward plus a scaled final margin, delivered step by step as the position improves.

The training scripts use ``gamma = 1``: the terms then telescope exactly, whatever the learner's discount.  With
``gamma < 1`` and a potential that is mostly negative (Hal's VP are subtracted), every extra decision pays
``scale * (1 - gamma) * |phi|``, and a first training run learned to drag games out to collect it (mean episode
length 78 -> 130 decisions in 90k steps, margin unchanged).

The wrapper lives in ``blackangel_env/training/`` (not in ``blackangel_env``) because the value belongs to the agents
layer; it reads the engine state of the unwrapped :class:`~blackangel_env.gym_env.BlackAngelSingleAgentEnv`.
"""

from __future__ import annotations

import gymnasium as gym

SHAPINGS = ("none", "value")

__all__ = ["SHAPINGS", "ValueShaping", "shaped"]


class ValueShaping(gym.Wrapper):
    """Adds ``scale * (gamma * phi(s') - phi(s))`` to every reward, ``phi`` = the agents' position value.

    ``info["shaping"]`` carries the step's shaping term (for logs).  Illegal actions leave the state unchanged,
    so their shaping term is ``(gamma - 1) * phi(s)``, as the formula says.
    """

    def __init__(self, env: gym.Env, scale: float = 0.05, gamma: float = 1.0, value=None):
        super().__init__(env)
        if not scale > 0:
            raise ValueError(f"shaping scale must be > 0, got {scale}")
        if not 0 < gamma <= 1:
            raise ValueError(f"shaping gamma must lie in (0, 1], got {gamma}")
        if value is None:
            from blackangel_env.agents.value import evaluate as value
        self.value = value
        self.scale = float(scale)
        self.gamma = float(gamma)
        self._phi = 0.0

    def _potential(self) -> float:
        base = self.env.unwrapped
        return float(self.value(base.game_state, base.seat))

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self._phi = self._potential()
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = self._potential()
        term = self.scale * (self.gamma * phi - self._phi)
        self._phi = phi
        info["shaping"] = term
        return obs, float(reward) + term, terminated, truncated, info

    def action_masks(self):
        return self.env.unwrapped.action_masks()


def shaped(env: gym.Env, shaping: str, scale: float, gamma: float) -> gym.Env:
    """``env`` wrapped for the named shaping (``"none"`` returns it unchanged)."""
    if shaping == "none":
        return env
    if shaping == "value":
        return ValueShaping(env, scale=scale, gamma=gamma)
    raise ValueError(f"unknown shaping {shaping!r}; expected one of {', '.join(SHAPINGS)}")

