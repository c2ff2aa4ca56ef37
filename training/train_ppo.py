"""Deprecated: ``training.train_ppo`` is ``blackangel_env.training.train_ppo`` (training/__init__.py).

``python -m training.train_ppo`` runs ``python -m blackangel_env.training.train_ppo``."""

from training import _alias

_alias(__name__, __spec__)
