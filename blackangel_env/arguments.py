"""Checks of command-line values shared by the ``blackangel`` command and the training scripts: a seed, a positive
count, and a file the command will write, all checked before any game is played."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def seed(text: str) -> int:
    """argparse type of a seed: a non-negative integer (numpy's generators take no negative seed)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed must be a non-negative integer, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """argparse type of a count or bound: a positive integer."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def output_problem(path: str, option: str) -> str | None:
    """Why ``path`` cannot be written as a file, or None; checked before any game is played."""
    p = Path(path)
    if p.is_dir():
        return f"{option} {path} is a folder; give a file name"
    folder = p.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        return f"{option} {path}: the folder {folder} {what}"
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        return f"{option} {path}: no permission to write it"
    return None
