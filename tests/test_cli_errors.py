"""The ``blackangel`` command line with wrong values, missing and malformed files, folders instead of files,
missing extras, Ctrl-C and a closed pipe: one line on stderr naming what is wrong, a non-zero exit, never a
traceback."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import blackangel_env
from blackangel_env import cli
from blackangel_env.cli import build_parser, load_record, main

CMD = [sys.executable, "-m", "blackangel_env.cli"]
ROOT = Path(__file__).resolve().parents[1]


def _run(args, text="", timeout=120):
    return subprocess.run(CMD + args, input=text, capture_output=True, text=True, timeout=timeout)


def _one_line_error(err: str, command: str) -> str:
    """``err`` is one line ``blackangel <command>: ...``; returns it."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"blackangel {command}: "), err
    return lines[0]


def _record(tmp_path, name="g.json", **over):
    d = {"format": "blackangel_env.game", "version": 1, "config": {"num_players": 1}, "seed": 1, "actions": []}
    d.update(over)
    path = tmp_path / name
    path.write_text(json.dumps(d))
    return path


# -- the parser: version, help lines ---------------------------------------------------------------------------

def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"blackangel {blackangel_env.__version__}"


def test_every_subcommand_and_option_has_a_help_line():
    ap = build_parser()
    subs = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    described = {c.dest for c in subs._choices_actions if c.help}
    assert described == set(subs.choices) == {"demo", "bench", "eval", "play", "replay"}
    for name, parser in [("blackangel", ap), *subs.choices.items()]:
        for action in parser._actions:
            if action is not subs:
                assert action.help, f"{name}: {action.option_strings or action.dest} has no help line"
        assert "%%" not in parser.format_help()      # a help text formats (a stray % would raise here)


def test_eval_help_shows_95_percent(capsys):
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    out = capsys.readouterr().out
    assert "95%" in out and "95%%" not in out
    # every family of agent codes is named (the misspelt-code error lists them too)
    flat = " ".join(out.split())
    for code in ("random", "greedy", "heuristic", "mcts[:<simulations>]", "search", "pretrained", "policy:<path>",
                 "rllib:<path>"):
        assert code in flat, code


def test_replay_step_stops_on_q(tmp_path, capsys, monkeypatch):
    """``replay --step`` waits after each decision; ``q`` (or the end of the input) stops it."""
    from blackangel_env import engine

    s = engine.new_game(num_players=1, seed=1)
    taken = []
    for _ in range(5):
        a = engine.legal_actions(s)[0]
        engine.apply(s, a)
        taken.append(a)
    path = _record(tmp_path, actions=taken)
    answers = iter(["", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["replay", str(path), "--step"]) == 0
    out = capsys.readouterr().out
    assert [ln.split()[0] for ln in out.splitlines() if ln.startswith("#")] == ["#0", "#1"]


# -- values the parser refuses -----------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["demo", "--seed", "-1"],
    ["eval", "--players", "random", "--games", "1", "--seed", "-1"],
    ["play", "--seed", "-1"],
    ["play", "--seed", "x"],
])
def test_negative_seed_is_refused(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    line = _one_line_error(capsys.readouterr().err, argv[0])
    assert "--seed" in line and "non-negative integer" in line


def test_parser_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        main(["demo", "--every", "sometimes"])
    assert e.value.code == 2
    assert "--every" in _one_line_error(capsys.readouterr().err, "demo")


# -- demo, bench, replay: values that depend on the game ------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["demo", "--viewer", "7"],
    ["demo", "--viewer", "-1"],
    ["demo", "--players", "1", "--viewer", "1"],
    ["demo", "--players", "3", "--hal", "easy"],
    ["bench", "--seconds", "0"],
    ["bench", "--seconds", "-2"],
    ["bench", "--seconds", "nan"],
    ["bench", "--seconds", "inf"],
])
def test_bad_values_exit_2(argv, capsys):
    assert main(argv) == 2
    _one_line_error(capsys.readouterr().err, argv[0])


