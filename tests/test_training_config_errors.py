"""A training config that is a folder, not UTF-8 or not YAML: one ConfigError line naming the file (the scripts
print it and exit 2), never a traceback."""

from __future__ import annotations

import pytest

from blackangel_env.training.config import ConfigError, read_yaml


@pytest.mark.parametrize("content, words", [
    (None, "is a folder"),
    (b"\xff\xfe run:", "not UTF-8"),
    (b"run: [", "not valid YAML"),
])
def test_read_yaml_refuses_with_one_line(tmp_path, content, words):
    path = tmp_path
    if content is not None:
        path = tmp_path / "c.yaml"
        path.write_bytes(content)
    with pytest.raises(ConfigError) as e:
        read_yaml(path)
    assert words in str(e.value) and "\n" not in str(e.value)
