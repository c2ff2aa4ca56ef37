"""What a seat may know: ``determinize(state, seat, rng)`` resamples everything hidden from ``seat``.

It is the engine's ``resample_hidden`` (``blackangel_env.engine.visibility``), which reads what each seat sees
from the engine's visibility table, the same table the observation encoder follows (docs/engine.md).

Every agent in ``blackangel_env/agents/`` that reads the engine state searches or plans on a determinization, never on
the real state: the real one holds the order of every deck, the other hands and the game's random generator (future
dice rolls), which no player can see.  ``determinize`` returns a copy in which that hidden information is
replaced by a sample consistent with what the seat has seen, and which depends only on what the seat can see
and on ``rng`` (each resampled pool is put in a canonical order before it is shuffled), so an agent's decision
cannot depend on hidden information (``tests/test_agents.py`` checks it by changing only hidden information).

It resamples: the order of the three Mission decks together with the identities of the Mission
cards in the other seats' hands and face down in their slots (each colour separately, so every hand keeps its
per-colour counts: card backs are coloured); the order of the Ravager deck together with the cards set aside
at setup; the Technology stacks below their visible top tile; the Advanced Technology deck; Hal's deck (solo);
and the game's random generator (future dice rolls and reshuffles).  Cards the agent has seen and that are now
in an opponent's hand by a visible route (Ravager cards taken by Destroy, the other seat's draw-two choice in
the advanced game) are left where they are.
"""

from __future__ import annotations

import numpy as np

from blackangel_env.engine.visibility import resample_hidden
from blackangel_env.state import State

__all__ = ["determinize"]


def determinize(state: State, seat: int, rng: np.random.Generator) -> State:
    """A copy of ``state`` with the information hidden from ``seat`` resampled (module docstring): a function
    of what ``seat`` can see and of ``rng`` only.  The engine's ``resample_hidden``, which reads what each seat
    sees from the engine's visibility table (``blackangel_env.engine.visibility``)."""
    return resample_hidden(state, seat, rng)
