"""The build of the compiled modules (the metadata is in pyproject.toml).

Cython compiles each module of ``blackangel_env._compiled.COMPILED_MODULES`` (pure-Python-mode sources) to an
extension beside its ``.py``, recording the source's SHA-256 in it (``BLACKANGEL_SOURCE_SHA256``, in a marker
string of a small C file of the extension's own, ``build/markers/<module>.c``; checked at import).  The build is
optional: without Cython or a C compiler, or when a module fails to compile, the install goes on with a warning and
that module runs interpreted; ``BLACKANGEL_NO_COMPILE=1`` compiles nothing.
"""

import os
import runpy
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
# gcc flags (docs/engine_core.md, "Step 2: the build"): -O1 compiled ship_moves in 3.3 s of CPU against 4.4 s at
# -O2, for a call of 2.5 against 2.1 us; no debug information.  The modules that declare C types (small, their
# time in C loops) take -O2: the observation plan runner (encoding_kernel) fills an observation in about 9 us
# against 12-16 us at -O1 (same machine and session).
CFLAGS = ["-O1", "-g0"]
CFLAGS_TYPED = ["-O2", "-g0"]


class build_ext_optional(build_ext):
    """Builds each extension if it can; one that fails (no compiler, a compile error) is left out with a
    warning, and its module runs interpreted.  The extensions are compiled on every core (pip passes no ``-j``)."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self):
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - e.g. no compiler found at all: every module runs interpreted
            print(f"warning: blackangel_env: no module compiled ({type(e).__name__}: {e}); the package runs "
                  "interpreted", file=sys.stderr)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:  # noqa: BLE001 - any build failure falls back to the interpreted module
            print(f"warning: {ext.name} not compiled ({type(e).__name__}: {e}); it runs interpreted",
                  file=sys.stderr)


MARKER_C = """/* Written by setup.py: the SHA-256 of the module's .py as compiled (BLACKANGEL_SOURCE_SHA256, defined for
   each extension), kept in the extension's file for blackangel_env._compiled to read without loading it. */
__attribute__((used)) static const char blackangel_source_marker_file[] =
    "blackangel-source-sha256:" BLACKANGEL_SOURCE_SHA256 ";";
"""


def marker_source(name):
    """A C file of its own for the extension ``name`` (one object per extension: a shared source would be
    compiled once, with one module's macro) that holds the source-SHA-256 marker."""
    path = os.path.join("build", "markers", name + ".c")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(MARKER_C)
    return path


def extensions():
    if os.environ.get("BLACKANGEL_NO_COMPILE") == "1":
        print("BLACKANGEL_NO_COMPILE=1: nothing compiled, the package runs interpreted", file=sys.stderr)
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("warning: Cython is not installed: nothing compiled, the package runs interpreted", file=sys.stderr)
        return []
    info = runpy.run_path(os.path.join(HERE, "blackangel_env", "_compiled.py"))
    exts = []
    for name in info["COMPILED_MODULES"]:
        src = os.path.join(*name.split(".")) + ".py"
        sha = info["source_sha256"](os.path.join(HERE, src))
        flags = CFLAGS_TYPED if name in info["TYPED_MODULES"] else CFLAGS
        exts.append(Extension(name, [src, marker_source(name)], extra_compile_args=flags,
                              define_macros=[("BLACKANGEL_SOURCE_SHA256", f'"{sha}"')]))
    try:
        directives = {"language_level": 3, "emit_code_comments": False}
        typed = [e for e in exts if e.name in info["TYPED_MODULES"]]
        untyped = [e for e in exts if e.name not in info["TYPED_MODULES"]]
        jobs = os.cpu_count() or 1                    # Cython translates the modules in parallel too
        return (cythonize(typed, build_dir="build/cython", quiet=True, nthreads=jobs, compiler_directives=directives)
                + cythonize(untyped, build_dir="build/cython", quiet=True, nthreads=jobs,
                            compiler_directives={**directives, "annotation_typing": False}))
    except Exception as e:  # noqa: BLE001 - a Cython error: the package still installs, interpreted
        print(f"warning: Cython failed ({type(e).__name__}: {e}); nothing compiled", file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": build_ext_optional})
