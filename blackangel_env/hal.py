"""Hal, the solitaire opponent: the rules live in ``blackangel_env.engine.hal``; this module keeps the old
import path (``from blackangel_env import hal``; ``hal.hal_turn``, ``hal.hal_gain``, ...)."""

from __future__ import annotations

from .engine import hal as _hal
from .engine.core import hal_gain
from .engine.hal import hal_free_activation, hal_turn

__all__ = ["hal_free_activation", "hal_gain", "hal_turn"]


def __getattr__(name: str):
    """The module's other names (its private helpers) as they are in ``engine.hal``."""
    try:
        return getattr(_hal, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
