"""Final scoring with a breakdown of every player's VP by source: the rules live in
``blackangel_env.engine.end`` (the end of the game and scoring); this module keeps the old import path
(``scoring.score_breakdown``, ``scoring.advanced_tiles_detail``, ``scoring.finish_game``)."""

from __future__ import annotations

from .engine import end as _end
from .engine.end import advanced_tiles_detail, finish_game, score_breakdown

__all__ = ["advanced_tiles_detail", "finish_game", "score_breakdown"]


def __getattr__(name: str):
    """The module's other names (its private helpers) as they are in ``engine.end``."""
    try:
        return getattr(_end, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
