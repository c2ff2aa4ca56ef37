"""Deprecated: ``training.rllib_train`` is ``blackangel_env.training.rllib_train`` (training/__init__.py).

``python -m training.rllib_train`` runs ``python -m blackangel_env.training.rllib_train``."""

from training import _alias

_alias(__name__, __spec__)
