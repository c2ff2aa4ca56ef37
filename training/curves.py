"""Deprecated: ``training.curves`` is ``blackangel_env.training.curves`` (training/__init__.py).

``python -m training.curves`` runs ``python -m blackangel_env.training.curves``."""

from training import _alias

_alias(__name__, __spec__)
