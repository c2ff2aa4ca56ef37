"""Deprecated: ``training.sb3_vec_env`` is ``blackangel_env.training.sb3_vec_env`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
