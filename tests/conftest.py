"""Shared fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture
def training_sandbox(monkeypatch, tmp_path):
    """For training tests: SB3's logs in the test's tmp dir, and torch's thread count restored afterwards (the
    training scripts set it)."""
    import torch

    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3"))
    n = torch.get_num_threads()
    yield
    torch.set_num_threads(n)
