"""Every matrix file the project ships loads and expands as its README or header comment runs it: a user
pastes these first, so a key renamed in the code must not leave one of them refused."""

import glob
import os

import pytest
from conftest import ROOT, crashmatrix

SHIPPED = sorted(
    glob.glob(os.path.join(ROOT, "matrix", "*.yaml"))
    + glob.glob(os.path.join(ROOT, "examples", "*.yaml"))
    + glob.glob(os.path.join(ROOT, "examples", "*", "matrix.yaml"))
    + glob.glob(os.path.join(ROOT, "examples", "findings", "*.yaml"))  # run from the repository's root
)


def test_the_project_ships_its_matrices():
    assert len(SHIPPED) >= 10, SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: os.path.relpath(p, ROOT))
def test_a_shipped_matrix_shows_its_cells(path):
    # From the folder its own commands are written for: the repository root, or the example's folder.
    folder = os.path.dirname(path) if os.path.basename(path) == "matrix.yaml" else ROOT
    proc = crashmatrix("show", path, "--format", "csv", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("cell_id,") and len(proc.stdout.splitlines()) >= 2, proc.stdout
