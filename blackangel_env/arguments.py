"""Checks of command-line values shared by the ``blackangel`` command and the training scripts: a seed, a positive
or non-negative count, a number of players, a file name the system can take (``path_problem``) and a file the
command will write (``output_problem``), all checked before any game is played."""

from __future__ import annotations

import argparse
import errno
import os
from pathlib import Path


def _int_at_least(text: str, low: int, message: str) -> int:
    """``text`` as an integer of at least ``low``; argparse's type error ``message`` (with the text) otherwise."""
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low:
        raise argparse.ArgumentTypeError(f"{message}, got {text!r}")
    return value


def seed(text: str) -> int:
    """argparse type of a seed: a non-negative integer (numpy's generators take no negative seed)."""
    return _int_at_least(text, 0, "a seed must be a non-negative integer")


def positive_int(text: str) -> int:
    """argparse type of a count or bound: a positive integer."""
    return _int_at_least(text, 1, "must be a positive integer")


def non_negative_int(text: str) -> int:
    """argparse type of an index: a non-negative integer."""
    return _int_at_least(text, 0, "must be a non-negative integer")


def player_count(text: str) -> int:
    """argparse type of a table size: 1 (solo against Hal) to 4."""
    value = _int_at_least(text, 1, "num_players must be 1 (solo against Hal) to 4")
    if value > 4:
        raise argparse.ArgumentTypeError(f"num_players must be 1 (solo against Hal) to 4, got {text!r}")
    return value


def file_name(text: str) -> str:
    """argparse type of a file name: any text but the empty string (which names no file; an option given an
    empty name would otherwise be taken as not given)."""
    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    return text


def path_problem(path) -> str | None:
    """Why ``path`` cannot name a file on this system at all, or None: a NUL byte in it, a name too long, a
    component that cannot be searched (what probing it with ``os.stat`` raises, other than "no such file" and "not
    a folder", which only say that it does not exist).  ``Path.exists`` and ``Path.is_dir`` raise on such a name
    (OSError, ValueError) instead of answering."""
    try:
        text = os.fspath(path)
    except TypeError:
        return f"a file name must be a string, got {type(path).__name__}"
    if (b"\0" if isinstance(text, bytes) else "\0") in text:
        return "the file name contains a NUL byte"
    try:
        os.stat(text)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        if e.errno == errno.ENAMETOOLONG:
            return "the file name is too long for this system"
        return e.strerror or str(e)
    except ValueError as e:                   # a name the system encoding cannot take
        return f"not a usable file name ({e})"
    return None


def output_problem(path: str, option: str) -> str | None:
    """Why ``path`` cannot be written as a file, or None; checked before any game is played."""
    problem = path_problem(path)
    if problem:
        return f"{option} {path}: {problem}"
    p = Path(path)
    try:
        if p.is_dir():
            return f"{option} {path} is a folder; give a file name"
        folder = p.parent
        if not folder.is_dir():
            what = "is not a folder" if folder.exists() else "does not exist"
            return f"{option} {path}: the folder {folder} {what}"
        if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
            return f"{option} {path}: no permission to write it"
    except (OSError, ValueError) as e:        # probing the name failed (path_problem catches the usual causes)
        return f"{option} {path}: {getattr(e, 'strerror', None) or e}"
    return None
