"""Kernel K1 in Cython pure-Python mode: one source that runs interpreted (``import cython`` resolves to Cython's
shadow module) and compiles with ``cythonize`` to typed C.

``command_moves(ter, hs, nb, ba, asteroid, p, ev)``: the Command moves of seat ``p`` with an effective die value
``ev``: for each hex holding a ship of ``p`` (ascending), the hexes it can end on after 1..ev moves, then the hexes a
ship launched from the Black Angel's hex can end on; each move encoded ``start * 256 + dest`` (start 255 for a
launch).  The same result as the engine's ``_passable`` + ``_destinations`` (Command step 1, rules-notes D4), which
``compare.py`` checks on positions of random games.  ``ter``: ``hex_terrain`` (int16), ``hs``: ``hex_ship``
flattened (int16), ``nb``: neighbour table (int16, 6 per hex, -1 padded).
"""

import cython


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cfunc
def _reach(ter: cython.short[:], hs: cython.short[:], nb: cython.short[:], nh: cython.int, ba: cython.int,
           asteroid: cython.int, p: cython.int, start: cython.int, rmax: cython.int, existing: cython.bint,
           out: list, code: cython.int) -> cython.void:
    dist = cython.declare(cython.int[64])
    frontier = cython.declare(cython.int[64])
    nxt = cython.declare(cython.int[64])
    nf: cython.int
    nn: cython.int
    d: cython.int
    i: cython.int
    k: cython.int
    h: cython.int
    g: cython.int
    a: cython.int
    b: cython.int
    cnt: cython.int
    own: cython.int
    ok: cython.bint
    for i in range(nh):
        dist[i] = -1
    dist[start] = 0
    frontier[0] = start
    nf = 1
    d = 0
    while nf > 0 and d < rmax:
        d += 1
        nn = 0
        for i in range(nf):
            h = frontier[i]
            for k in range(6):
                g = nb[6 * h + k]
                if g >= 0 and dist[g] < 0 and (ter[g] != asteroid or g == ba):
                    dist[g] = d
                    nxt[nn] = g
                    nn += 1
        for i in range(nn):
            frontier[i] = nxt[i]
        nf = nn
    for h in range(nh):
        if dist[h] < 0:
            continue
        if h == start:
            ok = False
            if rmax >= 2:
                for k in range(6):
                    g = nb[6 * h + k]
                    if g >= 0 and (ter[g] != asteroid or g == ba):
                        ok = True
        else:
            ok = dist[h] >= 1
        if ok:
            a = hs[2 * h]
            b = hs[2 * h + 1]
            cnt = (a >= 0) + (b >= 0)
            own = (a == p) + (b == p)
            if existing and h == start:
                cnt -= 1
                own -= 1
            if cnt < 2 and own == 0:
                out.append(code * 256 + h)


def command_moves(ter: cython.short[:], hs: cython.short[:], nb: cython.short[:], ba: cython.int,
                  asteroid: cython.int, p: cython.int, ev: cython.int) -> list:
    out: list = []
    nh: cython.int = len(ter)
    h: cython.int
    for h in range(nh):
        if hs[2 * h] == p or hs[2 * h + 1] == p:
            _reach(ter, hs, nb, nh, ba, asteroid, p, h, ev, True, out, h)
    _reach(ter, hs, nb, nh, ba, asteroid, p, ba, ev, False, out, 255)
    return out
