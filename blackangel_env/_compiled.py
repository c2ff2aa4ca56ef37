"""Which modules of the package are compiled, and the import hook that picks the compiled or the interpreted one.

The build (``setup.py``, run by ``pip install``) compiles the modules of ``COMPILED_MODULES`` with Cython; each
is one pure-Python-mode source that also runs interpreted.  At import, a finder that the package installs first
(``install()``, called by ``blackangel_env/__init__.py``) chooses, for each of these modules:

* the ``.py`` source when ``BLACKANGEL_INTERPRETED=1`` (debugging, and the equivalence test of
  ``tests/test_compiled_equivalence.py``);
* the ``.py`` source, with a warning, when the extension beside it was built from another version of the source
  (a stale ``.so`` after an edit in an editable install): the build records the SHA-256 of the source in the
  extension, and the finder compares it with the ``.py`` without loading the extension;
* the ``.py`` source when the module's extension reads the compiled ``State``'s C fields (its ``.pxd`` cimports
  the state's declarations) and the state's own module runs interpreted (its extension stale or not built);
* the extension otherwise, or the ``.py`` when none was built (no compiler, ``BLACKANGEL_NO_COMPILE=1``).

``status()`` says what was chosen for each module and why; ``compiled()`` lists the compiled ones
(``python -c "from blackangel_env import _compiled; print(_compiled.status())"``).  This module imports only the
standard library, so ``setup.py`` reads ``COMPILED_MODULES`` and ``source_sha256`` from it without the package's dependencies.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings

# The modules the build compiles (dotted names): the state, the action table, every module of the rules engine
# package but its __init__, the invariant checker, the observation encoder's plan runner and the agents' position
# value.  Each is its .py, compiled as it
# is (pure-Python mode), with a .pxd beside it where it declares C types.
COMPILED_MODULES = ("blackangel_env.state", "blackangel_env.actions", "blackangel_env.invariants",
                    "blackangel_env.agents.value", "blackangel_env.encoding_kernel") + tuple(
    f"blackangel_env.engine.{m}" for m in (
    "a3", "activation", "black_angel", "board_actions", "command", "core", "decks", "destroy", "dice",
    "die_uses", "discover", "end", "guard", "hal", "kernels", "missions", "phases", "playout", "predicates",
    "ravagers",
    "repair", "rounds", "sequence_a", "sequence_b", "setup", "ship_moves", "space", "tiles", "turn",
    "visibility",
))

# The compiled modules whose annotations declare C types (``cython.int``, memoryviews).  The build compiles the
# others with Cython's ``annotation_typing`` off: their annotations are Python hints, and read as C types an
# ``action: int`` argument would refuse a numpy integer that the interpreted function accepts.
TYPED_MODULES = ("blackangel_env.engine.ship_moves", "blackangel_env.engine.predicates",
                 "blackangel_env.engine.kernels", "blackangel_env.invariants",
                 "blackangel_env.agents.value", "blackangel_env.encoding_kernel")

MARKER = b"blackangel-source-sha256:"

_ROOT = os.path.dirname(os.path.abspath(__file__))
_reasons: dict[str, str] = {}


def source_path(name: str, root: str = _ROOT) -> str:
    """The ``.py`` file of a module of ``COMPILED_MODULES`` in the package folder ``root``."""
    if name not in COMPILED_MODULES:
        raise ValueError(f"{name!r} is not one of the compiled modules {COMPILED_MODULES}")
    return os.path.join(root, *name.split(".")[1:]) + ".py"


def source_sha256(path: str) -> str:
    """The SHA-256 (hex) of a source file's bytes: what the build records in the extension."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def recorded_sha256(ext_path: str) -> str | None:
    """The source SHA-256 recorded in a built extension (its marker string), or None if it has none."""
    with open(ext_path, "rb") as f:
        data = f.read()
    i = data.find(MARKER)
    if i < 0:
        return None
    j = data.find(b";", i)
    return data[i + len(MARKER):j].decode("ascii", "replace") if j > 0 else None


