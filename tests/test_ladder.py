"""The ladder against Hal (benchmarks/ladder.py): Hal's difficulty only sets his starting VP.

Solitaire variant, "End of the game": "increasing Hal's starting VP at the beginning of the game (easy: 0 VP;
standard: 5 VP; difficult: 10 VP; extreme: 15 VP)".  Neither Hal's cards nor the agents' values depend on it,
so the same seeds give the same game at every difficulty, Hal's final VP shifted by the difference; the
ladder's ``--derive`` relies on that.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from blackangel_env.agents.arena import play_match
from blackangel_env.cli import main as cli

ROOT = Path(__file__).resolve().parents[1]
START = {"easy": 0, "standard": 5, "difficult": 10, "extreme": 15}


def _ladder():
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "benchmarks" / "ladder.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
@pytest.mark.parametrize("code,games", [("random", 3), ("greedy", 2), ("heuristic", 1), ("mcts:2", 1),
                                        ("search:worlds=2,keep=2", 1), ("search:omniscient=1,rollout=2", 1)])
def test_the_same_seeds_give_the_same_games_at_every_difficulty(code, games):
    for g in range(games):
        base = play_match([code], g, 7, "standard")
        for hal in ("easy", "extreme"):
            r = play_match([code], g, 7, hal)
            assert r["scores"] == base["scores"]
            assert (r["rounds"], r["decisions"]) == (base["rounds"], base["decisions"])
            assert r["hal"] - base["hal"] == START[hal] - START["standard"]


def test_derived_difficulties_equal_played_ones(tmp_path, monkeypatch):
    ladder = _ladder()
    monkeypatch.setattr(ladder, "RESULTS", tmp_path)
    ladder.run(["random"], 6, 3, 1, ("standard",))
    written = ladder.derive("random", "standard")
    assert sorted(p.name for p in written) == [f"ladder_random_{d}.json" for d in ("difficult", "easy", "extreme")]
    played = tmp_path / "played.json"
    cli(["eval", "--players", "random", "--hal", "easy", "--games", "6", "--seed", "3", "--quiet",
         "--json", str(played)])
    derived = json.loads((tmp_path / "ladder_random_easy.json").read_text())
    assert derived.pop("derived_from") == "ladder_random_standard.json"
    played = json.loads(played.read_text())
    for doc in (derived, played):               # the agent's CPU time is a measurement, not a result
        assert doc["agents"]["random"].pop("mean_cpu_s") >= 0.0
    assert derived == played
    text = ladder.table()
    row = next(line for line in text.splitlines() if line.startswith("| random |"))
    assert row.count("†") == 3                      # easy, difficult, extreme: derived; standard: played
    assert "--derive" in text


def test_derive_refuses_old_files_without_hal_vp(tmp_path, monkeypatch):
    ladder = _ladder()
    monkeypatch.setattr(ladder, "RESULTS", tmp_path)
    (tmp_path / "ladder_random_standard.json").write_text(json.dumps(
        {"players": ["random"], "hal": "standard", "advanced": False, "games": 1, "seed": 0,
         "agents": {"random": {"games": 1, "wins": 0, "vp": [3]}}}))
    with pytest.raises(SystemExit, match="hal_vp"):
        ladder.derive("random")


def test_derive_refuses_a_network_agent(capsys):
    """A network sees Hal's VP in its observation, so its games at one difficulty are not those of another."""
    with pytest.raises(SystemExit):
        _ladder().main(["--agents", "pretrained", "--hal", "standard", "--derive"])
    assert "--derive does not apply to 'pretrained'" in capsys.readouterr().err
