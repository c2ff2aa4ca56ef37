"""Deprecated: ``agents.information`` is ``blackangel_env.agents.information`` (agents/__init__.py)."""

from agents import _alias

_alias(__name__)
