"""Deprecated: ``agents.search`` is ``blackangel_env.agents.search`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
