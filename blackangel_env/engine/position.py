"""The memo of the current position: results that depend on the position, kept while the buffer is unchanged.

The die-use checks (``die_uses``) run many times per decision: ``_memo(s)`` holds their results (the uses of a
die, whether a die is usable) until the position changes.
"""

from __future__ import annotations

import sys

from ..state import DIE_SUPPLY, State, _views


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