@pytest.mark.parametrize("command", ["demo", "play"])
@pytest.mark.parametrize("value", ["0", "5", "-1", "two"])
def test_a_player_count_out_of_1_to_4_names_the_option(command, value, capsys):
    with pytest.raises(SystemExit) as e:
        main([command, "--players", value])
    assert e.value.code == 2
    err = _one_line_error(capsys.readouterr().err, command)
    assert "--players" in err and "1 (solo against Hal) to 4" in err and repr(value) in err


@pytest.mark.parametrize("argv", [
    ["demo", "--config", ""],
    ["eval", "--players", "random", "--games", "1", "--seed", "1", "--json", ""],
    ["eval", "--players", "random", "--games", "1", "--seed", "1", "--plot", ""],
    ["play", "--save", ""],
    ["play", "--load", ""],
    ["replay", ""],
])
def test_an_empty_file_name_is_refused_not_taken_as_no_file(argv, capsys):
    """``--config ''`` played the default game, ``--json ''`` and ``--plot ''`` wrote nothing and exited 0."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "the file name is empty" in _one_line_error(capsys.readouterr().err, argv[0])


def test_bench_with_a_tiny_time_measures_at_least_one_game(capsys):
    """``--seconds`` far below one game's time (it raised ZeroDivisionError): each measurement plays at least once."""
    from blackangel_env.bench import main as bench_main
    out = bench_main(["--seconds", "1e-6", "--players", "2", "--json"])
    assert out["engine_decisions_per_s"] > 0 and out["rollout_decisions_per_s"] > 0
    assert out["decisions_per_game"]["2"] > 0
    capsys.readouterr()


def test_replay_viewer_out_of_range(tmp_path, capsys):
    path = _record(tmp_path)
    assert main(["replay", str(path), "--viewer", "7"]) == 2
    assert "--viewer" in _one_line_error(capsys.readouterr().err, "replay")


@pytest.mark.parametrize("content, words", [
    (b"\xff\xfe{", "not UTF-8"),
    (b"num_players: [", "not valid YAML"),
    (b"- 1", "mapping"),
])
def test_demo_malformed_config(tmp_path, capsys, content, words):
    path = tmp_path / "c.yaml"
    path.write_bytes(content)
    assert main(["demo", "--config", str(path)]) == 2
    assert words in _one_line_error(capsys.readouterr().err, "demo")


def test_demo_config_is_a_folder(tmp_path, capsys):
    assert main(["demo", "--config", str(tmp_path)]) == 2
    _one_line_error(capsys.readouterr().err, "demo")


@pytest.mark.parametrize("extra", [["--players", "2"], ["--hal", "easy"], ["--advanced"]])
def test_demo_config_with_game_options_is_refused(capsys, extra):
    """--config sets the players, the rules and Hal: an explicit --players/--hal/--advanced beside it would be
    ignored, so it is refused, naming the option."""
    config = str(ROOT / "configs" / "games" / "solo_standard.yaml")
    assert main(["demo", "--config", config] + extra) == 2
    assert extra[0] in _one_line_error(capsys.readouterr().err, "demo")


def test_demo_components_file_missing(tmp_path, capsys):
    path = tmp_path / "c.yaml"
    path.write_text(f"num_players: 1\ncomponents: {tmp_path / 'nope.yaml'}\n")
    assert main(["demo", "--config", str(path)]) == 2
    assert "component file" in _one_line_error(capsys.readouterr().err, "demo")


# -- game records: load_record refuses what is not a record, with a ValueError naming the file ------------------------

@pytest.mark.parametrize("make", [
    lambda p: p.write_bytes(b"\xff\xfe{"),                                   # not UTF-8
    lambda p: p.write_text("[" * 100_000 + "]" * 100_000),                   # nested past the recursion limit
    lambda p: p.write_text('{"seed": ' + "9" * 5000 + "}"),                  # an integer past Python's digit limit
    lambda p: p.write_text(json.dumps({"format": "blackangel_env.game", "config": {"num_players": 1},
                                       "seed": -4, "actions": []})),
    lambda p: p.write_text(json.dumps({"format": "blackangel_env.game", "config": {"num_players": 1},
                                       "seed": True, "actions": []})),
    lambda p: p.write_text(json.dumps({"format": "blackangel_env.game", "config": {"num_players": 1},
                                       "seed": 1, "actions": [True]})),
])
def test_load_record_refuses_malformed_files(tmp_path, make):
    path = tmp_path / "r.json"
    make(path)
    with pytest.raises(ValueError, match="r.json"):
        load_record(str(path))


