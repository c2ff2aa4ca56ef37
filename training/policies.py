"""Deprecated: ``training.policies`` is ``blackangel_env.training.policies`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
