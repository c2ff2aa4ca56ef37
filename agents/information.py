"""What a seat may know: ``determinize(state, seat, rng)`` resamples everything hidden from ``seat``.

Every agent in ``agents/`` that reads the engine state searches or plans on a determinization, never on the real
state: the real one holds the order of every deck, the other hands and the game's random generator (future
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

from blackangel_env.state import (
    M_ADV_DECK_N, M_HAL_DECK_N, M_RAV_DECK_N, M_SOLO, MC_DECK, MC_HAND, MC_SLOT, RV_BOX, RV_DECK, State,
)

__all__ = ["determinize"]


def determinize(state: State, seat: int, rng: np.random.Generator) -> State:
    """A copy of ``state`` with the information hidden from ``seat`` resampled (module docstring): a function
    of what ``seat`` can see and of ``rng`` only."""
    t = state.copy()
    # Mission cards: deck order + other seats' hands and face-down slot cards, per colour.
    where = t.mc_where
    others_hand = [MC_HAND + q for q in range(5) if q != seat]
    others_slot = [MC_SLOT + q for q in range(5) if q != seat]
    hidden_loc = np.isin(where, others_hand + others_slot)
    old_where = where.copy()
    old_owner = t.mc_owner.copy()
    old_hex = t.mc_hex.copy()
    for c in range(3):
        n = int(t.mc_deck_n[c])
        deck = t.mc_deck[c, :n].tolist()
        held = [int(x) for x in np.flatnonzero(hidden_loc[20 * c:20 * c + 20]) + 20 * c]
        pool = sorted(deck + held)
        if len(pool) <= 1:
            continue
        perm = [pool[i] for i in rng.permutation(len(pool))]
        t.mc_deck[c, :n] = perm[:n]
        # the hidden places (which hand or slot), in a canonical order: which card sat where is hidden too
        places = sorted((int(old_where[old]), int(old_owner[old]), int(old_hex[old])) for old in held)
        for (w, o, h), new in zip(places, perm[n:]):   # card `new` takes a hidden card's place
            where[new] = w
            t.mc_owner[new] = o
            t.mc_hex[new] = h
        for new in perm[:n]:
            where[new] = MC_DECK
            t.mc_owner[new] = -1
            t.mc_hex[new] = -1
    if np.any(hidden_loc):
        _rewrite_slots(t, seat)       # the other seats' slots list card ids: point them at the relabelled cards
    # Ravager deck + the cards set aside at setup.
    nd = int(t.m[M_RAV_DECK_N])
    deck = t.rav_deck[:nd].tolist()
    boxed = np.flatnonzero(t.rav_where == RV_BOX).tolist()
    pool = sorted(deck + boxed)
    if len(pool) > 1:
        perm = [pool[i] for i in rng.permutation(len(pool))]
        t.rav_deck[:nd] = perm[:nd]
        for r in perm[:nd]:
            t.rav_where[r] = RV_DECK
        for r in perm[nd:]:
            t.rav_where[r] = RV_BOX
    # Technology stacks below the visible top tile.
    for c in range(3):
        n = int(t.tech_stack_n[c])
        if n > 2:
            below = np.sort(t.tech_stack[c, :n - 1])
            t.tech_stack[c, :n - 1] = below[rng.permutation(n - 1)]
    # Advanced deck (face down) and Hal's deck.
    n = int(t.m[M_ADV_DECK_N])
    if n > 1:
        t.adv_deck[:n] = np.sort(t.adv_deck[:n])[rng.permutation(n)]
    if t.m[M_SOLO]:
        n = int(t.m[M_HAL_DECK_N])
        if n > 1:
            t.hal_deck[:n] = np.sort(t.hal_deck[:n])[rng.permutation(n)]
    # Future randomness.
    t.reseed(int(rng.integers(2**63)))
    return t


def _rewrite_slots(t: State, seat: int) -> None:
    """Make every other seat's slots list the Mission cards now marked as played there (per colour)."""
    for q in range(4):
        if q == seat:
            continue
        marked = {c: [int(x) for x in np.flatnonzero(t.mc_where[20 * c:20 * c + 20] == MC_SLOT + q) + 20 * c]
                  for c in range(3)}
        for k in range(6):
            code = int(t.slots[q, k])
            if 0 <= code < 60:
                t.slots[q, k] = marked[code // 20].pop()
