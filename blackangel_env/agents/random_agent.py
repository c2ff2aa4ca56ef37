"""The uniform-random baseline: a legal action drawn uniformly with the agent's own seeded generator."""

from __future__ import annotations

import numpy as np

from blackangel_env.actions import mask_array
from blackangel_env.config import seed_or_none


class RandomAgent:
    """Chooses uniformly among the legal actions of the mask.

    The agent interface used across the project: ``act(observation, action_mask, state=None) -> int`` (also
    callable directly), and ``reset(seed)`` to reseed between games.  ``state`` is unused here; search agents
    may read a copy of the engine state through it.  It draws exactly as the environments' default opponent
    (``blackangel_env.gym_env.RandomPolicy``): the same seed gives the same choices.
    """

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed_or_none(f"{type(self).__name__}: seed", seed))

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed_or_none(f"{type(self).__name__}.reset: seed", seed))

    def act(self, observation, action_mask, state=None) -> int:
        legal = np.flatnonzero(mask_array(action_mask, type(self).__name__))
        if len(legal) == 0:
            raise ValueError(f"{type(self).__name__}: the action mask allows no action")
        return int(legal[int(self.rng.integers(len(legal)))])

    __call__ = act
