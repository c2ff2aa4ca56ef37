"""Throughput of the PettingZoo AEC environment (``blackangel_env.bench.aec_steps_per_s``) as a script.

``python benchmarks/bench_env.py [--seconds 3] [--players 1,2,3,4] [--advanced]`` prints one JSON object: agent steps
per second of random legal play through ``blackangel_env.env()`` with the observation and the mask built at every
step, per player count, the observation size and the microseconds of one ``encode_observation`` call.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))       # run from a checkout without an install

from blackangel_env.bench import aec_steps_per_s  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="total seconds of play")
    ap.add_argument("--players", default="1,2,3,4", help="comma-separated player counts (1 = solo vs Hal)")
    ap.add_argument("--advanced", action="store_true", help="advanced rules")
    args = ap.parse_args(argv)
    res = aec_steps_per_s(args.seconds, tuple(int(x) for x in args.players.split(",")), args.advanced)
    print(json.dumps(res))
    return res


if __name__ == "__main__":
    main()
