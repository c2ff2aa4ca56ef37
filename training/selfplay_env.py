"""Deprecated: ``training.selfplay_env`` is ``blackangel_env.training.selfplay_env`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
