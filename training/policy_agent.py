"""Deprecated: ``training.policy_agent`` is ``blackangel_env.training.policy_agent`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
