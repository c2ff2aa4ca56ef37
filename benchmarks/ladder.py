"""The ladder against Hal: each baseline agent at Hal's four difficulties, from ``blackangel eval`` results.

    python benchmarks/ladder.py --run --agents random,greedy --games 1000 --seed 2026 --workers 2
    python benchmarks/ladder.py --run --agents heuristic --hal standard --games 1000 --seed 2026 --workers 16
    python benchmarks/ladder.py            # only rebuild results/ladder.md from results/ladder_*.json

``--run`` plays ``blackangel eval --players AGENT --hal DIFFICULTY --games N --seed S`` for every pair and
writes ``results/ladder_<agent>_<difficulty>.json``; then the table ``results/ladder.md`` is (re)built from
every such file present.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
DIFFICULTIES = ("easy", "standard", "difficult", "extreme")
sys.path.insert(0, str(ROOT))


def run(agents: list[str], games: int, seed: int, workers: int, hals: tuple[str, ...] = DIFFICULTIES) -> None:
    from blackangel_env.cli import main as cli
    RESULTS.mkdir(exist_ok=True)
    for agent in agents:
        for hal in hals:
            out = RESULTS / f"ladder_{agent.replace(':', '-')}_{hal}.json"
            cli(["eval", "--players", agent, "--hal", hal, "--games", str(games), "--seed", str(seed),
                 "--workers", str(workers), "--quiet", "--json", str(out)])


def table() -> str:
    rows = {}
    meta = set()
    for path in sorted(RESULTS.glob("ladder_*_*.json")):
        d = json.loads(path.read_text())
        (code, r), = d["agents"].items()
        rows.setdefault(code, {})[d["hal"]] = r
        meta.add((d["games"], d["seed"], d["advanced"]))
    lines = ["| agent | " + " | ".join(f"Hal {h}" for h in DIFFICULTIES) + " |",
             "|---|" + "---|" * len(DIFFICULTIES)]
    for code, by in rows.items():
        cells = []
        for h in DIFFICULTIES:
            r = by.get(h)
            if r is None:
                cells.append("-")
                continue
            lo, hi = r["win_rate_ci95"]
            cells.append(f"{r['wins']}/{r['games']} wins ({100 * lo:.1f}-{100 * hi:.1f}%), "
                         f"{r['mean_vp']:.1f} VP, margin {r['mean_margin_vs_hal']:+.1f}")
        lines.append(f"| {code} | " + " | ".join(cells) + " |")
    games = ", ".join(f"{g} games, seed {s}, {'advanced' if a else 'base'} rules" for g, s, a in sorted(meta))
    return (f"Solo games against Hal ({games}); win rate with its 95% Wilson interval, mean final VP and mean "
            "margin against Hal.\n\n" + "\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--agents", default="random,greedy")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--hal", default=",".join(DIFFICULTIES),
                    help="Hal difficulties to run, comma-separated (default: all four)")
    args = ap.parse_args(argv)
    hals = tuple(h.strip() for h in args.hal.split(",") if h.strip())
    bad = [h for h in hals if h not in DIFFICULTIES]
    if bad:
        ap.error(f"unknown Hal difficulty {bad[0]!r}; expected some of {', '.join(DIFFICULTIES)}")
    if args.run:
        run(args.agents.split(","), args.games, args.seed, args.workers, hals)
    text = table()
    (RESULTS / "ladder.md").write_text("# Ladder against Hal\n\n" + text)
    print(text)


if __name__ == "__main__":
    main()
