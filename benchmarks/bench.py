"""Throughput benchmark of the rules engine and the environments: ``blackangel_env.bench`` as a script of a
source checkout.

Usage: ``python benchmarks/bench.py [--seconds 3] [--players 1,2,3,4] [--advanced] [--env] [--json]`` (the same as
``blackangel bench``); ``blackangel_env.bench``'s docstring lists what it measures and prints.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))       # run from a checkout without an install

from blackangel_env.bench import main  # noqa: E402

if __name__ == "__main__":
    main()
