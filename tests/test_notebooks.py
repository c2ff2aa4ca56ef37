"""Execute every notebook in notebooks/ and fail on any error.

The kernel is this interpreter (``sys.executable -m ipykernel_launcher``), whatever "python3" kernelspec the
machine has installed: on CI only ``pip install -e ".[dev]"`` has run, and the notebooks must import the
package from the same environment as the tests.  Cells tagged ``parameters`` get the small overrides below
appended, so that the test stays fast.  Nothing is written back to the notebook files.

The quickstart is committed without outputs; the training report and the strategy study are committed executed
on their real defaults (results/), so their outputs are cleared here before they run.  Both read a learned
policy: the test trains a tiny run in a temporary directory (``configs/train/ppo_solo_tiny.yaml``) and points
them at it, so that they do not depend on results/.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from jupyter_client.kernelspec import KernelSpec, KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT_S = 120
PARAMETER_OVERRIDES = {"GAMES": 4}
# Notebooks committed with their outputs (executed on the real defaults), and their extra test settings; the
# value TINY_RUN stands for the tiny training run made by the fixture below.
TINY_RUN = object()
COMMITTED_WITH_OUTPUTS = {
    "strategy_study.ipynb": {"AGENTS": ["random", "greedy"], "LOG_DIR": "", "POLICY": TINY_RUN},
    "training_report.ipynb": {"BASELINES": ["random", "greedy"], "LOG_DIR": "", "RUN_DIR": TINY_RUN},
}


class _ThisInterpreter(KernelSpecManager):
    """Every kernel name resolves to an ipykernel running on the interpreter that runs the tests."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return KernelSpec(
            argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            display_name=f"Python {sys.version_info.major}.{sys.version_info.minor} (tests)",
            language="python",
            resource_dir=str(NOTEBOOK_DIR),
        )


def _apply_overrides(nb, overrides: dict) -> None:
    """Append ``NAME = value`` to each ``parameters`` cell for the overridden names it assigns."""
    for cell in nb.cells:
        if cell.cell_type != "code" or "parameters" not in cell.get("metadata", {}).get("tags", []):
            continue
        assigned = {line.split("=", 1)[0].strip() for line in cell.source.splitlines() if "=" in line}
        lines = [f"{k} = {v!r}" for k, v in overrides.items() if k in assigned]
        if lines:
            cell.source += "\n# test overrides\n" + "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> Path:
    """A real, tiny MaskablePPO run (a few hundred steps) with the layout of a training run directory."""
    pytest.importorskip("sb3_contrib")
    from blackangel_env.training.train_ppo import train

    run_dir = tmp_path_factory.mktemp("nb") / "tiny_run"
    train(ROOT / "configs/train/ppo_solo_tiny.yaml",
          [f"run.dir={run_dir}", "logging.tensorboard=false", "logging.progress_bar=false"], progress=lambda _: None)
    assert (run_dir / "best_model.zip").is_file() and (run_dir / "evaluations.csv").is_file()
    return run_dir


def test_notebooks_exist():
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


def test_committed_notebooks_hold_their_outputs():
    for name in COMMITTED_WITH_OUTPUTS:
        nb = nbformat.read(NOTEBOOK_DIR / name, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(c.get("execution_count") for c in code), f"{name}: commit it executed (every code cell)"
        assert not [o for c in code for o in c.outputs if o.output_type == "error"], f"{name}: errors in outputs"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path, monkeypatch, request):
    monkeypatch.setenv("MPLBACKEND", "Agg")           # headless, whatever the notebook does
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    nb = nbformat.read(path, as_version=4)
    overrides = dict(PARAMETER_OVERRIDES)
    if path.name in COMMITTED_WITH_OUTPUTS:
        for key, value in COMMITTED_WITH_OUTPUTS[path.name].items():
            overrides[key] = str(request.getfixturevalue("tiny_run")) if value is TINY_RUN else value
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
    else:
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.get("execution_count") is None, \
                    f"{path.name}: clear the outputs before saving"
    _apply_overrides(nb, overrides)
    km = KernelManager(kernel_name="python3", kernel_spec_manager=_ThisInterpreter())
    client = nbclient.NotebookClient(nb, km=km, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                                     allow_errors=False, resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors, errors
