"""Mission cards in Space: placing one (Command steps 2-4, also Hal's), and what a seat may pay for an
activation and which cards it can reach.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..board import neighbours
from ..constants import T_SPES
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        MAX_SEATS, MC_HAND, MC_SPACE, M_ADVANCED, M_N_STRIPS, N_MISSIONS, OT_HEX_CARD, OT_HEX_ICONS,
        OT_HEX_TERRAIN, OT_MC_HEX, OT_MC_OWNER, OT_MC_WHERE, OT_TILE_BOOST, O_HAND_MC, O_ROBOTS_BREAK, SRC_REWARD,
        TL_EJECTED,
    )

from .core import _log, gain_goods, seat_name
from .decks import _pop_tech, _push_display
from .predicates import can_pay, has_access
from .ravagers import _ravagers_appear


@cython.locals(tail=cython.Py_ssize_t, n_hexes=cython.Py_ssize_t, where=cython.Py_ssize_t, icons=cython.long,
               g=cython.Py_ssize_t, t=cython.Py_ssize_t, seat=cython.Py_ssize_t, c=cython.Py_ssize_t,
               hx=cython.Py_ssize_t)
def place_mission(s: State, p: int, card: int, h: int) -> None:
    """Command steps 2-4 (also used by Hal): the card, its owner's robot and reward, Ravagers, new tiles.  A seat,
    card or hex out of range, a card already in Space or an occupied hex raise ValueError before anything
    changes."""
    m = cython.declare(Registers, registers(s))
    comp = m.comp
    tail = m._tail
    n_hexes = 5 * m.r[M_N_STRIPS]
    if not (0 <= p < MAX_SEATS and 0 <= card < N_MISSIONS and 0 <= h < n_hexes):
        raise ValueError(f"place_mission: seat {p!r}, card {card!r} and hex {h!r} must be a seat 0-{MAX_SEATS - 1}, "
                         f"a Mission card 0-{N_MISSIONS - 1} and a hex 0-{n_hexes - 1} of the board")
    seat, c, hx = p, card, h                    # checked: as C integers
    where = m.r[OT_MC_WHERE + tail + c]
    if where == MC_SPACE or m.r[OT_HEX_CARD + tail + hx] >= 0:
        raise ValueError(f"place_mission: Mission card {card} is already in Space or hex {h} holds a card")
    if MC_HAND <= where < MC_HAND + 5:
        m.r[O_HAND_MC + 3 * seat + c // 20] -= 1
    m.r[OT_MC_WHERE + tail + c] = MC_SPACE
    m.r[OT_MC_OWNER + tail + c] = seat
    m.r[OT_MC_HEX + tail + c] = hx
    m.r[OT_HEX_CARD + tail + hx] = c
    m.r[O_ROBOTS_BREAK + seat] -= 1            # the owner's robot on the reward
    if m.log is not None:
        _log(s, f"{seat_name(s, p)} places Mission card {card} on hex s{hx // 5 + 1}:{hx % 5 - 2:+d}")
    reward = [0] * 8
    reward[comp.mission_reward[c]] = comp.mission_reward_amount[c]
    gain_goods(s, p, reward, SRC_REWARD, f"reward of Mission card {card}")
    icons = 0
    for g in neighbours(m.r[M_N_STRIPS])[hx]:
        if m.r[OT_HEX_CARD + tail + g] < 0 and m.r[OT_HEX_TERRAIN + tail + g] != T_SPES:
            icons += m.r[OT_HEX_ICONS + tail + g]
    if icons:
        _ravagers_appear(s, icons)
    for colour in comp.mission_tiles[c]:
        t = _pop_tech(s, colour)
        if t >= 0:
            if m.r[M_ADVANCED]:
                m.r[OT_TILE_BOOST + tail + t] = 1
            _push_display(s, t)


# Access to a Mission card and the payment of its cost: the predicates that the legal uses of a die read too
# (``predicates``), under the names the engine's modules use.
_has_access = has_access
_can_pay = can_pay
