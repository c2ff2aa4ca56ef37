"""The uniform-random baseline: a legal action drawn uniformly with the agent's own seeded generator."""

from __future__ import annotations

from blackangel_env.gym_env import RandomPolicy


class RandomAgent(RandomPolicy):
    """Chooses uniformly among the legal actions of the mask.

    The agent interface used across the project: ``act(observation, action_mask, state=None) -> int`` (also
    callable directly), and ``reset(seed)`` to reseed between games.  ``state`` is unused here; search agents
    may read a copy of the engine state through it.  It is the environments' default opponent
    (``blackangel_env.gym_env.RandomPolicy``), exposed here with the other agents.
    """
