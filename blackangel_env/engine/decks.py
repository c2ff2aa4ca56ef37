"""Decks and hands: shuffling, the Technology stacks and display, the Advanced Technology deck and slots,
the Mission decks and hands, the Ravager deck and hands (basic operations, no decision).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

import numpy as np

from ..constants import COLOURS
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        MAX_SEATS, MC_DECK, MC_DISCARD, MC_HAND, M_ADV_DECK_N, M_RAV_DECK_N, N_ADVANCED, N_MISSIONS, N_TILES,
        OT_ADV_DECK, OT_ADV_SLOTS, OT_MC_DECK, OT_MC_DECK_N, OT_MC_HEX, OT_MC_OWNER, OT_MC_WHERE, OT_RAV_DECK,
        OT_TECH_STACK, OT_TECH_STACK_N, OT_TILE_BOOST, OT_TILE_WHERE, O_DISPLAY, O_HAND_MC, RV_DECK, RV_DISCARD,
        RV_HAND, TL_ADV_SLOT, TL_DISCARD, TL_DISPLAY,
    )

from .core import _log
from .kernels import cards_at, shuffle_list


@cython.cfunc
@cython.locals(c=cython.Py_ssize_t)
def _colour(c: int) -> None:
    """A Mission colour or Technology stack 0-2, as the named views' indexing checked it (IndexError)."""
    if not 0 <= c < 3:
        raise IndexError(f"colour {c} is not 0-2")


@cython.cfunc
@cython.locals(p=cython.Py_ssize_t, card=cython.Py_ssize_t)
def _seat_and_card(p: int, card: int) -> None:
    """A seat 0-4 and a Mission card 0-59, as the named views' indexing checked them (IndexError)."""
    if not 0 <= p < MAX_SEATS or not 0 <= card < N_MISSIONS:
        raise IndexError(f"seat {p} or Mission card {card} out of range")


def _shuffled(s: State, items: list[int]) -> list[int]:
    """A shuffled copy.  ``Generator.shuffle`` on a list makes the same swaps from the same draws as
    ``permutation(len(items))`` (both are its Fisher-Yates pass), so this equals ``[items[i] for i in
    rng.permutation(len(items))]``; ``kernels.shuffle_list`` makes those swaps in C, compiled."""
    out = list(items)
    shuffle_list(s, out)
    return out


@cython.locals(n=cython.Py_ssize_t, k=cython.Py_ssize_t, i=cython.Py_ssize_t)
def _pop_tech(s: State, c: int) -> int:
    m = cython.declare(Registers, registers(s))
    _colour(c)
    i = c
    n = m.r[OT_TECH_STACK_N + m._tail + i]
    if n == 0:
        return -1
    k = OT_TECH_STACK + m._tail + 16 * i + n - 1
    t = m.r[k]
    m.r[k] = -1
    m.r[OT_TECH_STACK_N + m._tail + i] = n - 1
    return t


@cython.locals(n=cython.Py_ssize_t, t=cython.Py_ssize_t, i=cython.Py_ssize_t)
def _refill_adv_slot(s: State, slot: int) -> None:
    m = cython.declare(Registers, registers(s))
    if not 0 <= slot < 4:
        raise IndexError(f"no Advanced Technology slot {slot!r}")
    i = slot
    n = m.r[M_ADV_DECK_N]
    if n == 0:
        m.r[OT_ADV_SLOTS + m._tail + i] = -1
        return
    if n > N_ADVANCED:
        raise IndexError(f"the Advanced Technology deck holds {n} tiles")
    t = m.r[OT_ADV_DECK + m._tail + n - 1]
    if not 0 <= t < N_TILES:
        raise IndexError(f"no tile {t}")
    m.r[OT_ADV_DECK + m._tail + n - 1] = -1
    m.r[M_ADV_DECK_N] = n - 1
    m.r[OT_ADV_SLOTS + m._tail + i] = t
    m.r[OT_TILE_WHERE + m._tail + t] = TL_ADV_SLOT


@cython.locals(k=cython.Py_ssize_t, n=cython.Py_ssize_t, i=cython.Py_ssize_t, col=cython.Py_ssize_t)
def _draw_mission(s: State, c: int) -> int:
    """Top card of colour c; an empty deck is rebuilt from that colour's discards (rulebook A3 note)."""
    m = cython.declare(Registers, registers(s))
    _colour(c)
    col = c
    n = m.r[OT_MC_DECK_N + m._tail + col]
    if n == 0:
        disc = []
        for i in range(20 * col, 20 * col + 20):
            if m.r[OT_MC_WHERE + m._tail + i] == MC_DISCARD:
                disc.append(i)
        if not disc:
            return -1
        disc = _shuffled(s, disc)
        s.mc_deck[col, :len(disc)] = disc
        for i in disc:
            s.mc_where[i] = MC_DECK
        n = len(disc)
        if s.log is not None:
            _log(s, f"{COLOURS[col]} Mission deck rebuilt from {n} discards")
    k = OT_MC_DECK + m._tail + 20 * col + n - 1
    card = m.r[k]
    m.r[k] = -1
    m.r[OT_MC_DECK_N + m._tail + col] = n - 1
    return card


