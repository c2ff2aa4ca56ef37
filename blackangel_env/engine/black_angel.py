"""The Black Angel's advance (Sequence B.3): ships on the asteroid field destroyed, strip 1 ejected with
the neutralization of its Mission cards (appendix), the strip flipped to the far end, Spes in sight and
reached (which triggers the end).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

import numpy as np

from ..board import black_angel_hex
from ..constants import MISSION_ACTIVATION, NEUT_FIXED, NEUT_PER_SPACE, T_ASTEROID, T_SPES
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, MC_DISCARD, MC_SPACE, MC_TUCKED, M_N_STRIPS, M_SPES_POS, M_SPES_REACHED, M_SPES_TOKEN_POS, N_HEXES,
        OT_HEX_CARD, OT_HEX_COMET, OT_HEX_ICONS, OT_HEX_TERRAIN, OT_MC_HEX, OT_MC_OWNER, OT_MC_WHERE,
        OT_STRIP_FACE, OT_STRIP_ID, O_ROBOTS_BREAK, O_ROBOTS_SUPPLY, SRC_HAL, SRC_NEUTRALIZATION,
    )

from .core import _log, gain_goods, gain_vp, seat_name
from .kernels import hex_cards, scroll_board, ships_to_supply
from .space import _ship_to_supply, _ships_on, _strip_hexes
from .end import _trigger_end


@cython.locals(n_strips=cython.Py_ssize_t, tail=cython.Py_ssize_t, ba=cython.Py_ssize_t, nxt=cython.Py_ssize_t,
               card=cython.Py_ssize_t, h=cython.Py_ssize_t, owner=cython.Py_ssize_t, last=cython.Py_ssize_t)
def advance_black_angel(s: State) -> None:
    """B.3: advance one hex, eject strip 1 (neutralization effects), flip it to the far end, shift."""
    m = cython.declare(Registers, registers(s))
    n_strips = m.r[M_N_STRIPS]
    tail = m._tail
    ba = black_angel_hex(n_strips)
    if m.r[OT_HEX_TERRAIN + tail + ba] == T_ASTEROID:
        for q in _ships_on(s, ba):            # ships left behind on the asteroid field are destroyed
            _ship_to_supply(s, ba, q)
            if m.log is not None:
                _log(s, f"{seat_name(s, q)}'s ship is destroyed in the asteroid field")
    nxt = ba + 5
    reached = m.r[OT_HEX_TERRAIN + tail + nxt] == T_SPES
    if m.log is not None:
        _log(s, "the Black Angel advances" + (" onto Spes!" if reached else ""))
    # Eject the cards of strip 1 (position 0).
    ejected = hex_cards(s, 0, 5)
    for card in ejected:
        _neutralization(s, card)
    for card in ejected:
        h = m.r[OT_MC_HEX + tail + card]
        owner = m.r[OT_MC_OWNER + tail + card]
        m.r[OT_HEX_CARD + tail + h] = -1
        if owner == BOT:
            m.r[OT_MC_WHERE + tail + card] = MC_DISCARD     # Hal's cards go to the discard; his robot to the break room
            m.r[O_ROBOTS_BREAK + BOT] += 1
            gain_vp(s, BOT, 3, SRC_HAL, f"his Mission card {card} is ejected")
        else:
            m.r[OT_MC_WHERE + tail + card] = MC_TUCKED + owner
            m.r[O_ROBOTS_SUPPLY + owner] += 1
        m.r[OT_MC_HEX + tail + card] = -1
        if owner == BOT:
            m.r[OT_MC_OWNER + tail + card] = -1
    ships_to_supply(s, 0, 5)                  # ships on the ejected strip return to the supply (rules-notes D5)
    # Flip strip 1, put it last, shift everything toward the board (the cards in Space with their hexes).
    last = n_strips - 1
    scroll_board(s, n_strips, _strip_hexes(m.comp)[m.r[OT_STRIP_ID + tail], 1 - m.r[OT_STRIP_FACE + tail]])
    if m.r[M_SPES_POS] >= 0:
        m.r[M_SPES_POS] -= 1
        _spes_at(m, m.r[M_SPES_POS] * 5 + 2)
    if m.r[M_SPES_TOKEN_POS] == 0:
        m.r[M_SPES_TOKEN_POS] = -1
        m.r[M_SPES_POS] = last                   # the Spes tile covers the middle hex of the flipped strip
        _spes_at(m, last * 5 + 2)
        _log(s, "Planet Spes is in sight")
    elif m.r[M_SPES_TOKEN_POS] > 0:
        m.r[M_SPES_TOKEN_POS] -= 1
    if reached:
        m.r[M_SPES_REACHED] = 1
        _trigger_end(s, "the Black Angel reached Spes")


@cython.cfunc
@cython.locals(m=Registers, h=cython.Py_ssize_t)
def _spes_at(m: Registers, h: int) -> None:
    """The Spes tile on hex ``h`` (a negative one from the end, as the named views index): planet Spes, no comet,
    no Ravager icon."""
    if h < 0:
        h += N_HEXES
    if not 0 <= h < N_HEXES:
        raise IndexError(f"no hex {h}")
    m.r[OT_HEX_TERRAIN + m._tail + h] = T_SPES
    m.r[OT_HEX_COMET + m._tail + h] = 0
    m.r[OT_HEX_ICONS + m._tail + h] = 0


def _count_space(s: State, seat: int, colour: int) -> int:
    """Mission cards of ``colour`` in Space owned by ``seat``, strip 1 excluded (appendix note)."""
    lo, hi = 20 * colour, 20 * colour + 20
    where, owner, hexes = s.mc_where[lo:hi].tolist(), s.mc_owner[lo:hi].tolist(), s.mc_hex[lo:hi].tolist()
    return sum(1 for i in range(20) if where[i] == MC_SPACE and owner[i] == seat and hexes[i] >= 5)


def _count_tucked(s: State, seat: int, colour: int) -> int:
    return int(np.count_nonzero(s.mc_where[20 * colour:20 * colour + 20] == MC_TUCKED + seat))


def _neutralization(s: State, card: int) -> None:
    """Appendix, neutralization missions, resolved on ejection for the owner and each ship-holder."""
    comp = s.comp
    if comp.mission_kind[card] == MISSION_ACTIVATION:
        return
    owner = s.mc_owner.item(card)
    holders = _ships_on(s, s.mc_hex.item(card))
    kind = comp.mission_neut_kind[card]
    cause = f"neutralization of Mission card {card}"
    if kind == NEUT_FIXED:
        if owner != BOT:
            gain_goods(s, owner, comp.mission_neut_owner[card], SRC_NEUTRALIZATION, cause)
        for q in holders:
            if q == owner and not comp.mission_neut_owner_also_holder[card]:
                continue
            gain_goods(s, q, comp.mission_neut_holder[card], SRC_NEUTRALIZATION, cause)
    else:
        colour = comp.mission_neut_colour[card]
        each = comp.mission_neut_vp_each[card]
        seats = ([owner] if owner != BOT else []) + [q for q in holders if q != owner]
        for q in seats:
            k = _count_space(s, q, colour) if kind == NEUT_PER_SPACE else _count_tucked(s, q, colour)
            gain_vp(s, q, each * k, SRC_NEUTRALIZATION, cause)
