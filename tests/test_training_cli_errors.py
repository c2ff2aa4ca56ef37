"""The training scripts' command lines refuse a bad seed or an output file they cannot write, in one line with exit
code 2, before any model is loaded or game played (as ``blackangel`` does: tests/test_cli_errors.py)."""

from __future__ import annotations

import pytest

from blackangel_env.training import evaluate, game_stats


@pytest.fixture
def no_games(monkeypatch):
    def played(*args, **kwargs):
        raise AssertionError("a model was loaded or a game played before the arguments were checked")
    monkeypatch.setattr(evaluate, "load_model", played)
    monkeypatch.setattr(evaluate, "evaluate_model", played)
    monkeypatch.setattr(game_stats, "play_games", played)


def _refused(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize("bad", ["-1", "x", "1.5"])
def test_a_seed_that_is_not_a_non_negative_integer_is_refused(bad, capsys, no_games, tmp_path):
    err = _refused(evaluate.main, ["results/ppo_solo", "--seed", bad], capsys)
    assert "a seed must be a non-negative integer" in err
    err = _refused(game_stats.main, ["--players", "random", "--games", "1", "--seed", bad,
                                     "--out", str(tmp_path / "r.csv")], capsys)
    assert "a seed must be a non-negative integer" in err


def test_an_output_file_in_a_missing_folder_is_refused_before_the_games(tmp_path, capsys, no_games):
    err = _refused(evaluate.main, ["results/ppo_solo", "--json", str(tmp_path / "nope" / "r.json")], capsys)
    assert "--json" in err and "does not exist" in err
    err = _refused(game_stats.main, ["--players", "random", "--games", "1", "--out", str(tmp_path)], capsys)
    assert "--out" in err and "folder" in err