def _mission_available(s: State, c: int) -> bool:
    if s.mc_deck_n.item(c) > 0:
        return True
    base = 20 * c
    return bool(np.any(s.mc_where[base:base + 20] == MC_DISCARD))


@cython.locals(p=cython.Py_ssize_t, card=cython.Py_ssize_t)
def _to_hand(s: State, p: int, card: int) -> None:
    m = cython.declare(Registers, registers(s))
    _seat_and_card(p, card)
    m.r[OT_MC_WHERE + m._tail + card] = MC_HAND + p
    m.r[O_HAND_MC + 3 * p + card // 20] += 1


@cython.locals(card=cython.Py_ssize_t, where=cython.Py_ssize_t)
def _discard_mission(s: State, card: int) -> None:
    m = cython.declare(Registers, registers(s))
    _seat_and_card(0, card)
    where = m.r[OT_MC_WHERE + m._tail + card]
    if MC_HAND <= where < MC_HAND + 5:
        m.r[O_HAND_MC + 3 * (where - MC_HAND) + card // 20] -= 1
    m.r[OT_MC_WHERE + m._tail + card] = MC_DISCARD
    m.r[OT_MC_OWNER + m._tail + card] = -1
    m.r[OT_MC_HEX + m._tail + card] = -1


def _hand_missions(s: State, p: int) -> list[int]:
    """The Mission cards in p's hand, ascending (a typed scan: ``kernels.cards_at``)."""
    return cards_at(s, MC_HAND + p)


@cython.locals(o=cython.Py_ssize_t)
def _hand_total(s: State, p: int) -> int:
    m = cython.declare(Registers, registers(s))
    if not 0 <= p < MAX_SEATS:
        raise ValueError(f"_hand_total: seat {p!r} is not a seat 0-{MAX_SEATS - 1}")
    o = O_HAND_MC + 3 * p                        # p's row of hand_mc, through the buffer
    return m.r[o] + m.r[o + 1] + m.r[o + 2]


def _lowest_hand_ravager(s: State, p: int) -> int:
    where = s.rav_where.tolist()           # list scan in C: cheaper than a numpy comparison and flatnonzero
    code = RV_HAND + p
    if code in where:
        return where.index(code)
    return int(np.flatnonzero(s.rav_where == code)[0])     # none in hand: the same IndexError as ever


@cython.locals(n=cython.Py_ssize_t)
def _pop_ravager(s: State) -> int:
    m = cython.declare(Registers, registers(s))
    n = m.r[M_RAV_DECK_N]
    if n == 0:
        disc = np.flatnonzero(s.rav_where == RV_DISCARD).tolist()
        if not disc:
            return -1
        disc = _shuffled(s, disc)
        s.rav_deck[:len(disc)] = disc
        for r in disc:
            s.rav_where[r] = RV_DECK
        n = len(disc)
        if s.log is not None:
            _log(s, f"Ravager deck rebuilt from {n} discards")
    r = m.r[OT_RAV_DECK + m._tail + n - 1]
    m.r[OT_RAV_DECK + m._tail + n - 1] = -1
    m.r[M_RAV_DECK_N] = n - 1
    return r


@cython.locals(t=cython.Py_ssize_t, n=cython.Py_ssize_t, gap=cython.Py_ssize_t, i=cython.Py_ssize_t,
               out=cython.Py_ssize_t)
def _push_display(s: State, t: int) -> None:
    """Inject at display space 1, chain-pushing the contiguous tiles (rules-notes D1); a tile pushed off the
    far end is discarded."""
    m = cython.declare(Registers, registers(s))
    n = m._tail                              # the display's spaces, through the buffer
    if n < 1 or not 0 <= t < N_TILES:
        raise IndexError(f"tile {t} into a display of {n} spaces")
    gap = -1
    for i in range(n):
        if m.r[O_DISPLAY + i] < 0:
            gap = i
            break
    if gap < 0:
        out = m.r[O_DISPLAY + n - 1]
        m.r[OT_TILE_WHERE + m._tail + out] = TL_DISCARD
        m.r[OT_TILE_BOOST + m._tail + out] = 0
        gap = n - 1
        if m.log is not None:
            _log(s, f"tile {out} pushed out of the display")
    for i in range(gap, 0, -1):              # spaces 0 .. gap-1 move up one
        m.r[O_DISPLAY + i] = m.r[O_DISPLAY + i - 1]
    m.r[O_DISPLAY] = t
    m.r[OT_TILE_WHERE + m._tail + t] = TL_DISPLAY