@pytest.mark.parametrize("command", ["replay", "play"])
def test_a_saved_state_given_as_a_record_says_which_file_it_is(tmp_path, capsys, command):
    path = tmp_path / "state.json"
    blackangel_env.new_game(num_players=1, seed=3).save(path)
    argv = [command, str(path)] if command == "replay" else [command, "--load", str(path)]
    assert main(argv) == 2
    err = _one_line_error(capsys.readouterr().err, command)
    assert "saved state" in err and "State.load" in err


@pytest.mark.parametrize("command", ["replay", "play"])
def test_record_with_missing_components_file(tmp_path, capsys, command):
    path = _record(tmp_path, config={"num_players": 1, "components": str(tmp_path / "nope.yaml")})
    argv = [command, str(path)] if command == "replay" else [command, "--load", str(path)]
    assert main(argv) == 2
    assert "component file" in _one_line_error(capsys.readouterr().err, command)


@pytest.mark.parametrize("command", ["replay", "play"])
def test_record_is_a_folder(tmp_path, capsys, command):
    argv = [command, str(tmp_path)] if command == "replay" else [command, "--load", str(tmp_path)]
    assert main(argv) == 2
    _one_line_error(capsys.readouterr().err, command)


# -- eval: outputs and agents checked before the games run ----------------------------------------------------------

@pytest.fixture
def no_games(monkeypatch):
    """Fails the test if ``eval`` starts a game."""
    def played(*args, **kwargs):
        raise AssertionError("a game was played before the arguments were checked")
    monkeypatch.setattr(cli, "play_matches", played)


EVAL = ["eval", "--players", "random", "--games", "2", "--seed", "1", "--quiet"]


def test_eval_json_into_a_missing_folder_is_refused_before_the_games(tmp_path, capsys, no_games):
    assert main(EVAL + ["--json", str(tmp_path / "nope" / "r.json")]) == 2
    assert "does not exist" in _one_line_error(capsys.readouterr().err, "eval")


def test_eval_json_into_a_folder_is_refused(tmp_path, capsys, no_games):
    assert main(EVAL + ["--json", str(tmp_path)]) == 2
    assert "folder" in _one_line_error(capsys.readouterr().err, "eval")


def test_eval_players_given_a_count_says_it_takes_agent_codes(capsys, no_games):
    """``demo --players 3`` is a count, ``eval --players`` one agent code per seat: a count gets a hint."""
    assert main(["eval", "--players", "3", "--games", "2", "--seed", "1"]) == 2
    assert "takes agent codes, one per seat" in _one_line_error(capsys.readouterr().err, "eval")


@pytest.mark.parametrize("name", ["nope/h.png", "h.notaformat", "."])
def test_eval_plot_checked_before_the_games(tmp_path, capsys, no_games, name):
    assert main(EVAL + ["--plot", str(tmp_path / name)]) == 2
    _one_line_error(capsys.readouterr().err, "eval")


def test_eval_plot_without_matplotlib_names_the_extra(tmp_path, capsys, monkeypatch, no_games):
    monkeypatch.setitem(sys.modules, "matplotlib", None)       # as if it were not installed
    assert main(EVAL + ["--plot", str(tmp_path / "h.png")]) == 2
    assert "'plot' extra" in _one_line_error(capsys.readouterr().err, "eval")


