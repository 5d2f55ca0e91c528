"""A cell whose command is the project's launcher script (`bash scripts/train.sh key=value`), as many projects
start training: where the shell itself stops the run (`set -u` and a variable nobody exported), `where` is the
script's line, from the app's root, as the eighteenth held-out set's e_shell_unbound_master_addr asks.

Run alone (2026-11-30, bash 5.2): `bash scripts/train.sh x=1` printed `scripts/train.sh: line 4: MASTER_ADDR:
unbound variable` (the path as bash was given it) and exited 1; under crashmatrix the script's path is absolute.
"""

import os

import pytest
from conftest import crashmatrix, rows_of

LAUNCHER = """\
#!/usr/bin/env bash
set -eu
cd "$(dirname "$0")/.."
echo "rendezvous at $MASTER_ADDR"
exec python -c "print('trained')" "$@"
"""


@pytest.mark.slow  # one live cell, no torch
def test_a_launcher_scripts_own_error_is_placed_at_its_line(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "train.sh").write_text(LAUNCHER)
    (tmp_path / "m.yaml").write_text(
        f"name: launcher\ncommand: [bash, {tmp_path / 'scripts' / 'train.sh'}]\ninject: true\naxes:\n  x: [1]\n"
    )
    if "MASTER_ADDR" in os.environ:
        pytest.skip("MASTER_ADDR is set here: the launcher would not stop")
    done = crashmatrix("run", tmp_path / "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["exit_code"]) == ("fail", "1"), row
    assert row["error"] == f"{tmp_path}/scripts/train.sh: line 4: MASTER_ADDR: unbound variable"
    assert row["where"] == "scripts/train.sh:4"
