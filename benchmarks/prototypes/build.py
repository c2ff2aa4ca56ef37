"""Builds the measurement prototypes in place (``python benchmarks/prototypes/build.py``; needs Cython and a C
compiler): moves_pyx, moves_pure (the .py compiled by Cython), moves_capi, rng_pyx, rng_pure.  ``--engine DIR`` also
compiles a copy of ``blackangel_env`` in DIR with Cython, the sources unchanged (pure-Python mode without
annotations)."""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent


def build(exts, build_dir: Path, inplace_dir: Path) -> float:
    t0 = time.perf_counter()
    dist = Distribution({"ext_modules": cythonize(exts, quiet=True, build_dir=str(build_dir),
                                                   compiler_directives={"language_level": 3})})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.build_temp = str(build_dir / "tmp")
    cmd.parallel = 2
    cwd = os.getcwd()
    os.chdir(inplace_dir)
    try:
        cmd.ensure_finalized()
        cmd.run()
    finally:
        os.chdir(cwd)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", default=None, help="build only these prototypes")
    ap.add_argument("--engine", type=Path, default=None, help="a copy of the repository to compile blackangel_env in")
    args = ap.parse_args()
    rand_lib = str(Path(np.random.__file__).parent / "lib")
    inc = [np.get_include()]
    opt = ["-O2"]
    if args.engine is None:
        os.chdir(HERE)
        exts = [
            Extension("moves_pyx", ["moves_pyx.pyx"], extra_compile_args=opt),
            Extension("moves_pure", ["moves_pure.py"], extra_compile_args=opt),
            Extension("moves_capi", ["moves_capi.c"], extra_compile_args=opt),
            Extension("rng_pyx", ["rng_pyx.pyx"], include_dirs=inc, library_dirs=[rand_lib],
                      libraries=["npyrandom"], extra_compile_args=opt),
            Extension("rng_pure", ["rng_pure.py"], include_dirs=inc, library_dirs=[rand_lib],
                      libraries=["npyrandom"], extra_compile_args=opt),
        ]
        if args.only:
            exts = [e for e in exts if e.name in args.only]
        print(f"prototypes built in {build(exts, HERE / 'build', HERE):.1f} s")
    else:
        root = args.engine.resolve()
        os.chdir(root)
        mods = ["engine", "state", "board", "hal", "scoring", "actions", "encoding"]
        exts = [Extension(f"blackangel_env.{m}", [f"blackangel_env/{m}.py"], extra_compile_args=opt) for m in mods]
        print(f"engine modules {mods} built in {build(exts, root / 'build', root):.1f} s")


if __name__ == "__main__":
    sys.exit(main())
