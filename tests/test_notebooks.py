"""Execute every notebook in notebooks/ and fail on any error.

The kernel is this interpreter (``sys.executable -m ipykernel_launcher``), whatever "python3" kernelspec the
machine has installed: on CI only ``pip install -e ".[dev]"`` has run, and the notebooks must import the
package from the same environment as the tests.  Cells tagged ``parameters`` get the small overrides below
appended, so that the test stays fast.  Nothing is written back to the notebook files.
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

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT_S = 120
PARAMETER_OVERRIDES = {"GAMES": 4}


class _ThisInterpreter(KernelSpecManager):
    """Every kernel name resolves to an ipykernel running on the interpreter that runs the tests."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return KernelSpec(
            argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            display_name=f"Python {sys.version_info.major}.{sys.version_info.minor} (tests)",
            language="python",
            resource_dir=str(NOTEBOOK_DIR),
        )


def _apply_overrides(nb) -> None:
    """Append ``NAME = value`` to each ``parameters`` cell for the overridden names it assigns."""
    for cell in nb.cells:
        if cell.cell_type != "code" or "parameters" not in cell.get("metadata", {}).get("tags", []):
            continue
        assigned = {line.split("=", 1)[0].strip() for line in cell.source.splitlines() if "=" in line}
        lines = [f"{k} = {v!r}" for k, v in PARAMETER_OVERRIDES.items() if k in assigned]
        if lines:
            cell.source += "\n# test overrides\n" + "\n".join(lines) + "\n"


def test_notebooks_exist():
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")           # headless, whatever the notebook does
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.get("execution_count") is None, \
                f"{path.name}: clear the outputs before saving"
    _apply_overrides(nb)
    km = KernelManager(kernel_name="python3", kernel_spec_manager=_ThisInterpreter())
    client = nbclient.NotebookClient(nb, km=km, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                                     allow_errors=False, resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors, errors
