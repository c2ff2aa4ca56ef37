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


@pytest.mark.parametrize("option", ["--max-steps", "--games"])
@pytest.mark.parametrize("bad", ["0", "-3", "x"])
def test_a_count_that_is_not_positive_is_refused(option, bad, capsys, no_games):
    """``--max-steps 0`` raised a ValueError traceback after the model had loaded."""
    err = _refused(evaluate.main, ["results/ppo_solo", option, bad], capsys)
    assert option in err and "positive integer" in err
    from blackangel_env.training import selfplay
    err = _refused(selfplay.main, ["--evaluate", "results/ppo_solo", option, bad], capsys)
    assert option in err and "positive integer" in err


def test_selfplay_evaluation_refuses_a_bad_seed(capsys):
    """It took ``type=int`` and failed inside Gymnasium's seeding with a traceback."""
    from blackangel_env.training import selfplay
    err = _refused(selfplay.main, ["--evaluate", "results/ppo_solo", "--seed", "-1"], capsys)
    assert "a seed must be a non-negative integer" in err


def _damaged_models(tmp_path):
    import zipfile
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"garbage")
    data_only = tmp_path / "data_only.zip"
    with zipfile.ZipFile(data_only, "w") as z:
        z.writestr("data", "{}")
    return [garbage, data_only]


def test_a_damaged_model_file_is_one_line(tmp_path, capsys):
    """A file that is not a MaskablePPO zip (garbage, a zip without the model's parts) gave a traceback."""
    pytest.importorskip("sb3_contrib")
    from blackangel_env.training import selfplay
    for path in _damaged_models(tmp_path):
        assert evaluate.main([str(path), "--games", "1"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(path) in err[0] and "not a MaskablePPO model that can be loaded" in err[0]
        assert selfplay.main(["--evaluate", str(path), "--games", "1"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "not a MaskablePPO model that can be loaded" in err[0]


def test_selfplay_evaluation_checks_its_json_file_before_the_games(tmp_path, capsys, monkeypatch):
    from blackangel_env.training import selfplay

    def played(*args, **kwargs):
        raise AssertionError("a game was played before --json was checked")
    monkeypatch.setattr(selfplay, "evaluate_tables", played)
    assert selfplay.main(["--evaluate", "results/ppo_solo", "--json", str(tmp_path / "nope" / "r.json")]) == 2
    assert "does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("seed", ["-1", "4294967296", "99999999999999999999999"])
def test_a_model_seed_numpy_cannot_take_is_refused_by_the_config(seed, tmp_path):
    """``run.seed`` outside numpy's legacy range failed inside SB3 with a traceback, leaving a run directory."""
    from blackangel_env.training.config import ConfigError
    from blackangel_env.training.train_ppo import train
    run = tmp_path / "run"
    with pytest.raises(ConfigError, match="run.seed"):
        train("configs/train/ppo_solo.yaml", [f"run.seed={seed}", f"run.dir={run}"])
    assert not run.exists()


def test_a_run_directory_that_is_a_file_is_refused(tmp_path):
    from blackangel_env.training.config import ConfigError
    from blackangel_env.training.train_ppo import train
    f = tmp_path / "file"
    f.write_text("x")
    for target in (f, f / "sub"):
        with pytest.raises(ConfigError, match="is a file"):
            train("configs/train/ppo_solo.yaml", [f"run.dir={target}"])
