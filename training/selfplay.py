"""Deprecated: ``training.selfplay`` is ``blackangel_env.training.selfplay`` (training/__init__.py).

``python -m training.selfplay`` runs ``python -m blackangel_env.training.selfplay``."""

from training import _alias

_alias(__name__, __spec__)
