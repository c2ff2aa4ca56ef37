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
    for r in rows:                                    # a table's Hal columns are empty: None once read back
        for k in r:
            if k.startswith("hal_vp") and r[k] == "":
                r[k] = None
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


# -- Hal's VP by cause (HAL_VP_CAUSES, read from the game's log) -----------------------------------------------

class _FinalBuffer:
    """A recorder that leaves the game as it is (no log) and returns its final state buffer."""

    def __init__(self, state):
        assert state.log is None

    def before(self, s, a):
        pass

    def after(self, s, a):
        pass

    def finish(self, s):
        return s.buf.copy()


class _LoggedFinalBuffer(GameRecorder):
    """GameRecorder (which turns the log on in a solo game), returning the final state buffer as well."""

    def finish(self, s):
        assert s.log is not None and len(s.log) > 0
        return {"buf": s.buf.copy(), **super().finish(s)}


@pytest.mark.parametrize("code,game", [("random", 0), ("greedy", 1), ("heuristic", 2)])
def test_the_log_changes_no_game(code, game):
    plain = play_match([code], game, 2026, recorder=_FinalBuffer)
    logged = play_match([code], game, 2026, recorder=_LoggedFinalBuffer)
    assert np.array_equal(plain["record"], logged["record"]["buf"])
    assert plain["scores"] == logged["scores"] and plain["hal"] == logged["hal"]
    assert plain["decisions"] == logged["decisions"]


def _hal_columns(r):
    return {src: r[f"hal_vp_{src}"] for src in game_stats.HAL_VP_SOURCES}


@pytest.mark.parametrize("hal", ["easy", "standard", "extreme"])
def test_hal_sources_add_up_and_no_cause_is_unknown(hal):
    rows = play_games(["random"], 12, seed=2026, hal=hal) + play_games(["greedy"], 2, seed=2026, hal=hal)
    totals = dict.fromkeys(game_stats.HAL_VP_SOURCES, 0)
    for r in rows:
        cols = _hal_columns(r)
        assert sum(cols.values()) == r["hal_vp"]
        assert cols["other"] == 0                      # a new cause in the engine must get its row in HAL_VP_CAUSES
        assert cols["penalty"] <= 0 and all(v >= 0 for k, v in cols.items() if k != "penalty")
        for k, v in cols.items():
            totals[k] += v
    assert len({r["hal_vp_start"] for r in rows}) == 1
    # the common causes all occur over these games
    assert all(totals[k] > 0 for k in ("discover", "repair", "destroy", "mission_reward", "comet", "ejected",
                                       "unable", "no_die", "trade"))


def test_hal_sources_agree_with_the_engine_sources():
    """The log's causes against the engine's own ``vp_src`` columns for Hal (start, trade, penalty, hal)."""
    from blackangel_env.state import BOT, SRC_HAL, SRC_PENALTY, SRC_START, SRC_TRADE
    for seed in (1, 2, 3):
        rng = np.random.default_rng(seed)
        s = engine.new_game(num_players=1, seed=seed)
        rec = GameRecorder(s)
        while not s.terminal:
            legal = engine.legal_actions(s)
            rec.apply(s, int(legal[rng.integers(len(legal))]))
        cols = _hal_columns(rec.rows(s)[0])
        causes, unknown = game_stats.hal_vp_causes(s.log, int(s.vp_src[BOT, SRC_START]))
        assert unknown == [] and causes["other"] == 0
        src = s.vp_src[BOT].tolist()
        assert cols["start"] == src[SRC_START]
        assert cols["trade"] == src[SRC_TRADE] and cols["penalty"] == src[SRC_PENALTY]
        hal_causes = [k for k in game_stats.HAL_VP_SOURCES if k not in ("start", "trade", "penalty", "other")]
        assert sum(cols[k] for k in hal_causes) == src[SRC_HAL]


