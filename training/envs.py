"""Deprecated: ``training.envs`` is ``blackangel_env.training.envs`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
