"""The phase table and the public entry points ``legal_actions``, ``legal_mask``, ``apply``.

Each phase (``state.PH_*``) has a function listing its legal actions and one applying an action; the rule
modules enter theirs with ``register`` when the package is imported (``engine/__init__.py`` imports them all
and checks that every phase has both).  A phase can also register how it resumes once a sub-step it started
has finished (``_RESUME``): a tile's effect returns to A1 or to Repair, a kept Mission card to the tile that
drew it, without this module or the sub-step importing the modules above them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from .. import actions as A
from .. import state as _state_module
from ..state import PHASE_NAMES, State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        M_DECISIONS, M_GAME_OVER, M_PHASE, PH_GAME_OVER,
    )

from .core import IllegalActionError, not_a_state, seat_name
from .kernels import mask_rows


_LEGAL: list = [None] * len(PHASE_NAMES)      # phase -> legal(s) -> list of action ids
_APPLY: list = [None] * len(PHASE_NAMES)      # phase -> do(s, action)
_RESUME: list = [None] * len(PHASE_NAMES)     # phase -> resume(s), once a sub-step returning to it is done
_FILTER: list = [None] * len(PHASE_NAMES)     # phase -> filter(s, legal) -> the legal actions kept (the A1 guard)


def register(phase: int, *, legal=None, do=None, resume=None, filter=None) -> None:
    """Enter a phase's functions in the table (each rule module does it for its phases, at import).  ``filter``
    narrows the phase's legal actions where a rule above the phase's own module says so (the A1 guard, R-A2)."""
    for table, f in ((_LEGAL, legal), (_APPLY, do), (_RESUME, resume), (_FILTER, filter)):
        if f is not None:
            if table[phase] is not None and table[phase] is not f:
                raise RuntimeError(f"phase {PHASE_NAMES[phase]} registered twice")
            table[phase] = f


def check_complete() -> None:
    """Every phase lists its legal actions and every phase but the end applies actions."""
    missing = [PHASE_NAMES[i] for i in range(len(PHASE_NAMES))
               if _LEGAL[i] is None or (_APPLY[i] is None and i != PH_GAME_OVER)]
    if missing:
        raise RuntimeError(f"phases without their functions: {missing}")


def legal_actions(s: State) -> list[int]:
    """The sorted list of legal action ids for the seat to act (empty when the game is over): a fresh list,
    which the caller may change without changing the engine's answers."""
    if not isinstance(s, State):
        raise not_a_state("legal_actions", s)
    return list(_legal_list(s))


@cython.ccall
def _legal_list(s: State) -> list[int]:
    """``legal_actions`` without the copy: the list kept for this position, which callers must not change."""
    m = cython.declare(Registers, registers(s))
    c = m._legal_cache
    if c is not None and _holds(s.mv, c[0]):
        return c[1]
    out = _compute_legal(s)
    m._legal_cache = (s.mv.tobytes(), out)
    return out


@cython.ccall
def _holds(m, key: bytes) -> bool:
    """The buffer (its memoryview ``m``) holds the bytes ``key``: compiled, compared in place (``memcmp``)."""
    if not cython.compiled:
        return m.tobytes() == key
    view = cython.declare(Py_buffer)  # noqa: F821 - Cython's buffer struct (phases.pxd)
    n: cython.Py_ssize_t = len(key)
    PyObject_GetBuffer(m, cython.address(view), PyBUF_SIMPLE)  # noqa: F821
    same: cython.bint = view.len == n and memcmp(view.buf, cython.cast(cython.p_char, key), n) == 0  # noqa: F821
    PyBuffer_Release(cython.address(view))  # noqa: F821
    return same



_MASKS: dict[tuple[int, ...], np.ndarray] = {}


