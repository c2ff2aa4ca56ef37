"""Writing a file whole: ``write_replacing(path, text)`` (``State.save`` and the ``play`` command's game records)."""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path


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
