"""Deprecated: ``agents.arena`` is ``blackangel_env.agents.arena`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
