"""Deprecated: ``training.rewards`` is ``blackangel_env.training.rewards`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
