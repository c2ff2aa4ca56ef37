"""Agents for blackangel_env: every agent takes (observation, action_mask, state) and returns an action id."""

from .random_agent import RandomAgent

__all__ = ["RandomAgent"]
