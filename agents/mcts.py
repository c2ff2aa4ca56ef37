"""Deprecated: ``agents.mcts`` is ``blackangel_env.agents.mcts`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
