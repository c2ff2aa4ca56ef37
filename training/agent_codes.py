"""Deprecated: ``training.agent_codes`` is ``blackangel_env.training.agent_codes`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
