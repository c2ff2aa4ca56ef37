"""Deprecated: ``agents.codes`` is ``blackangel_env.agents.codes`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