def test_eval_plot_in_a_format_that_cannot_be_written_here_is_refused_before_the_games(tmp_path, capsys, monkeypatch,
                                                                                        no_games):
    """A format matplotlib knows but cannot write on this machine (pgf without LaTeX raised a traceback after the
    games): tried on an empty figure first."""
    import matplotlib.backend_bases

    def no_latex(*args, **kwargs):
        raise RuntimeError("'xelatex' not found")
    monkeypatch.setattr(matplotlib.backend_bases.FigureCanvasBase, "print_figure", no_latex)
    assert main(EVAL + ["--plot", str(tmp_path / "h.pgf")]) == 2
    assert "cannot write the pgf format" in _one_line_error(capsys.readouterr().err, "eval")


def test_eval_plot_that_fails_after_the_games_is_one_line(tmp_path, capsys, monkeypatch):
    def fails(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(cli, "_eval_plot", fails)
    assert main(EVAL + ["--plot", str(tmp_path / "h.png")]) == 2
    out, err = capsys.readouterr()
    assert "random" in out                                    # the results were printed
    assert "disk full" in _one_line_error(err, "eval")


def test_policy_without_torch_names_the_extra(tmp_path, capsys, monkeypatch, no_games):
    monkeypatch.setitem(sys.modules, "torch", None)
    assert main(["eval", "--players", f"policy:{tmp_path}", "--games", "1", "--seed", "1", "--quiet"]) == 2
    assert "'train' extra" in _one_line_error(capsys.readouterr().err, "eval")


def test_rllib_without_ray_names_the_extra(tmp_path, capsys, monkeypatch, no_games):
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["eval", "--players", f"rllib:{tmp_path}", "--games", "1", "--seed", "1", "--quiet"]) == 2
    assert "'rllib' extra" in _one_line_error(capsys.readouterr().err, "eval")


def test_policy_that_is_not_a_checkpoint(tmp_path, capsys, no_games):
    pytest.importorskip("sb3_contrib")
    bad = tmp_path / "model.zip"
    bad.write_text("not a zip")
    for path in (tmp_path, bad):                    # a folder without a checkpoint, a file that is not one
        assert main(["eval", "--players", f"policy:{path}", "--games", "1", "--seed", "1", "--quiet"]) == 2
        assert "cannot load" in _one_line_error(capsys.readouterr().err, "eval")


# -- play: arguments ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["play", "--players", "1", "--opponents", "greedy"], "Hal"),
    (["play", "--players", "2", "--hal", "easy"], "--hal"),
    (["play", "--players", "1", "--seat", "1"], "--seat"),
    (["play", "--players", "2", "--opponents", "policy:/no/such/run"], "policy"),
    (["play", "--players", "2", "--opponents", "random,random"], "needs 1 code, got 2"),
])
def test_play_bad_arguments(argv, words, capsys):
    assert main(argv) == 2
    assert words in _one_line_error(capsys.readouterr().err, "play")


def test_play_load_with_game_options_is_refused(tmp_path, capsys):
    path = _record(tmp_path)
    assert main(["play", "--load", str(path), "--players", "3", "--seed", "4"]) == 2
    line = _one_line_error(capsys.readouterr().err, "play")
    assert "--players" in line and "--seed" in line


def test_play_save_into_a_missing_folder_is_refused(tmp_path, capsys):
    assert main(["play", "--save", str(tmp_path / "nope" / "g.json")]) == 2
    assert "does not exist" in _one_line_error(capsys.readouterr().err, "play")


def test_play_save_does_not_overwrite_a_file_that_is_not_a_record(tmp_path, capsys):
    other = tmp_path / "notes.txt"
    other.write_text("my notes")
    assert main(["play", "--save", str(other)]) == 2
    assert "not a game record" in _one_line_error(capsys.readouterr().err, "play")
    assert other.read_text() == "my notes"


# -- play: the input loop -----------------------------------------------------------------------------------------

def _inputs(monkeypatch, answers):
    """Feed ``answers`` to ``input()``; an exception instance in the list is raised instead."""
    it = iter(answers)

    def fake(prompt=""):
        print(prompt, end="")
        x = next(it)
        if isinstance(x, BaseException):
            raise x
        return x
    monkeypatch.setattr("builtins.input", fake)


