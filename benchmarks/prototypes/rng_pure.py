"""Kernel K2 in Cython pure-Python mode: one source for both paths.  Compiled, it draws through numpy's
``bitgen_t`` and C distributions (declared in rng_pure.pxd); interpreted, through the ``Generator`` methods that
those C functions implement.  ``compare.py`` checks that both paths give the same draws and generator state.

* ``roll(rng, faces)``: ``faces[int(rng.random() * len(faces))]`` (the engine's ``_roll``);
* ``shuffled(rng, items)``: ``Generator.shuffle`` on a copy of the list (the engine's ``_shuffled``).
"""

import cython


def roll(rng, faces: list) -> int:
    if cython.compiled:
        bg: cython.pointer[bitgen_t] = cython.cast(cython.pointer[bitgen_t],  # noqa: F821 - from the .pxd
                                                   PyCapsule_GetPointer(rng.bit_generator.capsule,  # noqa: F821
                                                                        "BitGenerator"))
        return faces[cython.cast(cython.Py_ssize_t, random_standard_uniform(bg) * len(faces))]  # noqa: F821
    else:
        return faces[int(rng.random() * len(faces))]


def shuffled(rng, items: list) -> list:
    out = list(items)
    n: cython.Py_ssize_t = len(out)
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    if n < 2:
        return out
    if cython.compiled:
        bg: cython.pointer[bitgen_t] = cython.cast(cython.pointer[bitgen_t],  # noqa: F821
                                                   PyCapsule_GetPointer(rng.bit_generator.capsule,  # noqa: F821
                                                                        "BitGenerator"))
        for i in range(n - 1, 0, -1):
            j = cython.cast(cython.Py_ssize_t, random_interval(bg, i))  # noqa: F821
            out[i], out[j] = out[j], out[i]
    else:
        rng.shuffle(out)
    return out
