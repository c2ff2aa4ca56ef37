"""Deprecated: ``training.ppo_settings`` is ``blackangel_env.training.ppo_settings`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
