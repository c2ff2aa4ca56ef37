"""Deprecated: ``training.rllib_module`` is ``blackangel_env.training.rllib_module`` (training/__init__.py)."""

from training import _alias

_alias(__name__, __spec__)