def legal_mask(s: State) -> np.ndarray:
    """The legal actions as an int8 mask (a new array).  The masks of the legal sets met are kept (the same
    sets come back all the time: the turn choice, a lone DONE, ...): a copy costs less than building one."""
    if not isinstance(s, State):
        raise not_a_state("legal_mask", s)
    legal = _legal_list(s)
    key = tuple(legal)
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        mask.put(legal, 1)                 # put: half the cost of indexing with a list
        if len(_MASKS) < 2048:
            _MASKS[key] = mask
    return mask.copy()


def legal_masks(states, out: np.ndarray | None = None) -> np.ndarray:
    """The legal-action masks of several states as the rows of one array: row i is ``legal_mask(states[i])``.
    ``states``: a sequence of States (an empty one gives no rows).  Returns a new int8 array (len(states),
    NUM_ACTIONS), or writes the rows into ``out`` (that shape, int8 or bool, C-contiguous and writeable; a batch of
    a vector environment) and returns it.  Anything else raises TypeError or ValueError before any row is
    written."""
    if isinstance(states, State) or isinstance(states, (str, bytes)) or not isinstance(states, Sequence):
        raise TypeError(f"legal_masks: states must be a sequence of States, not {type(states).__name__}")
    for i, s in enumerate(states):
        if not isinstance(s, State):
            raise not_a_state(f"legal_masks: states[{i}]", s)
    shape = (len(states), A.NUM_ACTIONS)
    if out is None:
        out = np.empty(shape, dtype=np.int8)
    elif not isinstance(out, np.ndarray):
        raise TypeError(f"legal_masks: out must be a numpy array, not {type(out).__name__}")
    elif out.shape != shape or out.dtype not in (np.int8, np.bool_) or not out.flags.c_contiguous \
            or not out.flags.writeable:
        raise ValueError(f"legal_masks: out must be a writeable C-contiguous int8 or bool array of shape {shape}, "
                         f"got {out.dtype} {out.shape}"
                         + ("" if out.flags.c_contiguous else ", not C-contiguous")
                         + ("" if out.flags.writeable else ", read-only"))
    mask_rows([_legal_list(s) for s in states], out.view(np.int8))
    return out


def apply(s: State, action: int) -> None:
    """Apply a legal action; an illegal one raises IllegalActionError and changes nothing."""
    if not isinstance(s, State):
        raise not_a_state("apply", s)
    m = cython.declare(Registers, registers(s))
    if m.r[M_GAME_OVER]:
        raise IllegalActionError(f"the game is over; action {action} cannot be applied")
    if type(action) is not int:            # a plain int (the usual case) needs neither check nor conversion
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"an action must be an integer id, got {action!r}")
        action = int(action)
    legal = _legal_list(s)
    if action not in legal:
        what = A.action_to_string(action) if 0 <= action < A.NUM_ACTIONS else "out of range"
        shown = ", ".join(A.action_to_string(a) for a in legal[:8]) + (" ..." if len(legal) > 8 else "")
        raise IllegalActionError(
            f"action {action} ({what}) is not legal for {seat_name(s, s.actor)} in phase "
            f"{PHASE_NAMES[s.phase]}; legal: {shown}")
    if m.log is not None:
        m.log.append(f"[{seat_name(s, s.actor)}] {A.action_to_string(action)}")
    _dispatch(s, action)
    v = m.r[M_DECISIONS]
    if v < 32767:
        m.r[M_DECISIONS] = v + 1
    else:                             # at int16's bound, numpy's in-place add (it wraps, with a warning)
        s.m[M_DECISIONS] += 1


def apply_unchecked(s: State, action: int) -> None:
    """Apply an action known to be legal (e.g. taken from ``legal_actions``) without re-checking its legality.
    Still checked, before anything changes: a non-State raises TypeError, an action that is not an integer id
    0..NUM_ACTIONS-1 raises IllegalActionError (as ``apply``)."""
    if not isinstance(s, State):
        raise not_a_state("apply_unchecked", s)
    if type(action) is not int:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"an action must be an integer id, got {action!r}")
        action = int(action)
    if not 0 <= action < A.NUM_ACTIONS:
        raise IllegalActionError(f"action {action} is outside the action ids 0-{A.NUM_ACTIONS - 1}")
    _apply_unchecked(s, action)


