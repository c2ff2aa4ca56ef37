"""Deprecated: ``agents.value`` is ``blackangel_env.agents.value`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
