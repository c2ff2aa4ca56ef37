# cython: boundscheck=False, wraparound=False, language_level=3
"""Kernel K2: the engine's chance path driven from compiled code through numpy's ``bitgen_t`` and its C
distributions (libnpyrandom), on the very generator object the state owns (its PCG64 capsule).

* ``doubles(rng, n)``: ``n`` x ``random_standard_uniform`` = ``rng.random()`` one at a time (``_roll``).
* ``shuffled(rng, items)``: Fisher-Yates with ``random_interval``, the pass ``Generator.shuffle`` makes on a list
  (``_shuffled``).
* ``integers(rng, n, count)``: ``count`` x ``rng.integers(n)`` (Lemire's bounded method,
  ``random_bounded_uint64_fill`` with ``use_masked=False``).
* ``roll_dice(rng, die_owner, die_damaged, die_reserved, die_value, faces, wanted)``: the engine's
  ``_roll_dice(s, wanted, penalise=False)`` on the die arrays of the state buffer.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdint cimport uint64_t
from numpy.random cimport bitgen_t
from numpy.random.c_distributions cimport random_interval, random_standard_uniform


cdef extern from "numpy/random/distributions.h":
    void random_bounded_uint64_fill(bitgen_t *bitgen_state, uint64_t off, uint64_t rng, Py_ssize_t cnt,
                                    bint use_masked, uint64_t *out) nogil


cdef bitgen_t *_bitgen(object rng) except NULL:
    capsule = rng.bit_generator.capsule
    if not PyCapsule_IsValid(capsule, "BitGenerator"):
        raise ValueError("not a numpy BitGenerator capsule")
    return <bitgen_t *> PyCapsule_GetPointer(capsule, "BitGenerator")


def doubles(rng, Py_ssize_t n):
    cdef bitgen_t *bg = _bitgen(rng)
    cdef Py_ssize_t i
    return [random_standard_uniform(bg) for i in range(n)]


def shuffled(rng, list items):
    cdef bitgen_t *bg = _bitgen(rng)
    cdef list out = list(items)
    cdef Py_ssize_t i, j
    for i in reversed(range(1, len(out))):
        j = <Py_ssize_t> random_interval(bg, <uint64_t> i)
        out[i], out[j] = out[j], out[i]
    return out


def integers(rng, uint64_t n, Py_ssize_t count):
    cdef bitgen_t *bg = _bitgen(rng)
    cdef uint64_t v
    cdef Py_ssize_t i
    out = []
    for i in range(count):
        random_bounded_uint64_fill(bg, 0, n - 1, 1, False, &v)
        out.append(v)
    return out


def roll_dice(rng, short[:] die_owner, short[:] die_damaged, short[:] die_reserved, short[:] die_value,
              const short[:] faces, list wanted):
    """``wanted``: (seat, colour, count) triples.  Returns the dice taken, in order."""
    cdef bitgen_t *bg = _bitgen(rng)
    cdef int seat, c, k, i, d, n_faces = faces.shape[0], n_taken = 0, j
    cdef int taken[64]
    for seat, c, k in wanted:
        for _ in range(k):
            d = -1
            for i in range(6 * c, 6 * c + 6):
                if die_owner[i] == -1:
                    if not die_damaged[i]:
                        d = i
                        break
                    if d < 0:
                        d = i
            if d < 0:
                break
            die_damaged[d] = 0
            die_owner[d] = seat
            die_reserved[d] = 0
            taken[n_taken] = d
            n_taken += 1
    for j in range(n_taken):
        die_value[taken[j]] = faces[<int> (random_standard_uniform(bg) * n_faces)]
    return [taken[j] for j in range(n_taken)]
