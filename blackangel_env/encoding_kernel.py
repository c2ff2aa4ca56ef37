"""The observation plan of ``blackangel_env.encoding`` run in C: one seat's observation from the state buffer.

``Program(plan)`` holds the index arrays of one ``encoding._Plan`` (one components set, player count and observer)
as typed memoryviews, with its own integer scratch vector.  ``Program.fill(buf, out)`` writes the observation of
the state buffer ``buf`` (int16) into ``out`` (float32, every position written): the same float32 values as the
vectorised numpy path of ``encoding.encode_observation``, in the same order:

1. the scratch vector: the buffer, the final-round flag, the derived values (``ext[dst] = ext[base + ext[src] *
   mult]`` where ``ext[src] >= vmin``, else ``ext[default]``) and the counts (one per location key);
2. the categorical entries: each value clipped to its table's range, a 1 at the table's position;
3. the plain quantities: each value as float32 times its float32 scale, clipped to ``[0, high]``; they are written
   last (the table cell of a value that lands nowhere is a plain-quantity position, overwritten here).

A derived value that reads past the scratch vector raises ``IndexError`` and a count key outside the counts raises
``ValueError`` (what the numpy path raises), so a corrupted buffer never reads or writes outside the arrays.

The module is compiled by Cython with C types (``blackangel_env._compiled.TYPED_MODULES``).  Interpreted, the same
source runs as Python loops over numpy arrays, far slower than the vectorised path: ``encoding`` then keeps its
numpy path (``COMPILED`` says which), and the tests compare this source, compiled and interpreted, with it.
"""

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from . import _cython_shim as cython

import numpy as np

COMPILED = cython.compiled
"""True when this module is the compiled extension (``encoding`` then fills observations through it)."""


def _ints(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.intp)


