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


# -- behaviour cloning (blackangel_env/training/imitation.py) and its dataset -----------------------------------

@pytest.fixture
def no_collection(monkeypatch):
    from blackangel_env.training import imitation

    def collected(*args, **kwargs):
        raise AssertionError("games were collected before the arguments were checked")
    monkeypatch.setattr(imitation, "collect", collected)


@pytest.mark.parametrize("argv, words", [
    (["--agent", "nonsense"], "unknown agent code 'nonsense'"),
    (["--games", "0"], "--games: must be a positive integer"),
    (["--seed", "-1"], "a seed must be a non-negative integer"),
    (["--workers", "0"], "--workers: must be a positive integer"),
    (["--out", "/tmp"], "--out /tmp is a folder"),
    (["--out", "/no/such/folder/d.npz"], "does not exist"),
    (["--clone", "/tmp"], "--clone /tmp is a folder"),
])
def test_imitation_refuses_bad_arguments_before_collecting(argv, words, capsys, no_collection):
    """Each gave a traceback; ``--out /tmp`` only after every game, leaving /tmp.tmp.npz at the root."""
    from blackangel_env.training import imitation
    assert words in _refused(imitation.main, argv, capsys)


def _bad_datasets(tmp_path):
    import numpy as np
    no_meta = tmp_path / "no_meta.npz"
    np.savez(no_meta, obs=np.zeros((1, 2)), masks=np.zeros((1, 111), np.uint8), actions=np.zeros(1, np.int16),
             rewards=np.zeros(1, np.float32), episode=np.zeros(1, np.int32))
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"garbage")
    as_json = tmp_path / "d.json"
    as_json.write_text("{}")
    bad_meta = tmp_path / "bad_meta.npz"
    np.savez(bad_meta, meta=np.array("{}"), obs=np.zeros((1, 2)), masks=np.zeros((1, 111), np.uint8),
             actions=np.zeros(1, np.int16), rewards=np.zeros(1, np.float32), episode=np.zeros(1, np.int32))
    return {"missing": tmp_path / "none.npz", "folder": tmp_path, "no meta": no_meta, "garbage": garbage,
            "json": as_json, "meta without results": bad_meta}


def test_a_bad_dataset_is_a_value_error_naming_the_file(tmp_path):
    """``load_dataset`` raised FileNotFoundError, KeyError ('meta') or numpy's ValueError about pickles."""
    from blackangel_env.training.imitation import check_dataset, load_dataset
    for what, path in _bad_datasets(tmp_path).items():
        for read in (load_dataset, check_dataset):
            with pytest.raises(ValueError, match=f"dataset {path}"):
                read(path)


def test_imitation_data_that_is_not_a_dataset_is_one_line(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from blackangel_env.training import imitation
    for path in _bad_datasets(tmp_path).values():
        assert imitation.main(["--data", str(path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"error: dataset {path}")


def test_save_dataset_writes_its_temporary_file_beside_the_target(tmp_path, monkeypatch):
    """The temporary file was ``path.with_name(stem + ".tmp.npz")``: for a folder target (``/tmp``) it landed at
    the filesystem root and stayed there; a failed write now leaves nothing behind."""
    import numpy as np
    from blackangel_env.training import imitation
    data = {"obs": np.zeros((1, 2), np.float32), "masks": np.zeros((1, 111), np.uint8),
            "actions": np.zeros(1, np.int16), "rewards": np.zeros(1, np.float32), "episode": np.zeros(1, np.int32)}
    meta = {"agent": "greedy", "games": 1, "samples": 1, "expert": {"wins": 0, "mean_margin": 0.0}}
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="is a folder"):
        imitation.save_dataset(folder, data, meta)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    for name in ("d.npz", "d"):
        assert imitation.load_dataset(imitation.save_dataset(tmp_path / name, data, meta))[1] == meta

    def fails(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(np, "savez_compressed", lambda path, **kw: (open(path, "wb").close(), fails()))
    with pytest.raises(OSError):
        imitation.save_dataset(tmp_path / "e.npz", data, meta)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "d.npz", "out"]


def test_a_bad_pretrain_dataset_is_refused_before_the_run_directory_is_made(tmp_path):
    """A dataset without its ``meta`` gave a KeyError traceback after config.yaml and logs/ were written, so the
    run directory then refused a new start."""
    pytest.importorskip("sb3_contrib")
    from blackangel_env.training.config import ConfigError
    from blackangel_env.training.train_ppo import train
    run = tmp_path / "run"
    for path in _bad_datasets(tmp_path).values():
        with pytest.raises(ConfigError, match=f"'pretrain.dataset': dataset {path}"):
            train("configs/train/ppo_solo_tiny.yaml", [f"run.dir={run}", "pretrain.agent=heuristic",
                                                       f"pretrain.dataset={path}"])
        assert not run.exists()


# -- file names the system refuses (too long, a NUL byte) -----------------------------------------------------------

LONG = "a" * 300


def test_file_names_too_long_are_refused_in_one_line(capsys, no_games):
    """``Path.is_dir`` / ``exists`` raised OSError (File name too long): tracebacks."""
    err = _refused(evaluate.main, [f"/tmp/{LONG}"], capsys)
    assert "too long" in err
    err = _refused(evaluate.main, ["results/ppo_solo", "--json", f"/tmp/{LONG}.json"], capsys)
    assert "--json" in err and "too long" in err


def test_a_run_directory_name_too_long_is_refused(tmp_path):
    pytest.importorskip("sb3_contrib")
    from blackangel_env.training.config import ConfigError
    from blackangel_env.training.train_ppo import train
    with pytest.raises(ConfigError, match="'run.dir'.*too long"):
        train("configs/train/ppo_solo_tiny.yaml", [f"run.dir=/tmp/{LONG}"])


@pytest.mark.parametrize("bad", ["-3", "x"])
def test_game_stats_refuses_a_negative_start(bad, capsys, no_games, tmp_path):
    """``--start -3`` gave a traceback from inside the games."""
    err = _refused(game_stats.main, ["--players", "random", "--games", "1", "--start", bad,
                                     "--out", str(tmp_path / "r.csv")], capsys)
    assert "--start" in err and "non-negative integer" in err
