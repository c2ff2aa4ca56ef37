"""The ladder against Hal: each baseline agent at Hal's four difficulties, from ``blackangel eval`` results.

    python benchmarks/ladder.py --run --agents random,greedy --games 1000 --seed 2026 --workers 2
    python benchmarks/ladder.py --run --agents heuristic --hal standard --games 1000 --seed 2026 --workers 16
    python benchmarks/ladder.py            # only rebuild results/ladder.md from results/ladder_*.json

``--run`` plays ``blackangel eval --players AGENT --hal DIFFICULTY --games N --seed S`` for every pair and
writes ``results/ladder_<agent>_<difficulty>.json``; then the table ``results/ladder.md`` is (re)built from
every such file present.

``--derive`` (with ``--run --hal standard``, for search agents too slow to play every difficulty): Hal's difficulty only
sets his starting VP (easy 0, standard 5, difficult 10, extreme 15, rulebook "End of the game" of the solitaire
variant), and neither Hal nor any agent in ``blackangel_env/agents/`` decides differently for it (they value the margin,
and ``tests/test_ladder.py`` checks that the same seeds give the same games at every difficulty).  So the games of
one difficulty *are* the games of the others with Hal's final VP shifted: ``--derive`` writes the other
difficulties' files from the played one's per-game ``vp`` and ``hal_vp``, marked ``"derived_from"``.  A network
agent (``pretrained``, ``policy:``, ``rllib:``) sees Hal's VP in its observation and is refused: it is played at
every difficulty.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
DIFFICULTIES = ("easy", "standard", "difficult", "extreme")
OBSERVATION_AGENTS = ("pretrained", "policy", "rllib")     # agent kinds that see Hal's VP: no --derive
sys.path.insert(0, str(ROOT))


def run(agents: list[str], games: int, seed: int, workers: int, hals: tuple[str, ...] = DIFFICULTIES) -> None:
    from blackangel_env.cli import main as cli
    RESULTS.mkdir(exist_ok=True)
    for agent in agents:
        for hal in hals:
            out = RESULTS / f"ladder_{agent.replace(':', '-')}_{hal}.json"
            cli(["eval", "--players", agent, "--hal", hal, "--games", str(games), "--seed", str(seed),
                 "--workers", str(workers), "--quiet", "--json", str(out)])


def derive(agent: str, source: str = "standard") -> list[Path]:
    """Write ``ladder_<agent>_<d>.json`` for every other difficulty ``d`` from the played ``source`` file."""
    from blackangel_env.agents.arena import wilson_interval
    from blackangel_env.components import default_components
    start = default_components().hal_start_vp
    src = RESULTS / f"ladder_{agent.replace(':', '-')}_{source}.json"
    doc = json.loads(src.read_text())
    (code, r), = doc["agents"].items()
    if "hal_vp" not in r:
        raise SystemExit(f"{src} has no per-game hal_vp (made by an older blackangel eval): rerun it with --run")
    written = []
    for d in DIFFICULTIES:
        if d == source:
            continue
        hal = [h - start[source] + start[d] for h in r["hal_vp"]]
        wins = sum(v > h for v, h in zip(r["vp"], hal))
        row = dict(r, wins=wins, win_rate=wins / r["games"], win_rate_ci95=wilson_interval(wins, r["games"]),
                   mean_margin_vs_hal=sum(v - h for v, h in zip(r["vp"], hal)) / r["games"], hal_vp=hal)
        out = RESULTS / f"ladder_{agent.replace(':', '-')}_{d}.json"
        out.write_text(json.dumps(dict(doc, hal=d, agents={code: row}, derived_from=src.name), indent=2))
        written.append(out)
    return written


def table() -> str:
    rows = {}
    meta = set()
    for path in sorted(RESULTS.glob("ladder_*_*.json")):
        d = json.loads(path.read_text())
        (code, r), = d["agents"].items()
        rows.setdefault(code, {})[d["hal"]] = dict(r, derived_from=d.get("derived_from"))
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
                         f"{r['mean_vp']:.1f} VP, margin {r['mean_margin_vs_hal']:+.1f}"
                         + (f", {r['mean_cpu_s']:.1f} s CPU/game" if "mean_cpu_s" in r else "")
                         + (" †" if r["derived_from"] else ""))
        lines.append(f"| {code} | " + " | ".join(cells) + " |")
    games = ", ".join(f"{g} games, seed {s}, {'advanced' if a else 'base'} rules" for g, s, a in sorted(meta))
    note = ""
    if any(r["derived_from"] for by in rows.values() for r in by.values()):
        note = ("\n† the same seeded games as the played difficulty, Hal's final VP shifted by the difference in "
                "starting VP (`benchmarks/ladder.py --derive`).\n")
    return (f"Solo games against Hal ({games}); win rate with its 95% Wilson interval, mean final VP and mean "
            "margin against Hal (and, where recorded, the agent's CPU seconds per game: its own decisions, not "
            "the engine's or Hal's turns).\n\n" + "\n".join(lines) + "\n" + note)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--agents", default="random,greedy")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--hal", default=",".join(DIFFICULTIES),
                    help="Hal difficulties to run, comma-separated (default: all four)")
    ap.add_argument("--derive", action="store_true",
                    help="after running one difficulty, derive the other three from its games (module docstring)")
    args = ap.parse_args(argv)
    hals = tuple(h.strip() for h in args.hal.split(",") if h.strip())
    bad = [h for h in hals if h not in DIFFICULTIES]
    if bad:
        ap.error(f"unknown Hal difficulty {bad[0]!r}; expected some of {', '.join(DIFFICULTIES)}")
    if args.derive and len(hals) != 1:
        ap.error("--derive needs exactly one played difficulty (--hal standard)")
    from blackangel_env.agents.codes import split_agent_codes
    if args.derive:
        seeing = [a for a in split_agent_codes(args.agents) if a.partition(":")[0].lower() in OBSERVATION_AGENTS]
        if seeing:
            ap.error(f"--derive does not apply to {seeing[0]!r}: a network's observation holds Hal's VP, so it may "
                     "play differently at each difficulty; run the four difficulties instead")
    if args.run:
        run(split_agent_codes(args.agents), args.games, args.seed, args.workers, hals)
    if args.derive:
        for agent in split_agent_codes(args.agents):
            derive(agent, hals[0])
    text = table()
    (RESULTS / "ladder.md").write_text("# Ladder against Hal\n\n" + text)
    print(text)


if __name__ == "__main__":
    main()
