"""The few names of the ``cython`` module that the package's pure-Python-mode sources use, for running them
interpreted where Cython is not installed (Cython is needed only to build, not at run time).

Each compiled module's source imports ``cython`` and falls back to this module (the way SQLAlchemy's pure-mode
modules do); compiled, Cython reads the annotations and decorators, and this module is not used.  Interpreted,
the types are markers, the decorators return their function unchanged, ``declare`` gives a variable its initial
value (a list of zeros for a C array such as ``cython.int[64]``), and ``compiled`` is False.  Only the names
listed here exist: a source that uses another name fails at import, which the tests' interpreted import of each
compiled module catches.
"""

from __future__ import annotations

import builtins

compiled = False


def _float32(x):
    """``cython.float(x)`` interpreted: numpy's float32, so that products and comparisons round as C floats do."""
    import numpy

    return numpy.float32(x)


class _Type:
    """A C type name (``cython.int``): ``T[n]`` is a C array of n, ``T[:]`` a typed memoryview, ``T(x)`` a cast;
    ``cython.const[T]`` the same type, read-only."""

    def __init__(self, name: str, cast=None, length: int | None = None):
        self.name = name
        self.cast = cast
        self.length = length

    def __getitem__(self, key):
        if isinstance(key, builtins.int):
            return _Type(f"{self.name}[{key}]", None, key)
        return _Type(f"{self.name}[:]")

    def __call__(self, x):
        if self.cast is None:
            raise TypeError(f"cython.{self.name} is not a cast")
        return self.cast(x)

    def __repr__(self) -> str:
        return f"cython.{self.name}"


int = _Type("int", builtins.int)  # noqa: A001 - cython.int
short = _Type("short", builtins.int)
schar = _Type("schar", builtins.int)  # a C signed char (an int8 memoryview: cython.schar[:, ::1])
long = _Type("long", builtins.int)
Py_ssize_t = _Type("Py_ssize_t", builtins.int)
double = _Type("double", builtins.float)
float = _Type("float", _float32)  # noqa: A001 - cython.float: a float32 (``cast``), as in C
uint = _Type("uint", builtins.int)  # a C unsigned int: interpreted code masks to 32 bits itself
bint = _Type("bint", builtins.bool)
void = _Type("void")


def pointer(t: _Type) -> _Type:
    """``cython.pointer(T)``: a C pointer type (interpreted, the value is a list standing for the memory)."""
    if not isinstance(t, _Type):
        raise TypeError(f"cython.pointer needs a cython type, not {t!r}")
    return _Type(f"{t.name} *")


class _Const:
    """``cython.const[T]``: T, read-only."""

    def __getitem__(self, t: _Type) -> _Type:
        if not isinstance(t, _Type):
            raise TypeError(f"cython.const needs a cython type, not {t!r}")
        return _Type(f"const {t.name}", t.cast, t.length)


const = _Const()


def declare(t, value=None):
    """``cython.declare(T)`` / ``cython.declare(T, value)``: the variable's value interpreted (a list of zeros
    for a C array; for a class T, an extension type when compiled, the value itself)."""
    if isinstance(t, type):
        return value
    if not isinstance(t, _Type):
        raise TypeError(f"cython.declare needs a cython type, not {t!r}")
    if t.length is not None:
        return [0] * t.length
    return value


def cast(t, x):
    """``cython.cast(T, x)``: ``T(x)`` (a float32 for ``cython.float``)."""
    if not isinstance(t, _Type):
        raise TypeError(f"cython.cast needs a cython type, not {t!r}")
    return t(x)


def _identity(f):
    return f


cfunc = ccall = inline = cclass = _identity


def boundscheck(flag: bool):
    return _identity


wraparound = initializedcheck = cdivision = boundscheck


def locals(**types):  # noqa: A001 - cython.locals: C types for a function's local variables
    return _identity
