"""The optional extras of the package (``pyproject.toml``) and a check that names the one to install.

    train   torch, Stable-Baselines3 and sb3-contrib: ``policy:`` agents and the training scripts
    rllib   Ray RLlib: ``rllib:`` agents and ``blackangel_env/training/rllib_train.py``
    plot    matplotlib: ``blackangel eval --plot`` and ``blackangel_env/training/curves.py``
    dev     train, plot and the test tools
"""

from __future__ import annotations

import importlib.util
import sys

TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"    # PyTorch's wheel index of CPU builds

EXTRAS: dict[str, tuple[str, ...]] = {   # extra -> the modules it installs that the code imports
    "train": ("torch", "stable_baselines3", "sb3_contrib"),
    "rllib": ("ray", "torch"),
    "plot": ("matplotlib",),
}


def missing_extra(extra: str) -> str | None:
    """None if the modules of ``extra`` are installed, else one line saying which extra to install."""
    missing = [m for m in EXTRAS[extra] if importlib.util.find_spec(m) is None]
    if not missing:
        return None
    line = (f"needs the '{extra}' extra ({', '.join(missing)} not installed): pip install 'blackangel-env[{extra}]' "
            f"(in a source checkout: pip install -c ci/constraints-cpu.txt -e '.[{extra}]')")
    if "torch" in missing:
        line += (f"; for the CPU build of torch (pip may otherwise fetch a CUDA build of several GB), install it "
                 f"first: pip install torch --index-url {TORCH_CPU_INDEX} (in a source checkout: pip install -c "
                 f"ci/constraints-cpu.txt torch --index-url {TORCH_CPU_INDEX}, the version the checkout pins)")
    return line


def require_extra(extra: str, prog: str) -> None:
    """For a script's ``main``: if ``extra`` is missing, print ``<prog>: needs the '<extra>' extra ...`` on
    stderr and exit with code 2."""
    missing = missing_extra(extra)
    if missing:
        print(f"{prog}: {missing}", file=sys.stderr)
        raise SystemExit(2)


def check_extra(extra: str, what: str) -> None:
    """For library code: raise ModuleNotFoundError ``<what> needs the '<extra>' extra ...`` if ``extra`` is
    missing (the scripts use ``require_extra``, which prints the same line and exits)."""
    missing = missing_extra(extra)
    if missing:
        raise ModuleNotFoundError(f"{what} {missing}")
