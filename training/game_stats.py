"""Deprecated: ``training.game_stats`` is ``blackangel_env.training.game_stats`` (training/__init__.py).

``python -m training.game_stats`` runs ``python -m blackangel_env.training.game_stats``."""

from training import _alias

_alias(__name__, __spec__)