@cython.ccall
def _apply_unchecked(s: State, action: int) -> None:
    m = cython.declare(Registers, registers(s))
    if m.log is not None:
        m.log.append(f"[{seat_name(s, s.actor)}] {A.action_to_string(action)}")
    _dispatch(s, action)
    v = m.r[M_DECISIONS]
    if v < 32767:
        m.r[M_DECISIONS] = v + 1
    else:                             # at int16's bound, numpy's in-place add (it wraps, with a warning)
        s.m[M_DECISIONS] += 1


@cython.locals(k=cython.Py_ssize_t, j=cython.Py_ssize_t, n=cython.Py_ssize_t, limit=cython.Py_ssize_t,
               batch=cython.Py_ssize_t, u=cython.double)
def play_uniform(s: State, rng, limit: int, batch: int) -> int:
    """Play ``s`` to the end (``engine.rollouts``' random policy), each decision uniform over the legal actions:
    the k-th of the n legal actions (``_compute_legal``, sorted) with k = int(u * n), u the generator ``rng``'s
    next number, drawn ``batch`` at a time (``rng.random(batch)``: the same stream as one by one).  Returns the
    decisions taken, or -1 when the game is still going after ``limit`` of them.  Here, beside the phase table,
    so that each decision's legal actions and move are C calls."""
    m = cython.declare(Registers, registers(s))
    if batch < 1:
        raise ValueError(f"play_uniform: batch must be >= 1, got {batch}")
    draws: list = []
    j = 0
    k = 0
    while not m.r[M_GAME_OVER]:
        if k >= limit:
            return -1
        if j == len(draws):
            draws = rng.random(batch).tolist()
            j = 0
        legal = _compute_legal(s)
        n = len(legal)
        u = draws[j]
        _apply_unchecked(s, legal[cython.cast(cython.Py_ssize_t, u * n)])
        j += 1
        k += 1
    return k


@cython.ccall
def _dispatch(s: State, action: int) -> None:
    m = cython.declare(Registers, registers(s))
    m._legal_cache = None
    _APPLY[m.r[M_PHASE]](s, action)


def _legal_game_over(s: State) -> list[int]:
    return []


register(PH_GAME_OVER, legal=_legal_game_over)


@cython.ccall
def _compute_legal(s: State) -> list[int]:
    """The sorted legal actions of the position, computed afresh and not kept (``rollouts``, which never asks
    twice in the same position, saves the key of ``_legal_list``'s cache)."""
    m = cython.declare(Registers, registers(s))
    if m.r[M_GAME_OVER]:
        return []
    ph = m.r[M_PHASE]
    out: list = _LEGAL[ph](s)
    f = _FILTER[ph]
    if f is not None:
        out = f(s, out)
    out.sort()
    return out


def _dead_end(s: State) -> str | None:
    """Why the live position ``s`` cannot go on: no legal action in it, or none after one of its legal moves
    (registers that contradict the rest of the position, seen one step later); None when neither.  Every
    position of a game played by the engine passes; ``State.from_dict`` refuses a saved one that does not."""
    legal = _legal_list(s)
    if not legal:
        return f"no legal action in phase {PHASE_NAMES[s.phase]}"
    for a in legal:
        t = s.copy()
        _dispatch(t, a)
        if not t.mv[M_GAME_OVER] and not _compute_legal(t):
            return (f"after {A.action_to_string(a)} (legal in phase {PHASE_NAMES[s.phase]}) no action is legal in "
                    f"phase {PHASE_NAMES[t.phase]}")
    return None


_state_module.use_position_check(_dead_end)       # State.from_dict refuses a position that cannot go on
