# cython: boundscheck=False, wraparound=False, language_level=3
"""Kernel K1 as a .pyx with typed memoryviews over the state arrays; the contract is moves_pure.py's."""


cdef void _reach(const short[:] ter, const short[:] hs, const short[:] nb, int nh, int ba, int asteroid, int p,
                 int start, int rmax, bint existing, list out, int code):
    cdef int dist[64]
    cdef int frontier[64]
    cdef int nxt[64]
    cdef int nf = 1, nn, d = 0, i, k, h, g, a, b, cnt, own
    cdef bint ok
    for i in range(nh):
        dist[i] = -1
    dist[start] = 0
    frontier[0] = start
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


def command_moves(const short[:] ter, const short[:] hs, const short[:] nb, int ba, int asteroid, int p, int ev):
    cdef list out = []
    cdef int nh = ter.shape[0], h
    for h in range(nh):
        if hs[2 * h] == p or hs[2 * h + 1] == p:
            _reach(ter, hs, nb, nh, ba, asteroid, p, h, ev, True, out, h)
    _reach(ter, hs, nb, nh, ba, asteroid, p, ba, ev, False, out, 255)
    return out
