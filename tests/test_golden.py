"""Golden trajectories: today's games, pinned step by step (``benchmarks/golden.py``).

Seeded random games over every configuration (1-4 players, base and advanced rules, every Hal difficulty), each
compared with its recorded hashes of the actions, the legal sets, the state buffer after every step, the log
(every 5th game), the generator's final state and the final scores; a few games per configuration go through the
PettingZoo ``env()`` and compare every observation vector, mask and reward; along 8 more games the agents'
determinizations of the state are compared.  A refactoring or a speed-up must leave them all unchanged.  Re-recording (``python benchmarks/golden.py --record``) is allowed only for a change
meant to change games, such as a rule fix, in its own commit (see the script's docstring).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("golden", ROOT / "benchmarks" / "golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

RECORDED = golden.load()
GROUPS = sorted({(e["game"]["kind"], e["game"]["num_players"], e["game"]["advanced"]) for e in RECORDED})


def test_the_record_covers_every_configuration():
    games = [e["game"] for e in RECORDED]
    assert {(g["num_players"], g["advanced"]) for g in games if g["kind"] == "engine"} == {
        (n, a) for n in (1, 2, 3, 4) for a in (False, True)}
    assert {g["hal_difficulty"] for g in games if g["kind"] == "engine" and g["num_players"] == 1} == set(
        golden.HAL_DIFFICULTIES)
    assert {(g["num_players"], g["advanced"]) for g in games if g["kind"] == "env"} == {
        (n, a) for n in (1, 2, 3, 4) for a in (False, True)}
    assert {(g["num_players"], g["advanced"]) for g in games if g["kind"] == "determinize"} == {
        (n, a) for n in (1, 2, 3, 4) for a in (False, True)}
    assert len(games) >= 250
    assert games == golden.all_games()          # the script would record the same list


@pytest.mark.parametrize("kind,n,advanced", GROUPS, ids=[f"{k}-{n}p-{'adv' if a else 'base'}" for k, n, a in GROUPS])
def test_games_unchanged(kind, n, advanced):
    entries = [e for e in RECORDED if (e["game"]["kind"], e["game"]["num_players"], e["game"]["advanced"])
               == (kind, n, advanced)]
    bad = []
    for e in entries:
        diff = golden.differences(e)
        if diff:
            bad.append(f"{e['game']}:\n    " + "\n    ".join(diff))
    assert not bad, f"{len(bad)} of {len(entries)} games changed; first ones:\n" + "\n".join(bad[:3])
