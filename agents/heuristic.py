"""Deprecated: ``agents.heuristic`` is ``blackangel_env.agents.heuristic`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
