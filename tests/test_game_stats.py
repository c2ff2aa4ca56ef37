"""blackangel_env.training.game_stats: logged games agree with the engine, are deterministic, and count decisions
right."""

from __future__ import annotations

import re

import numpy as np
import pytest

from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.state import VP_SOURCES
from blackangel_env.agents.arena import play_match
from blackangel_env.training import game_stats
from blackangel_env.training.game_stats import FIELDS, GameRecorder, load_rows, play_game, play_games, save_rows


@pytest.mark.parametrize("codes", [["random"], ["greedy"], ["random", "greedy", "random"], ["greedy", "random"]],
                         ids=lambda c: ",".join(c))
@pytest.mark.slow
def test_rows_agree_with_the_engine_and_blackangel_eval(codes):
    for g in range(3):
        ref = play_match(codes, g, 11)          # the games of blackangel eval (blackangel_env.agents.arena)
        rows = play_game(codes, game=g, seed=11)
        assert [list(r) for r in rows] == [FIELDS] * len(codes)
        assert [r["agent"] for r in rows] == ref["seats"]
        assert [r["vp"] for r in rows] == ref["scores"]
        assert [p for p, r in enumerate(rows) if r["won"]] == ref["winners"]
        for p, r in enumerate(rows):
            assert r["seat"] == p and r["players"] == len(codes)
            assert r["rounds"] == ref["rounds"] and r["decisions"] == ref["decisions"]
            assert sum(r[f"vp_{src}"] for src in VP_SOURCES) == r["vp"]
            if len(codes) == 1:
                assert r["hal_vp"] == ref["hal"] and r["margin"] == r["vp"] - ref["hal"]
                assert r["own_decisions"] == r["decisions"]          # Hal's turns are played by the engine
            else:
                assert r["margin"] == r["vp"] - max(x for q, x in enumerate(ref["scores"]) if q != p)
            assert r["turns"] == r["seq_a"] + r["reboots"] + r["passes"]
            assert r["reboots"] == len(r["reboot_rounds"]) >= r["reboots_forced"]
            assert r["own_decisions"] == sum(r[f"blk_{b.lower()}"] for b, _, _ in A.BLOCKS)
            assert r["dice_used"] == sum(r[f"die_{c}"] for c in ("orange", "gray", "green"))
            assert r["dice_used"] == sum(r[f"die_v{v}"] for v in range(4))
            assert r["dice_used"] == sum(r[f"use_act{a}"] for a in range(1, 7)) + r["use_mission"]
            assert r["dice_used"] == r["blk_board_action"] + r["blk_mission_action"]


@pytest.mark.slow
def test_deterministic_and_independent_of_workers(tmp_path):
    a = play_games(["random", "greedy"], 4, seed=3)
    b = play_games(["random", "greedy"], 4, seed=3)
    assert a == b
    c = play_games(["random", "greedy"], 4, seed=3, workers=2)
    assert c == a
    d = play_games(["random", "greedy"], 2, seed=3, start=2)         # a series split in two
    assert d == a[4:]
    assert play_games(["random", "greedy"], 4, seed=4) != a


@pytest.mark.parametrize("name", ["g.csv", "g.csv.gz", "g.jsonl", "g.jsonl.gz"])
def test_save_and_load_round_trip(tmp_path, name):
    rows = play_games(["random"], 3, seed=0) + play_games(["random", "random"], 2, seed=0)
    path = save_rows(rows, tmp_path / name)
    back = load_rows(path)
    for r in rows:                                    # a table's Hal column is empty: None once read back
        if r["hal_vp"] == "":
            r["hal_vp"] = None
    assert back == rows
    cols = game_stats.columns(back)
    assert cols["vp"].dtype == float and np.isnan(cols["hal_vp"][-1])
    assert list(cols["agent"][:3]) == ["random"] * 3
    assert load_rows([path, path]) == rows + rows


