"""Deprecated: ``training.config`` is ``blackangel_env.training.config`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