def test_hal_causes_classify_every_engine_message():
    """Each kind of Hal's VP line the engine writes, as it writes it, lands in its column; others in ``other``."""
    log = ["Hal +4 VP (Discover: 1 tile(s), 1 Advanced) -> 9", "Hal +2 VP (Repair: 2 cube(s) become debris) -> 11",
           "Hal +3 VP (Destroy: 3 Ravager card(s)) -> 14", "Hal +2 VP (reward of Mission card 17) -> 16",
           "Hal +3 VP (his Mission card lies on a comet) -> 19", "Hal +3 VP (his Mission card 12 is ejected) -> 22",
           "Hal +1 VP (free activation of his Mission card 44) -> 23",
           "Hal +3 VP (unable to act: no free gray hex for his Mission card) -> 26",
           "Hal +3 VP (no orange or green die available) -> 29", "Hal +1 VP (player_0 bought Hal's die) -> 30",
           "Hal -1 VP (rolled a damaged gray die) -> 29", "player_0 +3 VP (reward of Mission card 3) -> 8",
           "Hal reveals card H03 (top half first)", "Hal +5 VP (something new) -> 34"]
    causes, unknown = game_stats.hal_vp_causes(log, 5)
    assert causes == {"discover": 4, "repair": 2, "destroy": 3, "mission_reward": 2, "comet": 3, "ejected": 3,
                      "free_activation": 1, "unable": 3, "no_die": 3, "trade": 1, "penalty": -1, "other": 5}
    assert unknown == ["something new"]
    assert game_stats.HAL_VP_SOURCES == ("start", *causes)


def test_hal_columns_are_empty_at_a_table(tmp_path):
    rows = play_games(["random", "random"], 1, seed=0)
    assert all(r[f"hal_vp_{src}"] == "" for r in rows for src in game_stats.HAL_VP_SOURCES)
    back = load_rows(save_rows(rows, tmp_path / "t.jsonl"))
    assert all(r[f"hal_vp_{src}"] is None for r in back for src in game_stats.HAL_VP_SOURCES)
    summ = game_stats.source_summary(rows)["random"]
    assert np.isnan(summ["hal_vp_by_source"]["start"])


def test_summary_by_source(tmp_path, capsys):
    out, summ = tmp_path / "g.csv", tmp_path / "s.json"
    assert game_stats.main(["--players", "random", "--games", "4", "--seed", "1", "--quiet", "--out", str(out),
                            "--summary", str(summ)]) == 0
    import json
    data = json.loads(summ.read_text())["agents"]["random"]
    rows = load_rows(out)
    assert data["games"] == 4
    assert sum(data["vp_by_source"].values()) == pytest.approx(data["mean_vp"])
    assert sum(data["hal_vp_by_source"].values()) == pytest.approx(data["mean_hal_vp"])
    assert data["hal_vp_by_source"]["ejected"] == pytest.approx(np.mean([r["hal_vp_ejected"] for r in rows]))
    text = capsys.readouterr().out
    assert "VP by source:" in text and "Hal's VP" in text


def test_the_engine_gives_hal_vp_where_hal_vp_causes_knows():
    """The call sites that give Hal VP (``hal_gain``, ``gain_vp(s, BOT, ...)``), counted per engine file: one more
    is a new cause, to be given its row in ``HAL_VP_CAUSES`` (and its count here) before it lands in ``other``.
    (Hal's damaged-die penalty goes through ``gain_vp(s, seat, ...)`` in dice.py, shared with the players.)"""
    from pathlib import Path
    engine_dir = Path(engine.__file__).parent
    found = {}
    for path in sorted(engine_dir.glob("*.py")):
        n = len(re.findall(r"^(?!\s*def )(?!\s*#).*\b(?:hal_gain\(|gain_vp\(s, BOT\b)", path.read_text(),
                           flags=re.MULTILINE))
        if n:
            found[path.name] = n
    assert found == {"black_angel.py": 1, "core.py": 2, "hal.py": 7, "sequence_a.py": 1}
