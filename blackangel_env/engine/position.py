"""Read-only lists of the current position, cached while the buffer is unchanged.

The die-use checks run many times per decision and numpy scalar reads are slow: ``_memo(s)`` holds results
that depend on the position (not on the decision registers) until the buffer changes, and ``_position(s)``
the lists those checks read.
"""

from __future__ import annotations

import sys

from ..constants import MISSION_ACTIVATION, T_ASTEROID
from ..state import DIE_SUPPLY, M_N_STRIPS, State, _views

from .space import _geometry


# Buffer fields left out of the memo key: the registers; VP and the last sequences (nothing memoized reads
# them, so the turn choice keeps the memo); which compartment holds which die, showing what (die uses depend on
# the die's colour and value only, so a die taken in A2 keeps the memo).  Which dice are in the supply is added
# to the key (a Ravager's damage-a-die effect needs one there).
_MEMO_SKIP = frozenset(("m", "vp", "vp_src", "last_seq", "die_value", "die_owner", "die_reserved"))


_MEMO_CUTS: dict[int, tuple[tuple[int, int], ...]] = {}


# The supply flags of the key come from the bytes of the die owners: the low byte of an int16 is 0xFF for
# DIE_SUPPLY (-1) and for no other owner (-3..4), and bytes.translate maps it to 1, every other byte to 0.
_LOW_BYTE = 0 if sys.byteorder == "little" else 1


_SUPPLY_FLAG = bytes(int(b == DIE_SUPPLY & 0xFF) for b in range(256))


def _memo_cut(s: State) -> tuple[tuple[int, int], ...]:
    """The (start, end) byte ranges of the buffer in the memo key (every field but those of ``_MEMO_SKIP``),
    and last the byte range of the die owners."""
    n = len(s.comp.display_costs)
    cut = _MEMO_CUTS.get(n)
    if cut is None:
        ranges: list[list[int]] = []
        views = _views(n)
        for name, (shape, start, end) in views.items():
            if name in _MEMO_SKIP:
                continue
            if ranges and ranges[-1][1] == 2 * start:
                ranges[-1][1] = 2 * end
            else:
                ranges.append([2 * start, 2 * end])
        ranges.append([2 * views["die_owner"][1], 2 * views["die_owner"][2]])
        cut = _MEMO_CUTS[n] = tuple((a, b) for a, b in ranges)
    return cut


def _memo(s: State) -> dict:
    """Results that depend on the position but not on the decision registers, kept while the position is
    unchanged (e.g. from the turn choice through A1 to the die choice when no card is played).  Only the
    current position's memo is kept: an earlier position almost never comes back."""
    if not s._memo_ok:                     # re-checked once per entry point (legal_actions, apply, ...)
        # The key: slices of one bytes copy of the buffer (cheaper than slicing the array), and the supply
        # flags of the dice.
        full = s.buf.tobytes()
        cut = _memo_cut(s)
        k = [full[a:b] for a, b in cut[:-1]]
        a, b = cut[-1]
        k.append(full[a + _LOW_BYTE:b:2].translate(_SUPPLY_FLAG))
        if s._memo_key != k:
            s._memo_key = k
            s._memo = {}
        s._memo_ok = True
    return s._memo


class _lazy:
    """A field of ``_Position`` computed on first use, then stored on the instance: a non-data descriptor, so
    later reads find the stored value first (no failed look-up and ``__getattr__`` call, which are slow)."""

    def __init__(self, f):
        self.f = f
        self.name = f.__name__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        v = obj.__dict__[self.name] = self.f(obj)
        return v


class _Position:
    """Read-only lists of the position, built on first use and reused while the position is unchanged (see
    ``_memo``): the die-use checks run many times per decision and numpy scalar reads are slow."""

    def __init__(self, s: State):
        self.s = s
        self.nh, self.nb, self.ba = _geometry(s.m.item(M_N_STRIPS))
        self._ships: dict[int, list[int]] = {}

    @_lazy
    def ter(self) -> list[int]:
        return self.s.hex_terrain[:self.nh].tolist()

    @_lazy
    def passable(self) -> list[bool]:
        out = list(map(T_ASTEROID.__ne__, self.ter))     # [t != T_ASTEROID for t in ter], the loop in C
        out[self.ba] = True                       # the Black Angel's shields (Command step 1)
        return out

    @_lazy
    def hs(self) -> list[int]:
        # flat [first, second, first, second, ...] per hex: a flat tolist costs half a nested one
        return self.s.hex_ship[:self.nh].ravel().tolist()

    @_lazy
    def card(self) -> list[int]:
        return self.s.hex_card[:self.nh].tolist()

    @_lazy
    def dmg(self) -> list[int]:
        return self.s.dmg.tolist()

    @_lazy
    def top(self) -> list[int]:
        s = self.s
        rc = s.rav_count.tolist()
        loc = s.rav_loc.tolist()
        eff = s.comp.ravager_effect
        return [eff[loc[a][rc[a] - 1]] if rc[a] else -1 for a in range(6)]

    @_lazy
    def any_damage(self) -> bool:
        return any(self.dmg) or any(self.s.die_damaged.tolist())   # only supply dice carry cubes

    @_lazy
    def disc_min(self) -> int:
        s = self.s
        comp = s.comp
        costs = [c for t, c in zip(s.display.tolist(), comp.display_costs) if t >= 0]
        if max(s.adv_slots.tolist()) >= 0:
            costs.append(comp.advanced_cost)
        return min(costs) if costs else 99

    @_lazy
    def destroy_min(self) -> int:
        occupied = [k for k in self.s.rav_count.tolist() if k >= 1]
        return min(occupied) if occupied else 99

    @_lazy
    def act_cards(self) -> tuple[list[int], list[int], list[int]]:
        """Activation Mission cards in Space, by colour, in hex order (the only cards a die can use)."""
        comp = self.s.comp
        out: tuple[list[int], list[int], list[int]] = ([], [], [])
        kind, colour = comp.mission_kind, comp.mission_colour
        for card in filter((-1).__lt__, self.card):     # the hexes holding a card (-1: none), filtered in C
            if kind[card] == MISSION_ACTIVATION:
                out[colour[card]].append(card)
        return out

    def ships(self, p: int) -> list[int]:
        out = self._ships.get(p)
        if out is None:
            # the hexes holding a ship of p, in order: list.count / list.index scan in C
            hs = self.hs
            out = []
            i = -1
            for _ in range(hs.count(p)):
                i = hs.index(p, i + 1)
                if not out or out[-1] != i >> 1:
                    out.append(i >> 1)
            self._ships[p] = out
        return out

    def free_for(self, h: int, p: int) -> bool:
        hs = self.hs
        return hs[2 * h + 1] < 0 and hs[2 * h] != p

    def placeable(self, h: int, colour: int) -> bool:
        return self.ter[h] == colour and self.card[h] < 0


def _position(s: State) -> _Position:
    memo = _memo(s)
    pos = memo.get("pos")
    if pos is None:
        pos = memo["pos"] = _Position(s)
    return pos