@cython.cclass
class Program:
    """The index arrays of one observation plan (``encoding._Plan``) and a scratch vector (module docstring)."""

    size: cython.Py_ssize_t             # scratch vector: buffer, derived values, counts, constants 0, 1, -1
    n_buf: cython.Py_ssize_t            # state buffer length
    n_out: cython.Py_ssize_t            # observation length
    final_round: cython.Py_ssize_t
    reg_end: cython.Py_ssize_t          # the registers of the final-round flag
    reg_round: cython.Py_ssize_t
    reg_trigger: cython.Py_ssize_t
    d_src: cython.Py_ssize_t[::1]
    d_vmin: cython.Py_ssize_t[::1]
    d_base: cython.Py_ssize_t[::1]
    d_mult: cython.Py_ssize_t[::1]
    d_default: cython.Py_ssize_t[::1]
    d_dst: cython.Py_ssize_t[::1]
    cnt_src: cython.Py_ssize_t[::1]
    cnt_key: cython.Py_ssize_t[::1]     # the count position of location 0 of each counted cell, from cnt_lo
    cnt_lo: cython.Py_ssize_t
    cnt_n: cython.Py_ssize_t
    cat_src: cython.Py_ssize_t[::1]
    cat_lo: cython.Py_ssize_t[::1]
    cat_up: cython.Py_ssize_t[::1]
    cat_shift: cython.Py_ssize_t[::1]
    cat_abs: cython.Py_ssize_t[::1]
    sc_src: cython.Py_ssize_t[::1]
    sc_dst: cython.Py_ssize_t[::1]
    sc_scale: cython.float[::1]
    sc_high: cython.float[::1]
    ext: cython.Py_ssize_t[::1]         # the scratch vector (the memoryview keeps its array alive)

    def __init__(self, plan, final_regs):
        """``plan``: an ``encoding._Plan``; ``final_regs``: the buffer positions of the registers (end triggered,
        round, trigger round) of the final-round flag."""
        D = plan.derived
        self.size = int(D.size)
        self.n_buf = int(D.B)
        self.n_out = int(plan.N)
        self.final_round = int(D.final_round)
        self.reg_end = int(final_regs[0])
        self.reg_round = int(final_regs[1])
        self.reg_trigger = int(final_regs[2])
        self.d_src = _ints(D.src)
        self.d_vmin = _ints(D.vmin)
        self.d_base = _ints(D.base)
        self.d_mult = _ints(D.mult)
        self.d_default = _ints(D.default)
        self.d_dst = _ints(D.dst)
        self.cnt_src = _ints(D.cnt_src)
        self.cnt_key = _ints(D.cnt_off_rel)
        self.cnt_lo = int(D.cnt_lo)
        self.cnt_n = int(D.cnt_hi - D.cnt_lo)
        self.cat_src = _ints(plan.cat_src)
        self.cat_lo = _ints(plan.cat_lo)
        self.cat_up = _ints(plan.cat_up)
        self.cat_shift = _ints(plan.cat_shift)
        self.cat_abs = _ints(plan.cat_abs)
        self.sc_src = _ints(plan.sc_src)
        self.sc_dst = _ints(plan.sc_dst)
        self.sc_scale = np.ascontiguousarray(plan.sc_scale, dtype=np.float32)
        self.sc_high = np.ascontiguousarray(plan.sc_high, dtype=np.float32)
        self.ext = D.new_ext()

    def fill(self, buf: cython.const[cython.short][::1], out: cython.float[::1]) -> None:
        """Write the observation of the state buffer ``buf`` into ``out`` (module docstring)."""
        if buf.shape[0] != self.n_buf:
            raise ValueError(f"state buffer of length {buf.shape[0]}, the plan expects {self.n_buf}")
        if out.shape[0] != self.n_out:
            raise ValueError(f"observation array of length {out.shape[0]}, the plan writes {self.n_out}")
        self._fill(buf, out)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def fill_rows(self, bufs: cython.const[cython.short][:, ::1], out: cython.float[:, ::1]) -> None:
        """``fill(bufs[r], out[r])`` for every row ``r`` of the state buffers ``bufs`` (rows, buffer length) into
        ``out`` (rows, observation length): a batch of games in one call."""
        if bufs.shape[1] != self.n_buf:
            raise ValueError(f"state buffers of length {bufs.shape[1]}, the plan expects {self.n_buf}")
        if out.shape[1] != self.n_out:
            raise ValueError(f"observation arrays of length {out.shape[1]}, the plan writes {self.n_out}")
        if out.shape[0] != bufs.shape[0]:
            raise ValueError(f"{bufs.shape[0]} state buffers but {out.shape[0]} observation rows")
        r: cython.Py_ssize_t
        for r in range(bufs.shape[0]):
            self._fill(bufs[r], out[r])

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _fill(self, buf: cython.const[cython.short][::1], out: cython.float[::1]) -> None:
        """``fill`` of a buffer and an observation array of the plan's lengths."""
        # the arrays as local memoryviews: the C compiler keeps their data pointers in registers
        ext: cython.Py_ssize_t[::1] = self.ext
        d_src: cython.Py_ssize_t[::1] = self.d_src
        d_vmin: cython.Py_ssize_t[::1] = self.d_vmin
        d_base: cython.Py_ssize_t[::1] = self.d_base
        d_mult: cython.Py_ssize_t[::1] = self.d_mult
        d_default: cython.Py_ssize_t[::1] = self.d_default
        d_dst: cython.Py_ssize_t[::1] = self.d_dst
        cnt_src: cython.Py_ssize_t[::1] = self.cnt_src
        cnt_key: cython.Py_ssize_t[::1] = self.cnt_key
        cat_src: cython.Py_ssize_t[::1] = self.cat_src
        cat_lo: cython.Py_ssize_t[::1] = self.cat_lo
        cat_up: cython.Py_ssize_t[::1] = self.cat_up
        cat_shift: cython.Py_ssize_t[::1] = self.cat_shift
        cat_abs: cython.Py_ssize_t[::1] = self.cat_abs
        sc_src: cython.Py_ssize_t[::1] = self.sc_src
        sc_dst: cython.Py_ssize_t[::1] = self.sc_dst
        sc_scale: cython.float[::1] = self.sc_scale
        sc_high: cython.float[::1] = self.sc_high
        size: cython.Py_ssize_t = self.size
        cnt_lo: cython.Py_ssize_t = self.cnt_lo
        cnt_n: cython.Py_ssize_t = self.cnt_n
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        v: cython.Py_ssize_t
        x: cython.Py_ssize_t
        f: cython.float
        hi: cython.float
        for i in range(self.n_buf):
            ext[i] = buf[i]
        if ext[self.reg_end] != 0 and ext[self.reg_round] == ext[self.reg_trigger] + 1:
            ext[self.final_round] = 1
        else:
            ext[self.final_round] = 0
        # derived values: their sources and the cells they read lie in the buffer part, written above
        for j in range(d_src.shape[0]):
            v = ext[d_src[j]]
            if v >= d_vmin[j]:
                x = d_base[j] + v * d_mult[j]
                if x >= size:
                    raise IndexError(f"derived value {j} reads position {x} of a scratch vector of {size}")
            else:
                x = d_default[j]
            ext[d_dst[j]] = ext[x]
        for i in range(cnt_lo, cnt_lo + cnt_n):
            ext[i] = 0
        for j in range(cnt_src.shape[0]):
            x = ext[cnt_src[j]] + cnt_key[j]
            if x < 0 or x >= cnt_n:
                raise ValueError(f"counted cell {cnt_src[j]} holds {ext[cnt_src[j]]}, outside its counts")
            ext[cnt_lo + x] += 1
        for i in range(out.shape[0]):
            out[i] = 0.0
        for j in range(cat_src.shape[0]):
            v = ext[cat_src[j]]
            if v < cat_lo[j]:
                v = cat_lo[j]
            elif v > cat_up[j]:
                v = cat_up[j]
            out[cat_abs[v + cat_shift[j]]] = 1.0
        for j in range(sc_src.shape[0]):
            f = cython.cast(cython.float, ext[sc_src[j]])
            f = f * sc_scale[j]
            hi = sc_high[j]
            if f < 0.0:
                f = 0.0
            if f > hi:
                f = hi
            out[sc_dst[j]] = f