def _interpreted_requested() -> bool:
    v = os.environ.get("BLACKANGEL_INTERPRETED", "")
    if v not in ("", "0", "1"):
        raise ValueError(f"BLACKANGEL_INTERPRETED must be 0 or 1 (or unset), not {v!r}")
    return v == "1"


def _extension_beside(src: str) -> str | None:
    base = src[:-3]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.isfile(base + suffix):
            return base + suffix
    return None


# The state's module: an extension whose .pxd cimports it (``Registers``, through ``_registers.pxd``) reads the
# fields of the compiled ``State`` in C, and one that cimports the state's constants (``_state_constants.pxd``)
# was built against the state's layout, so either runs compiled only where the state's module does too (an edited
# state.py runs interpreted until the next build, which builds them all again).
STATE_MODULE = "blackangel_env.state"


def _needs_compiled_state(src: str) -> bool:
    """Whether the module of the source ``src`` cimports the state's C declarations or constants (its .pxd says
    so)."""
    pxd = src[:-3] + ".pxd"
    if not os.path.isfile(pxd):
        return False
    with open(pxd, encoding="utf-8") as f:
        text = f.read()
    return any(f"blackangel_env.{name} cimport" in text for name in ("state", "_registers", "_state_constants"))


def _state_compiled() -> bool:
    return is_compiled(importlib.import_module(STATE_MODULE))


class _Finder:
    """A ``sys.meta_path`` finder for the modules of ``COMPILED_MODULES`` (see the module's docstring), in the
    package folder ``root``."""

    def __init__(self, interpreted: bool, root: str = _ROOT):
        self.interpreted = interpreted
        self.root = root

    def find_spec(self, name, path=None, target=None):
        if name not in COMPILED_MODULES:
            return None
        src = source_path(name, self.root)
        if not os.path.isfile(src):
            return None                       # not this package's layout: leave it to the usual finders
        ext = _extension_beside(src)
        if self.interpreted:
            _reasons[name] = "interpreted (BLACKANGEL_INTERPRETED=1)"
        elif ext is None:
            _reasons[name] = "interpreted (no extension built)"
        else:
            want, got = source_sha256(src), recorded_sha256(ext)
            if got == want and name != STATE_MODULE and _needs_compiled_state(src) and not _state_compiled():
                _reasons[name] = f"interpreted ({STATE_MODULE} runs interpreted, and this extension is built " \
                                 "against its compiled form)"
            elif got == want:
                _reasons[name] = "compiled"
                return importlib.util.spec_from_file_location(name, ext)
            else:
                _reasons[name] = f"interpreted (stale extension {os.path.basename(ext)})"
                warnings.warn(f"{name}: the extension {ext} was built from another version of {src} (source "
                              f"SHA-256 {got} recorded, {want} now); using the .py. Rebuild with "
                              "`pip install -e .` (or python setup.py build_ext --inplace).", RuntimeWarning,
                              stacklevel=2)
        return importlib.util.spec_from_file_location(
            name, src, loader=importlib.machinery.SourceFileLoader(name, src))


def install() -> None:
    """Puts the finder first on ``sys.meta_path`` (once); reads ``BLACKANGEL_INTERPRETED``, which must be
    unset, 0 or 1."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(_interpreted_requested()))


def is_compiled(module) -> bool:
    """Whether an imported module is an extension (its file ends in an extension suffix such as ``.so``)."""
    f = getattr(module, "__file__", None) or ""
    return f.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def status() -> dict[str, str]:
    """For each module of ``COMPILED_MODULES`` (imported here if it is not yet): "compiled", or
    "interpreted (...)" with the reason."""
    out = {}
    for name in COMPILED_MODULES:
        mod = importlib.import_module(name)
        reason = _reasons.get(name, "")
        out[name] = "compiled" if is_compiled(mod) else reason if reason.startswith("interpreted") else "interpreted"
    return out


def compiled() -> tuple[str, ...]:
    """The modules of ``COMPILED_MODULES`` that run compiled in this process."""
    return tuple(name for name, how in status().items() if how == "compiled")

