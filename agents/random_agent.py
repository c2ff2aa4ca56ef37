"""Deprecated: ``agents.random_agent`` is ``blackangel_env.agents.random_agent`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
