"""Hidden information and chance: what each seat sees (one table), and ``resample_hidden``.

The table.  Cards are identified by where they lie (``mc_where`` / ``rav_where`` codes, per seat for the places
a seat owns).  For each place, ``MISSION_PLACES`` and ``RAVAGER_PLACES`` say who sees which card lies there
(``PUBLIC``: every seat; ``HOLDER``: the seat whose place it is; ``NOBODY``), what the other seats see of it, and
whether ``resample_hidden`` draws its cards anew for a seat that cannot identify them.  ``HIDDEN_ORDERS`` lists the
face-down stacks whose order no seat sees, and what is visible of each; the game's random generator (future
rolls and reshuffles) is hidden from every seat.  Everything else in the state buffer is public.

Some places are hidden from the other seats but kept as they are by ``resample_hidden`` (``resampled=False``):
Ravager cards in a hand or face down in a slot (a seat has seen most of them arrive: Destroy takes them from the
board in view of all; the determinization keeps them rather than track which were seen), and the two Mission
cards of a draw-two-keep-one choice (only the seat about to choose holds any, so no other seat plans while they
are out).  The observation shows none of them, since it has no memory of how they got there.

Users: ``blackangel_env.encoding`` shows the observer the cards of the places it sees privately
(``private_mission_places``) card by card, and of the other seats' places only what ``shown`` says;
``resample_hidden`` is the determinization the agents plan on (``blackangel_env.agents.information.determinize``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..state import (
    M_ADV_DECK_N, M_HAL_DECK_N, M_RAV_DECK_N, M_SOLO, MC_DECK, MC_DISCARD, MC_DRAWN, MC_HAND, MC_SLOT, MC_SPACE,
    MC_TUCKED, RV_BOARD, RV_BOX, RV_DECK, RV_DISCARD, RV_HAND, RV_SLOT, State,
)

from .core import not_a_state

PUBLIC, HOLDER, NOBODY = "public", "holder", "nobody"
SEATS = 5                     # places held per seat: players 0..3 and the neutral player / Hal


@dataclass(frozen=True)
class Place:
    """A place cards lie in: ``code`` (+ the seat for a place each seat has), who sees which cards lie there,
    what the seats that do not see them see, and whether ``resample_hidden`` draws them anew for those seats."""
    code: int
    per_seat: bool
    identity: str             # PUBLIC, HOLDER or NOBODY
    shown: str                # what a seat that does not see the identities sees
    resampled: bool

    def codes(self) -> list[int]:
        return [self.code + q for q in range(SEATS)] if self.per_seat else [self.code]


MISSION_PLACES: dict[str, Place] = {
    "deck": Place(MC_DECK, False, NOBODY, "the number of cards of each colour", True),
    "discard": Place(MC_DISCARD, False, PUBLIC, "", False),
    "space": Place(MC_SPACE, False, PUBLIC, "", False),
    "hand": Place(MC_HAND, True, HOLDER, "the number of cards of each colour (card backs are coloured)", True),
    "slot": Place(MC_SLOT, True, HOLDER, "a face-down card of its colour", True),
    "tucked": Place(MC_TUCKED, True, PUBLIC, "", False),
    "drawn": Place(MC_DRAWN, True, HOLDER, "the colours of the two cards drawn", False),
}
RAVAGER_PLACES: dict[str, Place] = {
    "deck": Place(RV_DECK, False, NOBODY, "the number of cards", True),
    "discard": Place(RV_DISCARD, False, PUBLIC, "", False),
    "box": Place(RV_BOX, False, NOBODY, "the number of cards removed at setup", True),
    "hand": Place(RV_HAND, True, HOLDER, "the number of cards", False),
    "slot": Place(RV_SLOT, True, HOLDER, "a face-down Ravager card", False),
    "board": Place(RV_BOARD, True, PUBLIC, "", False),          # + the action (0..5) rather than a seat
}
HIDDEN_ORDERS: dict[str, str] = {   # buffer field -> what is visible of the face-down stack
    "mc_deck": "the number of cards of each colour",
    "rav_deck": "the number of cards",
    "tech_stack": "the number of tiles and the top tile of each stack (face up)",
    "adv_deck": "the number of tiles",
    "hal_deck": "the set of cards not yet revealed (solo)",
}


def sees(place: Place, code: int, seat: int) -> bool:
    """Does ``seat`` see which cards lie at ``code`` (a code of ``place``)?"""
    if place.identity == PUBLIC:
        return True
    return place.identity == HOLDER and place.per_seat and code - place.code == seat


def private_mission_places(seat: int) -> dict[str, int]:
    """The Mission card places only ``seat`` sees into: place name -> code."""
    return {name: pl.code + seat for name, pl in MISSION_PLACES.items() if pl.identity == HOLDER and pl.per_seat}


def held_hidden_codes(places: dict[str, Place], seat: int) -> list[int]:
    """The codes of the other seats' places whose cards ``resample_hidden`` draws anew for ``seat``."""
    return [code for pl in places.values() if pl.resampled and pl.identity == HOLDER
            for code in pl.codes() if not sees(pl, code, seat)]


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """A copy of ``state`` with everything hidden from ``seat`` (the table above) resampled from ``rng``.

    It is a function of what ``seat`` can see and of ``rng`` only (each resampled pool is put in a canonical
    order before it is shuffled): the order of the three Mission decks together with the identities of the
    Mission cards in the other seats' hands and slots (each colour separately, so every hand keeps its
    per-colour counts); the order of the Ravager deck together with the cards set aside at setup; the Technology
    stacks below their visible top tile; the Advanced Technology deck; Hal's deck (solo); and the game's random
    generator (future dice rolls and reshuffles).  A ``seat`` that is not a player seat of the game raises
    ValueError, an ``rng`` that is not a ``numpy.random.Generator`` (or a ``state`` that is not a State) TypeError."""
    if not isinstance(state, State):
        raise not_a_state("resample_hidden", state)
    n = state.num_players
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise ValueError(f"resample_hidden: seat must be a player seat 0..{n - 1}, got {seat!r}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"resample_hidden: rng must be a numpy.random.Generator, got {type(rng).__name__}")
    seat = int(seat)
    t = state.copy()
    # Mission cards: deck order + other seats' hands and face-down slot cards, per colour.
    where = t.mc_where
    hidden_loc = np.isin(where, held_hidden_codes(MISSION_PLACES, seat))
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
    nd = int(t.mv[M_RAV_DECK_N])
    deck = t.rav_deck[:nd].tolist()
    box = RAVAGER_PLACES["box"].code
    boxed = np.flatnonzero(t.rav_where == box).tolist()
    pool = sorted(deck + boxed)
    if len(pool) > 1:
        perm = [pool[i] for i in rng.permutation(len(pool))]
        t.rav_deck[:nd] = perm[:nd]
        for r in perm[:nd]:
            t.rav_where[r] = RV_DECK
        for r in perm[nd:]:
            t.rav_where[r] = box
    # Technology stacks below the visible top tile.
    for c in range(3):
        n = int(t.tech_stack_n[c])
        if n > 2:
            below = np.sort(t.tech_stack[c, :n - 1])
            t.tech_stack[c, :n - 1] = below[rng.permutation(n - 1)]
    # Advanced deck (face down) and Hal's deck.
    n = int(t.mv[M_ADV_DECK_N])
    if n > 1:
        t.adv_deck[:n] = np.sort(t.adv_deck[:n])[rng.permutation(n)]
    if t.mv[M_SOLO]:
        n = int(t.mv[M_HAL_DECK_N])
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
