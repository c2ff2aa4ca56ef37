"""Deprecated: ``training.evaluate`` is ``blackangel_env.training.evaluate`` (training/__init__.py).

``python -m training.evaluate`` runs ``python -m blackangel_env.training.evaluate``."""

from training import _alias

_alias(__name__, __spec__)
