"""Deprecated: ``agents.greedy`` is ``blackangel_env.agents.greedy`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
