"""A training config that is a folder, not UTF-8 or not YAML: one ConfigError line naming the file (the scripts
print it and exit 2), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from blackangel_env.training.config import ConfigError, read_yaml


@pytest.mark.parametrize("content, words", [
    (None, "is a folder"),
    (b"\xff\xfe run:", "not UTF-8"),
    (b"run: [", "not valid YAML"),
    (b"", "is empty"),                       # an empty file would train on every default for an hour
    (b"# only a comment\n", "is empty"),
    (b"ppo:\n  n_steps: 64\n  n_steps: 128\n", "duplicate key 'n_steps' at line 3"),   # the last one won
    (b"run:\n  seed: 1\nrun:\n  seed: 2\n", "duplicate key 'run' at line 3"),
])
def test_read_yaml_refuses_with_one_line(tmp_path, content, words):
    path = tmp_path
    if content is not None:
        path = tmp_path / "c.yaml"
        path.write_bytes(content)
    with pytest.raises(ConfigError) as e:
        read_yaml(path)
    assert words in str(e.value) and "\n" not in str(e.value)
    assert "<unicode string>" not in str(e.value)


def test_yaml_error_names_the_file(tmp_path):
    path = tmp_path / "recipe.yaml"
    path.write_text("run:\n  total_timesteps: [\n")
    with pytest.raises(ConfigError, match=r'in "[^"]*recipe\.yaml", line'):
        read_yaml(path)


def test_a_section_given_a_value_is_named_as_a_section(tmp_path):
    from blackangel_env.training.config import load_config
    path = tmp_path / "c.yaml"
    path.write_text("ppo: 5\n")
    with pytest.raises(ConfigError, match="'ppo' is a section: it holds keys"):
        load_config(path)


def _schema(schema_name):
    """A recipe's schema by name; the test is skipped where its module needs an extra that is not installed."""
    import importlib
    module = {"PPO_SCHEMA": "blackangel_env.training.config", "SELFPLAY_SCHEMA": "blackangel_env.training.selfplay",
              "RLLIB_SCHEMA": "blackangel_env.training.rllib_train"}[schema_name]
    try:
        return getattr(importlib.import_module(module), schema_name)
    except ImportError:
        pytest.skip(f"{module} needs an extra that is not installed")


@pytest.mark.parametrize("schema_name, listing", [("PPO_SCHEMA", "ppo_solo.yaml"), ("SELFPLAY_SCHEMA", "selfplay_3p.yaml"),
                                                  ("RLLIB_SCHEMA", "rllib_3p.yaml")])
def test_an_unknown_key_points_to_the_config_that_lists_the_recipes_keys(schema_name, listing):
    """The selfplay and RLlib recipes' unknown keys named ppo_solo.yaml, which holds neither's sections."""
    from blackangel_env.training.config import ConfigError, validate
    schema = _schema(schema_name)
    with pytest.raises(ConfigError, match=f"every key is listed in configs/train/{listing}"):
        validate({"foo.bar": 1}, schema)
    assert (Path(__file__).resolve().parents[1] / "configs" / "train" / listing).is_file()


@pytest.mark.parametrize("schema_name, key, bad, good", [
    ("PPO_SCHEMA", "run.torch_threads", 10**20, 4),            # torch.set_num_threads overflowed after the run dir
    ("PPO_SCHEMA", "pretrain.workers", 10_000, 2),
    ("SELFPLAY_SCHEMA", "run.torch_threads", 1025, 0),
    ("RLLIB_SCHEMA", "run.torch_threads", -1, 1024),
    ("RLLIB_SCHEMA", "env_runners.num_env_runners", 257, 256),
])
def test_thread_and_process_counts_are_bounded(schema_name, key, bad, good):
    """Counts of threads and processes far past any machine are refused when the config is read, naming the key
    and the range, before a run directory is made."""
    from blackangel_env.training.config import load_config
    schema = _schema(schema_name)
    with pytest.raises(ConfigError, match=rf"'{key}' must lie in \[\d+, \d+\], got {bad}"):
        load_config(None, [f"{key}={bad}"], schema=schema)
    assert load_config(None, [f"{key}={good}"], schema=schema)[key] == good


@pytest.mark.parametrize("schema_name", ["PPO_SCHEMA", "SELFPLAY_SCHEMA", "RLLIB_SCHEMA"])
@pytest.mark.parametrize("value", ["''", "'   '"])
def test_an_empty_run_dir_is_refused(schema_name, value):
    """An empty ``run.dir`` would have put the run in the current folder."""
    from blackangel_env.training.config import load_config
    with pytest.raises(ConfigError, match="'run.dir' must name a folder"):
        load_config(None, [f"run.dir={value}"], schema=_schema(schema_name))
