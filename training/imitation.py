"""Deprecated: ``training.imitation`` is ``blackangel_env.training.imitation`` (training/__init__.py).

``python -m training.imitation`` runs ``python -m blackangel_env.training.imitation``."""

from training import _alias

_alias(__name__, __spec__)
