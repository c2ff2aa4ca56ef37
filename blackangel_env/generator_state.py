"""Snapshots of a PCG64 generator's state as raw bytes: what ``State.copy`` takes instead of the state dict.

``bit_generator.state`` builds a dict of Python integers, the larger part of a state copy's cost; a copy only needs
the bytes, and most copies (a search's play-outs from one root) are copied again or dropped without ever drawing
(docs/engine_core.md, section 8).  numpy gives the address of each bit generator's C state
(``bit_generator.ctypes.state_address``, documented in "Extending numpy.random"); for PCG64 that is a struct whose
first member points to the 128-bit ``state`` and ``inc``, followed by ``has_uint32`` and ``uinteger`` (numpy's
``random/src/pcg64/pcg64.h``).  ``reader(generator)`` maps those 40 bytes once (ctypes arrays over the generator's
memory, kept with a reference to the generator so that the memory stays alive); ``read(reader)`` then copies them
(a fraction of a microsecond), ``restore`` writes a snapshot into a fresh PCG64, ``overwrite`` into the generator
of a reader, and ``as_dict`` gives the very dict ``bit_generator.state`` would have given
(``engine.kernels.pcg64_seeded_snapshot`` makes a snapshot of the state PCG64's own seeding reaches).

The layout is numpy's, not a public API: at import, ``AVAILABLE`` is set only after round trips through both
paths agree (the dicts equal, the restored generators drawing the same numbers) on generators in several states;
otherwise, and for any bit generator other than PCG64, callers use the state dict (``reader`` returns None).
"""

from __future__ import annotations

import ctypes
import sys

import numpy as np

__all__ = ["AVAILABLE", "Reader", "Snapshot", "reader", "read", "restore", "as_dict", "overwrite"]

Snapshot = tuple  # (32 bytes: state, inc as little-endian 128-bit integers; 8 bytes: has_uint32, uinteger)
Reader = tuple    # (the Generator, a ctypes array over its 32 state bytes, one over its 8 other bytes)

_SEED_SEQUENCE = np.random.SeedSequence(0)       # only to construct bit generators whose state is then set
_PCG64 = np.random.PCG64
_from_address = ctypes.c_void_p.from_address
_memmove = ctypes.memmove
AVAILABLE = False


def _addresses(bitgen) -> tuple[int, int]:
    """(address of the 128-bit state and inc, address of the pcg64_state struct)."""
    addr = bitgen.ctypes.state_address
    return _from_address(addr).value, addr


def reader(generator: np.random.Generator) -> Reader | None:
    """A reader of the generator's raw state, or None when raw snapshots are unavailable or its bit generator is
    not a PCG64."""
    bitgen = generator.bit_generator
    if not AVAILABLE or type(bitgen) is not _PCG64:
        return None
    ptr, addr = _addresses(bitgen)
    return generator, (ctypes.c_char * 32).from_address(ptr), (ctypes.c_char * 8).from_address(addr + 8)


def read(r: Reader) -> Snapshot:
    """The generator's state now, as a snapshot."""
    return r[1].raw, r[2].raw


def restore(snap: Snapshot) -> np.random.Generator:
    """A new Generator on a PCG64 in the snapshot's state (through the state dict where raw snapshots are
    unavailable: a snapshot pickled in another process)."""
    bitgen = _PCG64(_SEED_SEQUENCE)
    if AVAILABLE:
        ptr, addr = _addresses(bitgen)
        _memmove(ptr, snap[0], 32)
        _memmove(addr + 8, snap[1], 8)
    else:
        bitgen.state = as_dict(snap)
    return np.random.Generator(bitgen)


def overwrite(r: Reader, snap: Snapshot) -> None:
    """Put the reader's generator in the snapshot's state (in place: the Generator object stays the same)."""
    r[1].raw = snap[0]
    r[2].raw = snap[1]


def as_dict(snap: Snapshot) -> dict:
    """The snapshot as ``bit_generator.state`` gives it."""
    s, tail = snap
    return {"bit_generator": "PCG64",
            "state": {"state": int.from_bytes(s[:16], "little"), "inc": int.from_bytes(s[16:], "little")},
            "has_uint32": int.from_bytes(tail[:4], "little", signed=True),
            "uinteger": int.from_bytes(tail[4:], "little")}


def _check() -> bool:
    if sys.byteorder != "little" or ctypes.sizeof(ctypes.c_void_p) != 8:
        return False
    global AVAILABLE
    AVAILABLE = True
    try:
        for seed in (0, 1, 2026, 2**63 + 12345):
            g = np.random.default_rng(seed)
            for step in range(3):
                snap = read(reader(g))
                if as_dict(snap) != g.bit_generator.state:
                    return False
                h = restore(snap)
                if h.bit_generator.state != g.bit_generator.state:
                    return False
                if h.integers(0, 2**32, size=3, dtype=np.uint32).tolist() != \
                        g.integers(0, 2**32, size=3, dtype=np.uint32).tolist():
                    return False
                g.random(step + 1)
        return True
    except Exception:                      # noqa: BLE001 - any surprise: the dict path is used instead
        return False
    finally:
        AVAILABLE = False


AVAILABLE = _check()
