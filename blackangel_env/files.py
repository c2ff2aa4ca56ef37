"""Files: writing one whole, ``write_replacing(path, text)`` (``State.save`` and the ``play`` command's game
records), and reading YAML strictly, ``load_yaml(text_or_stream)`` (the component file, game and training configs).
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path
from typing import Any

import yaml


class DuplicateKeyError(yaml.YAMLError):
    """A mapping of a YAML document names one key twice (``yaml.safe_load`` keeps the last value silently)."""


class _StrictLoader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            duplicate = key in seen
            seen.add(key)
        except TypeError:                  # an unhashable key: SafeLoader's own error follows
            duplicate = False
        if duplicate:
            mark = key_node.start_mark
            raise DuplicateKeyError(f"duplicate key {key!r} at line {mark.line + 1}, column {mark.column + 1}")
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(source: Any) -> Any:
    """``yaml.safe_load`` that refuses a key given twice in one mapping (``DuplicateKeyError``, a
    ``yaml.YAMLError``)."""
    return yaml.load(source, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass


def write_replacing(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that a failed write never leaves a truncated file there: through a
    temporary file with a short name in the same folder, which then replaces the target.  A symbolic link is
    followed (the file it points to is replaced, the link stays), an existing file keeps its permission bits, and
    where no temporary file can be made beside the target (a folder that is not writable) or the target is not a
    regular file (a device), the text is written to the path directly.  Failures raise the OSError (or the
    ValueError, for a NUL byte) that the file system gives."""
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        Path(path).write_text(text, encoding="utf-8")     # a device or a fifo; a folder raises IsADirectoryError
        return
    tmp = target.parent / f".{secrets.token_hex(6)}.tmp"
    try:
        f = open(tmp, "x", encoding="utf-8")
    except OSError:
        Path(path).write_text(text, encoding="utf-8")
        return
    try:
        with f:
            f.write(text)
        if target.exists():
            shutil.copymode(target, tmp)
        os.replace(tmp, target)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