def test_hand_checked_counts_on_a_short_game():
    """Seed 3, solo: round 1 play the green card 49 on the left of row 1 (no green tile there), act with the
    own green 3 on action 5 (Destroy) and destroy the Ravagers at actions 3 and 4 (one card each); A3 draws a
    green card.  Round 2: Sequence B with the orange star and the gray 2 left (2 VP lost), reserve a die."""
    s = engine.new_game(num_players=1, seed=3, log=True)
    assert s.die_value[[0, 6, 12]].tolist() == [0, 2, 3] and (s.die_owner[[0, 6, 12]] == 0).all()
    rec = GameRecorder(s)
    script = [A.SEQUENCE_A, A.encode("PLAY_MISSION", 49 * 6 + 0), A.encode("SELECT_DIE", 12),
              A.encode("BOARD_ACTION", 4), A.encode("DESTROY", 2), A.encode("DESTROY", 3),
              A.SEQUENCE_B, A.encode("RESERVE_DIE", 6)]
    for a in script:
        rec.apply(s, a)
    c = rec.c[0]
    expected = {
        "own_decisions": 8, "turns": 2, "seq_a": 1, "reboots": 1, "reboots_forced": 0, "passes": 0,
        "first_reboot_round": 2, "reboot_dice_left": 2, "reboot_pips_lost": 2, "reserves": 1,
        "dice_used": 1, "die_green": 1, "die_orange": 0, "die_v3": 1, "die_flips": 0, "dice_bought": 0,
        "use_act5": 1, "use_destroy": 1, "use_mission": 0, "ravagers_destroyed": 2,
        "a1_green": 1, "a1_orange": 0, "a1_ravager": 0, "a1_none": 0, "drawn_green": 1, "drawn_orange": 0,
        "drawn_gray": 0, "blk_destroy": 2, "blk_select_die": 1, "blk_reserve_die": 1, "tech_taken": 0,
    }
    assert {k: c[k] for k in expected} == expected
    assert rec.reboot_rounds[0] == [2]
    assert int(s.vp_src[0, VP_SOURCES.index("penalty")]) == -2        # the 2 pips lost at the reboot


def test_counts_agree_with_the_game_log():
    """Over a whole random game: the counts against the engine's own log lines."""
    rng = np.random.default_rng(5)
    s = engine.new_game(num_players=2, seed=5, log=True)
    rec = GameRecorder(s)
    while not s.terminal:
        legal = engine.legal_actions(s)
        rec.apply(s, int(legal[rng.integers(len(legal))]))
    rows = rec.rows(s)
    for p, r in enumerate(rows):
        mine = [line for line in s.log if line.startswith(f"[player_{p}] ")]
        assert r["reboots"] == sum(line.endswith("] SEQUENCE_B") for line in mine)
        assert r["dice_used"] == sum("] BOARD_ACTION" in x or "] MISSION_ACTION" in x for x in mine)
        destroyed = [int(m.group(1)) for line in s.log
                     if (m := re.match(rf"player_{p} destroys (\d+) Ravager", line))]
        assert r["ravagers_destroyed"] == sum(destroyed)
        a3_draws = sum(line.startswith(f"player_{p} draws a green Mission card") for line in s.log)
        assert r["drawn_green"] >= a3_draws
        assert r["vp"] == int(s.vp[p])


def test_bad_arguments():
    with pytest.raises(ValueError):
        play_games(["nonsense"], 1)
    with pytest.raises(ValueError):
        play_games(["random"], 1, hal="impossible")


def test_command_line(tmp_path, capsys):
    out = tmp_path / "games.csv"
    assert game_stats.main(["--players", "random", "--hal", "easy", "--games", "3", "--seed", "2", "--quiet",
                            "--out", str(out)]) == 0
    rows = load_rows(out)
    assert len(rows) == 3 and {r["hal"] for r in rows} == {"easy"}
    assert rows == load_rows(save_rows(play_games(["random"], 3, seed=2, hal="easy"), tmp_path / "b.csv"))
    assert "3 games" in capsys.readouterr().out
    assert game_stats.main(["--players", "bogus", "--games", "1", "--out", str(out)]) == 2
