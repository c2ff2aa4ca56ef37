"""`blackangel play` driven through standard input to the end of a game; saving, resuming, replaying."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from blackangel_env.cli import load_record, replay_record

CMD = [sys.executable, "-m", "blackangel_env.cli"]


def _run(args, text, timeout=300):
    return subprocess.run(CMD + args, input=text, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_scripted_session_plays_to_the_end(tmp_path):
    """Always the first listed action, with a few bad inputs and commands on the way: the game ends with the
    final scores, and the saved record replays to the same end."""
    save = tmp_path / "game.json"
    script = "help\nboard\n99\nabc\nlog\n" + "0\n" * 3000
    r = _run(["play", "--players", "1", "--seed", "5", "--save", str(save)], script)
    assert r.returncode == 0, r.stderr
    assert "is not a number from 0 to" in r.stdout
    assert "Final scores" in r.stdout and ("Hal wins" in r.stdout or "beats Hal" in r.stdout)
    config, seed, actions = load_record(str(save))
    s = replay_record(config, seed, actions)
    assert s.terminal
    rep = _run(["replay", str(save)], "")
    assert rep.returncode == 0 and "Final scores" in rep.stdout


@pytest.mark.slow
def test_quit_and_resume(tmp_path):
    save = tmp_path / "game.json"
    r = _run(["play", "--players", "2", "--opponents", "random", "--seed", "2", "--save", str(save)],
             "0\n0\n0\nquit\n")
    assert r.returncode == 0 and "resume with --load" in r.stdout
    n_before = len(json.loads(save.read_text())["actions"])
    assert n_before >= 3
    r = _run(["play", "--load", str(save)], "0\n" * 3000)
    assert r.returncode == 0 and "winner(s): player_" in r.stdout
    assert len(json.loads(save.read_text())["actions"]) > n_before


def test_resume_keeps_the_seat_and_the_opponents(tmp_path):
    """The record of a ``play`` session holds the seat and the opponents' codes; ``--load`` plays on with them
    (given again on the command line, they win)."""
    save = tmp_path / "game.json"
    r = _run(["play", "--players", "3", "--seat", "1", "--opponents", "greedy,random", "--seed", "4", "--save",
              str(save)], "0\nquit\n")
    assert r.returncode == 0, r.stderr
    record = json.loads(save.read_text())
    assert record["play"] == {"seat": 1, "opponents": "greedy,random"}
    assert load_record(str(save))[0].num_players == 3
    r = _run(["play", "--load", str(save)], "quit\n")
    assert r.returncode == 0 and "you play seat 1 against greedy,random" in r.stdout and "player_1>" in r.stdout
    r = _run(["play", "--load", str(save), "--seat", "2"], "quit\n")
    assert r.returncode == 0 and "you play seat 2" in r.stdout and "player_2>" in r.stdout
    for bad, message in (({"seat": -1}, "'play.seat' must be"), ({"opponents": 3}, "'play.opponents' must be"),
                         ({"who": 1}, "'play' must hold only"),
                         ({"seat": 5}, "'play.seat' is 5, but the game has 3 player(s)")):
        save.write_text(json.dumps(dict(record, play=bad)))
        r = _run(["play", "--load", str(save)], "")
        assert r.returncode == 2 and message in r.stderr
    cut = dict(record, config={k: v for k, v in record["config"].items() if k != "num_players"})
    save.write_text(json.dumps(cut))                  # a default player count would replay another game
    for cmd in (["play", "--load", str(save)], ["replay", str(save)]):
        r = _run(cmd, "")
        assert r.returncode == 2 and "the record's config lacks 'num_players'" in r.stderr, r.stderr
    old = dict(record)
    del old["play"]                                   # a record written before the entry existed: seat 0, random bots
    save.write_text(json.dumps(old))
    r = _run(["play", "--load", str(save)], "quit\n")
    assert r.returncode == 0 and "you play seat 0" in r.stdout


def test_bad_arguments_exit_2(tmp_path):
    assert _run(["play", "--players", "9"], "").returncode == 2
    assert _run(["play", "--players", "2", "--seat", "3"], "").returncode == 2
    assert _run(["play", "--players", "3", "--opponents", "nope"], "").returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = _run(["replay", str(bad)], "")
    assert r.returncode == 2 and "not a blackangel_env game record" in r.stderr


def test_q_stops_like_quit(tmp_path):
    """``q`` stops the game as ``quit`` does (the help lists both), the record kept."""
    save = tmp_path / "game.json"
    r = _run(["play", "--players", "1", "--seed", "3", "--save", str(save)], "0\nq\n")
    assert r.returncode == 0, r.stderr
    assert "stopped; resume with --load" in r.stdout and "is not a number" not in r.stdout
    assert len(json.loads(save.read_text())["actions"]) == 1


def test_replay_of_an_unfinished_record_says_where_it_stops(tmp_path):
    save = tmp_path / "game.json"
    r = _run(["play", "--players", "1", "--seed", "3", "--save", str(save)], "0\nq\n")
    assert r.returncode == 0, r.stderr
    rep = _run(["replay", str(save)], "")
    assert rep.returncode == 0, rep.stderr
    assert "(the record stops here, before the end of the game: 1 decision recorded)" in rep.stdout
