"""The Space board: laying strips, the hex fields as one block, ships on hexes, where a ship can move
(basic operations, no decision).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

import numpy as np

from ..board import black_angel_hex, neighbours
from ..components import Components
from ..state import State, _views
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, MAX_SEATS, M_N_STRIPS, N_HEXES, OT_HEX_CARD, OT_HEX_SHIP, OT_HEX_TERRAIN, O_ROBOTS_SUPPLY,
    )

from .kernels import ship_hexes
from .ship_moves import destinations


_STRIP_HEXES: dict[int, tuple[Components, np.ndarray]] = {}


def _strip_hexes(comp: Components) -> np.ndarray:
    """[strip, face] -> (3, 5) array of the terrain, comet flag (1/0) and Ravager icons of the 5 hexes."""
    hit = _STRIP_HEXES.get(id(comp))
    if hit is None or hit[0] is not comp:
        table = np.array([[[st[:5], cm[:5], ic[:5]] for st, cm, ic in zip(ter, com, ico)]
                          for ter, com, ico in zip(comp.strip_terrain, comp.strip_comet, comp.strip_icons)],
                         dtype=np.int16)
        hit = _STRIP_HEXES[id(comp)] = (comp, table)
    return hit[1]


def _hex_block(s: State) -> np.ndarray:
    """The fields hex_terrain, hex_comet, hex_icons and hex_card (consecutive in the buffer) as one (4, hexes)
    view."""
    f = s._fields
    start, end = f["hex_terrain"][1], f["hex_card"][2]
    return s.buf[start:end].reshape(4, -1)


def _own_ship_hexes(s: State, p: int) -> list[int]:
    """The hexes of p's ships, ascending (a player has at most one ship a hex; a typed scan: ``kernels``)."""
    return ship_hexes(s, p)


@cython.cfunc
@cython.locals(h=cython.Py_ssize_t)
def _hex(h: int) -> None:
    """A hex 0..N_HEXES-1 of the board's fields (IndexError otherwise, as the named view's indexing raised)."""
    if not 0 <= h < N_HEXES:
        raise IndexError(f"hex {h} is not a hex 0-{N_HEXES - 1}")


@cython.locals(h=cython.Py_ssize_t, o=cython.Py_ssize_t, a=cython.int, b=cython.int)
def _ships_on(s: State, h: int) -> list[int]:
    """The seats of the ships on hex h (its two places, in order)."""
    m = cython.declare(Registers, registers(s))
    _hex(h)
    o = OT_HEX_SHIP + m._tail + 2 * h
    a = m.r[o]
    b = m.r[o + 1]
    if a >= 0:
        return [a, b] if b >= 0 else [a]
    return [b] if b >= 0 else []


@cython.locals(h=cython.Py_ssize_t, o=cython.Py_ssize_t)
def _remove_ship(s: State, h: int, p: int) -> None:
    m = cython.declare(Registers, registers(s))
    _hex(h)
    o = OT_HEX_SHIP + m._tail + 2 * h
    if m.r[o] == p:
        m.r[o] = m.r[o + 1]
    m.r[o + 1] = -1


@cython.locals(h=cython.Py_ssize_t, o=cython.Py_ssize_t)
def _add_ship(s: State, h: int, p: int) -> None:
    m = cython.declare(Registers, registers(s))
    _hex(h)
    o = OT_HEX_SHIP + m._tail + 2 * h
    if m.r[o] < 0:
        m.r[o] = p
    else:
        m.r[o + 1] = p


def _ship_to_supply(s: State, h: int, p: int) -> None:
    """A ship leaves the board for the general supply; its pilot returns to the player's robot supply."""
    m = cython.declare(Registers, registers(s))
    _remove_ship(s, h, p)
    if p != BOT:
        if not 0 <= p < MAX_SEATS:
            raise IndexError(f"_ship_to_supply: seat {p} is not a seat 0-{MAX_SEATS - 1}")
        m.r[O_ROBOTS_SUPPLY + p] += 1


@cython.locals(h=cython.Py_ssize_t, o=cython.Py_ssize_t)
def _ships_at(s: State, h: int) -> tuple:
    """The two places of hex h, -1 where empty."""
    m = cython.declare(Registers, registers(s))
    _hex(h)
    o = OT_HEX_SHIP + m._tail + 2 * h
    return m.r[o], m.r[o + 1]


def _occupancy_ok(s: State, h: int, p: int, moving_from: int, hs: list[int] | None = None) -> bool:
    """At most 2 ships per hex, of different players (Command step 1).  ``hs``: ``hex_ship`` as a flat list."""
    if hs is None:
        a, b = _ships_at(s, h)
    else:
        a, b = hs[2 * h], hs[2 * h + 1]
    cnt = (a >= 0) + (b >= 0)
    own = (a == p) + (b == p)
    if h == moving_from:       # the moving ship itself leaves this hex
        cnt -= 1
        own -= 1
    return cnt < 2 and own == 0


def _destinations(s: State, p: int, start: int, rmin: int, rmax: int, existing: bool) -> list[int]:
    """Hexes, ascending, a ship (already at ``start`` if ``existing``, else launched from the Black Angel's hex)
    can end on after moving between rmin and rmax hexes.  Moving out and back counts as a move (rules-notes D4).
    The search is ``ship_moves.destinations`` (compiled by the build)."""
    n_strips = s.mv[M_N_STRIPS]
    f = s._fields
    return destinations(s._typed, f["hex_terrain"][1], f["hex_ship"][1], _neighbour_table(n_strips), n_strips * 5,
                        black_angel_hex(n_strips), p, start, rmin, rmax, existing)


_NEIGHBOUR_TABLE: dict[int, np.ndarray] = {}


def _neighbour_table(n_strips: int) -> np.ndarray:
    """The neighbours of each hex of a board of n_strips as one int16 array, 6 entries per hex, -1 padded (the
    table ``ship_moves.destinations`` reads): a constant, built once."""
    t = _NEIGHBOUR_TABLE.get(n_strips)
    if t is None:
        t = np.full((n_strips * 5, 6), -1, dtype=np.int16)
        for h, adj in enumerate(neighbours(n_strips)):
            t[h, :len(adj)] = adj
        t = _NEIGHBOUR_TABLE[n_strips] = t.ravel()
        t.flags.writeable = False
    return t


@cython.locals(h=cython.Py_ssize_t)
def _can_place_at(s: State, h: int, colour: int) -> bool:
    m = cython.declare(Registers, registers(s))     # the hex fields through the buffer
    if not 0 <= h < N_HEXES:
        raise IndexError(f"no hex {h}")
    return m.r[OT_HEX_TERRAIN + m._tail + h] == colour and m.r[OT_HEX_CARD + m._tail + h] < 0


_GEOMETRY: dict[int, tuple[int, tuple[tuple[int, ...], ...], int]] = {}


def _geometry(n_strips: int) -> tuple[int, tuple[tuple[int, ...], ...], int]:
    """(number of hexes, neighbours, Black Angel hex) of a board of n_strips: constants, computed once."""
    g = _GEOMETRY.get(n_strips)
    if g is None:
        g = _GEOMETRY[n_strips] = (n_strips * 5, neighbours(n_strips), black_angel_hex(n_strips))
    return g


_v = _views(8)
assert _v["hex_terrain"][2] == _v["hex_comet"][1] and _v["hex_comet"][2] == _v["hex_icons"][1] \
    and _v["hex_icons"][2] == _v["hex_card"][1], "_hex_block needs the four hex fields consecutive"
del _v