def test_play_superscript_digit_is_not_a_choice(monkeypatch, capsys):
    """'²' passes str.isdigit but not int(): it is answered like any other bad input."""
    _inputs(monkeypatch, ["²", "٣", "quit"])
    assert main(["play", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "'²' is not a number" in out and "'٣' is not a number" in out


def test_play_save_command_into_a_missing_folder_keeps_the_game(tmp_path, monkeypatch, capsys):
    good = tmp_path / "my game.json"
    _inputs(monkeypatch, [f"save {tmp_path / 'nope' / 'g.json'}", f"save {tmp_path}", f"save {good}", "quit"])
    assert main(["play", "--seed", "3"]) == 0
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err and cap.err.count("blackangel play: cannot save:") == 2
    assert f"saved to {good}" in cap.out
    assert load_record(str(good))[1] == 3


def test_play_autosave_failure_keeps_the_game(tmp_path, monkeypatch, capsys):
    """The folder of --save disappears during the game: each decision says the save failed, the game goes on."""
    folder = tmp_path / "gone"
    folder.mkdir()
    save = folder / "g.json"

    def remove_then(x):
        def act():
            if folder.exists():
                folder.rmdir()
            return x
        return act
    answers = iter([remove_then("0"), lambda: "0", lambda: "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers)())
    assert main(["play", "--seed", "3", "--save", str(save)]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "cannot save" in err and not save.exists()


def test_ctrl_c_without_save_offers_to_save(tmp_path, monkeypatch, capsys):
    target = tmp_path / "kept.json"
    _inputs(monkeypatch, ["0", KeyboardInterrupt(), str(tmp_path / "nope" / "x.json"), str(target)])
    assert main(["play", "--seed", "3"]) == 130
    cap = capsys.readouterr()
    assert "interrupted" in cap.out and "save the game?" in cap.out and f"saved to {target}" in cap.out
    assert "does not exist" in cap.err          # the first answer was refused, the question asked again
    config, seed, actions = load_record(str(target))
    assert seed == 3 and len(actions) >= 1


@pytest.mark.parametrize("answer", ["y", "Yes"])
def test_ctrl_c_answered_yes_asks_for_the_file_name(answer, tmp_path, monkeypatch, capsys):
    """"y" to "save the game?" is an answer, not a file name: the file name is asked for; "n" leaves."""
    target = tmp_path / "kept.json"
    monkeypatch.chdir(tmp_path)
    _inputs(monkeypatch, ["0", KeyboardInterrupt(), answer, str(target)])
    assert main(["play", "--seed", "3"]) == 130
    assert f"saved to {target}" in capsys.readouterr().out and not (tmp_path / answer).exists()
    _inputs(monkeypatch, ["0", KeyboardInterrupt(), "n"])
    assert main(["play", "--seed", "3"]) == 130
    assert "left without saving" in capsys.readouterr().out and not (tmp_path / "n").exists()


def test_play_commands_in_any_case_and_an_empty_save_name(monkeypatch, capsys):
    _inputs(monkeypatch, ["HELP", "Board", "LOG", "Q"])
    assert main(["play", "--seed", "3"]) == 0
    cap = capsys.readouterr()
    assert "is not a number" not in cap.out and "stopped" in cap.out
    assert main(["play", "--seed", "3", "--save", " "]) == 2
    assert "--save needs a file name" in capsys.readouterr().err


def test_ctrl_c_twice_leaves_without_saving(monkeypatch, capsys):
    _inputs(monkeypatch, [KeyboardInterrupt(), KeyboardInterrupt()])
    assert main(["play", "--seed", "3"]) == 130
    assert "left without saving" in capsys.readouterr().out


def test_ctrl_c_in_play_with_save_is_a_clean_exit(tmp_path):
    """A real SIGINT while ``play`` waits for input: exit code 130, no traceback, the record saved."""
    save = tmp_path / "g.json"
    # SIGINT as a terminal's Ctrl-C delivers it, even where the test runner was started with SIGINT ignored
    p = subprocess.Popen(CMD + ["play", "--seed", "3", "--save", str(save)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    out = b""
    deadline = time.monotonic() + 120
    while b"player_0> " not in out and time.monotonic() < deadline:
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        out += chunk
    assert b"player_0> " in out
    time.sleep(0.5)          # the prompt is written just before the read: signal the read, not the moment before it
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)       # stdin stays open: an end of input must not stand in for the Ctrl-C
    rest, err = p.communicate(timeout=60)
    assert p.returncode == 130
    assert b"Traceback" not in err
    assert b"resume with blackangel play --load" in rest
    assert load_record(str(save))[1] == 3


def test_interrupt_outside_play_exits_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "_demo", interrupted)
    assert main(["demo"]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_closed_pipe_is_a_quiet_exit():
    """``blackangel demo | head -1``: the reader goes away; no traceback."""
    p = subprocess.Popen(CMD + ["demo", "--every", "turn"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=120)
    assert b"Traceback" not in err and b"Exception ignored" not in err
    assert p.returncode != 0


@pytest.mark.parametrize("argv", [
    ["demo", "--playrs", "3"],
    ["eval", "--players", "random", "--games", "1", "--seed", "1", "--wrkers", "2"],
    ["replay", "game.json", "--step", "extra"],
])
def test_an_unknown_option_names_the_subcommands_help(argv, capsys):
    """An option the subcommand does not know is refused in one line that points to that subcommand's help (the
    top-level help does not list its options)."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    line = _one_line_error(capsys.readouterr().err, argv[0])
    assert "unrecognized arguments" in line and line.endswith(f"(see blackangel {argv[0]} --help)")


# -- file names the system refuses (too long, a NUL byte) -----------------------------------------------------------

LONG = "a" * 300                          # longer than a file name may be (ENAMETOOLONG)


@pytest.mark.parametrize("argv", [
    ["--players", f"policy:/tmp/{LONG}"], ["--players", f"rllib:/tmp/{LONG}"],
    ["--players", "random", "--json", f"/tmp/{LONG}.json"], ["--players", "random", "--plot", f"/tmp/{LONG}.png"],
])
def test_eval_refuses_a_file_name_too_long_before_the_games(argv, capsys, no_games):
    """``Path.exists`` / ``is_dir`` raised OSError (File name too long): a traceback."""
    assert main(["eval", "--games", "1", "--seed", "1", "--quiet"] + argv) == 2
    _one_line_error(capsys.readouterr().err, "eval")


@pytest.mark.parametrize("argv", [["--save", f"/tmp/{LONG}.json"], ["--load", f"/tmp/{LONG}.json"],
                                  ["--players", "2", "--opponents", f"policy:/tmp/{LONG}"]])
def test_play_refuses_a_file_name_too_long(argv, capsys):
    assert main(["play"] + argv) == 2
    _one_line_error(capsys.readouterr().err, "play")


def test_play_save_command_with_a_name_the_system_refuses_keeps_the_game(tmp_path, monkeypatch, capsys):
    """``save <name>`` with a NUL byte raised ValueError (only OSError was caught), one too long OSError from the
    check: the game in progress was lost."""
    good = tmp_path / "g.json"
    _inputs(monkeypatch, [f"save {tmp_path}/a\0b.json", f"save /tmp/{LONG}.json", f"save {good}", "quit"])
    assert main(["play", "--seed", "3"]) == 0
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err and cap.err.count("blackangel play: cannot save:") == 2
    assert "NUL" in cap.err and "too long" in cap.err
    assert f"saved to {good}" in cap.out and load_record(str(good))[1] == 3


def test_eval_json_that_cannot_be_written_after_the_games_is_one_line(tmp_path, capsys, monkeypatch):
    """A --json file that passes the check but refuses the write (``/proc/x.json``) gave a traceback after the
    games, as --plot did before."""
    import pathlib

    def full(self, *args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(pathlib.Path, "write_text", full)
    assert main(EVAL + ["--json", str(tmp_path / "r.json")]) == 2
    out, err = capsys.readouterr()
    assert "random" in out                                    # the results were printed
    assert "No space left on device" in _one_line_error(err, "eval")


def test_play_quit_after_a_failed_save_does_not_offer_to_resume(tmp_path, monkeypatch, capsys):
    """``quit`` said "resume with --load FILE" even when no save had succeeded (the file did not exist)."""
    from blackangel_env import files

    def full(path, text):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(files, "write_replacing", full)
    target = tmp_path / "g.json"
    _inputs(monkeypatch, ["0", "quit"])
    assert main(["play", "--seed", "3", "--save", str(target)]) == 0
    cap = capsys.readouterr()
    assert "resume with --load" not in cap.out and f"the game is not saved in {target}" in cap.out
    assert "cannot save" in cap.err and not target.exists()


def test_play_quit_before_saving_elsewhere_names_the_loaded_file(tmp_path, monkeypatch, capsys):
    """``--load a.json --save b.json`` and ``quit`` at once said only "not saved in b.json"."""
    first, other = tmp_path / "a.json", tmp_path / "b.json"
    _inputs(monkeypatch, ["0", "quit"])
    assert main(["play", "--seed", "3", "--save", str(first)]) == 0
    capsys.readouterr()
    _inputs(monkeypatch, ["quit"])
    assert main(["play", "--load", str(first), "--save", str(other)]) == 0
    out = capsys.readouterr().out
    assert f"not saved in {other} ({first} still holds it as loaded: resume with --load {first})" in out
    assert not other.exists()


def test_a_record_with_bad_opponents_is_named_as_the_source(tmp_path, monkeypatch, capsys):
    """``play --load`` of a record whose ``play.opponents`` is wrong names the record's field, not --opponents."""
    import json
    path = tmp_path / "g.json"
    _inputs(monkeypatch, ["0", "q"])
    assert main(["play", "--seed", "3", "--save", str(path)]) == 0
    record = json.loads(path.read_text())
    for bad in ("greedy", "nosuchbot,random,random"):
        record["play"]["opponents"] = bad
        path.write_text(json.dumps(record))
        capsys.readouterr()
        assert main(["play", "--load", str(path)]) == 2
        cap = capsys.readouterr()
        assert "'play.opponents'" in cap.err and "--opponents" not in cap.err and "Traceback" not in cap.err
        assert "resumed" not in cap.out          # said only once the record's seat and opponents are accepted


@pytest.mark.parametrize("args, message", [
    (["eval", "--players", "random", "--games", "3", "--seed", "1", "--workers", "1000"], "--workers must be 1-256"),
    (["eval", "--players", "mcts:", "--games", "1", "--seed", "1"], "nothing after ':'"),
    (["eval", "--players", "search:", "--games", "1", "--seed", "1"], "nothing after ':'"),
    (["eval", "--players", "search:worlds=1000000", "--games", "1", "--seed", "1"], "worlds must be an integer from 1"),
    (["eval", "--players", "search:depth=21", "--games", "1", "--seed", "1"], "depth must be an integer from 0 to 20"),
    (["play", "--players", "3", "--opponents", "random,"], "an empty agent code"),
    (["play", "--players", "3", "--opponents", "random,,greedy"], "an empty agent code"),
])
def test_out_of_bound_workers_agent_parameters_and_empty_codes_are_refused(capsys, args, message):
    """A worker count past ``arena.MAX_WORKERS``, an agent code with nothing after its ':' or a search parameter past
    its range (each would start a run that never ends, or hundreds of processes), and an empty code in the play
    session's --opponents (as eval's --players) are refused in one line before any game."""
    assert main(args) == 2
    assert message in _one_line_error(capsys.readouterr().err, args[0])


def test_eval_plays_a_series_without_listing_its_games_first(monkeypatch):
    """``play_matches`` makes each game's task as it plays it: a series of 10**18 games starts at once and holds no
    list of them (the first results come after a handful of games)."""
    from blackangel_env.agents import arena
    seen = []
    original = arena._match_task

    class Enough(Exception):
        pass

    def task(t):
        seen.append(t[1])
        if len(seen) == 3:
            raise Enough
        return original(t)

    monkeypatch.setattr(arena, "_match_task", task)
    with pytest.raises(Enough):
        arena.play_matches(["random"], 10**18, seed=1)
    assert seen == [0, 1, 2]
