"""Deprecated: ``training.checkpoints`` is ``blackangel_env.training.checkpoints`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
